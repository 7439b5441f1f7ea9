/* penalty.c: IDA* over a few boxes alone (see penalty.h). */
#include "penalty.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_SIZE (1u << 16)

enum { FOUND = -1, OUT_OF_ROOM = -2 };

void penalty_init(penalty_ctx *c, const board *b, int limit, int maxk)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->limit = limit > 0 ? limit : 1;
    c->maxk = MIN(MIN(maxk, PENALTY_MAX_BOXES), b->nboxes);
    c->shell.b = b;
    c->shell.box_at = xmalloc_held(&c->held, sizeof(uint16_t) * (size_t)b->nsq);
    for (int q = 0; q < b->nsq; q++)
        c->shell.box_at[q] = NO_BOX;
    c->shell.boxes = xmalloc_held(&c->held, sizeof(sq_t) * (size_t)(c->maxk + 1));
    freeze_init(&c->fz, b);
    c->mark = xcalloc_held(&c->held, (size_t)b->nsq, sizeof(uint32_t));
    c->stack = xmalloc_held(&c->held, sizeof(sq_t) * (size_t)b->nsq);
    c->tcap = 1;
    while (c->tcap < 2u * (uint32_t)c->limit + 2)
        c->tcap <<= 1;
    c->seen = xcalloc_held(&c->held, c->tcap, sizeof(uint64_t));
    c->seen_g = xcalloc_held(&c->held, c->tcap, sizeof(uint16_t));
    c->seen_gen = xcalloc_held(&c->held, c->tcap, sizeof(uint32_t));
    c->hd = xmalloc_held(&c->held, sizeof(int64_t) * (size_t)b->nsq);
    c->gidx = xmalloc_held(&c->held, sizeof(int) * (size_t)b->nsq);
    for (int q = 0; q < b->nsq; q++)
        c->gidx[q] = -1;
    for (int gi = 0; gi < b->nboxes; gi++)
        c->gidx[b->goals[gi]] = gi;
    c->hv = xmalloc_held(&c->held, sizeof(int64_t) * (size_t)b->nboxes);
    c->ccap = CACHE_SIZE;
    c->cache_key = xcalloc_held(&c->held, c->ccap, sizeof(uint64_t));
    c->cache_val = xcalloc_held(&c->held, c->ccap, sizeof(uint16_t));
}

void penalty_free(penalty_ctx *c)
{
    free(c->shell.box_at);
    free(c->shell.boxes);
    freeze_free(&c->fz);
    free(c->mark);
    free(c->stack);
    free(c->seen);
    free(c->seen_g);
    free(c->seen_gen);
    free(c->cache_key);
    free(c->cache_val);
    free(c->hd);
    free(c->gidx);
    free(c->hv);
    memset(c, 0, sizeof *c);
}

static void place(penalty_ctx *c, const sq_t *bx, int k)
{
    for (int j = 0; j < k; j++) {
        c->shell.boxes[j] = bx[j];
        c->shell.box_at[bx[j]] = (uint16_t)j;
    }
}

static void lift(penalty_ctx *c, const sq_t *bx, int k)
{
    for (int j = 0; j < k; j++)
        c->shell.box_at[bx[j]] = NO_BOX;
}

/* The player's region on the shell from `from`, marked with c->ts; returns
 * its smallest square. */
static sq_t flood(penalty_ctx *c, sq_t from)
{
    return reach_flood_marks(c->b, c->shell.box_at, c->mark, &c->ts, c->stack, from);
}

/* Records that key was reached with g pushes in this iteration; returns 0
 * when it was reached before with g or fewer (its subtree is searched). */
static int seen_put(penalty_ctx *c, uint64_t key, int g)
{
    uint32_t i = (uint32_t)(key >> 32) & (c->tcap - 1);
    while (c->seen_gen[i] == c->gen) {
        if (c->seen[i] == key) {
            if (c->seen_g[i] <= g)
                return 0;
            c->seen_g[i] = (uint16_t)g;
            return 1;
        }
        i = (i + 1) & (c->tcap - 1);
    }
    c->seen_gen[i] = c->gen;
    c->seen[i] = key;
    c->seen_g[i] = (uint16_t)g;
    c->nodes++;
    return 1;
}

/* A push of a reduced position: box slot j from `from` to `to`. */
typedef struct pmove {
    int j;
    sq_t from, to;
} pmove;

/* The reduced position bx (player on `player`, reached with g pushes) in
 * this iteration: 0 with its pushes in mv[] (*nm of them; onto no dead
 * square, none frozen off a goal), 1 when it was reached before with g or
 * fewer (nothing to search), 2 past the search's limit. The pushes are
 * collected before the flood marks are reused by the callers' recursion. */
static int pushes_of(penalty_ctx *c, const sq_t *bx, int k, sq_t player, uint64_t hbox, int g,
                     pmove *mv, int *nm)
{
    const board *b = c->b;
    place(c, bx, k);
    sq_t norm = flood(c, player);
    int r = !seen_put(c, hbox ^ b->zplayer[norm], g) ? 1 : c->nodes > (uint32_t)c->limit ? 2 : 0;
    *nm = 0;
    for (int j = 0; j < k && r == 0; j++) {
        sq_t B = bx[j];
        for (int d = 0; d < 4; d++) {
            sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
            if (N == SQ_NONE || O == SQ_NONE || c->mark[N] != c->ts ||
                c->shell.box_at[O] != NO_BOX || b->dead[O])
                continue;
            if (!freeze_after_push(&c->fz, &c->shell, j, B, O))
                mv[(*nm)++] = (pmove){j, B, O};
        }
    }
    lift(c, bx, k);
    return r;
}

/* One IDA* iteration below the reduced position bx (player on `player`,
 * reached with g pushes): FOUND, OUT_OF_ROOM, or the least f above T met
 * (INT_MAX: none). */
static int dfs(penalty_ctx *c, sq_t *bx, int k, sq_t player, uint64_t hbox, int g, int T)
{
    const board *b = c->b;
    int h = 0;
    for (int j = 0; j < k; j++)
        h += b->near_dist[bx[j]];
    if (g + h > T)
        return g + h;
    if (h == 0)
        return FOUND;
    pmove mv[4 * PENALTY_MAX_BOXES];
    int nm, r0 = pushes_of(c, bx, k, player, hbox, g, mv, &nm);
    if (r0)
        return r0 == 1 ? INT_MAX : OUT_OF_ROOM;
    int least = INT_MAX;
    for (int m = 0; m < nm; m++) {
        int j = mv[m].j;
        bx[j] = mv[m].to;
        int r = dfs(c, bx, k, mv[m].from, hbox ^ b->zbox[mv[m].from] ^ b->zbox[mv[m].to], g + 1, T);
        bx[j] = mv[m].from;
        if (r == FOUND || r == OUT_OF_ROOM)
            return r;
        if (r < least)
            least = r;
    }
    return least;
}

int penalty_bound(penalty_ctx *c, const sq_t *boxes, int k, sq_t player, int enough)
{
    const board *b = c->b;
    if (k <= 0 || k > c->maxk)
        return 0;
    sq_t bx[PENALTY_MAX_BOXES];
    uint64_t hbox = 0;
    int h = 0;
    for (int j = 0; j < k; j++) {
        bx[j] = boxes[j];
        hbox ^= b->zbox[bx[j]];
        if (b->near_dist[bx[j]] == DIST_INF)
            return PENALTY_INF;
        h += b->near_dist[bx[j]];
    }
    place(c, bx, k);
    sq_t norm = flood(c, player);
    lift(c, bx, k);
    uint64_t key = hbox ^ b->zplayer[norm];
    uint32_t slot = (uint32_t)key & (c->ccap - 1);
    if (c->cache_key[slot] == key && c->cache_val[slot]) {
        c->cache_hits++;
        return c->cache_val[slot] == PENALTY_INF ? PENALTY_INF : c->cache_val[slot] - 1;
    }
    c->searches++;
    c->nodes = 0;
    int T = h, bound;
    for (;;) {
        if (++c->gen == 0) {
            memset(c->seen_gen, 0, sizeof(uint32_t) * c->tcap);
            c->gen = 1;
        }
        int r = dfs(c, bx, k, player, hbox, 0, T);
        if (r == FOUND || r == OUT_OF_ROOM) {
            bound = T; /* exact, or the depth last exhausted */
            break;
        }
        if (r == INT_MAX) {
            bound = PENALTY_INF; /* no reduced position left: never */
            break;
        }
        T = r;
        if (T > enough || T >= PENALTY_INF - 2) {
            bound = MIN(T, PENALTY_INF - 2);
            break;
        }
    }
    c->cache_key[slot] = key;
    c->cache_val[slot] = (uint16_t)(bound == PENALTY_INF ? PENALTY_INF : bound + 1);
    return bound;
}

/* ------------------------------------------------------------ dual terms */

/* dfs_dual's outcomes besides a value (values may be negative) */
#define D_FOUND INT64_MIN
#define D_OUT_OF_ROOM (INT64_MIN + 1)

/* One IDA* iteration of penalty_dual: as dfs, the cost of a path its
 * pushes less the potentials of the goals its boxes end on (c->hd: each
 * square's least goal distance less potential, an admissible estimate of
 * what is left). A position with every box on a goal is an end whose value
 * is g less its goals' potentials; the search goes on past it (the boxes
 * may end on other goals for less). Returns D_FOUND (an end within T),
 * D_OUT_OF_ROOM, or the least value above T met (INT64_MAX: none). */
static int64_t dfs_dual(penalty_ctx *c, sq_t *bx, int k, sq_t player, uint64_t hbox, int g,
                        int64_t T, const int64_t *v)
{
    const board *b = c->b;
    int64_t h = 0, end = g;
    int all = 1;
    for (int j = 0; j < k; j++) {
        h += c->hd[bx[j]];
        if (b->is_goal[bx[j]])
            end -= v[c->gidx[bx[j]]];
        else
            all = 0;
    }
    if (g + h > T)
        return g + h;
    int64_t least = INT64_MAX;
    if (all) {
        if (end <= T)
            return D_FOUND;
        least = end;
    }
    pmove mv[4 * PENALTY_MAX_BOXES];
    int nm, r0 = pushes_of(c, bx, k, player, hbox, g, mv, &nm);
    if (r0)
        return r0 == 1 ? INT64_MAX : D_OUT_OF_ROOM;
    for (int m = 0; m < nm; m++) {
        int j = mv[m].j;
        bx[j] = mv[m].to;
        int64_t r = dfs_dual(c, bx, k, mv[m].from, hbox ^ b->zbox[mv[m].from] ^ b->zbox[mv[m].to],
                             g + 1, T, v);
        bx[j] = mv[m].from;
        if (r == D_FOUND || r == D_OUT_OF_ROOM)
            return r;
        if (r < least)
            least = r;
    }
    return least;
}

int64_t penalty_dual(penalty_ctx *c, const sq_t *boxes, int k, sq_t player, const int64_t *v,
                     int64_t enough)
{
    const board *b = c->b;
    int n = b->nsq, ng = b->nboxes;
    if (k <= 0 || k > c->maxk)
        return PENALTY_DUAL_NEVER;
    /* the estimate per square, again only when the potentials changed
       (the clusters of one start share them) */
    if (!c->hv_set || memcmp(c->hv, v, sizeof(int64_t) * (size_t)ng) != 0) {
        for (int q = 0; q < n; q++) {
            int64_t best = INT64_MAX / 4;
            for (int gi = 0; gi < ng; gi++) {
                uint16_t d = b->goal_dist[(size_t)gi * n + q];
                if (d != DIST_INF && d - v[gi] < best)
                    best = d - v[gi];
            }
            c->hd[q] = best;
        }
        memcpy(c->hv, v, sizeof(int64_t) * (size_t)ng);
        c->hv_set = 1;
    }
    sq_t bx[PENALTY_MAX_BOXES];
    uint64_t hbox = 0;
    int64_t T = 0;
    for (int j = 0; j < k; j++) {
        bx[j] = boxes[j];
        hbox ^= b->zbox[bx[j]];
        if (b->near_dist[bx[j]] == DIST_INF)
            return PENALTY_DUAL_NEVER;
        T += c->hd[bx[j]];
    }
    c->searches++;
    c->nodes = 0;
    for (;;) {
        if (++c->gen == 0) {
            memset(c->seen_gen, 0, sizeof(uint32_t) * c->tcap);
            c->gen = 1;
        }
        int64_t r = dfs_dual(c, bx, k, player, hbox, 0, T, v);
        if (r == D_FOUND || r == D_OUT_OF_ROOM)
            return T; /* exact, or the value last exhausted */
        if (r == INT64_MAX)
            return PENALTY_DUAL_NEVER;
        T = r;
        if (T > enough)
            return T;
    }
}
