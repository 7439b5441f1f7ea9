/* pathbuild.c: push sequence to moves. A straight step (the box moving
 * along its last push direction with the squares free) is pushed directly;
 * any other macro is replayed by the fewest-push path of that box. */
#include "pathbuild.h"
#include "boxpath.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>

/* Walks to the square behind the box on `box` and pushes it one square in
 * direction d. Returns 0, or -1 when that is impossible. */
static int walk_and_push(position *p, reach *r, uint8_t *walk, sq_t box, int d, movelist *out)
{
    const board *b = p->b;
    sq_t behind = b->nb[box][DIR_OPP(d)], ahead = b->nb[box][d];
    if (p->box_at[box] == NO_BOX || behind == SQ_NONE || ahead == SQ_NONE ||
        p->box_at[behind] != NO_BOX || p->box_at[ahead] != NO_BOX)
        return -1;
    int n = reach_path(r, p, p->player, behind, walk);
    if (n < 0)
        return -1;
    for (int k = 0; k < n; k++)
        moves_add(out, walk[k], 0);
    undo_rec u;
    pos_push(p, box, d, 1, &u);
    moves_add(out, d, 1);
    return 0;
}

/* How many pushes take the box on `from` straight to `to` in direction d
 * (the squares on the way free, the player able to get behind it), or 0
 * when it cannot go straight. */
static uint32_t straight(const position *p, reach *r, uint8_t *walk, sq_t from, sq_t to, int d)
{
    const board *b = p->b;
    uint32_t k = 0;
    sq_t s = from;
    while (s != to) {
        s = b->nb[s][d];
        if (s == SQ_NONE || p->box_at[s] != NO_BOX)
            return 0;
        k++;
    }
    sq_t behind = b->nb[from][DIR_OPP(d)];
    if (k == 0 || behind == SQ_NONE || p->box_at[behind] != NO_BOX ||
        reach_path(r, p, p->player, behind, walk) < 0)
        return 0;
    return k;
}

int path_build(const board *b, const push_seq *ps, movelist *out)
{
    position p;
    pos_init(&p, b);
    reach r;
    reach_init(&r, b->nsq);
    boxpath bp;
    boxpath_init(&bp, b->nsq);
    uint8_t *walk = xmalloc((size_t)b->nsq * 4 + 1);
    uint8_t *dirs = xmalloc((size_t)b->nsq * 4 + 1);
    int rc = 0;
    for (int i = 0; i < ps->n && rc == 0; i++) {
        const push_step *st = &ps->v[i];
        sq_t box = st->from;
        uint32_t line = straight(&p, &r, walk, st->from, st->to, st->dir);
        if (line > 0) {
            for (uint32_t k = 0; k < line && rc == 0; k++) {
                rc = walk_and_push(&p, &r, walk, box, st->dir, out);
                box = b->nb[box][st->dir];
            }
            continue;
        }
        int n = boxpath_search_dir(&bp, &p, st->from, st->to, st->dir, dirs, 0);
        if (n <= 0) {
            rc = -1;
            break;
        }
        for (int k = 0; k < n && rc == 0; k++) {
            rc = walk_and_push(&p, &r, walk, box, dirs[k], out);
            box = b->nb[box][dirs[k]];
        }
    }
    free(walk);
    free(dirs);
    boxpath_free(&bp);
    reach_free(&r);
    pos_free(&p);
    return rc;
}
