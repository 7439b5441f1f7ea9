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

/* The reduced problem of pattern t by plain breadth-first search, apart
 * from goalsets.c's best-first one: every set of goals its boxes fill
 * within max_depth pushes, at its fewest pushes (a sorted list of set keys
 * and costs). Returns the number of sets, or -1 past `limit` states. */
#define BF_SETS 20000
static int bfs_sets(const board *b, const gs_pattern *t, int max_depth, int limit,
                    uint64_t *keys, int *costs)
{
    int k = t->k, nsets = 0;
    sq_t pl = 0;
    while (!t->region[pl])
        pl++;
    uint16_t *box_at = xmalloc(sizeof(uint16_t) * (size_t)b->nsq);
    uint32_t *mark = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    uint32_t ts = 0;
    sq_t *stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    for (sq_t q = 0; q < b->nsq; q++)
        box_at[q] = NO_BOX;
    uint32_t cap = 1;
    while (cap < 4u * (uint32_t)limit)
        cap <<= 1;
    uint64_t *tab = xcalloc(cap, sizeof(uint64_t));
    uint64_t *queue = xmalloc(sizeof(uint64_t) * (size_t)limit);
    /* a state: the sorted squares (12 bits each) under the player */
    sq_t bx[GS_MAX_BOXES];
    memcpy(bx, t->sq, sizeof(sq_t) * (size_t)k);
    for (int j = 0; j < k; j++)
        box_at[bx[j]] = 0;
    sq_t norm = reach_flood_marks(b, box_at, mark, &ts, stack, pl);
    for (int j = 0; j < k; j++)
        box_at[bx[j]] = NO_BOX;
    uint64_t key = norm;
    for (int j = 0; j < k; j++)
        key = key << 12 | bx[j];
    int nq = 0, head = 0, depth = 0, end = 1, over = 0;
    queue[nq++] = key;
    tab[(key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1)] = key + 1;
    while (head < nq && depth <= max_depth) {
        if (head == end) {
            depth++;
            end = nq;
            if (depth > max_depth)
                break;
        }
        key = queue[head++];
        uint64_t kk = key;
        for (int j = k - 1; j >= 0; j--) {
            bx[j] = (sq_t)(kk & 0xFFF);
            kk >>= 12;
        }
        int on = 0;
        for (int j = 0; j < k; j++)
            on += b->is_goal[bx[j]];
        if (on == k) {
            uint64_t sk = 0;
            for (int j = 0; j < k; j++) {
                int gi = 0;
                while (b->goals[gi] != bx[j])
                    gi++;
                sk = sk << 16 | (uint64_t)gi;
            }
            int known = 0;
            for (int i = 0; i < nsets && !known; i++)
                known = keys[i] == sk;
            if (!known && nsets < BF_SETS) {
                keys[nsets] = sk;
                costs[nsets++] = depth;
            }
        }
        for (int j = 0; j < k; j++)
            box_at[bx[j]] = 0;
        reach_flood_marks(b, box_at, mark, &ts, stack, (sq_t)kk);
        /* the pushes first: the children's floods move the stamps */
        sq_t pf[4 * GS_MAX_BOXES], pt[4 * GS_MAX_BOXES];
        int np = 0;
        for (int j = 0; j < k; j++)
            for (int d = 0; d < 4; d++) {
                sq_t from = bx[j], behind = b->nb[from][DIR_OPP(d)], to = b->nb[from][d];
                if (behind != SQ_NONE && to != SQ_NONE && mark[behind] == ts &&
                    box_at[to] == NO_BOX && !b->dead[to]) {
                    pf[np] = from;
                    pt[np++] = to;
                }
            }
        for (int e = 0; e < np && !over; e++) {
            sq_t from = pf[e], to = pt[e];
            sq_t nb2[GS_MAX_BOXES];
            for (int i = 0; i < k; i++)
                nb2[i] = bx[i] == from ? to : bx[i];
            for (int i = 1; i < k; i++)
                for (int m = i; m > 0 && nb2[m - 1] > nb2[m]; m--) {
                    sq_t x = nb2[m];
                    nb2[m] = nb2[m - 1];
                    nb2[m - 1] = x;
                }
            box_at[from] = NO_BOX;
            box_at[to] = 0;
            sq_t n2 = reach_flood_marks(b, box_at, mark, &ts, stack, from);
            box_at[to] = NO_BOX;
            box_at[from] = 0;
            uint64_t nk = n2;
            for (int i = 0; i < k; i++)
                nk = nk << 12 | nb2[i];
            uint32_t h = (uint32_t)(nk * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
            while (tab[h] && tab[h] != nk + 1)
                h = (h + 1) & (cap - 1);
            if (tab[h])
                continue;
            if (nq == limit) {
                over = 1;
                break;
            }
            tab[h] = nk + 1;
            queue[nq++] = nk;
        }
        for (int j = 0; j < k; j++)
            box_at[bx[j]] = NO_BOX;
        if (over)
            break;
    }
    free(box_at);
    free(mark);
    free(stack);
    free(tab);
    free(queue);
    return over ? -1 : nsets;
}

/* Every pattern's listed sets and costs against plain BFS: each listed
 * c(G) is BFS's, and every set BFS reaches in fewer than cap pushes is
 * listed. Patterns of 2-4 boxes (the start's), on the first levels of a
 * collection; returns the patterns compared. */
static int check_sets(const char *path, int count, int kmax)
{
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "cannot load %s", path);
        return 0;
    }
    uint64_t *keys = xmalloc(sizeof(uint64_t) * BF_SETS);
    int *costs = xmalloc(sizeof(int) * BF_SETS);
    int compared = 0;
    for (int li = 0; li < c.nlevels && li < count; li++) {
        board b;
        position p;
        if (c.levels[li].error || test_level_setup(&c.levels[li], &b, &p) != 0)
            continue;
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        lowerbound lb;
        if (lb_init(&lb, &b, 1, &mem) == 0) {
            for (int k = 2; k <= kmax; k++) {
                goalsets g;
                goalsets_build(&g, &b, &lb, k, 100000, 0, NULL);
                for (int i = 0; i < g.n; i++) {
                    const gs_pattern *t = &g.pat[i];
                    int depth = t->cap >= 0x7FFF ? 400 : t->cap - 1;
                    int n = bfs_sets(&b, t, depth, 400000, keys, costs);
                    if (n < 0)
                        continue; /* too big to check this way */
                    compared++;
                    for (int e = 0; e < t->nsets; e++) {
                        uint64_t sk = 0;
                        for (int j = 0; j < k; j++)
                            sk = sk << 16 | t->sets[(size_t)e * (size_t)k + (size_t)j];
                        int found = -1;
                        for (int x = 0; x < n && found < 0; x++)
                            if (keys[x] == sk)
                                found = x;
                        if (found < 0 || costs[found] != t->cost[e])
                            test_fail(__FILE__, __LINE__,
                                      "%s level %d k %d: set %d listed at %d, BFS %d", path,
                                      li + 1, k, e, t->cost[e], found < 0 ? -1 : costs[found]);
                    }
                    if (n > t->nsets) /* BFS found a set below cap the pattern lacks */
                        test_fail(__FILE__, __LINE__,
                                  "%s level %d k %d: BFS %d sets below %d pushes, listed %d",
                                  path, li + 1, k, n, t->cap, t->nsets);
                }
                goalsets_free(&g);
            }
            lb_free(&lb);
        }
        test_level_free(&b, &p);
    }
    free(keys);
    free(costs);
    collection_free(&c);
    return compared;
}

TEST(goalsets_sets_match_bfs_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared microban155.xsb not found");
    int compared = check_sets(path, test_quick() ? 20 : 80, 4);
    CHECK(compared >= (test_quick() ? 10 : 40));
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets: %d patterns' sets compared with BFS\n", compared);
}

/* Bigger boards, where a box's nearest goal can fall by more than one in a
 * push (the best over the player's sides): the search must take the least
 * f queued, not only the least not yet passed. */
TEST(goalsets_sets_match_bfs_xsokoban)
{
    const char *path = test_shared_level("xsokoban90.xsb");
    if (!path)
        SKIP("shared xsokoban90.xsb not found");
    int compared = check_sets(path, test_quick() ? 2 : 4, 3);
    CHECK(compared >= 1);
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets (xsokoban): %d patterns' sets compared with BFS\n", compared);
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
static void check_astar(const char *path, int first, int count, int *decided, int *with_cuts,
                        int *with_raises, int *shared)
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
            /* under a loose bound (9 above) with --goal-layers on and
             * off: the children the patterns defer past the layer keep an
             * admissible h */
            static const int aboves[][2] = {{9, 1}, {9, 0}, {1, 1}, {0, 1}};
            for (int v = 0; v < 4; v++) {
                int above = aboves[v][0];
                astar_config cfg = with_goalsets((uint32_t)(opt + above));
                cfg.goal_layers = aboves[v][1];
                cfg.seed = &sol; /* its detours' patterns too */
                membudget m2;
                mem_init(&m2, 1ULL << 30);
                search_outcome oa;
                astar_solve(&b, &cfg, &lim, &m2, &oa);
                /* the same patterns built by the caller and shared
                 * (astar_patterns, cfg.patterns): the same search (the
                 * patterns compared where A* built its own: not when the
                 * root's bound reaches the bound at once) */
                {
                    membudget m3;
                    mem_init(&m3, 1ULL << 30);
                    goalsets gs;
                    stats gst;
                    memset(&gst, 0, sizeof gst);
                    astar_patterns(&b, &cfg, &lim, &m3, &gs, &gst);
                    astar_config c2 = cfg;
                    c2.patterns = &gs;
                    search_outcome o2;
                    astar_solve(&b, &c2, &lim, &m3, &o2);
                    if (o2.solved != oa.solved || o2.stop != oa.stop ||
                        o2.st.nodes != oa.st.nodes || o2.st.goalset_cuts != oa.st.goalset_cuts ||
                        (oa.st.nodes && gst.goalset_patterns != oa.st.goalset_patterns))
                        test_fail(__FILE__, __LINE__,
                                  "%s level %d: shared patterns %llu nodes %llu cuts, own %llu, %llu",
                                  path, li + 1, (unsigned long long)o2.st.nodes,
                                  (unsigned long long)o2.st.goalset_cuts,
                                  (unsigned long long)oa.st.nodes,
                                  (unsigned long long)oa.st.goalset_cuts);
                    (*shared)++;
                    push_seq_free(&o2.pushes);
                    astar_patterns_free(&gs, &m3);
                }
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
                    *with_raises += oa.st.goalset_raises > 0;
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
    int decided = 0, with_cuts = 0, with_raises = 0, shared = 0;
    /* the quick sample (sanitizers) takes levels 31-45, which hold cuts
     * (34, 35, 36); the full one 1-60 */
    int first = test_quick() ? 30 : 0, count = test_quick() ? 15 : 60;
    check_astar(path, first, count, &decided, &with_cuts, &with_raises, &shared);
    CHECK(decided >= count * 3 * 8 / 10); /* three runs with a solution a level */
    CHECK(shared >= decided);
    CHECK(with_cuts > 0); /* the patterns cut something in the sample */
    CHECK(with_raises > 0); /* and deferred something */
    if (getenv("KEEPER_TEST_COUNTS"))
        printf("  goalsets A*: %d runs decided, %d with cuts, %d with raises\n", decided,
               with_cuts, with_raises);
}

TEST(astar_optimal_goalsets_demo_levels)
{
    int decided = 0, with_cuts = 0, with_raises = 0, shared = 0;
    check_astar("levels/demo.xsb", 0, 100, &decided, &with_cuts, &with_raises, &shared);
    CHECK(decided > 0);
    CHECK(shared >= decided);
}
