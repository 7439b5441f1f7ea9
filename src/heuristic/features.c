/* features.c: position features for the feature-space search (see
 * features.h). */
#include "features.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void feat_init(feat_ctx *c, const board *b, const packing *pk, const plan *pl)
{
    c->b = b;
    c->pl = pl && pl->n > 0 ? pl : NULL;
    c->pscratch = xmalloc(sizeof(int) * (size_t)((c->pl ? c->pl->n : 0) + 2));
    c->pk = pk && pk->n > 0 ? pk : NULL;
    c->filled = xmalloc(sizeof(int) * (size_t)((c->pk ? c->pk->nrooms : 0) + 1));
    c->stamp = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    c->ts = 0;
    c->stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
}

void feat_free(feat_ctx *c)
{
    free(c->filled);
    free(c->pscratch);
    free(c->stamp);
    free(c->stack);
    memset(c, 0, sizeof *c);
}

int feat_packed(const feat_ctx *c, const position *p)
{
    if (c->pl)
        return plan_packed(c->pl, p, c->pscratch);
    if (!c->pk)
        return p->on_goal;
    const packing *pk = c->pk;
    /* The order lists the goals of all rooms interleaved: walk it and
     * count, per room, the goals filled before the room's first empty one
     * (filled[r] = -1 once that gap is met). */
    int *filled = c->filled;
    for (int r = 0; r < pk->nrooms; r++)
        filled[r] = 0;
    int packed = 0;
    for (int k = 0; k < pk->n; k++) {
        int r = pk->room[k];
        if (filled[r] < 0)
            continue;
        if (p->box_at[pk->order[k]] == NO_BOX) {
            filled[r] = -1;
            continue;
        }
        filled[r]++;
        packed++;
    }
    return packed;
}

int feat_oop(const feat_ctx *c, const position *p, int packed)
{
    return c->pl ? plan_oop(c->pl, p, packed) : 0;
}

sq_t feat_next_square(const feat_ctx *c, const position *p, int packed)
{
    if (c->pl)
        return packed < c->pl->n ? c->pl->step[packed].sq : SQ_NONE;
    if (c->pk) {
        for (int k = 0; k < c->pk->n; k++)
            if (p->box_at[c->pk->order[k]] == NO_BOX)
                return c->pk->order[k];
    }
    return SQ_NONE;
}

int feat_connectivity(feat_ctx *c, const position *p, const reach *r)
{
    const board *b = c->b;
    if (++c->ts == 0) {
        memset(c->stamp, 0, sizeof(uint32_t) * (size_t)b->nsq);
        c->ts = 1;
    }
    uint32_t ts = c->ts;
    int regions = r ? 1 : 0;
    for (int s0 = 0; s0 < b->nsq; s0++) {
        if (c->stamp[s0] == ts || p->box_at[s0] != NO_BOX || (r && reach_floor(r, (sq_t)s0)))
            continue;
        regions++;
        int sp = 0;
        c->stamp[s0] = ts;
        c->stack[sp++] = (sq_t)s0;
        while (sp > 0) {
            sq_t s = c->stack[--sp];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[s][d];
                if (t == SQ_NONE || c->stamp[t] == ts || p->box_at[t] != NO_BOX)
                    continue;
                c->stamp[t] = ts;
                c->stack[sp++] = t;
            }
        }
    }
    return regions;
}
