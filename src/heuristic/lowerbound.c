/* lowerbound.c: nearest-goal and minimum-matching lower bounds. */
#include "lowerbound.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#if LB_SIMD
#include <immintrin.h>
#endif

/* The cost of an impossible pair. Larger than any finite matching (at most
 * 1024 boxes x 65534 pushes), so a minimum matching uses it only when no
 * finite perfect matching exists. */
#define BIG ((int64_t)1 << 32)

/* The cost of column j (1-based) in a row of the distance table. */
static inline int64_t row_cost(const uint16_t *row, int j)
{
    return row[j - 1] == DIST_INF ? BIG : (int64_t)row[j - 1];
}

static inline int64_t cost_of(const lowerbound *lb, sq_t s, int j)
{
    return row_cost(lb->dist_t + (size_t)s * (size_t)lb->n, j + 1);
}

static int init_rows(lowerbound *lb, const board *b, const uint16_t *dist, int matching,
                     membudget *mem, int nside);

int lb_init(lowerbound *lb, const board *b, int matching, membudget *mem)
{
    return init_rows(lb, b, b->goal_dist, matching, mem, matching ? b->nside : 0);
}

int lb_init_table(lowerbound *lb, const board *b, const uint16_t *dist, int matching,
                  membudget *mem)
{
    return init_rows(lb, b, dist, matching, mem, 0);
}

/* The table: the squares' rows, the wildcard and restricted rows, then
 * nside rows of the player's sides (b->side_dist). */
static int init_rows(lowerbound *lb, const board *b, const uint16_t *dist, int matching,
                     membudget *mem, int nside)
{
    memset(lb, 0, sizeof *lb);
    lb->n = b->nboxes;
    lb->nsq = b->nsq;
    lb->matching = matching;
    lb->b = b;
    lb->mem = mem;
    /* two rows more: the wildcard square nsq (lb_wild), 0 to every column,
     * and the restricted square nsq + 1 (lb_restricted), set by lb_restrict */
    lb->dist_bytes = sizeof(uint16_t) * ((size_t)b->nsq + 2 + (size_t)nside) * (size_t)b->nboxes;
    lb->dist_t = mem_alloc(mem, lb->dist_bytes);
    if (!lb->dist_t)
        return -1;
    lb->nside = nside;
    for (int k = 0; k < nside; k++)
        for (int j = 0; j < b->nboxes; j++)
            lb->dist_t[((size_t)b->nsq + 2 + (size_t)k) * (size_t)lb->n + (size_t)j] =
                b->side_dist[(size_t)j * (size_t)nside + (size_t)k];
    memset(lb->dist_t + (size_t)b->nsq * (size_t)lb->n, 0, sizeof(uint16_t) * (size_t)lb->n);
    for (int j = 0; j < b->nboxes; j++)
        lb->dist_t[((size_t)b->nsq + 1) * (size_t)lb->n + (size_t)j] = DIST_INF;
    for (int j = 0; j < b->nboxes; j++)
        for (int s = 0; s < b->nsq; s++)
            lb->dist_t[(size_t)s * (size_t)lb->n + (size_t)j] =
                dist[(size_t)j * (size_t)b->nsq + (size_t)s];
    lb->minv = xmalloc(sizeof(int64_t) * (size_t)(lb->n + 1));
    lb->way = xmalloc(sizeof(int32_t) * (size_t)(lb->n + 1));
    lb->used = xcalloc((size_t)lb->n + 1, 1);
    lb->ulist = xmalloc(sizeof(int32_t) * (size_t)(lb->n + 1));
    lb->at = xmalloc(sizeof(int64_t) * (size_t)(lb->n + 1));
#if LB_SIMD
    lb->simd = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    return 0;
}

void lb_restrict(lowerbound *lb, const uint16_t *cols, int k)
{
    uint16_t *row = lb->dist_t + ((size_t)lb->nsq + 1) * (size_t)lb->n;
    for (int j = 0; j < lb->n; j++)
        row[j] = DIST_INF;
    for (int i = 0; i < k; i++)
        row[cols[i]] = 0;
}

int64_t lb_assigned(const lowerbound *lb, const lb_sol *s, int box)
{
    int j = s->col[box + 1];
    return j ? cost_of(lb, s->sq[box], j - 1) : LB_INF;
}

void lb_free(lowerbound *lb)
{
    mem_free(lb->mem, lb->dist_t, lb->dist_bytes);
    free(lb->minv);
    free(lb->way);
    free(lb->used);
    free(lb->ulist);
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

/* One step of augment's Dijkstra over the columns, for columns j..n:
 * every free column k (used[k] == 0) whose reduced cost through the row
 * (`row`: the costs of the row's square; base: the row's offset) falls
 * below key[k] takes it, with way[k] = j0. Returns the least key of a free
 * column among them and `best`. */
static inline int64_t scan_keys(int j, int n, const uint16_t *row, int64_t base,
                                const int64_t *v, int64_t *key, int32_t *way,
                                const uint8_t *used, int j0, int64_t best)
{
    for (; j <= n; j++) {
        if (used[j])
            continue;
        int64_t cur = row_cost(row, j) + base - v[j];
        if (cur < key[j]) {
            key[j] = cur;
            way[j] = j0;
        }
        if (key[j] < best)
            best = key[j];
    }
    return best;
}

/* The first free column k in j..n with key[k] == best; 0 if none. */
static inline int first_free(int j, int n, const int64_t *key, const uint8_t *used, int64_t best)
{
    for (; j <= n; j++)
        if (!used[j] && key[j] == best)
            return j;
    return 0;
}

/* The step over every column: the keys, then the first free column of
 * least key (the tie-break, in ascending columns, that the matching's
 * results depend on). The wide scans below return the same column. */
static int scan_scalar(int n, const uint16_t *row, int64_t base, const int64_t *v, int64_t *key,
                       int32_t *way, const uint8_t *used, int j0)
{
    int64_t best = scan_keys(1, n, row, base, v, key, way, used, j0, INT64_MAX);
    return first_free(1, n, key, used, best);
}

#if LB_SIMD
/* The costs of columns j..j+3 (AVX2) and j..j+7 (AVX-512F) of `row`, an
 * impossible pair (DIST_INF) as BIG. */
__attribute__((target("avx2"))) static inline __m256i costs4(const uint16_t *row, int j)
{
    __m256i c = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(row + j - 1)));
    return _mm256_blendv_epi8(c, _mm256_set1_epi64x(BIG),
                              _mm256_cmpeq_epi64(c, _mm256_set1_epi64x(DIST_INF)));
}

__attribute__((target("avx512f"))) static inline __m512i costs8(const uint16_t *row, int j)
{
    __m512i c = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(row + j - 1)));
    return _mm512_mask_mov_epi64(c, _mm512_cmpeq_epi64_mask(c, _mm512_set1_epi64(DIST_INF)),
                                 _mm512_set1_epi64(BIG));
}

/* The least of four keys. */
__attribute__((target("avx2"))) static inline int64_t min4(__m256i m)
{
    int64_t mv[4];
    _mm256_storeu_si256((__m256i *)mv, m);
    int64_t best = mv[0];
    for (int l = 1; l < 4; l++)
        if (mv[l] < best)
            best = mv[l];
    return best;
}

/* The keys of columns j..j+3 (scan_keys' update, four at a time);
 * returns them with the used columns' lanes at INT64_MAX. */
__attribute__((target("avx2"))) static inline __m256i
scan4(const uint16_t *row, const int64_t *v, int64_t *key, int32_t *way, const uint8_t *used,
      int j, __m256i vbase, __m128i vj0)
{
    const __m256i pick32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m256i cur = _mm256_sub_epi64(_mm256_add_epi64(costs4(row, j), vbase),
                                   _mm256_loadu_si256((const __m256i *)(v + j)));
    __m256i k = _mm256_loadu_si256((const __m256i *)(key + j));
    int32_t u4;
    memcpy(&u4, used + j, sizeof u4);
    __m256i usedm = _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(u4)),
                                       _mm256_setzero_si256());
    __m256i upd = _mm256_andnot_si256(usedm, _mm256_cmpgt_epi64(k, cur));
    k = _mm256_blendv_epi8(k, cur, upd);
    _mm256_storeu_si256((__m256i *)(key + j), k);
    __m128i upd32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(upd, pick32));
    _mm_maskstore_epi32(way + j, upd32, vj0);
    return _mm256_or_si256(k, _mm256_srli_epi64(usedm, 1)); /* used: INT64_MAX */
}

/* scan_scalar four columns at a time (AVX2), in two passes: the keys and
 * the least key of a free column first, then the first free column that
 * has it. The same keys, ways and returned column. */
__attribute__((target("avx2"))) static int scan_avx2(int n, const uint16_t *row, int64_t base,
                                                     const int64_t *v, int64_t *key, int32_t *way,
                                                     const uint8_t *used, int j0)
{
    const __m256i vbase = _mm256_set1_epi64x(base);
    const __m128i vj0 = _mm_set1_epi32(j0);
    __m256i m0 = _mm256_set1_epi64x(INT64_MAX), m1 = m0;
    int j = 1;
    for (; j + 7 <= n; j += 8) {
        __m256i a = scan4(row, v, key, way, used, j, vbase, vj0);
        __m256i b = scan4(row, v, key, way, used, j + 4, vbase, vj0);
        m0 = _mm256_blendv_epi8(m0, a, _mm256_cmpgt_epi64(m0, a));
        m1 = _mm256_blendv_epi8(m1, b, _mm256_cmpgt_epi64(m1, b));
    }
    for (; j + 3 <= n; j += 4) {
        __m256i a = scan4(row, v, key, way, used, j, vbase, vj0);
        m0 = _mm256_blendv_epi8(m0, a, _mm256_cmpgt_epi64(m0, a));
    }
    m0 = _mm256_blendv_epi8(m0, m1, _mm256_cmpgt_epi64(m0, m1));
    int64_t best = min4(m0);
    int vec_end = j; /* columns 1..vec_end-1 scanned above */
    best = scan_keys(j, n, row, base, v, key, way, used, j0, best);
    /* the first free column of key best */
    const __m256i vb = _mm256_set1_epi64x(best);
    int k = 1;
    for (; k + 3 < vec_end; k += 4) {
        __m256i eq = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i *)(key + k)), vb);
        int mask = _mm256_movemask_pd(_mm256_castsi256_pd(eq));
        while (mask) {
            int l = __builtin_ctz((unsigned)mask);
            if (!used[k + l])
                return k + l;
            mask &= mask - 1;
        }
    }
    return first_free(k, n, key, used, best); /* a free column holds best */
}

/* scan_avx2 eight columns at a time (AVX-512F): the same two passes, the
 * used columns masked off; the same keys, ways and returned column. */
__attribute__((target("avx512f"))) static int scan_avx512(int n, const uint16_t *row, int64_t base,
                                                         const int64_t *v, int64_t *key,
                                                         int32_t *way, const uint8_t *used, int j0)
{
    const __m512i vbase = _mm512_set1_epi64(base);
    const __m512i vj0 = _mm512_set1_epi64(j0);
    const __m512i zero = _mm512_setzero_si512();
    __m512i m = _mm512_set1_epi64(INT64_MAX);
    int j = 1;
    for (; j + 7 <= n; j += 8) {
        __m512i cur = _mm512_sub_epi64(_mm512_add_epi64(costs8(row, j), vbase),
                                       _mm512_loadu_si512(v + j));
        __m512i k = _mm512_loadu_si512(key + j);
        __mmask8 fr = _mm512_cmpeq_epi64_mask(
            _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(used + j))), zero);
        __mmask8 upd = fr & _mm512_cmplt_epi64_mask(cur, k);
        k = _mm512_mask_mov_epi64(k, upd, cur);
        _mm512_storeu_si512(key + j, k);
        _mm512_mask_cvtepi64_storeu_epi32(way + j, upd, vj0);
        m = _mm512_mask_min_epi64(m, fr, m, k);
    }
    int64_t best = _mm512_reduce_min_epi64(m);
    int vec_end = j; /* columns 1..vec_end-1 scanned above */
    best = scan_keys(j, n, row, base, v, key, way, used, j0, best);
    const __m512i vb = _mm512_set1_epi64(best);
    int k = 1;
    for (; k + 7 < vec_end; k += 8) {
        __mmask8 fr = _mm512_cmpeq_epi64_mask(
            _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(used + k))), zero);
        __mmask8 eq = fr & _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(key + k), vb);
        if (eq)
            return k + __builtin_ctz((unsigned)eq);
    }
    return first_free(k, n, key, used, best); /* a free column holds best */
}
#define SCAN(lb) ((lb)->simd == 2 ? scan_avx512 : (lb)->simd ? scan_avx2 : scan_scalar)
#else
#define SCAN(lb) scan_scalar
#endif

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
    uint8_t *used = lb->used; /* all 0 between calls */
    int32_t *ulist = lb->ulist;
    int64_t *at = lb->at;
    int (*scan)(int, const uint16_t *, int64_t, const int64_t *, int64_t *, int32_t *,
                const uint8_t *, int) = SCAN(lb);
    if (lb->paths)
        ++*lb->paths;
    /* way[j] needs no reset: the first step sets it for every column, as
     * every reduced cost is below INT64_MAX */
    for (int j = 0; j <= n; j++)
        key[j] = INT64_MAX;
    s->p[0] = r;
    int j0 = 0, nused = 0;
    int64_t off = 0;
    for (;;) {
        used[j0] = 1;
        ulist[nused++] = j0;
        at[j0] = off;
        int i0 = s->p[j0];
        sq_t sq = s->sq[i0 - 1];
        const uint16_t *row = lb->dist_t + (size_t)sq * (size_t)n;
        int64_t base = off - s->u[i0]; /* u[i0] carries no pending delta */
        int j1 = scan(n, row, base, s->v, key, way, used, j0);
        off = key[j1]; /* off + delta, delta = key[j1] - off */
        j0 = j1;
        if (s->p[j0] == 0)
            break;
    }
    /* the deferred potentials: every used column and its row (the last
     * column, j0, is not used: its row comes from the path); used is
     * cleared for the next call */
    for (int k = 0; k < nused; k++) {
        int j = ulist[k];
        int64_t d = off - at[j];
        s->u[s->p[j]] += d;
        s->v[j] -= d;
        used[j] = 0;
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

/* The least reduced cost c[k] - v[k] of a row over columns j..n, and m
 * (`row`: the costs of the row's square). */
static inline int64_t row_min_plain(int j, int n, const uint16_t *row, const int64_t *v,
                                    int64_t m)
{
    for (; j <= n; j++) {
        int64_t c = row_cost(row, j) - v[j];
        if (c < m)
            m = c;
    }
    return m;
}

#if LB_SIMD
__attribute__((target("avx2"))) static int64_t row_min_avx2(int n, const uint16_t *row,
                                                            const int64_t *v)
{
    __m256i m = _mm256_set1_epi64x(INT64_MAX);
    int j = 1;
    for (; j + 3 <= n; j += 4) {
        __m256i c = _mm256_sub_epi64(costs4(row, j), _mm256_loadu_si256((const __m256i *)(v + j)));
        m = _mm256_blendv_epi8(m, c, _mm256_cmpgt_epi64(m, c));
    }
    return row_min_plain(j, n, row, v, min4(m));
}

__attribute__((target("avx512f"))) static int64_t row_min_avx512(int n, const uint16_t *row,
                                                                const int64_t *v)
{
    __m512i m = _mm512_set1_epi64(INT64_MAX);
    int j = 1;
    for (; j + 7 <= n; j += 8)
        m = _mm512_min_epi64(m, _mm512_sub_epi64(costs8(row, j), _mm512_loadu_si512(v + j)));
    return row_min_plain(j, n, row, v, _mm512_reduce_min_epi64(m));
}
#endif

/* The least reduced cost of the row of square sq (the value only: no tie
 * to break). */
static int64_t row_min(const lowerbound *lb, sq_t sq, const int64_t *v)
{
    const uint16_t *row = lb->dist_t + (size_t)sq * (size_t)lb->n;
#if LB_SIMD
    if (lb->simd == 2)
        return row_min_avx512(lb->n, row, v);
    if (lb->simd == 1)
        return row_min_avx2(lb->n, row, v);
#endif
    return row_min_plain(1, lb->n, row, v, INT64_MAX);
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
    s->u[i] = row_min(lb, s->sq[i - 1], s->v);
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
    int64_t m = row_min(lb, to, s->v);
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
