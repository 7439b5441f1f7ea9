/* basesearch.c: the base search that makes the packing plan (see
 * basesearch.h). */
#include "basesearch.h"
#include "../analysis/packing.h"
#include "../core/blocks.h"
#include "../util/heap.h"
#include "../util/mem.h"
#include "../util/timer.h"
#include "../util/u32map.h"
#include "../util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_DEFAULT_NODES 50000u
#define PLAN_CELLS_SHORT 2000u /* see plan_pick */
#define FAR_WALK 6 /* an eliminated base is at least this many steps away */
/* A pull walk answers its first sides by floods; once one flood visits
 * more squares than this, it builds the blocks of the floor (blocks.h) and
 * answers the rest from them. Speed only: the answers are the same. */
#define SIDES_FLOOD_BUDGET 48

/* A position of the base search; its box and base sets live in `bits`. */
typedef struct bnode {
    int32_t parent; /* -1 for a root */
    sq_t from, to;  /* the pull that made it: a box from `from` to `to` */
    sq_t player;    /* normalized player square */
    uint8_t elim;   /* the pull eliminated the box and the base on `to` */
    int16_t done;   /* boxes eliminated or standing on a base */
    int16_t left;   /* boxes still on the board */
    int32_t depth;  /* pull moves from the root */
    uint32_t cell;  /* PLAN_BY_CELLS: the cell it waits in */
    uint64_t bp;    /* PLAN_BY_CELLS: the best (smallest) score on its path
                       from a root, itself included (see add_node) */
} bnode;

typedef struct pull_move {
    sq_t to, player;
    int pulls;
} pull_move;

typedef struct pend_move {
    sq_t from, to, player;
} pend_move;

typedef struct basesearch {
    const board *b;
    membudget *mem; /* every array below, in the caller's budget */
    void *scratch;  /* the fixed arrays, carved from one block (scratch_carve) */
    size_t scratch_bytes;
    int nsq, W; /* bitset words per set */
    bnode *node;
    uint64_t *bits; /* [2 * W] per node: boxes, then remaining bases */
    uint32_t nnodes, cap; /* cap: node[]'s; bits_cap: bits[]'s (they grow apart) */
    uint32_t bits_cap;
    uint32_t *table; /* node index + 1, 0 = empty */
    uint32_t tmask;
    heap *heaps;     /* [nboxes + 1] waiting positions by boxes done */
    uint32_t nwaiting;
    uint32_t rr;     /* round robin over the heaps */
    /* PLAN_BY_CELLS: positions filed by the features of their best past */
    int cells;
    heap *cell;         /* [ncells] waiting positions, in creation order */
    uint32_t ncells, cell_cap;
    u32map cell_index;  /* a cell's key -> its index */
    uint32_t cell_rr;   /* round robin over the cells in creation order */
    uint32_t best_score; /* the node with the smallest score */
    uint64_t best_score_val;
    /* the position being expanded */
    uint8_t *occ;     /* [nsq] a box stands here */
    uint8_t *base;    /* [nsq] a remaining base */
    uint8_t *reach_any; /* [nsq] some remaining base pushes a lone box here */
    uint32_t *stamp;  /* [nsq] floods */
    uint32_t ts;
    sq_t *stack;      /* [nsq] */
    int32_t *dist;    /* [nsq] bounded walks */
    /* pull paths of one box */
    uint32_t *mark, *side_stamp; /* [4 * nsq] */
    uint8_t *side_mask;          /* [4 * nsq] */
    int32_t *queue, *pdepth;     /* [4 * nsq] */
    uint32_t pstamp;
    blocks bk;        /* the floor's blocks with the walking box lifted */
    int bk_ready;     /* bk is built for the current pull walk */
    pull_move *moves; /* [4 * nsq] */
    pend_move *pend;  /* pulls waiting while no pull eliminates */
    uint32_t npend, pend_cap;
    uint8_t *base_reach; /* [nboxes * nsq]: start box i pushes a lone box to s */
    /* matching */
    int *match_base; /* [nboxes] the expanded node's box of each base, or -1 */
    int *cmatch;     /* [nboxes] a child's matching (child_matchable) */
    int *seen;       /* [nboxes] bases visited, by stamp */
    int *bseen;      /* [nboxes] boxes matched, by stamp */
    int seen_stamp;
    sq_t *mboxes;    /* [nboxes] the expanded node's boxes */
    int *mbases;     /* [nboxes] its remaining bases, as base indices */
    int *box_at;     /* [nsq] a box square's index in mboxes */
    int *base_at;    /* [nsq] a base square's index in mbases */
    int mnbx, mnba;  /* their counts */
    int pdef;        /* boxes the node's maximum matching leaves; -1 not yet */
    uint64_t *tmp;   /* [2 * W] child sets */
    uint32_t best;   /* the node with most boxes done, first found */
    int64_t deadline_ns; /* 0: none; polled per box of an expansion */
    int late;        /* the deadline passed during an expansion */
} basesearch;

static uint32_t new_stamp(basesearch *s)
{
    if (++s->ts == 0) {
        memset(s->stamp, 0, sizeof(uint32_t) * (size_t)s->nsq);
        s->ts = 1;
    }
    return s->ts;
}

/* Floods the free floor from `from` (occ blocks) with stamp ts; returns
 * the smallest square reached. */
static sq_t fill(basesearch *s, sq_t from, uint32_t ts)
{
    const board *b = s->b;
    int sp = 0;
    sq_t lo = from;
    s->stamp[from] = ts;
    s->stack[sp++] = from;
    while (sp > 0) {
        sq_t q = s->stack[--sp];
        if (q < lo)
            lo = q;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[q][d];
            if (t == SQ_NONE || s->occ[t] || s->stamp[t] == ts)
                continue;
            s->stamp[t] = ts;
            s->stack[sp++] = t;
        }
    }
    return lo;
}

/* fill() under a new stamp. */
static sq_t flood(basesearch *s, sq_t from)
{
    return fill(s, from, new_stamp(s));
}

/* The sides of the box on `box` that a player on `pl` reaches, or -1
 * when the flood visits more than `budget` squares (0: no budget). */
static int sides_reached(basesearch *s, sq_t box, sq_t pl, int budget)
{
    const board *b = s->b;
    int want = 0, got = 0;
    for (int d = 0; d < 4; d++) {
        sq_t t = b->nb[box][d];
        if (t != SQ_NONE && !s->occ[t])
            want |= 1 << d;
        if (t == pl)
            got |= 1 << d;
    }
    if (got == want)
        return got;
    uint32_t ts = new_stamp(s);
    int head = 0, tail = 0;
    s->stamp[pl] = ts;
    s->stack[tail++] = pl;
    while (head < tail) {
        if (budget && tail > budget)
            return -1;
        sq_t q = s->stack[head++];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[q][d];
            if (t == SQ_NONE || s->stamp[t] == ts || s->occ[t])
                continue;
            s->stamp[t] = ts;
            s->stack[tail++] = t;
            for (int e = 0; e < 4; e++)
                if (b->nb[box][e] == t)
                    got |= 1 << e;
            if (got == want)
                return got;
        }
    }
    return got;
}

/* sides_reached for a state of a pull walk: the box on `box` (s->occ
 * marks it), the player on its neighbour in direction dpl. Floods while
 * they stay small; then the blocks of the floor with the box lifted. */
static int walk_sides(basesearch *s, sq_t box, int dpl)
{
    const board *b = s->b;
    if (!s->bk_ready) {
        int got = sides_reached(s, box, b->nb[box][dpl], SIDES_FLOOD_BUDGET);
        if (got >= 0)
            return got;
        s->occ[box] = 0;
        blocks_build(&s->bk, b, s->occ, box);
        s->occ[box] = 1;
        s->bk_ready = 1;
    }
    int got = blocks_sides(&s->bk, b, box, dpl);
    DEBUG_CHECK(got == sides_reached(s, box, b->nb[box][dpl], 0));
    return got;
}

/* Every pull macro move of the box on `from`; the player's region must be
 * stamped `region` in s->stamp on entry (the flood is redone as needed).
 * One move per destination square and player region, fewest pulls first;
 * boxes are pulled only through squares some remaining base reaches.
 * s->occ is unchanged on return. Returns the count, moves in s->moves. */
static int pull_moves(basesearch *s, sq_t from, sq_t player)
{
    const board *b = s->b;
    if (++s->pstamp == 0) {
        memset(s->mark, 0, sizeof(uint32_t) * (size_t)s->nsq * 4);
        memset(s->side_stamp, 0, sizeof(uint32_t) * (size_t)s->nsq * 4);
        s->pstamp = 1;
    }
    uint32_t ps = s->pstamp;
    int head = 0, tail = 0, n = 0;
    s->bk_ready = 0;
    int sides0 = sides_reached(s, from, player, 0);
    for (int d = 0; d < 4; d++)
        if (sides0 & (1 << d)) {
            s->side_stamp[from * 4 + d] = ps;
            s->side_mask[from * 4 + d] = (uint8_t)sides0;
            s->mark[from * 4 + d] = ps;
        }
    /* pull in direction d: the player on nb[box][d] steps on to the square
     * beyond, the box follows onto nb[box][d]; the player ends on side d */
    for (int d = 0; d < 4; d++) {
        sq_t q = b->nb[from][d];
        if (!(sides0 & (1 << d)))
            continue;
        sq_t qq = b->nb[q][d];
        if (qq == SQ_NONE || s->occ[qq] || !s->reach_any[q])
            continue;
        int ns = q * 4 + d;
        s->mark[ns] = ps;
        s->pdepth[ns] = 1;
        s->queue[tail++] = ns;
    }
    sq_t cur = from;
    while (head < tail) {
        int st = s->queue[head++];
        if (s->side_stamp[st] == ps)
            continue;
        sq_t box = (sq_t)(st / 4);
        sq_t pl = b->nb[box][st % 4];
        if (box != cur) {
            s->occ[cur] = 0;
            s->occ[box] = 1;
            cur = box;
        }
        int sides = walk_sides(s, box, st % 4);
        for (int d = 0; d < 4; d++)
            if (sides & (1 << d)) {
                s->side_stamp[box * 4 + d] = ps;
                s->side_mask[box * 4 + d] = (uint8_t)sides;
            }
        s->moves[n].to = box;
        s->moves[n].player = pl;
        s->moves[n].pulls = s->pdepth[st];
        n++;
        for (int d = 0; d < 4; d++) {
            if (!(sides & (1 << d)))
                continue;
            sq_t q = b->nb[box][d];
            sq_t qq = b->nb[q][d];
            if (qq == SQ_NONE || s->occ[qq] || !s->reach_any[q])
                continue;
            int ns = q * 4 + d;
            if (s->mark[ns] == ps)
                continue;
            s->mark[ns] = ps;
            s->pdepth[ns] = s->pdepth[st] + 1;
            s->queue[tail++] = ns;
        }
    }
    if (cur != from) {
        s->occ[cur] = 0;
        s->occ[from] = 1;
    }
    return n;
}

/* Whether `to` is at least FAR_WALK steps of walking from `from` on the
 * empty board. */
static int far_apart(basesearch *s, sq_t from, sq_t to)
{
    const board *b = s->b;
    uint32_t ts = new_stamp(s);
    int head = 0, tail = 0;
    s->stamp[from] = ts;
    s->dist[from] = 0;
    s->stack[tail++] = from;
    while (head < tail) {
        sq_t q = s->stack[head++];
        if (q == to)
            return 0;
        if (s->dist[q] + 1 >= FAR_WALK)
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[q][d];
            if (t == SQ_NONE || s->stamp[t] == ts)
                continue;
            s->stamp[t] = ts;
            s->dist[t] = s->dist[q] + 1;
            s->stack[tail++] = t;
        }
    }
    return 1;
}

static int base_index(const board *b, sq_t sq)
{
    int lo = 0, hi = b->nboxes - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (b->start_boxes[mid] == sq)
            return mid;
        if (b->start_boxes[mid] < sq)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Kuhn's augmenting path from box k (an index into s->mboxes) over the
 * bases s->mbases, base `skip` left out (-1: none); `match` gives each
 * base's box or -1. A free base first (the chain of matched bases from the
 * first one is long on boards of hundreds of boxes, see fixed.c); the
 * size of the matching does not depend on it. */
static int augment(basesearch *s, int *match, int k, int nbases, int skip)
{
    for (int j = 0; j < nbases; j++)
        if (match[j] < 0 && j != skip && s->base_reach[(size_t)s->mbases[j] * s->nsq + s->mboxes[k]]) {
            match[j] = k;
            return 1;
        }
    for (int j = 0; j < nbases; j++) {
        int bi = s->mbases[j];
        if (j == skip || s->seen[j] == s->seen_stamp ||
            !s->base_reach[(size_t)bi * s->nsq + s->mboxes[k]])
            continue;
        s->seen[j] = s->seen_stamp;
        /* matched: a free base it reaches was taken above */
        if (augment(s, match, match[j], nbases, skip)) {
            match[j] = k;
            return 1;
        }
    }
    return 0;
}

/* A new stamp for s->seen and s->bseen (both cleared before it wraps). */
static void new_seen(basesearch *s)
{
    if (s->seen_stamp == INT_MAX) {
        memset(s->seen, 0, sizeof(int) * (size_t)s->b->nboxes);
        memset(s->bseen, 0, sizeof(int) * (size_t)s->b->nboxes);
        s->seen_stamp = 0;
    }
    s->seen_stamp++;
}

/* A maximum matching of node k's boxes to its remaining bases, each box
 * pushable from its base (lone box, empty board), kept in s->match_base
 * for the children (child_matchable). s->pdef is the number of boxes it
 * leaves unmatched (more than the bases: no child can be matched). */
static void parent_match(basesearch *s, uint32_t k)
{
    const uint64_t *bx = s->bits + (size_t)k * 2 * s->W, *ba = bx + s->W;
    int nbx = 0, nba = 0;
    for (int w = 0; w < s->W; w++) {
        for (uint64_t m = bx[w]; m; m &= m - 1) {
            sq_t q = (sq_t)(w * 64 + __builtin_ctzll(m));
            s->box_at[q] = nbx;
            s->mboxes[nbx++] = q;
        }
        for (uint64_t m = ba[w]; m; m &= m - 1) {
            sq_t q = (sq_t)(w * 64 + __builtin_ctzll(m));
            s->base_at[q] = nba;
            s->mbases[nba++] = base_index(s->b, q);
        }
    }
    s->mnbx = nbx;
    s->mnba = nba;
    if (nbx != nba) {
        s->pdef = 2;
        return;
    }
    for (int j = 0; j < nba; j++)
        s->match_base[j] = -1;
    int def = 0;
    for (int i = 0; i < nbx && def < 2; i++) {
        new_seen(s);
        if (!augment(s, s->match_base, i, nba, -1))
            def++;
    }
    s->pdef = def;
}

/* Whether the child of the node of parent_match that eliminates the box on
 * q and the base on t can match every remaining box to a remaining base.
 * Exact, as a matching from scratch: the parent's maximum matching less
 * the two pairs that touch q and t, augmented from each box left free
 * (the child's matching is at most one pair smaller than the parent's
 * maximum, so with two boxes unmatched there no child matches). */
static int child_matchable(basesearch *s, sq_t q, sq_t t)
{
    if (s->pdef >= 2)
        return 0;
    int n = s->mnba, iq = s->box_at[q], jt = s->base_at[t];
    int *m = s->cmatch;
    memcpy(m, s->match_base, sizeof(int) * (size_t)n);
    m[jt] = -1;
    new_seen(s); /* marks the boxes still matched */
    for (int j = 0; j < n; j++) {
        if (m[j] == iq)
            m[j] = -1;
        else if (m[j] >= 0)
            s->bseen[m[j]] = s->seen_stamp;
    }
    int mark = s->seen_stamp;
    for (int i = 0; i < s->mnbx; i++) {
        if (i == iq || s->bseen[i] == mark)
            continue;
        new_seen(s);
        if (!augment(s, m, i, n, jt))
            return 0;
    }
    return 1;
}

#ifdef KEEPER_DEBUG
/* child_matchable's answer by a matching from scratch (debug builds check
 * every answer against it). Leaves s->cmatch changed. */
static int child_matchable_scratch(basesearch *s, sq_t q, sq_t t)
{
    int n = s->mnba, iq = s->box_at[q], jt = s->base_at[t];
    if (s->mnbx != n)
        return 0;
    for (int j = 0; j < n; j++)
        s->cmatch[j] = -1;
    for (int i = 0; i < s->mnbx; i++) {
        if (i == iq)
            continue;
        new_seen(s);
        if (!augment(s, s->cmatch, i, n, jt))
            return 0;
    }
    return 1;
}
#endif

static uint64_t hash_sets(const basesearch *s, const uint64_t *sets, sq_t player)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)player;
    for (int w = 0; w < 2 * s->W; w++)
        h = board_mix64(h ^ sets[w]) + (uint64_t)w;
    return h;
}

static int grow_table(basesearch *s)
{
    uint32_t size = (s->tmask + 1) * 2;
    uint32_t *t = mem_calloc(s->mem, sizeof(uint32_t) * size);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < s->nnodes; i++) {
        const uint64_t *sets = s->bits + (size_t)i * 2 * s->W;
        uint32_t h = (uint32_t)hash_sets(s, sets, s->node[i].player) & (size - 1);
        while (t[h])
            h = (h + 1) & (size - 1);
        t[h] = i + 1;
    }
    mem_free(s->mem, s->table, sizeof(uint32_t) * (s->tmask + 1));
    s->table = t;
    s->tmask = size - 1;
    return 0;
}

/* The next position to expand: on odd turns the best waiting one (most
 * boxes done), on even turns the heaps by boxes done in turn, so that a
 * greedy line stuck on a plateau does not starve the others (as the
 * feature-space search serves its cells in turn). */
static uint32_t next_node(basesearch *s, uint64_t turn)
{
    int nb = s->b->nboxes;
    int pick = -1;
    if (turn & 1) {
        for (int d = nb; d >= 0 && pick < 0; d--)
            if (s->heaps[d].n > 0)
                pick = d;
    } else {
        for (int i = 0; i <= nb && pick < 0; i++) {
            int d = (int)((s->rr + (uint32_t)i) % (uint32_t)(nb + 1));
            if (s->heaps[d].n > 0)
                pick = d;
        }
        s->rr = (uint32_t)(pick + 1);
    }
    s->nwaiting--;
    return heap_pop(&s->heaps[pick]).val;
}

/* PLAN_BY_CELLS: the next position: on odd turns from the cells in turn
 * (a new cell is served next), on even turns from the cell of the best
 * position so far (when it still holds one). */
static uint32_t next_node_cells(basesearch *s, uint64_t turn)
{
    heap *c = NULL;
    if (!(turn & 1)) {
        uint32_t ci = s->node[s->best_score].cell;
        if (s->cell[ci].n > 0)
            c = &s->cell[ci];
    }
    for (uint32_t i = 0; !c && i < s->ncells; i++) {
        uint32_t ci = (s->cell_rr + i) % s->ncells;
        if (s->cell[ci].n > 0) {
            c = &s->cell[ci];
            s->cell_rr = ci + 1;
        }
    }
    s->nwaiting--;
    return heap_pop(c).val;
}

/* The cell of the given key (made on first use); -1 out of memory. */
static int64_t cell_of(basesearch *s, uint32_t key)
{
    uint32_t ci = u32map_get(&s->cell_index, key);
    if (ci != U32MAP_NONE)
        return ci;
    if (s->ncells == s->cell_cap) {
        uint32_t cap = s->cell_cap ? s->cell_cap * 2 : 64;
        heap *c = mem_realloc(s->mem, s->cell, sizeof(heap) * s->cell_cap, sizeof(heap) * cap);
        if (!c)
            return -1;
        s->cell = c;
        s->cell_cap = cap;
    }
    ci = s->ncells++;
    memset(&s->cell[ci], 0, sizeof s->cell[ci]);
    u32map_put(&s->cell_index, key, ci);
    s->cell_rr = ci; /* a new cell is served next */
    return ci;
}

/* Free-floor regions of the position in s->occ, right after flood() of
 * the same position (its region, stamped, counts as one). */
static int regions(basesearch *s)
{
    const board *b = s->b;
    uint32_t ts = s->ts;
    int n = 1;
    for (int q0 = 0; q0 < b->nsq; q0++) {
        if (s->occ[q0] || s->stamp[q0] == ts)
            continue;
        n++;
        fill(s, (sq_t)q0, ts);
    }
    return n;
}

/* Adds the position in s->tmp with the player on `player` (s->occ holds
 * its boxes) unless stored already. Returns 1 when added, 0 when known,
 * -1 out of memory. */
static int add_node(basesearch *s, int32_t parent, sq_t from, sq_t to, int elim, sq_t player)
{
    sq_t norm = flood(s, player);
    uint64_t h = hash_sets(s, s->tmp, norm);
    uint32_t i = (uint32_t)h & s->tmask;
    size_t setw = (size_t)2 * s->W;
    while (s->table[i]) {
        uint32_t k = s->table[i] - 1;
        if (s->node[k].player == norm &&
            memcmp(s->bits + k * setw, s->tmp, sizeof(uint64_t) * setw) == 0)
            return 0;
        i = (i + 1) & s->tmask;
    }
    if (s->nnodes == s->cap) {
        uint32_t cap = s->cap * 2;
        uint64_t *nb = mem_realloc(s->mem, s->bits, sizeof(uint64_t) * setw * s->bits_cap,
                                   sizeof(uint64_t) * setw * cap);
        if (!nb)
            return -1;
        s->bits = nb;
        s->bits_cap = cap;
        bnode *nn = mem_realloc(s->mem, s->node, sizeof(bnode) * s->cap, sizeof(bnode) * cap);
        if (!nn)
            return -1;
        s->node = nn;
        s->cap = cap;
    }
    uint32_t k = s->nnodes++;
    memcpy(s->bits + k * setw, s->tmp, sizeof(uint64_t) * setw);
    bnode *x = &s->node[k];
    x->parent = parent;
    x->from = from;
    x->to = to;
    x->player = norm;
    x->elim = (uint8_t)elim;
    x->depth = parent < 0 ? 0 : s->node[parent].depth + 1;
    int left = 0, onbase = 0;
    const uint64_t *bx = s->tmp, *ba = s->tmp + s->W;
    for (int w = 0; w < s->W; w++) {
        left += __builtin_popcountll(bx[w]);
        onbase += __builtin_popcountll(bx[w] & ba[w]);
    }
    x->left = (int16_t)left;
    x->done = (int16_t)(s->b->nboxes - left + (onbase == left ? onbase : 0));
    if (k == 0 || x->done > s->node[s->best].done)
        s->best = k;
    s->table[i] = k + 1;
    if (2 * (uint64_t)s->nnodes > s->tmask && grow_table(s) != 0)
        return -1;
    int conn = regions(s);
    if (s->cells) {
        /* score: fewer boxes left, fewer regions, fewer boxes on goals,
         * then boxes farther from the goals */
        int ongoal = 0;
        uint32_t far = 0;
        for (int w = 0; w < s->W; w++)
            for (uint64_t m = bx[w]; m; m &= m - 1) {
                sq_t q = (sq_t)(w * 64 + __builtin_ctzll(m));
                ongoal += s->b->is_goal[q];
                far += s->b->near_dist[q] == DIST_INF ? 0 : s->b->near_dist[q];
            }
        int nleft = s->b->nboxes - x->done;
        uint64_t score = (uint64_t)MIN(nleft, 255) << 48 | (uint64_t)MIN(conn, 255) << 40 |
                         (uint64_t)MIN(ongoal, 255) << 32 | (0xFFFFFFFFu - far);
        x->bp = score;
        if (parent >= 0 && s->node[parent].bp < x->bp)
            x->bp = s->node[parent].bp;
        if (k == 0 || score < s->best_score_val) {
            s->best_score = k;
            s->best_score_val = score;
        }
        int64_t ci = cell_of(s, (uint32_t)(x->bp >> 32));
        if (ci < 0)
            return -1;
        x->cell = (uint32_t)ci;
        uint64_t key = (uint64_t)MIN(x->depth, 4095) << 48 | (uint64_t)MIN(conn, 255) << 40 |
                       (uint64_t)MIN(ongoal, 255) << 32 | k;
        if (heap_push(&s->cell[ci], s->mem, key, k) != 0)
            return -1;
    } else {
        uint64_t key = (uint64_t)MIN(conn, 255) << 44 | (uint64_t)MIN(x->depth, 4095) << 32 | k;
        if (heap_push(&s->heaps[x->done], s->mem, key, k) != 0)
            return -1;
    }
    s->nwaiting++;
    return 1;
}

static void load(basesearch *s, uint32_t k)
{
    const uint64_t *bx = s->bits + (size_t)k * 2 * s->W, *ba = bx + s->W;
    memset(s->occ, 0, (size_t)s->nsq);
    memset(s->base, 0, (size_t)s->nsq);
    for (int w = 0; w < s->W; w++) {
        for (uint64_t m = bx[w]; m; m &= m - 1)
            s->occ[w * 64 + __builtin_ctzll(m)] = 1;
        for (uint64_t m = ba[w]; m; m &= m - 1)
            s->base[w * 64 + __builtin_ctzll(m)] = 1;
    }
    memset(s->reach_any, 0, (size_t)s->nsq);
    for (int i = 0; i < s->b->nboxes; i++) {
        if (!s->base[s->b->start_boxes[i]])
            continue;
        const uint8_t *r = s->base_reach + (size_t)i * s->nsq;
        for (int q = 0; q < s->nsq; q++)
            s->reach_any[q] |= r[q];
    }
}

static inline void set_bit(uint64_t *v, sq_t q) { v[q / 64] |= 1ull << (q % 64); }
static inline void clear_bit(uint64_t *v, sq_t q) { v[q / 64] &= ~(1ull << (q % 64)); }

/* Stores the child of node k (on the board in s->occ) where the box on q
 * is pulled to `to`, eliminated there when `elim`, the player ending on
 * `player`. Returns add_node's answer. */
static int add_child(basesearch *s, uint32_t k, sq_t q, sq_t to, int elim, sq_t player)
{
    size_t setw = (size_t)2 * s->W;
    memcpy(s->tmp, s->bits + k * setw, sizeof(uint64_t) * setw);
    clear_bit(s->tmp, q);
    if (elim)
        clear_bit(s->tmp + s->W, to);
    else
        set_bit(s->tmp, to);
    /* occ for the child's player flood and regions */
    s->occ[q] = 0;
    if (!elim)
        s->occ[to] = 1;
    int r = add_node(s, (int32_t)k, q, to, elim, player);
    if (!elim)
        s->occ[to] = 0;
    s->occ[q] = 1;
    return r;
}

/* Expands node k: its pulls become children. When some pull eliminates,
 * only eliminating pulls are kept, the first (fewest pulls) of each box;
 * the other pulls wait in s->pend until it is known that none does.
 * Returns -1 out of memory. */
static int expand(basesearch *s, uint32_t k)
{
    const board *b = s->b;
    load(s, k);
    sq_t player = s->node[k].player;
    int any_elim = 0;
    s->npend = 0;
    s->pdef = -1;
    for (sq_t q = 0; q < b->nsq; q++) {
        if (!s->occ[q])
            continue;
        /* On boards of hundreds of boxes one expansion can take seconds. */
        if (s->deadline_ns && timer_now_ns() > s->deadline_ns) {
            s->late = 1;
            return 0;
        }
        int n = pull_moves(s, q, player);
        for (int i = 0; i < n; i++) {
            const pull_move *m = &s->moves[i];
            if (s->base[m->to] && m->to != q && far_apart(s, q, m->to)) {
                if (s->pdef < 0)
                    parent_match(s, k);
                int ok = child_matchable(s, q, m->to);
#ifdef KEEPER_DEBUG
                if (ok != child_matchable_scratch(s, q, m->to))
                    die("plan: the incremental matching disagrees with a fresh one");
#endif
                if (ok) {
                    any_elim = 1;
                    if (add_child(s, k, q, m->to, 1, m->player) < 0)
                        return -1;
                    break;
                }
            }
            if (any_elim)
                continue;
            if (s->npend == s->pend_cap) {
                uint32_t cap = s->pend_cap ? s->pend_cap * 2 : 1024;
                pend_move *e = mem_realloc(s->mem, s->pend, sizeof(pend_move) * s->pend_cap,
                                           sizeof(pend_move) * cap);
                if (!e)
                    return -1;
                s->pend = e;
                s->pend_cap = cap;
            }
            s->pend[s->npend++] = (pend_move){q, m->to, m->player};
        }
    }
    for (uint32_t i = 0; i < s->npend && !any_elim; i++)
        if (add_child(s, k, s->pend[i].from, s->pend[i].to, 0, s->pend[i].player) < 0)
            return -1;
    return 0;
}

/* Base i pushes a lone box to which squares (the player is assumed able
 * to get behind the box wherever that square is floor). */
static void compute_base_reach(basesearch *s)
{
    const board *b = s->b;
    for (int i = 0; i < b->nboxes; i++) {
        uint8_t *r = s->base_reach + (size_t)i * s->nsq;
        int head = 0, tail = 0;
        r[b->start_boxes[i]] = 1;
        s->stack[tail++] = b->start_boxes[i];
        while (head < tail) {
            sq_t q = s->stack[head++];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d], behind = b->nb[q][DIR_OPP(d)];
                if (t == SQ_NONE || behind == SQ_NONE || r[t])
                    continue;
                r[t] = 1;
                s->stack[tail++] = t;
            }
        }
    }
}

static void basesearch_free(basesearch *s)
{
    membudget *m = s->mem;
    if (s->node)
        mem_free(m, s->node, sizeof(bnode) * s->cap);
    if (s->bits)
        mem_free(m, s->bits, sizeof(uint64_t) * 2 * (size_t)s->W * s->bits_cap);
    if (s->table)
        mem_free(m, s->table, sizeof(uint32_t) * (s->tmask + 1));
    if (s->heaps)
        for (int d = 0; d <= s->b->nboxes; d++)
            heap_free(&s->heaps[d], m);
    for (uint32_t i = 0; i < s->ncells; i++)
        heap_free(&s->cell[i], m);
    if (s->cell)
        mem_free(m, s->cell, sizeof(heap) * s->cell_cap);
    u32map_free(&s->cell_index);
    if (s->pend)
        mem_free(m, s->pend, sizeof(pend_move) * s->pend_cap);
    if (s->scratch)
        mem_free(m, s->scratch, s->scratch_bytes);
    blocks_free(&s->bk);
}

/* Turns the pulls from the root to node `best` into forward steps. */
static int extract(basesearch *s, uint32_t best, plan *pl)
{
    const board *b = s->b;
    int nsq = s->nsq;
    int K = s->node[best].depth;
    uint32_t *path = xmalloc(sizeof(uint32_t) * (size_t)(K + 1));
    for (uint32_t k = best, i = (uint32_t)K;; k = (uint32_t)s->node[k].parent, i--) {
        path[i] = k;
        if (s->node[k].parent < 0)
            break;
    }
    /* box identities: goal index at the root */
    int *id_at = xmalloc(sizeof(int) * (size_t)nsq);
    for (int q = 0; q < nsq; q++)
        id_at[q] = -1;
    for (int j = 0; j < b->nboxes; j++)
        id_at[b->goals[j]] = j;
    int *mv_id = xmalloc(sizeof(int) * (size_t)(K + 1));
    for (int i = 1; i <= K; i++) {
        const bnode *x = &s->node[path[i]];
        int id = id_at[x->from];
        id_at[x->from] = -1;
        if (!x->elim)
            id_at[x->to] = id;
        mv_id[i] = id;
    }
    int cap = b->nboxes + K;
    plan_step *st = xmalloc(sizeof(plan_step) * (size_t)cap);
    int *sid = xmalloc(sizeof(int) * (size_t)cap);
    int n = 0;
    /* boxes left standing come first */
    const uint64_t *ba = s->bits + (size_t)best * 2 * s->W + s->W;
    int left = 0;
    for (int q = 0; q < nsq; q++)
        if (id_at[q] >= 0) {
            st[n].sq = (sq_t)q;
            st[n].from = SQ_NONE;
            sid[n++] = id_at[q];
            if (!(ba[q / 64] >> (q % 64) & 1))
                left++;
        }
    for (int i = K; i >= 1; i--) {
        const bnode *x = &s->node[path[i]];
        st[n].sq = x->from;
        st[n].from = x->to;
        sid[n++] = mv_id[i];
    }
    /* a box moved twice in a row only passes through: merge (a box left
     * standing keeps its own step: it is there from the start) */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && sid[m - 1] == sid[i] && st[m - 1].sq == st[i].from &&
            st[m - 1].from != SQ_NONE) {
            st[m - 1].sq = st[i].sq;
            continue;
        }
        st[m] = st[i];
        sid[m++] = sid[i];
    }
    n = 0;
    for (int i = 0; i < m; i++)
        if (st[i].sq != st[i].from) {
            st[n] = st[i];
            sid[n++] = sid[i];
        }
    pl->parked = 0;
    for (int i = 0; i < n; i++) {
        st[i].until = -1;
        for (int j = i + 1; j < n; j++)
            if (sid[j] == sid[i]) {
                st[i].until = j;
                break;
            }
        if (!b->is_goal[st[i].sq] && st[i].from != SQ_NONE)
            pl->parked++;
    }
    pl->n = n;
    pl->step = st;
    pl->left = left;
    pl->complete = left == 0;
    free(sid);
    free(mv_id);
    free(id_at);
    free(path);
    return 0;
}


/* The search's fixed arrays, carved in turn from the block at `at` (zeroed);
 * with at == NULL only measured. Returns the bytes they take. */
static size_t scratch_carve(basesearch *s, char *at)
{
    const board *b = s->b;
    size_t n4 = (size_t)b->nsq * 4, nsq = (size_t)b->nsq, nb = (size_t)b->nboxes, off = 0;
#define CARVE(field, count)                                                          \
    do {                                                                             \
        if (at)                                                                      \
            s->field = (void *)(at + off);                                           \
        off += (sizeof *s->field * (count) + 15) & ~(size_t)15;                      \
    } while (0)
    CARVE(occ, nsq);
    CARVE(base, nsq);
    CARVE(reach_any, nsq);
    CARVE(stamp, nsq);
    CARVE(stack, nsq);
    CARVE(dist, nsq);
    CARVE(mark, n4);
    CARVE(side_stamp, n4);
    CARVE(side_mask, n4);
    CARVE(queue, n4);
    CARVE(pdepth, n4);
    CARVE(moves, n4);
    CARVE(base_reach, nb * nsq);
    CARVE(match_base, nb);
    CARVE(cmatch, nb);
    CARVE(seen, nb);
    CARVE(bseen, nb);
    CARVE(box_at, nsq);
    CARVE(base_at, nsq);
    CARVE(mboxes, nb);
    CARVE(mbases, nb);
    CARVE(tmp, 2 * (size_t)s->W);
    CARVE(heaps, nb + 1);
#undef CARVE
    return off;
}

int plan_compute(plan *pl, const board *b, membudget *mem, uint64_t max_nodes,
                 int64_t deadline_ns, int order)
{
    memset(pl, 0, sizeof *pl);
    if (b->nboxes == 0)
        return 0;
    if (!max_nodes)
        max_nodes = PLAN_DEFAULT_NODES;
    membudget none;
    if (!mem) {
        mem_init(&none, 0);
        mem = &none;
    }
    basesearch s;
    memset(&s, 0, sizeof s);
    s.b = b;
    s.mem = mem;
    s.nsq = b->nsq;
    s.W = (b->nsq + 63) / 64;
    s.deadline_ns = deadline_ns;
    s.cap = s.bits_cap = 1024;
    s.node = mem_alloc(mem, sizeof(bnode) * s.cap);
    s.bits = mem_alloc(mem, sizeof(uint64_t) * 2 * (size_t)s.W * s.cap);
    s.tmask = 4095;
    s.table = mem_calloc(mem, sizeof(uint32_t) * (s.tmask + 1));
    s.scratch_bytes = scratch_carve(&s, NULL);
    s.scratch = mem_calloc(mem, s.scratch_bytes);
    s.cells = order == PLAN_BY_CELLS;
    if (s.cells)
        u32map_init(&s.cell_index, 256);
    if (!s.node || !s.bits || !s.table || !s.scratch) {
        if (!s.node)
            s.cap = 0;
        if (!s.bits)
            s.bits_cap = 0;
        basesearch_free(&s);
        return -1;
    }
    scratch_carve(&s, s.scratch);
    blocks_init(&s.bk, b->nsq);
    compute_base_reach(&s);
    /* Roots: a box on every goal, the player in each zone the goals leave
     * free (all registered before any expansion). */
    int rc = 0;
    memset(s.occ, 0, (size_t)b->nsq);
    for (int j = 0; j < b->nboxes; j++)
        s.occ[b->goals[j]] = 1;
    memset(s.tmp, 0, sizeof(uint64_t) * 2 * (size_t)s.W);
    for (int j = 0; j < b->nboxes; j++)
        set_bit(s.tmp, b->goals[j]);
    for (int i = 0; i < b->nboxes; i++)
        set_bit(s.tmp + s.W, b->start_boxes[i]);
    for (sq_t q = 0; q < b->nsq && rc >= 0; q++)
        if (!s.occ[q])
            rc = add_node(&s, -1, SQ_NONE, SQ_NONE, 0, q);
    int have = s.nnodes > 0;
    while (rc >= 0 && have && s.nwaiting > 0) {
        if (s.node[s.best].done == b->nboxes)
            break;
        if (s.late || s.nnodes >= max_nodes || (deadline_ns && timer_now_ns() > deadline_ns))
            break;
        uint32_t k = s.cells ? next_node_cells(&s, pl->expanded)
                                  : next_node(&s, pl->expanded);
        pl->expanded++;
        rc = expand(&s, k);
    }
    pl->nodes = s.nnodes;
    pl->order = order;
    if (rc < 0) {
        basesearch_free(&s);
        memset(pl, 0, sizeof *pl);
        return -1;
    }
    if (have)
        extract(&s, s.best, pl);
    basesearch_free(&s);
    if (pl->n > 0 && plan_build_zones(pl, b) != 0) {
        plan_free(pl);
        return -1;
    }
    return 0;
}

int plan_pick(plan *pl, const board *b, membudget *mem, int pick, int64_t deadline_ns)
{
    memset(pl, 0, sizeof *pl);
    if (pick == PLAN_PICK_DONE || pick == PLAN_PICK_CELLS)
        return plan_compute(pl, b, mem, 0, deadline_ns,
                            pick == PLAN_PICK_DONE ? PLAN_BY_DONE : PLAN_BY_CELLS);
    plan d, c;
    if (plan_compute(&d, b, mem, 0, deadline_ns, PLAN_BY_DONE) != 0)
        return -1;
    /* The second search is held short: to PLAN_CELLS_SHORT positions where
     * the first completes its plan, to a fifth of the default where it does
     * not. Plans cost about 1.3 s per million positions: on SokEvo the
     * first search stores 1.9 M over the 107 levels, the cells' search
     * unbounded 2.0 M more (failing on 25 levels), held short 0.34 M. The
     * simpler plans that pay (XSokoban 16, Microban III 46) take it 72 and
     * 109 positions; one it needs 7,566 for (SokEvo 85, where the first
     * search's plan took 43,927) makes the level 200 times dearer. */
    uint64_t cap = d.complete ? PLAN_CELLS_SHORT : PLAN_DEFAULT_NODES / 5;
    if (plan_compute(&c, b, mem, cap, deadline_ns, PLAN_BY_CELLS) != 0) {
        plan_free(&d);
        return -1;
    }
    /* complete over partial; of two complete plans the shorter (cells on
     * a tie), of two partial ones the one with fewer boxes left */
    int cells = c.complete != d.complete ? c.complete
                : c.complete             ? c.n <= d.n
                                         : c.left < d.left;
    plan *win = cells ? &c : &d, *lose = cells ? &d : &c;
    win->passed_over = 1;
    plan_free(lose);
    *pl = *win;
    return 0;
}

void plan_choose(plan *pl, const board *b, membudget *mem, const packing *pk, int mode,
                 int pick, int64_t deadline_ns)
{
    memset(pl, 0, sizeof *pl);
    if (mode == 2 || (mode == 1 && pk->n == 0)) {
        if (plan_pick(pl, b, mem, pick, deadline_ns) != 0)
            memset(pl, 0, sizeof *pl);
        else if (!pl->complete && pk->n > 0)
            plan_free(pl);
    }
}
