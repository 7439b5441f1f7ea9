/* fess.c: the feature-space search (see fess.h). */
#include "fess.h"
#include "basesearch.h"
#include "backward.h"
#include "boxpath.h"
#include "nodes.h"
#include "pstack.h"
#include "../analysis/packing.h"
#include "../analysis/rooms.h"
#include "../heuristic/hotspot.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../deadlock/layer.h"
#include "../heuristic/features.h"
#include "../heuristic/lowerbound.h"
#include "../util/u32map.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* below[]: a node proven dead (with everything under it); the count of
 * the last stuck test. */
#define BELOW_DEAD 0xFFFF
#define BELOW_MAX (STUCK_AT * ipow(STUCK_AGAIN, STUCK_ROUNDS - 1))
static inline uint32_t ipow(uint32_t x, int n)
{
    uint32_t r = 1;
    while (n-- > 0)
        r *= x;
    return r;
}
_Static_assert(STUCK_AT * STUCK_AGAIN * STUCK_AGAIN < BELOW_DEAD && STUCK_ROUNDS == 3,
               "subtree counts stay below the dead mark");

/* The stuck-test round due when a subtree count reaches c, or -1. */
static int stuck_round(uint32_t c)
{
    uint32_t at = STUCK_AT;
    for (int r = 0; r < STUCK_ROUNDS; r++, at *= STUCK_AGAIN)
        if (c == at)
            return r;
    return -1;
}

/* Expansions between limit checks. */
#define CHECK_EVERY 16

/* A child waiting in a cell: ordered by key (accumulated weight << 32 |
 * the child's rank), then by age. */
typedef struct fentry {
    uint64_t key;
    uint32_t seq;
    uint32_t node;
} fentry;

typedef struct fcell {
    uint32_t rank; /* the feature vector of the cell */
    fentry *heap;  /* binary min-heap */
    uint32_t n, cap;
} fcell;

/* A child of the expansion in progress. */
typedef struct kid {
    uint32_t node;
    uint32_t rank;
    sq_t from, to;   /* the moved box */
    uint8_t opens;   /* the move gives the player a new push of another box */
    uint8_t advised;
    uint16_t hot;    /* use_hot: the child's hotspots (hf_hotspots_child) */
    uint64_t rkey;   /* use_rev: its key below the weight (rev_key) */
} kid;

struct fess {
    const board *b;
    const fess_config *cfg;
    search_limits *lim;
    membudget *mem;
    stats *st;

    position pos;
    node_store ns;
    pstack path;
    reach r;  /* the expanded position's player region */
    reach rc; /* a child's */
    reach rchk; /* --check: a child's region computed afresh */
    boxpath bp;
    box_move *mv; /* [4 nsq] moves of one box */
    dl_layer dl;    /* the deadlock layer (cfg->dl) */
    uint8_t *allow; /* [nboxes] PI-corral: allowed first pushes per box */
    stuck_table *stk; /* learned deadlock patterns (NULL: off): dl.stk, or
                         a table the portfolio shares (fess_share_patterns) */
    uint16_t *below; /* [below_cap] expansions in each node's subtree, saturating at
                        BELOW_MAX; BELOW_DEAD: proven dead (memory budget) */
    uint32_t below_cap;
    uint32_t *due;   /* [capdue] path depths whose subtree count reached STUCK_AT */
    uint32_t capdue;
    lowerbound lb;
    lb_sol sol;
    int lb_ok;
    sq_t *rows;          /* cfg->sides: [nboxes] the boxes' rows (lb_row) */
    packing pk;
    plan pl;
    feat_ctx fc;
    rooms rm;       /* rooms and their links (rm.nrooms = 0: none) */
    rooms_work rw;

    fcell *cells;
    uint32_t ncells, capcells;
    u32map cell_of;    /* rank -> cell index */
    uint32_t *by_rank; /* [ncells] cell indices, best rank first */
    uint32_t rr;       /* round-robin: the next cell to serve */
    uint64_t iter;

    kid *kids;
    uint32_t nkids, capkids;
    uint32_t *rank_of; /* [nranks] rank of each stored node (memory budget) */
    hotspot hs;        /* boxes in the way of others (cfg->hotspots) */
    uint32_t nranks, rank_cap;
    uint16_t **walk; /* [nsq] walking distances from a square, or NULL */
    sq_t *walkq;     /* [nsq] */
    uint32_t seq;

    search_outcome *out;
    const backward *meet[FESS_WATCH_MAX]; /* the backward searches to meet */
    int nmeet;
    int met;              /* out->pushes was built at a meeting */
    int finished; /* the search has ended */
    uint32_t goal;
    stop_reason stop;
    int64_t next_progress;
    uint32_t checks;
    deadline_poll dpoll; /* the clock between checks */
    int use_hot;         /* cfg->hf and cfg->hot: hotspots order the children */
    int hot;             /* the expanded position's hotspots (use_hot) or
                            stuck boxes (use_rev) */
    int use_rev;         /* cfg->hf, open and revpush: Festival's REV order */
    uint16_t *rfield;    /* use_rev: [nsq] the distances the children's sums add
                            (rev_field) */
    uint32_t rsum;       /* the expanded position's sum over its boxes */
    uint8_t *pocket;     /* use_rev: [nsq] goals in pockets (rev_pockets) */
    int trace;           /* KEEPER_TRACE_FESS: print each expanded position that packs more */
    int trace_best;
};

/* ---------------------------------------------------------- cells */

/* An entry's key: the accumulated weight (16 bits, saturating), the rank
 * (32 bits), the hf distance (16 bits, saturating); smaller first. */
static inline uint64_t entry_key(uint32_t w, uint32_t rank, uint32_t dist)
{
    return (uint64_t)MIN(w, 0xFFFFu) << 48 | (uint64_t)rank << 16 | MIN(dist, 0xFFFFu);
}
static inline uint32_t key_weight(uint64_t key) { return (uint32_t)(key >> 48); }
static inline uint32_t key_rank(uint64_t key) { return (uint32_t)(key >> 16); }

/* The order of feature ranks in the cells' heaps and among the cells.
 * Festival's classic order: packed first (feat_rank). cfg->hf, Festival's
 * HF order: free-floor regions first, then the boxes on the target's
 * squares (packed), then the rest; measured: with packed first the squares
 * half does not reach, in 20 s, the imagined board Festival's HF forward
 * phase reaches in 64 pushes on Sasquatch VII 25; with regions first it
 * reaches it in 77,000 positions (bench/README.md). The swap of the two
 * top bytes is its own inverse: a key's rank reads back through it. */
static inline uint32_t order_rank(const fess *f, uint32_t rank)
{
    if (!f->cfg->hf)
        return rank;
    return (rank & 0xFFFFu) | (rank >> 24 & 0xFFu) << 16 | (rank >> 16 & 0xFFu) << 24;
}

static inline int entry_less(const fentry *a, const fentry *b)
{
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

/* Adds an entry to cell c. Returns -1 when the memory budget refuses. */
static int cell_push(fess *f, fcell *c, uint64_t key, uint32_t idx)
{
    if (c->n == c->cap) {
        uint32_t ncap = c->cap ? c->cap * 2 : 16;
        fentry *h = mem_realloc(f->mem, c->heap, sizeof(fentry) * c->cap, sizeof(fentry) * ncap);
        if (!h)
            return -1;
        c->heap = h;
        c->cap = ncap;
    }
    fentry e = {key, f->seq++, idx};
    uint32_t i = c->n++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!entry_less(&e, &c->heap[up]))
            break;
        c->heap[i] = c->heap[up];
        i = up;
    }
    c->heap[i] = e;
    return 0;
}

static fentry cell_pop(fcell *c)
{
    fentry top = c->heap[0];
    fentry last = c->heap[--c->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1;
        if (l >= c->n)
            break;
        uint32_t m = l + 1 < c->n && entry_less(&c->heap[l + 1], &c->heap[l]) ? l + 1 : l;
        if (!entry_less(&c->heap[m], &last))
            break;
        c->heap[i] = c->heap[m];
        i = m;
    }
    if (c->n > 0)
        c->heap[i] = last;
    return top;
}

/* Drops entries of children expanded meanwhile from the top of c; returns
 * 1 when a live entry is on top. */
static int cell_live(fess *f, fcell *c)
{
    while (c->n > 0) {
        if (!node_closed(nodes_at(&f->ns, c->heap[0].node)))
            return 1;
        cell_pop(c);
    }
    return 0;
}

/* The cell of rank `rank`, made when new (and then served next). Returns
 * its index, or UINT32_MAX when memory runs out. */
static uint32_t cell_get(fess *f, uint32_t rank)
{
    uint32_t i = u32map_get(&f->cell_of, rank);
    if (i != U32MAP_NONE)
        return i;
    if (f->ncells == f->capcells) {
        uint32_t ncap = f->capcells ? f->capcells * 2 : 64;
        fcell *c = mem_realloc(f->mem, f->cells, sizeof(fcell) * f->capcells, sizeof(fcell) * ncap);
        if (!c)
            return UINT32_MAX;
        f->cells = c;
        uint32_t *br = mem_realloc(f->mem, f->by_rank, sizeof(uint32_t) * f->capcells,
                                   sizeof(uint32_t) * ncap);
        if (!br)
            return UINT32_MAX;
        f->by_rank = br;
        f->capcells = ncap;
    }
    i = f->ncells++;
    f->cells[i] = (fcell){.rank = rank};
    u32map_put(&f->cell_of, rank, i);
    uint32_t k = i;
    while (k > 0 && order_rank(f, f->cells[f->by_rank[k - 1]].rank) > order_rank(f, rank)) {
        f->by_rank[k] = f->by_rank[k - 1];
        k--;
    }
    f->by_rank[k] = i;
    f->rr = i;
    f->st->cells++;
    return i;
}

/* The cell to serve next, or UINT32_MAX when every cell is empty. Odd
 * steps go round the cells in creation order, even steps take the best
 * cell with a live child. */
static uint32_t pick_cell(fess *f)
{
    f->iter++;
    if (f->iter % 2 == 0) {
        for (uint32_t k = 0; k < f->ncells; k++)
            if (cell_live(f, &f->cells[f->by_rank[k]]))
                return f->by_rank[k];
        return UINT32_MAX;
    }
    for (uint32_t k = 0; k < f->ncells; k++) {
        uint32_t i = (f->rr + k) % f->ncells;
        if (cell_live(f, &f->cells[i])) {
            f->rr = (i + 1) % f->ncells;
            return i;
        }
    }
    return UINT32_MAX;
}

/* ---------------------------------------------------------- expansion */

static int limits_hit(fess *f)
{
    if (search_deadline_passed(f->lim, &f->dpoll)) {
        f->stop = STOP_TIME;
        return 1;
    }
    if (++f->checks < CHECK_EVERY)
        return 0;
    f->checks = 0;
    if (dl_charge(&f->dl, f->mem) != 0) {
        f->stop = STOP_MEMORY;
        return 1;
    }
    f->st->mem_bytes = f->mem->peak;
    stop_reason sr = search_check_limits(f->lim, f->st, &f->next_progress);
    if (sr == STOP_NONE)
        return 0;
    f->stop = sr;
    return 1;
}

/* The feature rank of the position on the board; r holds its player
 * region; conn its free-floor regions when the caller knows them, else -1;
 * cut its room score when the caller knows it (rooms_all_cut,
 * rooms_move_keeps), else -1. */
static uint32_t rank_here(fess *f, const reach *r, int conn, int cut)
{
    feat v = {0, 0, 0, 0};
    v.packed = f->cfg->open ? 0 : feat_packed(&f->fc, &f->pos);
    if (conn >= 0 && f->cfg->check && conn != feat_connectivity(&f->fc, &f->pos, r))
        die("fess: the regions after a move from the blocks differ from a count");
    v.conn = conn >= 0 ? conn : feat_connectivity(&f->fc, &f->pos, r);
    if (f->rm.nrooms > 0) {
        if (cut < 0 || f->cfg->check)
            v.rooms = rooms_score(&f->rm, &f->rw, &f->pos);
        else
            v.rooms = cut;
        if (cut >= 0 && f->cfg->check && v.rooms != cut)
            die("fess: a child's room score from its parent's differs from a count");
        if (f->cfg->check && !rooms_score_check(&f->rm, &f->rw, &f->pos))
            die("fess: the room score differs from the reference flood's");
    }
    if (f->cfg->oop)
        v.oop = feat_oop(&f->fc, &f->pos, v.packed);
    return feat_rank(&v);
}

/* The local deadlock search of the position on the board, whose last move
 * put a box on `to` (subset_local_dead). Returns 1 when it is proven dead. */
static int local_dead(fess *f, sq_t to)
{
    /* A search costs about what storing a position does per state; an
     * expansion stores its macro moves. So the state limit follows the
     * moves an expansion makes on average (deterministic counters; a prior
     * of LOCAL_PRIOR_WEIGHT expansions of LOCAL_PRIOR_MOVES moves each
     * keeps it full until the level shows otherwise): full on large
     * levels, small where expansions are cheap. */
    uint64_t per = (f->st->generated + LOCAL_PRIOR_MOVES * LOCAL_PRIOR_WEIGHT) /
                   (f->st->expanded + LOCAL_PRIOR_WEIGHT);
    f->dl.loc.limit = (int)MIN(MAX(LOCAL_PER_MOVE * per, (uint64_t)LOCAL_MIN_LIMIT), LOCAL_LIMIT);
    if (!subset_local_dead(&f->dl.loc, &f->pos, to, LOCAL_RADIUS, f->st))
        return 0;
    if (f->stk)
        stuck_add(f->stk, &f->dl.loc, f->dl.loc.kept, f->dl.loc.nkept, f->pos.player, f->st);
    return 1;
}

/* Learned deadlocks for node n, on the board (the top of f->path): 1 when
 * an ancestor of n was proven dead, or when n's expansion makes an
 * ancestor's subtree reach STUCK_AT expansions and that ancestor is proven
 * dead now (stuck_learn, deepest first). Counts the expansion in the
 * subtrees of n and its ancestors. On return n is on the board again.
 * Sound: every position below a dead one is dead (a solution from it would
 * solve the dead one). -1: the memory budget refused. */
static int below_dead(fess *f, uint32_t n)
{
    pstack *ps = &f->path;
    uint32_t top = ps->n - 1; /* ps->v[top].node == n */
    uint32_t count = f->ns.count;
    if (count > f->below_cap) {
        uint32_t cap = f->below_cap ? f->below_cap : 65536;
        while (cap < count)
            cap *= 2;
        uint16_t *r = mem_realloc(f->mem, f->below, sizeof(uint16_t) * f->below_cap,
                                  sizeof(uint16_t) * cap);
        if (!r)
            return -1;
        memset(r + f->below_cap, 0, sizeof(uint16_t) * (cap - f->below_cap));
        f->below = r;
        f->below_cap = cap;
    }
    for (uint32_t i = 0; i < top; i++)
        if (f->below[ps->v[i].node] == BELOW_DEAD) {
            f->st->cut_ancestor++;
            return 1;
        }
    if (ps->n > f->capdue) {
        f->capdue = ps->n * 2;
        f->due = xrealloc(f->due, sizeof(uint32_t) * f->capdue);
    }
    uint32_t ndue = 0;
    for (uint32_t i = 0; i <= top; i++) {
        uint16_t *c = &f->below[ps->v[i].node];
        if (*c < BELOW_MAX && stuck_round(++*c) >= 0)
            f->due[ndue++] = i;
    }
    if (ndue == 0)
        return 0;
    int dead = 0;
    for (uint32_t d = ndue; d-- > 0 && !dead;) {
        uint32_t a = ps->v[f->due[d]].node;
        f->st->setpos_steps += pstack_set(ps, &f->pos, &f->ns, a);
        if (stuck_match(f->stk, &f->pos) ||
            stuck_learn(f->stk, &f->pos, stuck_round(f->below[a]), f->st)) {
            f->below[a] = BELOW_DEAD;
            dead = 1;
        }
    }
    f->st->setpos_steps += pstack_set(ps, &f->pos, &f->ns, n);
    f->st->cut_ancestor += (uint64_t)dead;
    return dead;
}

/* The rows the matching takes for p's boxes: their squares, or with
 * cfg->sides the rows of the player's pieces (lowerbound.h, lb_row): a box
 * in a corridor or a doorway that cannot reach a goal from the player's
 * side is a bipartite deadlock. */
static const sq_t *box_rows(fess *f, const position *p)
{
    return f->rows ? lb_rows(&f->lb, p->boxes, f->b->nboxes, p->player, f->rows) : p->boxes;
}

/* The deadlock tests node n passes before it is expanded (on the board;
 * f->r holds its player region). Returns 1 when it is dead, else 0, with
 * the PI-corral restriction in f->allow when *pruned > 0. */
static int dead_on_expansion(fess *f, uint32_t n, int *pruned)
{
    const position *p = &f->pos;
    const node *nd = nodes_at(&f->ns, n);
    *pruned = -1;
    if (f->stk && stuck_match(f->stk, p)) {
        f->st->cut_stuck++;
        return 1;
    }
    if (f->dl.loc.b && nd->parent != NODE_NONE && local_dead(f, nd->to))
        return 1;
    if (f->lb_ok && lb_solve(&f->lb, &f->sol, box_rows(f, p)) == LB_INF) {
        f->st->cut_bipartite++;
        return 1;
    }
    if (f->cfg->dl.fixed && fixed_deadlock(&f->dl.fx, p)) {
        f->st->cut_fixed++;
        return 1;
    }
    if (!f->cfg->dl.corrals)
        return 0;
    *pruned = corral_prune(&f->dl.cc, p, &f->r, f->allow);
    if (*pruned == 0) {
        f->st->corral_deadlocks++;
        return 1;
    }
    if (*pruned < 0)
        return 0;
    f->st->corrals++;
    if (f->cfg->dl.deadlock_search <= 0 || !subset_corrals_dead(&f->dl.sub, &f->dl.cc, p, f->st))
        return 0;
    if (f->stk)
        stuck_add(f->stk, &f->dl.sub, f->dl.sub.kept, f->dl.sub.nkept, p->player, f->st);
    return 1;
}

/* Records the rank of node c, the next node to get one (c == f->nranks).
 * Returns -1 when the memory budget refuses. */
static int rank_store(fess *f, uint32_t c, uint32_t rank)
{
    if (c >= f->rank_cap) {
        uint32_t cap = f->rank_cap ? f->rank_cap * 2 : 65536;
        uint32_t *r = mem_realloc(f->mem, f->rank_of, sizeof(uint32_t) * f->rank_cap,
                                  sizeof(uint32_t) * cap);
        if (!r)
            return -1;
        f->rank_of = r;
        f->rank_cap = cap;
    }
    f->rank_of[c] = rank;
    f->nranks = c + 1;
    return 0;
}

static void add_kid(fess *f, uint32_t idx, uint32_t rank, sq_t from, sq_t to, int opens)
{
    if (f->nkids == f->capkids) {
        f->capkids = f->capkids ? f->capkids * 2 : 256;
        f->kids = xrealloc(f->kids, sizeof(kid) * f->capkids);
    }
    f->kids[f->nkids++] = (kid){idx, rank, from, to, (uint8_t)opens, 0, 0, 0};
}

/* cfg->hf: the child's distance to the goals, estimated from the expanded
 * position's minimum matching (f->sol, solved on expansion): the moved box
 * keeps its goal. An upper bound on the child's matching cost, exact while
 * the assignment stays optimal; 0 when off or without a matching. */
static uint32_t hf_dist(const fess *f, const kid *kd)
{
    if (!f->cfg->hf || f->cfg->open || !f->lb_ok || f->sol.cost == LB_INF)
        return 0;
    const lowerbound *lb = &f->lb;
    int i = f->pos.box_at[kd->from];
    size_t j = (size_t)(f->sol.col[i + 1] - 1), n = (size_t)lb->n;
    int64_t to = lb->dist_t[(size_t)kd->to * n + j], from = lb->dist_t[(size_t)f->sol.sq[i] * n + j];
    if (to == DIST_INF)
        return 0xFFFFu;
    int64_t d = f->sol.cost - from + to;
    return d < 0 ? 0u : (uint32_t)MIN(d, 0xFFFF);
}

/* Whether the player, with region f->rc in the child position p (the box
 * just moved onto `moved`), can push some other box in a way he could not
 * in the parent (region f->r): a side of that box newly reached, the
 * square beyond it free and no dead square. */
static int opens_push(const fess *f, const position *p, sq_t moved)
{
    const board *b = f->b;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t q = p->boxes[i];
        if (q == moved || !reach_box(&f->rc, q))
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t side = b->nb[q][d], ahead = b->nb[q][DIR_OPP(d)];
            if (side == SQ_NONE || ahead == SQ_NONE || !reach_floor(&f->rc, side) ||
                reach_floor(&f->r, side) || p->box_at[ahead] != NO_BOX || b->dead[ahead])
                continue;
            return 1;
        }
    }
    return 0;
}

/* Walking distances (boxes ignored) into d from the `tail` squares in
 * queue (their d 0, every other square's UINT16_MAX: left so when no
 * source reaches it). */
static void walk_bfs(const board *b, uint16_t *d, sq_t *queue, int tail)
{
    for (int head = 0; head < tail;) {
        sq_t q = queue[head++];
        for (int k = 0; k < 4; k++) {
            sq_t t = b->nb[q][k];
            if (t != SQ_NONE && d[t] == UINT16_MAX) {
                d[t] = (uint16_t)(d[q] + 1);
                queue[tail++] = t;
            }
        }
    }
}

/* Player-walk distances (boxes ignored) from square s, computed once per
 * square and kept. */
static const uint16_t *walk_from(fess *f, sq_t s)
{
    const board *b = f->b;
    if (!f->walk[s]) {
        uint16_t *d = xmalloc(sizeof(uint16_t) * (size_t)b->nsq);
        for (int q = 0; q < b->nsq; q++)
            d[q] = UINT16_MAX;
        d[s] = 0;
        f->walkq[0] = s;
        walk_bfs(b, d, f->walkq, 1);
        f->walk[s] = d;
    }
    return f->walk[s];
}

/* cfg->hot (with hf): Festival's HF hotspots, the order's term after the
 * boxes on the target's squares: boxes off those squares with a box or a
 * wall beside them, and empty target squares no push could fill now (on
 * every side a wall next to the square, or a box or a wall where the
 * player would stand to push into it). Square s's share, with the box on
 * `add` counted and the one on `del` not (SQ_NONE: the board as it is). */
static inline int occupied_as(const position *p, sq_t x, sq_t add, sq_t del)
{
    return x == add || (x != del && p->box_at[x] != NO_BOX);
}

static int hot_at(const fess *f, sq_t s, sq_t add, sq_t del)
{
    const board *b = f->b;
    const position *p = &f->pos;
    int box = occupied_as(p, s, add, del);
    if (box && !b->is_goal[s]) {
        for (int d = 0; d < 4; d++) {
            sq_t n = b->nb[s][d];
            if (n == SQ_NONE || occupied_as(p, n, add, del))
                return 1;
        }
        return 0;
    }
    if (!box && b->is_goal[s]) {
        for (int d = 0; d < 4; d++) {
            sq_t n = b->nb[s][d];
            sq_t m = n == SQ_NONE ? SQ_NONE : b->nb[n][d];
            if (m != SQ_NONE && !occupied_as(p, m, add, del))
                return 0;
        }
        return 1;
    }
    return 0;
}

/* The hotspots of the position on the board, counted afresh. */
static int hf_hotspots(const fess *f)
{
    const board *b = f->b;
    int sum = 0;
    for (int i = 0; i < b->nboxes; i++)
        sum += hot_at(f, f->pos.boxes[i], SQ_NONE, SQ_NONE) + hot_at(f, b->goals[i], SQ_NONE, SQ_NONE);
    return sum;
}

/* A count over the squares of the child on the board (a box just moved
 * from `from` to `to`) from its parent's (f->hot), where a square's share,
 * at(f, s, add, del), depends only on the squares within `steps` steps of
 * it in a line: only the shares of the squares that near from or to
 * change (the parent's read with the box on from counted and the one on to
 * not). */
typedef int share_fn(const fess *f, sq_t s, sq_t add, sq_t del);
static inline int count_from_parent(const fess *f, sq_t from, sq_t to, int steps, share_fn *at)
{
    const board *b = f->b;
    sq_t near[18];
    int n = 0;
    const sq_t ends[2] = {from, to};
    for (int e = 0; e < 2; e++) {
        near[n++] = ends[e];
        for (int d = 0; d < 4; d++) {
            sq_t x = ends[e];
            for (int k = 0; k < steps && (x = b->nb[x][d]) != SQ_NONE; k++)
                near[n++] = x;
        }
    }
    int sum = f->hot;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = near[j] == near[i];
        if (!dup)
            sum += at(f, near[i], SQ_NONE, SQ_NONE) - at(f, near[i], from, to);
    }
    return sum;
}

/* The hotspots of the child on the board from its parent's: a square's
 * share depends on the squares within two steps of it in a line. */
static int hf_hotspots_child(const fess *f, sq_t from, sq_t to)
{
    return count_from_parent(f, from, to, 2, hot_at);
}

/* cfg->revpush: Festival's REV push order. A box off the goals is stuck
 * when no push moves it: on each axis a box, a wall or a dead square ahead
 * or a box or a wall behind (as hot_at, with the box on `add` counted and
 * the one on `del` not). */
static int stuck_at(const fess *f, sq_t s, sq_t add, sq_t del)
{
    const board *b = f->b;
    const position *p = &f->pos;
    if (!occupied_as(p, s, add, del) || b->is_goal[s])
        return 0;
    for (int d = 0; d < 4; d++) {
        sq_t ahead = b->nb[s][d], behind = b->nb[s][DIR_OPP(d)];
        if (ahead != SQ_NONE && behind != SQ_NONE && !b->dead[ahead] &&
            !occupied_as(p, ahead, add, del) && !occupied_as(p, behind, add, del))
            return 0;
    }
    return 1;
}

/* The stuck boxes of the position on the board, counted afresh (where the
 * player can reach: not looked at). */
static int stuck_boxes(const fess *f)
{
    int sum = 0;
    for (int i = 0; i < f->b->nboxes; i++)
        sum += stuck_at(f, f->pos.boxes[i], SQ_NONE, SQ_NONE);
    return sum;
}

/* The stuck boxes of the child on the board from its parent's (f->hot): a
 * box's share depends on its four neighbours alone. */
static int rev_stuck_child(const fess *f, sq_t from, sq_t to)
{
    return count_from_parent(f, from, to, 1, stuck_at);
}

/* The expanded position's distance field (on the board, `stuck` its
 * stuck boxes, stuck_boxes): with stuck boxes, each square's walking distance (walls alone)
 * from the nearest stuck box, so that pushes away from them sum larger;
 * with none, each square's push distance to the nearest goal (pushes away
 * from the goals). Its sum over the boxes into f->rsum; a child's sum is
 * the parent's with the moved box's term changed (the field stays the
 * parent's: a tie-break). */
static void rev_field(fess *f, int stuck)
{
    const board *b = f->b;
    uint16_t *d = f->rfield;
    if (stuck == 0) {
        for (int s = 0; s < b->nsq; s++)
            d[s] = b->near_dist[s] == DIST_INF ? 0 : b->near_dist[s];
    } else {
        int tail = 0;
        for (int s = 0; s < b->nsq; s++)
            d[s] = UINT16_MAX;
        for (int i = 0; i < b->nboxes; i++) {
            sq_t s = f->pos.boxes[i];
            if (stuck_at(f, s, SQ_NONE, SQ_NONE)) {
                d[s] = 0;
                f->walkq[tail++] = s;
            }
        }
        walk_bfs(b, d, f->walkq, tail);
        for (int s = 0; s < b->nsq; s++)
            if (d[s] == UINT16_MAX)
                d[s] = 0;
    }
    uint32_t sum = 0;
    for (int i = 0; i < b->nboxes; i++)
        sum += d[f->pos.boxes[i]];
    f->rsum = sum;
}

/* The goal pockets: a goal with walls on three sides, then, as if it were
 * a wall, the goals that leaves so, and so on. */
static void rev_pockets(fess *f)
{
    const board *b = f->b;
    uint8_t *wall = f->pocket; /* a pocket stands as a wall for the next */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int s = 0; s < b->nsq; s++) {
            if (!b->is_goal[s] || wall[s])
                continue;
            int walls = 0;
            for (int d = 0; d < 4; d++)
                walls += b->nb[s][d] == SQ_NONE || wall[b->nb[s][d]];
            if (walls == 3) {
                wall[s] = 1;
                changed = 1;
            }
        }
    }
}

/* The REV advisor: the first child pushing a box into a pocket; else the
 * best child (least key without the weight) whose key beats the parent's
 * (pkey); with two children or fewer, the first. */
static void advise_rev(fess *f, uint64_t pkey)
{
    for (uint32_t k = 0; k < f->nkids; k++)
        if (f->pocket[f->kids[k].to]) {
            f->kids[k].advised = 1;
            return;
        }
    int best = -1;
    for (uint32_t k = 0; k < f->nkids; k++)
        if (f->kids[k].rkey < pkey && (best < 0 || f->kids[k].rkey < f->kids[best].rkey))
            best = (int)k;
    if (best >= 0)
        f->kids[best].advised = 1;
    else if (f->nkids > 0 && f->nkids <= 2)
        f->kids[0].advised = 1;
}

/* use_rev: a child's key below the weight: its rank in the HF order with
 * its stuck boxes in the last byte (out of plan, 0 here), then the larger
 * distance sum (rev_field) first. */
static uint64_t rev_key(const fess *f, uint32_t rank, int stuck, uint32_t dist)
{
    uint32_t kr = (order_rank(f, rank) & 0xFFFFFF00u) | (uint32_t)MIN(stuck, 0xFF);
    return entry_key(0, kr, 0xFFFFu - MIN(dist, 0xFFFFu));
}

/* Generates the children of node n (on the board, player region in f->r):
 * stores the new ones, collects the unexpanded ones in f->kids. Returns 1
 * when the search must stop (goal found or memory spent). */
static int generate(fess *f, uint32_t n, int pruned)
{
    const board *b = f->b;
    position *p = &f->pos;
    uint32_t g = node_g(nodes_at(&f->ns, n));
    f->nkids = 0;
    if (f->dl.cs.nsets)
        capsets_count(&f->dl.cs, p);
    if (f->rm.nrooms > 0)
        rooms_witness(&f->rm, &f->rw, b, p); /* the children's rooms_all_cut */
    /* the parent's room score, which a child keeps where its move provably
     * changes no room's parts (rooms_move_keeps) */
    int prooms = n < f->nranks ? rank_rooms(f->rank_of[n]) : 254;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        if (!reach_box(&f->r, from))
            continue;
        unsigned allow = pruned > 0 ? f->allow[i] : 0xFu;
        if (!allow)
            continue;
        int nm = boxpath_moves(&f->bp, p, &f->r, from, allow, f->mv);
        /* With the forest of the box's walk (the floor with the box lifted:
         * a graph G), a child's free-floor regions are the parent's less
         * the pieces G falls into without the box's old square plus those
         * without its new one (boxpath_lifted_pieces); the parent's count from its
         * rank, unless capped there. */
        int pconn = n < f->nranks ? rank_conn(f->rank_of[n]) : 254;
        int conn0 =
            f->bp.bk_ready && pconn < 254 ? pconn - boxpath_lifted_pieces(&f->bp, b, from) : -1;
        f->st->generated += (uint64_t)nm;
        for (int k = 0; k < nm; k++) {
            const box_move *m = &f->mv[k];
            uint32_t ng = g + m->pushes;
            if (ng > NODE_MAX_G)
                continue;
            sq_t pl = b->nb[m->to][DIR_OPP(m->dir)];
            undo_rec u;
            pos_relocate(p, from, m->to, pl, &u);
            if (dl_push_dead(&f->dl, p, from, m->to, f->st)) {
                pos_undo(p, &u);
                continue;
            }
            /* with the forest of this box's walk (the floor with the box
             * lifted), the pieces its new square splits the floor into */
            int opieces = f->bp.bk_ready && boxpath_lifted_has(&f->bp, b, m->to)
                              ? boxpath_lifted_pieces(&f->bp, b, m->to) : -1;
            int fresh;
            sq_t norm = reach_after_move_known(&f->rc, &f->r, p, from, m->to, pl,
                                               opieces >= 0 && opieces <= 1, &fresh);
            if (fresh)
                f->st->reach_calls++;
            else
                f->st->reach_reused++;
            if (f->cfg->check) {
                int same = reach_compute(&f->rchk, p, pl) == norm;
                for (sq_t q = 0; q < b->nsq && same; q++)
                    same = reach_floor(&f->rchk, q) == reach_floor(&f->rc, q) &&
                           reach_box(&f->rchk, q) == reach_box(&f->rc, q);
                if (!same)
                    die("fess: the player's region after a move differs from a fresh flood");
            }
            uint64_t hash = p->hash ^ b->zplayer[norm];
            uint32_t c = nodes_find(&f->ns, hash);
            if (c != NODE_NONE) {
                f->st->duplicates++;
                if (node_closed(nodes_at(&f->ns, c))) {
                    pos_undo(p, &u);
                    continue;
                }
            } else {
                c = nodes_add(&f->ns, hash, n, from, m->to, m->dir, ng, 0);
                if (c == NODE_NONE) {
                    f->stop = STOP_MEMORY;
                    pos_undo(p, &u);
                    return 1;
                }
                f->st->nodes++;
                if (ng > f->st->max_depth)
                    f->st->max_depth = ng;
                if (pos_solved(p) && !f->cfg->goal_needs_meet && board_end_ok(b, &f->rc)) {
                    f->goal = c;
                    pos_undo(p, &u);
                    return 1;
                }
                uint32_t x = NODE_NONE;
                const backward *mw = NULL;
                for (int w = 0; w < f->nmeet && x == NODE_NONE; w++)
                    x = backward_find(mw = f->meet[w], hash);
                if (x != NODE_NONE) {
                    /* the goal is reached from here: the solution is built
                     * now, while the backward search is sure to exist */
                    backward_meet_path(mw, x, &f->ns, c, &f->out->pushes);
                    f->goal = c;
                    f->met = 1;
                    f->st->meetings++;
                    pos_undo(p, &u);
                    return 1;
                }
            }
            /* a position's rank depends on its boxes alone: computed once,
             * when it is stored */
            uint32_t rank;
            if (c < f->nranks) {
                rank = f->rank_of[c];
            } else {
                int conn = conn0 >= 0 && opieces >= 0 ? conn0 + opieces : -1;
                f->st->regions_reused += conn >= 0;
                int cut = -1;
                if (f->rm.nrooms > 0 && rooms_all_cut(&f->rm, &f->rw, b, from, m->to))
                    cut = f->rm.nlinks;
                else if (f->rm.nrooms > 0 && prooms < 254 &&
                         rooms_move_keeps(&f->rm, b, p, from, m->to))
                    cut = prooms;
                f->st->rooms_reused += cut >= 0;
                rank = rank_here(f, &f->rc, conn, cut);
                if (rank_store(f, c, rank) != 0) {
                    f->stop = STOP_MEMORY;
                    pos_undo(p, &u);
                    return 1;
                }
            }
            if ((uint64_t)rank_packed(rank) > f->st->best_packed)
                f->st->best_packed = (uint64_t)rank_packed(rank);
            int opens = f->cfg->advisors && !f->cfg->hf && opens_push(f, p, m->to);
            add_kid(f, c, rank, from, m->to, opens);
            if (f->use_rev) {
                int st = rev_stuck_child(f, from, m->to);
                if (f->cfg->check && st != stuck_boxes(f))
                    die("fess: a child's stuck boxes from its parent's differ from a count");
                f->kids[f->nkids - 1].rkey =
                    rev_key(f, rank, st, f->rsum - f->rfield[from] + f->rfield[m->to]);
                f->st->stuck_reused++;
            }
            if (f->use_hot) {
                int hot = hf_hotspots_child(f, from, m->to);
                if (f->cfg->check && hot != hf_hotspots(f))
                    die("fess: a child's hotspots from its parent's differ from a count");
                f->kids[f->nkids - 1].hot = (uint16_t)MIN(hot, 0xFFFF);
                f->st->hotspots_reused++;
            }
            pos_undo(p, &u);
        }
    }
    return 0;
}

/* Advisors: each names the best child (least rank) that improves one
 * feature on the parent's (rank pr) without packing less: packed,
 * connectivity, rooms, and out of plan (the last also no worse in
 * connectivity and rooms); then the explorer and the opener below. */
static void advise(fess *f, uint32_t pr)
{
    if (!f->cfg->advisors) {
        for (uint32_t k = 0; k < f->nkids; k++)
            f->kids[k].advised = 1;
        return;
    }
    int pp = rank_packed(pr), pc = rank_conn(pr), pm = rank_rooms(pr), po = rank_oop(pr);
    int best[4] = {-1, -1, -1, -1};
    for (uint32_t k = 0; k < f->nkids; k++) {
        uint32_t r = f->kids[k].rank;
        int kp = rank_packed(r);
        /* out of plan: fewer boxes out of the plan, packing no less and
         * the other features no worse */
        int better[4] = {kp > pp, kp >= pp && rank_conn(r) < pc, kp >= pp && rank_rooms(r) < pm,
                         kp >= pp && rank_conn(r) <= pc && rank_rooms(r) <= pm &&
                             rank_oop(r) < po};
        for (int a = 0; a < 4; a++)
            if (better[a] && (best[a] < 0 || r < f->kids[best[a]].rank))
                best[a] = (int)k;
    }
    for (int a = 0; a < 4; a++)
        if (best[a] >= 0)
            f->kids[best[a]].advised = 1;
    /* Explorer: the best child that gives the player a new push on another
     * box, packing no less. */
    int ex = -1;
    for (uint32_t k = 0; k < f->nkids; k++)
        if (f->kids[k].opens && rank_packed(f->kids[k].rank) >= pp &&
            (ex < 0 || f->kids[k].rank < f->kids[ex].rank))
            ex = (int)k;
    if (ex >= 0)
        f->kids[ex].advised = 1;
    /* Hotspots: the best child with fewer boxes in the way of others,
     * no worse in packing, regions and room links. */
    if (f->hs.in_way) {
        int hp = hotspot_count(&f->hs, &f->pos), hb = -1;
        for (uint32_t k = 0; k < f->nkids && hp > 0; k++) {
            const kid *kd = &f->kids[k];
            if (rank_packed(kd->rank) < pp || rank_conn(kd->rank) > pc ||
                rank_rooms(kd->rank) > pm || (hb >= 0 && kd->rank >= f->kids[hb].rank))
                continue;
            if (hotspot_count_moved(&f->hs, &f->pos, kd->from, kd->to) < hp)
                hb = (int)k;
        }
        if (hb >= 0)
            f->kids[hb].advised = 1;
    }
    /* Opener: when no child packs more, clear the way to the square the
     * plan fills next: among the children that take a box farther from it
     * (walking distance) without worsening packing, connectivity or rooms,
     * the box nearest to it, pushed farthest. */
    sq_t next = best[0] < 0 ? feat_next_square(&f->fc, &f->pos, pp) : SQ_NONE;
    if (next != SQ_NONE) {
        const uint16_t *wd = walk_from(f, next);
        int op = -1;
        for (uint32_t k = 0; k < f->nkids; k++) {
            const kid *kd = &f->kids[k];
            uint32_t r = kd->rank;
            if (rank_packed(r) < pp || rank_conn(r) > pc || rank_rooms(r) > pm ||
                wd[kd->to] <= wd[kd->from])
                continue;
            if (op < 0 || wd[kd->from] < wd[f->kids[op].from] ||
                (wd[kd->from] == wd[f->kids[op].from] && wd[kd->to] > wd[f->kids[op].to]))
                op = (int)k;
        }
        if (op >= 0)
            f->kids[op].advised = 1;
    }
    if (f->nkids > 0 && f->nkids <= 2)
        f->kids[0].advised = 1;
}

/* Expands the entry e taken from cell ci. Returns 1 when the search must
 * stop. */
static int expand(fess *f, uint32_t ci, fentry e)
{
    uint32_t n = e.node;
    node *nd = nodes_at(&f->ns, n);
    f->st->setpos_steps += pstack_set(&f->path, &f->pos, &f->ns, n);
    if (f->cfg->check) {
        int rc = pos_check(&f->pos);
        if (rc)
            die("internal error: position check failed (code %d)", rc);
    }
    node_close(nd);
    if (f->stk) {
        int bd = below_dead(f, n);
        if (bd < 0) {
            f->stop = STOP_MEMORY;
            return 1;
        }
        if (bd)
            return 0;
    }
    uint32_t accw = key_weight(e.key);
    node_set_h(nd, MIN(accw, NODE_MAX_H));
    reach_compute(&f->r, &f->pos, f->pos.player);
    f->st->reach_calls++;
    int pruned;
    if (dead_on_expansion(f, n, &pruned))
        return 0;
    f->st->expanded++;
    if (f->trace && n < f->nranks && rank_packed(f->rank_of[n]) > f->trace_best) {
        f->trace_best = rank_packed(f->rank_of[n]);
        fprintf(stderr, "fess: packed %d, regions %d, %llu positions, depth %u\n", f->trace_best,
                rank_conn(f->rank_of[n]), (unsigned long long)f->st->nodes, node_g(nd));
        search_trace_position(f->b, f->pos.boxes, f->pos.player);
    }
    /* the key holds the order of the position's rank (order_rank) */
    uint32_t own =
        order_rank(f, key_rank(e.key) & (f->use_hot || f->use_rev ? 0xFFFF0000u : ~0u));
    uint32_t best = order_rank(f, own) <= order_rank(f, f->cells[ci].rank) ? own
                                                                          : f->cells[ci].rank;
    uint32_t home = cell_get(f, best);
    if (home == UINT32_MAX) {
        f->stop = STOP_MEMORY;
        return 1;
    }
    if (f->use_hot)
        f->hot = hf_hotspots(f);
    if (f->use_rev) {
        f->hot = stuck_boxes(f);
        rev_field(f, f->hot);
    }
    if (generate(f, n, pruned))
        return 1;
    if (!f->cfg->hf) /* hf: every move weighs 0, the advisors would name none */
        advise(f, own);
    if (f->use_rev)
        advise_rev(f, e.key & 0xFFFFFFFFFFFFull);
    fcell *c = &f->cells[home];
    for (uint32_t k = 0; k < f->nkids; k++) {
        const kid *kd = &f->kids[k];
        uint32_t w = f->cfg->hf && !f->use_rev ? 0u : accw + (kd->advised ? 0u : 1u);
        uint32_t dd = hf_dist(f, kd);
        f->st->advised += kd->advised;
        /* with hotspots, they take the rank's last two bytes (rooms and
         * out of plan) in the key */
        uint32_t kr = order_rank(f, kd->rank);
        if (f->use_hot)
            kr = (kr & 0xFFFF0000u) | kd->hot;
        uint64_t key = f->use_rev ? entry_key(w, 0, 0) | kd->rkey : entry_key(w, kr, dd);
        if (cell_push(f, c, key, kd->node) != 0) {
            f->stop = STOP_MEMORY;
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- driver */

fess *fess_begin(const board *b, const fess_config *cfg, search_limits *lim, membudget *mem,
                 search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "fess";
    fess *f = xcalloc(1, sizeof *f);
    f->b = b;
    f->cfg = cfg;
    f->lim = lim;
    f->mem = mem;
    f->st = &out->st;
    f->out = out;
    f->goal = NODE_NONE;
    f->trace = getenv("KEEPER_TRACE_FESS") != NULL;
    f->use_hot = cfg->hf && cfg->hot;
    f->use_rev = cfg->hf && cfg->open && cfg->revpush && !f->use_hot;
    pos_init(&f->pos, b);
    pstack_init(&f->path);
    reach_init(&f->r, b->nsq);
    reach_init(&f->rc, b->nsq);
    reach_init(&f->rchk, b->nsq);
    boxpath_init(&f->bp, b->nsq);
    f->mv = xmalloc(sizeof(box_move) * (size_t)b->nsq * 4);
    dl_init(&f->dl, b, &cfg->dl, &(dl_sizes){LOCAL_LIMIT, LOCAL_MAX_BOXES});
    f->allow = xcalloc((size_t)b->nboxes, 1);
    if (cfg->dl.stuck)
        f->stk = &f->dl.stk;
    lb_sol_init(&f->sol, b->nboxes);
    f->pk.n = 0;
    f->pk.order = NULL;
    f->pk.room = NULL;
    if (cfg->packing)
        packing_compute(&f->pk, b, lim->deadline_ns);
    plan_choose(&f->pl, b, f->mem, &f->pk, cfg->packing ? cfg->plan : 0, cfg->plan_pick,
                lim->deadline_ns);
    feat_init(&f->fc, b, &f->pk, &f->pl);
    f->walk = xcalloc((size_t)b->nsq, sizeof(uint16_t *));
    f->walkq = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    if (f->use_rev) {
        f->rfield = xcalloc((size_t)b->nsq, sizeof(uint16_t));
        f->pocket = xcalloc((size_t)b->nsq, 1);
        rev_pockets(f);
    }
    memset(&f->rm, 0, sizeof f->rm);
    if (cfg->rooms && rooms_build(&f->rm, b) != 0)
        f->rm.nrooms = 0;
    rooms_work_init(&f->rw, &f->rm, b);
    memset(&f->hs, 0, sizeof f->hs);
    if (cfg->advisors && cfg->hotspots)
        hotspot_init(&f->hs, b, lim->deadline_ns);
    u32map_init(&f->cell_of, 256);
    f->next_progress = search_first_progress(lim);

    if (dl_charge(&f->dl, mem) != 0 || nodes_init(&f->ns, mem) != 0) {
        out->stop = STOP_MEMORY;
        f->finished = 1;
        return f;
    }
    if (cfg->matching) {
        if (lb_init(&f->lb, b, 1, mem) != 0) {
            out->stop = STOP_MEMORY;
            f->finished = 1;
        return f;
        }
        f->lb_ok = 1;
        if (cfg->sides && f->lb.nside)
            f->rows = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    }
    /* The root. */
    {
        sq_t norm = reach_compute(&f->r, &f->pos, f->pos.player);
        for (int i = 0; i < b->nboxes; i++)
            if (b->dead[f->pos.boxes[i]]) {
                out->stop = STOP_EXHAUSTED;
                f->finished = 1;
        return f;
            }
        uint32_t root = nodes_add(&f->ns, f->pos.hash ^ b->zplayer[norm], NODE_NONE, 0, 0, 0, 0, 0);
        if (root == NODE_NONE) {
            out->stop = STOP_MEMORY;
            f->finished = 1;
        return f;
        }
        out->st.nodes = 1;
        undo_rec none = {0, 0, 0, 0};
        pstack_push(&f->path, root, &none);
        if (pos_solved(&f->pos) && !cfg->goal_needs_meet && board_end_ok(b, &f->r)) {
            f->goal = root;
            f->finished = 1;
            return f;
        }
        uint32_t rank = rank_here(f, &f->r, -1, -1);
        uint32_t ci = cell_get(f, rank);
        if (rank_store(f, root, rank) != 0 || ci == UINT32_MAX ||
            cell_push(f, &f->cells[ci], entry_key(0, rank, 0), root) != 0) {
            out->stop = STOP_MEMORY;
            f->finished = 1;
        return f;
        }
    }
    return f;
}

uint32_t fess_open_target(fess *f, sq_t *boxes, sq_t *player)
{
    int min_conn = INT32_MAX, min_rooms = INT32_MAX;
    for (uint32_t c = 0; c < f->nranks; c++) {
        int cn = rank_conn(f->rank_of[c]), rm = rank_rooms(f->rank_of[c]);
        if (cn < min_conn || (cn == min_conn && rm < min_rooms)) {
            min_conn = cn;
            min_rooms = rm;
        }
    }
    uint32_t best = NODE_NONE, seen = 0;
    int best_stuck = 0;
    uint32_t best_g = 0;
    for (uint32_t c = 0; c < f->nranks && seen < REV_CANDIDATES; c++) {
        uint32_t r = f->rank_of[c];
        if (rank_conn(r) != min_conn || rank_rooms(r) != min_rooms)
            continue;
        seen++;
        f->st->setpos_steps += pstack_set(&f->path, &f->pos, &f->ns, c);
        int stuck = stuck_boxes(f);
        /* use_rev: the larger distance sum of its order first (rev_field) */
        uint32_t g = node_g(nodes_at(&f->ns, c));
        if (f->use_rev) {
            rev_field(f, stuck);
            g = f->rsum;
        }
        if (best == NODE_NONE || stuck < best_stuck || (stuck == best_stuck && g > best_g)) {
            best = c;
            best_stuck = stuck;
            best_g = g;
        }
    }
    if (best == NODE_NONE)
        return NODE_NONE;
    f->st->setpos_steps += pstack_set(&f->path, &f->pos, &f->ns, best);
    memcpy(boxes, f->pos.boxes, sizeof(sq_t) * (size_t)f->b->nboxes);
    *player = f->pos.player;
    return best;
}

void fess_watch(fess *f, const backward *w)
{
    if (!w) {
        f->nmeet = 0;
        return;
    }
    for (int k = 0; k < f->nmeet; k++)
        if (f->meet[k] == w)
            return;
    if (f->nmeet == FESS_WATCH_MAX)
        die("internal error: fess_watch: more than %d backward searches", FESS_WATCH_MAX);
    f->meet[f->nmeet++] = w;
}

void fess_share_patterns(fess *f, stuck_table *t)
{
    if (f->stk)
        f->stk = t;
}

const node_store *fess_nodes(const fess *f)
{
    return &f->ns;
}

int fess_plan_replaced_order(const fess *f)
{
    return f->pl.n > 0 && f->pk.n > 0;
}

int fess_plan_other(const fess *f)
{
    if (f->pl.n == 0 || !f->pl.passed_over)
        return -1;
    return f->pl.order == PLAN_BY_DONE ? PLAN_PICK_CELLS : PLAN_PICK_DONE;
}

int fess_plan_complete(const fess *f)
{
    return f->pl.n > 0 && f->pl.complete;
}

int fess_step(fess *f, uint64_t node_budget)
{
    if (f->finished)
        return 1;
    for (;;) {
        if (node_budget && f->st->nodes >= node_budget)
            return 0;
        if (limits_hit(f))
            break;
        uint32_t ci = pick_cell(f);
        if (ci == UINT32_MAX) {
            f->stop = STOP_EXHAUSTED;
            break;
        }
        fentry e = cell_pop(&f->cells[ci]);
        if (expand(f, ci, e))
            break;
    }
    f->out->stop = f->stop;
    f->finished = 1;
    return 1;
}

void fess_end(fess *f)
{
    search_outcome *out = f->out;
    membudget *mem = f->mem;
    if (f->goal != NODE_NONE) {
        if (!f->met)
            nodes_path(&f->ns, f->goal, &out->pushes);
        out->solved = 1;
        out->stop = STOP_NONE;
    }
    out->st.mem_bytes = mem->peak;
    for (uint32_t i = 0; i < f->ncells; i++)
        mem_free(mem, f->cells[i].heap, sizeof(fentry) * f->cells[i].cap);
    mem_free(mem, f->cells, sizeof(fcell) * f->capcells);
    mem_free(mem, f->by_rank, sizeof(uint32_t) * f->capcells);
    u32map_free(&f->cell_of);
    free(f->kids);
    if (f->walk)
        for (int q = 0; q < f->b->nsq; q++)
            free(f->walk[q]);
    free(f->walk);
    free(f->walkq);
    free(f->rfield);
    free(f->pocket);
    nodes_free(&f->ns);
    mem_free(f->mem, f->rank_of, sizeof(uint32_t) * f->rank_cap);
    mem_free(f->mem, f->below, sizeof(uint16_t) * f->below_cap);
    free(f->due);
    if (f->lb_ok)
        lb_free(&f->lb);
    free(f->rows);
    lb_sol_free(&f->sol);
    feat_free(&f->fc);
    rooms_work_free(&f->rw);
    rooms_free(&f->rm);
    hotspot_free(&f->hs);
    packing_free(&f->pk);
    plan_free(&f->pl);
    free(f->allow);
    dl_uncharge(&f->dl, f->mem);
    dl_free(&f->dl);
    free(f->mv);
    boxpath_free(&f->bp);
    reach_free(&f->r);
    reach_free(&f->rc);
    reach_free(&f->rchk);
    pstack_free(&f->path);
    pos_free(&f->pos);
    free(f);
}

void fess_solve(const board *b, const fess_config *cfg, search_limits *lim, membudget *mem,
                search_outcome *out)
{
    fess *f = fess_begin(b, cfg, lim, mem, out);
    fess_step(f, 0);
    fess_end(f);
}
