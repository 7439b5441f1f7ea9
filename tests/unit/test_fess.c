/* test_fess.c: the feature-space search and its parts.
 *  - macro box moves (boxpath_moves) against a brute-force search over
 *    (box square, player square) states with single pushes, and the
 *    player's region after each (reach_after_move) against a fresh flood;
 *  - the features of hand-made boards, worked out in the comments;
 *  - the search solves what BFS solves, and every solution replays. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/distance.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/core/reach.h"
#include "../../src/search/boxpath.h"
#include "../../src/util/util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Brute force: from position p, the box on `from` alone moves (pushes of
 * that box, walks of the player, other boxes still, never onto a dead
 * square). For every state (box square, player square) reached, its fewest
 * pushes; then per (box square, normalized player square) the least.
 * Writes into best[box * nsq + norm] (-1 = not reached). */
static void brute_moves(position *p, sq_t from, int *best)
{
    const board *b = p->b;
    int n = b->nsq;
    int *dist = malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *dq = malloc(sizeof(int) * (size_t)n * (size_t)n * 2);
    for (int i = 0; i < n * n; i++)
        dist[i] = -1;
    int head = n * n, tail = n * n;
    dist[from * n + p->player] = 0;
    dq[tail++] = from * n + p->player;
    while (head < tail) {
        int st = dq[head++];
        int bx = st / n, pl = st % n, d0 = dist[st];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[pl][d];
            if (t == SQ_NONE || (p->box_at[t] != NO_BOX && t != from))
                continue;
            if (t != bx) {
                int ns = bx * n + t;
                if (dist[ns] < 0 || dist[ns] > d0) {
                    dist[ns] = d0;
                    dq[--head] = ns;
                }
            } else {
                sq_t ahead = b->nb[bx][d];
                if (ahead == SQ_NONE || (p->box_at[ahead] != NO_BOX && ahead != from) ||
                    b->dead[ahead])
                    continue;
                int ns = ahead * n + bx;
                if (dist[ns] < 0 || dist[ns] > d0 + 1) {
                    dist[ns] = d0 + 1;
                    dq[tail++] = ns;
                }
            }
        }
    }
    test_best_per_region(p, from, dist, best);
    free(dist);
    free(dq);
}

/* Macro moves whose region reach_after_move updated locally (not afresh),
 * and all it was asked for. */
static long g_region_local, g_region_all;
/* Of those, moves the local test sent afresh that the blocks of the box's
 * walk (O no cut square) let reach_after_move_known update locally. */
static long g_region_joins;

/* Whether r and want hold the same region: floors and boxes, square by square. */
static int same_region(const reach *r, const reach *want, int n)
{
    for (int q = 0; q < n; q++)
        if (reach_floor(r, (sq_t)q) != reach_floor(want, (sq_t)q) ||
            reach_box(r, (sq_t)q) != reach_box(want, (sq_t)q))
            return 0;
    return 1;
}

/* After a walk of the box on `from` that kept the forest of p's floor:
 * boxpath_lifted_has and boxpath_lifted_pieces, square by square, against
 * the blocks of the floor with that box lifted, built for this walk alone
 * (blocks_build, itself checked against floods in test_core.c). */
static long g_lifted_checked;
static void check_lifted(const boxpath *bp, const position *p, sq_t from, const char *what)
{
    const board *b = p->b;
    blocks ref;
    blocks_init(&ref, b->nsq);
    uint8_t *blocked = malloc((size_t)b->nsq);
    for (int q = 0; q < b->nsq; q++)
        blocked[q] = p->box_at[q] != NO_BOX;
    blocked[from] = 0;
    blocks_build(&ref, b, blocked, from);
    for (sq_t x = 0; x < b->nsq; x++) {
        int has = blocks_has(&ref, x);
        if (boxpath_lifted_has(bp, b, x) != has) {
            test_fail(__FILE__, __LINE__, "%s: box on %d lifted: square %d in its component %d, "
                      "the blocks say %d", what, (int)from, (int)x, !has, has);
            break;
        }
        if (has && boxpath_lifted_pieces(bp, b, x) != blocks_pieces(&ref, b, x)) {
            test_fail(__FILE__, __LINE__, "%s: box on %d lifted: square %d splits it into %d "
                      "pieces, the blocks say %d", what, (int)from, (int)x,
                      boxpath_lifted_pieces(bp, b, x), blocks_pieces(&ref, b, x));
            break;
        }
        g_lifted_checked++;
    }
    free(blocked);
    blocks_free(&ref);
}

/* Compares boxpath_moves with brute_moves for every box of p, and the
 * player's region after each move, updated from p's by reach_after_move,
 * with a fresh flood square by square. Returns the number of moves
 * checked; failures are reported. */
static int check_moves(position *p, boxpath *bp, const char *what)
{
    const board *b = p->b;
    int n = b->nsq, checked = 0;
    int *best = malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *got = malloc(sizeof(int) * (size_t)n * (size_t)n);
    box_move *mv = malloc(sizeof(box_move) * (size_t)n * 4);
    reach r, r2, r3, r4;
    reach_init(&r, n);
    reach_init(&r2, n);
    reach_init(&r3, n);
    reach_init(&r4, n);
    sq_t norm0 = reach_compute(&r, p, p->player);
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        brute_moves(p, from, best);
        best[from * n + norm0] = -1; /* the position itself is no move */
        for (int k = 0; k < n * n; k++)
            got[k] = -1;
        int nm = boxpath_moves(bp, p, &r, from, 0xF, mv);
        if (bp->bk_ready)
            check_lifted(bp, p, from, what);
        int last = 0;
        for (int k = 0; k < nm; k++) {
            sq_t pl = b->nb[mv[k].to][DIR_OPP(mv[k].dir)];
            undo_rec u;
            pos_relocate(p, from, mv[k].to, pl, &u);
            sq_t norm = reach_compute(&r2, p, pl);
            int fresh = -1;
            sq_t norm3 = reach_after_move(&r3, &r, p, from, mv[k].to, pl, &fresh);
            g_region_all++;
            g_region_local += fresh == 0;
            if (norm3 != norm || !same_region(&r3, &r2, n))
                test_fail(__FILE__, __LINE__, "%s: box %d to %d: region updated locally (%s) "
                          "differs from a fresh flood", what, i, mv[k].to, fresh ? "afresh" : "locally");
            /* as the feature-space search asks: O's pieces in the walk's blocks */
            int o_joins = bp->bk_ready && boxpath_lifted_has(bp, b, mv[k].to) &&
                          boxpath_lifted_pieces(bp, b, mv[k].to) <= 1;
            int fresh4 = -1;
            sq_t norm4 = reach_after_move_known(&r4, &r, p, from, mv[k].to, pl, o_joins, &fresh4);
            g_region_joins += fresh && !fresh4;
            if (norm4 != norm || !same_region(&r4, &r2, n))
                test_fail(__FILE__, __LINE__, "%s: box %d to %d: region updated with the blocks "
                          "(o_joins %d, %s) differs from a fresh flood", what, i, mv[k].to, o_joins,
                          fresh4 ? "afresh" : "locally");
            pos_undo(p, &u);
            if (got[mv[k].to * n + norm] >= 0)
                test_fail(__FILE__, __LINE__, "%s: box %d: move to %d given twice", what, i,
                          mv[k].to);
            got[mv[k].to * n + norm] = mv[k].pushes;
            if (mv[k].pushes < last)
                test_fail(__FILE__, __LINE__, "%s: moves out of push order", what);
            last = mv[k].pushes;
            /* the move replays: the exact final state */
            uint8_t *dirs = malloc((size_t)n * 4 + 1);
            int np = boxpath_search_dir(bp, p, from, mv[k].to, mv[k].dir, dirs, 0);
            if (np != mv[k].pushes)
                test_fail(__FILE__, __LINE__, "%s: box path %d pushes, move %d", what, np,
                          mv[k].pushes);
            free(dirs);
        }
        for (int k = 0; k < n * n; k++) {
            if (got[k] != best[k])
                test_fail(__FILE__, __LINE__, "%s: box %d, square %d player %d: %d pushes, brute %d",
                          what, i, k / n, k % n, got[k], best[k]);
            if (got[k] >= 0)
                checked++;
        }
    }
    reach_free(&r);
    reach_free(&r2);
    reach_free(&r3);
    reach_free(&r4);
    free(best);
    free(got);
    free(mv);
    return checked;
}

/* Walks from the start with random single pushes, checking the macro moves
 * of every position on the way. */
static int check_level_moves(const level *lv, int steps, uint64_t seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return 0;
    boxpath bp;
    boxpath_init(&bp, b.nsq);
    /* odd seeds: the blocks of the floor answer the walks' sides from the
     * first flood on (boxpath.flood_budget); even seeds: floods only */
    bp.flood_budget = seed % 2 ? 1 : 0;
    reach r;
    reach_init(&r, b.nsq);
    int checked = 0;
    char what[64];
    for (int s = 0; s < steps; s++) {
        snprintf(what, sizeof what, "level %d step %d", lv->index, s);
        checked += check_moves(&p, &bp, what);
        /* a random legal push that keeps boxes off dead squares */
        if (!test_random_push(&p, &r, &seed, 1))
            break;
    }
    reach_free(&r);
    boxpath_free(&bp);
    test_level_free(&b, &p);
    return checked;
}

TEST(macro_moves_match_brute_force_demo)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int checked = 0;
    for (int k = 0; k < c.nlevels; k++)
        checked += check_level_moves(&c.levels[k], 12, 7 + (uint64_t)k);
    CHECK(checked > 300);
    /* the local update of the player's region is taken for most moves */
    CHECK(g_region_local * 2 > g_region_all);
    CHECK(g_region_joins > 0);
    /* the kept forest answered the lifted box's component and pieces */
    CHECK(g_lifted_checked > 1000);
    printf("  macro moves: player region updated locally %ld of %ld; %ld more with the blocks; "
           "%ld lifted squares checked\n",
           g_region_local, g_region_all, g_region_joins, g_lifted_checked);
    collection_free(&c);
}

TEST(macro_moves_match_brute_force_boxoban)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 8 : 40, checked = 0;
    for (int k = 0; k < c.nlevels && k < count; k++)
        checked += check_level_moves(&c.levels[k], 6, 100 + (uint64_t)k);
    CHECK(checked > (test_quick() ? 200 : 1000));
    collection_free(&c);
}

/* ---------------------------------------------------------- features */

#include "../../src/analysis/packing.h"
#include "../../src/heuristic/features.h"
#include "../../src/search/fess.h"

TEST(features_connectivity_hand_made)
{
    /* Two 3x3 rooms joined by a one-square doorway, the box in it:
     *
     *   #########
     *   #   #   #      the box closes the only link between the rooms:
     *   # @ $ . #      2 regions of free floor. Pushed two squares right
     *   #   #   #      onto the goal it leaves the doorway free and the
     *   #########      right room connected around it: 1 region.
     */
    const char *text = "#########\n#   #   #\n# @ $ . #\n#   #   #\n#########\n";
    collection c;
    board b;
    position p;
    REQUIRE(test_text_setup(text, &c, &b, &p) == 0);
    feat_ctx fc;
    feat_init(&fc, &b, NULL, NULL);
    reach r;
    reach_init(&r, b.nsq);
    CHECK_INT(feat_connectivity(&fc, &p, NULL), 2);
    /* the same with the player's region given */
    reach_compute(&r, &p, p.player);
    CHECK_INT(feat_connectivity(&fc, &p, &r), 2);
    CHECK_INT(feat_packed(&fc, &p), 0);
    /* push the box onto the goal: one region again, one box packed */
    undo_rec u;
    pos_push(&p, p.boxes[0], DIR_RIGHT, 2, &u);
    CHECK_INT(feat_connectivity(&fc, &p, NULL), 1);
    reach_compute(&r, &p, p.player);
    CHECK_INT(feat_connectivity(&fc, &p, &r), 1);
    CHECK_INT(feat_packed(&fc, &p), 1);
    reach_free(&r);
    feat_free(&fc);
    test_text_free(&c, &b, &p);
}

TEST(features_packed_counts_the_filled_prefix)
{
    /* A dead-end goal corridor of three goals, entered from the left:
     *
     *   ##########
     *   #        #
     *   # $$$####      the deepest goal (column 7) must be filled first,
     *   #@   ...#      then column 6, then column 5. A box on the goal of
     *   #    ####      column 5 alone packs nothing (its goal is last);
     *   ######         boxes on columns 7 and 6 pack 2.
     */
    const char *text = "##########\n#        #\n# $$$####\n#@   ...#\n#    ####\n######\n";
    collection c;
    board b;
    position p;
    REQUIRE(test_text_setup(text, &c, &b, &p) == 0);
    packing pk;
    packing_compute(&pk, &b, 0);
    REQUIRE(pk.n == 3);
    /* the order is deepest first */
    CHECK(board_col(&b, pk.order[0]) > board_col(&b, pk.order[1]));
    CHECK(board_col(&b, pk.order[1]) > board_col(&b, pk.order[2]));
    feat_ctx fc;
    feat_init(&fc, &b, &pk, NULL);
    sq_t sq[3] = {p.boxes[0], p.boxes[1], pk.order[2]};
    pos_set(&p, sq, b.start_player);
    CHECK_INT(p.on_goal, 1);
    CHECK_INT(feat_packed(&fc, &p), 0); /* the last goal only: no prefix */
    sq_t sq2[3] = {p.boxes[0], pk.order[0], pk.order[1]};
    pos_set(&p, sq2, b.start_player);
    CHECK_INT(feat_packed(&fc, &p), 2);
    feat_free(&fc);
    packing_free(&pk);
    test_text_free(&c, &b, &p);
}

/* ---------------------------------------------------------- the search */

static fess_config fess_all_on(void)
{
    fess_config c = {.dl = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .fixed = 1,
                            .local = 1, .stuck = 1},
                     .matching = 1, .packing = 1, .advisors = 1, .rooms = 1, .hotspots = 1,
                     .plan = 2, .check = 0};
    return c;
}

static void run_fess(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                     search_outcome *out)
{
    fess_solve(b, cfg, lim, mem, out);
}

TEST(fess_solves_the_demo_levels)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    fess_config cfg = fess_all_on();
    cfg.check = 1;
    for (int k = 0; k < c.nlevels; k++) {
        long bp, fp;
        if (!crosscheck_level(&c.levels[k], run_fess, &cfg, 0, 1, 2000000, &bp, &fp))
            test_fail(__FILE__, __LINE__, "demo level %d: BFS %ld pushes, FESS %ld", k + 1, bp, fp);
        CHECK(fp > 0);
    }
    collection_free(&c);
}

/* FESS with check on, on shared level `index` of `name`, for 5,000
 * positions (30,000 unless quick): the statistics into *st. Returns 0 when
 * the level is not found (nothing run). */
static int run_checked(const char *name, int index, fess_config cfg, stats *st)
{
    const char *path = test_shared_level(name);
    if (!path)
        return 0;
    collection c;
    if (collection_load(&c, path) != 0) {
        test_fail(__FILE__, __LINE__, "%s does not load", path);
        return 0;
    }
    board b;
    position p;
    int ran = 0;
    if (c.nlevels >= index && test_level_setup(&c.levels[index - 1], &b, &p) == 0) {
        cfg.check = 1;
        search_limits lim = {0};
        lim.max_nodes = test_quick() ? 5000 : 30000;
        membudget mem;
        mem_init(&mem, 1ULL << 30);
        search_outcome out;
        fess_solve(&b, &cfg, &lim, &mem, &out);
        stats_add(st, &out.st);
        ran = 1;
        push_seq_free(&out.pushes);
        test_level_free(&b, &p);
    }
    collection_free(&c);
    return ran;
}

/* cfg with check on, on Sasquatch VII `vii` and IV 45 (run_checked): the
 * counter at byte `off` of the statistics, named `what`, must pass 1,000
 * (the checked path ran); skipped visibly without the levels. */
static void check_on_big_boards(fess_config cfg, int vii, const char *what, size_t off)
{
    stats st = {0};
    int ran = run_checked("sasquatch7_50.xsb", vii, cfg, &st) +
              run_checked("sasquatch4_50.xsb", 45, cfg, &st);
    uint64_t v;
    memcpy(&v, (const char *)&st + off, sizeof v);
    fprintf(stderr, "  %s: %llu children\n", what, (unsigned long long)v);
    if (!ran)
        SKIP("Sasquatch IV and VII not found");
    CHECK(v > 1000);
}

/* A child's free-floor regions counted from its parent's and the blocks of
 * the box's walk (fess.c, generate): with check on, the search compares
 * each with a count afresh and dies on a difference. Big boards, where
 * the walks build the blocks: Sasquatch VII 41 and IV 45. */
TEST(fess_regions_from_the_blocks_match_a_count)
{
    check_on_big_boards(fess_all_on(), 41, "regions from the blocks",
                        offsetof(stats, regions_reused));
}

/* The HF order (towards the level's goals, no plan) with `open`, `hot`
 * and `revpush` as given. */
static fess_config hf_config(int open, int hot, int revpush)
{
    fess_config cfg = fess_all_on();
    cfg.hf = 1;
    cfg.open = open;
    cfg.hot = hot;
    cfg.revpush = revpush;
    cfg.packing = 0;
    cfg.plan = 0;
    return cfg;
}

/* Festival's HF hotspots of a child counted from its parent's (fess.c,
 * hf_hotspots_child): with check on, the search compares each with a count
 * afresh and dies on a difference. The HF order with hotspots towards the
 * level's goals on Sasquatch VII 35 (packed boxes round the few free
 * squares) and IV 45. */
TEST(fess_hf_hotspots_from_the_parent_match_a_count)
{
    check_on_big_boards(hf_config(0, 1, 0), 35, "hotspots from the parent",
                        offsetof(stats, hotspots_reused));
}

/* The boxes no push moves in Festival's REV push order (fess.c,
 * rev_stuck_child), a child's from its parent's: with check on, the
 * search compares each with a count afresh and dies on a difference. The
 * reverse search's third forward half on Sasquatch VII 35 and IV 45. */
TEST(fess_rev_stuck_boxes_from_the_parent_match_a_count)
{
    check_on_big_boards(hf_config(1, 0, 1), 35, "stuck boxes from the parent",
                        offsetof(stats, stuck_reused));
}

TEST(fess_solves_what_bfs_solves_boxoban)
{
    fess_config cfg = fess_all_on();
    crosscheck_file("boxoban/unfiltered/test/000.txt", 60, run_fess, &cfg, 0, 90);
}

/* The player's side of a box on a cut square in the matching (--fast-sides):
 * a box in a corridor that cannot reach a goal from the player's piece is
 * cut as a bipartite deadlock, and the HF order reads the same rows. A cut
 * of a solvable position would show as a level BFS solves and FESS not. */
TEST(fess_with_the_sides_solves_what_bfs_solves)
{
    fess_config cfg = fess_all_on();
    cfg.sides = 1;
    crosscheck_file("boxoban/unfiltered/test/000.txt", 60, run_fess, &cfg, 0, 90);
    cfg = hf_config(0, 1, 0);
    cfg.sides = 1;
    crosscheck_file("boxoban/unfiltered/test/000.txt", 60, run_fess, &cfg, 0, 90);
}

TEST(fess_without_pruning_solves_what_bfs_solves)
{
    /* every switch off: macro moves and the cells alone */
    fess_config cfg = {.dl = {.deadlock_search = 0}, .advisors = 0};
    crosscheck_file("boxoban/medium/valid/000.txt", 30, run_fess, &cfg, 0, 90);
}
