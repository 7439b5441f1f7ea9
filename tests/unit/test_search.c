/* test_search.c: the searches against each other. Push-optimal A* (with all
 * its pruning) must find exactly the push count of the exhaustive
 * breadth-first search, and both must agree on unsolvable levels; every
 * solution must replay. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/search/astar.h"
#include "../../src/search/bfs.h"
#include "../../src/search/pathbuild.h"
#include "../../src/driver/solve.h"
#include "../../src/util/options.h"
#include "../../src/util/timer.h"

#include <stdlib.h>
#include <string.h>

static astar_config all_on(int optimal)
{
    astar_config c = {.optimal = optimal, .weight = 3, .dead_squares = 1,
                      .dl = {.freeze = 1, .local = 1, .stuck = 1, .corrals = 1},
                      .matching = 1, .dfs_ext = 1, .tunnels = 1, .check = 0,
                      .sides = optimal};
    return c;
}

static void run_astar(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                      search_outcome *out)
{
    astar_solve(b, cfg, lim, mem, out);
}

static void cross_check_file(const char *name, int count, int optimal)
{
    astar_config cfg = all_on(optimal);
    crosscheck_file(name, count, run_astar, &cfg, optimal, 90);
}

TEST(astar_optimal_matches_bfs_boxoban_medium)
{
    cross_check_file("boxoban/medium/valid/000.txt", 150, 1);
}

TEST(astar_optimal_matches_bfs_boxoban_unfiltered)
{
    cross_check_file("boxoban/unfiltered/test/000.txt", 100, 1);
}

TEST(astar_fast_solves_what_bfs_solves_boxoban_hard)
{
    cross_check_file("boxoban/hard/000.txt", 60, 0);
}

TEST(astar_demo_levels_optimal)
{
    collection c;
    CHECK(collection_load(&c, "levels/demo.xsb") == 0);
    astar_config cfg = all_on(1);
    for (int k = 0; k < c.nlevels; k++) {
        long bp, ap;
        if (!crosscheck_level(&c.levels[k], run_astar, &cfg, 1, 1, 3000000, &bp, &ap))
            test_fail(__FILE__, __LINE__, "demo level %d: BFS %ld pushes, A* %ld", k + 1, bp, ap);
        CHECK(bp > 0);
    }
    collection_free(&c);
}

/* The shared Boxoban medium sample, or without it (said) the demo levels. */
static int load_medium(collection *c)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (path)
        return collection_load(c, path);
    printf("  boxoban/medium/valid/000.txt not found: the demo levels only\n");
    return collection_load(c, "levels/demo.xsb");
}

/* Whether level lv has a solution whose BFS optimum (bp pushes) A* with
 * cfg agrees with; if so, its board in *b (free it). */
static int with_optimum(const level *lv, const astar_config *cfg, board *b, long *bp)
{
    long ap;
    if (lv->error || !crosscheck_level(lv, run_astar, cfg, 1, 1, 3000000, bp, &ap) || *bp <= 0)
        return 0;
    return test_level_board(lv, b) == 0;
}

/* A known solution's push count as A*'s bound (astar_config.bound): with
 * the bound at BFS's optimum nothing shorter exists, so the search must be
 * exhausted (the proof that a solution of that many pushes is optimal);
 * one above it, it must find the optimum; never a solution below it. */
TEST(astar_bound_proves_the_optimum)
{
    collection c;
    REQUIRE(load_medium(&c) == 0);
    int n = MIN(c.nlevels, test_quick() ? 10 : 40), decided = 0;
    astar_config cfg = all_on(1);
    for (int k = 0; k < n; k++) {
        long bp;
        board b;
        if (!with_optimum(&c.levels[k], &cfg, &b, &bp))
            continue;
        for (long extra = 0; extra <= 1; extra++) {
            astar_config bc = cfg;
            bc.bound = (uint32_t)(bp + extra);
            search_outcome out;
            test_astar_limited(&b, &bc, &out);
            if (extra == 0) {
                if (out.solved || out.stop != STOP_EXHAUSTED)
                    test_fail(__FILE__, __LINE__, "level %d: bound %ld (the optimum): %s", k + 1,
                              bp, out.solved ? "solved below it" : "not exhausted");
            } else if (!out.solved || push_seq_pushes(&out.pushes) != bp) {
                test_fail(__FILE__, __LINE__, "level %d: bound %ld: %ld pushes, BFS %ld", k + 1,
                          bp + 1, out.solved ? push_seq_pushes(&out.pushes) : -1L, bp);
            }
            push_seq_free(&out.pushes);
        }
        board_free(&b);
        decided++;
    }
    CHECK(decided >= n / 2);
    collection_free(&c);
}

/* astar_config.refine: a caller that holds a shorter solution while A*
 * runs. Under a loose bound (BFS's optimum + 4) the callback, once the
 * lower bound it is given comes within 2 of the optimum, answers with the
 * optimum (as the driver does when the optimizer finds one). Every lower
 * bound it is given is at most the optimum; the search then either finds
 * a solution of exactly the optimum's pushes or ends exhausted after the
 * bound dropped (the proof the driver reports): never exhausted while the
 * bound was still above a solution, never another push count. */
typedef struct refine_probe {
    long opt;
    int calls, lowered, over;
} refine_probe;

static uint32_t probe_refine(void *arg, uint32_t lower, uint32_t bound)
{
    refine_probe *r = arg;
    r->calls++;
    if ((long)lower > r->opt)
        r->over++;
    if ((long)lower + 2 >= r->opt && (long)bound > r->opt) {
        r->lowered++;
        return (uint32_t)r->opt;
    }
    return bound;
}

TEST(astar_refine_lowers_the_bound)
{
    collection c;
    REQUIRE(load_medium(&c) == 0);
    int n = MIN(c.nlevels, test_quick() ? 15 : 60), by_refine = 0, decided = 0;
    astar_config cfg = all_on(1);
    for (int k = 0; k < n; k++) {
        long bp;
        board b;
        if (!with_optimum(&c.levels[k], &cfg, &b, &bp))
            continue;
        refine_probe rp = {.opt = bp};
        astar_config rc = cfg;
        rc.bound = (uint32_t)(bp + 4);
        rc.refine = probe_refine;
        rc.refine_arg = &rp;
        rc.refine_every = 1;
        search_outcome out;
        test_astar_limited(&b, &rc, &out);
        if (rp.over)
            test_fail(__FILE__, __LINE__, "level %d: a lower bound above the optimum %ld", k + 1,
                      bp);
        if (out.solved) {
            if (push_seq_pushes(&out.pushes) != bp)
                test_fail(__FILE__, __LINE__, "level %d: %ld pushes, BFS %ld", k + 1,
                          push_seq_pushes(&out.pushes), bp);
        } else if (out.stop == STOP_EXHAUSTED) {
            if (!rp.lowered || out.st.refined != 1)
                test_fail(__FILE__, __LINE__, "level %d: exhausted under the bound %ld, above "
                          "the optimum %ld", k + 1, bp + 4, bp);
            by_refine++;
        } else {
            test_fail(__FILE__, __LINE__, "level %d: stopped (%d)", k + 1, (int)out.stop);
        }
        push_seq_free(&out.pushes);
        board_free(&b);
        decided++;
    }
    CHECK(decided >= n / 2);
    CHECK(by_refine >= decided / 2);
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  refine: %d of %d levels proven by the bound the callback lowered\n", by_refine,
               decided);
    collection_free(&c);
}

/* --optimal-seed through solve_level: the demo levels and a Boxoban sample
 * proven optimal with BFS's push count, whether the proof ends by the
 * bound (strategy "astar (seed)") or by A* finding the optimum itself. */
TEST(optimal_seed_matches_bfs)
{
    const char *path = test_shared_level("boxoban/unfiltered/test/000.txt");
    const char *files[] = {"levels/demo.xsb", path};
    int by_seed = 0, checked = 0;
    for (int f = 0; f < 2 && files[f]; f++) {
        collection c;
        REQUIRE(collection_load(&c, files[f]) == 0);
        int n = MIN(c.nlevels, f == 0 ? 100 : test_quick() ? 8 : 30);
        astar_config cfg = all_on(1);
        for (int k = 0; k < n; k++) {
            long bp, ap;
            if (c.levels[k].error ||
                !crosscheck_level(&c.levels[k], run_astar, &cfg, 1, 1, 3000000, &bp, &ap) ||
                bp <= 0)
                continue;
            options o;
            options_init(&o);
            o.optimal = 1;
            CHECK(o.optimal_seed > 0);
            search_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.start_ns = timer_now_ns();
            lim.deadline_ns = lim.start_ns + 10 * (int64_t)1000000000;
            solve_result res;
            solve_level(&c.levels[k], &o, &lim, 1ULL << 30, &res);
            if (res.status != RESULT_SOLVED || !res.optimal || res.metrics.pushes != bp)
                test_fail(__FILE__, __LINE__, "%s level %d: %s, %ld pushes%s, BFS %ld", files[f],
                          k + 1, result_status_text(res.status), (long)res.metrics.pushes,
                          res.optimal ? " (optimal)" : "", bp);
            by_seed += res.strategy && strcmp(res.strategy, "astar (seed)") == 0;
            checked++;
            solve_result_free(&res);
        }
        collection_free(&c);
    }
    printf("  --optimal-seed: %d levels proven, %d of them by the seed's bound\n", checked, by_seed);
    CHECK(checked >= 5);
    CHECK(by_seed > 0);
}

/* The local deadlock search is a switch of its own: on with the corral
 * analysis off, it runs (Goal Room, the last demo level, has boxes close
 * enough to prove some positions dead) and the optimum holds. */
TEST(astar_local_search_without_corrals)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    astar_config cfg = all_on(1);
    cfg.dl.corrals = 0;
    const level *lv = &c.levels[c.nlevels - 1];
    long bp, ap;
    CHECK(crosscheck_level(lv, run_astar, &cfg, 1, 1, 3000000, &bp, &ap));
    board b;
    REQUIRE(test_level_board(lv, &b) == 0);
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    membudget mem;
    mem_init(&mem, 1ULL << 28);
    search_outcome out;
    astar_solve(&b, &cfg, &lim, &mem, &out);
    CHECK(out.solved);
    CHECK(out.st.local_searches > 0);
    CHECK(out.st.cut_local > 0);
    push_seq_free(&out.pushes);
    board_free(&b);
    collection_free(&c);
}

TEST(xsokoban_1_is_97_pushes)
{
    const char *path = test_shared_level("xsokoban90.xsb");
    if (!path)
        SKIP("xsokoban90.xsb not found");
    collection c;
    CHECK(collection_load(&c, path) == 0);
    board b;
    CHECK(test_level_board(&c.levels[0], &b) == 0);
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = 20000000;
    membudget m;
    mem_init(&m, 4ULL << 30);
    astar_config cfg = all_on(1);
    search_outcome o;
    astar_solve(&b, &cfg, &lim, &m, &o);
    CHECK(o.solved);
    CHECK(o.optimal);
    CHECK_INT(push_seq_pushes(&o.pushes), 97);
    push_seq_free(&o.pushes);
    board_free(&b);
    collection_free(&c);
}

/* Solves lv with the default options but `strategy` and no zones, within
 * `seconds` and a budget of `mem_bytes`. */
static void solve_with(const level *lv, long strategy, int seconds, uint64_t mem_bytes,
                       solve_result *res)
{
    options o;
    options_init(&o);
    o.strategy = strategy;
    o.zones = 0;
    search_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.start_ns = timer_now_ns();
    lim.deadline_ns = lim.start_ns + seconds * (int64_t)1000000000;
    solve_level(lv, &o, &lim, mem_bytes, res);
}

/* A level that asks where the player ends (level.end_cell1, the zones'
 * sub-levels): the goal is the doorway between two rooms. One push from
 * the left solves it, the player left behind; to end in the right room the
 * box must go through the door and be pushed back into it from the right.
 * Every search that can end a level honours the end: the solution ends
 * with the player in the right room, and asked to end in a square no
 * solution reaches (the doorway itself, under the box) none is found. */
TEST(searches_end_where_the_level_asks)
{
    static const char *text = "#########\n"
                              "#   #   #\n"
                              "# @$.   #\n"
                              "#   #   #\n"
                              "#########\n";
    const char *names[] = {"astar", "fess", "portfolio", "backward"};
    const long strategies[] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) {
        for (int endc = 0; endc < 3; endc++) {
            collection c;
            collection_parse(&c, "door.xsb", text, strlen(text));
            REQUIRE(c.nlevels == 1 && !c.levels[0].error);
            level *lv = &c.levels[0];
            int want_col = endc == 0 ? 0 : endc == 1 ? 6 : 4; /* 0: no end asked */
            if (endc)
                lv->end_cell1[0] = 1 * lv->width + want_col + 1; /* row 1 */
            if (endc == 2)
                lv->end_cell1[0] = 2 * lv->width + 4 + 1; /* the doorway: the goal */
            solve_result res;
            solve_with(lv, strategies[k], 20, 64u << 20, &res);
            if (endc == 2) {
                if (res.status == RESULT_SOLVED)
                    test_fail(__FILE__, __LINE__, "%s: solved with the player under the box",
                              names[k]);
            } else if (res.status != RESULT_SOLVED) {
                test_fail(__FILE__, __LINE__, "%s, end %d: not solved (%s)", names[k], endc,
                          res.reason);
            } else {
                /* play it: where does the player end? */
                int col = 2, pushes = 0;
                for (const char *m = res.lurd; *m; m++) {
                    col += (*m == 'r' || *m == 'R') - (*m == 'l' || *m == 'L');
                    pushes += *m >= 'A' && *m <= 'Z';
                }
                if (endc == 0)
                    CHECK_INT(pushes, 1);
                else if (col <= 4)
                    test_fail(__FILE__, __LINE__, "%s: the player ends in column %d, left of the door",
                              names[k], col);
            }
            solve_result_free(&res);
            collection_free(&c);
        }
    }
}

/* A budget of 2 MiB holds what A*, FESS and the reverse search need for a
 * tiny level but not their deadlock detectors' tables (about 1.5 MB, mostly
 * the corral and local searches' caches, charged by dl_charge): each stops
 * cleanly with "memory limit" (without the charge each solved it within
 * 2 MiB); with room it solves. */
TEST(search_stops_when_its_detectors_do_not_fit)
{
    static const char *text = "#######\n#     #\n# $$. #\n#@ .  #\n#######\n";
    static const int strategies[] = {0, 1, 5}; /* A*, FESS, rev */
    for (size_t k = 0; k < sizeof strategies / sizeof *strategies; k++)
        for (int roomy = 0; roomy < 2; roomy++) {
            collection c;
            collection_parse(&c, "mem", text, strlen(text));
            REQUIRE(c.nlevels == 1 && !c.levels[0].error);
            solve_result res;
            solve_with(&c.levels[0], strategies[k], 10, roomy ? 64u << 20 : 2048u << 10, &res);
            if (roomy) {
                CHECK_INT(res.status, RESULT_SOLVED);
            } else {
                CHECK(res.status != RESULT_SOLVED);
                CHECK_STR(res.reason, "memory limit");
            }
            solve_result_free(&res);
            collection_free(&c);
        }
}
