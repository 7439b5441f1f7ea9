/* test_pairdb.c: the goal pairs' tables (heuristic/pairdb.h) against a
 * plain search of the two boxes alone, and push-optimal A* with them
 * against the exhaustive breadth-first search. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/heuristic/pairdb.h"
#include "../../src/heuristic/lowerbound.h"
#include "../../src/core/reach.h"
#include "../../src/search/astar.h"
#include "../../src/util/timer.h"

#include <stdlib.h>
#include <string.h>

/* The fewest pushes that put two boxes standing on a and c onto the goals
 * g1 and g2, no other box on the board, the player starting on any free
 * square (the least over them): a 0-1 breadth-first search over (box,
 * box, player) squares, steps of the player costing 0 and pushes 1,
 * independent of pairdb.c's pulls and regions. -1: never. */
static int two_boxes(const board *b, sq_t a, sq_t c, sq_t g1, sq_t g2, uint8_t *seen,
                     uint32_t *dq, size_t cap)
{
    size_t n = (size_t)b->nsq;
    memset(seen, 0, n * n * n);
    /* a deque of states (x * n + y) * n + p, with its cost tracked by
       processing layers: the front holds cost k, pushes go to the back */
    size_t head = cap / 2, tail = cap / 2;
    for (size_t p = 0; p < n; p++)
        if (p != a && p != c)
            dq[tail++] = (uint32_t)(((size_t)a * n + c) * n + p);
    int cost = 0;
    size_t layer_end = tail;
    uint32_t *next = malloc(cap * sizeof *next);
    size_t nnext = 0;
    int found = -1;
    for (;;) {
        while (head < tail) {
            uint32_t s = dq[head++];
            if (seen[s])
                continue;
            seen[s] = 1;
            sq_t x = (sq_t)(s / (n * n)), y = (sq_t)(s / n % n), p = (sq_t)(s % n);
            if ((x == g1 && y == g2) || (x == g2 && y == g1)) {
                found = cost;
                goto out;
            }
            for (int d = 0; d < 4; d++) {
                sq_t q = b->nb[p][d];
                if (q == SQ_NONE)
                    continue;
                if (q != x && q != y) { /* a step: the same cost */
                    uint32_t t = (uint32_t)(((size_t)x * n + y) * n + q);
                    if (!seen[t] && head > 0)
                        dq[--head] = t;
                    continue;
                }
                sq_t beyond = b->nb[q][d];
                if (beyond == SQ_NONE || beyond == x || beyond == y)
                    continue;
                sq_t nx = q == x ? beyond : x, ny = q == y ? beyond : y;
                uint32_t t = (uint32_t)(((size_t)nx * n + ny) * n + q);
                if (!seen[t] && nnext < cap)
                    next[nnext++] = t;
            }
        }
        (void)layer_end;
        if (nnext == 0)
            break;
        cost++;
        head = tail = cap / 2;
        for (size_t i = 0; i < nnext && tail < cap; i++)
            dq[tail++] = next[i];
        nnext = 0;
    }
out:
    free(next);
    return found;
}

/* Per level of a file: every table of goal pairs within PAIRDB_GAP steps
 * against two_boxes on sampled squares (and both orders of a pair stored
 * once, at a < c). */
static void check_tables(const char *path, int count, int *compared, int *tables)
{
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "cannot load %s", path);
        return;
    }
    uint64_t seed = 4242;
    for (int li = 0; li < c.nlevels && li < count; li++) {
        board b;
        if (c.levels[li].error || test_level_board(&c.levels[li], &b) != 0)
            continue;
        size_t n = (size_t)b.nsq;
        if (n > 64) {
            board_free(&b);
            continue;
        }
        pairdb pd;
        pairdb_build(&pd, &b, PAIRDB_GAP, 0, NULL);
        *tables += pd.n;
        uint8_t *seen = malloc(n * n * n);
        size_t cap = 2 * n * n * n * 4 + 16;
        uint32_t *dq = malloc(cap * sizeof *dq);
        for (int k = 0; k < pd.n; k++) {
            const pd_table *t = &pd.t[k];
            for (int sample = 0; sample < 24; sample++) {
                sq_t a = (sq_t)(test_rng_next(&seed) % n), cc = (sq_t)(test_rng_next(&seed) % n);
                if (sample == 0) { /* the goals themselves: 0 */
                    a = b.goals[t->g1];
                    cc = b.goals[t->g2];
                }
                if (a == cc)
                    continue;
                if (a > cc) {
                    sq_t s = a;
                    a = cc;
                    cc = s;
                }
                int want = two_boxes(&b, a, cc, b.goals[t->g1], b.goals[t->g2], seen, dq, cap);
                uint16_t got = t->d[(size_t)a * n + cc];
                int g = got == DIST_INF ? -1 : got;
                if (g != want)
                    test_fail(__FILE__, __LINE__, "%s level %d, goals %d %d, boxes %d %d: table %d, search %d",
                              path, li + 1, t->g1, t->g2, a, cc, g, want);
                (*compared)++;
            }
        }
        free(seen);
        free(dq);
        pairdb_free(&pd);
        board_free(&b);
    }
    collection_free(&c);
}

TEST(pairdb_tables_match_a_search_of_two_boxes)
{
    int compared = 0, tables = 0;
    check_tables("levels/demo.xsb", 20, &compared, &tables);
    const char *path = test_shared_level("microban155.xsb");
    if (path)
        check_tables(path, test_quick() ? 40 : 155, &compared, &tables);
    else
        printf("  microban155.xsb not found: the demo levels only\n");
    printf("  pair tables: %d kept, %d entries checked\n", tables, compared);
    CHECK(tables >= (path ? 10 : 1));
    CHECK(compared >= (path ? 200 : 10));
}

static void run_astar(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                      search_outcome *out)
{
    astar_solve(b, cfg, lim, mem, out);
}

static astar_config with_pairs(void)
{
    astar_config c = {.optimal = 1, .weight = 1, .dead_squares = 1,
                      .dl = {.freeze = 1, .local = 1, .stuck = 1, .corrals = 1},
                      .matching = 1, .dfs_ext = 1, .tunnels = 1, .sides = 1, .pair_db = 1};
    return c;
}

/* An inadmissible raise would make A* miss the optimum (a longer solution,
 * or a proof that fails): with the tables, push-optimal A* agrees with
 * BFS. */
TEST(pairdb_astar_matches_bfs_boxoban_medium)
{
    astar_config cfg = with_pairs();
    crosscheck_file("boxoban/medium/valid/000.txt", 150, run_astar, &cfg, 1, 90);
}

/* Under a bound at BFS's optimum the search with the tables must end
 * exhausted, one above it find the optimum; and the tables must have
 * raised some positions (else the test tests nothing). */
static uint64_t pairs_raised(const stats *st)
{
    return st->pairdb_raised;
}

TEST(pairdb_bound_proves_the_optimum)
{
    astar_config cfg = with_pairs();
    test_bound_proves_the_optimum("boxoban/medium/valid/000.txt", &cfg, test_quick() ? 15 : 60,
                                  pairs_raised);
}

/* The build stops at its deadline and at the stop flag (Ctrl-C), keeping
 * only the tables it finished: on XSokoban 22 (167 squares, 27 goals) the
 * whole build takes seconds. */
TEST(pairdb_build_stops_on_time_and_interrupt)
{
    const char *path = test_shared_level("xsokoban90.xsb");
    if (!path)
        SKIP("xsokoban90.xsb not found in the shared levels");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    board b;
    REQUIRE(test_level_board(&c.levels[21], &b) == 0);
    for (int how = 0; how < 2; how++) {
        atomic_int stop;
        atomic_init(&stop, how == 1);
        int64_t t0 = timer_now_ns();
        pairdb pd;
        int kept = pairdb_build(&pd, &b, PAIRDB_GAP, how == 0 ? t0 + 50000000 : 0, &stop);
        double s = (double)(timer_now_ns() - t0) / 1e9;
        CHECK(kept == pd.n);
        CHECK(pd.built < 40); /* 80 pairs within 2 steps; far fewer searched */
        if (s > 0.5)
            test_fail(__FILE__, __LINE__, "%s: stopped after %.2f s", how ? "interrupt" : "deadline",
                      s);
        pairdb_free(&pd);
    }
    board_free(&b);
    /* XSokoban 4's pairs each visit fewer states than a search's poll
       interval: the build polls between pairs too, so a build that starts
       past its deadline, or interrupted, searches none (it once built all
       77 tables, 0.85 s under the sanitizers, with a quarter second given) */
    REQUIRE(test_level_board(&c.levels[3], &b) == 0);
    for (int how = 0; how < 2; how++) {
        atomic_int stop;
        atomic_init(&stop, how == 1);
        pairdb pd;
        pairdb_build(&pd, &b, PAIRDB_GAP, how == 0 ? timer_now_ns() - 1 : 0, &stop);
        CHECK(pd.built == 0 && pd.n == 0);
        pairdb_free(&pd);
    }
    pairdb full;
    CHECK(pairdb_build(&full, &b, PAIRDB_GAP, 0, NULL) > 0); /* the level has tables to lose */
    pairdb_free(&full);
    board_free(&b);
    collection_free(&c);
}

/* pairdb_raise (the matched pair first, then only the pairs its distance
 * bound leaves) against the plain definition: every pair of boxes for every
 * table, the positive terms summed over disjoint goal pairs (pairdb_sum),
 * on positions of random walks. */
static int64_t raise_by_definition(const pairdb *pd, const sq_t *boxes, const lb_sol *s)
{
    const board *b = pd->b;
    int n = b->nsq, nb = b->nboxes;
    int64_t term[PAIRDB_MAX_TABLES];
    for (int k = 0; k < pd->n; k++) {
        const pd_table *t = &pd->t[k];
        int64_t best = INT64_MAX;
        for (int i = 0; i < nb; i++)
            for (int j = i + 1; j < nb; j++) {
                sq_t a = boxes[i] < boxes[j] ? boxes[i] : boxes[j];
                sq_t c = boxes[i] < boxes[j] ? boxes[j] : boxes[i];
                uint16_t v = t->d[(size_t)a * n + c];
                if (v == DIST_INF)
                    continue;
                int64_t tv = (int64_t)v - s->u[i + 1] - s->u[j + 1] - s->v[t->g1 + 1] -
                             s->v[t->g2 + 1];
                if (tv < best)
                    best = tv;
            }
        term[k] = best == INT64_MAX || best < 0 ? 0 : best;
    }
    uint8_t used[256];
    return pairdb_sum(pd, term, used);
}

TEST(pairdb_raise_matches_its_definition)
{
    const char *path = test_shared_level("microban155.xsb");
    collection c;
    REQUIRE(collection_load(&c, path ? path : "levels/demo.xsb") == 0);
    if (!path)
        printf("  microban155.xsb not found: the demo levels only\n");
    uint64_t seed = 777;
    int compared = 0, raised = 0;
    for (int li = 0; li < c.nlevels && li < (test_quick() ? 40 : 155); li++) {
        board b;
        position p;
        if (c.levels[li].error || test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        pairdb pd;
        pairdb_build(&pd, &b, PAIRDB_GAP, 0, NULL);
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        lowerbound lb;
        reach r;
        reach_init(&r, b.nsq);
        uint8_t *used = calloc((size_t)b.nboxes + 1, 1);
        int64_t *q = calloc((size_t)b.nboxes + 1, sizeof *q);
        if (pd.n && b.nboxes < 256 && lb_init(&lb, &b, 1, &mem) == 0) {
            for (int walk = 0; walk < 6; walk++) {
                pos_set(&p, b.start_boxes, b.start_player);
                for (int step = 0; step < 20; step++) {
                    lb_sol s;
                    lb_sol_init(&s, b.nboxes);
                    if (lb_solve(&lb, &s, p.boxes) != LB_INF) {
                        int64_t got = pairdb_raise(&pd, p.boxes, &s, used, q);
                        int64_t want = raise_by_definition(&pd, p.boxes, &s);
                        if (got != want)
                            test_fail(__FILE__, __LINE__, "level %d: raise %lld, definition %lld",
                                      li + 1, (long long)got, (long long)want);
                        compared++;
                        raised += want > 0;
                    }
                    lb_sol_free(&s);
                    if (!test_random_push(&p, &r, &seed, 1))
                        break;
                }
            }
            lb_free(&lb);
        }
        free(used);
        free(q);
        reach_free(&r);
        pairdb_free(&pd);
        test_level_free(&b, &p);
    }
    collection_free(&c);
    printf("  %d positions compared, %d raised\n", compared, raised);
    CHECK(compared >= (path ? 500 : 20));
    CHECK(raised >= (path ? 20 : 1));
}
