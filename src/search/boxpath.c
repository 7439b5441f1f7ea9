/* boxpath.c: single-box push paths (see boxpath.h). */
#include "boxpath.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void boxpath_init(boxpath *bp, int nsq)
{
    bp->nsq = nsq;
    bp->parent = xmalloc(sizeof(int32_t) * (size_t)nsq * 4);
    bp->depth = xmalloc(sizeof(int32_t) * (size_t)nsq * 4);
    bp->mark = xcalloc((size_t)nsq * 4, sizeof(uint32_t));
    bp->stamp = 0;
    bp->queue = xmalloc(sizeof(int32_t) * ((size_t)nsq * 4 + 1));
    reach_init(&bp->r, nsq);
}

void boxpath_free(boxpath *bp)
{
    free(bp->parent);
    free(bp->depth);
    free(bp->mark);
    free(bp->queue);
    reach_free(&bp->r);
    memset(bp, 0, sizeof *bp);
}

/* A state is box * 4 + d: the box on `box`, the player on its neighbour in
 * direction d. The start state uses the player's real square instead, kept
 * apart as START. */
#define START (-1)

int boxpath_search(boxpath *bp, position *p, sq_t from, sq_t to, uint8_t *dirs, int max_pushes)
{
    const board *b = p->b;
    if (from == to)
        return 0;
    if (++bp->stamp == 0) {
        memset(bp->mark, 0, sizeof(uint32_t) * (size_t)bp->nsq * 4);
        bp->stamp = 1;
    }
    sq_t player0 = p->player;
    int head = 0, tail = 0, found = -1;
    bp->queue[tail++] = START;
    sq_t cur_box = from;
    while (head < tail && found < 0) {
        int st = bp->queue[head++];
        sq_t box = st == START ? from : (sq_t)(st / 4);
        sq_t pl = st == START ? player0 : b->nb[box][st % 4];
        /* place the box */
        if (box != cur_box) {
            undo_rec u;
            pos_relocate(p, cur_box, box, pl, &u);
            cur_box = box;
        }
        p->player = pl;
        int depth = st == START ? 0 : bp->depth[st];
        if (max_pushes > 0 && depth >= max_pushes)
            continue;
        reach_compute(&bp->r, p, pl);
        for (int d = 0; d < 4; d++) {
            sq_t behind = b->nb[box][DIR_OPP(d)], ahead = b->nb[box][d];
            if (behind == SQ_NONE || ahead == SQ_NONE || !reach_floor(&bp->r, behind) ||
                p->box_at[ahead] != NO_BOX)
                continue;
            int ns = ahead * 4 + DIR_OPP(d); /* the player ends on the box's old square */
            if (bp->mark[ns] == bp->stamp)
                continue;
            bp->mark[ns] = bp->stamp;
            bp->parent[ns] = st;
            bp->depth[ns] = depth + 1;
            if (ahead == to) {
                found = ns;
                break;
            }
            bp->queue[tail++] = ns;
        }
    }
    /* restore the box and the player */
    if (cur_box != from) {
        undo_rec u;
        pos_relocate(p, cur_box, from, player0, &u);
    }
    p->player = player0;
    if (found < 0)
        return -1;
    int n = 0;
    for (int x = found; x != START; x = bp->parent[x])
        n++;
    int i = n;
    for (int x = found; x != START; x = bp->parent[x])
        dirs[--i] = (uint8_t)DIR_OPP(x % 4); /* push direction: away from the player */
    return n;
}
