/* test_moveopt.c: the move-optimal search (--optimal moves) against a
 * breadth-first search over single player steps, which knows nothing of
 * pushes as edges, walks or bounds: every step is an edge of cost one, and
 * among the states first reached at the same depth the fewest pushes are
 * kept. Both must agree on the moves and the pushes of the optimum, the
 * solution must replay with those counts, and the driver's answer must be
 * the same. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/search/moveopt.h"
#include "../../src/search/pathbuild.h"
#include "../../src/search/states.h"
#include "../../src/driver/solve.h"
#include "../../src/util/options.h"
#include "../../src/util/timer.h"
#include "../../src/util/util.h"

#include <stdlib.h>
#include <string.h>

static uint32_t state_hash(const uint64_t *bits, int words, sq_t player)
{
    uint32_t h = 2166136261u;
    for (int w = 0; w < words; w++)
        h = (h ^ (uint32_t)(bits[w] ^ bits[w] >> 32)) * 16777619u;
    return (h ^ player) * 16777619u;
}

/* The reference: BFS over (boxes, player) by single steps. Returns 1 with
 * *moves and *pushes of the lexicographic optimum, 0 when there is no
 * solution, -1 when max_states is reached first. */
static int step_bfs(const board *b, uint32_t max_states, long *moves, long *pushes)
{
    membudget mem;
    mem_init(&mem, 1ULL << 31);
    states st;
    if (states_init(&st, b->nsq, 1, &mem) != 0)
        return -1;
    int words = (b->nsq + 63) / 64, n = b->nboxes;
    uint64_t *cur = xcalloc((size_t)words, sizeof(uint64_t));
    uint64_t *nxt = xcalloc((size_t)words, sizeof(uint64_t));
    sq_t *sqs = xmalloc(sizeof(sq_t) * (size_t)(n + 1));
    uint8_t *box = xcalloc((size_t)b->nsq, 1);
    position p;
    pos_init(&p, b);
    for (int i = 0; i < n; i++)
        cur[p.boxes[i] >> 6] |= 1ULL << (p.boxes[i] & 63);
    uint32_t slot = 0;
    uint32_t rh = state_hash(cur, words, p.player);
    states_find(&st, cur, p.player, rh, &slot);
    uint32_t root = states_add(&st, cur, p.player, rh, STATES_NONE, 0, slot);
    *STATES_AT(&st, aux, root) = 0; /* pushes so far; the depth is the layer */
    int result = 0;
    long depth = 0, best_pushes = -1;
    uint32_t layer_start = 0, layer_end = 1;
    for (;;) {
        /* is any state of this layer solved? the fewest pushes among them */
        for (uint32_t i = layer_start; i < layer_end; i++) {
            uint64_t *bits = states_bits(&st, i);
            int on = 0;
            for (int g = 0; g < n; g++)
                on += (bits[b->goals[g] >> 6] >> (b->goals[g] & 63)) & 1;
            long pu = (long)*STATES_AT(&st, aux, i);
            if (on == n && (best_pushes < 0 || pu < best_pushes))
                best_pushes = pu;
        }
        if (best_pushes >= 0) {
            *moves = depth;
            *pushes = best_pushes;
            result = 1;
            break;
        }
        if (layer_start == layer_end)
            break; /* exhausted: no solution */
        for (uint32_t i = layer_start; i < layer_end; i++) {
            memcpy(cur, states_bits(&st, i), sizeof(uint64_t) * (size_t)words);
            int nb = states_squares(cur, words, sqs);
            for (int k = 0; k < nb; k++)
                box[sqs[k]] = 1;
            sq_t pl = *STATES_AT(&st, player, i);
            uint64_t pu = *STATES_AT(&st, aux, i);
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[pl][d];
                if (t == SQ_NONE)
                    continue;
                memcpy(nxt, cur, sizeof(uint64_t) * (size_t)words);
                uint64_t npu = pu;
                if (box[t]) {
                    sq_t u = b->nb[t][d];
                    if (u == SQ_NONE || box[u])
                        continue;
                    nxt[t >> 6] &= ~(1ULL << (t & 63));
                    nxt[u >> 6] |= 1ULL << (u & 63);
                    npu++;
                }
                uint32_t h = state_hash(nxt, words, t);
                uint32_t k = states_find(&st, nxt, t, h, &slot);
                if (k == STATES_NONE) {
                    k = states_add(&st, nxt, t, h, i, 0, slot);
                    if (k == STATES_NONE) {
                        result = -1; /* out of memory: undecided */
                        goto out;
                    }
                    *STATES_AT(&st, aux, k) = npu;
                } else if (k >= layer_end && npu < *STATES_AT(&st, aux, k)) {
                    *STATES_AT(&st, aux, k) = npu; /* same depth, fewer pushes */
                }
            }
            for (int k = 0; k < nb; k++)
                box[sqs[k]] = 0;
        }
        layer_start = layer_end;
        layer_end = st.count;
        depth++;
        if (st.count > max_states) {
            result = -1;
            break;
        }
    }
out:
    pos_free(&p);
    states_free(&st);
    free(cur);
    free(nxt);
    free(sqs);
    free(box);
    return result;
}

static void check_level(const level *lv, int *decided, int *solved)
{
    board b;
    if (test_level_board(lv, &b) != 0)
        return;
    long bm = -1, bp = -1;
    int r = step_bfs(&b, 3000000, &bm, &bp);
    if (r >= 0) {
        moveopt_config cfg = {.prune_dead = 1, .freeze = 1, .fixed = 1, .bound = 1};
        search_limits lim = {0};
        lim.start_ns = timer_now_ns();
        membudget mem;
        mem_init(&mem, 1ULL << 30);
        search_outcome out;
        moveopt_solve(&b, &cfg, &lim, &mem, &out);
        CHECK_INT(out.solved, r);
        if (out.solved && r == 1) {
            movelist mv;
            moves_init(&mv);
            replay_result rr;
            CHECK(path_build(&b, &out.pushes, &mv) == 0 && solution_replay(&b, &mv, &rr));
            if (rr.m.moves != bm || rr.m.pushes != bp)
                test_fail(__FILE__, __LINE__, "%s: moveopt %ld/%ld, step BFS %ld/%ld", lv->title,
                          (long)rr.m.moves, (long)rr.m.pushes, bm, bp);
            CHECK_INT((long)out.st.best_lower_bound, bm);
            moves_free(&mv);
            (*solved)++;
        } else if (r == 0) {
            CHECK_INT(out.stop, STOP_EXHAUSTED);
        }
        (*decided)++;
        push_seq_free(&out.pushes);
    }
    board_free(&b);
}

TEST(moveopt_matches_step_bfs_demo)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int decided = 0, solved = 0;
    for (int k = 0; k < c.nlevels; k++)
        if (!c.levels[k].error)
            check_level(&c.levels[k], &decided, &solved);
    printf("  demo: %d levels decided by the step BFS, %d solved\n", decided, solved);
    CHECK(solved >= 3);
    collection_free(&c);
}

TEST(moveopt_matches_step_bfs_boxoban)
{
    const char *path = test_shared_level("boxoban/unfiltered/test/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int n = MIN(c.nlevels, test_quick() ? 6 : 30), decided = 0, solved = 0;
    for (int k = 0; k < n; k++)
        if (!c.levels[k].error)
            check_level(&c.levels[k], &decided, &solved);
    printf("  Boxoban: %d of %d levels decided by the step BFS, %d solved\n", decided, n, solved);
    CHECK(solved >= n / 3);
    collection_free(&c);
}

/* The driver: --optimal moves proves the optimum and says so; its moves are
 * never more than --optimal pushes' (which minimizes pushes instead), and
 * its pushes never fewer. */
TEST(optimal_moves_in_the_driver)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int proven = 0;
    for (int k = 0; k < MIN(c.nlevels, 4); k++) {
        if (c.levels[k].error)
            continue;
        solve_result rm, rp;
        options o;
        options_init(&o);
        search_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.start_ns = timer_now_ns();
        lim.deadline_ns = lim.start_ns + 10 * (int64_t)1000000000;
        o.optimal = 2;
        solve_level(&c.levels[k], &o, &lim, 1ULL << 30, &rm);
        o.optimal = 1;
        lim.start_ns = timer_now_ns();
        lim.deadline_ns = lim.start_ns + 10 * (int64_t)1000000000;
        solve_level(&c.levels[k], &o, &lim, 1ULL << 30, &rp);
        if (rm.status == RESULT_SOLVED && rm.optimal && rp.status == RESULT_SOLVED && rp.optimal) {
            CHECK(rm.metrics.moves <= rp.metrics.moves);
            CHECK(rm.metrics.pushes >= rp.metrics.pushes);
            CHECK_INT(rm.lower_bound, (long)rm.metrics.moves);
            proven++;
        }
        solve_result_free(&rm);
        solve_result_free(&rp);
    }
    CHECK(proven >= 2);
    collection_free(&c);
}
