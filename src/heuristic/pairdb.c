/* pairdb.c: two boxes alone, per pair of goals (see pairdb.h). */
#include "pairdb.h"
#include "../util/timer.h"

#include <stdlib.h>
#include <string.h>

/* The scratch of one goal pair's search. */
typedef struct pd_scratch {
    int nsq;
    uint64_t *seen;  /* [nsq^3 bits]: (a, b, the player's least square) visited */
    uint8_t *mark;   /* [nsq] the player's flood */
    sq_t *fq;        /* [nsq] its queue */
    sq_t (*q)[3];    /* the search's queue: a, b, a square of the player */
    size_t qcap;
} pd_scratch;

/* The player's region from p with boxes on a and c only: marks it in
 * mark[], lists it in fq[] and returns its size. */
static int region(const board *b, pd_scratch *w, sq_t p, sq_t a, sq_t c)
{
    memset(w->mark, 0, (size_t)w->nsq);
    int h = 0, t = 0;
    w->fq[t++] = p;
    w->mark[p] = 1;
    while (h < t) {
        sq_t s = w->fq[h++];
        for (int d = 0; d < 4; d++) {
            sq_t r = b->nb[s][d];
            if (r == SQ_NONE || r == a || r == c || w->mark[r])
                continue;
            w->mark[r] = 1;
            w->fq[t++] = r;
        }
    }
    return t;
}

/* Words of the visited set of a board of n squares (n^3 bits). */
static size_t seen_words(size_t n)
{
    return (n * n * n + 63) / 64;
}

/* D_G of boxes on a and c (either order) in table t on n squares. */
static inline uint16_t pair_at(const pd_table *t, int n, sq_t a, sq_t c)
{
    return a < c ? t->d[(size_t)a * n + c] : t->d[(size_t)c * n + a];
}

static int qpush(pd_scratch *w, size_t *qt, sq_t a, sq_t c, sq_t p)
{
    if (*qt == w->qcap) {
        size_t cap = w->qcap * 2;
        sq_t(*q)[3] = realloc(w->q, cap * sizeof *q);
        if (!q)
            return -1;
        w->q = q;
        w->qcap = cap;
    }
    if (a > c) {
        sq_t t = a;
        a = c;
        c = t;
    }
    w->q[*qt][0] = a;
    w->q[*qt][1] = c;
    w->q[*qt][2] = p;
    (*qt)++;
    return 0;
}

/* The search of goal pair (g1, g2): pulls, breadth-first, from the two
 * boxes on the goals with the player in each of his regions; d[a * nsq + c]
 * (a < c) receives the fewest pulls to any state with boxes on a and c.
 * Returns the states visited, or -1 (out of memory or past the deadline). */
static int64_t search_pair(const board *b, pd_scratch *w, sq_t g1, sq_t g2, uint16_t *d,
                           int64_t deadline_ns, atomic_int *stop)
{
    int n = w->nsq;
    memset(w->seen, 0, seen_words((size_t)n) * sizeof *w->seen);
    for (size_t i = 0; i < (size_t)n * n; i++)
        d[i] = DIST_INF;
    size_t qh = 0, qt = 0;
    for (int s = 0; s < n; s++)
        if (s != g1 && s != g2 && qpush(w, &qt, g1, g2, (sq_t)s) != 0)
            return -1;
    uint16_t depth = 0;
    size_t level_end = qt;
    int64_t states = 0;
    while (qh < qt) {
        if (qh == level_end) {
            depth++;
            level_end = qt;
        }
        sq_t a = w->q[qh][0], c = w->q[qh][1], p = w->q[qh][2];
        qh++;
        size_t base = ((size_t)a * n + c) * n, id = base + p;
        if (w->seen[id >> 6] >> (id & 63) & 1)
            continue; /* the player's region with these boxes was seen */
        int size = region(b, w, p, a, c);
        for (int k = 0; k < size; k++) {
            size_t q = base + w->fq[k];
            w->seen[q >> 6] |= 1ULL << (q & 63);
        }
        if (++states % 4096 == 0 && ((deadline_ns && timer_now_ns() >= deadline_ns) ||
                                     (stop && atomic_load(stop))))
            return -1;
        if (d[(size_t)a * n + c] == DIST_INF)
            d[(size_t)a * n + c] = depth;
        /* a pull: the player beside box x on square s steps on to the
           square beyond s, and the box follows onto s */
        sq_t box[2] = {a, c};
        for (int k = 0; k < 2; k++) {
            sq_t x = box[k], y = box[1 - k];
            for (int dir = 0; dir < 4; dir++) {
                sq_t s = b->nb[x][dir];
                if (s == SQ_NONE || !w->mark[s])
                    continue;
                sq_t beyond = b->nb[s][dir];
                if (beyond == SQ_NONE || beyond == y || !w->mark[beyond])
                    continue;
                size_t to = (s < y ? (size_t)s * n + y : (size_t)y * n + s) * n + beyond;
                if (w->seen[to >> 6] >> (to & 63) & 1)
                    continue;
                if (qpush(w, &qt, s, y, beyond) != 0)
                    return -1;
            }
        }
    }
    return states;
}

size_t pairdb_scratch_bytes(const board *b)
{
    size_t n = (size_t)b->nsq, g = (size_t)b->nboxes;
    return seen_words(n) * 8 + n * 7 + ((size_t)1 << 16) * 6 + n * n * 2 + g * g * 4;
}

/* Whether table d asks more than the boxes' own distances somewhere. */
static int has_conflict(const board *b, const uint16_t *d, int g1, int g2)
{
    int n = b->nsq;
    const uint16_t *d1 = b->goal_dist + (size_t)g1 * n, *d2 = b->goal_dist + (size_t)g2 * n;
    for (int a = 0; a < n; a++)
        for (int c = a + 1; c < n; c++) {
            uint16_t v = d[(size_t)a * n + c];
            if (v == DIST_INF)
                continue;
            int one = d1[a] == DIST_INF || d2[c] == DIST_INF ? 1 << 20 : d1[a] + d2[c];
            int two = d1[c] == DIST_INF || d2[a] == DIST_INF ? 1 << 20 : d1[c] + d2[a];
            if (v > (one < two ? one : two))
                return 1;
        }
    return 0;
}

int pairdb_build(pairdb *pd, const board *b, int gap, int64_t deadline_ns, atomic_int *stop)
{
    memset(pd, 0, sizeof *pd);
    pd->b = b;
    int n = b->nsq, ng = b->nboxes;
    if (n > PAIRDB_MAX_SQ || ng < 2 || !b->goal_dist)
        return 0;
    pd_scratch w = {.nsq = n, .qcap = (size_t)1 << 16};
    w.seen = malloc(seen_words((size_t)n) * sizeof *w.seen);
    w.mark = malloc((size_t)n);
    w.fq = malloc((size_t)n * sizeof *w.fq);
    w.q = malloc(w.qcap * sizeof *w.q);
    int *steps = malloc((size_t)ng * ng * sizeof *steps); /* goal to goal */
    int *from = malloc((size_t)n * sizeof *from);
    uint16_t *d = malloc((size_t)n * n * sizeof *d);
    int ok = w.seen && w.mark && w.fq && w.q && steps && from && d;
    /* the player's steps between goals on the empty board */
    for (int g1 = 0; ok && g1 < ng; g1++) {
        for (int s = 0; s < n; s++)
            from[s] = -1;
        int h = 0, t = 0;
        w.fq[t++] = b->goals[g1];
        from[b->goals[g1]] = 0;
        while (h < t) {
            sq_t s = w.fq[h++];
            for (int dir = 0; dir < 4; dir++) {
                sq_t r = b->nb[s][dir];
                if (r != SQ_NONE && from[r] < 0) {
                    from[r] = from[s] + 1;
                    w.fq[t++] = r;
                }
            }
        }
        for (int g2 = 0; g2 < ng; g2++)
            steps[g1 * ng + g2] = from[b->goals[g2]];
    }
    /* the nearest pairs first: a build cut short keeps those */
    for (int k = 1; ok && k <= gap; k++)
        for (int g1 = 0; ok && g1 < ng; g1++)
            for (int g2 = g1 + 1; ok && g2 < ng && pd->n < PAIRDB_MAX_TABLES; g2++) {
                if (steps[g1 * ng + g2] != k)
                    continue;
                /* a pair's search polls every 4096 states, but most visit
                   fewer, and clearing its tables costs as much: poll here too */
                if ((deadline_ns && timer_now_ns() >= deadline_ns) || (stop && atomic_load(stop))) {
                    ok = 0;
                    break;
                }
                int64_t st = search_pair(b, &w, b->goals[g1], b->goals[g2], d, deadline_ns, stop);
                if (st < 0) {
                    ok = 0;
                    break;
                }
                pd->states += (uint64_t)st;
                pd->built++;
                if (!has_conflict(b, d, g1, g2))
                    continue;
                pd_table *tb = &pd->t[pd->n];
                tb->g1 = g1;
                tb->g2 = g2;
                tb->d = malloc((size_t)n * n * sizeof *tb->d);
                if (!tb->d) {
                    ok = 0;
                    break;
                }
                memcpy(tb->d, d, (size_t)n * n * sizeof *d);
                pd->held += (size_t)n * n * sizeof *d;
                pd->n++;
            }
    free(w.seen);
    free(w.mark);
    free(w.fq);
    free(w.q);
    free(steps);
    free(from);
    free(d);
    return pd->n;
}

void pairdb_free(pairdb *pd)
{
    for (int i = 0; i < pd->n; i++)
        free(pd->t[i].d);
    memset(pd, 0, sizeof *pd);
}

int64_t pairdb_raise(const pairdb *pd, const sq_t *boxes, const lb_sol *s, uint8_t *used,
                     int64_t *q)
{
    if (!pd->n)
        return 0;
    const board *b = pd->b;
    int n = b->nsq, nb = b->nboxes;
    int64_t term[PAIRDB_MAX_TABLES];
    int any = 0;
    for (int k = 0; k < pd->n; k++) {
        const pd_table *t = &pd->t[k];
        int64_t vg = s->v[t->g1 + 1] + s->v[t->g2 + 1];
        /* the pair the matching gives G bounds the term from above: most
           tables stop here */
        int i1 = s->p[t->g1 + 1] - 1, i2 = s->p[t->g2 + 1] - 1;
        term[k] = 0;
        if (i1 < 0 || i2 < 0)
            continue;
        uint16_t dv = pair_at(t, n, boxes[i1], boxes[i2]);
        /* (two boxes that cannot fill G together leave the term to the
           other pairs) */
        int64_t best = dv == DIST_INF ? INT64_MAX / 2 : (int64_t)dv - s->u[i1 + 1] - s->u[i2 + 1] - vg;
        if (best <= 0)
            continue;
        /* D_G(P) is at least the two boxes' own distances to G, so a
           pair's term is at least q_i + q_j, q_i the least over G's goals
           of box i's distance less its and the goal's potentials: only
           pairs under `best` by that are looked up (most boxes stand far
           from G) */
        const uint16_t *d1 = b->goal_dist + (size_t)t->g1 * n, *d2 = b->goal_dist + (size_t)t->g2 * n;
        int64_t v1 = s->v[t->g1 + 1], v2 = s->v[t->g2 + 1], qmin = INT64_MAX;
        for (int i = 0; i < nb; i++) {
            int64_t e1 = d1[boxes[i]] == DIST_INF ? INT64_MAX / 4 : d1[boxes[i]] - v1;
            int64_t e2 = d2[boxes[i]] == DIST_INF ? INT64_MAX / 4 : d2[boxes[i]] - v2;
            q[i] = (e1 < e2 ? e1 : e2) - s->u[i + 1];
            if (q[i] < qmin)
                qmin = q[i];
        }
        for (int i = 0; i < nb && best > 0; i++) {
            if (q[i] + qmin >= best)
                continue;
            for (int j = i + 1; j < nb; j++) {
                if (q[i] + q[j] >= best)
                    continue;
                uint16_t v = pair_at(t, n, boxes[i], boxes[j]);
                if (v == DIST_INF)
                    continue;
                int64_t tv = (int64_t)v - s->u[i + 1] - s->u[j + 1] - vg;
                if (tv < best) {
                    best = tv;
                    if (best <= 0)
                        break;
                }
            }
        }
        if (best > 0 && best < INT64_MAX / 2) {
            term[k] = best;
            any = 1;
        }
    }
    return any ? pairdb_sum(pd, term, used) : 0;
}

int64_t pairdb_sum(const pairdb *pd, const int64_t *term, uint8_t *used)
{
    memset(used, 0, (size_t)pd->b->nboxes);
    int64_t raise = 0;
    for (;;) {
        int bk = -1;
        for (int k = 0; k < pd->n; k++)
            if (term[k] > 0 && !used[pd->t[k].g1] && !used[pd->t[k].g2] &&
                (bk < 0 || term[k] > term[bk]))
                bk = k;
        if (bk < 0)
            break;
        used[pd->t[bk].g1] = used[pd->t[bk].g2] = 1;
        raise += term[bk];
    }
    /* every solution's pushes have the matching's parity (a push moves
       one box one square: the parity of the boxes' squares against the
       goals' decides it, and each distance in the matching has it), so an
       odd raise takes the next even number */
    return raise + (raise & 1);
}
