/* pathbuild.c: push sequence to moves. */
#include "pathbuild.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>

int path_build(const board *b, const push_seq *ps, movelist *out)
{
    position p;
    pos_init(&p, b);
    reach r;
    reach_init(&r, b->nsq);
    uint8_t *walk = xmalloc((size_t)b->nsq + 1);
    int rc = 0;
    for (int i = 0; i < ps->n && rc == 0; i++) {
        const push_step *st = &ps->v[i];
        sq_t behind = b->nb[st->from][DIR_OPP(st->dir)];
        if (p.box_at[st->from] == NO_BOX || behind == SQ_NONE || p.box_at[behind] != NO_BOX) {
            rc = -1;
            break;
        }
        int n = reach_path(&r, &p, p.player, behind, walk);
        if (n < 0) {
            rc = -1;
            break;
        }
        for (int k = 0; k < n; k++)
            moves_add(out, walk[k], 0);
        sq_t to = st->from;
        for (int k = 0; k < st->len; k++) {
            to = b->nb[to][st->dir];
            if (to == SQ_NONE || p.box_at[to] != NO_BOX) {
                rc = -1;
                break;
            }
        }
        if (rc)
            break;
        undo_rec u;
        pos_push(&p, st->from, st->dir, st->len, &u);
        for (int k = 0; k < st->len; k++)
            moves_add(out, st->dir, 1);
    }
    free(walk);
    reach_free(&r);
    pos_free(&p);
    return rc;
}
