/* test_opening.c: the opening strategy (search/opening.h).
 *  - the backward search in its opening order keeps as its best position
 *    one whose free floor is a single region (counted here by a flood of
 *    our own), with the start's box count, and better keyed than the
 *    others with one region seen on the way is not checked: the order is a
 *    heuristic, the region count is the contract;
 *  - with a backward half of a few positions the forward half has to meet
 *    it: on Boxoban levels the strategy solves only levels BFS solves,
 *    every solution replays (crosscheck), it never claims a level has no
 *    solution that BFS solves, and meetings do happen. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/search/backward.h"
#include "../../src/search/nodes.h"
#include "../../src/search/opening.h"
#include "../../src/util/util.h"

#include <stdlib.h>
#include <string.h>

TEST(opening_order_keeps_a_one_region_best)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 10 : 40, found = 0, differ = 0;
    /* per level and order: the best position's box squares summed (with
     * cells, unweighted), to tell whether the weights change the target */
    uint64_t *sums = xcalloc((size_t)3 * (size_t)count, sizeof(uint64_t));
    /* the three orders, each with one open list and with cells; --check
     * compares OPEN_MATCHED's and OPEN_BICON's incremental matching cost
     * with a fresh one on every child, and OPEN_BICON's squares on no cycle
     * with a count by the definition */
    static const int orders[3] = {OPEN_NEAREST, OPEN_MATCHED, OPEN_BICON};
    /* then with cells weighted (Festival's HF backward weights) */
    for (int k = 0; k < 9 * count && count <= c.nlevels; k++) {
        board b;
        if (test_level_board(&c.levels[k % count], &b) != 0)
            continue;
        backward_config cfg = {.reach = 1, .matching = 1, .check = 1,
                               .open = orders[k / count % 3], .cells = k >= 3 * count,
                               .weighted = k >= 6 * count};
        search_limits lim = {0};
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        search_outcome out;
        backward *w = backward_begin(&b, &cfg, &lim, &mem, &out);
        if (k % 2) /* the blocks answer every walk; --check compares each
                      child's regions from them with a count */
            backward_walk_floods(w, 1);
        backward_step(w, 2000);
        sq_t *boxes = xcalloc((size_t)b.nboxes + 1, sizeof(sq_t));
        sq_t player;
        uint32_t x = backward_best(w, boxes, &player);
        if (x != NODE_NONE) {
            found++;
            uint64_t sum = 0;
            for (int i = 0; i < b.nboxes; i++)
                sum += (uint64_t)boxes[i] * (boxes[i] + 7u);
            int slot = k / count % 3 * count + k % count;
            if (k >= 3 * count && k < 6 * count)
                sums[slot] = sum;
            else if (k >= 6 * count && sums[slot] && sums[slot] != sum)
                differ++;
            CHECK_INT(test_count_regions(&b, boxes), 1);
            /* the player stands on free floor */
            int on_box = 0;
            for (int i = 0; i < b.nboxes; i++)
                on_box |= boxes[i] == player;
            CHECK(!on_box);
        }
        free(boxes);
        backward_end(w);
        push_seq_free(&out.pushes);
        board_free(&b);
    }
    /* the test means something only if targets are found, and the
     * weights change some */
    CHECK(found >= 5 * count);
    fprintf(stderr, "  opening order: %d of %d targets found, %d changed by the weights\n", found,
            9 * count, differ);
    CHECK(differ >= (test_quick() ? 2 : 5));
    free(sums);
    collection_free(&c);
}

static int opening_met, opening_deepened;

/* The forward halves' configuration: the default FESS's. */
static const fess_config opening_fess = {
    .dl = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .fixed = 1, .capsets = 1},
    .matching = 1, .packing = 1, .advisors = 1, .rooms = 1, .hotspots = 1, .plan = 2};

typedef struct opening_case {
    uint64_t back_nodes;
    unsigned halves; /* OPENING_PLAN, OPENING_SQUARES or both (OPENING_HF,
                        OPENING_SQUARES_PLAIN), OPENING_THIRD */
    int cells;       /* the backward halves' cells */
} opening_case;

static void run_opening(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                        search_outcome *out)
{
    const opening_case *oc = cfg;
    backward_config bc = {.reach = 1, .matching = 1, .cells = oc->cells};
    opening_solve(b, &opening_fess, &bc, oc->back_nodes, oc->halves, lim, mem, out);
    if (out->solved && out->st.meetings)
        opening_met++;
    opening_deepened += out->st.opening_deepened > 0;
    /* the half that met names the solution */
    unsigned run = oc->halves & (OPENING_BOTH | OPENING_THIRD); /* the halves run */
    if (out->solved && out->st.meetings && !(run & (run - 1)))
        CHECK_STR(out->strategy, run == OPENING_PLAN    ? "opening"
                                 : run == OPENING_THIRD ? "opening-plain"
                                                        : "opening-squares");
    /* giving up proves nothing: it must never read as "no solution" */
    if (!out->solved)
        CHECK(out->stop != STOP_NONE);
}

/* Both forward halves together, then each alone (the squares half also in
 * Festival's HF order, with its hotspots in the first leg, and without
 * advisors), the third half alone and with
 * the two, then both with backward
 * halves in cells (of 100 positions, so that several cells form while the
 * forward halves still have to meet them), then the default halves with
 * legs that deepen (after 80 forward positions, with 10 backward), also
 * where they would give up (240 after 30), then the first leg's backward
 * half weighted (alone and with legs that deepen), and a third leg
 * weighted after the two: every
 * verdict agrees with breadth-first search, each configuration meets the
 * backward search on its own, and the deepening legs do deepen. */
TEST(opening_solves_what_bfs_solves_through_meetings)
{
    static const opening_case cases[14] = {
        {30, OPENING_BOTH, 0}, {30, OPENING_PLAN, 0}, {30, OPENING_SQUARES, 0},
        {30, OPENING_SQUARES | OPENING_HF, 0},
        {30, OPENING_SQUARES | OPENING_HF | OPENING_HOT, 0},
        {30, OPENING_SQUARES | OPENING_SQUARES_PLAIN, 0},
        {30, OPENING_THIRD, 0}, {30, OPENING_BOTH | OPENING_THIRD, 0}, {100, OPENING_BOTH, 1},
        {10, OPENING_SQUARES | OPENING_HF | OPENING_BICON | OPENING_HOT | OPENING_DEEPEN, 1},
        {30, OPENING_SQUARES | OPENING_HF | OPENING_BICON | OPENING_HOT | OPENING_DEEPEN | OPENING_DEEPEN_ENDED, 1},
        {100, OPENING_SQUARES | OPENING_HF | OPENING_BICON | OPENING_HOT | OPENING_WEIGHTED, 1},
        {10, OPENING_SQUARES | OPENING_HF | OPENING_BICON | OPENING_HOT | OPENING_DEEPEN | OPENING_WEIGHTED, 1},
        {10, OPENING_SQUARES | OPENING_HF | OPENING_BICON | OPENING_HOT | OPENING_DEEPEN | OPENING_WEIGHTED_LEG, 1}};
    for (int h = 0; h < 14; h++) {
        opening_met = opening_deepened = 0;
        opening_case oc = cases[h];
        /* legs that drop their forward halves for a deeper target decide
         * fewer of these small levels (half of them) */
        crosscheck_file("boxoban/medium/valid/000.txt", 50, run_opening, &oc, 0,
                        oc.halves & OPENING_DEEPEN ? 50 : 60);
        if (test_shared_level("boxoban/medium/valid/000.txt"))
            CHECK(opening_met >= (test_quick() ? 3 : 15));
        if (oc.halves & OPENING_DEEPEN) {
            fprintf(stderr, "  opening deepening: %d levels deepened, %d met\n", opening_deepened,
                    opening_met);
            if (test_shared_level("boxoban/medium/valid/000.txt"))
                CHECK(opening_deepened >= (test_quick() ? 2 : 5));
        }
    }
}

/* The opening search handed its positions a few at a time (as a
 * portfolio member is) takes the same turns as in one call: the same
 * positions stored, the same end and the same solution. A turn the budget
 * cuts short goes on where it stopped; before, the next half or leg took
 * over, and in the portfolio the search stored a third more positions on
 * Sasquatch VI 37 than alone; with legs that deepen too, and with the
 * first leg's backward half weighted or a third leg weighted. Adds the levels
 * checked whose forward halves met the backward half past the first
 * budgets to *met. */
static void check_sliced(const collection *c, int count, unsigned halves, int *met)
{
    backward_config bc = {.reach = 1, .matching = 1, .cells = 1};
    const uint64_t back = 30, step = 13;
    for (int k = 0; k < count && k < c->nlevels; k++) {
        board b;
        if (test_level_board(&c->levels[k], &b) != 0)
            continue;
        search_outcome whole, sliced;
        search_limits lim = {0}, lim2 = {0};
        lim.max_nodes = lim2.max_nodes = 100000;
        membudget mem, mem2;
        mem_init(&mem, 1ULL << 28);
        mem_init(&mem2, 1ULL << 28);
        opening_solve(&b, &opening_fess, &bc, back, halves, &lim, &mem, &whole);
        opening *o = opening_begin(&b, &opening_fess, &bc, back, halves, &lim2, &mem2, &sliced);
        uint64_t budget = 0;
        do
            budget += step;
        while (!opening_step(o, budget));
        opening_end(o);
        CHECK_INT(sliced.solved, whole.solved);
        CHECK_INT((int)sliced.stop, (int)whole.stop);
        if (sliced.st.nodes != whole.st.nodes)
            test_fail(__FILE__, __LINE__, "level %d: %llu positions sliced, %llu whole", k + 1,
                      (unsigned long long)sliced.st.nodes, (unsigned long long)whole.st.nodes);
        if (whole.solved) {
            CHECK(push_seq_pushes(&sliced.pushes) == push_seq_pushes(&whole.pushes));
            CHECK_STR(sliced.strategy, whole.strategy);
        }
        *met += whole.st.meetings > 0 && whole.st.nodes > back + 2 * step;
        push_seq_free(&whole.pushes);
        push_seq_free(&sliced.pushes);
        board_free(&b);
    }
}

TEST(opening_sliced_takes_the_same_turns)
{
    int met = 0;
    collection c;
    const unsigned halves = OPENING_BOTH | OPENING_HF | OPENING_BICON | OPENING_HOT;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    check_sliced(&c, c.nlevels, halves, &met);
    check_sliced(&c, c.nlevels, halves | OPENING_DEEPEN | OPENING_DEEPEN_ENDED, &met);
    check_sliced(&c, c.nlevels, halves | OPENING_DEEPEN | OPENING_WEIGHTED, &met);
    check_sliced(&c, c.nlevels, halves | OPENING_DEEPEN | OPENING_WEIGHTED_LEG, &met);
    collection_free(&c);
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (path) {
        REQUIRE(collection_load(&c, path) == 0);
        check_sliced(&c, test_quick() ? 10 : 30, halves, &met);
        check_sliced(&c, test_quick() ? 10 : 30, halves | OPENING_DEEPEN | OPENING_DEEPEN_ENDED, &met);
        check_sliced(&c, test_quick() ? 10 : 30, halves | OPENING_DEEPEN | OPENING_WEIGHTED, &met);
        check_sliced(&c, test_quick() ? 10 : 30, halves | OPENING_DEEPEN | OPENING_WEIGHTED_LEG, &met);
        collection_free(&c);
    }
    fprintf(stderr, "  opening sliced: %d levels met past the first budgets\n", met);
    /* the test means something only where turns were cut */
    CHECK(met >= (path ? 5 : 1));
    if (!path)
        SKIP("boxoban/medium/valid/000.txt not found (demo levels checked)");
}
