/* backward.c: the backward search (see backward.h).
 *
 * Node fields as the search uses them (nodes.h): from/to the pulled box's
 * squares, dir the opposite of the last pull's direction (so that, as for
 * a push, the player stands on nb[to][-dir] and pstack_set places him),
 * g the pulls from the root, h the direction of the first pull (what the
 * forward reading needs: the last push of the macro push goes the other
 * way). Node 0 is a virtual root, the goal boxes with no player; the real
 * roots are its children, each "moving" a goal box onto its own square
 * with the player put in the root's zone. */
#include "backward.h"
#include "boxpath.h"
#include "nodes.h"
#include "pstack.h"
#include "../analysis/distance.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../heuristic/lowerbound.h"
#include "../util/heap.h"
#include "../util/u32map.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* Expansions between limit checks. */
#define CHECK_EVERY 16
/* The virtual root's key: the goal boxes' hash XOR this. */
#define VROOT_KEY 0x6A09E667F3BCC909ull

/* With cfg->cells: a cell of the open list, the positions whose parent's best
 * cell key (cell_key) is `key`. */
typedef struct bcell {
    uint32_t key;
    heap h;
} bcell;

struct backward {
    const board *b;
    const backward_config *cfg;
    search_limits *lim;
    membudget *mem;
    stats *st;
    search_outcome *out;

    position pos;
    node_store ns;
    pstack path;
    reach r;  /* the expanded position's player region */
    reach rc; /* a child's */
    boxpath bp;
    box_move *mv;  /* [4 nsq] pulls of one box */
    uint8_t *ok;   /* [4 nsq] a box on q, the player on its side d: ok[q*4+d]
                      when some start square pushes a lone box there so */
    size_t ok_bytes;
    lowerbound lb; /* boxes to start squares */
    int lb_ok;
    lb_sol sol;    /* the expanded position's */
    lb_sol csol;   /* a child's */
    /* cfg->open == OPEN_MATCHED or OPEN_BICON: the matching of the boxes to
     * the goals */
    int glb_ok;
    lowerbound glb;
    lb_sol gsol;     /* the expanded position's */
    lb_sol gcsol;    /* a child's */
    int64_t gcost;   /* the child's matching cost, for open_key */
    /* The matchings (sol, gsol) of recently expanded positions, by node
     * index modulo lbc_n (a power of two; 0: none), in one block of the
     * budget (LBC_BYTES at most, a LBC_SHARE-th of a limited budget). An
     * expansion starts from the matching of its node or a near ancestor
     * when that differs from the position in fewer rows than the previous
     * expansion's: one augmenting path instead of a dozen (the
     * open list jumps between cells; on boards of 60 to 288 boxes the
     * re-solved rows took half of the backward halves' time). Speed only:
     * the matching's cost is exact from any feasible start. */
    uint32_t lbc_n;
    uint32_t *lbc_node; /* [lbc_n] the node in each slot, or NODE_NONE */
    lb_sol *lbc_sol;    /* [lbc_n] (with lb_ok) */
    lb_sol *lbc_gsol;   /* [lbc_n] (with glb_ok) */
    void *lbc_mem;
    size_t lbc_bytes;
    uint32_t *stamp; /* [nsq] region floods */
    uint32_t ts;
    sq_t *stack;     /* [nsq] */
    /* cfg->open == OPEN_BICON: the free floor's cycles (off_cycle) */
    uint32_t *disc, *low; /* [nsq] depth-first discovery order, low link */
    uint32_t *cyc;        /* [nsq] == ts: the square lies on a cycle */
    uint8_t *it;          /* [nsq] the next direction to try */

    heap open;         /* positions waiting for expansion (without cells) */
    /* use_cells: the open list split into cells, in creation order */
    bcell *cells;
    uint32_t ncells, capcells;
    u32map cell_map;     /* cell index by key (small: a few thousand cells) */
    uint32_t rr;         /* the round-robin's next cell */
    uint64_t steps;      /* cells served: odd steps round-robin, even the best */
    int use_cells;       /* cfg->cells with cfg->open or cfg->toward */
    uint32_t *past;      /* [past_cap] per node: the best cell key on its path */
    uint32_t past_cap;
    /* cfg->weighted (with cells): per node [wcap] the cost summed over its
     * path (WKEY_COST up) and its key without the age; the children of
     * the expansion under way, put on the open list once all are known
     * (the cost of each depends on the best of them) */
    int weighted;
    uint64_t *wkey;
    uint32_t wcap;
    struct kid { uint64_t key; uint32_t c, ck; } *kids;
    uint32_t nkids, capkids;
    uint8_t *is_start; /* [nsq] a box starts here */
    uint32_t seq;
    uint32_t best;       /* cfg->open: the best node with one region, or NODE_NONE */
    uint64_t best_key;   /* its key without the age */
    /* without cfg->open: the least (boxes off start squares, matching
     * cost) of a stored position (UINT64_MAX before the first), and the
     * positions stored when it was reached (backward_stale) */
    uint64_t near;
    uint64_t near_at;

    uint64_t start_hash; /* the start's boxes */
    uint32_t goal;
    int trivial; /* the start is solved already */
    int finished;
    stop_reason stop;
    int64_t next_progress;
    uint32_t checks;
    deadline_poll dpoll; /* the clock between checks */

    const node_store *watched[BACKWARD_WATCHED]; /* forward stores to meet */
    int nwatched;
    int met; /* the solution (out->pushes) was built at a meeting */
};

/* ---------------------------------------------------------- matchings */

/* The cache's memory at most (32 MiB stored more positions on Sasquatch VI
 * 50, and solved no more of Sasquatch IV-VII and Grigr 2001 at 20 s), */
#define LBC_BYTES ((size_t)8 << 20)
#define LBC_SHARE 32                 /* and at most this share of the budget */
#define LBC_SLOTS 4096u             /* and its slots at most */
#define LBC_UP 3                    /* ancestors looked at (with the node) */

static size_t sol_bytes(int n)
{
    size_t k = (size_t)n + 1;
    size_t bytes = k * 2 * sizeof(int64_t) + k * 2 * sizeof(int32_t) + sizeof(sq_t) * (size_t)n;
    return (bytes + 7) & ~(size_t)7;
}

static void carve_sol(lb_sol *s, char **at, int n)
{
    size_t k = (size_t)n + 1;
    s->u = (int64_t *)(void *)*at;
    s->v = s->u + k;
    s->p = (int32_t *)(void *)(s->v + k);
    s->col = s->p + k;
    s->sq = (sq_t *)(void *)(s->col + k);
    s->cost = LB_INF;
    *at += sol_bytes(n);
}

/* Sets up the cache when the budget allows; without it, every expansion
 * re-solves from the previous one. */
static void lbc_init(backward *w)
{
    int n = w->b->nboxes, kinds = w->lb_ok + w->glb_ok;
    if (kinds == 0)
        return;
    size_t slot = sizeof(uint32_t) + kinds * (sizeof(lb_sol) + sol_bytes(n));
    size_t most = LBC_BYTES;
    uint64_t limit = atomic_load(&w->mem->limit);
    if (limit && limit / LBC_SHARE < most)
        most = (size_t)(limit / LBC_SHARE);
    uint32_t k = LBC_SLOTS;
    while (k > 16 && (size_t)k * slot > most)
        k /= 2;
    if ((size_t)k * slot > most)
        return;
    size_t sols = (size_t)k * kinds * sol_bytes(n);
    size_t bytes = sols + (size_t)k * kinds * sizeof(lb_sol) + (size_t)k * sizeof(uint32_t);
    char *m = mem_alloc(w->mem, bytes);
    if (!m)
        return;
    w->lbc_mem = m;
    w->lbc_bytes = bytes;
    char *at = m; /* the solutions first: 8-byte aligned */
    lb_sol *hdr = (lb_sol *)(void *)(m + sols);
    if (w->lb_ok) {
        w->lbc_sol = hdr;
        hdr += k;
        for (uint32_t i = 0; i < k; i++)
            carve_sol(&w->lbc_sol[i], &at, n);
    }
    if (w->glb_ok) {
        w->lbc_gsol = hdr;
        hdr += k;
        for (uint32_t i = 0; i < k; i++)
            carve_sol(&w->lbc_gsol[i], &at, n);
    }
    w->lbc_node = (uint32_t *)(void *)hdr;
    for (uint32_t i = 0; i < k; i++)
        w->lbc_node[i] = NODE_NONE;
    w->lbc_n = k;
}

/* Rows of s that lb_solve would re-solve for `boxes`, counted up to stop. */
static int rows_changed(const lb_sol *s, const sq_t *boxes, int n, int stop)
{
    int d = 0;
    for (int i = 0; i < n && d < stop; i++)
        d += s->sq[i] != boxes[i] || s->col[i + 1] == 0;
    return d;
}

/* Before node n's matchings are solved (w->pos holds n): takes the cached
 * matchings of n or a near ancestor when they are closer to n's boxes
 * than the previous expansion's. */
static void lbc_start(backward *w, uint32_t n)
{
    if (!w->lbc_n)
        return;
    int nb = w->b->nboxes;
    const sq_t *boxes = w->pos.boxes;
    const lb_sol *cur = w->lb_ok ? &w->sol : &w->gsol;
    int best = rows_changed(cur, boxes, nb, nb + 1);
    uint32_t pick = NODE_NONE, c = n;
    for (int up = 0; up <= LBC_UP && best > 1 && c != NODE_NONE; up++) {
        uint32_t slot = c & (w->lbc_n - 1);
        if (w->lbc_node[slot] == c) {
            const lb_sol *s = w->lb_ok ? &w->lbc_sol[slot] : &w->lbc_gsol[slot];
            int d = rows_changed(s, boxes, nb, best);
            if (d < best) {
                best = d;
                pick = slot;
            }
        }
        c = nodes_at(&w->ns, c)->parent;
    }
    if (pick == NODE_NONE)
        return;
    if (w->lb_ok)
        lb_copy(&w->sol, &w->lbc_sol[pick], nb);
    if (w->glb_ok)
        lb_copy(&w->gsol, &w->lbc_gsol[pick], nb);
}

/* --check: the expanded position's matchings cost what fresh ones do. */
static void check_matchings(backward *w)
{
    int nb = w->b->nboxes;
    for (int k = 0; k < 2; k++) {
        if (!(k ? w->glb_ok : w->lb_ok))
            continue;
        lb_sol fresh;
        lb_sol_init(&fresh, nb);
        lowerbound *lb = k ? &w->glb : &w->lb;
        uint64_t *paths = lb->paths;
        lb->paths = NULL; /* not the search's work */
        int64_t want = lb_solve(lb, &fresh, w->pos.boxes);
        lb->paths = paths;
        if (want != (k ? w->gsol.cost : w->sol.cost))
            die("internal error: the expanded position's matching differs from a fresh one");
        lb_sol_free(&fresh);
    }
}

/* After node n's matchings are solved: keeps them. */
static void lbc_put(backward *w, uint32_t n)
{
    if (!w->lbc_n)
        return;
    uint32_t slot = n & (w->lbc_n - 1);
    int nb = w->b->nboxes;
    w->lbc_node[slot] = n;
    if (w->lb_ok)
        lb_copy(&w->lbc_sol[slot], &w->sol, nb);
    if (w->glb_ok)
        lb_copy(&w->lbc_gsol[slot], &w->gsol, nb);
}

/* ---------------------------------------------------------- cells */

static int age_bits(const backward *w);

/* The cell key of a position with `regions` free-floor regions and
 * `on_goals` boxes on goals, least best (the backward cell of Festival's
 * FESS). */
static uint32_t cell_key(int regions, int on_goals)
{
    return (uint32_t)MIN(regions, 0xFFFF) << 16 | (uint32_t)MIN(on_goals, 0xFFFF);
}

/* The array a (*cap elements of `size` bytes: per node, or the waiting
 * children), grown to hold element c (doubling from 4096), or NULL (a
 * left as it was) when memory runs out. */
static void *array_fit(backward *w, void *a, uint32_t *cap, size_t size, uint32_t c)
{
    if (c < *cap)
        return a;
    uint32_t n = *cap ? *cap : 4096;
    while (n <= c)
        n *= 2;
    void *x = mem_realloc(w->mem, a, size * *cap, size * n);
    if (x)
        *cap = n;
    return x;
}

/* Records node c's best cell key on its path. Returns -1 when memory runs
 * out. */
static int past_set(backward *w, uint32_t c, uint32_t key)
{
    uint32_t *a = array_fit(w, w->past, &w->past_cap, sizeof *a, c);
    if (!a)
        return -1;
    w->past = a;
    w->past[c] = key;
    return 0;
}

/* The cell of key `key`, created (and served next by the round-robin)
 * when new. Returns -1 when memory runs out. */
static int64_t cell_of(backward *w, uint32_t key)
{
    uint32_t k = u32map_get(&w->cell_map, key);
    if (k != U32MAP_NONE)
        return k;
    if (w->ncells == w->capcells) {
        uint32_t cap = w->capcells ? w->capcells * 2 : 64;
        bcell *a = mem_realloc(w->mem, w->cells, sizeof(bcell) * w->capcells, sizeof(bcell) * cap);
        if (!a)
            return -1;
        w->cells = a;
        w->capcells = cap;
    }
    k = w->ncells++;
    w->cells[k] = (bcell){key, {NULL, 0, 0}};
    u32map_put(&w->cell_map, key, k);
    w->rr = k; /* a new cell is served next */
    return k;
}

/* Puts node c (key `key`) on the open list; with cells: into the cell of
 * cell key `ck`. Returns -1 when memory runs out. */
static int open_push(backward *w, uint32_t ck, uint64_t key, uint32_t c)
{
    if (!w->use_cells)
        return heap_push(&w->open, w->mem, key, c);
    int64_t k = cell_of(w, ck);
    return k < 0 ? -1 : heap_push(&w->cells[k].h, w->mem, key, c);
}

/* cfg->weighted: an open-list key holds the position's cost in its top
 * WEIGHT_BITS bits and its order key below, less that many of the age's
 * bits (older first among 64 positions at a time); wkey holds the cost
 * from WKEY_COST up and the key without the age (36 bits at most). */
#define WEIGHT_BITS 6
#define WEIGHT_MAX 63u
#define WKEY_COST 56

static uint64_t weighted_key(uint64_t key, unsigned cost)
{
    return (uint64_t)cost << (64 - WEIGHT_BITS) | key >> WEIGHT_BITS;
}

/* Records node c's wkey. Returns -1 when memory runs out. */
static int wkey_set(backward *w, uint32_t c, uint64_t v)
{
    uint64_t *a = array_fit(w, w->wkey, &w->wcap, sizeof *a, c);
    if (!a)
        return -1;
    w->wkey = a;
    w->wkey[c] = v;
    return 0;
}

/* cfg->weighted: node c (order key `key`, cell key `ck`), a child of the
 * expansion under way, waits for its siblings. Returns -1 when memory
 * runs out. */
static int kid_put(backward *w, uint64_t key, uint32_t c, uint32_t ck)
{
    struct kid *a = array_fit(w, w->kids, &w->capkids, sizeof *a, w->nkids);
    if (!a)
        return -1;
    w->kids = a;
    w->kids[w->nkids++] = (struct kid){key, c, ck};
    return 0;
}

/* cfg->weighted: puts node n's new children (w->kids) on the open list,
 * each costing n's cost, plus 1 unless it is the best child and beats n.
 * Returns -1 when memory runs out. */
static int kids_flush(backward *w, uint32_t n)
{
    int ab = age_bits(w);
    uint64_t mask = ((uint64_t)1 << WKEY_COST) - 1;
    unsigned cost = (unsigned)(w->wkey[n] >> WKEY_COST);
    uint64_t bar = w->wkey[n] & mask; /* a child below beats n */
    int64_t best = -1;
    for (uint32_t j = 0; j < w->nkids; j++) {
        uint64_t k = w->kids[j].key >> ab;
        if (k < bar && (best < 0 || k < w->kids[best].key >> ab))
            best = j;
    }
    for (uint32_t j = 0; j < w->nkids; j++) {
        const struct kid *x = &w->kids[j];
        unsigned kc = MIN(cost + (j != best), WEIGHT_MAX);
        if (wkey_set(w, x->c, (uint64_t)kc << WKEY_COST | x->key >> ab) != 0 ||
            open_push(w, x->ck, weighted_key(x->key, kc), x->c) != 0)
            return -1;
    }
    w->nkids = 0;
    return 0;
}

/* The next position to expand into *e; 0 when the open list is empty.
 * With cells: odd steps serve the round-robin's next cell (in creation
 * order, skipping empty ones), even steps the best cell holding
 * positions. */
static int open_pop(backward *w, heap_item *e)
{
    if (!w->use_cells) {
        if (w->open.n == 0)
            return 0;
        *e = heap_pop(&w->open);
        return 1;
    }
    int64_t pick = -1;
    if (w->steps++ & 1) {
        uint32_t best = UINT32_MAX;
        for (uint32_t k = 0; k < w->ncells; k++)
            if (w->cells[k].h.n && w->cells[k].key < best) {
                best = w->cells[k].key;
                pick = k;
            }
    } else {
        for (uint32_t j = 0; j < w->ncells && pick < 0; j++) {
            uint32_t k = (w->rr + j) % w->ncells;
            if (w->cells[k].h.n)
                pick = k;
        }
        if (pick >= 0)
            w->rr = (uint32_t)(pick + 1) % w->ncells;
    }
    if (pick < 0)
        return 0;
    *e = heap_pop(&w->cells[pick].h);
    return 1;
}

/* The key of a position, least first: the matching cost (20 bits), the
 * boxes off start squares (12), free-floor regions (4), age (28: older
 * first; past 2^28 positions ties of age wrap, still deterministic).
 * cfg->open: the opening order instead (open_key). */
static uint64_t make_key(backward *w, int64_t cost, int onstart, int regions)
{
    uint64_t h = cost >= (int64_t)0xFFFFF ? 0xFFFFF : (uint64_t)cost;
    uint64_t off = (uint64_t)MIN(w->b->nboxes - onstart, 0xFFF);
    if (w->cfg->toward) /* Festival's REV pull order: regions first */
        return (uint64_t)MIN(regions, 0xF) << 60 | off << 48 | h << 28 | (w->seq++ & 0xFFFFFFF);
    return h << 44 | off << 32 | (uint64_t)MIN(regions, 0xF) << 28 | (w->seq++ & 0xFFFFFFF);
}

#define OPEN_AGE_BITS 36
#define BICON_AGE_BITS 28
/* The age bits of cfg->open's keys (the best position is compared without
 * them). */
static int age_bits(const backward *w)
{
    return w->cfg->open == OPEN_BICON ? BICON_AGE_BITS : OPEN_AGE_BITS;
}

static int off_cycle(backward *w);
static int off_cycle_slow(backward *w);

/* cfg->open: the opening order of the position on the board, least first
 * (an open position: the player everywhere, every box movable, the goals
 * left free): free-floor regions (4 bits), boxes that no pull moves (8),
 * the boxes' distance from the goals, larger first (16), age (36).
 * OPEN_NEAREST: every box's distance to its nearest goal, summed; stuck
 * boxes counted in every position. OPEN_MATCHED (Festival's HF order with
 * its MAX_DIST distance): the cost of the minimum matching of the boxes to
 * the goals (w->gcost, the position's), and stuck boxes counted only once
 * the free floor is one region, so that positions of several regions are
 * ordered by that distance alone. OPEN_BICON (Festival's BICON): as
 * OPEN_MATCHED with the free-floor squares that lie on no cycle (10 bits,
 * one region only) after the stuck boxes, the distance in 14 bits and the
 * age in 28. */
static uint64_t open_key(backward *w, int regions)
{
    const board *b = w->b;
    const position *p = &w->pos;
    int bicon = w->cfg->open == OPEN_BICON;
    int matched = w->cfg->open == OPEN_MATCHED || bicon;
    uint64_t spread = 0, stuck = 0;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t q = p->boxes[i];
        if (!matched)
            spread += b->near_dist[q] == DIST_INF ? 0 : b->near_dist[q];
        if (matched && regions > 1)
            continue;
        int moves = 0;
        for (int d = 0; d < 4 && !moves; d++) {
            sq_t t = b->nb[q][d]; /* the player here pulls the box towards d */
            sq_t u = t == SQ_NONE ? SQ_NONE : b->nb[t][d];
            moves = u != SQ_NONE && p->box_at[t] == NO_BOX && p->box_at[u] == NO_BOX;
        }
        stuck += !moves;
    }
    if (matched) /* a pulled position pushes back: the matching is finite */
        spread = w->gcost >= LB_INF ? 0 : (uint64_t)w->gcost;
    if (bicon) {
        uint64_t off = regions == 1 ? (uint64_t)off_cycle(w) : 0;
        if (w->cfg->check && regions == 1 && off != (uint64_t)off_cycle_slow(w))
            die("internal error: the squares on no cycle differ from a count by definition");
        return (uint64_t)MIN(regions, 0xF) << 60 | MIN(stuck, 0xFF) << 52 |
               MIN(off, 0x3FF) << 42 | (0x3FFF - MIN(spread, 0x3FFF)) << BICON_AGE_BITS |
               (w->seq++ & ((1ull << BICON_AGE_BITS) - 1));
    }
    return (uint64_t)MIN(regions, 0xF) << 60 | MIN(stuck, 0xFF) << 52 |
           (0xFFFF - MIN(spread, 0xFFFF)) << OPEN_AGE_BITS |
           (w->seq++ & ((1ull << OPEN_AGE_BITS) - 1));
}

/* The key of node c, the position on the board; cfg->open: c becomes the
 * best when it has one region and a smaller key without the age (ties:
 * the older). */
static uint64_t node_key(backward *w, uint32_t c, int64_t cost, int onstart, int regions)
{
    if (!w->cfg->open) {
        uint64_t nk = (uint64_t)(w->b->nboxes - onstart) << 32 |
                      (uint64_t)(cost < 0 ? 0 : MIN(cost, (int64_t)UINT32_MAX));
        if (nk < w->near) {
            w->near = nk;
            w->near_at = w->st->nodes;
        }
        return make_key(w, cost, onstart, regions);
    }
    uint64_t key = open_key(w, regions);
    int ab = age_bits(w);
    if (regions == 1 && (w->best == NODE_NONE || key >> ab < w->best_key)) {
        w->best = c;
        w->best_key = key >> ab;
    }
    return key;
}

/* Boxes on start squares in the position on the board. */
static int on_start(const backward *w)
{
    int n = 0;
    for (int i = 0; i < w->b->nboxes; i++)
        n += w->is_start[w->pos.boxes[i]];
    return n;
}

/* ---------------------------------------------------------- analysis */

static uint32_t new_stamp(backward *w)
{
    if (++w->ts == 0) {
        memset(w->stamp, 0, sizeof(uint32_t) * (size_t)w->b->nsq);
        if (w->cyc)
            memset(w->cyc, 0, sizeof(uint32_t) * (size_t)w->b->nsq);
        w->ts = 1;
    }
    return w->ts;
}

/* Floods the squares free of walls and of `block` from `from`; returns the
 * first direction e (from `block`) whose neighbour of `block` is reached,
 * or -1 when none is. */
static int side_reached(backward *w, sq_t block, sq_t from)
{
    const board *b = w->b;
    uint32_t ts = new_stamp(w);
    int sp = 0;
    w->stamp[from] = ts;
    w->stack[sp++] = from;
    while (sp > 0) {
        sq_t q = w->stack[--sp];
        for (int e = 0; e < 4; e++)
            if (b->nb[block][e] == q)
                return e;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[q][d];
            if (t == SQ_NONE || t == block || w->stamp[t] == ts)
                continue;
            w->stamp[t] = ts;
            w->stack[sp++] = t;
        }
    }
    return -1;
}

/* Lone-box push reach from the start squares: fills w->ok and, in dist
 * (nboxes * nsq, as b->goal_dist), the pushes from each start square to
 * each square (the best side). The box starts with the player in the side
 * component of its square that holds the start player. */
static void start_reach(backward *w, uint16_t *dist)
{
    const board *b = w->b;
    int n = b->nsq;
    uint8_t *comp = distance_side_components(b);
    uint16_t *sd = xmalloc(sizeof(uint16_t) * (size_t)n * 4);
    int32_t *queue = xmalloc(sizeof(int32_t) * (size_t)n * 4);
    uint8_t *fwd = xcalloc((size_t)n * 4, 1);
    for (int j = 0; j < b->nboxes; j++) {
        sq_t s = b->start_boxes[j];
        int e = side_reached(w, s, b->start_player);
        if (e >= 0) {
            distance_push(b, comp, s, comp[s * 4 + e], sd, queue);
        } else {
            for (int i = 0; i < n * 4; i++)
                sd[i] = DIST_INF;
        }
        uint16_t *row = dist + (size_t)j * (size_t)n;
        for (int t = 0; t < n; t++) {
            uint16_t m = DIST_INF;
            for (int c = 0; c < 4; c++)
                if (sd[t * 4 + c] != DIST_INF) {
                    fwd[t * 4 + c] = 1;
                    m = MIN(m, sd[t * 4 + c]);
                }
            row[t] = m;
        }
        row[s] = 0; /* a box that never moves */
    }
    for (int t = 0; t < n; t++)
        for (int d = 0; d < 4; d++) {
            uint8_t c = comp[t * 4 + d];
            w->ok[t * 4 + d] = c != 0xFF && (!w->cfg->reach || fwd[t * 4 + c]);
        }
    free(fwd);
    free(queue);
    free(sd);
    free(comp);
}

/* Free-floor regions of the position on the board. */
static int regions(backward *w)
{
    const board *b = w->b;
    const position *p = &w->pos;
    uint32_t ts = new_stamp(w);
    int n = 0;
    for (int q0 = 0; q0 < b->nsq; q0++) {
        if (p->box_at[q0] != NO_BOX || w->stamp[q0] == ts)
            continue;
        n++;
        int sp = 0;
        w->stamp[q0] = ts;
        w->stack[sp++] = (sq_t)q0;
        while (sp > 0) {
            sq_t q = w->stack[--sp];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t == SQ_NONE || p->box_at[t] != NO_BOX || w->stamp[t] == ts)
                    continue;
                w->stamp[t] = ts;
                w->stack[sp++] = t;
            }
        }
    }
    return n;
}

/* The regions of a child whose pull macro move took the box from `from`
 * to `to` (on the board), from the expanded position's regions `rg`, when
 * the walk that made the move had the forest of the floor, its box
 * lifted (w->bp.bk_ready; otherwise -1): the lifted box's graph has
 * rg + 1 - pieces(from) regions and the child that - 1 + pieces(to). */
static int child_regions(backward *w, int rg, sq_t from, sq_t to)
{
    if (!w->bp.bk_ready || rg < 0)
        return -1;
    return rg - boxpath_lifted_pieces(&w->bp, w->b, from) + boxpath_lifted_pieces(&w->bp, w->b, to);
}

/* Marks square q as on a cycle (stamp ts); 1 when it was not yet. */
static inline int on_cycle(backward *w, sq_t q, uint32_t ts)
{
    int fresh = w->cyc[q] != ts;
    w->cyc[q] = ts;
    return fresh;
}

/* Free-floor squares of the position on the board that lie on no cycle of
 * the free floor (the player cannot walk round them: corridors, dead ends,
 * the squares a box wall leaves as a tree). A square lies on a cycle when
 * one of its edges is not a bridge: a back edge of the depth-first search,
 * or a tree edge whose lower end reaches above it (Tarjan's low links).
 * Iterative, O(free squares). */
static int off_cycle(backward *w)
{
    const board *b = w->b;
    const position *p = &w->pos;
    uint32_t ts = new_stamp(w), time = 0;
    int nfree = 0, on = 0;
    for (int q0 = 0; q0 < b->nsq; q0++) {
        if (p->box_at[q0] != NO_BOX || w->stamp[q0] == ts)
            continue;
        int sp = 0;
        w->stamp[q0] = ts;
        w->disc[q0] = w->low[q0] = ++time;
        w->it[q0] = 0;
        w->stack[sp++] = (sq_t)q0;
        nfree++;
        while (sp > 0) {
            sq_t q = w->stack[sp - 1];
            sq_t par = sp > 1 ? w->stack[sp - 2] : SQ_NONE;
            if (w->it[q] < 4) {
                sq_t t = b->nb[q][w->it[q]++];
                if (t == SQ_NONE || p->box_at[t] != NO_BOX || t == par)
                    continue;
                if (w->stamp[t] != ts) { /* a tree edge */
                    w->stamp[t] = ts;
                    w->disc[t] = w->low[t] = ++time;
                    w->it[t] = 0;
                    w->stack[sp++] = t;
                    nfree++;
                } else if (w->disc[t] < w->disc[q]) { /* a back edge: a cycle */
                    w->low[q] = MIN(w->low[q], w->disc[t]);
                    on += on_cycle(w, q, ts) + on_cycle(w, t, ts);
                }
                continue;
            }
            sp--;
            if (par == SQ_NONE)
                continue;
            w->low[par] = MIN(w->low[par], w->low[q]);
            if (w->low[q] <= w->disc[par]) /* not a bridge */
                on += on_cycle(w, q, ts) + on_cycle(w, par, ts);
        }
    }
    return nfree - on;
}

/* --check: off_cycle's count by its definition, edge by edge: q lies on a
 * cycle when some free neighbour t is reached from q without the edge
 * (q, t). O(squares^2): for the tests. */
static int off_cycle_slow(backward *w)
{
    const board *b = w->b;
    const position *p = &w->pos;
    int off = 0;
    for (int q = 0; q < b->nsq; q++) {
        if (p->box_at[q] != NO_BOX)
            continue;
        int on = 0;
        for (int d = 0; d < 4 && !on; d++) {
            sq_t t = b->nb[q][d];
            if (t == SQ_NONE || p->box_at[t] != NO_BOX)
                continue;
            uint32_t ts = new_stamp(w);
            int sp = 0;
            w->stamp[q] = ts;
            w->stack[sp++] = (sq_t)q;
            while (sp > 0 && !on) {
                sq_t x = w->stack[--sp];
                for (int e = 0; e < 4; e++) {
                    sq_t y = b->nb[x][e];
                    if (y == SQ_NONE || p->box_at[y] != NO_BOX || w->stamp[y] == ts ||
                        (x == q && e == d))
                        continue;
                    if (y == t) {
                        on = 1;
                        break;
                    }
                    w->stamp[y] = ts;
                    w->stack[sp++] = y;
                }
            }
        }
        off += !on;
    }
    return off;
}

/* Whether a box other than the one on `moved` stands where no start square
 * pushes a lone box with the player on the side he reaches (r holds his
 * region in p). The sides of a box the player reaches all lie in one side
 * component of its square, so the first one found decides. */
static int misplaced(const backward *w, const position *p, const reach *r, sq_t moved)
{
    const board *b = w->b;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t t = p->boxes[i];
        if (t == moved || !reach_box(r, t))
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t s = b->nb[t][d];
            if (s != SQ_NONE && reach_floor(r, s)) {
                if (!w->ok[t * 4 + d])
                    return 1;
                break;
            }
        }
    }
    return 0;
}

/* Whether the position on the board is the start: its boxes, the start
 * player in w->rc. */
static int at_start(const backward *w)
{
    const board *b = w->b;
    const position *p = &w->pos;
    if (p->hash != w->start_hash || !reach_floor(&w->rc, b->start_player))
        return 0;
    for (int i = 0; i < b->nboxes; i++)
        if (p->box_at[b->start_boxes[i]] == NO_BOX)
            return 0;
    return 1;
}

/* ---------------------------------------------------------- search */

static int limits_hit(backward *w)
{
    if (search_deadline_passed(w->lim, &w->dpoll)) {
        w->stop = STOP_TIME;
        return 1;
    }
    if (++w->checks < CHECK_EVERY)
        return 0;
    w->checks = 0;
    w->st->mem_bytes = w->mem->peak;
    stop_reason sr = search_check_limits(w->lim, w->st, &w->next_progress);
    if (sr == STOP_NONE)
        return 0;
    w->stop = sr;
    return 1;
}

/* From node x up to its root, each pull read forwards: the pushes from
 * x's position to the goal. */
static void backward_pushes_from(const backward *w, uint32_t x0, push_seq *out)
{
    const node_store *ns = &w->ns;
    for (uint32_t x = x0;; x = nodes_at(ns, x)->parent) {
        const node *nd = nodes_at(ns, x);
        const node *pn = nodes_at(ns, nd->parent);
        if (pn->parent == NODE_NONE)
            break; /* x is a root */
        push_seq_add(out, nd->to, nd->from, DIR_OPP(node_h(nd)), node_g(nd) - node_g(pn));
    }
}

void backward_meet_path(const backward *w, uint32_t x, const node_store *fwd, uint32_t fnode,
                        push_seq *out)
{
    out->n = 0; /* nodes_path fills from the front */
    nodes_path(fwd, fnode, out);
    backward_pushes_from(w, x, out);
}

/* Whether the new node c (key hash) is a position a watched forward
 * search stored; if so, the solution goes through it: built now, while the
 * forward store is sure to exist. */
static int meet(backward *w, uint64_t hash, uint32_t c)
{
    for (int k = 0; k < w->nwatched; k++) {
        uint32_t x = nodes_find(w->watched[k], hash);
        if (x == NODE_NONE)
            continue;
        backward_meet_path(w, c, w->watched[k], x, &w->out->pushes);
        w->goal = c;
        w->met = 1;
        w->st->meetings++;
        return 1;
    }
    return 0;
}

/* Expands node n: stores its new children and queues them. Returns 1 when
 * the search must stop (the start found, or memory spent). */
static int expand(backward *w, uint32_t n)
{
    const board *b = w->b;
    position *p = &w->pos;
    w->st->setpos_steps += pstack_set(&w->path, p, &w->ns, n);
    if (w->cfg->check) {
        int rc = pos_check(p);
        if (rc)
            die("internal error: position check failed (code %d)", rc);
    }
    node *nd = nodes_at(&w->ns, n);
    node_close(nd);
    uint32_t g = node_g(nd);
    reach_compute(&w->r, p, p->player);
    w->st->reach_calls++;
    lbc_start(w, n);
    if (w->lb_ok)
        lb_solve(&w->lb, &w->sol, p->boxes);
    if (w->glb_ok)
        lb_solve(&w->glb, &w->gsol, p->boxes);
    if (w->cfg->check) /* --check: a matching from the cache is exact */
        check_matchings(w);
    lbc_put(w, n);
    w->st->expanded++;
    w->nkids = 0; /* left by an expansion that ended the search */
    const uint8_t *ok = w->cfg->reach ? w->ok : NULL;
    uint32_t ck = 0; /* with cells: the children's cell */
    int prg = -1;     /* the expanded position's regions, once needed */
    int on_goals = 0; /* the expanded position's boxes on goals */
    if (w->use_cells) {
        ck = w->past[n];
        for (int i = 0; i < b->nboxes; i++)
            on_goals += b->is_goal[p->boxes[i]];
    }
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        if (!reach_box(&w->r, from))
            continue;
        int nm = boxpath_pulls(&w->bp, p, &w->r, from, ok, w->mv);
        if (w->bp.bk_ready && prg < 0)
            prg = boxpath_regions(&w->bp); /* the expanded position's: the forest's */
        w->st->generated += (uint64_t)nm;
        w->st->cut_dead += w->bp.refused;
        w->bp.refused = 0;
        for (int k = 0; k < nm; k++) {
            const box_move *m = &w->mv[k];
            uint32_t ng = g + m->pushes;
            if (ng > NODE_MAX_G)
                continue;
            sq_t pl = b->nb[m->to][m->dir];
            undo_rec u;
            pos_relocate(p, from, m->to, pl, &u);
            /* the child's region from the parent's (w->r), flooding only
             * what the freed square opens up; the forest of this box's walk
             * (the floor with the box lifted) tells whether its new square
             * splits the floor */
            int opieces = w->bp.bk_ready && boxpath_lifted_has(&w->bp, b, m->to)
                              ? boxpath_lifted_pieces(&w->bp, b, m->to) : -1;
            int kfresh;
            sq_t norm = reach_after_move_known(&w->rc, &w->r, p, from, m->to, pl,
                                               opieces >= 0 && opieces <= 1, &kfresh);
            w->st->reach_calls += kfresh;
            w->st->reach_reused += !kfresh;
            if (w->cfg->check && (w->rc.norm != norm || reach_check(&w->rc, p, pl) != 0))
                die("internal error: a child's region from its parent's differs from a flood");
            uint64_t hash = p->hash ^ b->zplayer[norm];
            if (nodes_find(&w->ns, hash) != NODE_NONE) {
                w->st->duplicates++;
                pos_undo(p, &u);
                continue;
            }
            int goal = at_start(w);
            int64_t cost = 0;
            if (!goal) {
                if (w->cfg->reach && misplaced(w, p, &w->rc, m->to)) {
                    w->st->cut_dead++;
                    pos_undo(p, &u);
                    continue;
                }
                if (w->lb_ok) {
                    lb_copy(&w->csol, &w->sol, b->nboxes);
                    cost = lb_move(&w->lb, &w->csol, i, m->to);
                    if (cost == LB_INF) {
                        w->st->cut_bipartite++;
                        pos_undo(p, &u);
                        continue;
                    }
                }
            }
            uint32_t c = nodes_add(&w->ns, hash, n, from, m->to, DIR_OPP(m->dir), ng, m->first);
            if (c == NODE_NONE) {
                w->stop = STOP_MEMORY;
                pos_undo(p, &u);
                return 1;
            }
            w->st->nodes++;
            if (ng > w->st->max_depth)
                w->st->max_depth = ng;
            if (goal) {
                w->goal = c;
                pos_undo(p, &u);
                return 1;
            }
            if (meet(w, hash, c)) {
                pos_undo(p, &u);
                return 1;
            }
            int rg = child_regions(w, prg, from, m->to);
            if (rg < 0)
                rg = regions(w);
            else if (w->cfg->check && rg != regions(w))
                die("internal error: a child's regions from the blocks differ from a count");
            int os = on_start(w);
            if (w->glb_ok) {
                lb_copy(&w->gcsol, &w->gsol, b->nboxes);
                w->gcost = lb_move(&w->glb, &w->gcsol, i, m->to);
                if (w->cfg->check) { /* --check: the incremental cost is exact */
                    lb_sol fresh;
                    lb_sol_init(&fresh, b->nboxes);
                    if (lb_solve(&w->glb, &fresh, p->boxes) != w->gcost)
                        die("internal error: the goal matching's cost differs from a fresh one");
                    lb_sol_free(&fresh);
                }
            }
            uint64_t key = node_key(w, c, cost, os, rg);
            int con = on_goals - b->is_goal[from] + b->is_goal[m->to];
            if (w->use_cells && past_set(w, c, MIN(ck, cell_key(rg, con))) != 0) {
                w->stop = STOP_MEMORY;
                pos_undo(p, &u);
                return 1;
            }
            pos_undo(p, &u);
            if (w->weighted ? kid_put(w, key, c, ck) : open_push(w, ck, key, c)) {
                w->stop = STOP_MEMORY;
                return 1;
            }
        }
    }
    if (w->weighted && kids_flush(w, n) != 0) {
        w->stop = STOP_MEMORY;
        return 1;
    }
    return 0;
}

/* Stores the roots: the goal boxes, one per zone of free floor with a
 * pull, in order of their normalized squares. Returns -1 when memory runs
 * out, 1 when the deadline passes during the roots' matching (one
 * assignment over every box: tens of milliseconds on a board of 240 boxes,
 * several times that under the sanitizers). */
static int add_roots(backward *w, uint32_t vroot)
{
    const board *b = w->b;
    position *p = &w->pos;
    int64_t cost = w->lb_ok ? lb_solve_by(&w->lb, &w->sol, p->boxes, w->lim->deadline_ns) : 0;
    if (cost == LB_STOPPED)
        return 1;
    if (cost == LB_INF)
        return 0; /* no box can reach some start square: no solution */
    int rg = regions(w);
    for (sq_t q = 0; q < b->nsq; q++) {
        if (p->box_at[q] != NO_BOX)
            continue;
        /* a pull in direction d: the box on nb[q][-d], the player on q,
         * the square beyond q free */
        int pull = -1;
        for (int d = 0; d < 4 && pull < 0; d++) {
            sq_t box = b->nb[q][DIR_OPP(d)], beyond = b->nb[q][d];
            if (box != SQ_NONE && p->box_at[box] != NO_BOX && beyond != SQ_NONE &&
                p->box_at[beyond] == NO_BOX)
                pull = d;
        }
        if (pull < 0)
            continue;
        sq_t norm = reach_compute(&w->r, p, q);
        w->st->reach_calls++;
        if (!board_end_ok(b, &w->r))
            continue; /* the player must end elsewhere */
        uint64_t hash = p->hash ^ b->zplayer[norm];
        if (nodes_find(&w->ns, hash) != NODE_NONE)
            continue; /* a zone already rooted */
        sq_t box = b->nb[q][DIR_OPP(pull)];
        uint32_t c = nodes_add(&w->ns, hash, vroot, box, box, DIR_OPP(pull), 0, 0);
        uint32_t ck = cell_key(rg, b->nboxes); /* every box on a goal */
        if (c == NODE_NONE || (w->use_cells && past_set(w, c, ck) != 0))
            return -1;
        uint64_t key = node_key(w, c, cost, on_start(w), rg);
        if (w->weighted && wkey_set(w, c, key >> age_bits(w)) != 0)
            return -1; /* a root costs 0 */
        if (open_push(w, ck, w->weighted ? weighted_key(key, 0) : key, c) != 0)
            return -1;
        w->st->nodes++;
    }
    return 0;
}

backward *backward_begin(const board *b, const backward_config *cfg, search_limits *lim,
                         membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "backward";
    backward *w = xcalloc(1, sizeof *w);
    w->b = b;
    w->cfg = cfg;
    w->lim = lim;
    w->mem = mem;
    w->st = &out->st;
    w->out = out;
    w->goal = NODE_NONE;
    w->best = NODE_NONE;
    w->near = UINT64_MAX;
    w->use_cells = cfg->cells && (cfg->open || cfg->toward);
    w->weighted = w->use_cells && cfg->weighted;
    if (w->use_cells)
        u32map_init(&w->cell_map, 256);
    pos_init(&w->pos, b);
    w->start_hash = w->pos.hash;
    if (pos_solved(&w->pos)) {
        w->trivial = 1;
        w->finished = 1;
        return w;
    }
    pstack_init(&w->path);
    reach_init(&w->r, b->nsq);
    reach_init(&w->rc, b->nsq);
    boxpath_init(&w->bp, b->nsq);
    w->mv = xmalloc(sizeof(box_move) * (size_t)b->nsq * 4);
    w->stamp = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    w->stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    lb_sol_init(&w->sol, b->nboxes);
    lb_sol_init(&w->csol, b->nboxes);
    w->is_start = xcalloc((size_t)b->nsq, 1);
    for (int i = 0; i < b->nboxes; i++)
        w->is_start[b->start_boxes[i]] = 1;
    w->next_progress = search_first_progress(lim);
    w->finished = 1;
    out->stop = STOP_MEMORY;
    if (nodes_init(&w->ns, mem) != 0)
        return w;
    w->ok_bytes = (size_t)b->nsq * 4;
    w->ok = mem_alloc(mem, w->ok_bytes);
    size_t dist_bytes = sizeof(uint16_t) * (size_t)b->nboxes * (size_t)b->nsq;
    uint16_t *dist = mem_alloc(mem, dist_bytes);
    if (!w->ok || !dist) {
        mem_free(mem, dist, dist_bytes);
        return w;
    }
    start_reach(w, dist);
    int rc = lb_init_table(&w->lb, b, dist, cfg->matching, mem);
    mem_free(mem, dist, dist_bytes);
    if (rc != 0)
        return w;
    w->lb_ok = 1;
    w->lb.paths = &w->st->matching_paths;
    if (cfg->open == OPEN_BICON) {
        w->disc = xmalloc(sizeof(uint32_t) * (size_t)b->nsq);
        w->low = xmalloc(sizeof(uint32_t) * (size_t)b->nsq);
        w->cyc = xcalloc((size_t)b->nsq, sizeof(uint32_t));
        w->it = xmalloc((size_t)b->nsq);
    }
    if (cfg->open == OPEN_MATCHED || cfg->open == OPEN_BICON) {
        if (lb_init(&w->glb, b, 1, mem) != 0)
            return w;
        w->glb_ok = 1;
        w->glb.paths = &w->st->matching_paths;
        lb_sol_init(&w->gsol, b->nboxes);
        lb_sol_init(&w->gcsol, b->nboxes);
        w->gcost = 0; /* the roots: every box on a goal */
    }
    lbc_init(w);
    /* The virtual root: the goal boxes, the player on any free square. */
    sq_t pl = 0;
    while (b->is_goal[pl])
        pl++;
    pos_set(&w->pos, b->goals, pl);
    uint32_t vroot = nodes_add(&w->ns, w->pos.hash ^ VROOT_KEY, NODE_NONE, 0, 0, 0, 0, 0);
    if (vroot == NODE_NONE)
        return w;
    undo_rec none = {0, 0, 0, 0};
    pstack_push(&w->path, vroot, &none);
    int rr = add_roots(w, vroot);
    if (rr > 0)
        out->stop = STOP_TIME;
    if (rr != 0)
        return w;
    out->stop = STOP_NONE;
    w->finished = 0;
    return w;
}

int backward_step(backward *w, uint64_t node_budget)
{
    if (w->finished)
        return 1;
    for (;;) {
        if (node_budget && w->st->nodes >= node_budget)
            return 0;
        if (limits_hit(w))
            break;
        heap_item e;
        if (!open_pop(w, &e)) {
            w->stop = STOP_EXHAUSTED;
            break;
        }
        if (node_closed(nodes_at(&w->ns, e.val)))
            continue;
        if (expand(w, e.val))
            break;
    }
    w->out->stop = w->stop;
    w->finished = 1;
    return 1;
}

uint32_t backward_best(backward *w, sq_t *boxes, sq_t *player)
{
    if (w->best == NODE_NONE)
        return NODE_NONE;
    w->st->setpos_steps += pstack_set(&w->path, &w->pos, &w->ns, w->best);
    memcpy(boxes, w->pos.boxes, sizeof(sq_t) * (size_t)w->b->nboxes);
    *player = w->pos.player;
    return w->best;
}

uint32_t backward_find(const backward *w, uint64_t hash)
{
    if (w->trivial || w->ns.count == 0)
        return NODE_NONE;
    uint32_t x = nodes_find(&w->ns, hash);
    /* node 0 is the virtual root, no position */
    return x == 0 ? NODE_NONE : x;
}

void backward_watch(backward *w, const node_store *fwd)
{
    if (w->nwatched < BACKWARD_WATCHED)
        w->watched[w->nwatched++] = fwd;
}

void backward_unwatch(backward *w, const node_store *fwd)
{
    for (int k = 0; k < w->nwatched; k++)
        if (w->watched[k] == fwd) {
            w->watched[k] = w->watched[--w->nwatched];
            return;
        }
}


void backward_end(backward *w)
{
    search_outcome *out = w->out;
    membudget *mem = w->mem;
    if (w->goal != NODE_NONE || w->trivial) {
        if (w->goal != NODE_NONE && !w->met)
            backward_pushes_from(w, w->goal, &out->pushes);
        out->solved = 1;
        out->stop = STOP_NONE;
    }
    out->st.mem_bytes = mem->peak;
    if (!w->trivial) {
        heap_free(&w->open, mem);
        for (uint32_t k = 0; k < w->ncells; k++)
            heap_free(&w->cells[k].h, mem);
        mem_free(mem, w->cells, sizeof(bcell) * w->capcells);
        mem_free(mem, w->past, sizeof(uint32_t) * w->past_cap);
        mem_free(mem, w->wkey, sizeof(uint64_t) * w->wcap);
        mem_free(mem, w->kids, sizeof(struct kid) * w->capkids);
        free(w->is_start);
        nodes_free(&w->ns);
        mem_free(mem, w->ok, w->ok_bytes);
        mem_free(mem, w->lbc_mem, w->lbc_bytes);
        if (w->lb_ok)
            lb_free(&w->lb);
        lb_sol_free(&w->sol);
        lb_sol_free(&w->csol);
        if (w->glb_ok) {
            lb_free(&w->glb);
            lb_sol_free(&w->gsol);
            lb_sol_free(&w->gcsol);
        }
        free(w->stamp);
        free(w->stack);
        free(w->disc);
        free(w->low);
        free(w->cyc);
        free(w->it);
        free(w->mv);
        boxpath_free(&w->bp);
        reach_free(&w->r);
        reach_free(&w->rc);
        pstack_free(&w->path);
    }
    u32map_free(&w->cell_map); /* (zeroed when unused) */
    pos_free(&w->pos);
    free(w);
}

void backward_walk_floods(backward *w, int budget)
{
    w->bp.flood_budget = budget;
}

int backward_cuts(backward *w, const position *p)
{
    if (!w->lb_ok)
        return 0;
    reach_compute(&w->rc, p, p->player);
    if (w->cfg->reach && misplaced(w, p, &w->rc, SQ_NONE))
        return 1;
    lb_sol s;
    lb_sol_init(&s, w->b->nboxes);
    int64_t cost = lb_solve(&w->lb, &s, p->boxes);
    lb_sol_free(&s);
    return cost == LB_INF ? 2 : 0;
}

void backward_solve(const board *b, const backward_config *cfg, search_limits *lim,
                    membudget *mem, search_outcome *out)
{
    backward *w = backward_begin(b, cfg, lim, mem, out);
    backward_step(w, 0);
    backward_end(w);
}

uint64_t backward_stale(const backward *w)
{
    return w->st->nodes - w->near_at;
}
