/* vicinity.c: the vicinity search (see vicinity.h). */
#include "vicinity.h"
#include "../util/heap.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define NONE32 UINT32_MAX
#define EMPTY64 UINT64_MAX

/* ------------------------------------------------------------ the trace */

void sol_trace_build(sol_trace *t, const board *b, const movelist *mv)
{
    int n = 0;
    for (int i = 0; i < mv->n; i++)
        n += (mv->m[i] & MOVE_PUSH) != 0;
    t->npushes = n;
    t->move_at = xmalloc(sizeof(int) * (size_t)(n + 1));
    t->box = xmalloc(sizeof(int) * (size_t)(n + 1));
    t->move_at[0] = -1;
    t->box[0] = -1;
    int *id = xmalloc(sizeof(int) * (size_t)b->nsq);
    for (int s = 0; s < b->nsq; s++)
        id[s] = -1;
    for (int i = 0; i < b->nboxes; i++)
        id[b->start_boxes[i]] = i;
    sq_t player = b->start_player;
    int k = 0;
    for (int i = 0; i < mv->n; i++) {
        int d = mv->m[i] & 3;
        sq_t to = b->nb[player][d];
        player = to;
        if (!(mv->m[i] & MOVE_PUSH))
            continue;
        sq_t dst = b->nb[to][d];
        t->move_at[++k] = i;
        t->box[k] = id[to];
        id[dst] = id[to];
        id[to] = -1;
    }
    free(id);
}

void sol_trace_free(sol_trace *t)
{
    free(t->move_at);
    free(t->box);
    t->move_at = NULL;
    t->box = NULL;
    t->npushes = 0;
}

/* ------------------------------------------------------------ the cloud */

/* A set of box configurations (bit sets over the inner squares), each with
 * its Zobrist key, numbered in the order they were added. */
typedef struct cloud {
    int W;           /* 64-bit words per configuration */
    uint64_t *bits;  /* [cap * W] */
    uint64_t *key;   /* [cap] */
    uint32_t n, cap;
    uint64_t *slot;  /* [tmask + 1] open addressing: the key's low 32 bits (a
                        fingerprint) above the configuration's number;
                        EMPTY64 when free */
    uint32_t tmask;
    uint32_t max;
    membudget *mem;
} cloud;

static int cloud_init(cloud *c, int W, uint32_t max, membudget *mem)
{
    memset(c, 0, sizeof *c);
    c->W = W;
    c->max = max;
    c->mem = mem;
    c->cap = 1024;
    c->tmask = 2047;
    c->bits = mem_alloc(mem, sizeof(uint64_t) * (size_t)W * c->cap);
    c->key = mem_alloc(mem, sizeof(uint64_t) * c->cap);
    c->slot = mem_alloc(mem, sizeof(uint64_t) * (c->tmask + 1));
    if (!c->bits || !c->key || !c->slot)
        return -1;
    memset(c->slot, 0xFF, sizeof(uint64_t) * (c->tmask + 1));
    return 0;
}

static void cloud_free(cloud *c)
{
    if (c->bits)
        mem_free(c->mem, c->bits, sizeof(uint64_t) * (size_t)c->W * c->cap);
    if (c->key)
        mem_free(c->mem, c->key, sizeof(uint64_t) * c->cap);
    if (c->slot)
        mem_free(c->mem, c->slot, sizeof(uint64_t) * (c->tmask + 1));
    memset(c, 0, sizeof *c);
}

static uint32_t cloud_find(const cloud *c, uint64_t key, const uint64_t *bits)
{
    const uint64_t fp = key << 32;
    for (uint32_t h = (uint32_t)(key >> 32) & c->tmask;; h = (h + 1) & c->tmask) {
        uint64_t e = c->slot[h];
        if (e == EMPTY64)
            return NONE32;
        uint32_t id = (uint32_t)e;
        if ((e & 0xFFFFFFFF00000000u) == fp && c->key[id] == key &&
            !memcmp(c->bits + (size_t)id * c->W, bits, sizeof(uint64_t) * (size_t)c->W))
            return id;
    }
}

/* Adds a configuration (no-op when present). Returns 0, or -1 when the
 * cloud is full (max) or the budget refuses. */
static int cloud_add(cloud *c, uint64_t key, const uint64_t *bits)
{
    if (cloud_find(c, key, bits) != NONE32)
        return 0;
    if (c->n >= c->max)
        return -1;
    if (c->n == c->cap) {
        uint32_t nc = c->cap * 2;
        uint64_t *nb = mem_realloc(c->mem, c->bits, sizeof(uint64_t) * (size_t)c->W * c->cap,
                                   sizeof(uint64_t) * (size_t)c->W * nc);
        if (!nb)
            return -1;
        c->bits = nb;
        uint64_t *nk = mem_realloc(c->mem, c->key, sizeof(uint64_t) * c->cap,
                                   sizeof(uint64_t) * nc);
        if (!nk)
            return -1;
        c->key = nk;
        c->cap = nc;
    }
    if ((uint64_t)(c->n + 1) * 2 > (uint64_t)c->tmask + 1) {
        uint32_t nm = c->tmask * 2 + 1;
        uint64_t *ns = mem_alloc(c->mem, sizeof(uint64_t) * ((size_t)nm + 1));
        if (!ns)
            return -1;
        memset(ns, 0xFF, sizeof(uint64_t) * ((size_t)nm + 1));
        for (uint32_t id = 0; id < c->n; id++) {
            uint32_t h = (uint32_t)(c->key[id] >> 32) & nm;
            while (ns[h] != EMPTY64)
                h = (h + 1) & nm;
            ns[h] = (c->key[id] << 32) | id;
        }
        mem_free(c->mem, c->slot, sizeof(uint64_t) * (c->tmask + 1));
        c->slot = ns;
        c->tmask = nm;
    }
    uint32_t id = c->n++;
    memcpy(c->bits + (size_t)id * c->W, bits, sizeof(uint64_t) * (size_t)c->W);
    c->key[id] = key;
    uint32_t h = (uint32_t)(key >> 32) & c->tmask;
    while (c->slot[h] != EMPTY64)
        h = (h + 1) & c->tmask;
    c->slot[h] = (key << 32) | id;
    return 0;
}

static inline void bit_set(uint64_t *w, int s) { w[s >> 6] |= (uint64_t)1 << (s & 63); }
static inline void bit_clr(uint64_t *w, int s) { w[s >> 6] &= ~((uint64_t)1 << (s & 63)); }
static inline int bit_get(const uint64_t *w, int s) { return (int)((w[s >> 6] >> (s & 63)) & 1); }

/* The start configuration of b: its boxes as a bit set and their key. */
static void start_config(const board *b, uint64_t *cur, uint64_t *key)
{
    *key = 0;
    for (int i = 0; i < b->nboxes; i++) {
        bit_set(cur, b->start_boxes[i]);
        *key ^= b->zbox[b->start_boxes[i]];
    }
}

/* Plays move `m` (a legal step of a replayed solution) on the player and
 * the configuration; returns whether it pushed. */
static int play_move(const board *b, uint8_t m, sq_t *player, uint64_t *cur, uint64_t *key)
{
    int d = m & 3;
    sq_t to = b->nb[*player][d];
    *player = to;
    if (!(m & MOVE_PUSH))
        return 0;
    sq_t dst = b->nb[to][d];
    bit_clr(cur, to);
    bit_set(cur, dst);
    *key ^= b->zbox[to] ^ b->zbox[dst];
    return 1;
}

/* -------------------------------------------------- the nearest squares */

/* For each square, up to n of the squares nearest to it (itself first),
 * by rings of Manhattan distance on the grid, each ring from the square
 * above going counter-clockwise (or clockwise); dead squares are skipped.
 * Writes near[s * n + i] and cnt[s]. */
static void nearest_squares(const board *b, int n, int clockwise, sq_t *near, int *cnt)
{
    const int maxr = b->width + b->height;
    for (int s = 0; s < b->nsq; s++) {
        int k = 0;
        int r0 = board_row(b, (sq_t)s), c0 = board_col(b, (sq_t)s);
        if (!b->dead[s])
            near[(size_t)s * n + k++] = (sq_t)s;
        for (int r = 1; r <= maxr && k < n; r++) {
            for (int q = 0; q < 4 * r && k < n; q++) {
                int side = q / r, i = q % r, dx, dy;
                switch (side) { /* up -> left -> down -> right -> up */
                case 0: dx = -i; dy = -(r - i); break;
                case 1: dx = -(r - i); dy = i; break;
                case 2: dx = i; dy = r - i; break;
                default: dx = r - i; dy = -i; break;
                }
                if (clockwise)
                    dx = -dx;
                int row = r0 + dy, col = c0 + dx;
                if (row < 0 || col < 0 || row >= b->height || col >= b->width)
                    continue;
                sq_t t = b->sq_of_cell[row * b->width + col];
                if (t == SQ_NONE || b->dead[t])
                    continue;
                near[(size_t)s * n + k++] = t;
            }
        }
        cnt[s] = k;
    }
}

/* ----------------------------------------------------------- the search */

/* A push state: configuration `cid` with the player on `sq` (where the
 * pushed box stood), reached at `cost` from `parent` by a walk and a push
 * in direction `dir`. */
typedef struct vnode {
    uint32_t cid;
    sq_t sq;
    uint8_t dir, closed;
    uint64_t cost;
    uint32_t parent;
} vnode;

typedef struct vsearch {
    const board *b;
    cloud cl;
    membudget *mem;
    vnode *nodes;
    uint32_t nn, ncap;
    uint64_t *slot; /* fingerprint (high half of the state's hash) and node */
    uint32_t tmask;
    heap open; /* states by cost: key the cost, val the node */
    search_limits *lim;
    uint64_t work; /* configurations offered to the cloud (limit checks) */
    int fit;       /* positions of the segment whose variants were all added */
    /* scratch */
    uint32_t *box_stamp, *dist_stamp, gen;
    uint16_t *dist;
    sq_t *queue, *from;
    sq_t norm; /* the smallest square the last flood reached */
} vsearch;

static inline uint64_t state_hash(uint32_t cid, sq_t sq)
{
    return board_mix64(((uint64_t)cid << 16) | sq);
}

static int grow(membudget *mem, void **p, uint32_t *cap, size_t elem)
{
    uint32_t nc = *cap ? *cap * 2 : 1024;
    void *q = mem_realloc(mem, *p, elem * *cap, elem * nc);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

/* The node of a state, created when new. Returns its number, or NONE32
 * when the budget refuses. */
static uint32_t node_get(vsearch *v, uint32_t cid, sq_t sq, int *is_new)
{
    const uint64_t hash = state_hash(cid, sq), fp = hash & 0xFFFFFFFF00000000u;
    uint32_t h = (uint32_t)hash & v->tmask;
    for (;; h = (h + 1) & v->tmask) {
        uint64_t e = v->slot[h];
        if (e == EMPTY64)
            break;
        uint32_t id = (uint32_t)e;
        if ((e & 0xFFFFFFFF00000000u) == fp && v->nodes[id].cid == cid && v->nodes[id].sq == sq) {
            *is_new = 0;
            return id;
        }
    }
    if (v->nn == v->ncap && grow(v->mem, (void **)&v->nodes, &v->ncap, sizeof(vnode)))
        return NONE32;
    if ((uint64_t)(v->nn + 1) * 2 > (uint64_t)v->tmask + 1) {
        uint32_t nm = v->tmask * 2 + 1;
        uint64_t *ns = mem_alloc(v->mem, sizeof(uint64_t) * ((size_t)nm + 1));
        if (!ns)
            return NONE32;
        memset(ns, 0xFF, sizeof(uint64_t) * ((size_t)nm + 1));
        for (uint32_t id = 0; id < v->nn; id++) {
            uint64_t hh = state_hash(v->nodes[id].cid, v->nodes[id].sq);
            uint32_t g = (uint32_t)hh & nm;
            while (ns[g] != EMPTY64)
                g = (g + 1) & nm;
            ns[g] = (hh & 0xFFFFFFFF00000000u) | id;
        }
        mem_free(v->mem, v->slot, sizeof(uint64_t) * (v->tmask + 1));
        v->slot = ns;
        v->tmask = nm;
        h = (uint32_t)hash & v->tmask;
        while (v->slot[h] != EMPTY64)
            h = (h + 1) & v->tmask;
    }
    uint32_t id = v->nn++;
    v->nodes[id] = (vnode){.cid = cid, .sq = sq, .cost = UINT64_MAX, .parent = NONE32};
    v->slot[h] = fp | id;
    *is_new = 1;
    return id;
}

/* Marks configuration cid's boxes (box_stamp == gen) and computes the
 * player's walking distances from `from` (dist_stamp == gen), keeping BFS
 * parents in v->from. */
static void flood(vsearch *v, uint32_t cid, sq_t start)
{
    const board *b = v->b;
    uint32_t g = ++v->gen;
    const uint64_t *bits = v->cl.bits + (size_t)cid * v->cl.W;
    for (int w = 0; w < v->cl.W; w++)
        for (uint64_t x = bits[w]; x; x &= x - 1)
            v->box_stamp[w * 64 + __builtin_ctzll(x)] = g;
    int head = 0, tail = 0;
    v->norm = start;
    v->queue[tail++] = start;
    v->dist_stamp[start] = g;
    v->dist[start] = 0;
    v->from[start] = SQ_NONE;
    while (head < tail) {
        sq_t s = v->queue[head++];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE || v->dist_stamp[t] == g || v->box_stamp[t] == g)
                continue;
            v->dist_stamp[t] = g;
            v->dist[t] = (uint16_t)(v->dist[s] + 1);
            v->from[t] = s;
            v->queue[tail++] = t;
            if (t < v->norm)
                v->norm = t;
        }
    }
}

static inline int reached(const vsearch *v, sq_t s) { return v->dist_stamp[s] == v->gen; }

/* Appends the walk to `to` found by the last flood (to must be reached). */
static void append_walk(vsearch *v, sq_t to, movelist *out)
{
    int n = v->dist[to];
    uint8_t *dirs = xmalloc((size_t)n + 1);
    for (int i = n - 1; i >= 0; i--) {
        sq_t p = v->from[to];
        int d = 0;
        while (v->b->nb[p][d] != to)
            d++;
        dirs[i] = (uint8_t)d;
        to = p;
    }
    for (int i = 0; i < n; i++)
        moves_add(out, dirs[i], 0);
    free(dirs);
}

static inline uint64_t step_cost(int metric, int walk)
{
    return metric == OPT_MOVES ? ((uint64_t)(walk + 1) << 32) + 1
                               : ((uint64_t)1 << 32) + (uint64_t)(walk + 1);
}

static inline uint64_t walk_cost(int metric, int walk)
{
    return metric == OPT_MOVES ? (uint64_t)walk << 32 : (uint64_t)walk;
}

static void vsearch_free(vsearch *v)
{
    membudget *m = v->mem;
    cloud_free(&v->cl);
    if (v->nodes)
        mem_free(m, v->nodes, sizeof(vnode) * v->ncap);
    if (v->slot)
        mem_free(m, v->slot, sizeof(uint64_t) * (v->tmask + 1));
    heap_free(&v->open, m);
    free(v->box_stamp);
    free(v->dist_stamp);
    free(v->dist);
    free(v->queue);
    free(v->from);
}

/* What build_cloud hands to add_variants. */
typedef struct gen_ctx {
    const sq_t *near; /* [nsq * nmax] */
    const int *cnt;
    int nmax, n1, n2;
    uint64_t *tmp;    /* [W] scratch */
    sq_t *boxes;      /* [nboxes] scratch */
} gen_ctx;

/* Checks the time limit and interrupt every 64K configurations offered. */
static int gen_stopped(vsearch *v)
{
    if ((++v->work & 0xFFFF) != 0)
        return 0;
    stats dummy;
    memset(&dummy, 0, sizeof dummy);
    int64_t next = 0;
    return search_check_limits(v->lim, &dummy, &next) != STOP_NONE;
}

/* Adds configuration `cur` and its variants: one box on one of its n1
 * nearest squares, and a second box on one of its n2 nearest. Returns 0,
 * -1 when the cloud is too big, -2 when the time is up. */
static int add_variants(vsearch *v, const gen_ctx *g, const uint64_t *cur, uint64_t key)
{
    const board *b = v->b;
    const int W = v->cl.W;
    if (cloud_add(&v->cl, key, cur))
        return -1;
    int nbx = 0;
    for (int w = 0; w < W; w++)
        for (uint64_t x = cur[w]; x; x &= x - 1)
            g->boxes[nbx++] = (sq_t)(w * 64 + __builtin_ctzll(x));
    uint64_t *tmp = g->tmp;
    for (int a = 0; a < nbx; a++) {
        sq_t sa = g->boxes[a];
        const sq_t *na = g->near + (size_t)sa * g->nmax;
        for (int i = 0; i < MIN(g->cnt[sa], g->n1); i++) {
            sq_t s = na[i];
            if (s != sa && bit_get(cur, s))
                continue;
            memcpy(tmp, cur, sizeof(uint64_t) * (size_t)W);
            bit_clr(tmp, sa);
            bit_set(tmp, s);
            uint64_t k1 = key ^ b->zbox[sa] ^ b->zbox[s];
            if (s != sa && cloud_add(&v->cl, k1, tmp))
                return -1;
            if (gen_stopped(v))
                return -2;
            for (int c = 0; c < nbx && g->n2 > 0; c++) {
                sq_t sc = g->boxes[c];
                if (c == a || sc == s)
                    continue;
                const sq_t *nc = g->near + (size_t)sc * g->nmax;
                for (int j = 0; j < MIN(g->cnt[sc], g->n2); j++) {
                    sq_t u = nc[j];
                    if (u == sc || u == s || (u != sa && bit_get(cur, u)))
                        continue;
                    bit_clr(tmp, sc);
                    bit_set(tmp, u);
                    int r = cloud_add(&v->cl, k1 ^ b->zbox[sc] ^ b->zbox[u], tmp);
                    bit_clr(tmp, u);
                    bit_set(tmp, sc);
                    if (r)
                        return -1;
                    if (gen_stopped(v))
                        return -2;
                }
            }
        }
    }
    return 0;
}

/* The squares of the boxes at push i0 (cur, key) and which of them push
 * i0 + 1 .. i1 move: replays mv with box identities. Writes the moving
 * boxes' squares at i0 into moving[] and returns their count. */
static int moving_boxes(const board *b, const movelist *mv, int i0, int i1, uint64_t *cur,
                        uint64_t *key, sq_t *player_at_i0, sq_t *moving)
{
    int *id = xmalloc(sizeof(int) * (size_t)b->nsq);
    sq_t *where = xmalloc(sizeof(sq_t) * (size_t)b->nboxes), *at_i0 = NULL;
    uint8_t *moved = xcalloc((size_t)b->nboxes, 1);
    for (int s = 0; s < b->nsq; s++)
        id[s] = -1;
    for (int i = 0; i < b->nboxes; i++) {
        id[b->start_boxes[i]] = i;
        where[i] = b->start_boxes[i];
    }
    at_i0 = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    memcpy(at_i0, where, sizeof(sq_t) * (size_t)b->nboxes);
    sq_t player = b->start_player;
    *player_at_i0 = player;
    for (int m = 0, k = 0; m < mv->n && k < i1; m++) {
        int d = mv->m[m] & 3;
        sq_t to = b->nb[player][d];
        player = to;
        if (!(mv->m[m] & MOVE_PUSH))
            continue;
        sq_t dst = b->nb[to][d];
        int x = id[to];
        id[dst] = x;
        id[to] = -1;
        where[x] = dst;
        if (++k > i0)
            moved[x] = 1;
        if (k == i0) {
            memcpy(at_i0, where, sizeof(sq_t) * (size_t)b->nboxes);
            *player_at_i0 = player;
        }
    }
    memset(cur, 0, sizeof(uint64_t) * (size_t)((b->nsq + 63) / 64));
    *key = 0;
    int n = 0;
    for (int i = 0; i < b->nboxes; i++) {
        bit_set(cur, at_i0[i]);
        *key ^= b->zbox[at_i0[i]];
        if (moved[i])
            moving[n++] = at_i0[i];
    }
    free(id);
    free(where);
    free(at_i0);
    free(moved);
    return n;
}

int sol_trace_span(const sol_trace *t, int i0, int nboxes)
{
    int seen[8], n = 0;
    if (nboxes > 8)
        nboxes = 8;
    for (int k = i0 + 1; k <= t->npushes; k++) {
        int x = t->box[k], j = 0;
        while (j < n && seen[j] != x)
            j++;
        if (j == n) {
            if (n == nboxes)
                return k - 1;
            seen[n++] = x;
        }
    }
    return t->npushes;
}

/* The permutation cloud: the boxes pushed in i0+1..i1 on every combination
 * of allowed squares. Returns 0, -1 when too big, -2 when the time is up. */
static int build_perm_cloud(vsearch *v, const movelist *mv, int i0, int i1, uint32_t *start_cid,
                            uint32_t *end_cid, sq_t *start_sq)
{
    const board *b = v->b;
    const int W = v->cl.W;
    uint64_t *cur = xcalloc((size_t)W, sizeof(uint64_t));
    uint64_t *tmp = xcalloc((size_t)W, sizeof(uint64_t));
    sq_t *moving = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    uint64_t key;
    int n = moving_boxes(b, mv, i0, i1, cur, &key, start_sq, moving);
    /* the fixed boxes, and the squares the moving boxes may take */
    uint64_t fixed_key = key;
    memcpy(tmp, cur, sizeof(uint64_t) * (size_t)W);
    for (int i = 0; i < n; i++) {
        bit_clr(tmp, moving[i]);
        fixed_key ^= b->zbox[moving[i]];
    }
    sq_t *allowed = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    int na = 0;
    for (int s = 0; s < b->nsq; s++)
        if (!b->dead[s] && !bit_get(tmp, s))
            allowed[na++] = (sq_t)s;
    int rc = 0;
    /* combinations allowed[c[0]] < allowed[c[1]] < ... */
    int c[8];
    if (n < 1 || n > 8 || n > na) {
        rc = -1;
    } else {
        for (int i = 0; i < n; i++)
            c[i] = i;
        for (;;) {
            uint64_t k2 = fixed_key;
            for (int i = 0; i < n; i++) {
                bit_set(tmp, allowed[c[i]]);
                k2 ^= b->zbox[allowed[c[i]]];
            }
            rc = cloud_add(&v->cl, k2, tmp);
            for (int i = 0; i < n; i++)
                bit_clr(tmp, allowed[c[i]]);
            if (rc || (rc = gen_stopped(v) ? -2 : 0))
                break;
            int i = n - 1;
            while (i >= 0 && c[i] == na - n + i)
                i--;
            if (i < 0)
                break;
            c[i]++;
            for (int j = i + 1; j < n; j++)
                c[j] = c[j - 1] + 1;
        }
    }
    if (!rc) {
        *start_cid = cloud_find(&v->cl, key, cur);
        /* the end configuration: replay to i1 */
        sq_t pl;
        moving_boxes(b, mv, i1, i1, cur, &key, &pl, moving);
        *end_cid = cloud_find(&v->cl, key, cur);
        if (*start_cid == NONE32 || *end_cid == NONE32)
            rc = -1; /* cannot happen: the solution's boxes are never on dead squares */
    }
    v->fit = 0;
    free(cur);
    free(tmp);
    free(moving);
    free(allowed);
    return rc;
}

/* The global cloud: every configuration within `depth` pushes of one of the
 * solution's positions after pushes i0..i1 (a breadth-first search over
 * push states from all of them at once, states told apart by the player's
 * region). Uses the node table for the visited states and empties it.
 * Returns 0, -1 when too big, -2 when the time is up. */
static int build_global_cloud(vsearch *v, const movelist *mv, int i0, int i1, int depth,
                              uint32_t *start_cid, uint32_t *end_cid, sq_t *start_sq)
{
    const board *b = v->b;
    const int W = v->cl.W;
    uint64_t *cur = xcalloc((size_t)W, sizeof(uint64_t));
    uint64_t *tmp = xmalloc(sizeof(uint64_t) * (size_t)W);
    uint64_t key;
    start_config(b, cur, &key);
    /* the queue: (configuration, player square, depth) */
    typedef struct gq {
        uint32_t cid;
        sq_t sq;
        uint16_t d;
    } gq;
    gq *q = NULL;
    int nq = 0, qcap = 0, rc = 0, is_new;
    sq_t player = b->start_player;
    for (int m = -1, k = 0; m < mv->n && k <= i1 && !rc; m++) {
        if (m >= 0) {
            if (!play_move(b, mv->m[m], &player, cur, &key))
                continue;
            k++;
        }
        if (k < i0 || k > i1)
            continue;
        if (cloud_add(&v->cl, key, cur)) {
            rc = -1;
            break;
        }
        uint32_t cid = cloud_find(&v->cl, key, cur);
        if (k == i0) {
            *start_cid = cid;
            *start_sq = player;
        }
        if (k == i1)
            *end_cid = cid;
        gq *e = vec_push(&q, &nq, &qcap, sizeof(gq));
        *e = (gq){cid, player, 0};
    }
    for (int h = 0; h < nq && !rc; h++) {
        gq e = q[h];
        flood(v, e.cid, e.sq);
        uint32_t y = node_get(v, e.cid, v->norm, &is_new);
        if (y == NONE32) {
            rc = -1;
            break;
        }
        if (!is_new || e.d >= depth)
            continue;
        const uint64_t *bits = v->cl.bits + (size_t)e.cid * W;
        const uint64_t k0 = v->cl.key[e.cid];
        for (int w = 0; w < W && !rc; w++)
            for (uint64_t xs = bits[w]; xs && !rc; xs &= xs - 1) {
                sq_t x = (sq_t)(w * 64 + __builtin_ctzll(xs));
                for (int d = 0; d < 4; d++) {
                    sq_t f = b->nb[x][d ^ 2], to = b->nb[x][d];
                    if (f == SQ_NONE || to == SQ_NONE || !reached(v, f) ||
                        v->box_stamp[to] == v->gen || b->dead[to])
                        continue;
                    memcpy(tmp, bits, sizeof(uint64_t) * (size_t)W);
                    bit_clr(tmp, x);
                    bit_set(tmp, to);
                    uint64_t k2 = k0 ^ b->zbox[x] ^ b->zbox[to];
                    if (cloud_add(&v->cl, k2, tmp)) {
                        rc = -1;
                        break;
                    }
                    if (gen_stopped(v)) {
                        rc = -2;
                        break;
                    }
                    bits = v->cl.bits + (size_t)e.cid * W; /* cloud_add may move it */
                    gq *n = vec_push(&q, &nq, &qcap, sizeof(gq));
                    *n = (gq){cloud_find(&v->cl, k2, tmp), x, (uint16_t)(e.d + 1)};
                }
            }
    }
    v->fit = 0;
    free(q);
    free(cur);
    free(tmp);
    /* empty the node table for the search */
    v->nn = 0;
    memset(v->slot, 0xFF, sizeof(uint64_t) * (v->tmask + 1));
    return rc;
}

/* Builds the cloud of the configurations after pushes i0..i1 and their
 * variants; sets the start and end configurations and the start square.
 * Returns 0, -1 when too big, -2 when the time is up. */
static int build_cloud(vsearch *v, const movelist *mv, int i0, int i1,
                       const vicinity_config *cfg, uint32_t *start_cid, uint32_t *end_cid,
                       sq_t *start_sq)
{
    const board *b = v->b;
    const int W = v->cl.W, nb = b->nboxes;
    gen_ctx g = {.n1 = MAX(cfg->near1, 1), .n2 = cfg->near2};
    g.nmax = MAX(g.n1, g.n2);
    sq_t *near = xmalloc(sizeof(sq_t) * (size_t)b->nsq * (size_t)g.nmax);
    int *cnt = xmalloc(sizeof(int) * (size_t)b->nsq);
    nearest_squares(b, g.nmax, cfg->clockwise, near, cnt);
    g.near = near;
    g.cnt = cnt;
    g.tmp = xmalloc(sizeof(uint64_t) * (size_t)W);
    g.boxes = xmalloc(sizeof(sq_t) * (size_t)nb);
    uint64_t *cur = xcalloc((size_t)W, sizeof(uint64_t));
    uint64_t key;
    start_config(b, cur, &key);
    sq_t player = b->start_player;
    int rc = 0, k = 0;
    if (i0 == 0) {
        *start_sq = player;
        rc = add_variants(v, &g, cur, key);
        *start_cid = cloud_find(&v->cl, key, cur);
    }
    for (int m = 0; m < mv->n && k < i1 && !rc; m++) {
        if (!play_move(b, mv->m[m], &player, cur, &key))
            continue;
        if (++k < i0)
            continue;
        v->fit = k - i0;
        rc = add_variants(v, &g, cur, key);
        if (k == i0) {
            *start_sq = player;
            *start_cid = cloud_find(&v->cl, key, cur);
        }
        if (k == i1)
            *end_cid = cloud_find(&v->cl, key, cur);
    }
    free(near);
    free(cnt);
    free(g.tmp);
    free(g.boxes);
    free(cur);
    return rc;
}

/* What a segment's search looks for: the end configuration and the square
 * the player must end on, at a cost no higher than the solution's; the
 * cheapest end found so far and its node. */
typedef struct vgoal {
    int metric;
    uint32_t end_cid;
    sq_t end_sq;    /* the square push i1 + 1 starts from; SQ_NONE after the last push */
    uint64_t bound; /* the segment's cost as the solution has it */
    uint64_t best;
    uint32_t best_node;
} vgoal;

/* The segment's cost as the solution has it: from after push i0 to just
 * before push i1 + 1 (the walk to it included), or to the last push; in
 * the metric's order (moves then pushes, or pushes then moves). */
static uint64_t segment_cost(const sol_trace *t, int i0, int i1, int metric)
{
    const int P = t->npushes;
    const int seg_moves = i1 < P ? t->move_at[i1 + 1] - 1 - t->move_at[i0]
                                 : t->move_at[P] - t->move_at[i0];
    const int seg_pushes = i1 - i0;
    return metric == OPT_MOVES ? ((uint64_t)seg_moves << 32) | (uint64_t)seg_pushes
                               : ((uint64_t)seg_pushes << 32) | (uint64_t)seg_moves;
}

/* Sets up v's scratch and an empty node table for board b. Returns -1
 * when the budget refuses the table (v is freed). */
static int vsearch_open(vsearch *v, const board *b, membudget *mem, search_limits *lim)
{
    memset(v, 0, sizeof *v);
    v->b = b;
    v->mem = mem;
    v->lim = lim;
    v->box_stamp = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    v->dist_stamp = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    v->dist = xmalloc(sizeof(uint16_t) * (size_t)b->nsq);
    v->queue = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    v->from = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    v->tmask = 1023;
    v->slot = mem_alloc(mem, sizeof(uint64_t) * (v->tmask + 1));
    if (!v->slot) {
        vsearch_free(v);
        return -1;
    }
    memset(v->slot, 0xFF, sizeof(uint64_t) * (v->tmask + 1));
    return 0;
}

/* Offers the children of node xi (closed, its player's region flooded):
 * every push from its configuration to one in the cloud, cheaper than the
 * bound and the best end so far. tmp: room for a configuration. Returns
 * VIC_NONE, or VIC_TOO_BIG when the budget refuses a node. */
static inline vicinity_result push_children(vsearch *v, const vgoal *g, uint32_t xi,
                                            uint64_t *tmp)
{
    const board *b = v->b;
    const int W = v->cl.W;
    const uint32_t cid = v->nodes[xi].cid;
    const uint64_t cost = v->nodes[xi].cost;
    const uint64_t *bits = v->cl.bits + (size_t)cid * W;
    const uint64_t key = v->cl.key[cid];
    int is_new;
    for (int w = 0; w < W; w++)
        for (uint64_t xs = bits[w]; xs; xs &= xs - 1) {
            sq_t s = (sq_t)(w * 64 + __builtin_ctzll(xs));
            for (int d = 0; d < 4; d++) {
                sq_t f = b->nb[s][d ^ 2], to = b->nb[s][d];
                if (f == SQ_NONE || to == SQ_NONE || !reached(v, f) ||
                    v->box_stamp[to] == v->gen || b->dead[to])
                    continue;
                uint64_t c = cost + step_cost(g->metric, v->dist[f]);
                if (c > g->bound || c >= g->best)
                    continue;
                memcpy(tmp, bits, sizeof(uint64_t) * (size_t)W);
                bit_clr(tmp, s);
                bit_set(tmp, to);
                uint32_t nc = cloud_find(&v->cl, key ^ b->zbox[s] ^ b->zbox[to], tmp);
                if (nc == NONE32)
                    continue;
                uint32_t y = node_get(v, nc, s, &is_new);
                if (y == NONE32)
                    return VIC_TOO_BIG;
                vnode *yn = &v->nodes[y]; /* node_get may move the nodes */
                if (yn->closed || yn->cost <= c)
                    continue;
                yn->cost = c;
                yn->parent = xi;
                yn->dir = (uint8_t)d;
                if (heap_push(&v->open, v->mem, c, y))
                    return VIC_TOO_BIG;
            }
        }
    return VIC_NONE;
}

/* The cheapest-first search over the cloud from the root node: pops the
 * cheapest open node, records an end in g->best and g->best_node, pushes
 * its children; until the open list holds nothing cheaper than the best
 * end. Returns VIC_NONE, VIC_STOPPED (limits) or VIC_TOO_BIG (budget). */
static vicinity_result cheapest_path(vsearch *v, vgoal *g, vicinity_stats *st)
{
    const int W = v->cl.W;
    vicinity_result res = VIC_NONE;
    stats dummy;
    memset(&dummy, 0, sizeof dummy);
    int64_t next_progress = 0;
    uint64_t *tmp = xmalloc(sizeof(uint64_t) * (size_t)W);
    uint64_t pops = 0;
    while (v->open.n > 0) {
        heap_item h = heap_pop(&v->open);
        if (h.key >= g->best)
            break;
        vnode *x = &v->nodes[h.val];
        if (x->closed || h.key != x->cost)
            continue;
        x->closed = 1;
        if ((++pops & 255) == 0 &&
            search_check_limits(v->lim, &dummy, &next_progress) != STOP_NONE) {
            res = VIC_STOPPED;
            break;
        }
        st->expanded++;
        const uint64_t cost = x->cost;
        flood(v, x->cid, x->sq);
        if (x->cid == g->end_cid) {
            if (g->end_sq == SQ_NONE || reached(v, g->end_sq)) {
                uint64_t f = cost + (g->end_sq == SQ_NONE
                                         ? 0
                                         : walk_cost(g->metric, v->dist[g->end_sq]));
                if (f < g->best && f <= g->bound) {
                    g->best = f;
                    g->best_node = h.val;
                }
            }
            if (g->end_sq == SQ_NONE)
                continue; /* solved: nothing to push */
        }
        res = push_children(v, g, h.val, tmp);
        if (res != VIC_NONE)
            break;
    }
    free(tmp);
    return res;
}

/* Writes into out the solution with the segment replaced by the path to
 * g->best_node: mv's moves up to push i0, the path's walks and pushes, the
 * walk to g->end_sq and mv's moves from push i1 + 1 on. */
static void write_segment(vsearch *v, const vgoal *g, const movelist *mv, const sol_trace *t,
                          int i0, int i1, movelist *out)
{
    const board *b = v->b;
    /* The path: the nodes from the end back to the start. */
    uint32_t n = 0;
    for (uint32_t y = g->best_node; y != NONE32; y = v->nodes[y].parent)
        n++;
    uint32_t *chain = xmalloc(sizeof(uint32_t) * n);
    uint32_t k = n;
    for (uint32_t y = g->best_node; y != NONE32; y = v->nodes[y].parent)
        chain[--k] = y;
    out->n = 0;
    for (int m = 0; m <= t->move_at[i0]; m++)
        moves_add(out, mv->m[m] & 3, (mv->m[m] & MOVE_PUSH) != 0);
    for (uint32_t j = 1; j < n; j++) {
        const vnode *p = &v->nodes[chain[j - 1]], *c = &v->nodes[chain[j]];
        flood(v, p->cid, p->sq);
        append_walk(v, b->nb[c->sq][c->dir ^ 2], out);
        moves_add(out, c->dir, 1);
    }
    if (g->end_sq != SQ_NONE) {
        const vnode *e = &v->nodes[g->best_node];
        flood(v, e->cid, e->sq);
        append_walk(v, g->end_sq, out);
        for (int m = t->move_at[i1 + 1]; m < mv->n; m++)
            moves_add(out, mv->m[m] & 3, (mv->m[m] & MOVE_PUSH) != 0);
    }
    free(chain);
}

vicinity_result vicinity_segment(const board *b, const movelist *mv, const sol_trace *t, int i0,
                                 int i1, const vicinity_config *cfg, search_limits *lim,
                                 membudget *mem, movelist *out, vicinity_stats *st)
{
    const int P = t->npushes;
    vsearch v;
    if (vsearch_open(&v, b, mem, lim) != 0)
        return VIC_TOO_BIG;
    uint32_t start_cid = NONE32;
    sq_t start_sq = SQ_NONE;
    vgoal g = {.metric = cfg->metric, .end_cid = NONE32, .end_sq = SQ_NONE,
               .bound = segment_cost(t, i0, i1, cfg->metric), .best = UINT64_MAX,
               .best_node = NONE32};
    int built = cloud_init(&v.cl, (b->nsq + 63) / 64, cfg->max_configs, mem);
    if (built == 0)
        built = cfg->permute > 0
                    ? build_perm_cloud(&v, mv, i0, i1, &start_cid, &g.end_cid, &start_sq)
                : cfg->global > 0
                    ? build_global_cloud(&v, mv, i0, i1, cfg->global, &start_cid, &g.end_cid,
                                         &start_sq)
                    : build_cloud(&v, mv, i0, i1, cfg, &start_cid, &g.end_cid, &start_sq);
    if (built) {
        st->fit = v.fit;
        st->configs += v.cl.n;
        vsearch_free(&v);
        return built == -2 ? VIC_STOPPED : VIC_TOO_BIG;
    }
    st->configs += v.cl.n;
    if (i1 < P) {
        /* Replay to the move of push i1 + 1 to learn the player's square. */
        sq_t player = b->start_player;
        for (int m = 0; m < t->move_at[i1 + 1]; m++)
            player = b->nb[player][mv->m[m] & 3];
        g.end_sq = player;
    }
    int is_new;
    uint32_t root = node_get(&v, start_cid, start_sq, &is_new);
    if (root == NONE32 || heap_push(&v.open, v.mem, 0, root)) {
        vsearch_free(&v);
        return VIC_TOO_BIG;
    }
    v.nodes[root].cost = 0;
    vicinity_result res = cheapest_path(&v, &g, st);
    st->states += v.nn;
    if (res == VIC_TOO_BIG)
        st->fit = (i1 - i0) / 2;
    if (res == VIC_NONE && g.best_node != NONE32) {
        write_segment(&v, &g, mv, t, i0, i1, out);
        res = VIC_BETTER;
    }
    vsearch_free(&v);
    return res;
}
