/* corral.c: PI-corral detection and pruning (see corral.h for the proof
 * sketch). One attempt grows S (squares) and F (boxes) from a seed corral
 * with a worklist over F; membership is kept with stamps, so nothing is
 * cleared between attempts. */
#include "corral.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void corral_init(corral_ctx *c, const board *b)
{
    size_t n = (size_t)b->nsq;
    memset(c, 0, sizeof *c);
    c->lab = xcalloc_held(&c->held, n, sizeof(uint32_t));
    c->region = xcalloc_held(&c->held, n, sizeof(uint32_t));
    c->reg_goal = xcalloc_held(&c->held, n, 1);
    c->reg_seen = xcalloc_held(&c->held, n, 1);
    c->reg_mark = xcalloc_held(&c->held, n, sizeof(uint32_t));
    c->reg_box = xcalloc_held(&c->held, n + 1, sizeof(uint32_t));
    c->rbox = xmalloc_held(&c->held, sizeof(uint16_t) * 4 * n);
    c->box_mark = xcalloc_held(&c->held, (size_t)b->nboxes, sizeof(uint32_t));
    c->queue = xmalloc_held(&c->held, sizeof(sq_t) * n);
    c->work = xmalloc_held(&c->held, sizeof(uint16_t) * (size_t)b->nboxes);
    c->fence = xmalloc_held(&c->held, sizeof(uint16_t) * (size_t)b->nboxes);
    c->allow_try = xcalloc_held(&c->held, (size_t)b->nboxes, 1);
    c->max_seeds = CORRAL_MAX_SEEDS;
    c->all_fence = xmalloc_held(&c->held, sizeof(uint16_t) * (size_t)b->nboxes * CORRAL_MAX_SEEDS);
}

void corral_free(corral_ctx *c)
{
    free(c->lab);
    free(c->region);
    free(c->reg_goal);
    free(c->reg_seen);
    free(c->reg_mark);
    free(c->reg_box);
    free(c->rbox);
    free(c->box_mark);
    free(c->queue);
    free(c->work);
    free(c->fence);
    free(c->allow_try);
    free(c->all_fence);
    memset(c, 0, sizeof *c);
}

/* The corral of s, a free square the player cannot reach: labelled by a
 * flood fill the first time it is asked for in this call (the flood stays
 * among unreachable squares, since a free neighbour of a reachable square
 * is reachable), with its goal flag and the boxes around it. */
static uint32_t region_of(corral_ctx *c, const position *p, sq_t s)
{
    if (c->lab[s] == c->call)
        return c->region[s];
    const board *b = p->b;
    uint32_t id = c->nregions++;
    uint8_t goal = 0;
    int head = 0, tail = 0;
    c->lab[s] = c->call;
    c->region[s] = id;
    c->queue[tail++] = s;
    while (head < tail) {
        sq_t x = c->queue[head++];
        goal |= b->is_goal[x];
        for (int d = 0; d < 4; d++) {
            sq_t y = b->nb[x][d];
            if (y == SQ_NONE)
                continue;
            uint16_t k = p->box_at[y];
            if (k != NO_BOX) {
                c->rbox[c->nrbox++] = k;
            } else if (c->lab[y] != c->call) {
                c->lab[y] = c->call;
                c->region[y] = id;
                c->queue[tail++] = y;
            }
        }
    }
    c->reg_box[id + 1] = c->nrbox;
    c->reg_goal[id] = goal;
    c->reg_seen[id] = 0;
    c->reg_mark[id] = 0;
    return id;
}

typedef struct attempt {
    corral_ctx *c;
    const position *p;
    const reach *r;
    int nwork;
    int empty_goal; /* S holds a goal (S squares are free, so it is empty) */
} attempt;

/* s is in S: a free unreachable square of a corral joined to S. */
static inline int in_s(const attempt *t, sq_t s)
{
    const corral_ctx *c = t->c;
    return c->lab[s] == c->call && c->reg_mark[c->region[s]] == c->stamp;
}

static void add_box(attempt *t, uint16_t j)
{
    corral_ctx *c = t->c;
    if (c->box_mark[j] == c->stamp)
        return;
    c->box_mark[j] = c->stamp;
    c->fence[c->nfence++] = j;
    c->work[t->nwork++] = j;
}

/* Adds the corral holding the free, unreachable square s to S, and the
 * boxes next to it to F. */
static void add_region(attempt *t, sq_t s)
{
    corral_ctx *c = t->c;
    uint32_t id = region_of(c, t->p, s);
    if (c->reg_mark[id] == c->stamp)
        return;
    c->reg_mark[id] = c->stamp;
    t->empty_goal |= c->reg_goal[id];
    for (uint32_t k = c->reg_box[id]; k < c->reg_box[id + 1]; k++)
        add_box(t, c->rbox[k]);
}

/* Grows S and F from `seed`. Returns the number of allowed pushes (in
 * c->allow_try for the boxes of c->fence), or -1 when this is no PI-corral. */
static int try_seed(corral_ctx *c, const position *p, const reach *r, sq_t seed)
{
    const board *b = p->b;
    if (++c->stamp == 0) { /* wrapped: clear and restart */
        memset(c->reg_mark, 0, sizeof(uint32_t) * c->nregions);
        memset(c->box_mark, 0, sizeof(uint32_t) * (size_t)b->nboxes);
        c->stamp = 1;
    }
    attempt t = {c, p, r, 0, 0};
    c->nfence = 0;
    add_region(&t, seed);
    while (t.nwork > 0) {
        uint16_t j = c->work[--t.nwork];
        sq_t B = p->boxes[j];
        for (int d = 0; d < 4; d++) {
            sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
            if (N == SQ_NONE || O == SQ_NONE || in_s(&t, N) || b->dead[O])
                continue; /* no push, the player is inside S, or a dead end */
            if (p->box_at[O] != NO_BOX) {
                add_box(&t, p->box_at[O]); /* it must move first: make that an F push */
                continue;
            }
            if (!in_s(&t, O) && !reach_floor(r, O))
                add_region(&t, O); /* O lies in another corral: join it */
            if (p->box_at[N] != NO_BOX) {
                add_box(&t, p->box_at[N]);
                continue;
            }
            if (!reach_floor(r, N)) {
                add_region(&t, N); /* the player square lies in another corral */
                continue;
            }
            if (!in_s(&t, O))
                return -1; /* an outward push is available now */
        }
    }
    /* (a): the corral must be touched in every solution. */
    int off_goal = t.empty_goal;
    for (int k = 0; k < c->nfence && !off_goal; k++)
        off_goal = !b->is_goal[p->boxes[c->fence[k]]];
    if (!off_goal)
        return -1;
    int count = 0;
    for (int k = 0; k < c->nfence; k++) {
        uint16_t j = c->fence[k];
        sq_t B = p->boxes[j];
        uint8_t mask = 0;
        for (int d = 0; d < 4; d++) {
            sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
            if (N == SQ_NONE || O == SQ_NONE || b->dead[O])
                continue;
            if (p->box_at[N] == NO_BOX && reach_floor(r, N) && p->box_at[O] == NO_BOX &&
                in_s(&t, O)) {
                mask |= (uint8_t)(1u << d);
                count++;
            }
        }
        c->allow_try[j] = mask;
    }
    return count;
}

int corral_prune(corral_ctx *c, const position *p, const reach *r, uint8_t *allow)
{
    const board *b = p->b;
    if (++c->call == 0) {
        memset(c->lab, 0, sizeof(uint32_t) * (size_t)b->nsq);
        c->call = 1;
    }
    c->nregions = 0;
    c->nrbox = 0;
    c->reg_box[0] = 0;
    int best = -1, seeds = 0;
    c->nall = 0;
    c->all_start[0] = 0;
    for (int i = 0; i < b->nboxes && best != 0; i++) {
        sq_t s = p->boxes[i];
        if (!reach_box(r, s))
            continue;
        for (int d = 0; d < 4 && best != 0; d++) {
            sq_t q = b->nb[s][d];
            if (q == SQ_NONE || p->box_at[q] != NO_BOX || reach_floor(r, q))
                continue;
            uint32_t id = region_of(c, p, q);
            if (c->reg_seen[id])
                continue;
            if (seeds++ >= c->max_seeds)
                return best;
            int n = try_seed(c, p, r, q);
            c->reg_seen[id] = 1; /* the seed corral seeds no further attempt */
            if (n >= 0) {
                int at = c->all_start[c->nall];
                memcpy(c->all_fence + at, c->fence, sizeof(uint16_t) * (size_t)c->nfence);
                c->all_start[++c->nall] = at + c->nfence;
            }
            if (n >= 0 && (best < 0 || n < best)) {
                best = n;
                memset(allow, 0, (size_t)b->nboxes);
                for (int k = 0; k < c->nfence; k++)
                    allow[c->fence[k]] = c->allow_try[c->fence[k]];
                c->best_fence = c->all_fence + c->all_start[c->nall - 1];
                c->nbest = c->nfence;
            }
        }
    }
    return best;
}
