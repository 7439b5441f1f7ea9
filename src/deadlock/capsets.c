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

/* malloc (zeroed if `zero`) of a table the sets keep, counted in cs->held
 * when it is had. */
static void *kept_alloc(capsets *cs, size_t n, int zero)
{
    void *p = zero ? calloc(1, n) : malloc(n);
    if (p)
        cs->held += n;
    return p;
}

/* The one-box maze's reach: n rows of w words, row s holding R(s) (every
 * square a lone box on live square s reaches, the player starting on any
 * side, and s itself); rows of dead squares are empty. NULL when out of
 * memory. */
static uint64_t *box_reach(const board *b, int w)
{
    int n = b->nsq;
    uint64_t *reach = calloc((size_t)n * (size_t)w, sizeof(uint64_t));
    uint8_t *comp = distance_side_components(b);
    uint16_t *sd = malloc(sizeof(uint16_t) * 4 * (size_t)n);
    int32_t *queue = malloc(sizeof(int32_t) * 4 * (size_t)n);
    if (!reach || !comp || !sd || !queue) {
        free(reach), free(comp), free(sd), free(queue);
        return NULL;
    }
    for (sq_t s = 0; s < n; s++) {
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
    return reach;
}

/* Numbers the regions, live squares that reach each other, in the order of
 * their first squares: fills cs->region_of (-1 on dead squares) and
 * cs->nregions. */
static void number_regions(capsets *cs, const uint64_t *reach, int w)
{
    const board *b = cs->b;
    int n = b->nsq, nr = 0;
    for (sq_t s = 0; s < n; s++)
        cs->region_of[s] = -1;
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
}

/* The regions' graph: down (nr rows of rw words) has an arrow a -> x when
 * some square of a reaches some square of x, up the same arrows reversed;
 * each region's goals and squares, the live squares in all, and room for
 * closure(). */
typedef struct rgraph {
    int nr, rw, nlive;
    uint64_t *down, *up;
    int *goals, *rsize, *stack;
    uint8_t *in;
} rgraph;

static void rgraph_free(rgraph *g)
{
    free(g->down), free(g->up), free(g->goals), free(g->rsize), free(g->stack), free(g->in);
}

/* Builds the graph of cs's regions from the reach rows; -1 when out of
 * memory (g is freed). */
static int rgraph_build(rgraph *g, const capsets *cs, const uint64_t *reach, int w)
{
    const board *b = cs->b;
    int n = b->nsq, nr = cs->nregions, rw = (nr + 63) / 64;
    g->nr = nr;
    g->rw = rw;
    g->nlive = 0;
    g->down = calloc((size_t)(nr ? nr : 1) * (size_t)(rw ? rw : 1), sizeof(uint64_t));
    g->up = calloc((size_t)(nr ? nr : 1) * (size_t)(rw ? rw : 1), sizeof(uint64_t));
    g->goals = calloc((size_t)nr + 1, sizeof(int));
    g->stack = malloc(sizeof(int) * ((size_t)nr + 1));
    g->in = malloc((size_t)nr + 1);
    g->rsize = calloc((size_t)nr + 1, sizeof(int));
    if (!g->down || !g->up || !g->goals || !g->stack || !g->in || !g->rsize) {
        rgraph_free(g);
        return -1;
    }
    for (sq_t s = 0; s < n; s++) {
        int a = cs->region_of[s];
        if (a < 0)
            continue;
        g->nlive++;
        g->goals[a] += b->is_goal[s];
        g->rsize[a]++;
        for (sq_t t = 0; t < n; t++) {
            int x = cs->region_of[t];
            if (x >= 0 && x != a && bit(reach + (size_t)s * (size_t)w, t)) {
                setbit(g->down + (size_t)a * (size_t)rw, x);
                setbit(g->up + (size_t)x * (size_t)rw, a);
            }
        }
    }
    return 0;
}

/* Appends to cs->set (room for two per region) the sets that say
 * something, with their sizes and bounds: a trap when it cannot hold every
 * box, a source set when it needs a box and is not the whole board.
 * Returns the squares of all the sets together. */
static uint32_t choose_sets(capsets *cs, rgraph *g)
{
    const board *b = cs->b;
    int nr = g->nr;
    uint32_t used = 0;
    for (int a = 0; a < nr; a++)
        for (int kind = 1; kind >= 0; kind--) {
            closure(kind ? g->down : g->up, nr, g->rw, a, g->in, g->stack);
            int goals = 0, size = 0;
            for (int x = 0; x < nr; x++)
                if (g->in[x]) {
                    goals += g->goals[x];
                    size += g->rsize[x];
                }
            if (kind ? goals >= b->nboxes : goals == 0 || size == g->nlive)
                continue;
            capset *c = &cs->set[cs->nsets++];
            c->start = used;
            c->n = (uint32_t)size;
            c->trap = (uint8_t)kind;
            c->region = a;
            c->lo = kind ? 0 : goals;
            c->hi = kind ? goals : b->nboxes;
            used += (uint32_t)size;
        }
    return used;
}

/* Lists each set's squares into pool (room for used) and counts each
 * square's sets into cs->first[s + 1]. */
static void list_squares(capsets *cs, rgraph *g, sq_t *pool)
{
    int n = cs->b->nsq;
    for (int k = 0; k < cs->nsets; k++) {
        capset *c = &cs->set[k];
        closure(c->trap ? g->down : g->up, g->nr, g->rw, c->region, g->in, g->stack);
        uint32_t i = c->start;
        for (sq_t s = 0; s < n; s++)
            if (cs->region_of[s] >= 0 && g->in[cs->region_of[s]]) {
                pool[i++] = s;
                cs->first[s + 1]++;
            }
    }
}

/* Turns the counts in cs->first into each square's start in cs->memb and
 * lists there the sets of each square; -1 when out of memory or when the
 * sets are too many for memb's 16 bits. */
static int index_members(capsets *cs)
{
    int n = cs->b->nsq;
    for (sq_t s = 0; s < n; s++)
        cs->first[s + 1] += cs->first[s];
    cs->memb = kept_alloc(cs, sizeof(uint16_t) * ((size_t)cs->first[n] + 1), 0);
    cs->count = kept_alloc(cs, sizeof(int32_t) * ((size_t)cs->nsets + 1), 1);
    uint32_t *fill = malloc(sizeof(uint32_t) * ((size_t)n + 1));
    if (!cs->memb || !cs->count || !fill || cs->nsets > UINT16_MAX) {
        free(fill);
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

int capsets_build(capsets *cs, const board *b)
{
    memset(cs, 0, sizeof *cs);
    cs->b = b;
    int n = b->nsq, w = (n + 63) / 64;
    cs->region_of = kept_alloc(cs, sizeof(int32_t) * (size_t)n, 0);
    cs->first = kept_alloc(cs, sizeof(uint32_t) * ((size_t)n + 1), 1);
    uint64_t *reach = cs->region_of && cs->first ? box_reach(b, w) : NULL;
    if (!reach) {
        capsets_free(cs);
        return -1;
    }
    number_regions(cs, reach, w);
    rgraph g;
    int built = rgraph_build(&g, cs, reach, w);
    free(reach);
    if (built != 0) {
        capsets_free(cs);
        return -1;
    }
    /* at most two sets per region */
    cs->set = kept_alloc(cs, sizeof(capset) * (2 * (size_t)cs->nregions + 1), 0);
    sq_t *pool = NULL;
    if (cs->set) {
        uint32_t used = choose_sets(cs, &g);
        pool = kept_alloc(cs, sizeof(sq_t) * ((size_t)used + 1), 0);
        if (pool)
            list_squares(cs, &g, pool);
    }
    rgraph_free(&g);
    cs->sq = pool;
    if (!pool || index_members(cs) != 0) {
        capsets_free(cs);
        return -1;
    }
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
