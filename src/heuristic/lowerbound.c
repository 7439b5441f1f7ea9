/* lowerbound.c: nearest-goal and minimum-matching lower bounds. */
#include "lowerbound.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* The cost of an impossible pair. Larger than any finite matching (at most
 * 1024 boxes x 65534 pushes), so a minimum matching uses it only when no
 * finite perfect matching exists. */
#define BIG ((int64_t)1 << 32)

static inline int64_t cost_of(const lowerbound *lb, sq_t s, int j)
{
    uint16_t d = lb->dist_t[(size_t)s * (size_t)lb->n + (size_t)j];
    return d == DIST_INF ? BIG : (int64_t)d;
}

int lb_init(lowerbound *lb, const board *b, int matching, membudget *mem)
{
    return lb_init_table(lb, b, b->goal_dist, matching, mem);
}

int lb_init_table(lowerbound *lb, const board *b, const uint16_t *dist, int matching,
                  membudget *mem)
{
    memset(lb, 0, sizeof *lb);
    lb->n = b->nboxes;
    lb->nsq = b->nsq;
    lb->matching = matching;
    lb->b = b;
    lb->mem = mem;
    lb->dist_bytes = sizeof(uint16_t) * (size_t)b->nsq * (size_t)b->nboxes;
    lb->dist_t = mem_alloc(mem, lb->dist_bytes);
    if (!lb->dist_t)
        return -1;
    for (int j = 0; j < b->nboxes; j++)
        for (int s = 0; s < b->nsq; s++)
            lb->dist_t[(size_t)s * (size_t)lb->n + (size_t)j] =
                dist[(size_t)j * (size_t)b->nsq + (size_t)s];
    lb->minv = xmalloc(sizeof(int64_t) * (size_t)(lb->n + 1));
    lb->way = xmalloc(sizeof(int32_t) * (size_t)(lb->n + 1));
    lb->used = xmalloc((size_t)(lb->n + 1));
    lb->at = xmalloc(sizeof(int64_t) * (size_t)(lb->n + 1));
    return 0;
}

void lb_free(lowerbound *lb)
{
    mem_free(lb->mem, lb->dist_t, lb->dist_bytes);
    free(lb->minv);
    free(lb->way);
    free(lb->used);
    free(lb->at);
    memset(lb, 0, sizeof *lb);
}

void lb_sol_init(lb_sol *s, int n)
{
    s->p = xcalloc((size_t)n + 1, sizeof(int32_t));
    s->col = xcalloc((size_t)n + 1, sizeof(int32_t));
    s->u = xcalloc((size_t)n + 1, sizeof(int64_t));
    s->v = xcalloc((size_t)n + 1, sizeof(int64_t));
    s->sq = xmalloc(sizeof(sq_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        s->sq[i] = SQ_NONE;
    s->cost = LB_INF;
}

void lb_sol_free(lb_sol *s)
{
    free(s->p);
    free(s->col);
    free(s->u);
    free(s->v);
    free(s->sq);
    memset(s, 0, sizeof *s);
}

void lb_copy(lb_sol *dst, const lb_sol *src, int n)
{
    memcpy(dst->p, src->p, sizeof(int32_t) * (size_t)(n + 1));
    memcpy(dst->col, src->col, sizeof(int32_t) * (size_t)(n + 1));
    memcpy(dst->u, src->u, sizeof(int64_t) * (size_t)(n + 1));
    memcpy(dst->v, src->v, sizeof(int64_t) * (size_t)(n + 1));
    memcpy(dst->sq, src->sq, sizeof(sq_t) * (size_t)n);
    dst->cost = src->cost;
}

/* Adds the unassigned row r (1-based) to the matching by one shortest
 * augmenting path over the reduced costs (Dijkstra on columns). Keeps the
 * potentials feasible (u[i] + v[j] <= c[i][j]) and tight on matched pairs.
 * Column 0 is a virtual column holding row r while the path is built. */
static void augment(lowerbound *lb, lb_sol *s, int r)
{
    /* The textbook form lowers minv[j] of every free column and raises the
     * potentials of every used one by delta at each step. Here the deltas
     * are summed in `off` instead: a free column keeps minv[j] + off at the
     * time it was set (so minv[j] = key[j] - off), and a column used from
     * the step when off was at[j] gets off_end - at[j] at the end. The same
     * integers, compared in the same order: the same path, ties and
     * potentials, for a third of the work. */
    int n = lb->n;
    int64_t *key = lb->minv;
    int32_t *way = lb->way;
    uint8_t *used = lb->used;
    int64_t *at = lb->at;
    if (lb->paths)
        ++*lb->paths;
    for (int j = 0; j <= n; j++) {
        key[j] = INT64_MAX;
        used[j] = 0;
        way[j] = 0;
    }
    s->p[0] = r;
    int j0 = 0;
    int64_t off = 0;
    for (;;) {
        used[j0] = 1;
        at[j0] = off;
        int i0 = s->p[j0];
        sq_t sq = s->sq[i0 - 1];
        const uint16_t *row = lb->dist_t + (size_t)sq * (size_t)n;
        int64_t best = INT64_MAX, base = off - s->u[i0]; /* u[i0] carries no pending delta */
        int j1 = 0;
        for (int j = 1; j <= n; j++) {
            if (used[j])
                continue;
            int64_t c = row[j - 1] == DIST_INF ? BIG : (int64_t)row[j - 1];
            int64_t cur = c + base - s->v[j];
            if (cur < key[j]) {
                key[j] = cur;
                way[j] = j0;
            }
            if (key[j] < best) {
                best = key[j];
                j1 = j;
            }
        }
        off = best; /* off + delta, delta = best - off */
        j0 = j1;
        if (s->p[j0] == 0)
            break;
    }
    /* the deferred potentials: every used column and its row (the last
     * column, j0, is not used: its row comes from the path) */
    for (int j = 0; j <= n; j++)
        if (used[j]) {
            int64_t d = off - at[j];
            s->u[s->p[j]] += d;
            s->v[j] -= d;
        }
    /* flip the path */
    do {
        int j1 = way[j0];
        s->p[j0] = s->p[j1];
        s->col[s->p[j0]] = j0;
        j0 = j1;
    } while (j0);
    s->p[0] = 0;
}

/* Unassigns row i (1-based) and lowers u[i] so that its row is feasible
 * for its new costs. */
static void release_row(lowerbound *lb, lb_sol *s, int i)
{
    int j = s->col[i];
    if (j) {
        s->p[j] = 0;
        s->col[i] = 0;
    }
    sq_t sq = s->sq[i - 1];
    int64_t m = INT64_MAX;
    for (int k = 1; k <= lb->n; k++) {
        int64_t c = cost_of(lb, sq, k - 1) - s->v[k];
        if (c < m)
            m = c;
    }
    s->u[i] = m;
}

static void total_cost(lowerbound *lb, lb_sol *s)
{
    int64_t c = 0;
    for (int i = 1; i <= lb->n; i++) {
        int64_t x = cost_of(lb, s->sq[i - 1], s->col[i] - 1);
        if (x >= BIG) {
            s->cost = LB_INF;
            return;
        }
        c += x;
    }
    s->cost = c;
}

static int64_t nearest_cost(const lowerbound *lb, const lb_sol *s)
{
    int64_t c = 0;
    for (int i = 0; i < lb->n; i++) {
        uint16_t d = lb->b->near_dist[s->sq[i]];
        if (d == DIST_INF)
            return LB_INF;
        c += d;
    }
    return c;
}

int64_t lb_solve(lowerbound *lb, lb_sol *s, const sq_t *boxes)
{
    return lb_solve_by(lb, s, boxes, 0);
}

int64_t lb_solve_by(lowerbound *lb, lb_sol *s, const sq_t *boxes, int64_t deadline_ns)
{
    int n = lb->n;
    if (!lb->matching) {
        memcpy(s->sq, boxes, sizeof(sq_t) * (size_t)n);
        s->cost = nearest_cost(lb, s);
        return s->cost;
    }
    /* Release every changed row first (this only lowers their own
     * potentials), then augment them one by one. */
    int changed = 0;
    for (int i = 1; i <= n; i++) {
        if (s->sq[i - 1] != boxes[i - 1] || s->col[i] == 0) {
            s->sq[i - 1] = boxes[i - 1];
            release_row(lb, s, i);
            changed = 1;
        }
    }
    if (!changed)
        return s->cost;
    for (int i = 1; i <= n; i++)
        if (s->col[i] == 0) {
            if (deadline_ns && timer_now_ns() >= deadline_ns) {
                s->cost = LB_INF; /* incomplete: not a bound */
                return LB_STOPPED;
            }
            augment(lb, s, i);
        }
    total_cost(lb, s);
    return s->cost;
}

int64_t lb_move(lowerbound *lb, lb_sol *s, int box, sq_t to)
{
    if (!lb->matching) {
        sq_t from = s->sq[box];
        s->sq[box] = to;
        uint16_t dt = lb->b->near_dist[to];
        if (s->cost == LB_INF || dt == DIST_INF)
            s->cost = nearest_cost(lb, s);
        else
            s->cost += (int64_t)dt - (int64_t)lb->b->near_dist[from];
        return s->cost;
    }
    int i = box + 1, j = s->col[i];
    int64_t old = cost_of(lb, s->sq[box], j - 1);
    s->sq[box] = to;
    /* New row minimum of the reduced costs. If the box's goal still attains
     * it, the assignment stays optimal (every other row is unchanged and the
     * duals stay feasible): no augmenting path is needed. */
    const uint16_t *row = lb->dist_t + (size_t)to * (size_t)lb->n;
    int64_t m = INT64_MAX;
    for (int k = 1; k <= lb->n; k++) {
        int64_t c = (row[k - 1] == DIST_INF ? BIG : (int64_t)row[k - 1]) - s->v[k];
        if (c < m)
            m = c;
    }
    int64_t cj = cost_of(lb, to, j - 1);
    if (cj - s->v[j] == m && s->cost != LB_INF && old < BIG && cj < BIG) {
        s->u[i] = m;
        s->cost += cj - old;
        return s->cost;
    }
    release_row(lb, s, i);
    augment(lb, s, i);
    total_cost(lb, s);
    return s->cost;
}

static void brute(const lowerbound *lb, const sq_t *boxes, int i, uint32_t used, int64_t acc,
                  int64_t *best)
{
    if (i == lb->n) {
        if (acc < *best)
            *best = acc;
        return;
    }
    for (int j = 0; j < lb->n; j++) {
        if (used & (1u << j))
            continue;
        int64_t c = cost_of(lb, boxes[i], j);
        if (c >= BIG)
            continue;
        brute(lb, boxes, i + 1, used | (1u << j), acc + c, best);
    }
}

int64_t lb_brute_force(const lowerbound *lb, const sq_t *boxes)
{
    int64_t best = LB_INF;
    brute(lb, boxes, 0, 0, 0, &best);
    return best;
}
