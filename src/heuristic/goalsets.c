/* goalsets.c: a few boxes alone, per set of goals (see goalsets.h). */
#include "goalsets.h"
#include "../core/reach.h"
#include "../core/solution.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* Sets reached more than this many pushes after the cheapest are not
 * listed (they count as needing `cap`). */
#define GS_SLACK 12
/* Sets a cut test computes the others' matching for, at most (past them
 * the test takes c(G) + the others' matching to any goals for the rest). */
#define GS_TRIES 64
/* Detours of a known solution whose pushed box's pattern is tried. */
#define GS_SEED_DETOURS 40
/* The cap of a search that ran out of positions: no other set is reached. */
#define GS_NEVER 0x7FFF
/* Bound on f in a pattern's search (a set past it needs at least this). */
#define GS_FMAX 4096
/* Positions a pattern's search takes between looks at the clock. */
#define GS_POLL 1024

/* The best-first search of k boxes alone: states packed in 64 bits (k
 * squares of 12 bits, ascending, then the normalized player). */
typedef struct gs_search {
    const board *b;
    int k;
    uint16_t *box_at; /* [nsq] the reduced position's boxes */
    uint32_t *mark;   /* [nsq] flood stamps */
    uint32_t ts;
    sq_t *stack;      /* [nsq] */
    uint64_t *tab;    /* [tcap] state keys + 1; 0 = empty */
    uint16_t *tabg;   /* [tcap] the pushes each was reached with */
    uint32_t tcap;
    uint32_t nq, limit; /* states stored, at most */
    /* the queue: entries (key, g) in lists by f, freed entries reused */
    uint32_t *bhead;  /* [GS_FMAX] */
    uint64_t *ekey;   /* [elimit] */
    uint16_t *eg;
    uint32_t *enext, *efree;
    uint32_t ne, nfree, elimit;
    int64_t deadline_ns; /* 0: none; polled every GS_POLL positions */
    uint64_t stop_key;   /* a set whose cost at most stop_cost ends the
                            search: the pattern cannot raise its position */
    int stop_cost;       /* -1: none */
    int stopped;         /* the last search ended so */
    int16_t *goal_of; /* [nsq] goal index, -1 */
} gs_search;

static uint64_t pack(const sq_t *bx, int k, sq_t pl)
{
    uint64_t key = pl;
    for (int j = 0; j < k; j++)
        key = key << 12 | bx[j];
    return key;
}

static void unpack(uint64_t key, sq_t *bx, int k, sq_t *pl)
{
    for (int j = k - 1; j >= 0; j--) {
        bx[j] = (sq_t)(key & 0xFFF);
        key >>= 12;
    }
    *pl = (sq_t)key;
}

/* Stores key with g pushes: 1 when it is new, 2 when it was stored with
 * more pushes (now g), 0 when with as few. */
static int tab_put(gs_search *s, uint64_t key, int g)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
    uint32_t i = (uint32_t)(h >> 32) & (s->tcap - 1);
    while (s->tab[i]) {
        if (s->tab[i] == key + 1) {
            if (s->tabg[i] <= g)
                return 0;
            s->tabg[i] = (uint16_t)g;
            return 2;
        }
        i = (i + 1) & (s->tcap - 1);
    }
    s->tab[i] = key + 1;
    s->tabg[i] = (uint16_t)g;
    return 1;
}

/* The pushes key is stored with. */
static int tab_g(const gs_search *s, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
    uint32_t i = (uint32_t)(h >> 32) & (s->tcap - 1);
    while (s->tab[i] != key + 1)
        i = (i + 1) & (s->tcap - 1);
    return s->tabg[i];
}

static void sort_sq(sq_t *a, int k)
{
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            sq_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* A set of goals (k indices, ascending) as a key: 16 bits each. */
static uint64_t set_key(const uint16_t *gi, int k)
{
    uint64_t key = 0;
    for (int j = 0; j < k; j++)
        key = key << 16 | gi[j];
    return key;
}

static uint32_t set_slot(const gs_pattern *t, uint64_t key)
{
    uint32_t i = (uint32_t)(((key + 1) * 0x9E3779B97F4A7C15ull) >> 32) & (t->hcap - 1);
    while (t->hkey[i] && t->hkey[i] != key + 1)
        i = (i + 1) & (t->hcap - 1);
    return i;
}

/* c(G) of the set with key `key`, or cap when it is not listed. */
static int set_cost(const gs_pattern *t, uint64_t key)
{
    uint32_t i = set_slot(t, key);
    return t->hkey[i] ? t->hcost[i] : t->cap;
}

static void index_sets(gs_pattern *t)
{
    t->hcap = 16;
    while (t->hcap < 2u * (uint32_t)t->nsets + 2)
        t->hcap <<= 1;
    t->hkey = xcalloc(t->hcap, sizeof(uint64_t));
    t->hcost = xcalloc(t->hcap, sizeof(uint16_t));
    for (int e = 0; e < t->nsets; e++) {
        uint64_t key = set_key(t->sets + (size_t)e * (size_t)t->k, t->k);
        uint32_t i = set_slot(t, key);
        t->hkey[i] = key + 1;
        t->hcost[i] = t->cost[e];
    }
}

static sq_t flood(gs_search *s, sq_t from)
{
    return reach_flood_marks(s->b, s->box_at, s->mark, &s->ts, s->stack, from);
}

static void place(gs_search *s, const sq_t *bx, uint16_t v)
{
    for (int j = 0; j < s->k; j++)
        s->box_at[bx[j]] = v == NO_BOX ? NO_BOX : (uint16_t)j;
}

/* A growing set of 64-bit keys (open addressing, key + 1; 0 = empty). */
typedef struct keyset {
    uint64_t *key;
    uint32_t cap, n;
} keyset;

/* Adds key; 0 when it was there already. */
static int seen_put(keyset *h, uint64_t key)
{
    if (2 * (h->n + 1) > h->cap) {
        uint32_t old = h->cap, cap = old ? 2 * old : 64;
        uint64_t *prev = h->key;
        h->key = xcalloc(cap, sizeof(uint64_t));
        h->cap = cap;
        h->n = 0;
        for (uint32_t i = 0; i < old; i++)
            if (prev[i])
                seen_put(h, prev[i] - 1);
        free(prev);
    }
    uint32_t i = (uint32_t)(((key + 1) * 0x9E3779B97F4A7C15ull) >> 32) & (h->cap - 1);
    while (h->key[i]) {
        if (h->key[i] == key + 1)
            return 0;
        i = (i + 1) & (h->cap - 1);
    }
    h->key[i] = key + 1;
    h->n++;
    return 1;
}

/* Queues state key with g pushes at f (an entry from the free list, or a
 * new one: the caller checked there is one). */
static void queue_put(gs_search *s, uint64_t key, int g, int f)
{
    uint32_t e = s->nfree ? s->efree[--s->nfree] : s->ne++;
    s->ekey[e] = key;
    s->eg[e] = (uint16_t)g;
    s->enext[e] = s->bhead[f];
    s->bhead[f] = e;
}

/* Fills pattern t (its k and sq set) from a search of its boxes alone with
 * the player on `player`. Returns 0, or -1 when it found no set.
 *
 * Best-first on f = g + h, h the sum of the boxes' nearest-goal distances
 * (admissible in the reduced problem, not consistent: a box's nearest goal
 * is the best over the player's sides, and one push may lower it by more
 * than one), with re-opening: a state reached again with fewer pushes is
 * queued again, and the least f queued is always taken next. Every set G's
 * first state taken has c(G) pushes: h is 0 on it, and an optimal path to
 * G keeps a queued state of f <= c(G) on it until then. Sets are listed up
 * to GS_SLACK pushes past the cheapest; any set not listed needs at least
 * the least f still queued when the search stops (`cap`). Against the
 * breadth-first search this replaced, it skips the positions that move
 * boxes away from every goal: XSokoban 86's patterns of three boxes stored
 * 44,000-180,000 positions each before. */
static int search_sets(gs_search *s, gs_pattern *t, sq_t player)
{
    const board *b = s->b;
    int k = t->k;
    memset(s->tab, 0, sizeof(uint64_t) * s->tcap);
    for (int f = 0; f < GS_FMAX; f++)
        s->bhead[f] = UINT32_MAX;
    s->nq = 0;
    s->ne = 0;
    s->nfree = 0;
    s->stopped = 0;
    sq_t bx[GS_MAX_BOXES], nbx[GS_MAX_BOXES], pl;
    place(s, t->sq, 0);
    sq_t norm = flood(s, player);
    for (sq_t q = 0; q < b->nsq; q++)
        t->region[q] = s->mark[q] == s->ts;
    place(s, t->sq, NO_BOX);
    int h0 = 0;
    for (int j = 0; j < k; j++)
        h0 += b->near_dist[t->sq[j]];
    int nsets = 0, capsets = 64;
    uint16_t *cost = xmalloc(sizeof(uint16_t) * (size_t)capsets);
    uint16_t *sets = xmalloc(sizeof(uint16_t) * (size_t)capsets * (size_t)k);
    keyset seen = {0};
    int L = -1, cap = -1, fmin = h0;
    uint32_t polls = 0;
    if (h0 < GS_FMAX) {
        uint64_t root = pack(t->sq, k, norm);
        tab_put(s, root, 0);
        s->nq++;
        queue_put(s, root, 0, h0);
    }
    for (;;) {
        while (fmin < GS_FMAX && s->bhead[fmin] == UINT32_MAX)
            fmin++;
        if (fmin >= GS_FMAX)
            break; /* exhausted */
        if (L >= 0 && fmin > L + GS_SLACK) {
            cap = fmin; /* every state of lower f taken */
            break;
        }
        if (s->deadline_ns && ++polls % GS_POLL == 0 && timer_now_ns() >= s->deadline_ns) {
            cap = fmin; /* the sets not found need at least the least f queued */
            break;
        }
        uint32_t e = s->bhead[fmin];
        s->bhead[fmin] = s->enext[e];
        uint64_t key = s->ekey[e];
        int g = s->eg[e];
        s->efree[s->nfree++] = e;
        if (tab_g(s, key) < g)
            continue; /* reached since with fewer pushes */
        unpack(key, bx, k, &pl);
        int on = 0;
        for (int j = 0; j < k; j++)
            on += b->is_goal[bx[j]];
        if (on == k) {
            uint16_t gi[GS_MAX_BOXES]; /* ascending, as the squares and goals are */
            for (int j = 0; j < k; j++)
                gi[j] = (uint16_t)s->goal_of[bx[j]];
            uint64_t sk = set_key(gi, k);
            if (sk == s->stop_key && g <= s->stop_cost) {
                s->stopped = 1; /* the pattern raises nothing: no use going on */
                break;
            }
            if (seen_put(&seen, sk)) {
                if (nsets == capsets) {
                    capsets *= 2;
                    cost = xrealloc(cost, sizeof(uint16_t) * (size_t)capsets);
                    sets = xrealloc(sets, sizeof(uint16_t) * (size_t)capsets * (size_t)k);
                }
                cost[nsets] = (uint16_t)g;
                memcpy(sets + (size_t)nsets * (size_t)k, gi, sizeof(uint16_t) * (size_t)k);
                nsets++;
                if (L < 0)
                    L = g;
            }
        }
        place(s, bx, 0);
        flood(s, pl);
        /* the pushes first (the children's floods move the stamps) */
        sq_t pf[4 * GS_MAX_BOXES], pt[4 * GS_MAX_BOXES];
        int np = 0;
        for (int j = 0; j < k; j++) {
            sq_t from = bx[j];
            for (int d = 0; d < 4; d++) {
                sq_t behind = b->nb[from][DIR_OPP(d)], to = b->nb[from][d];
                if (behind != SQ_NONE && to != SQ_NONE && s->mark[behind] == s->ts &&
                    s->box_at[to] == NO_BOX && !b->dead[to]) {
                    pf[np] = from;
                    pt[np++] = to;
                }
            }
        }
        int h = fmin - g; /* queued at f = g + h */
        for (int c = 0; c < np; c++) {
            int nf = g + 1 + h - b->near_dist[pf[c]] + b->near_dist[pt[c]];
            if (nf >= GS_FMAX)
                continue; /* a set this way needs GS_FMAX pushes or more */
            for (int i = 0; i < k; i++)
                nbx[i] = bx[i] == pf[c] ? pt[c] : bx[i];
            sort_sq(nbx, k);
            s->box_at[pf[c]] = NO_BOX;
            s->box_at[pt[c]] = 0;
            sq_t n2 = flood(s, pf[c]);
            s->box_at[pt[c]] = NO_BOX;
            s->box_at[pf[c]] = 0;
            uint64_t nk = pack(nbx, k, n2);
            int had = tab_put(s, nk, g + 1);
            if (had == 0)
                continue; /* stored with as few pushes */
            if ((had == 1 && s->nq == s->limit) || (!s->nfree && s->ne == s->elimit)) {
                /* sets not found need at least the least f queued or
                 * this child's */
                cap = MIN(fmin, nf);
                goto out;
            }
            s->nq += had == 1;
            queue_put(s, nk, g + 1, nf);
            fmin = MIN(fmin, nf); /* h may fall by more than a push adds */
        }
        place(s, bx, NO_BOX);
    }
out:
    for (sq_t q = 0; q < b->nsq; q++)
        s->box_at[q] = NO_BOX;
    if (cap < 0)
        cap = GS_NEVER; /* exhausted: the sets not found are out of reach */
    free(seen.key);
    t->nsets = nsets;
    t->cost = cost;
    t->sets = sets;
    t->cap = cap;
    index_sets(t);
    return nsets ? 0 : -1;
}

static void pattern_free(gs_pattern *t)
{
    free(t->hkey);
    free(t->hcost);
    free(t->region);
    free(t->cost);
    free(t->sets);
    memset(t, 0, sizeof *t);
}

int64_t goalsets_value(const goalsets *g, int i, const position *p, lowerbound *lb,
                       const lb_sol *s, lb_sol *t0, lb_sol *t, int64_t limit)
{
    const gs_pattern *pt = &g->pat[i];
    int n = g->b->nboxes, k = pt->k;
    if (limit < INT64_MAX) {
        /* h' is at most c(G*) + the others' share of s, G* the goals s gives
         * P's boxes (the others' assignment in s fills the goals outside
         * G*): most positions fail here, with no matching */
        uint16_t gi[GS_MAX_BOXES];
        int64_t share = 0;
        for (int j = 0; j < k; j++) {
            int box = p->box_at[pt->sq[j]];
            int col = s->col[box + 1];
            if (!col)
                return limit; /* no perfect matching: dead */
            gi[j] = (uint16_t)(col - 1);
            share += lb_assigned(lb, s, box);
        }
        sort_sq(gi, k); /* goal indices, sorted as squares are */
        int64_t ub = (int64_t)set_cost(pt, set_key(gi, k)) + s->cost - share;
        if (ub < limit)
            return ub;
    }
    /* the others to any goals: P's rows made wildcards */
    lb_copy(t0, s, n);
    int64_t m0 = 0;
    for (int j = 0; j < k; j++)
        m0 = lb_move(lb, t0, p->box_at[pt->sq[j]], lb_wild(lb));
    if (m0 == LB_INF)
        return limit;
    /* The potentials of t0 (P's rows wild: u_i + v_j <= c_ij, a wild row's
     * u_w = -max v) and of s bound each set's matching from below (lw, ls
     * below); sets those already lift to `best` need no matching. */
    int64_t vmax = INT64_MIN;
    for (int j = 1; j <= n; j++)
        vmax = MAX(vmax, t0->v[j]);
    const int64_t *v = t0->v;
    int64_t uP = 0;
    for (int j = 0; j < k; j++)
        uP += s->u[p->box_at[pt->sq[j]] + 1];
    int64_t best = (int64_t)pt->cap + m0;
    if (best < limit && limit < INT64_MAX)
        return best;
    int tries = 0;
    for (int e = 0; e < pt->nsets && best > 0; e++) {
        int64_t c = pt->cost[e];
        if (c + m0 >= best)
            break; /* every later set costs at least as much */
        const uint16_t *G = pt->sets + (size_t)e * (size_t)k;
        /* any matching of the others with P's rows on G costs m0 plus its
         * edges' reduced costs, the wild rows' on G (vmax - v_j) among
         * them; likewise from s's potentials with P's rows made G's */
        int64_t lw = m0, ls = s->cost - uP;
        for (int j = 0; j < k; j++) {
            lw += vmax - v[G[j] + 1];
            ls -= s->v[G[j] + 1];
        }
        if (c + MAX(lw, ls) >= best)
            continue;
        if (limit < INT64_MAX && ++tries > GS_TRIES)
            return c + m0; /* a bound still: every set left costs c + m0 or more */
        lb_restrict(lb, G, k);
        lb_copy(t, s, n);
        int64_t m = 0;
        for (int j = 0; j < k; j++)
            m = lb_move(lb, t, p->box_at[pt->sq[j]], lb_restricted(lb));
        if (m != LB_INF && c + m < best)
            best = c + m;
        if (best < limit && limit < INT64_MAX)
            return best; /* below what the caller needs */
    }
    return MIN(best, limit);
}

int goalsets_holds(const gs_pattern *t, const position *p)
{
    if (!t->region[p->player])
        return 0;
    for (int j = 0; j < t->k; j++)
        if (p->box_at[t->sq[j]] == NO_BOX)
            return 0;
    return 1;
}

int goalsets_cut(const goalsets *g, const position *p, lowerbound *lb, const lb_sol *s,
                 lb_sol *t0, lb_sol *t, int64_t need)
{
    for (int i = 0; i < g->n; i++)
        if (goalsets_holds(&g->pat[i], p) && goalsets_value(g, i, p, lb, s, t0, t, need) >= need)
            return 1;
    return 0;
}

/* The box on c and its k - 1 nearest of p's boxes (Manhattan, then the
 * square), ascending, into pick. */
static void pick_near(const board *b, const position *p, sq_t c, int k, sq_t *pick)
{
    int dist[GS_MAX_BOXES], np = 0;
    int cx = board_col(b, c), cy = board_row(b, c);
    for (int j = 0; j < b->nboxes; j++) {
        sq_t q = p->boxes[j];
        int dq = abs(board_col(b, q) - cx) + abs(board_row(b, q) - cy);
        int at = np < k ? np++ : k;
        if (at == k) {
            if (dq >= dist[k - 1])
                continue;
            at = k - 1;
        }
        while (at > 0 && dist[at - 1] > dq) {
            pick[at] = pick[at - 1];
            dist[at] = dist[at - 1];
            at--;
        }
        pick[at] = q;
        dist[at] = dq;
    }
    sort_sq(pick, k);
}

/* Builds the pattern of the box on c and its nearest in p (s: p's
 * matching, cost m) and keeps it when it raises p's bound and no pattern
 * of the same squares holds p already. */
static void try_pattern(goalsets *g, gs_search *sr, lowerbound *lb, const position *p, sq_t c,
                        const lb_sol *s, int64_t m, lb_sol *t0, lb_sol *t1)
{
    const board *b = g->b;
    int k = sr->k;
    sq_t pick[GS_MAX_BOXES];
    pick_near(b, p, c, k, pick);
    for (int e = 0; e < g->n; e++)
        if (!memcmp(g->pat[e].sq, pick, sizeof(sq_t) * (size_t)k) && g->pat[e].region[p->player])
            return;
    gs_pattern *t = &g->pat[g->n];
    t->k = k;
    memcpy(t->sq, pick, sizeof(sq_t) * (size_t)k);
    t->region = xmalloc((size_t)b->nsq);
    /* The goals G* that p's matching gives the pattern's boxes, and their
     * share of it: the pattern's h' is at most c(G*) + m - share (the
     * others keep their goals outside G*), so once the search finds G*
     * within `share` pushes the pattern cannot raise p and is dropped. */
    sr->stop_cost = -1;
    if (m != LB_INF) {
        uint16_t gi[GS_MAX_BOXES];
        int64_t share = 0;
        int all = 1;
        for (int j = 0; j < k && all; j++) {
            int box = p->box_at[pick[j]];
            int col = s->col[box + 1];
            all = col != 0;
            gi[j] = (uint16_t)(col - 1);
            share += lb_assigned(lb, s, box);
        }
        if (all) {
            sort_sq(gi, k);
            sr->stop_key = set_key(gi, k);
            sr->stop_cost = (int)MIN(share, (int64_t)GS_FMAX);
        }
    }
    int ok = search_sets(sr, t, p->player) == 0 && !sr->stopped;
    g->states += sr->nq;
    if (ok) {
        int64_t v = goalsets_value(g, g->n, p, lb, s, t0, t1, INT64_MAX);
        t->gain = v == INT64_MAX ? 0 : (int)(v - m);
        ok = t->gain > 0;
    }
    if (ok)
        g->n++;
    else
        pattern_free(t);
}

size_t goalsets_scratch_bytes(const board *b, int limit)
{
    size_t lim = (size_t)MAX(limit, 1), tcap = 1;
    while (tcap < 2 * lim + 2)
        tcap <<= 1;
    return tcap * (sizeof(uint64_t) + sizeof(uint16_t)) +
           2 * lim * (sizeof(uint64_t) + sizeof(uint16_t) + 2 * sizeof(uint32_t)) +
           sizeof(uint32_t) * GS_FMAX +
           (size_t)b->nsq * (sizeof(uint16_t) + sizeof(uint32_t) + sizeof(sq_t) + sizeof(int16_t));
}

int goalsets_build(goalsets *g, const board *b, lowerbound *lb, int k, int limit,
                   int64_t deadline_ns, const movelist *seed)
{
    memset(g, 0, sizeof *g);
    g->b = b;
    if (!lb->matching || k < 2 || k > GS_MAX_BOXES || k > b->nboxes || b->nsq > 4096)
        return 0;
    gs_search sr = {.b = b, .k = k, .limit = (uint32_t)MAX(limit, 1), .deadline_ns = deadline_ns};
    sr.box_at = xmalloc(sizeof(uint16_t) * (size_t)b->nsq);
    for (sq_t q = 0; q < b->nsq; q++)
        sr.box_at[q] = NO_BOX;
    sr.mark = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    sr.stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    sr.tcap = 1;
    while (sr.tcap < 2 * sr.limit + 2)
        sr.tcap <<= 1;
    sr.tab = xmalloc(sizeof(uint64_t) * sr.tcap);
    sr.tabg = xmalloc(sizeof(uint16_t) * sr.tcap);
    sr.elimit = 2 * sr.limit;
    sr.bhead = xmalloc(sizeof(uint32_t) * GS_FMAX);
    sr.ekey = xmalloc(sizeof(uint64_t) * sr.elimit);
    sr.eg = xmalloc(sizeof(uint16_t) * sr.elimit);
    sr.enext = xmalloc(sizeof(uint32_t) * sr.elimit);
    sr.efree = xmalloc(sizeof(uint32_t) * sr.elimit);
    sr.goal_of = xmalloc(sizeof(int16_t) * (size_t)b->nsq);
    for (sq_t q = 0; q < b->nsq; q++)
        sr.goal_of[q] = -1;
    for (int j = 0; j < b->nboxes; j++)
        sr.goal_of[b->goals[j]] = (int16_t)j;

    position p;
    pos_init(&p, b);
    lb_sol s0, t0, t1;
    lb_sol_init(&s0, b->nboxes);
    lb_sol_init(&t0, b->nboxes);
    lb_sol_init(&t1, b->nboxes);
    int64_t m = lb_solve(lb, &s0, p.boxes);
    /* the start: each box and its nearest */
    for (int i = 0; i < b->nboxes && m != LB_INF && g->n < GS_MAX_PATTERNS; i++) {
        if (deadline_ns && timer_now_ns() >= deadline_ns)
            break;
        try_pattern(g, &sr, lb, &p, b->start_boxes[i], &s0, m, &t0, &t1);
    }
    /* a known solution's detours: before each push that leaves g + h
     * higher (the bound's error lies there), the pushed box and its
     * nearest in that position */
    int detours = 0;
    for (int i = 0; seed && i < seed->n && m != LB_INF && g->n < GS_MAX_PATTERNS &&
                    detours < GS_SEED_DETOURS; i++) {
        if (deadline_ns && timer_now_ns() >= deadline_ns)
            break;
        int d = seed->m[i] & 3;
        sq_t next = b->nb[p.player][d];
        if (next == SQ_NONE)
            break; /* not a solution of this board: no more patterns */
        if (!(seed->m[i] & MOVE_PUSH)) {
            p.player = next;
            continue;
        }
        sq_t to = b->nb[next][d];
        if (to == SQ_NONE || p.box_at[next] == NO_BOX || p.box_at[to] != NO_BOX)
            break;
        lb_copy(&t0, &s0, b->nboxes);
        int64_t after = lb_move(lb, &t0, p.box_at[next], to);
        if (after >= m && after != LB_INF) {
            detours++;
            try_pattern(g, &sr, lb, &p, next, &s0, m, &t0, &t1);
        }
        undo_rec u;
        pos_relocate(&p, next, to, next, &u);
        m = lb_move(lb, &s0, p.box_at[to], to);
    }
    lb_sol_free(&s0);
    lb_sol_free(&t0);
    lb_sol_free(&t1);
    pos_free(&p);
    free(sr.box_at);
    free(sr.mark);
    free(sr.stack);
    free(sr.tab);
    free(sr.tabg);
    free(sr.bhead);
    free(sr.ekey);
    free(sr.eg);
    free(sr.enext);
    free(sr.efree);
    free(sr.goal_of);
    for (int e = 0; e < g->n; e++)
        g->held += (size_t)b->nsq + (size_t)g->pat[e].nsets * (2 + 2 * (size_t)k);
    return g->n;
}

void goalsets_free(goalsets *g)
{
    for (int e = 0; e < g->n; e++)
        pattern_free(&g->pat[e]);
    memset(g, 0, sizeof *g);
}
