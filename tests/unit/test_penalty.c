/* test_penalty.c: the pushes a few boxes need alone (heuristic/penalty.h)
 * against a breadth-first search of the same reduced problem, and
 * push-optimal A* with the penalties against BFS on whole levels. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/deadlock/subset.h"
#include "../../src/heuristic/penalty.h"
#include "../../src/search/astar.h"
#include "../../src/util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A reduced state: k sorted box squares and the player's normalized square. */
typedef struct rstate {
    sq_t bx[PENALTY_MAX_BOXES];
    sq_t pl;
} rstate;

typedef struct rbfs {
    const board *b;
    int k;
    rstate *q;       /* the queue, also the set of states seen */
    int *depth;
    size_t n, cap;
    int32_t *tab;    /* open addressing over q's indices */
    size_t tcap;
    uint8_t *occ, *seen, *rch; /* rch: the expanded state's region */
    sq_t *stack;
} rbfs;

static int cmp_sq(const void *x, const void *y)
{
    return (int)*(const sq_t *)x - (int)*(const sq_t *)y;
}

static uint64_t rhash(const rstate *s, int k)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k; i++)
        h = (h ^ s->bx[i]) * 1099511628211ull;
    return (h ^ s->pl) * 1099511628211ull;
}

/* The player's region from `from` with the state's boxes: marks seen[],
 * returns its smallest square. */
static sq_t rregion(rbfs *r, sq_t from)
{
    const board *b = r->b;
    memset(r->seen, 0, (size_t)b->nsq);
    int top = 0;
    sq_t least = from;
    r->seen[from] = 1;
    r->stack[top++] = from;
    while (top) {
        sq_t x = r->stack[--top];
        least = x < least ? x : least;
        for (int d = 0; d < 4; d++) {
            sq_t y = b->nb[x][d];
            if (y != SQ_NONE && !r->seen[y] && !r->occ[y]) {
                r->seen[y] = 1;
                r->stack[top++] = y;
            }
        }
    }
    return least;
}

/* Adds s (depth d) unless seen; returns 1 when added. */
static int radd(rbfs *r, const rstate *s, int d)
{
    size_t i = rhash(s, r->k) & (r->tcap - 1);
    while (r->tab[i] >= 0) {
        const rstate *t = &r->q[r->tab[i]];
        if (t->pl == s->pl && !memcmp(t->bx, s->bx, sizeof(sq_t) * (size_t)r->k))
            return 0;
        i = (i + 1) & (r->tcap - 1);
    }
    if (r->n == r->cap)
        return -1;
    r->q[r->n] = *s;
    r->depth[r->n] = d;
    r->tab[i] = (int32_t)r->n++;
    return 1;
}

/* The fewest pushes bringing the k boxes onto any goals alone on the board
 * (the player on `player`): -1 when none, -2 when the room ran out. No
 * pruning at all. */
static int reduced_bfs(const board *b, const sq_t *boxes, int k, sq_t player)
{
    rbfs r = {.b = b, .k = k, .cap = 400000};
    r.tcap = 1u << 20;
    r.q = xmalloc(sizeof(rstate) * r.cap);
    r.depth = xmalloc(sizeof(int) * r.cap);
    r.tab = xmalloc(sizeof(int32_t) * r.tcap);
    memset(r.tab, 0xff, sizeof(int32_t) * r.tcap);
    r.occ = xcalloc((size_t)b->nsq, 1);
    r.seen = xcalloc((size_t)b->nsq, 1);
    r.rch = xmalloc((size_t)b->nsq);
    r.stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    rstate s0;
    memset(&s0, 0, sizeof s0);
    memcpy(s0.bx, boxes, sizeof(sq_t) * (size_t)k);
    qsort(s0.bx, (size_t)k, sizeof(sq_t), cmp_sq);
    for (int i = 0; i < k; i++)
        r.occ[s0.bx[i]] = 1;
    s0.pl = rregion(&r, player);
    for (int i = 0; i < k; i++)
        r.occ[s0.bx[i]] = 0;
    radd(&r, &s0, 0);
    int result = -1;
    for (size_t h = 0; h < r.n && result == -1; h++) {
        rstate cur = r.q[h];
        int on = 1;
        for (int i = 0; i < k; i++)
            on &= b->is_goal[cur.bx[i]];
        if (on) {
            result = r.depth[h];
            break;
        }
        for (int i = 0; i < k; i++)
            r.occ[cur.bx[i]] = 1;
        rregion(&r, cur.pl);
        memcpy(r.rch, r.seen, (size_t)b->nsq);
        for (int i = 0; i < k && result == -1; i++)
            for (int d = 0; d < 4; d++) {
                sq_t B = cur.bx[i], N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
                if (N == SQ_NONE || O == SQ_NONE || !r.rch[N] || r.occ[O])
                    continue;
                rstate c = cur;
                c.bx[i] = O;
                r.occ[B] = 0;
                r.occ[O] = 1;
                c.pl = rregion(&r, B);
                r.occ[O] = 0;
                r.occ[B] = 1;
                qsort(c.bx, (size_t)k, sizeof(sq_t), cmp_sq);
                if (radd(&r, &c, r.depth[h] + 1) < 0)
                    result = -2;
            }
        for (int i = 0; i < k; i++)
            r.occ[cur.bx[i]] = 0;
    }
    free(r.q);
    free(r.depth);
    free(r.tab);
    free(r.occ);
    free(r.seen);
    free(r.rch);
    free(r.stack);
    return result;
}

/* On each level's start: for every box, it and its nearest neighbours
 * (2 to 4 boxes), the search's bound against BFS: exact when the search
 * had room, never above; PENALTY_INF exactly when BFS finds no solution. */
static void check_levels(const char *path, int count, int *compared, int *above_matching)
{
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "cannot load %s", path);
        return;
    }
    for (int li = 0; li < c.nlevels && li < count; li++) {
        board b;
        position p;
        if (test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        penalty_ctx pc;
        penalty_init(&pc, &b, 200000, 4);
        for (int i = 0; i < b.nboxes; i++) {
            for (int k = 2; k <= 4; k++) {
                sq_t kept[PENALTY_MAX_BOXES];
                int n = subset_near(&p, p.boxes[i], 3, k, kept);
                if (n < k)
                    break;
                int exact = reduced_bfs(&b, kept, n, p.player);
                if (exact == -2)
                    continue;
                int got = penalty_bound(&pc, kept, n, p.player, 1 << 14);
                int want = exact < 0 ? PENALTY_INF : exact;
                if (got != want)
                    test_fail(__FILE__, __LINE__, "%s level %d, box %d, %d boxes: bound %d, BFS %d",
                              path, li + 1, i, n, got, exact);
                (*compared)++;
                int nearsum = 0;
                for (int j = 0; j < n; j++)
                    nearsum += b.near_dist[kept[j]];
                *above_matching += exact >= 0 && exact > nearsum;
            }
        }
        penalty_free(&pc);
        test_level_free(&b, &p);
    }
    collection_free(&c);
}

TEST(penalty_bound_matches_reduced_bfs_demo)
{
    int compared = 0, above = 0;
    check_levels("levels/demo.xsb", 100, &compared, &above);
    CHECK(compared >= 20);
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  penalty: %d subsets compared, %d above the boxes' nearest-goal sum\n", compared,
               above);
}

TEST(penalty_bound_matches_reduced_bfs_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared microban155.xsb not found");
    int compared = 0, above = 0;
    check_levels(path, test_quick() ? 10 : 40, &compared, &above);
    CHECK(compared >= (test_quick() ? 25 : 100));
    CHECK(above > 0); /* the sample holds boxes that hinder one another */
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  penalty: %d subsets compared, %d above the boxes' nearest-goal sum\n", compared,
               above);
}

static void run_astar(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                      search_outcome *out)
{
    astar_solve(b, cfg, lim, mem, out);
}

static astar_config with_penalties(void)
{
    astar_config c = {.optimal = 1, .weight = 1, .dead_squares = 1,
                      .dl = {.freeze = 1, .local = 1, .stuck = 1, .corrals = 1},
                      .matching = 1, .dfs_ext = 1, .tunnels = 1, .penalties = 1};
    return c;
}

TEST(astar_optimal_penalties_match_bfs_boxoban_medium)
{
    astar_config cfg = with_penalties();
    crosscheck_file("boxoban/medium/valid/000.txt", 100, run_astar, &cfg, 1, 90);
}

TEST(astar_optimal_penalties_demo_levels)
{
    collection c;
    CHECK(collection_load(&c, "levels/demo.xsb") == 0);
    astar_config cfg = with_penalties();
    for (int k = 0; k < c.nlevels; k++) {
        long bp, ap;
        if (!crosscheck_level(&c.levels[k], run_astar, &cfg, 1, 1, 3000000, &bp, &ap))
            test_fail(__FILE__, __LINE__, "demo level %d: BFS %ld pushes, A* %ld", k + 1, bp, ap);
    }
    collection_free(&c);
}
