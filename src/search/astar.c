/* astar.c: A* over pushes with a transposition table, SetPosition, the
 * depth-first extension, and push-optimal proofs on two workers (see
 * astar.h). */
#include "astar.h"
#include "nodes.h"
#include "openlist.h"
#include "boxpath.h"
#include "pstack.h"
#include "../analysis/packing.h"
#include "../analysis/tunnels.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../deadlock/layer.h"
#include "../heuristic/lowerbound.h"
#include "../heuristic/penalty.h"
#include "../heuristic/goalsets.h"
#include "../heuristic/pairdb.h"
#include "../deadlock/subset.h"
#include "../util/spares.h"
#include "../util/timer.h"
#include "../util/u32map.h"
#include "../util/util.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* cluster_rows: a row that reaches no goal */
#define CLUSTER_NO_GOAL (INT64_MAX / 4)


/* Depth-first extensions nest at most this deep; deeper children are
 * queued like the others. */
#define MAX_EXT_DEPTH 48
/* Optimal mode: positions a pop's depth-first extensions may store before
 * its children go to the open list. Inside the layer of the optimum the
 * open list's order (lowest h first) finds a solution; a depth-first walk
 * from a shallow node can store the whole layer below it first (keeper
 * bench's B4 Loading Dock, its layers below deferred by --goal-layers:
 * over 1,000,000 positions against 37,193 with this limit). */
#ifndef ASTAR_EXT_NODES
#define ASTAR_EXT_NODES 1000
#endif

/* Packing macros: boxes tried per goal (nearest first), and the most
 * pushes a macro may take beyond the box's lone distance to the goal. */
#ifndef PACK_CANDIDATES
#define PACK_CANDIDATES 3
#endif
#ifndef PACK_DETOUR
#define PACK_DETOUR 24
#endif


/* --goal-sets: reduced positions each pattern's search may store. */
#ifndef ASTAR_GOALSET_LIMIT
#define ASTAR_GOALSET_LIMIT 1000000
#endif

/* --penalties: the boxes searched alone (the pushed box and its nearest
 * within ASTAR_PENALTY_RADIUS squares on both axes) and the reduced
 * positions one search may visit (penalty_cut). */
#ifndef ASTAR_PENALTY_BOXES
#define ASTAR_PENALTY_BOXES 5
#endif
#ifndef ASTAR_PENALTY_RADIUS
#define ASTAR_PENALTY_RADIUS 3
#endif
#ifndef ASTAR_PENALTY_LIMIT
#define ASTAR_PENALTY_LIMIT 2000
#endif
/* the most a search of a few boxes is asked to add */
#define ASTAR_PENALTY_MAX_RAISE 8

/* What each thread searching needs of its own: the board it expands on,
 * the bound's scratch, the detectors' contexts, its counters. Worker 0 is
 * the caller's; a second worker runs on a thread lent to the level
 * (optimal mode, see astar_step). */
typedef struct aworker {
    struct astar *a;
    stats *st;           /* worker 0: the outcome's; a helper: `own`, added at the end */
    stats own;
    position pos;
    lowerbound lb;
    lb_sol sols[MAX_EXT_DEPTH + 2]; /* bound of the position expanded at each depth, + child */
    reach reach[MAX_EXT_DEPTH + 2];
    dl_layer dl;         /* the deadlock layer (cfg->dl) */
    uint8_t *allow[MAX_EXT_DEPTH + 2]; /* PI-corral: allowed directions per box */
    pstack path;         /* the pushes on the board, from the root */
    int cq;              /* the open list the expanded node came from */
    uint32_t fmin;       /* f of the node being expanded */
    uint64_t ext_end;    /* depth-first extensions stop once st->nodes
                            reaches this (ASTAR_EXT_NODES after the pop) */
    uint32_t gexp[MAX_EXT_DEPTH + 2]; /* g of the node expanded at each depth */
    uint32_t hexp[MAX_EXT_DEPTH + 2]; /* and its h (the children's inherited bound) */
    uint32_t checks;     /* expansions since the last limit check */
    deadline_poll dpoll; /* the clock between checks */
    int busy;            /* expanding a node taken from the open list (a->mu) */
    uint32_t busy_f;     /* its f */
    penalty_ctx pen;     /* cfg->penalties: the searches of a few boxes alone */
    size_t pen_charged;  /* its bytes taken from the budget (pen_charge) */
    lb_sol psol;         /* cfg->penalties: scratch, the matching of the others */
    lb_sol gsol, gsol2;  /* cfg->goal_sets: scratch, the same */
    sq_t *rows;          /* cfg->sides: [nboxes] the boxes' rows (box_rows) */
    uint8_t *pd_used;    /* cfg->pair_db: [nboxes] scratch (pairdb_raise) */
    uint8_t *cl_used;    /* cfg->clusters_below: [nboxes] scratch (cluster_below) */
    uint16_t *cl_marked; /* the same: the boxes marked in cl_used */
    int64_t *pd_q;       /* the same */
    penalty_ctx pcl;     /* cfg->pop_clusters: the clusters' searches */
    size_t pcl_charged;  /* its bytes taken from the budget (0: not yet) */
    int pcl_refused;     /* the budget refused them: not asked again (A*'s
                            store only grows) */
    struct pcl_entry *pcl_cache; /* [PCL_CACHE] the clusters' values by
                            their boxes' squares and the player's */
    struct cset *pcl_sets; /* [nboxes * clusters] */
    int64_t *pcl_u;      /* [nboxes] the boxes' u' (pop_clusters) */
    int *pcl_order, *pcl_dist; /* [nboxes] scratch */
} aworker;

struct astar {
    const board *b;
    const astar_config *cfg;
    search_limits *lim;
    membudget *mem;
    int nq;              /* open lists (fast mode may alternate two) */
    int weight[2];       /* f = g + weight[q] * h in open list q */

    node_store ns;
    openlist open[2];
    packing pk;          /* fast mode: goals in filling order (pk.n = 0: none) */
    uint8_t *rank;       /* [nsq] 1 + position of a goal in the order, else 0 */
    int *room_next;      /* [rooms] scratch: first empty goal of each room */
    uint16_t *goal_index; /* [nsq] index of a goal square in b->goals */
    boxpath bp;
    uint8_t *dirs;       /* boxpath scratch */
    uint32_t packing_defer; /* a node whose packing macro was made waits with
                               its bound raised by this much before its
                               ordinary pushes are generated */
    u32map deferred; /* nodes whose ordinary pushes wait after a packing macro */

    search_outcome *out;
    uint32_t turn;   /* expansions so far: with two open lists, which one is next */
    int finished;    /* the search has ended (solved, exhausted or a limit) */
    uint64_t budget; /* astar_step: stored positions at which to pause (0 = none);
                        past it no depth-first extension starts */
    uint32_t goal;
    stop_reason stop;
    int64_t next_progress;

    aworker w0;      /* the caller's thread */
    aworker *w1;     /* a lent thread's, while it runs (optimal mode), or NULL */
    aworker *spare;  /* w1 set up, waiting for a thread to be lent (try_lend) */
    int par;         /* w1 runs: the store and the open list are shared under mu */
    atomic_int mu;   /* the lock (lock, unlock) */
    atomic_int done; /* a worker has ended the search (a->stop says why) */
    uint32_t root;
    goalsets gs;     /* cfg->goal_sets: patterns of a few boxes per goal set
                        (built here when the caller gave none) */
    const goalsets *gsp; /* the patterns searched: cfg->patterns or &gs */
    pairdb pd;       /* cfg->pair_db: its own goal pairs' tables (without
                        cfg->pairs) */
    const pairdb *pdp; /* the tables read: cfg->pairs, &pd, or NULL */
    int lend_ok;     /* worker 0 may still borrow a thread */
    uint32_t lend_tick;
    spare_task task; /* the lent thread's */
    _Atomic uint32_t bound; /* cfg->bound, lowered by cfg->refine (a shorter
                               known solution): read by both workers */
    uint32_t refine_tick;
    astar_clusters cl;   /* cfg->clusters: its own (without cfg->root_clusters) */
    const astar_clusters *clp; /* cfg->clusters_below: the clusters read below
                               the root (cfg->root_clusters or &cl), or NULL */
    const astar_clusters *clr; /* cfg->pop_clusters: the start's rows and
                               potentials the popped positions' clusters
                               are searched against, or NULL */
    uint64_t **popped;   /* cfg->pop_clusters: a bit per node, set once its
                            clusters were searched (chunks of NODE_CHUNK) */
    uint32_t npopped;    /* chunks allocated */
};

/* The pushes of the best known solution (0 = none): cfg->bound, or what
 * cfg->refine lowered it to. */
static inline uint32_t bound_of(const astar *a)
{
    return atomic_load_explicit(&a->bound, memory_order_relaxed);
}

static void try_lend(astar *a);

/* The lock of the shared store and open list: a spin lock, as it is held
 * for a lookup, an insertion or a queue operation (a fraction of a
 * microsecond), and the second worker only ever runs on a thread of its
 * own: a sleeping mutex cost more in system calls than it saved (XSokoban
 * 3: 7 s of system time in an 11 s proof). */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline void lock(astar *a)
{
    if (!a->par)
        return;
    while (atomic_exchange_explicit(&a->mu, 1, memory_order_acquire))
        while (atomic_load_explicit(&a->mu, memory_order_relaxed))
            spin_pause();
}

static inline void unlock(astar *a)
{
    if (a->par)
        atomic_store_explicit(&a->mu, 0, memory_order_release);
}

/* Ends the search for every worker; the first reason given is kept. */
static void finish(astar *a, stop_reason r)
{
    if (atomic_exchange(&a->done, 1) == 0)
        a->stop = r;
}

/* ---------------------------------------------------------- expansion */

static inline uint32_t f_of(const astar *a, int q, uint32_t g, uint32_t h)
{
    return g + (uint32_t)a->weight[q] * h;
}

/* Queues node n (with g and h) in every open list. Returns -1 when the
 * memory budget is spent. */
static int queue_node_tie(astar *a, uint32_t n, uint32_t g, uint32_t h, uint32_t tie)
{
    for (int q = 0; q < a->nq; q++)
        if (ol_push(&a->open[q], f_of(a, q, g, h), tie, n) != 0)
            return -1;
    return 0;
}

/* Queues node n (g, h) in every open list, ties broken by h. */
static int queue_node(astar *a, uint32_t n, uint32_t g, uint32_t h)
{
    return queue_node_tie(a, n, g, h, h);
}

static void debug_check(aworker *w)
{
    int r = pos_check(&w->pos);
    if (r)
        die("internal error: position check failed (code %d)", r);
}

/* Debug: the reachability r (normalized square norm) of the position on
 * the board is its player's region (reach_check). */
static void check_reach(aworker *w, const reach *r, sq_t norm)
{
    int code = r->norm == norm ? reach_check(r, &w->pos, w->pos.player) : 6;
    if (code)
        die("internal error: incremental reachability is wrong (reach_check code %d)", code);
}

static int expand(aworker *w, uint32_t n, int depth);

/* Every 256 expansions (stale open entries count too), the time, node,
 * interrupt limits and the progress report. Called from the main loop and
 * from depth-first extensions, which can chain many expansions inside one
 * expansion of the main loop. Returns 1 (a->stop says why) when a limit is
 * hit or the other worker has ended the search. Never called under the
 * lock. With two workers, worker 0 reports progress and checks the node
 * limit on the positions both have stored (the other counters of a
 * progress report are its own). */
static int limits_hit(aworker *w)
{
    astar *a = w->a;
    if (atomic_load_explicit(&a->done, memory_order_relaxed))
        return 1;
    if (search_deadline_passed(a->lim, &w->dpoll)) {
        finish(a, STOP_TIME);
        return 1;
    }
    if (w->checks < 256)
        return 0;
    w->checks = 0;
    if (dl_charge(&w->dl, a->mem) != 0) {
        finish(a, STOP_MEMORY);
        return 1;
    }
    w->st->mem_bytes = a->mem->peak;
    stop_reason sr;
    if (w != &a->w0) {
        sr = search_check_limits(a->lim, w->st, NULL);
    } else if (a->par) {
        /* the positions stored by both, from the store itself (the other
         * worker's counters are its own until the end) */
        stats both = *w->st;
        lock(a);
        both.nodes = a->ns.count;
        unlock(a);
        sr = search_check_limits(a->lim, &both, &a->next_progress);
    } else {
        sr = search_check_limits(a->lim, w->st, &a->next_progress);
    }
    if (sr == STOP_NONE)
        return 0;
    finish(a, sr);
    return 1;
}

/* The rows of the boxes of the position on the board for its matching:
 * their squares, or with cfg->sides the rows of the player's pieces
 * (lb_row). */
static const sq_t *box_rows(aworker *w)
{
    if (!w->a->cfg->sides)
        return w->pos.boxes;
    return lb_rows(&w->lb, w->pos.boxes, w->a->b->nboxes, w->pos.player, w->rows);
}

/* Corral analysis of the position on the board (its reachable squares in
 * w->reach[depth]), before it is stored, so dead positions take no memory.
 * Returns -1 for a corral deadlock (a PI-corral with no legal push, or one
 * whose boxes alone are proven stuck by a deadlock search), 1 when the
 * position has a live PI-corral, 0 when it has none. */
static int corral_check(aworker *w, int depth)
{
    astar *a = w->a;
    const position *p = &w->pos;
    int pruned = corral_prune(&w->dl.cc, p, &w->reach[depth], w->allow[depth]);
    if (pruned == 0) {
        w->st->corral_deadlocks++;
        return -1;
    }
    if (pruned < 0)
        return 0;
    if (a->cfg->dl.deadlock_search <= 0)
        return 1;
    if (!subset_corral_dead(&w->dl.sub, &w->dl.cc, p, w->st))
        return 1;
    if (w->dl.stk.b)
        stuck_add(&w->dl.stk, &w->dl.sub, w->dl.sub.kept, w->dl.sub.nkept, p->player, w->st);
    return -1;
}

/* cfg->clusters_below: the bound of the position on the board (its
 * matching in cs, cost h with what raised it) from the root's clusters
 * (astar_clusters): the rows' least d - v, the clusters that stand where
 * they stood with the player in the same part of the floor adding their
 * dual value over their boxes' (the positive ones), the goals' v once,
 * rounded up to the matching's parity; h itself when that is not more.
 * Admissible (astar.h); not consistent (a cluster's raise ends when one
 * of its boxes moves), which the reopening of closed positions allows
 * (found_again). */
static int64_t cluster_below(aworker *w, const lb_sol *cs, int64_t h)
{
    const astar_clusters *cl = w->a->clp;
    const position *p = &w->pos;
    /* the standing clusters first: most positions have none, and then the
       rows need not be summed */
    int64_t sum = 0;
    int nmarked = 0;
    uint8_t *used = w->cl_used;
    for (int c = 0; c < cl->n; c++) {
        const astar_cluster *set = &cl->set[c];
        if (!set->comp[p->player])
            continue;
        int64_t us = 0;
        int m = 0;
        for (; m < set->k; m++) {
            uint16_t bi = p->box_at[set->sq[m]];
            if (bi == NO_BOX || used[bi] || cl->urow[cs->sq[bi]] == CLUSTER_NO_GOAL)
                break;
            us += cl->urow[cs->sq[bi]];
        }
        if (m == set->k && set->dual > us) {
            sum += set->dual - us;
            for (m = 0; m < set->k; m++) {
                uint16_t bi = p->box_at[set->sq[m]];
                used[bi] = 1;
                w->cl_marked[nmarked++] = bi;
            }
        }
    }
    if (nmarked == 0)
        return h;
    while (nmarked > 0)
        used[w->cl_marked[--nmarked]] = 0;
    sum += cl->vsum;
    for (int i = 0; i < w->a->b->nboxes; i++) {
        int64_t u = cl->urow[cs->sq[i]];
        if (u == CLUSTER_NO_GOAL)
            return h;
        sum += u;
    }
    if (sum <= h)
        return h;
    if ((sum - cs->cost) & 1)
        sum++; /* every solution has the matching's parity */
    w->st->cluster_raised++;
    return sum;
}

/* The bound of the child of the position at `depth` in which box i went
 * to `to`, into w->sols[depth + 1]; LB_INF (counted) when no perfect
 * matching exists. */
static int64_t child_bound(aworker *w, int depth, int i, sq_t to)
{
    astar *a = w->a;
    lb_copy(&w->sols[depth + 1], &w->sols[depth], a->b->nboxes);
    /* the child on the board: the player behind `to` */
    sq_t row = a->cfg->sides ? lb_row(&w->lb, to, w->pos.player) : to;
    int64_t h = lb_move(&w->lb, &w->sols[depth + 1], i, row);
    if (h == LB_INF)
        w->st->cut_bipartite++;
    else if (a->pdp) {
        int64_t r = pairdb_raise(a->pdp, w->pos.boxes, &w->sols[depth + 1], w->pd_used, w->pd_q);
        w->st->pairdb_raised += r > 0;
        h += r;
    }
    if (a->clp && h != LB_INF)
        h = cluster_below(w, &w->sols[depth + 1], h);
    return h;
}

/* Keeps a root cluster (the boxes idx[0..k) of the root on the board, its
 * dual value `dual`) in out for the positions below the root, with the
 * player's part of the floor where only its boxes stand. Dropped when the
 * memory budget refuses it (the positions below then miss its term). */
static void keep_cluster(astar *a, aworker *w, astar_clusters *out, const int *idx, int k,
                         int64_t dual)
{
    const board *b = a->b;
    size_t bytes = sizeof(astar_cluster) + (size_t)b->nsq;
    if (k > ASTAR_CLUSTER_MAX || !mem_take(a->mem, bytes))
        return;
    astar_cluster *set = realloc(out->set, sizeof(astar_cluster) * (size_t)(out->n + 1));
    uint8_t *comp = calloc((size_t)b->nsq, 1);
    sq_t *stack = malloc(sizeof(sq_t) * (size_t)b->nsq);
    if (set)
        out->set = set;
    if (!set || !comp || !stack) {
        free(comp);
        free(stack);
        mem_give(a->mem, bytes);
        return;
    }
    out->held += bytes;
    astar_cluster *c = &out->set[out->n++];
    c->k = k;
    c->dual = dual;
    c->comp = comp;
    for (int m = 0; m < k; m++) {
        c->sq[m] = w->pos.boxes[idx[m]];
        comp[c->sq[m]] = 2; /* a box: not floor the player walks */
    }
    int top = 0;
    comp[w->pos.player] = 1;
    stack[top++] = w->pos.player;
    while (top > 0) {
        sq_t q = stack[--top];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[q][d];
            if (t != SQ_NONE && !comp[t]) {
                comp[t] = 1;
                stack[top++] = t;
            }
        }
    }
    for (int m = 0; m < k; m++)
        comp[c->sq[m]] = 0;
    free(stack);
}

/* The rows' least d(row, goal) - v(goal) over the goals, v the root's goal
 * potentials (s solved at the root), for every row of the matching's
 * table, and the sum of v; no clusters when the budget refuses them. */
static void cluster_rows(astar *a, aworker *w, const lb_sol *s, astar_clusters *out)
{
    const lowerbound *lb = &w->lb;
    int n = lb->n, rows = lb->nsq + 2 + lb->nside;
    size_t bytes = sizeof(int64_t) * (size_t)rows;
    int taken = mem_take(a->mem, bytes);
    int64_t *u = taken ? malloc(bytes) : NULL;
    if (!u) {
        if (taken)
            mem_give(a->mem, bytes);
        astar_clusters_free(out, a->mem);
        return;
    }
    for (int r = 0; r < rows; r++) {
        int64_t best = CLUSTER_NO_GOAL;
        for (int j = 0; j < n; j++) {
            uint16_t d = lb->dist_t[(size_t)r * (size_t)n + (size_t)j];
            if (d != DIST_INF && (int64_t)d - s->v[j + 1] < best)
                best = (int64_t)d - s->v[j + 1];
        }
        u[r] = best;
    }
    out->urow = u;
    out->nrows = rows;
    out->held += bytes;
    out->vsum = 0;
    for (int j = 0; j < n; j++)
        out->vsum += s->v[j + 1];
    out->v = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int j = 0; j < n; j++)
        out->v[j] = s->v[j + 1];
}

void astar_clusters_free(astar_clusters *c, membudget *mem)
{
    if (!c)
        return;
    for (int k = 0; k < c->n; k++)
        free(c->set[k].comp);
    free(c->set);
    free(c->urow);
    free(c->v);
    if (mem)
        mem_give(mem, c->held);
    memset(c, 0, sizeof *c);
}

/* Push-optimal mode, at the root: clusters of boxes searched alone against
 * the matching's potentials (penalty_dual, whose header holds the argument
 * that the sum is admissible). For each box, it and its nearest boxes by
 * grid distance (2 .. cfg->clusters of them) make a set; a set's term is
 * the least, over the goals its boxes can end on, of their pushes alone
 * less those goals' potentials and the boxes' own. The positive terms of
 * disjoint sets, largest first, are summed: a lower bound proven from the
 * start (a seed with that many pushes is proven at once; the positions
 * below keep their own bounds, and their order). Each search stops at
 * ROOT_CLUSTER_LIMIT positions (then its bound is the value last
 * exhausted); the sets stop at `until` or the interrupt, keeping the terms
 * found. On XSokoban 84 five boxes lift the start from 149 to 155, its
 * optimum (bench/README.md, "Clusters at the start"). */
#define ROOT_CLUSTER_LIMIT 10000

/* A cluster: boxes idx[0..k) of the position on the board, its term. */
typedef struct cset {
    int64_t term;
    int k;
    int idx[PENALTY_MAX_BOXES];
} cset;

/* order[0..K): box i and its K - 1 nearest boxes of p by grid distance,
 * ties by box index (i first: it alone is at distance 0); dist: [nboxes]
 * scratch, order: [nboxes]. */
static void nearest_boxes(const board *b, const position *p, int i, int K, int *order, int *dist)
{
    int nb = b->nboxes, ci = b->cell[p->boxes[i]];
    int yi = ci / b->width, xi = ci % b->width;
    for (int j = 0; j < nb; j++) {
        int cj = b->cell[p->boxes[j]];
        dist[j] = abs(cj / b->width - yi) + abs(cj % b->width - xi);
        order[j] = j;
    }
    for (int x = 0; x < K; x++) { /* by selection: the K nearest only */
        int best = x;
        for (int y = x + 1; y < nb; y++)
            if (dist[order[y]] < dist[order[best]] ||
                (dist[order[y]] == dist[order[best]] && order[y] < order[best]))
                best = y;
        int t = order[x];
        order[x] = order[best];
        order[best] = t;
    }
}

/* The clusters of the position on the board (s its solved matching, v its
 * goal potentials by goal index): each box and its nearest by grid
 * distance, 2 .. K of them, each set once, searched by pc; those the boxes
 * can never all finish are left out. Stops at `until` (0: none) or the
 * interrupt. sets: [nboxes * K]; order, dist: [nboxes] scratch. Returns
 * the sets made. */
static int cluster_sets(astar *a, aworker *w, const lb_sol *s, penalty_ctx *pc, const int64_t *v,
                        int K, int64_t until, cset *sets, int *order, int *dist)
{
    const board *b = a->b;
    int nb = b->nboxes, nsets = 0;
    atomic_int *stop = a->lim->interrupt;
    for (int i = 0; i < nb && !(until && timer_now_ns() >= until) && !(stop && atomic_load(stop));
         i++) {
        nearest_boxes(b, &w->pos, i, K, order, dist);
        for (int k = 2; k <= K; k++) {
            cset c = {.k = k};
            for (int m = 0; m < k; m++)
                c.idx[m] = order[m];
            for (int x = 1; x < k; x++) /* sorted, to drop repeats */
                for (int y = x; y > 0 && c.idx[y] < c.idx[y - 1]; y--) {
                    int t = c.idx[y];
                    c.idx[y] = c.idx[y - 1];
                    c.idx[y - 1] = t;
                }
            int dup = 0;
            for (int q = 0; q < nsets && !dup; q++)
                dup = sets[q].k == k && !memcmp(sets[q].idx, c.idx, sizeof(int) * (size_t)k);
            if (dup)
                continue;
            sq_t bx[PENALTY_MAX_BOXES];
            int64_t us = 0;
            for (int m = 0; m < k; m++) {
                bx[m] = w->pos.boxes[c.idx[m]];
                us += s->u[c.idx[m] + 1];
            }
            int64_t d = penalty_dual(pc, bx, k, w->pos.player, v, INT64_MAX / 4);
            if (d == PENALTY_DUAL_NEVER)
                continue; /* (a deadlock the others find) */
            c.term = d - us;
            sets[nsets++] = c;
        }
    }
    return nsets;
}

/* The positive terms of disjoint sets among sets[0..nsets), largest first,
 * summed (used: [nboxes] zeroed scratch, zeroed again on return); *taken
 * counts the sets summed. */
static int64_t disjoint_sum(const cset *sets, int nsets, uint8_t *used, int nb, uint64_t *taken)
{
    int64_t sum = 0;
    for (;;) {
        int best = -1;
        for (int q = 0; q < nsets; q++) {
            if (sets[q].term <= 0)
                continue;
            int free_ = 1;
            for (int m = 0; m < sets[q].k; m++)
                free_ &= !used[sets[q].idx[m]];
            if (free_ && (best < 0 || sets[q].term > sets[best].term))
                best = q;
        }
        if (best < 0)
            break;
        sum += sets[best].term;
        for (int m = 0; m < sets[best].k; m++)
            used[sets[best].idx[m]] = 1;
        if (taken)
            (*taken)++;
    }
    memset(used, 0, (size_t)nb);
    return sum;
}

static int64_t root_clusters(astar *a, aworker *w, const lb_sol *s, int64_t until, int *whole,
                             astar_clusters *out)
{
    *whole = 0;
    const board *b = a->b;
    int nb = b->nboxes, K = MIN(a->cfg->clusters, MIN(nb, PENALTY_MAX_BOXES));
    if (K < 2 || s->cost == LB_INF)
        return 0;
    penalty_ctx pc;
    penalty_init(&pc, b, ROOT_CLUSTER_LIMIT, K);
    if (!mem_take(a->mem, pc.held)) {
        penalty_free(&pc);
        return 0;
    }
    size_t charged = pc.held;
    int64_t *v = xmalloc(sizeof(int64_t) * (size_t)nb);
    for (int g = 0; g < nb; g++)
        v[g] = s->v[g + 1];
    cset *sets = xmalloc(sizeof(cset) * (size_t)nb * (size_t)K);
    int *order = xmalloc(sizeof(int) * (size_t)nb), *dist = xmalloc(sizeof(int) * (size_t)nb);
    int nsets = cluster_sets(a, w, s, &pc, v, K, until, sets, order, dist);
    atomic_int *stop = a->lim->interrupt;
    *whole = !(until && timer_now_ns() >= until) && !(stop && atomic_load(stop));
    uint8_t *used = xcalloc((size_t)nb, 1);
    int64_t sum = disjoint_sum(sets, nsets, used, nb, &w->st->cluster_sets);
    /* below the root: every set with a positive term, largest first (a
       position takes the disjoint ones that still stand, in this order) */
    while (a->cfg->clusters_below) {
        int best = -1;
        for (int q = 0; q < nsets; q++)
            if (sets[q].term > 0 && (best < 0 || sets[q].term > sets[best].term))
                best = q;
        if (best < 0)
            break;
        int64_t us = 0;
        for (int m = 0; m < sets[best].k; m++)
            us += s->u[sets[best].idx[m] + 1];
        keep_cluster(a, w, out, sets[best].idx, sets[best].k, sets[best].term + us);
        sets[best].term = 0; /* kept */
    }
    if (out->n > 0 || a->cfg->pop_clusters)
        cluster_rows(a, w, s, out);
    w->st->cluster_searches += pc.searches;
    free(used);
    free(dist);
    free(order);
    free(sets);
    free(v);
    mem_give(a->mem, charged);
    penalty_free(&pc);
    return sum;
}

/* cfg->pop_clusters: a cluster's value against the start's potentials
 * (penalty_dual) depends only on its boxes' squares and the player's part
 * of the floor with them alone; the cache keys it by the squares and the
 * player's normalized square on the full board (a finer key: the same
 * value). */
#define PCL_CACHE (1u << 20)
#define PCL_NEVER INT32_MAX
typedef struct pcl_entry {
    sq_t sq[PENALTY_MAX_BOXES]; /* ascending; SQ_NONE past k; sq[0] == SQ_NONE: empty */
    sq_t player;
    int32_t d;
} pcl_entry;

/* The value of the cluster of boxes bx[0..k) (ascending squares) with the
 * player on the board's player square (normalized `norm`). */
static int64_t pcl_value(aworker *w, const sq_t *bx, int k, sq_t norm)
{
    const board *b = w->a->b;
    uint64_t key = 0x9E3779B97F4A7C15ull * ((uint64_t)norm + 1);
    for (int m = 0; m < k; m++)
        key = (key ^ b->zbox[bx[m]]) * 0xFF51AFD7ED558CCDull;
    pcl_entry *slot = &w->pcl_cache[(key >> 20) & (PCL_CACHE - 1)];
    int hit = slot->player == norm && slot->sq[0] != SQ_NONE;
    for (int m = 0; m < PENALTY_MAX_BOXES && hit; m++)
        hit = slot->sq[m] == (m < k ? bx[m] : SQ_NONE);
    if (hit) {
        w->st->pop_cluster_hits++;
        return slot->d == PCL_NEVER ? PENALTY_DUAL_NEVER : slot->d;
    }
    int64_t d = penalty_dual(&w->pcl, bx, k, w->pos.player, w->a->clr->v, INT64_MAX / 4);
    w->st->pop_cluster_searches++;
    for (int m = 0; m < PENALTY_MAX_BOXES; m++)
        slot->sq[m] = m < k ? bx[m] : SQ_NONE;
    slot->player = norm;
    slot->d = d == PENALTY_DUAL_NEVER || d >= PCL_NEVER || d <= -PCL_NEVER ? PCL_NEVER : (int32_t)d;
    return slot->d == PCL_NEVER ? PENALTY_DUAL_NEVER : d;
}

/* cfg->pop_clusters: the bound of the position on the board (taken from
 * the open list; s its solved matching, norm the player's normalized
 * square) from clusters of its own against the start's goal potentials v:
 * with u'_i each box's least d(row, goal) - v(goal) (a feasible dual with
 * v, as for the clusters below the start), the sum of u', of v, and of the
 * positive terms of disjoint clusters (each box and its nearest, 2 ..
 * cfg->clusters of them; a term its value less its boxes' u'), rounded up
 * to the matching's parity, bounds the position (the start's argument,
 * astar.h). Each search stops at cfg->pop_clusters positions (its value
 * then the depth last exhausted, still a bound). s->cost when the cache
 * and the searches' tables do not fit the budget. */
static int64_t pop_clusters(aworker *w, const lb_sol *s, sq_t norm)
{
    astar *a = w->a;
    const board *b = a->b;
    const astar_clusters *cl = a->clr;
    int nb = b->nboxes, K = MIN(a->cfg->clusters, MIN(nb, PENALTY_MAX_BOXES));
    if (K < 2 || s->cost == LB_INF)
        return s->cost;
    if (!w->pcl_charged) {
        size_t bytes = w->pcl.held + sizeof(pcl_entry) * PCL_CACHE;
        if (w->pcl_refused || !mem_take(a->mem, bytes)) {
            w->pcl_refused = 1;
            return s->cost;
        }
        w->pcl_charged = bytes;
        w->pcl_cache = xmalloc(sizeof(pcl_entry) * PCL_CACHE);
        for (uint32_t e = 0; e < PCL_CACHE; e++)
            w->pcl_cache[e].sq[0] = SQ_NONE;
    }
    int64_t base = cl->vsum, *u = w->pcl_u;
    for (int i = 0; i < nb; i++) {
        u[i] = cl->urow[s->sq[i]];
        if (u[i] == CLUSTER_NO_GOAL)
            return s->cost;
        base += u[i];
    }
    cset *sets = w->pcl_sets;
    int *order = w->pcl_order, *dist = w->pcl_dist, nsets = 0;
    for (int i = 0; i < nb; i++) {
        nearest_boxes(b, &w->pos, i, K, order, dist);
        for (int k = 2; k <= K; k++) {
            cset c = {.k = k};
            for (int m = 0; m < k; m++)
                c.idx[m] = order[m];
            sq_t bx[PENALTY_MAX_BOXES];
            for (int m = 0; m < k; m++)
                bx[m] = w->pos.boxes[c.idx[m]];
            for (int x = 1; x < k; x++) /* by square: the cache's key */
                for (int y = x; y > 0 && bx[y] < bx[y - 1]; y--) {
                    sq_t t = bx[y];
                    bx[y] = bx[y - 1];
                    bx[y - 1] = t;
                    int ti = c.idx[y];
                    c.idx[y] = c.idx[y - 1];
                    c.idx[y - 1] = ti;
                }
            int dup = 0;
            for (int q = 0; q < nsets && !dup; q++)
                dup = sets[q].k == k && !memcmp(sets[q].idx, c.idx, sizeof(int) * (size_t)k);
            if (dup)
                continue;
            int64_t d = pcl_value(w, bx, k, norm);
            if (d == PENALTY_DUAL_NEVER)
                continue;
            int64_t us = 0;
            for (int m = 0; m < k; m++)
                us += u[c.idx[m]];
            c.term = d - us;
            if (c.term > 0)
                sets[nsets++] = c;
        }
    }
    int64_t h = base + disjoint_sum(sets, nsets, w->cl_used, nb, NULL);
    if ((h - s->cost) & 1)
        h++; /* every solution has the matching's parity */
    return h;
}

/* Whether node n's clusters were searched (cfg->pop_clusters; under the
 * lock); marks it. -1 when the memory budget refuses the mark's chunk. */
static int popped_mark(astar *a, uint32_t n)
{
    uint32_t c = n >> NODE_CHUNK_BITS;
    if (c >= a->npopped) {
        uint32_t nc = MAX(c + 1, a->npopped * 2);
        size_t bytes = sizeof(uint64_t) * (NODE_CHUNK / 64);
        if (!mem_take(a->mem, (size_t)(nc - a->npopped) * (bytes + sizeof(uint64_t *))))
            return -1;
        uint64_t **t = realloc(a->popped, sizeof(uint64_t *) * nc);
        if (!t) {
            mem_give(a->mem, (size_t)(nc - a->npopped) * (bytes + sizeof(uint64_t *)));
            return -1;
        }
        for (uint32_t k = a->npopped; k < nc; k++)
            t[k] = NULL;
        a->popped = t;
        a->npopped = nc;
    }
    if (!a->popped[c]) {
        a->popped[c] = calloc(NODE_CHUNK / 64, sizeof(uint64_t));
        if (!a->popped[c])
            return -1;
    }
    uint64_t *word = &a->popped[c][(n & (NODE_CHUNK - 1)) >> 6], bit = 1ull << (n & 63);
    int was = (*word & bit) != 0;
    *word |= bit;
    return was;
}

/* Push-optimal mode: the child's bound h (or LB_INF) raised to what its
 * parent's h (at `depth`) less the `pushes` between them leaves (pathmax).
 * Admissible whatever the path: the parent is at most `pushes` pushes
 * from the child, so the child needs at least the parent's need less
 * those. The matching alone never drops by more than a push a push; the
 * raises over it (goal pairs, parity, goal-set layers) can vanish after
 * one, and the child keeps them. */
static int64_t inherit(aworker *w, int depth, uint32_t pushes, int64_t h)
{
    if (w->a->cfg->pathmax && h != LB_INF) {
        int64_t up = (int64_t)w->hexp[depth] - (int64_t)pushes;
        if (h < up) {
            w->st->pathmax_raised++;
            h = up;
        }
    }
    return h;
}

/* --penalties, under a known solution's bound: the child on the board
 * (its matching in w->sols[depth + 1], cost h, g pushes) whose last push
 * put a box on `to`. Only a raise that lifts g + h to the bound cuts the
 * child; a lower one would only move it to a later layer, all of which a
 * proof searches. So: the pushed box and its neighbours P, searched alone
 * with the player (penalty_bound), need L pushes; where L passes their
 * share of the matching by at least what the child lacks, L + the matching
 * of the other boxes to any goals (P's rows made wildcards) is computed,
 * and the child is cut when that reaches the bound (admissible:
 * penalty.h). Returns 1 to cut the child. */
static int penalty_cut(aworker *w, int depth, sq_t to, uint32_t g, int64_t h)
{
    astar *a = w->a;
    const board *b = a->b;
    const position *p = &w->pos;
    int64_t need = (int64_t)bound_of(a) - (int64_t)g - h; /* the raise that cuts */
    if (need <= 0 || need > ASTAR_PENALTY_MAX_RAISE)
        return 0;
    sq_t kept[ASTAR_PENALTY_BOXES];
    int k = subset_near(p, to, ASTAR_PENALTY_RADIUS, ASTAR_PENALTY_BOXES, kept);
    if (k < 2)
        return 0;
    const lb_sol *cs = &w->sols[depth + 1];
    int64_t share = 0;
    for (int j = 0; j < k; j++) {
        int64_t c = lb_assigned(&w->lb, cs, p->box_at[kept[j]]);
        if (c == LB_INF)
            return 0; /* a box unassigned: cannot happen under a finite bound */
        share += c;
    }
    uint64_t before = w->pen.searches;
    int L = penalty_bound(&w->pen, kept, k, p->player, (int)(share + need - 1));
    w->st->penalty_searches += w->pen.searches - before;
    if (L == PENALTY_INF)
        return 1;
    if (L < share + need)
        return 0;
    lb_copy(&w->psol, cs, b->nboxes);
    int64_t rest = 0;
    for (int j = 0; j < k; j++)
        rest = lb_move(&w->lb, &w->psol, p->box_at[kept[j]], lb_wild(&w->lb));
    if (rest == LB_INF)
        return 1;
    w->st->penalty_raised++;
    return (uint64_t)g + (uint64_t)L + (uint64_t)rest >= bound_of(a);
}

/* The child reached stored node ex again (under the lock), with ng pushes
 * from node n. A shorter path to a stored position: open, it is queued
 * again; closed, fast mode adopts the shorter path without expanding again
 * and optimal mode opens it again. The bound is admissible but not always
 * consistent (without cfg->sides a lone box's distance is the best over the
 * player's sides, and a push can leave the player on the worse side), so a
 * closed node can be reached again more cheaply, and then its subtree must
 * be searched again for the proof to hold. Returns 1 when the memory budget is spent. */
static int found_again(aworker *w, uint32_t ex, uint32_t n, uint32_t ng, sq_t from, sq_t to,
                       int dir)
{
    astar *a = w->a;
    node *e = nodes_at(&a->ns, ex);
    if (ng >= node_g(e)) {
        w->st->duplicates++;
        return 0;
    }
    int closed = node_closed(e);
    if (closed && a->cfg->optimal) {
        node_reopen(e);
        closed = 0;
    }
    node_set_g(e, ng);
    e->parent = n;
    node_set_move(e, from, to, (uint32_t)dir);
    w->st->reopened++;
    if (!closed && queue_node(a, ex, ng, node_h(e)) != 0) {
        finish(a, STOP_MEMORY);
        return 1;
    }
    return 0;
}

/* Makes the child of node n (on the board, expanded at `depth`) in which
 * box i goes from `from` to `to` with `pushes` pushes, the last one in
 * direction `dir`: deadlock checks, transposition table, bound, then the
 * open list or a depth-first extension. The board is as before on return.
 * Returns 1 when the search must stop (goal found or a limit hit). */
static int make_child(aworker *w, uint32_t n, int depth, int i, sq_t from, sq_t to, int dir,
                      uint32_t pushes)
{
    astar *a = w->a;
    const board *b = a->b;
    position *p = &w->pos;
    uint32_t ng = w->gexp[depth] + pushes; /* n's g, read as its expansion began */
    if (ng > NODE_MAX_G)
        return 0;
    undo_rec u;
    pos_relocate(p, from, to, b->nb[to][DIR_OPP(dir)], &u);
    if (a->cfg->check)
        debug_check(w);
    if (dl_push_dead(&w->dl, p, from, to, w->st)) {
        pos_undo(p, &u);
        return 0;
    }
    /* Under a known solution's bound the child's bound comes first: it
     * needs only the boxes, and a child it cuts (every solution through it
     * has at least cfg->bound pushes, whatever path reached it) costs no
     * player region and no table lookup (on XSokoban 8 the bound cuts one
     * push generated in thirteen). Without a bound duplicates are found
     * first, as they cost no matching. */
    int64_t h64 = -1;
    uint32_t bound = bound_of(a);
    if (bound) {
        h64 = child_bound(w, depth, i, to);
        int cut = h64 == LB_INF;
        if (!cut && (uint64_t)ng + (uint64_t)h64 >= bound) {
            w->st->cut_bound++;
            cut = 1;
        }
        if (cut) {
            pos_undo(p, &u);
            return 0;
        }
    }
    sq_t norm;
    if (pushes == 1 && to == b->nb[from][dir] && a->cfg->reach_reuse) {
        int fresh;
        norm = reach_after_push(&w->reach[depth + 1], &w->reach[depth], p, from, to, &fresh);
        if (fresh)
            w->st->reach_calls++;
        else
            w->st->reach_reused++;
        if (a->cfg->check)
            check_reach(w, &w->reach[depth + 1], norm);
    } else {
        norm = reach_compute(&w->reach[depth + 1], p, p->player);
        w->st->reach_calls++;
    }
    uint64_t hash = p->hash ^ b->zplayer[norm];
    if (a->par)
        nodes_prefetch(&a->ns, hash); /* while waiting for the lock */
    lock(a);
    uint32_t ex = nodes_find(&a->ns, hash);
    if (ex != NODE_NONE) {
        int stop = found_again(w, ex, n, ng, from, to, dir);
        unlock(a);
        pos_undo(p, &u);
        return stop;
    }
    unlock(a);
    if (h64 < 0 && (h64 = child_bound(w, depth, i, to)) == LB_INF) {
        pos_undo(p, &u);
        return 0;
    }
    if (a->cfg->dl.fixed && b->is_goal[to] && fixed_deadlock(&w->dl.fx, p)) {
        w->st->cut_fixed++;
        pos_undo(p, &u);
        return 0;
    }
    if (w->dl.stk.b && stuck_match(&w->dl.stk, p)) {
        w->st->cut_stuck++;
        pos_undo(p, &u);
        return 0;
    }
    if (w->dl.loc.b && subset_local_dead(&w->dl.loc, p, to, ASTAR_LOCAL_RADIUS, w->st)) {
        if (w->dl.stk.b)
            stuck_add(&w->dl.stk, &w->dl.loc, w->dl.loc.kept, w->dl.loc.nkept, p->player, w->st);
        pos_undo(p, &u);
        return 0;
    }
    if (a->cfg->penalties && bound && penalty_cut(w, depth, to, ng, h64)) {
        w->st->penalty_cuts++;
        pos_undo(p, &u);
        return 0;
    }
    if (a->gsp && a->gsp->n && bound && (int64_t)bound - (int64_t)ng > h64) {
        /* Two raises count: one that lifts g + h to the bound cuts (as
         * penalty_cut); one that lifts a child of the layer being expanded
         * (f = fmin) past it defers the child to a later layer, h' stored
         * as its h (admissible whatever path reaches it; f keeps its
         * parity, every bound here counting pushes, so the next layer is
         * fmin + 2). Under a loose seed the first rarely happens; the
         * second empties the layers below the optimum (XSokoban 82: a
         * seed of 157 pushes, proven optimal at 143 in 116 s with 249,714
         * children deferred; without, the bound stays at 141 at 120 s). */
        int64_t need = (int64_t)bound - (int64_t)ng;
        int64_t lay = (int64_t)w->fmin + 2 - (int64_t)ng;
        lb_sol *cs = &w->sols[depth + 1];
        w->st->goalset_tests++;
        int cut;
        if (a->cfg->goal_layers && h64 < lay && lay < need) {
            /* the test at the bound only where the layer's passes (a
             * threshold test: one call cannot answer both) */
            cut = goalsets_cut(a->gsp, p, &w->lb, cs, &w->gsol, &w->gsol2, lay);
            if (cut) {
                cut = goalsets_cut(a->gsp, p, &w->lb, cs, &w->gsol, &w->gsol2, need);
                if (!cut) {
                    w->st->goalset_raises++;
                    h64 = lay;
                }
            }
        } else {
            cut = goalsets_cut(a->gsp, p, &w->lb, cs, &w->gsol, &w->gsol2, need);
        }
        if (cut) {
            w->st->goalset_cuts++;
            pos_undo(p, &u);
            return 0;
        }
    }
    int pic = 0;
    if (a->cfg->dl.corrals && (pic = corral_check(w, depth + 1)) < 0) {
        pos_undo(p, &u);
        return 0;
    }
    /* Ties in the open list, the goal test and the depth-first extension
       read the child's own bound, not the inherited one: inherited, every
       position below a raised start has f = the start's and h = f - g, and
       the order within that layer would be by depth alone (XSokoban 49,
       start raised by 20: its 124 not found in 120 s, against 16 s). The
       pathmax never cuts: the parent's f is below the bound. */
    uint32_t tie = h64 > NODE_MAX_H ? NODE_MAX_H : (uint32_t)h64;
    h64 = inherit(w, depth, pushes, h64);
    uint32_t h = h64 > NODE_MAX_H ? NODE_MAX_H : (uint32_t)h64;
    lock(a);
    /* with two workers, the other may have stored it since the lookup */
    if (a->par && (ex = nodes_find(&a->ns, hash)) != NODE_NONE) {
        int stop = found_again(w, ex, n, ng, from, to, dir);
        unlock(a);
        pos_undo(p, &u);
        return stop;
    }
    uint32_t child = nodes_add(&a->ns, hash, n, from, to, (uint32_t)dir, ng, h);
    if (child == NODE_NONE) {
        unlock(a);
        finish(a, STOP_MEMORY);
        pos_undo(p, &u);
        return 1;
    }
    if (a->cfg->dl.corrals && !pic)
        node_set_nopic(nodes_at(&a->ns, child));
    w->st->nodes++;
    if (ng > w->st->max_depth)
        w->st->max_depth = ng;
    uint32_t f = f_of(a, w->cq, ng, h);
    if (tie == 0 && board_end_ok(b, &w->reach[depth + 1]) &&
        (!a->cfg->optimal ||
         (!a->par && f == w->fmin && ol_min_f(&a->open[0]) >= f))) {
        /* Solved. In optimal mode only when no open node can be shorter:
         * every open f is at least f (the bound is not always consistent,
         * so a child may have been queued below fmin); otherwise, and
         * always with two workers, the goal is queued and accepted when
         * it is taken from the open list (run_loop). */
        a->goal = child;
        unlock(a);
        finish(a, STOP_NONE);
        pos_undo(p, &u);
        return 1;
    }
    if (a->cfg->dfs_ext && f == w->fmin && f_of(a, w->cq, ng, tie) == f &&
        depth + 1 < MAX_EXT_DEPTH && h != 0 &&
        w->st->nodes < w->ext_end && (a->budget == 0 || w->st->nodes < a->budget)) {
        unlock(a);
        w->st->dfs_extensions++;
        pstack_push(&w->path, child, &u);
        int stop = expand(w, child, depth + 1);
        pstack_pop(&w->path, &w->pos); /* undoes the move */
        return stop;
    }
    int full = queue_node_tie(a, child, ng, h, tie) != 0;
    unlock(a);
    pos_undo(p, &u);
    if (full) {
        finish(a, STOP_MEMORY);
        return 1;
    }
    return 0;
}

/* Packing macros (fast mode): for each goal room, bring a box to the next
 * goal of the room's packing order in one move, the fewest pushes it takes
 * with the other boxes standing still; the boxes nearest that goal are
 * tried. The macros are extra children: the node's ordinary pushes are
 * generated too (later: see expand), so nothing is lost when the plan is
 * wrong. Returns 1 when the search must stop; *made counts the macros. */
static int packing_macros(aworker *w, uint32_t n, int depth, int *made)
{
    astar *a = w->a;
    const board *b = a->b;
    position *p = &w->pos;
    const packing *pk = &a->pk;
    int *next = a->room_next; /* per room: index of its first empty goal */
    for (int r = 0; r < pk->nrooms; r++)
        next[r] = pk->n;
    for (int k = pk->n - 1; k >= 0; k--)
        if (p->box_at[pk->order[k]] == NO_BOX)
            next[pk->room[k]] = k;
    for (int r = 0; r < pk->nrooms; r++) {
        if (next[r] == pk->n)
            continue;
        sq_t goal = pk->order[next[r]];
        const uint16_t *dist = b->goal_dist + (size_t)a->goal_index[goal] * (size_t)b->nsq;
        /* the nearest boxes not settled on an earlier goal of a room */
        int cand[PACK_CANDIDATES], nc = 0;
        for (int i = 0; i < b->nboxes; i++) {
            sq_t s = p->boxes[i];
            if (dist[s] == DIST_INF)
                continue;
            int rk = a->rank[s];
            if (rk && rk - 1 < next[pk->room[rk - 1]])
                continue;
            int at = nc < PACK_CANDIDATES ? nc++ : PACK_CANDIDATES;
            while (at > 0 && dist[p->boxes[cand[at - 1]]] > dist[s]) {
                if (at < PACK_CANDIDATES)
                    cand[at] = cand[at - 1];
                at--;
            }
            if (at < PACK_CANDIDATES)
                cand[at] = i;
        }
        for (int c = 0; c < nc; c++) {
            int i = cand[c];
            sq_t from = p->boxes[i];
            int pushes = boxpath_search(&a->bp, p, from, goal, a->dirs, dist[from] + PACK_DETOUR);
            if (pushes <= 1)
                continue; /* a single push is generated anyway */
            w->st->packing_macros++;
            (*made)++;
            if (make_child(w, n, depth, i, from, goal, a->dirs[pushes - 1], (uint32_t)pushes))
                return 1;
            break;
        }
    }
    return 0;
}

/* Returns 1 when the search must stop (goal found or a limit hit). The
 * position of node n is on the board, w->reach[depth] holds its reachable
 * squares and w->sols[depth] its bound. */
static int expand(aworker *w, uint32_t n, int depth)
{
    astar *a = w->a;
    const board *b = a->b;
    position *p = &w->pos;
    reach *r = &w->reach[depth];
    lock(a);
    node *nd0 = nodes_at(&a->ns, n);
    node_close(nd0);
    w->gexp[depth] = node_g(nd0);
    w->hexp[depth] = node_h(nd0);
    int nopic = node_nopic(nd0);
    unlock(a);
    w->st->expanded++;
    w->checks++;
    if (depth > 0 && limits_hit(w))
        return 1;

    uint8_t *allow = w->allow[depth];
    int pruned = -1;
    if (a->cfg->dl.corrals && !nopic) {
        pruned = corral_prune(&w->dl.cc, p, r, allow);
        if (pruned == 0) {
            w->st->corral_deadlocks++;
            return 0;
        }
        if (pruned > 0)
            w->st->corrals++;
    }
    if (a->pk.n) {
        /* Goal cut, deferred: when a packing macro exists, make only it now
         * and put this node back in the open list with a worse f; its
         * ordinary pushes are generated if the search comes back to it. */
        if (u32map_get(&a->deferred, n) != U32MAP_NONE) {
            u32map_del(&a->deferred, n);
        } else if (pruned < 0) {
            int made = 0;
            if (packing_macros(w, n, depth, &made))
                return 1;
            if (made) {
                node *nd = nodes_at(&a->ns, n);
                uint32_t h = MIN(node_h(nd) + a->packing_defer, NODE_MAX_H);
                node_set_h(nd, h);
                node_reopen(nd);
                u32map_put(&a->deferred, n, 1);
                if (queue_node(a, n, node_g(nd), h) != 0) {
                    finish(a, STOP_MEMORY);
                    return 1;
                }
                return 0;
            }
        }
    }
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        if (!reach_box(r, from))
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t behind = b->nb[from][DIR_OPP(d)];
            if (behind == SQ_NONE || !reach_floor(r, behind))
                continue;
            sq_t to = b->nb[from][d];
            if (to == SQ_NONE || p->box_at[to] != NO_BOX)
                continue;
            w->st->generated++;
            if (b->dead[to] && (a->cfg->dead_squares || pruned > 0)) {
                w->st->cut_dead++;
                continue;
            }
            if (pruned > 0 && !(allow[i] & (1u << d))) {
                w->st->cut_corral++;
                continue;
            }
            int len = 1;
            if (a->cfg->tunnels) {
                len = tunnel_length(b, p, from, d);
                if (len == 0) {
                    w->st->cut_tunnel++;
                    continue;
                }
                if (len > 1) {
                    w->st->tunnel_macros++;
                    for (int k = 1; k < len; k++)
                        to = b->nb[to][d];
                }
            }
            if (make_child(w, n, depth, i, from, to, d, (uint32_t)len))
                return 1;
        }
    }
    return 0;
}

int astar_patterns(const board *b, const astar_config *cfg, const search_limits *lim,
                   membudget *mem, goalsets *gs, stats *st)
{
    memset(gs, 0, sizeof *gs);
    if (!cfg->goal_sets || !cfg->optimal || !cfg->matching)
        return 0;
    lowerbound lb;
    if (lb_init(&lb, b, cfg->matching, mem) != 0)
        return 0;
    size_t scratch = goalsets_scratch_bytes(b, ASTAR_GOALSET_LIMIT);
    if (mem_take(mem, scratch)) {
        goalsets_build(gs, b, &lb, cfg->goal_sets, ASTAR_GOALSET_LIMIT, lim->deadline_ns,
                       cfg->bound ? cfg->seed : NULL);
        mem_give(mem, scratch);
        if (!mem_take(mem, gs->held))
            goalsets_free(gs); /* no room: the searches go without */
        st->goalset_patterns += (uint64_t)gs->n;
        st->goalset_states += gs->states;
        for (int i = 0; i < gs->n; i++)
            st->goalset_gain = MAX(st->goalset_gain, (uint64_t)gs->pat[i].gain);
    }
    lb_free(&lb);
    return gs->n;
}

void astar_patterns_free(goalsets *gs, membudget *mem)
{
    mem_give(mem, gs->held);
    goalsets_free(gs);
}

int astar_pairs(const board *b, const astar_config *cfg, int64_t deadline_ns, atomic_int *stop,
                membudget *mem, pairdb *pd, stats *st)
{
    memset(pd, 0, sizeof *pd);
    if (!cfg->pair_db || !cfg->optimal || !cfg->matching)
        return 0;
    size_t scratch = pairdb_scratch_bytes(b);
    if (!mem_take(mem, scratch))
        return 0;
    pairdb_build(pd, b, PAIRDB_GAP, deadline_ns, stop);
    mem_give(mem, scratch);
    if (!mem_take(mem, pd->held))
        pairdb_free(pd); /* no room: the searches go without */
    st->pairdb_tables += (uint64_t)pd->n;
    st->pairdb_states += pd->states;
    return pd->n;
}

void astar_pairs_free(pairdb *pd, membudget *mem)
{
    mem_give(mem, pd->held);
    pairdb_free(pd);
}

/* ---------------------------------------------------------- driver */

/* Sets up worker w of search a: its board at the level's start, its own
 * deadlock layer. The bound's tables and the layer's are charged to the
 * budget by worker_charge. */
static void worker_init(astar *a, aworker *w, stats *st)
{
    const board *b = a->b;
    w->a = a;
    w->st = st;
    pos_init(&w->pos, b);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++) {
        reach_init(&w->reach[d], b->nsq);
        lb_sol_init(&w->sols[d], b->nboxes);
    }
    /* capsets off: their test needs the sets counted on the parent, which
     * A* does not do */
    dl_config dc = a->cfg->dl;
    dc.capsets = 0;
    dl_init(&w->dl, b, &dc, &(dl_sizes){ASTAR_LOCAL_LIMIT, ASTAR_LOCAL_MAX_BOXES});
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++)
        w->allow[d] = xcalloc((size_t)b->nboxes, 1);
    pstack_init(&w->path);
    if (a->cfg->penalties) {
        penalty_init(&w->pen, b, ASTAR_PENALTY_LIMIT, ASTAR_PENALTY_BOXES);
        lb_sol_init(&w->psol, b->nboxes);
    }
    if (a->cfg->goal_sets) {
        lb_sol_init(&w->gsol, b->nboxes);
        lb_sol_init(&w->gsol2, b->nboxes);
    }
    w->rows = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    w->pd_used = xcalloc((size_t)b->nboxes + 1, 1);
    w->cl_used = xcalloc((size_t)b->nboxes + 1, 1);
    w->cl_marked = xcalloc((size_t)b->nboxes + 1, sizeof *w->cl_marked);
    w->pd_q = xcalloc((size_t)b->nboxes + 1, sizeof *w->pd_q);
    if (a->cfg->pop_clusters) {
        int K = MIN(a->cfg->clusters, MIN(b->nboxes, PENALTY_MAX_BOXES));
        penalty_init(&w->pcl, b, a->cfg->pop_clusters, MAX(K, 2));
        w->pcl_cache = NULL; /* allocated when first used (pop_clusters) */
        w->pcl_u = xcalloc((size_t)b->nboxes + 1, sizeof(int64_t));
        w->pcl_sets = xcalloc((size_t)b->nboxes * (size_t)MAX(K, 2) + 1, sizeof(cset));
        w->pcl_order = xcalloc((size_t)b->nboxes + 1, sizeof(int));
        w->pcl_dist = xcalloc((size_t)b->nboxes + 1, sizeof(int));
    }
}

/* Takes the penalty searches' tables from the budget; -1 when they do not
 * fit. */
static int pen_charge(astar *a, aworker *w)
{
    if (!a->cfg->penalties || w->pen_charged)
        return 0;
    if (!mem_take(a->mem, w->pen.held))
        return -1;
    w->pen_charged = w->pen.held;
    return 0;
}

static void worker_free(astar *a, aworker *w)
{
    if (w->lb.dist_t)
        lb_free(&w->lb);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++) {
        reach_free(&w->reach[d]);
        lb_sol_free(&w->sols[d]);
        free(w->allow[d]);
    }
    dl_uncharge(&w->dl, a->mem);
    dl_free(&w->dl);
    pstack_free(&w->path);
    lb_sol_free(&w->gsol);
    lb_sol_free(&w->gsol2);
    free(w->rows);
    free(w->pd_used);
    free(w->cl_used);
    free(w->cl_marked);
    free(w->pd_q);
    if (a->cfg->pop_clusters) {
        mem_give(a->mem, w->pcl_charged);
        penalty_free(&w->pcl);
        free(w->pcl_cache);
        free(w->pcl_u);
        free(w->pcl_sets);
        free(w->pcl_order);
        free(w->pcl_dist);
    }
    if (a->cfg->penalties) {
        mem_give(a->mem, w->pen_charged);
        penalty_free(&w->pen);
        lb_sol_free(&w->psol);
    }
    pos_free(&w->pos);
}

astar *astar_begin(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                   search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "astar";
    astar *a = xcalloc(1, sizeof *a);
    aworker *w = &a->w0;
    a->b = b;
    a->cfg = cfg;
    a->lim = lim;
    a->mem = mem;
    a->out = out;
    a->nq = 1;
    a->weight[0] = cfg->optimal ? 1 : MAX(1, cfg->weight);
    if (!cfg->optimal && cfg->weight2 > 0) {
        a->nq = 2;
        a->weight[1] = cfg->weight2;
    }
    a->goal = NODE_NONE;
    a->root = NODE_NONE;
    atomic_init(&a->bound, cfg->bound);
    worker_init(a, w, &out->st);
    a->rank = xcalloc((size_t)b->nsq, 1);
    a->goal_index = xcalloc((size_t)b->nsq, sizeof(uint16_t));
    for (int j = 0; j < b->nboxes; j++)
        a->goal_index[b->goals[j]] = (uint16_t)j;
    a->pk.n = 0;
    a->pk.order = NULL;
    if (!cfg->optimal && cfg->packing) {
        packing_compute(&a->pk, b, lim->deadline_ns);
        for (int k = 0; k < a->pk.n && k < 255; k++)
            a->rank[a->pk.order[k]] = (uint8_t)(k + 1);
        if (a->pk.n > 255)
            a->pk.n = 255; /* ranks fit a byte; later goals get no macro */
    }
    a->room_next = xmalloc(sizeof(int) * (size_t)(a->pk.nrooms + 1));
    boxpath_init(&a->bp, b->nsq);
    a->dirs = xmalloc((size_t)b->nsq * 4 + 1);
    u32map_init(&a->deferred, 1024);
    ol_init(&a->open[0], mem);
    ol_init(&a->open[1], mem);
    a->next_progress = search_first_progress(lim);

    int ok = dl_charge(&w->dl, mem) == 0 && pen_charge(a, w) == 0 && nodes_init(&a->ns, mem) == 0 &&
             lb_init(&w->lb, b, cfg->matching, mem) == 0;
    if (!ok) {
        out->stop = STOP_MEMORY;
        a->finished = 1;
        return a;
    }
    a->ns.deadline_ns = &lim->deadline_ns; /* no rehash past the limit */
    /* the goal pairs' tables, before the root's bound, which reads them:
       the caller's (counted there), or its own */
    const pairdb *pdp = cfg->pairs;
    if (!pdp && astar_pairs(b, cfg, lim->deadline_ns, lim->interrupt, mem, &a->pd, &out->st))
        pdp = &a->pd;
    a->pdp = cfg->pair_db && pdp && pdp->n ? pdp : NULL;
    /* The root. */
    {
        sq_t norm = reach_compute(&w->reach[0], &w->pos, w->pos.player);
        /* the root's matching: O(n^3), long on the biggest boards */
        int64_t h64 = lb_solve_by(&w->lb, &w->sols[0], box_rows(w), lim->deadline_ns);
        if (h64 == LB_STOPPED) {
            out->stop = STOP_TIME;
            a->finished = 1;
            return a;
        }
        if (h64 != LB_INF) {
            int64_t m = h64, rp = a->pdp ? pairdb_raise(a->pdp, w->pos.boxes, &w->sols[0],
                                                          w->pd_used, w->pd_q) : 0;
            /* the clusters: the caller's, or computed here within an
               eighth of the time left (XSokoban's take 0.04-3.6 s); only
               a whole computation is kept for the next search (the first,
               without corrals, has a share of the time) */
            astar_clusters *cache = cfg->root_clusters;
            int have = cache && cache->raise >= 0;
            int64_t rc = have ? cache->raise : 0;
            if (cfg->clusters && !have) {
                int64_t now = timer_now_ns(), until = lim->deadline_ns;
                if (until)
                    until = now + MAX(until - now, 0) / 8;
                int whole;
                rc = root_clusters(a, w, &w->sols[0], until, &whole, &a->cl);
                if (rc % 2)
                    rc++; /* every solution has the matching's parity */
                if (cache && whole) {
                    /* the caller keeps them for the level's next search */
                    *cache = a->cl;
                    cache->raise = rc;
                    memset(&a->cl, 0, sizeof a->cl);
                    have = 1;
                }
            }
            const astar_clusters *kept = have ? cache : &a->cl;
            if (cfg->clusters_below && kept->n > 0 && kept->urow)
                a->clp = kept;
            if (cfg->pop_clusters && kept->urow)
                a->clr = kept;
            out->st.cluster_raise = (uint64_t)rc;
            /* two raises over the same matching: the larger (each is
               admissible alone; their sums are over different sets) */
            h64 = m + MAX(rp, rc);
        }
        int dead_start = 0;
        for (int i = 0; cfg->dead_squares && i < b->nboxes; i++)
            dead_start |= b->dead[w->pos.boxes[i]];
        if (h64 == LB_INF || dead_start || (cfg->bound && h64 >= cfg->bound)) {
            out->stop = STOP_EXHAUSTED;
            a->finished = 1;
            return a;
        }
        uint32_t h = h64 > NODE_MAX_H ? NODE_MAX_H : (uint32_t)h64;
        a->packing_defer = MAX(3u, h / 4);
        uint32_t root = nodes_add(&a->ns, w->pos.hash ^ b->zplayer[norm], NODE_NONE, 0, 0, 0, 0, h);
        if (root == NODE_NONE) {
            out->stop = STOP_MEMORY;
            a->finished = 1;
            return a;
        }
        a->root = root;
        if (cfg->optimal)
            out->st.best_lower_bound = h; /* the root's bound, before the setup below */
        if (cfg->patterns) {
            a->gsp = cfg->patterns; /* the caller's, counted by the caller */
        } else if (cfg->goal_sets) {
            astar_patterns(b, cfg, lim, mem, &a->gs, &out->st); /* its own */
            a->gsp = &a->gs;
        }
        out->st.nodes = 1;
        undo_rec none = {0, 0, 0, 0};
        pstack_push(&w->path, root, &none);
        if (pos_solved(&w->pos) && board_end_ok(b, &w->reach[0])) {
            a->goal = root;
            a->finished = 1;
            return a;
        }
        if (queue_node(a, root, 0, h) != 0) {
            out->stop = STOP_MEMORY;
            a->finished = 1;
            return a;
        }
    }
    return a;
}

/* The other worker of a search with two (a->par), else NULL. */
static aworker *other_worker(astar *a, const aworker *w)
{
    if (!a->par)
        return NULL;
    return w == &a->w0 ? a->w1 : &a->w0;
}

/* Two workers: puts node n (g, h) back in the open list, the lock held
 * and released here, and yields while the other worker finishes its
 * expansion. Returns 1 when the budget refused the entry (the search has
 * ended). */
static int put_back(astar *a, uint32_t n, uint32_t g, uint32_t h)
{
    int full = queue_node(a, n, g, h) != 0;
    unlock(a);
    if (full) {
        finish(a, STOP_MEMORY);
        return 1;
    }
    sched_yield();
    return 0;
}

/* Optimal mode, cfg->refine (worker 0, between expansions): the caller
 * may shorten the known solution while the search runs (the other worker,
 * if any, goes on meanwhile). A lower bound cuts more from then on; when
 * the proven lower bound reaches it, nothing shorter exists: the search
 * ends exhausted, the caller's solution proven optimal. Returns 1 when the
 * search must stop. */
static int refine(astar *a)
{
    uint32_t lower = (uint32_t)a->out->st.best_lower_bound;
    uint32_t bound = bound_of(a);
    uint32_t nb = a->cfg->refine(a->cfg->refine_arg, lower, bound);
    if (nb == 0 || nb >= bound)
        return 0;
    atomic_store_explicit(&a->bound, nb, memory_order_relaxed);
    a->w0.st->refined++;
    if (lower < nb)
        return 0;
    finish(a, STOP_EXHAUSTED);
    return 1;
}

/* Expands nodes from the open list until the search ends (1) or, with a
 * node budget, the budget is reached (0). Both workers run it when a
 * thread is lent (optimal mode). Then:
 *  - a node's position is put on the worker's board under the lock (the
 *    path walk reads parent links another worker may change);
 *  - an empty open list ends the search only when the other worker is not
 *    expanding (its children may yet come); so does a node taken with f
 *    at or above a bound cfg->refine lowered (every open f is as high);
 *  - a goal taken from the open list is accepted only when the other
 *    worker is not expanding and no open node has a lower f: a node being
 *    expanded may have a lower f (every f taken is the least open one when
 *    taken, but the bound is not always consistent, so a child can have a
 *    lower f than its parent), and its children could hold a shorter
 *    solution; and the other worker may have finished such an expansion
 *    since the goal was taken, its children queued below the goal's f.
 *    Otherwise the goal goes back to the open list and is taken again;
 *  - the proven lower bound is the least f of the nodes being expanded:
 *    while the search runs, some node of an optimal solution's path is
 *    open or being expanded, and each was the least open f when taken. */
static int run_loop(aworker *w, uint64_t node_budget)
{
    astar *a = w->a;
    search_outcome *out = a->out;
    const astar_config *cfg = a->cfg;
    for (;;) {
        if (node_budget && out->st.nodes >= node_budget)
            return 0;
        if (limits_hit(w))
            break;
        if (w == &a->w0 && a->lend_ok && !a->w1 && ++a->lend_tick % 1024 == 0)
            try_lend(a);
        if (w == &a->w0 && cfg->refine && bound_of(a) &&
            ++a->refine_tick % (cfg->refine_every ? cfg->refine_every : 256) == 0 && refine(a))
            break;
        lock(a);
        if (atomic_load_explicit(&a->done, memory_order_relaxed)) {
            /* the other worker ended the search while this one waited for
             * the lock (it may have accepted a goal: taking another one
             * now would replace it) */
            unlock(a);
            break;
        }
        aworker *o = other_worker(a, w);
        /* With two open lists, expansions alternate between them. */
        uint32_t n, f, h;
        int q = (int)(a->turn++ % (uint32_t)a->nq), got = -1;
        for (int k = 0; k < a->nq && got != 0; k++)
            if ((got = ol_pop(&a->open[(q + k) % a->nq], &n, &f, &h)) == 0)
                q = (q + k) % a->nq;
        if (got != 0) {
            if (o && o->busy) {
                unlock(a);
                sched_yield();
                continue;
            }
            finish(a, STOP_EXHAUSTED);
            unlock(a);
            break;
        }
        w->cq = q;
        node *nd = nodes_at(&a->ns, n);
        /* (with the pathmax the entry's second key is its tie-break, the
           node's own bound below the inherited one: make_child; else it is
           the node's h, which a weight-0 list's f does not show) */
        if (node_closed(nd) || f_of(a, q, node_g(nd), node_h(nd)) != f ||
            (!a->cfg->pathmax && node_h(nd) != h)) {
            unlock(a);
            w->checks++; /* stale entry: count it towards the limit checks */
            continue;
        }
        h = node_h(nd);
        uint32_t bound = bound_of(a);
        if (bound && f >= bound) {
            /* lowered by cfg->refine: every open f reaches the shorter
             * known solution, nothing below it is left (as for an empty
             * list, only while the other worker expands nothing) */
            if (o && o->busy) {
                if (put_back(a, n, node_g(nd), h))
                    break;
                continue;
            }
            finish(a, STOP_EXHAUSTED);
            unlock(a);
            break;
        }
        w->st->setpos_steps += pstack_set(&w->path, &w->pos, &a->ns, n);
        w->busy = 1;
        w->busy_f = f;
        if (o) {
            uint32_t lbf = o->busy && o->busy_f < f ? o->busy_f : f;
            if (lbf > out->st.best_lower_bound)
                out->st.best_lower_bound = lbf;
        }
        unlock(a);
        if (cfg->check)
            debug_check(w);
        reach_compute(&w->reach[0], &w->pos, w->pos.player);
        w->st->reach_calls++;
        if (h == 0 && pos_solved(&w->pos) && board_end_ok(a->b, &w->reach[0])) {
            lock(a);
            if (atomic_load_explicit(&a->done, memory_order_relaxed)) {
                w->busy = 0;
                unlock(a);
                break;
            }
            o = other_worker(a, w);
            /* the other worker may have expanded a node since the goal was
             * taken, and queued children of lower f */
            if (o && (o->busy || ol_min_f(&a->open[0]) < f)) {
                w->busy = 0;
                if (put_back(a, n, f, h))
                    break;
                continue;
            }
            a->goal = n;
            w->busy = 0;
            finish(a, STOP_NONE);
            unlock(a);
            break;
        }
        w->fmin = f;
        w->ext_end = cfg->optimal ? w->st->nodes + ASTAR_EXT_NODES : UINT64_MAX;
        if (!o && f > out->st.best_lower_bound)
            out->st.best_lower_bound = f;
        lb_solve(&w->lb, &w->sols[0], box_rows(w));
        if (a->clr && h > 0 && w->sols[0].cost != LB_INF) {
            /* the position's own clusters, once a node: lifted past its
               f, it goes back to the open list with the higher bound */
            lock(a);
            int was = popped_mark(a, n);
            unlock(a);
            int64_t nh = was ? 0 : pop_clusters(w, &w->sols[0], w->reach[0].norm);
            w->st->pop_cluster_tests += !was;
            if (nh > (int64_t)h) {
                w->st->pop_cluster_lifted++;
                lock(a);
                node *e = nodes_at(&a->ns, n);
                node_set_h(e, (uint32_t)MIN(nh, NODE_MAX_H));
                uint32_t nf = node_g(e) + node_h(e), ub = bound_of(a);
                int full = (!ub || nf < ub) && queue_node(a, n, node_g(e), node_h(e)) != 0;
                w->busy = 0;
                if (full)
                    finish(a, STOP_MEMORY);
                unlock(a);
                if (full)
                    break;
                continue;
            }
        }
        int stop = expand(w, n, 0);
        lock(a);
        w->busy = 0;
        unlock(a);
        if (stop)
            break;
    }
    return 1;
}

static void helper_run(void *arg)
{
    aworker *w = arg;
    run_loop(w, 0);
}

/* Optimal mode: if a thread of the run is idle, lends it to this search as
 * a second worker. Called by worker 0 between expansions (at the start and
 * every 1,024 expansions until a thread comes). The worker is set up once,
 * at the first call, and waits in a->spare until a thread is lent. */
static void try_lend(astar *a)
{
    search_limits *lim = a->lim;
    aworker *w = a->spare;
    if (!w) {
        w = xcalloc(1, sizeof *w);
        worker_init(a, w, &w->own);
        undo_rec none = {0, 0, 0, 0};
        pstack_push(&w->path, a->root, &none);
        if (dl_charge(&w->dl, a->mem) != 0 || pen_charge(a, w) != 0 ||
            lb_init(&w->lb, a->b, a->cfg->matching, a->mem) != 0) {
            worker_free(a, w);
            free(w);
            a->lend_ok = 0;
            return;
        }
        a->spare = w;
    }
    a->w1 = w;
    a->par = 1; /* before the thread starts: it reads the store under the lock */
    if (!spares_lend(lim->spares, &a->task, helper_run, w)) {
        a->par = 0;
        a->w1 = NULL;
        return;
    }
    a->spare = NULL;
    mem_grow(a->mem, lim->spares->share);
    a->w0.st->lent_threads++;
}

int astar_step(astar *a, uint64_t node_budget)
{
    search_outcome *out = a->out;
    if (a->finished)
        return 1;
    a->budget = node_budget;
    /* a lent thread only for a whole optimal search (astar_solve) */
    a->lend_ok = node_budget == 0 && a->cfg->optimal && a->lim->spares != NULL;
    if (a->lend_ok)
        try_lend(a);
    if (run_loop(&a->w0, node_budget) == 0)
        return 0;
    if (a->spare) {
        worker_free(a, a->spare);
        free(a->spare);
        a->spare = NULL;
    }
    if (a->w1) {
        spares_wait(a->lim->spares, &a->task);
        a->par = 0;
        stats_add(&out->st, &a->w1->own);
        worker_free(a, a->w1);
        free(a->w1);
        a->w1 = NULL;
    }
    out->stop = a->stop;
    a->finished = 1;
    return 1;
}

void astar_end(astar *a)
{
    search_outcome *out = a->out;
    const astar_config *cfg = a->cfg;
    membudget *mem = a->mem;
    if (a->goal != NODE_NONE) {
        push_seq ps = {0};
        nodes_path(&a->ns, a->goal, &ps);
        out->pushes = ps;
        out->solved = 1;
        out->optimal = cfg->optimal;
        out->stop = STOP_NONE;
    }
    out->st.mem_bytes = mem->peak;
    ol_free(&a->open[0]);
    ol_free(&a->open[1]);
    nodes_free(&a->ns);
    worker_free(a, &a->w0);
    astar_patterns_free(&a->gs, a->mem);
    astar_pairs_free(&a->pd, a->mem);
    astar_clusters_free(&a->cl, a->mem);
    packing_free(&a->pk);
    free(a->rank);
    free(a->room_next);
    free(a->goal_index);
    boxpath_free(&a->bp);
    free(a->dirs);
    u32map_free(&a->deferred);
    if (a->popped) {
        for (uint32_t k = 0; k < a->npopped; k++)
            free(a->popped[k]);
        free(a->popped);
        mem_give(mem, (size_t)a->npopped * (sizeof(uint64_t) * (NODE_CHUNK / 64) + sizeof(uint64_t *)));
    }
    free(a);
}

void astar_solve(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                 search_outcome *out)
{
    astar *a = astar_begin(b, cfg, lim, mem, out);
    astar_step(a, 0);
    astar_end(a);
}
