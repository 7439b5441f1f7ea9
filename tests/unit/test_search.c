/* test_search.c: the searches against each other. Push-optimal A* (with all
 * its pruning) must find exactly the push count of the exhaustive
 * breadth-first search, and both must agree on unsolvable levels; every
 * solution must replay. */
#include "test.h"
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
                      .matching = 1, .dfs_ext = 1, .corrals = 1, .tunnels = 1, .check = 0};
    return c;
}

/* Solves with BFS and with the given A* config; returns 1 when they agree.
 * *bfs_pushes receives BFS's optimum (-1 unsolvable, -2 limit). */
static int compare(const level *lv, const astar_config *cfg, int bfs_prune, long *bfs_pushes,
                   long *astar_pushes)
{
    board b;
    if (board_build(&b, lv) != 0)
        return 0;
    distance_analyze(&b);
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = 3000000;
    membudget m1, m2;
    mem_init(&m1, 1ULL << 30);
    mem_init(&m2, 1ULL << 30);
    bfs_config bc = {.prune_dead = bfs_prune};
    search_outcome ob, oa;
    bfs_solve(&b, &bc, &lim, &m1, &ob);
    astar_solve(&b, cfg, &lim, &m2, &oa);
    *bfs_pushes = ob.solved ? push_seq_pushes(&ob.pushes) : ob.stop == STOP_EXHAUSTED ? -1 : -2;
    *astar_pushes = oa.solved ? 0 : oa.stop == STOP_EXHAUSTED ? -1 : -2;
    int ok = 1;
    if (oa.solved) {
        /* the pushes of the replayed solution are the truth */
        movelist mv;
        moves_init(&mv);
        replay_result rr;
        ok = path_build(&b, &oa.pushes, &mv) == 0 && solution_replay(&b, &mv, &rr);
        *astar_pushes = ok ? rr.m.pushes : -3;
        moves_free(&mv);
    }
    if (ok && *bfs_pushes != -2 && *astar_pushes != -2) {
        if (cfg->optimal)
            ok = *bfs_pushes == *astar_pushes;
        else
            ok = (*bfs_pushes < 0) == (*astar_pushes < 0);
    }
    push_seq_free(&ob.pushes);
    push_seq_free(&oa.pushes);
    board_free(&b);
    return ok;
}

static void cross_check_file(const char *name, int count, int optimal)
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    CHECK(collection_load(&c, path) == 0);
    if (test_quick())
        count = count / 5;
    astar_config cfg = all_on(optimal);
    int agree = 0, checked = 0;
    for (int k = 0; k < c.nlevels && checked < count; k++) {
        if (c.levels[k].error)
            continue;
        long bp, ap;
        checked++;
        if (compare(&c.levels[k], &cfg, 0, &bp, &ap))
            agree++;
        else
            test_fail(__FILE__, __LINE__, "%s level %d: BFS %ld pushes, A* %ld", name,
                      c.levels[k].index, bp, ap);
    }
    CHECK_INT(agree, checked);
    collection_free(&c);
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
        if (!compare(&c.levels[k], &cfg, 1, &bp, &ap))
            test_fail(__FILE__, __LINE__, "demo level %d: BFS %ld pushes, A* %ld", k + 1, bp, ap);
        CHECK(bp > 0);
    }
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
