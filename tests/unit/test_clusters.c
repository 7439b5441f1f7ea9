/* test_clusters.c: the start's clusters (--clusters, penalty_dual) and the
 * pathmax of push-optimal A*: penalty_dual against a plain search of the
 * same boxes alone, the start's bound against the exhaustive breadth-first
 * search from random positions, and A* with both against BFS; the clusters
 * below the start and those of the positions A* takes from its open list
 * (--pop-clusters) against BFS and against the search without them. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/distance.h"
#include "../../src/core/reach.h"
#include "../../src/heuristic/penalty.h"
#include "../../src/search/astar.h"
#include "../../src/search/bfs.h"
#include "../../src/util/timer.h"

#include <stdlib.h>
#include <string.h>

/* The least over the ways k boxes on bx[] (no other box, the player on
 * `player`) end on k goals of (pushes - the sum of v over those goals): a
 * breadth-first search over every reachable state (the boxes' squares and
 * the player's exact square, a step costing nothing and a push one),
 * independent of penalty.c's IDA*, regions and pruning. INT64_MAX: never.
 * nsq < 256 and k <= 3 (a state fits 32 bits). */
static int64_t dual_by_bfs(const board *b, const sq_t *bx, int k, sq_t player, const int64_t *v)
{
    size_t n = (size_t)b->nsq, cap = 1;
    for (int j = 0; j <= k; j++)
        cap *= n;
    uint8_t *seen = calloc(cap, 1);
    uint32_t *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next);
    uint32_t *stack = malloc(cap * sizeof *stack);
    size_t ncur = 0, nnext = 0;
    int gidx[256];
    for (size_t q = 0; q < n; q++)
        gidx[q] = -1;
    for (int g = 0; g < b->nboxes; g++)
        gidx[b->goals[g]] = g;
    /* a state: the boxes' squares (in slot order) and the player's */
    uint32_t s0 = 0;
    for (int j = 0; j < k; j++)
        s0 = s0 * (uint32_t)n + bx[j];
    s0 = s0 * (uint32_t)n + player;
    cur[ncur++] = s0;
    int64_t best = INT64_MAX;
    for (int64_t g = 0; ncur; g++) {
        /* the closure of this layer under steps, then its pushes */
        size_t ns = 0;
        for (size_t i = 0; i < ncur; i++)
            if (!seen[cur[i]]) {
                seen[cur[i]] = 1;
                stack[ns++] = cur[i];
            }
        nnext = 0;
        while (ns) {
            uint32_t s = stack[--ns];
            sq_t box[3], p = (sq_t)(s % n);
            uint32_t t = s / (uint32_t)n;
            for (int j = k - 1; j >= 0; j--) {
                box[j] = (sq_t)(t % n);
                t /= (uint32_t)n;
            }
            int all = 1;
            int64_t val = g;
            for (int j = 0; j < k; j++) {
                if (gidx[box[j]] < 0)
                    all = 0;
                else
                    val -= v[gidx[box[j]]];
            }
            if (all && val < best)
                best = val;
            for (int d = 0; d < 4; d++) {
                sq_t q = b->nb[p][d];
                if (q == SQ_NONE)
                    continue;
                int at = -1;
                for (int j = 0; j < k; j++)
                    if (box[j] == q)
                        at = j;
                sq_t nbx[3];
                memcpy(nbx, box, sizeof(sq_t) * (size_t)k);
                int push = at >= 0;
                if (push) {
                    sq_t beyond = b->nb[q][d];
                    int free_ = beyond != SQ_NONE;
                    for (int j = 0; j < k && free_; j++)
                        free_ = box[j] != beyond;
                    if (!free_)
                        continue;
                    nbx[at] = beyond;
                }
                uint32_t u = 0;
                for (int j = 0; j < k; j++)
                    u = u * (uint32_t)n + nbx[j];
                u = u * (uint32_t)n + q;
                if (seen[u])
                    continue;
                if (push) {
                    next[nnext++] = u;
                } else {
                    seen[u] = 1;
                    stack[ns++] = u;
                }
            }
        }
        uint32_t *sw = cur;
        cur = next;
        next = sw;
        ncur = nnext;
    }
    free(seen);
    free(cur);
    free(next);
    free(stack);
    return best;
}

/* penalty_dual, exact (a limit it never reaches), against dual_by_bfs on
 * random positions of small levels, for pairs and triples of boxes near
 * one another and random goal potentials. */
TEST(clusters_dual_matches_a_search_of_the_boxes_alone)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("microban155.xsb not found in the shared levels");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    uint64_t seed = 777;
    int compared = 0, finite = 0;
    for (int li = 0; li < c.nlevels && li < (test_quick() ? 30 : 155); li++) {
        board b;
        position p;
        if (c.levels[li].error || test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        if (b.nsq > 60 || b.nboxes < 2) {
            test_level_free(&b, &p);
            continue;
        }
        penalty_ctx pc;
        penalty_init(&pc, &b, 1 << 22, 3);
        reach r;
        reach_init(&r, b.nsq);
        int64_t *v = malloc(sizeof(int64_t) * (size_t)b.nboxes);
        for (int sample = 0; sample < 6; sample++) {
            for (int m = 0; m < 6; m++)
                test_random_push(&p, &r, &seed, 1);
            for (int g = 0; g < b.nboxes; g++)
                v[g] = (int64_t)(test_rng_next(&seed) % 7) - 3;
            int k = 2 + (int)(test_rng_next(&seed) % 2);
            if (k > b.nboxes)
                k = b.nboxes;
            /* box 0 .. and its nearest by grid distance */
            int i0 = (int)(test_rng_next(&seed) % (uint64_t)b.nboxes);
            sq_t bx[3];
            int used[64] = {0}, kk = 0;
            bx[kk++] = p.boxes[i0];
            used[i0] = 1;
            while (kk < k) {
                int best = -1, bd = 1 << 30;
                for (int j = 0; j < b.nboxes; j++) {
                    int dd = abs(board_row(&b, p.boxes[j]) - board_row(&b, bx[0])) +
                             abs(board_col(&b, p.boxes[j]) - board_col(&b, bx[0]));
                    if (!used[j] && dd < bd) {
                        bd = dd;
                        best = j;
                    }
                }
                used[best] = 1;
                bx[kk++] = p.boxes[best];
            }
            int64_t want = dual_by_bfs(&b, bx, k, p.player, v);
            int64_t got = penalty_dual(&pc, bx, k, p.player, v, INT64_MAX / 4);
            if (want != got)
                test_fail(__FILE__, __LINE__, "Microban %d, %d boxes: penalty_dual %lld, search %lld",
                          li + 1, k, (long long)got, (long long)want);
            compared++;
            finite += want != INT64_MAX;
        }
        free(v);
        reach_free(&r);
        penalty_free(&pc);
        test_level_free(&b, &p);
    }
    printf("  %d clusters compared, %d of them able to end on goals\n", compared, finite);
    CHECK(compared >= 60);
    CHECK(finite >= compared / 4);
    collection_free(&c);
}

static astar_config with_clusters(void)
{
    astar_config c = {.optimal = 1, .weight = 1, .dead_squares = 1,
                      .dl = {.freeze = 1, .local = 1, .stuck = 1, .corrals = 1},
                      .matching = 1, .dfs_ext = 1, .tunnels = 1, .sides = 1, .pair_db = 1,
                      .clusters = 5};
    return c;
}

static void run_astar(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                      search_outcome *out)
{
    astar_solve(b, cfg, lim, mem, out);
}

/* The start's bound (what A* has expanded after a few positions) never
 * passes the fewest pushes BFS finds, from random positions of Microban
 * levels (boards made with the position as their start); and the clusters
 * raised some of them (else this tests nothing). */
TEST(clusters_start_bound_admissible)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("microban155.xsb not found in the shared levels");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    uint64_t seed = 99;
    int compared = 0, raised = 0;
    astar_config cfg = with_clusters();
    for (int li = 0; li < c.nlevels && li < (test_quick() ? 40 : 90); li++) {
        board b;
        position p;
        if (c.levels[li].error || test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        reach r;
        reach_init(&r, b.nsq);
        for (int sample = 0; sample < 4; sample++) {
            for (int m = 0; m < 5; m++)
                test_random_push(&p, &r, &seed, 1);
            board v;
            if (board_variant(&b, NULL, p.boxes, p.player, &v) != 0)
                continue;
            if (distance_analyze(&v) != 0) {
                board_free(&v);
                continue;
            }
            search_limits lim = {0};
            lim.start_ns = timer_now_ns();
            lim.max_nodes = 2000000;
            membudget m1, m2;
            mem_init(&m1, 1ULL << 30);
            mem_init(&m2, 1ULL << 30);
            bfs_config bc = {.prune_dead = 1};
            search_outcome ob, oa;
            bfs_solve(&v, &bc, &lim, &m1, &ob);
            search_limits al = lim;
            al.max_nodes = 1;
            astar_solve(&v, &cfg, &al, &m2, &oa);
            if (ob.solved) {
                long opt = push_seq_pushes(&ob.pushes);
                if ((long)oa.st.best_lower_bound > opt)
                    test_fail(__FILE__, __LINE__,
                              "Microban %d sample %d: bound %llu (clusters +%llu), BFS %ld", li + 1,
                              sample, (unsigned long long)oa.st.best_lower_bound,
                              (unsigned long long)oa.st.cluster_raise, opt);
                compared++;
                raised += oa.st.cluster_raise > 0;
            }
            push_seq_free(&ob.pushes);
            push_seq_free(&oa.pushes);
            board_free(&v);
        }
        reach_free(&r);
        test_level_free(&b, &p);
    }
    printf("  %d positions compared, %d raised by the clusters\n", compared, raised);
    CHECK(compared >= (test_quick() ? 30 : 60)); /* (BFS decides a third of them) */
    CHECK(raised > 0);
    collection_free(&c);
}

/* An inadmissible raise, kept below the root by the pathmax, would make
 * A* miss the optimum: with both, push-optimal A* agrees with BFS. */
TEST(clusters_astar_matches_bfs_boxoban_medium)
{
    astar_config cfg = with_clusters();
    cfg.pathmax = 1;
    crosscheck_file("boxoban/medium/valid/000.txt", test_quick() ? 40 : 150, run_astar, &cfg, 1,
                    test_quick() ? 20 : 90);
}

/* Under a bound at BFS's optimum the search with the clusters must end
 * exhausted (at the start, where the raise reaches it), one above it find
 * the optimum; and the clusters must have raised some starts. */
static uint64_t clusters_raised(const stats *st)
{
    return st->cluster_raise > 0;
}

TEST(clusters_bound_proves_the_optimum)
{
    astar_config cfg = with_clusters();
    test_bound_proves_the_optimum("boxoban/medium/valid/000.txt", &cfg, test_quick() ? 15 : 60,
                                  clusters_raised);
}

/* Below the start (cfg->clusters_below): the start's clusters lift every
 * position where their boxes stand as at the start, with the start's goal
 * potentials. An inadmissible lift would make A* miss the optimum or prove
 * a bound above it: A* with it agrees with BFS, ends exhausted under a
 * bound at BFS's optimum and finds the optimum one above; and it must
 * have lifted positions below some starts. */
static astar_config with_clusters_below(void)
{
    astar_config c = with_clusters();
    c.clusters_below = 1;
    return c;
}

static uint64_t clusters_below_raised(const stats *st)
{
    return st->cluster_raised;
}

TEST(clusters_below_astar_matches_bfs_boxoban_medium)
{
    astar_config cfg = with_clusters_below();
    crosscheck_file("boxoban/medium/valid/000.txt", test_quick() ? 40 : 150, run_astar, &cfg, 1,
                    test_quick() ? 20 : 90);
}

TEST(clusters_below_bound_proves_the_optimum)
{
    astar_config cfg = with_clusters_below();
    test_bound_proves_the_optimum("microban155.xsb", &cfg, test_quick() ? 60 : 155,
                                  clusters_below_raised);
}

/* Microban I, push-optimal with and without the clusters below the start
 * (without them, the proof the project has long made): the same proven
 * push count wherever both prove one, and lifts on some levels. */
TEST(clusters_below_agrees_on_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared Microban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int both = 0;
    uint64_t lifted = 0;
    for (int k = 0; k < c.nlevels && k < (test_quick() ? 80 : 155); k++) {
        board b;
        if (c.levels[k].error || test_level_board(&c.levels[k], &b) != 0)
            continue;
        astar_config on = with_clusters_below(), off = with_clusters();
        search_outcome o1, o0;
        search_limits lim = {0};
        lim.start_ns = timer_now_ns();
        lim.max_nodes = 200000;
        membudget m1, m0;
        mem_init(&m1, 1ULL << 30);
        mem_init(&m0, 1ULL << 30);
        search_limits l0 = lim;
        astar_solve(&b, &on, &lim, &m1, &o1);
        astar_solve(&b, &off, &l0, &m0, &o0);
        if (o1.solved && o0.solved) {
            both++;
            if (push_seq_pushes(&o1.pushes) != push_seq_pushes(&o0.pushes))
                test_fail(__FILE__, __LINE__, "Microban %d: %ld pushes with the clusters below, %ld without",
                          k + 1, push_seq_pushes(&o1.pushes), push_seq_pushes(&o0.pushes));
        }
        lifted += o1.st.cluster_raised;
        push_seq_free(&o1.pushes);
        push_seq_free(&o0.pushes);
        board_free(&b);
    }
    printf("  %d levels proven both ways, %llu positions lifted\n", both,
           (unsigned long long)lifted);
    CHECK(both >= (test_quick() ? 70 : 140));
    CHECK(lifted > 0);
    collection_free(&c);
}

/* At the positions taken from the open list (cfg->pop_clusters): clusters
 * of each position's own boxes against the start's goal potentials, their
 * values cached by squares. An inadmissible lift (a wrong value, a cache
 * entry read for another cluster or another part of the floor) would make
 * A* miss the optimum or prove a bound above it: A* with it agrees with
 * BFS, ends exhausted under a bound at BFS's optimum and finds the
 * optimum one above; and it must have lifted positions. */
static astar_config with_pop_clusters(void)
{
    astar_config c = with_clusters_below();
    c.pop_clusters = 1000;
    return c;
}

static uint64_t pop_clusters_lifted(const stats *st)
{
    return st->pop_cluster_lifted;
}

TEST(pop_clusters_astar_matches_bfs_boxoban_medium)
{
    astar_config cfg = with_pop_clusters();
    crosscheck_file("boxoban/medium/valid/000.txt", test_quick() ? 40 : 150, run_astar, &cfg, 1,
                    test_quick() ? 20 : 90);
}

TEST(pop_clusters_bound_proves_the_optimum)
{
    astar_config cfg = with_pop_clusters();
    /* (the first 60 Microban I levels: further on, a few levels with
       many boxes in small rooms search their clusters slowly under a
       bound with no time limit) */
    test_bound_proves_the_optimum("microban155.xsb", &cfg, 60, pop_clusters_lifted);
}

/* Microban I with and without them: the same proven push count wherever
 * both prove one, and lifts on some levels; a search of a cluster stopped
 * at a tiny limit (its value then the depth last exhausted) is still a
 * bound, so the counts agree with that limit too. */
TEST(pop_clusters_agree_on_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared Microban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int both = 0;
    uint64_t lifted = 0, tests = 0;
    for (int k = 0; k < c.nlevels && k < (test_quick() ? 80 : 155); k++) {
        board b;
        if (c.levels[k].error || test_level_board(&c.levels[k], &b) != 0)
            continue;
        astar_config on = with_pop_clusters(), tiny = with_pop_clusters(),
                     off = with_clusters_below();
        tiny.pop_clusters = 3;
        const astar_config *cfgs[3] = {&off, &on, &tiny};
        search_outcome o[3];
        for (int x = 0; x < 3; x++) {
            search_limits lim = {0};
            lim.start_ns = timer_now_ns();
            lim.max_nodes = 200000;
            /* (a level one of them does not prove within 2 s is left out:
               the agreement is checked where all three prove) */
            lim.deadline_ns = lim.start_ns + 2000000000LL;
            membudget m;
            mem_init(&m, 1ULL << 30);
            astar_solve(&b, cfgs[x], &lim, &m, &o[x]);
        }
        if (o[0].solved && o[1].solved && o[2].solved) {
            both++;
            long p0 = push_seq_pushes(&o[0].pushes);
            if (push_seq_pushes(&o[1].pushes) != p0 || push_seq_pushes(&o[2].pushes) != p0)
                test_fail(__FILE__, __LINE__,
                          "Microban %d: %ld pushes with the popped positions' clusters (%ld at a "
                          "limit of 3), %ld without",
                          k + 1, push_seq_pushes(&o[1].pushes), push_seq_pushes(&o[2].pushes), p0);
        }
        lifted += o[1].st.pop_cluster_lifted;
        tests += o[1].st.pop_cluster_tests;
        for (int x = 0; x < 3; x++)
            push_seq_free(&o[x].pushes);
        board_free(&b);
    }
    printf("  %d levels proven all three ways, %llu of %llu popped positions lifted\n", both,
           (unsigned long long)lifted, (unsigned long long)tests);
    CHECK(both >= (test_quick() ? 70 : 130));
    CHECK(lifted > 0);
    collection_free(&c);
}

/* When the budget refuses the cache (16 MiB a worker), the positions keep
 * their bound: A* proves the same push count as without the tests and
 * values no cluster. */
TEST(pop_clusters_without_room_for_the_cache)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared Microban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int both = 0;
    uint64_t tests = 0, searches = 0;
    for (int k = 0; k < c.nlevels && k < 40; k++) {
        board b;
        if (c.levels[k].error || test_level_board(&c.levels[k], &b) != 0)
            continue;
        astar_config on = with_pop_clusters(), off = with_clusters_below();
        const astar_config *cfgs[2] = {&off, &on};
        search_outcome o[2];
        for (int x = 0; x < 2; x++) {
            search_limits lim = {0};
            lim.start_ns = timer_now_ns();
            lim.max_nodes = 200000;
            membudget m;
            mem_init(&m, 12ULL << 20); /* A*'s store fits, the cache does not */
            astar_solve(&b, cfgs[x], &lim, &m, &o[x]);
        }
        if (o[0].solved && o[1].solved) {
            both++;
            if (push_seq_pushes(&o[1].pushes) != push_seq_pushes(&o[0].pushes))
                test_fail(__FILE__, __LINE__, "Microban %d: %ld pushes with a refused cache, %ld without",
                          k + 1, push_seq_pushes(&o[1].pushes), push_seq_pushes(&o[0].pushes));
        }
        tests += o[1].st.pop_cluster_tests;
        searches += o[1].st.pop_cluster_searches + o[1].st.pop_cluster_hits;
        for (int x = 0; x < 2; x++)
            push_seq_free(&o[x].pushes);
        board_free(&b);
    }
    printf("  %d levels proven both ways in 12 MiB, %llu positions tested, %llu clusters valued\n",
           both, (unsigned long long)tests, (unsigned long long)searches);
    CHECK(both >= 30);
    CHECK(tests > 0);
    CHECK(searches == 0);
    collection_free(&c);
}
