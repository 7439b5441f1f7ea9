/* test_rev.c: the reverse strategy (search/rev.h).
 *  - its target (fess_open_target) is a position of the level: the box
 *    count, no box on a wall or another, the player on free floor, and no
 *    more free-floor regions (an independent flood) than the start;
 *  - with a forward half of a few positions the backward half has to meet
 *    it: on Boxoban levels the strategy solves only levels BFS solves,
 *    every solution replays (crosscheck), it never claims a level has no
 *    solution that BFS solves, and meetings do happen. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/search/fess.h"
#include "../../src/search/nodes.h"
#include "../../src/search/rev.h"
#include "../../src/util/util.h"

#include <stdlib.h>
#include <string.h>

static const fess_config rev_fess = {
    .dl = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .fixed = 1, .capsets = 1},
    .matching = 1, .packing = 1, .advisors = 1, .rooms = 1, .hotspots = 1, .plan = 2};

TEST(rev_target_is_a_position_no_less_open_than_the_start)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 10 : 40, found = 0;
    for (int k = 0; k < count && k < c.nlevels; k++) {
        board b;
        if (test_level_board(&c.levels[k], &b) != 0)
            continue;
        fess_config fc = rev_fess;
        fc.hf = 1;
        fc.open = 1;
        fc.packing = 0;
        search_limits lim = {0};
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        search_outcome out;
        fess *f = fess_begin(&b, &fc, &lim, &mem, &out);
        fess_step(f, 500);
        sq_t *boxes = xcalloc((size_t)b.nboxes + 1, sizeof(sq_t));
        sq_t player = SQ_NONE;
        uint32_t x = fess_open_target(f, boxes, &player);
        if (x != NODE_NONE) {
            found++;
            uint8_t *on = calloc((size_t)b.nsq, 1);
            int clash = 0;
            for (int i = 0; i < b.nboxes; i++) {
                clash |= boxes[i] >= b.nsq || on[boxes[i]];
                if (boxes[i] < b.nsq)
                    on[boxes[i]] = 1;
            }
            CHECK(!clash);
            CHECK(player < b.nsq && !on[player]);
            CHECK(test_count_regions(&b, boxes) <= test_count_regions(&b, b.start_boxes));
            free(on);
        }
        free(boxes);
        fess_end(f);
        push_seq_free(&out.pushes);
        board_free(&b);
    }
    /* the forward half stores the start at least: a target every time */
    CHECK_INT(found, count);
    collection_free(&c);
}

static int rev_met, rev_targets2;
static uint64_t rev_nodes;

/* run_rev's configuration: the forward halves' positions before their
 * first targets, and rev_config cells */
typedef struct rev_case {
    uint64_t fwd_nodes;
    unsigned cells;
    int share;           /* rev_config share */
    uint64_t back_slice; /* rev_config back_slice */
} rev_case;

static void run_rev(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                    search_outcome *out)
{
    const rev_case *rcase = cfg;
    backward_config bc = {.reach = 1, .matching = 1};
    rev_config rc = {.fwd_nodes = rcase->fwd_nodes, .tracks = REV_TRACKS_ALL, .toward = 1,
                     .cells = (int)rcase->cells, .share = rcase->share,
                     .back_slice = rcase->back_slice};
    rev_solve(b, &rev_fess, &bc, &rc, lim, mem, out);
    rev_nodes += out->st.nodes;
    if (out->solved && !strcmp(out->strategy, "rev-meet"))
        rev_met++;
    CHECK(out->st.targets <= REV_TRACKS * REV_TARGETS);
    rev_targets2 += out->st.targets >= 2;
    /* a target that leads nowhere proves nothing: only the forward half's
     * exhaustion reads as "no solution" */
    if (!out->solved)
        CHECK(out->stop != STOP_NONE);
}

/* The forward half's first target after 20 and after 200 positions (the
 * next ones after REV_TARGET_GROWTH times as many): every verdict agrees
 * with breadth-first search, the backward halves solve levels (reaching
 * their target or meeting the forward store), and levels the first target
 * does not solve take more. */
TEST(rev_solves_what_bfs_solves_through_meetings)
{
    static const rev_case fwd[2] = {{20, 0, 0, 0}, {200, 0, 0, 0}};
    int met_total = 0;
    for (int h = 0; h < 2; h++) {
        rev_met = rev_targets2 = 0;
        crosscheck_file("boxoban/medium/valid/000.txt", 50, run_rev, &fwd[h], 0, 60);
        if (test_shared_level("boxoban/medium/valid/000.txt")) {
            fprintf(stderr, "  first target after %llu positions: %d met, %d with two targets\n",
                    (unsigned long long)fwd[h].fwd_nodes, rev_met, rev_targets2);
            /* two forward halves solve more of these small levels
             * themselves once the first target is later: 34 and 6 of the 50
             * met (43 and 30 with one forward half); of the first 10 (quick
             * runs) 3 and 0, so those count the meetings over both */
            if (!test_quick())
                CHECK(rev_met >= (h ? 3 : 15));
            met_total += rev_met;
            if (h == 0) /* 4 of the 50 when written */
                CHECK(rev_targets2 >= 2);
        }
    }
    if (test_shared_level("boxoban/medium/valid/000.txt") && test_quick())
        CHECK(met_total >= 3);
}

/* Each of the n cases crosschecked against BFS on the first 50 Boxoban
 * medium levels: the positions stored and the levels met, per case. */
static void crosscheck_cases(const rev_case *cases, int n, uint64_t *nodes, int *met)
{
    for (int i = 0; i < n; i++) {
        rev_met = rev_targets2 = 0;
        rev_nodes = 0;
        crosscheck_file("boxoban/medium/valid/000.txt", 50, run_rev, &cases[i], 0, 60);
        nodes[i] = rev_nodes;
        met[i] = rev_met;
    }
}

/* The backward halves in cells (rev_config cells: every half, or a second
 * half per target beside the plain order): every verdict agrees with
 * breadth-first search and every solution replays (crosscheck), meetings
 * happen, and the cells change the search (other positions stored than in
 * the plain order). */
TEST(rev_backward_cells_solve_what_bfs_solves)
{
    static const rev_case cases[3] = {
        {20, 0, 0, 0}, {20, REV_CELLS, 0, 0}, {20, REV_CELLS_BOTH, 0, 0}};
    uint64_t nodes[3];
    int met[3];
    crosscheck_cases(cases, 3, nodes, met);
    if (!test_shared_level("boxoban/medium/valid/000.txt"))
        return;
    fprintf(stderr, "  cells 0 / 1 / 2: %d / %d / %d met, %llu / %llu / %llu positions\n", met[0],
            met[1], met[2], (unsigned long long)nodes[0], (unsigned long long)nodes[1],
            (unsigned long long)nodes[2]);
    /* the first 10 levels (quick runs) are too small for the cells to
     * change the one list's order: only the second half per target shows */
    if (!test_quick())
        CHECK(nodes[1] != nodes[0]);
    CHECK(nodes[2] != nodes[0] && nodes[2] != nodes[1]);
    CHECK(met[1] >= (test_quick() ? 1 : 10));
}

/* The backward turns shared by progress (rev_config share): with turns of
 * 5 positions, so that a track's halves take many on these small levels,
 * every verdict agrees with breadth-first search and every solution
 * replays (crosscheck), meetings happen, and the share changes the search
 * (other positions stored than in rotation). */
TEST(rev_share_by_progress_solves_what_bfs_solves)
{
    static const rev_case cases[2] = {{20, REV_CELLS_BOTH, 0, 5}, {20, REV_CELLS_BOTH, 2, 5}};
    uint64_t nodes[2];
    int met[2];
    crosscheck_cases(cases, 2, nodes, met);
    if (!test_shared_level("boxoban/medium/valid/000.txt"))
        return;
    fprintf(stderr, "  share 0 / 2: %d / %d met, %llu / %llu positions\n", met[0], met[1],
            (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
    /* on the first 10 levels (quick runs) the least stale half is the one
     * the rotation serves anyway: the same positions */
    if (!test_quick())
        CHECK(nodes[1] != nodes[0]);
    CHECK(met[1] >= (test_quick() ? 1 : 8));
}
