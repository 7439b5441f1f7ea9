/* Tests of the optimizer: the metric order, the vicinity search against an
 * exhaustive move-level search (the true optimum), segments in the middle
 * of a solution, and "never worse, always valid" on shared levels. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/solution.h"
#include "../../src/optimize/optimize.h"
#include "../../src/driver/solve.h"
#include "../../src/util/options.h"
#include "../../src/util/timer.h"
#include "../../src/util/util.h"

#include <stdlib.h>

TEST(optimize_metric_order)
{
    sol_metrics a = {100, 30, 10, 5, 8, 40}, b = a;
    CHECK_INT(metrics_cmp(&a, &b, OPT_MOVES), 0);
    b.moves = 101;
    b.pushes = 20; /* more moves, fewer pushes */
    CHECK(metrics_cmp(&a, &b, OPT_MOVES) < 0);
    CHECK(metrics_cmp(&a, &b, OPT_PUSHES) > 0);
    b = a;
    b.player_lines = 39; /* the last tie-break */
    CHECK(metrics_cmp(&b, &a, OPT_MOVES) < 0);
    CHECK(metrics_cmp(&b, &a, OPT_PUSHES) < 0);
    b = a;
    b.box_lines = 11;
    b.player_lines = 1; /* box lines come first */
    CHECK(metrics_cmp(&b, &a, OPT_MOVES) > 0);
}

/* ------------------------------------------------- the reference search */

/* The exhaustive search over player steps: the least cost (primary <<
 * 32 | secondary, moves and pushes in the metric's order) of a solution,
 * or UINT64_MAX when none. Boards of at most 64 inner squares. */
typedef struct rstate {
    uint64_t boxes, cost;
    sq_t player;
    uint8_t used, closed;
} rstate;

static uint64_t reference_optimum(const board *b, int metric)
{
    if (b->nsq > 64)
        return UINT64_MAX - 1;
    uint32_t cap = 1u << 22, mask = cap - 1;
    rstate *t = xcalloc(cap, sizeof(rstate));
    typedef struct {
        uint64_t cost;
        uint32_t i;
    } item;
    item *heap = xmalloc(sizeof(item) * cap);
    uint32_t nh = 0, n = 0;
    uint64_t goals = 0, start = 0;
    for (int i = 0; i < b->nboxes; i++) {
        goals |= (uint64_t)1 << b->goals[i];
        start |= (uint64_t)1 << b->start_boxes[i];
    }
#define FIND(bx, pl, out)                                                        \
    do {                                                                         \
        uint32_t h_ = (uint32_t)board_mix64((bx) * 131 + (pl)) & mask;           \
        while (t[h_].used && !(t[h_].boxes == (bx) && t[h_].player == (pl)))     \
            h_ = (h_ + 1) & mask;                                                \
        out = h_;                                                                \
    } while (0)
#define PUSHH(c, idx)                                                            \
    do {                                                                         \
        uint32_t k_ = nh++;                                                      \
        while (k_ > 0 && heap[(k_ - 1) / 2].cost > (c)) {                        \
            heap[k_] = heap[(k_ - 1) / 2];                                       \
            k_ = (k_ - 1) / 2;                                                   \
        }                                                                        \
        heap[k_] = (item){(c), (idx)};                                           \
    } while (0)
    uint32_t s0;
    FIND(start, b->start_player, s0);
    t[s0] = (rstate){start, 0, b->start_player, 1, 0};
    n++;
    PUSHH(0, s0);
    uint64_t best = UINT64_MAX;
    const uint64_t mv = metric == OPT_MOVES ? (uint64_t)1 << 32 : 1;
    const uint64_t pu = ((uint64_t)1 << 32) + 1;
    while (nh > 0 && n < cap / 2) {
        item top = heap[0], last = heap[--nh];
        uint32_t k = 0;
        for (;;) {
            uint32_t c = 2 * k + 1;
            if (c >= nh)
                break;
            if (c + 1 < nh && heap[c + 1].cost < heap[c].cost)
                c++;
            if (heap[c].cost >= last.cost)
                break;
            heap[k] = heap[c];
            k = c;
        }
        if (nh)
            heap[k] = last;
        rstate *x = &t[top.i];
        if (x->closed || x->cost != top.cost)
            continue;
        x->closed = 1;
        if (x->boxes == goals) {
            best = x->cost;
            break;
        }
        for (int d = 0; d < 4; d++) {
            sq_t to = b->nb[x->player][d];
            if (to == SQ_NONE)
                continue;
            uint64_t bx = x->boxes, c = x->cost + mv;
            if (bx >> to & 1) {
                sq_t dst = b->nb[to][d];
                if (dst == SQ_NONE || (bx >> dst & 1))
                    continue;
                bx = (bx & ~((uint64_t)1 << to)) | (uint64_t)1 << dst;
                c = x->cost + pu;
            }
            uint32_t y;
            FIND(bx, to, y);
            if (!t[y].used) {
                t[y] = (rstate){bx, UINT64_MAX, to, 1, 0};
                n++;
            }
            if (t[y].closed || t[y].cost <= c)
                continue;
            t[y].cost = c;
            if (nh < cap)
                PUSHH(c, y);
        }
    }
#undef FIND
#undef PUSHH
    free(t);
    free(heap);
    return best;
}

static uint64_t cost_of(const sol_metrics *m, int metric)
{
    return metric == OPT_MOVES ? ((uint64_t)m->moves << 32) | (uint64_t)m->pushes
                               : ((uint64_t)m->pushes << 32) | (uint64_t)m->moves;
}

/* Copies solution `in` into `out` with a detour (a step to a free square
 * and back) before every `every`-th step where one exists. */
static void add_detours(const board *b, const movelist *in, movelist *out, int every)
{
    position p;
    pos_init(&p, b);
    out->n = 0;
    for (int i = 0; i < in->n; i++) {
        int d = in->m[i] & 3;
        if (i % every == 0)
            for (int e = 0; e < 4; e++) {
                sq_t t = b->nb[p.player][e];
                if (pos_free_sq(&p, t)) {
                    moves_add(out, e, 0);
                    moves_add(out, e ^ 2, 0);
                    break;
                }
            }
        sq_t to = b->nb[p.player][d];
        moves_add(out, d, (in->m[i] & MOVE_PUSH) != 0);
        if (p.box_at[to] != NO_BOX) {
            undo_rec u;
            pos_push(&p, to, d, 1, &u);
        } else {
            p.player = to;
        }
    }
    pos_free(&p);
}

/* A solution of lv from the solver (A* push-optimal), as moves. */
static int solve_moves(const level *lv, movelist *mv)
{
    options o;
    options_init(&o);
    o.optimal = 1;
    search_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.start_ns = timer_now_ns();
    solve_result r;
    solve_level(lv, &o, &lim, 256u << 20, &r);
    int ok = r.status == RESULT_SOLVED;
    char err[160];
    if (ok)
        ok = lurd_decode(r.lurd, mv, err, sizeof err) == 0;
    solve_result_free(&r);
    return ok;
}

/* Levels of one or two boxes: the vicinity 999/999 holds every box
 * configuration, so the optimizer must reach the exhaustive optimum. */
static const char *const small_levels[] = {
    /* a box to bring around a pillar */
    "########\n"
    "#.     #\n"
    "# ## $ #\n"
    "#   @  #\n"
    "########\n",
    /* two boxes, two goals in a corridor with a side room */
    "########\n"
    "#  .   #\n"
    "# $##$ #\n"
    "#@  .  #\n"
    "###  ###\n"
    "  ####\n",
    /* two boxes whose order matters */
    "#######\n"
    "#..   #\n"
    "#  $$ #\n"
    "# #   #\n"
    "#    @#\n"
    "#######\n",
    /* open room, two boxes */
    "########\n"
    "#      #\n"
    "# $ .  #\n"
    "#  @   #\n"
    "# . $  #\n"
    "#      #\n"
    "########\n",
};

TEST(optimize_reaches_exhaustive_optimum_small_levels)
{
    int checked = 0;
    for (size_t k = 0; k < ARRAY_LEN(small_levels); k++) {
        collection c;
        board b;
        REQUIRE(test_board_of(small_levels[k], &c, &b) == 0);
        movelist in, slow, mv;
        moves_init(&in);
        moves_init(&slow);
        moves_init(&mv);
        REQUIRE(solve_moves(&c.levels[0], &in));
        add_detours(&b, &in, &slow, 3);
        /* each method alone: the vicinity 999/999, the permutations (with
         * at most two boxes, N = 2 moves every box anywhere) and the global
         * search 40 pushes deep: each cloud holds every configuration */
        for (int run = 0; run < 6; run++) {
            int metric = run & 1;
            unsigned methods = run < 2   ? 1u << OPT_M_vicinity
                               : run < 4 ? 1u << OPT_M_permutations
                                         : 1u << OPT_M_global;
            uint64_t ref = reference_optimum(&b, metric);
            REQUIRE(ref != UINT64_MAX);
            mv.n = 0;
            for (int i = 0; i < slow.n; i++)
                moves_add(&mv, slow.m[i] & 3, 0);
            opt_config cfg;
            opt_config_default(&cfg);
            cfg.metric = metric;
            cfg.near1 = cfg.near2 = 999;
            cfg.methods = methods;
            cfg.global_depth = 40; /* deep enough to reach every configuration */
            search_limits lim;
            memset(&lim, 0, sizeof lim);
            membudget mem;
            mem_init(&mem, 512u << 20);
            opt_report rep;
            REQUIRE(optimize_solution(&b, &mv, &cfg, &lim, &mem, &rep) == 0);
            replay_result rr;
            CHECK(solution_replay(&b, &mv, &rr));
            CHECK(cost_of(&rr.m, metric) == ref);
            if (cost_of(&rr.m, metric) != ref)
                test_fail(__FILE__, __LINE__,
                          "level %zu metric %d methods %u: %ld/%ld, optimum %llu/%llu", k,
                          metric, methods, rr.m.moves, rr.m.pushes,
                          (unsigned long long)(ref >> 32), (unsigned long long)(ref & 0xFFFFFFFF));
            for (int m = 0; m < OPT_NMETHODS; m++)
                if (!(methods >> m & 1))
                    CHECK_INT(rep.method[m].runs, 0);
            CHECK(metrics_cmp(&rr.m, &rep.before, metric) <= 0);
            CHECK(rep.after.moves == rr.m.moves && rep.after.pushes == rr.m.pushes);
            CHECK_INT(mem.used, 0); /* everything given back */
            checked++;
        }
        moves_free(&in);
        moves_free(&slow);
        moves_free(&mv);
        test_text_free(&c, &b, NULL);
    }
    CHECK_INT(checked, 6 * (int)ARRAY_LEN(small_levels));
}

/* A segment in the middle: the moves before push i0 and from push i1 + 1
 * on are kept as they were, and the whole replays. */
TEST(optimize_vicinity_middle_segment)
{
    collection c;
    board b;
    REQUIRE(test_board_of(small_levels[3], &c, &b) == 0);
    movelist in, slow, out;
    moves_init(&in);
    moves_init(&slow);
    moves_init(&out);
    REQUIRE(solve_moves(&c.levels[0], &in));
    add_detours(&b, &in, &slow, 2);
    replay_result rr;
    REQUIRE(solution_replay(&b, &slow, &rr));
    sol_trace t;
    sol_trace_build(&t, &b, &slow);
    REQUIRE(t.npushes >= 4);
    int i0 = 1, i1 = t.npushes - 1;
    vicinity_config vc = {.near1 = 999, .near2 = 999, .metric = OPT_MOVES, .max_configs = 1u << 20};
    search_limits lim;
    memset(&lim, 0, sizeof lim);
    membudget mem;
    mem_init(&mem, 256u << 20);
    vicinity_stats st = {0};
    vicinity_result r = vicinity_segment(&b, &slow, &t, i0, i1, &vc, &lim, &mem, &out, &st);
    CHECK(r == VIC_BETTER);
    if (r == VIC_BETTER) {
        replay_result r2;
        CHECK(solution_replay(&b, &out, &r2));
        CHECK(r2.m.moves < rr.m.moves);
        CHECK_INT(r2.m.pushes, rr.m.pushes);
        /* the prefix up to push i0 and the suffix from push i1 + 1 */
        for (int m = 0; m <= t.move_at[i0]; m++)
            CHECK_INT(out.m[m] & 3, slow.m[m] & 3);
        int tail = slow.n - t.move_at[i1 + 1];
        for (int m = 0; m < tail; m++)
            CHECK_INT(out.m[out.n - tail + m] & 3, slow.m[slow.n - tail + m] & 3);
    }
    CHECK(st.configs > 0 && st.states > 0);
    CHECK_INT(mem.used, 0);
    /* a cloud too small for the segment */
    vc.max_configs = 3;
    CHECK(vicinity_segment(&b, &slow, &t, i0, i1, &vc, &lim, &mem, &out, &st) == VIC_TOO_BIG);
    CHECK_INT(mem.used, 0);
    sol_trace_free(&t);
    moves_free(&in);
    moves_free(&slow);
    moves_free(&out);
    test_text_free(&c, &b, NULL);
}

/* Boxoban levels (4 boxes): the optimizer's result replays, is never worse
 * than its input, and never better than the exhaustive optimum. */
TEST(optimize_boxoban_valid_never_worse_never_below_optimum)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("boxoban medium sample not found in the shared levels");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 3 : 12, done = 0, reached = 0;
    for (int k = 0; k < c.nlevels && done < count; k++) {
        board b;
        if (test_level_board(&c.levels[k], &b) != 0)
            continue;
        movelist in, slow;
        moves_init(&in);
        moves_init(&slow);
        if (b.nsq <= 64 && solve_moves(&c.levels[k], &in)) {
            add_detours(&b, &in, &slow, 4);
            opt_config cfg;
            opt_config_default(&cfg);
            search_limits lim;
            memset(&lim, 0, sizeof lim);
            membudget mem;
            mem_init(&mem, 512u << 20);
            opt_report rep;
            REQUIRE(optimize_solution(&b, &slow, &cfg, &lim, &mem, &rep) == 0);
            replay_result rr;
            CHECK(solution_replay(&b, &slow, &rr));
            CHECK(metrics_cmp(&rr.m, &rep.before, OPT_MOVES) < 0); /* the detours go */
            uint64_t ref = reference_optimum(&b, OPT_MOVES);
            CHECK(cost_of(&rr.m, OPT_MOVES) >= ref);
            reached += cost_of(&rr.m, OPT_MOVES) == ref;
            done++;
        }
        moves_free(&in);
        moves_free(&slow);
        board_free(&b);
    }
    collection_free(&c);
    CHECK(done > 0);
    /* The default settings find the optimum of most of these small levels. */
    CHECK(reached * 2 >= done);
    printf("    optimize: %d of %d Boxoban levels at the exhaustive move optimum\n", reached, done);
}

/* Rearrangements alone on hand-made inputs; each level's solution is
 * written out in the comment and replayed before the optimizer sees it. */
static void rearrange_only(const char *text, const char *lurd, sol_metrics *before,
                           sol_metrics *after, opt_report *rep)
{
    collection c;
    board b;
    REQUIRE(test_board_of(text, &c, &b) == 0);
    movelist mv;
    moves_init(&mv);
    char err[160];
    REQUIRE(lurd_decode(lurd, &mv, err, sizeof err) == 0);
    replay_result rr;
    REQUIRE(solution_replay(&b, &mv, &rr));
    *before = rr.m;
    opt_config cfg;
    opt_config_default(&cfg);
    cfg.methods = 1u << OPT_M_rearrangements;
    search_limits lim;
    memset(&lim, 0, sizeof lim);
    membudget mem;
    mem_init(&mem, 64u << 20);
    REQUIRE(optimize_solution(&b, &mv, &cfg, &lim, &mem, rep) == 0);
    CHECK(solution_replay(&b, &mv, &rr));
    *after = rr.m;
    for (int m = 0; m < OPT_NMETHODS; m++)
        if (m != OPT_M_rearrangements)
            CHECK_INT(rep->method[m].runs, 0);
    moves_free(&mv);
    test_text_free(&c, &b, NULL);
}

TEST(optimize_rearrangements_cut_loop_and_join_sessions)
{
    sol_metrics before, after;
    opt_report rep;
    /* A loop: the box goes right, the player walks round and pushes it
     * back (R drru L), walks back (dllu) and only then pushes it home
     * (RRRR): 14 moves, 6 pushes. The boxes stand as at the start after
     * push 2, so pushes 1-2 are cut: RRRR, 4 moves, 4 pushes. */
    rearrange_only("########\n"
                   "#@$   .#\n"
                   "#      #\n"
                   "########\n",
                   "RdrruLdlluRRRR", &before, &after, &rep);
    CHECK_INT(before.moves, 14);
    CHECK_INT(before.pushes, 6);
    CHECK_INT(after.moves, 4);
    CHECK_INT(after.pushes, 4);
    CHECK(rep.method[OPT_M_rearrangements].improvements >= 1);
    /* Two sessions of the upper box around one of the lower box: R, then
     * d RRR for the lower box, then lllu RRR: 12 moves, 7 pushes. Joining
     * the upper box's sessions (RRRR, then llld RRR) walks 4 steps instead
     * of 5: 11 moves, the same 7 pushes, and one box change fewer. */
    rearrange_only("#########\n"
                   "#       #\n"
                   "#@$   . #\n"
                   "#  $  . #\n"
                   "#########\n",
                   "RdRRRllluRRR", &before, &after, &rep);
    CHECK_INT(before.moves, 12);
    CHECK_INT(before.pushes, 7);
    CHECK_INT(before.box_changes, 3);
    CHECK_INT(after.pushes, 7);
    CHECK(after.moves <= 11);
    CHECK_INT(after.box_changes, 2);
}
