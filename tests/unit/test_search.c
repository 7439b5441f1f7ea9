/* test_search.c: the searches against each other. Push-optimal A* (with all
 * its pruning) must find exactly the push count of the exhaustive
 * breadth-first search, and both must agree on unsolvable levels; every
 * solution must replay. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/distance.h"
#include "../../src/core/level.h"
#include "../../src/search/astar.h"
#include "../../src/search/bfs.h"
#include "../../src/search/pathbuild.h"
#include "../../src/util/timer.h"

#include <stdlib.h>

static astar_config all_on(int optimal)
{
    astar_config c = {.optimal = optimal, .weight = 3, .dead_squares = 1, .freeze = 1,
                      .matching = 1, .local = 1, .stuck = 1, .dfs_ext = 1, .corrals = 1,
                      .tunnels = 1, .check = 0};
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
    crosscheck_file(name, count, run_astar, &cfg, optimal);
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

/* The local deadlock search is a switch of its own: on with the corral
 * analysis off, it runs (Goal Room, the last demo level, has boxes close
 * enough to prove some positions dead) and the optimum holds. */
TEST(astar_local_search_without_corrals)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    astar_config cfg = all_on(1);
    cfg.corrals = 0;
    const level *lv = &c.levels[c.nlevels - 1];
    long bp, ap;
    CHECK(crosscheck_level(lv, run_astar, &cfg, 1, 1, 3000000, &bp, &ap));
    board b;
    REQUIRE(board_build(&b, lv) == 0);
    distance_analyze(&b);
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
    CHECK(board_build(&b, &c.levels[0]) == 0);
    distance_analyze(&b);
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
