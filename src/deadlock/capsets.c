/* capsets.c: capacity-counted deadlock sets from reversible regions (see
 * capsets.h). */
#include "capsets.h"
#include "../analysis/distance.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

static inline int bit(const uint64_t *v, int i) { return (int)(v[i >> 6] >> (i & 63)) & 1; }
static inline void setbit(uint64_t *v, int i) { v[i >> 6] |= 1ull << (i & 63); }

/* The closure of region r along the arrows `arrow` (nr x nr bitsets,
 * words w each) into `in` (nr flags); stack has room for nr. */
static void closure(const uint64_t *arrow, int nr, int w, int r, uint8_t *in, int *stack)
{
    memset(in, 0, (size_t)nr);
    int top = 0;
    in[r] = 1;
    stack[top++] = r;
    while (top > 0) {
        int a = stack[--top];
        for (int x = 0; x < nr; x++)
            if (!in[x] && bit(arrow + (size_t)a * (size_t)w, x)) {
                in[x] = 1;
                stack[top++] = x;
            }
    }
}

void capsets_free(capsets *cs)
{
    free(cs->region_of);
    free(cs->set);
    free(cs->sq);
    free(cs->first);
    free(cs->memb);
    free(cs->count);
    memset(cs, 0, sizeof *cs);
}

int capsets_build(capsets *cs, const board *b)
{
    memset(cs, 0, sizeof *cs);
    cs->b = b;
    int n = b->nsq, w = (n + 63) / 64;
    cs->region_of = malloc(sizeof(int32_t) * (size_t)n);
    cs->first = calloc((size_t)n + 1, sizeof(uint32_t));
    uint64_t *reach = calloc((size_t)n * (size_t)w, sizeof(uint64_t));
    uint8_t *comp = distance_side_components(b);
    uint16_t *sd = malloc(sizeof(uint16_t) * 4 * (size_t)n);
    int32_t *queue = malloc(sizeof(int32_t) * 4 * (size_t)n);
    if (!cs->region_of || !cs->first || !reach || !comp || !sd || !queue) {
        free(reach), free(comp), free(sd), free(queue);
        capsets_free(cs);
        return -1;
    }
    /* R(s) for each live square: every square a lone box on s reaches, the
     * player starting on any side */
    for (sq_t s = 0; s < n; s++) {
        cs->region_of[s] = -1;
        if (b->dead[s])
            continue;
        distance_push(b, comp, s, -1, sd, queue);
        uint64_t *row = reach + (size_t)s * (size_t)w;
        for (sq_t t = 0; t < n; t++)
            if (!b->dead[t])
                for (int c = 0; c < 4; c++)
                    if (sd[t * 4 + c] != DIST_INF) {
                        setbit(row, t);
                        break;
                    }
        setbit(row, s);
    }
    free(comp), free(sd), free(queue);
    /* the regions: squares that reach each other */
    int nr = 0;
    for (sq_t s = 0; s < n; s++) {
        if (b->dead[s] || cs->region_of[s] >= 0)
            continue;
        for (sq_t t = s; t < n; t++)
            if (!b->dead[t] && cs->region_of[t] < 0 && bit(reach + (size_t)s * (size_t)w, t) &&
                bit(reach + (size_t)t * (size_t)w, s))
                cs->region_of[t] = nr;
        nr++;
    }
    cs->nregions = nr;
    int rw = (nr + 63) / 64;
    uint64_t *down = calloc((size_t)(nr ? nr : 1) * (size_t)(rw ? rw : 1), sizeof(uint64_t));
    uint64_t *up = calloc((size_t)(nr ? nr : 1) * (size_t)(rw ? rw : 1), sizeof(uint64_t));
    int *goals = calloc((size_t)nr + 1, sizeof(int));
    int *stack = malloc(sizeof(int) * ((size_t)nr + 1));
    uint8_t *in = malloc((size_t)nr + 1);
    /* at most two sets per region */
    cs->set = malloc(sizeof(capset) * (2 * (size_t)nr + 1));
    int *rsize = calloc((size_t)nr + 1, sizeof(int));
    if (!down || !up || !goals || !stack || !in || !cs->set || !rsize) {
        free(reach), free(down), free(up), free(goals), free(stack), free(in), free(rsize);
        capsets_free(cs);
        return -1;
    }
    int nlive = 0;
    for (sq_t s = 0; s < n; s++) {
        int a = cs->region_of[s];
        if (a < 0)
            continue;
        nlive++;
        goals[a] += b->is_goal[s];
        for (sq_t t = 0; t < n; t++) {
            int x = cs->region_of[t];
            if (x >= 0 && x != a && bit(reach + (size_t)s * (size_t)w, t)) {
                setbit(down + (size_t)a * (size_t)rw, x);
                setbit(up + (size_t)x * (size_t)rw, a);
            }
        }
    }
    free(reach);
    for (sq_t s = 0; s < n; s++)
        if (cs->region_of[s] >= 0)
            rsize[cs->region_of[s]]++;
    /* the sets that say something, with their sizes: a trap when it
     * cannot hold every box, a source set when it needs a box and is not
     * the whole board */
    uint32_t used = 0;
    for (int a = 0; a < nr; a++)
        for (int kind = 1; kind >= 0; kind--) {
            closure(kind ? down : up, nr, rw, a, in, stack);
            int g = 0, size = 0;
            for (int x = 0; x < nr; x++)
                if (in[x]) {
                    g += goals[x];
                    size += rsize[x];
                }
            if (kind ? g >= b->nboxes : g == 0 || size == nlive)
                continue;
            capset *c = &cs->set[cs->nsets++];
            c->start = used;
            c->n = (uint32_t)size;
            c->trap = (uint8_t)kind;
            c->region = a;
            c->lo = kind ? 0 : g;
            c->hi = kind ? g : b->nboxes;
            used += (uint32_t)size;
        }
    free(rsize);
    sq_t *pool = malloc(sizeof(sq_t) * ((size_t)used + 1));
    if (!pool) {
        free(down), free(up), free(goals), free(stack), free(in);
        capsets_free(cs);
        return -1;
    }
    for (int k = 0; k < cs->nsets; k++) {
        capset *c = &cs->set[k];
        closure(c->trap ? down : up, nr, rw, c->region, in, stack);
        uint32_t i = c->start;
        for (sq_t s = 0; s < n; s++)
            if (cs->region_of[s] >= 0 && in[cs->region_of[s]]) {
                pool[i++] = s;
                cs->first[s + 1]++;
            }
    }
    free(down), free(up), free(goals), free(stack), free(in);
    cs->sq = pool;
    for (sq_t s = 0; s < n; s++)
        cs->first[s + 1] += cs->first[s];
    cs->memb = malloc(sizeof(uint16_t) * ((size_t)cs->first[n] + 1));
    cs->count = calloc((size_t)cs->nsets + 1, sizeof(int32_t));
    uint32_t *fill = malloc(sizeof(uint32_t) * ((size_t)n + 1));
    if (!cs->memb || !cs->count || !fill || cs->nsets > UINT16_MAX) {
        free(fill);
        capsets_free(cs);
        return -1;
    }
    memcpy(fill, cs->first, sizeof(uint32_t) * (size_t)n);
    for (int k = 0; k < cs->nsets; k++)
        for (uint32_t i = 0; i < cs->set[k].n; i++) {
            sq_t s = cs->sq[cs->set[k].start + i];
            cs->memb[fill[s]++] = (uint16_t)k;
        }
    free(fill);
    return 0;
}

int capsets_count(capsets *cs, const position *p)
{
    const board *b = cs->b;
    if (cs->nsets == 0)
        return 0;
    memset(cs->count, 0, sizeof(int32_t) * (size_t)cs->nsets);
    for (int i = 0; i < b->nboxes; i++) {
        sq_t s = p->boxes[i];
        for (uint32_t m = cs->first[s]; m < cs->first[s + 1]; m++)
            cs->count[cs->memb[m]]++;
    }
    for (int k = 0; k < cs->nsets; k++)
        if (cs->count[k] < cs->set[k].lo || cs->count[k] > cs->set[k].hi)
            return 1;
    return 0;
}

int capsets_push_dead(capsets *cs, sq_t from, sq_t to)
{
    /* the push, counted: one box leaves from's sets and enters to's */
    for (uint32_t m = cs->first[from]; m < cs->first[from + 1]; m++)
        cs->count[cs->memb[m]]--;
    for (uint32_t m = cs->first[to]; m < cs->first[to + 1]; m++)
        cs->count[cs->memb[m]]++;
    int dead = 0;
    for (uint32_t m = cs->first[to]; m < cs->first[to + 1] && !dead; m++)
        dead = cs->count[cs->memb[m]] > cs->set[cs->memb[m]].hi;
    for (uint32_t m = cs->first[from]; m < cs->first[from + 1] && !dead; m++)
        dead = cs->count[cs->memb[m]] < cs->set[cs->memb[m]].lo;
    /* and taken back */
    for (uint32_t m = cs->first[to]; m < cs->first[to + 1]; m++)
        cs->count[cs->memb[m]]--;
    for (uint32_t m = cs->first[from]; m < cs->first[from + 1]; m++)
        cs->count[cs->memb[m]]++;
    return dead;
}
