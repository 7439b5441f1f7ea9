/* fixed.c: fixed boxes and the matching with them as walls (see fixed.h). */
#include "fixed.h"
#include "../analysis/distance.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define FIXED_CACHE 64 /* reach tables kept, direct mapped by key */

void fixed_init(fixed_ctx *c, const board *b)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->nsq = b->nsq;
    c->ngoals = b->nboxes;
    c->sub = *b;
    c->nb = xmalloc_held(&c->held, sizeof(sq_t) * 4 * (size_t)b->nsq);
    c->sub.nb = c->nb;
    c->fixed = xcalloc_held(&c->held, (size_t)b->nsq, 1);
    c->flist = xmalloc_held(&c->held, sizeof(sq_t) * (size_t)(b->nboxes + 1));
    c->nfixed = 0;
    c->sd = xmalloc_held(&c->held, sizeof(uint16_t) * 4 * (size_t)b->nsq);
    c->queue = xmalloc_held(&c->held, sizeof(int32_t) * 4 * (size_t)b->nsq);
    c->cache = xcalloc_held(&c->held, FIXED_CACHE, sizeof(fixed_entry));
    c->match_goal = xmalloc_held(&c->held, sizeof(int) * (size_t)(b->nboxes + 1));
    c->seen = xcalloc_held(&c->held, (size_t)(b->nboxes + 1), sizeof(int));
    c->boxes = xmalloc_held(&c->held, sizeof(int) * (size_t)(b->nboxes + 1));
    c->goals = xmalloc_held(&c->held, sizeof(int) * (size_t)(b->nboxes + 1));
}

void fixed_free(fixed_ctx *c)
{
    if (c->cache)
        for (int i = 0; i < FIXED_CACHE; i++)
            free(c->cache[i].reach);
    free(c->cache);
    free(c->nb);
    free(c->fixed);
    free(c->flist);
    free(c->sd);
    free(c->queue);
    free(c->match_goal);
    free(c->seen);
    free(c->boxes);
    free(c->goals);
    memset(c, 0, sizeof *c);
}

static int wall_or_fixed(const fixed_ctx *c, sq_t s)
{
    return s == SQ_NONE || c->fixed[s];
}

int fixed_find(fixed_ctx *c, const position *p)
{
    const board *b = c->b;
    for (int k = 0; k < c->nfixed; k++) /* clear the previous set */
        c->fixed[c->flist[k]] = 0;
    /* the greatest set: start from every box on a goal and drop the ones
     * with an axis free of walls and of the set's boxes, until none is
     * dropped (a box held only by a neighbour that the neighbour holds in
     * turn, as in a row of boxes in a walled corridor, stays) */
    int n = 0;
    for (int i = 0; i < b->nboxes; i++)
        if (b->is_goal[p->boxes[i]]) {
            c->fixed[p->boxes[i]] = 1;
            c->flist[n++] = p->boxes[i];
        }
    int changed = n > 0;
    while (changed) {
        changed = 0;
        for (int k = 0; k < n; k++) {
            sq_t s = c->flist[k];
            const sq_t *nb = b->nb[s];
            int h = wall_or_fixed(c, nb[DIR_LEFT]) || wall_or_fixed(c, nb[DIR_RIGHT]);
            int v = wall_or_fixed(c, nb[DIR_UP]) || wall_or_fixed(c, nb[DIR_DOWN]);
            if (!(h && v)) {
                c->fixed[s] = 0;
                c->flist[k--] = c->flist[--n];
                changed = 1;
            }
        }
    }
    c->nfixed = n;
    return n;
}

/* The reach table of the current fixed set (computed on a cache miss). */
static const uint8_t *reach_table(fixed_ctx *c, int nfixed)
{
    const board *b = c->b;
    uint64_t key = 0x5DEECE66Dull;
    for (int k = 0; k < nfixed; k++)
        key ^= b->zbox[c->flist[k]];
    if (key == 0)
        key = 1;
    fixed_entry *e = &c->cache[(key ^ key >> 29) % FIXED_CACHE];
    if (e->key == key)
        return e->reach;
    c->misses++;
    int n = c->nsq;
    if (!e->reach)
        e->reach = xmalloc_held(&c->held, (size_t)c->ngoals * (size_t)n);
    e->key = key;
    /* the board with the fixed squares walled off */
    memcpy(c->nb, b->nb, sizeof(sq_t) * 4 * (size_t)n);
    for (int k = 0; k < nfixed; k++) {
        sq_t s = c->flist[k];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t != SQ_NONE)
                c->nb[t][DIR_OPP(d)] = SQ_NONE;
            c->nb[s][d] = SQ_NONE;
        }
    }
    uint8_t *comp = distance_side_components(&c->sub);
    uint8_t *t = e->reach; /* square-major: a box's goals lie side by side */
    size_t ng = (size_t)c->ngoals;
    for (int g = 0; g < c->ngoals; g++) {
        sq_t gs = b->goals[g];
        if (c->fixed[gs]) {
            for (int s = 0; s < n; s++)
                t[(size_t)s * ng + (size_t)g] = 0;
            continue;
        }
        distance_pull(&c->sub, comp, gs, c->sd, c->queue);
        for (int s = 0; s < n; s++) {
            const uint16_t *x = c->sd + (size_t)s * 4;
            t[(size_t)s * ng + (size_t)g] =
                x[0] != DIST_INF || x[1] != DIST_INF || x[2] != DIST_INF || x[3] != DIST_INF;
        }
        t[(size_t)gs * ng + (size_t)g] = 1;
    }
    free(comp);
    return e->reach;
}

/* Kuhn's augmenting path from free box k: a free goal it reaches first,
 * else a goal whose box can move to another. Taking a free goal first
 * keeps the search short where boxes reach many goals (a checkerboard of
 * 236 boxes: the plain search walked the chain of matched goals from the
 * first one for every box, O(n^3) a test, 90 % of the time of the whole
 * search). Only the time changes: a perfect matching exists or not. */
static int augment(fixed_ctx *c, const uint8_t *reach, const position *p, int k)
{
    const uint8_t *row = reach + (size_t)p->boxes[c->boxes[k]] * (size_t)c->ngoals;
    for (int j = 0; j < c->nfree_goals; j++)
        if (c->match_goal[j] < 0 && row[c->goals[j]]) {
            c->match_goal[j] = k;
            return 1;
        }
    for (int j = 0; j < c->nfree_goals; j++) {
        if (c->seen[j] == c->seen_stamp || !row[c->goals[j]])
            continue;
        c->seen[j] = c->seen_stamp;
        if (augment(c, reach, p, c->match_goal[j])) {
            c->match_goal[j] = k;
            return 1;
        }
    }
    return 0;
}

#ifdef KEEPER_DEBUG
/* Debug: whether a perfect matching exists, by the plain augmenting
 * search (every goal in order, no free goal first: the search augment
 * replaced), to check augment's verdict on every call. */
static int plain_augment(fixed_ctx *c, const uint8_t *reach, const position *p, int k, int *mg,
                         int *seen, int stamp)
{
    const uint8_t *row = reach + (size_t)p->boxes[c->boxes[k]] * (size_t)c->ngoals;
    for (int j = 0; j < c->nfree_goals; j++) {
        if (seen[j] == stamp || !row[c->goals[j]])
            continue;
        seen[j] = stamp;
        if (mg[j] < 0 || plain_augment(c, reach, p, mg[j], mg, seen, stamp)) {
            mg[j] = k;
            return 1;
        }
    }
    return 0;
}

static int plain_matchable(fixed_ctx *c, const uint8_t *reach, const position *p)
{
    int n = c->nfree_goals, ok = 1;
    int *mg = xmalloc(sizeof(int) * (size_t)(n + 1)), *seen = xcalloc((size_t)(n + 1), sizeof(int));
    for (int j = 0; j < n; j++)
        mg[j] = -1;
    for (int k = 0; k < c->nfree_boxes && ok; k++)
        ok = plain_augment(c, reach, p, k, mg, seen, k + 1);
    free(mg);
    free(seen);
    return ok;
}
#endif

int fixed_deadlock(fixed_ctx *c, const position *p)
{
    const board *b = c->b;
    int nfixed = fixed_find(c, p);
    if (nfixed == 0)
        return 0;
    const uint8_t *reach = reach_table(c, nfixed);
    c->nfree_boxes = c->nfree_goals = 0;
    for (int i = 0; i < b->nboxes; i++)
        if (!c->fixed[p->boxes[i]])
            c->boxes[c->nfree_boxes++] = i;
    for (int g = 0; g < c->ngoals; g++)
        if (!c->fixed[b->goals[g]])
            c->goals[c->nfree_goals++] = g;
    for (int j = 0; j < c->nfree_goals; j++)
        c->match_goal[j] = -1;
    int dead = 0;
    for (int k = 0; k < c->nfree_boxes && !dead; k++) {
        if (++c->seen_stamp == 0) {
            memset(c->seen, 0, sizeof(int) * (size_t)(c->ngoals + 1));
            c->seen_stamp = 1;
        }
        dead = !augment(c, reach, p, k);
    }
#ifdef KEEPER_DEBUG
    if (dead == plain_matchable(c, reach, p))
        die("internal error: the fixed-box matching disagrees with the plain search");
#endif
    return dead;
}
