/* test_goalsets.c: the bound of a few boxes per set of goals
 * (heuristic/goalsets.h) against a brute force over every set of goals on
 * positions of random push walks, and push-optimal A* with it against
 * breadth-first search, under a bound at and above the optimum, with the
 * patterns of BFS's solution's detours as well as the start's. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/reach.h"
#include "../../src/heuristic/goalsets.h"
#include "../../src/search/astar.h"
#include "../../src/search/bfs.h"
#include "../../src/search/pathbuild.h"
#include "../../src/util/timer.h"
#include "../../src/util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pattern's h' afresh: every listed set G, c(G) plus the others'
 * matching to the goals outside G solved from nothing; the sets not listed
 * count as cap plus the others' matching to any goals (goalsets.h). */
static int64_t solve_with(lowerbound *lb, const board *b, const position *p, const gs_pattern *t,
                          sq_t where)
{
    int n = b->nboxes;
    sq_t *bx = xmalloc(sizeof(sq_t) * (size_t)n);
    for (int i = 0; i < n; i++)
        bx[i] = p->boxes[i];
    for (int j = 0; j < t->k; j++)
        bx[p->box_at[t->sq[j]]] = where;
    lb_sol s;
    lb_sol_init(&s, n);
    int64_t m = lb_solve(lb, &s, bx);
    lb_sol_free(&s);
    free(bx);
    return m;
}

static int64_t brute(const board *b, lowerbound *lb, const gs_pattern *t, const position *p)
{
    int64_t m0 = solve_with(lb, b, p, t, lb_wild(lb));
    if (m0 == LB_INF)
        return INT64_MAX;
    int64_t best = (int64_t)t->cap + m0;
    for (int e = 0; e < t->nsets; e++) {
        lb_restrict(lb, t->sets + (size_t)e * (size_t)t->k, t->k);
        int64_t m = solve_with(lb, b, p, t, lb_restricted(lb));
        if (m != LB_INF && t->cost[e] + m < best)
            best = t->cost[e] + m;
    }
    return best;
}

/* One random legal push (onto a live square) of p; 0 when none. */
static int random_push(const board *b, position *p, reach *r, uint64_t *seed)
{
    reach_compute(r, p, p->player);
    int cand[4 * 64][2], nc = 0;
    for (int i = 0; i < b->nboxes && nc < 4 * 64 - 4; i++) {
        sq_t x = p->boxes[i];
        for (int d = 0; d < 4; d++) {
            sq_t behind = b->nb[x][DIR_OPP(d)], to = b->nb[x][d];
            if (behind != SQ_NONE && to != SQ_NONE && reach_floor(r, behind) &&
                p->box_at[to] == NO_BOX && !b->dead[to]) {
                cand[nc][0] = x;
                cand[nc++][1] = to;
            }
        }
    }
    if (!nc)
        return 0;
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    int c = (int)((*seed >> 33) % (uint64_t)nc);
    undo_rec u;
    pos_relocate(p, (sq_t)cand[c][0], (sq_t)cand[c][1], (sq_t)cand[c][0], &u);
    return 1;
}

/* Per level: patterns of 2 and 3 boxes; along random walks from the
 * start, every pattern held: goalsets_value equals the brute force, and a
 * cut test never claims more than it. */
static void check_values(const char *path, int count, int *compared, int *raised)
{
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "cannot load %s", path);
        return;
    }
    uint64_t seed = 12345;
    for (int li = 0; li < c.nlevels && li < count; li++) {
        board b;
        position p;
        if (c.levels[li].error || test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        lowerbound lb;
        reach r;
        reach_init(&r, b.nsq);
        lb_sol s, t0, t1;
        lb_sol_init(&s, b.nboxes);
        lb_sol_init(&t0, b.nboxes);
        lb_sol_init(&t1, b.nboxes);
        if (lb_init(&lb, &b, 1, &mem) == 0) {
            for (int k = 2; k <= 3; k++) {
                goalsets g;
                goalsets_build(&g, &b, &lb, k, 100000, 0, NULL);
                for (int walk = 0; walk < 4 && g.n; walk++) {
                    pos_set(&p, b.start_boxes, b.start_player);
                    for (int step = 0; step < 12; step++) {
                        lb_sol_free(&s);
                        lb_sol_init(&s, b.nboxes);
                        int64_t m = lb_solve(&lb, &s, p.boxes);
                        for (int i = 0; i < g.n && m != LB_INF; i++) {
                            if (!goalsets_holds(&g.pat[i], &p))
                                continue;
                            int64_t want = brute(&b, &lb, &g.pat[i], &p);
                            int64_t got = goalsets_value(&g, i, &p, &lb, &s, &t0, &t1, INT64_MAX);
                            if (got != want)
                                test_fail(__FILE__, __LINE__,
                                          "%s level %d, pattern %d: value %lld, brute force %lld",
                                          path, li + 1, i, (long long)got, (long long)want);
                            for (int64_t need = want - 2; need <= want + 2; need++) {
                                int64_t v = goalsets_value(&g, i, &p, &lb, &s, &t0, &t1, need);
                                if (v >= need && want < need)
                                    test_fail(__FILE__, __LINE__,
                                              "%s level %d: cut at %lld, h' %lld", path, li + 1,
                                              (long long)need, (long long)want);
                            }
                            (*compared)++;
                            *raised += want > m;
                        }
                        if (!random_push(&b, &p, &r, &seed))
                            break;
                    }
                }
                goalsets_free(&g);
            }
            lb_free(&lb);
        }
        lb_sol_free(&s);
        lb_sol_free(&t0);
        lb_sol_free(&t1);
        reach_free(&r);
        test_level_free(&b, &p);
    }
    collection_free(&c);
}

TEST(goalsets_value_matches_brute_force_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared microban155.xsb not found");
    int compared = 0, raised = 0;
    check_values(path, test_quick() ? 15 : 60, &compared, &raised);
    CHECK(compared >= (test_quick() ? 20 : 100));
    CHECK(raised > 0); /* the sample holds patterns above the matching */
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets: %d values compared, %d above the matching\n", compared, raised);
}

TEST(goalsets_value_matches_brute_force_demo)
{
    int compared = 0, raised = 0;
    check_values("levels/demo.xsb", 100, &compared, &raised);
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets (demo): %d values compared, %d above the matching\n", compared, raised);
    CHECK(compared >= 0);
}

static astar_config with_goalsets(uint32_t bound)
{
    astar_config c = {.optimal = 1, .weight = 1, .dead_squares = 1,
                      .dl = {.freeze = 1, .local = 1, .stuck = 1, .corrals = 1},
                      .matching = 1, .dfs_ext = 1, .tunnels = 1, .goal_sets = 3,
                      .bound = bound};
    return c;
}

/* A* with the patterns under the bound BFS's optimum + 1 finds a solution
 * of the optimum's pushes (a cut that lost every optimal solution would
 * leave it none below the bound), and under the optimum itself proves that
 * none is shorter. */
static void check_astar(const char *path, int first, int count, int *decided, int *with_cuts)
{
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "cannot load %s", path);
        return;
    }
    for (int li = first; li < c.nlevels && li < first + count; li++) {
        board b;
        if (c.levels[li].error || test_level_board(&c.levels[li], &b) != 0)
            continue;
        search_limits lim = {0};
        lim.start_ns = timer_now_ns();
        lim.max_nodes = 2000000;
        membudget m1;
        mem_init(&m1, 1ULL << 30);
        bfs_config bc = {.prune_dead = 1};
        search_outcome ob;
        bfs_solve(&b, &bc, &lim, &m1, &ob);
        movelist sol;
        moves_init(&sol);
        if (ob.solved && path_build(&b, &ob.pushes, &sol) == 0) {
            long opt = push_seq_pushes(&ob.pushes);
            for (int above = 1; above >= 0; above--) {
                astar_config cfg = with_goalsets((uint32_t)(opt + above));
                cfg.seed = &sol; /* its detours' patterns too */
                membudget m2;
                mem_init(&m2, 1ULL << 30);
                search_outcome oa;
                astar_solve(&b, &cfg, &lim, &m2, &oa);
                if (above) {
                    long got = -1;
                    if (oa.solved) {
                        movelist mv;
                        moves_init(&mv);
                        replay_result rr;
                        if (path_build(&b, &oa.pushes, &mv) == 0 && solution_replay(&b, &mv, &rr))
                            got = rr.m.pushes;
                        moves_free(&mv);
                    }
                    if (oa.stop != STOP_NODES && got != opt)
                        test_fail(__FILE__, __LINE__, "%s level %d: BFS %ld pushes, A* %ld", path,
                                  li + 1, opt, got);
                    *decided += oa.stop != STOP_NODES;
                    *with_cuts += oa.st.goalset_cuts > 0;
                    if (getenv("KEEPER_TEST_COUNTS") && oa.st.goalset_cuts)
                        printf("  goalsets A*: level %d, %llu cuts\n", li + 1,
                               (unsigned long long)oa.st.goalset_cuts);
                } else if (oa.solved) {
                    test_fail(__FILE__, __LINE__, "%s level %d: a solution below BFS's %ld", path,
                              li + 1, opt);
                }
                push_seq_free(&oa.pushes);
            }
        }
        moves_free(&sol);
        push_seq_free(&ob.pushes);
        board_free(&b);
    }
    collection_free(&c);
}

TEST(astar_optimal_goalsets_match_bfs_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared microban155.xsb not found");
    int decided = 0, with_cuts = 0;
    /* the quick sample (sanitizers) takes levels 31-45, which hold cuts
     * (34, 35, 36); the full one 1-60 */
    int first = test_quick() ? 30 : 0, count = test_quick() ? 15 : 60;
    check_astar(path, first, count, &decided, &with_cuts);
    CHECK(decided >= count * 8 / 10);
    CHECK(with_cuts > 0); /* the patterns cut something in the sample */
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets A*: %d levels decided, %d with cuts\n", decided, with_cuts);
}

TEST(astar_optimal_goalsets_demo_levels)
{
    int decided = 0, with_cuts = 0;
    check_astar("levels/demo.xsb", 0, 100, &decided, &with_cuts);
    CHECK(decided > 0);
}
