/* crosscheck.c: a search against breadth-first search (see crosscheck.h). */
#include "crosscheck.h"
#include "test.h"
#include "../../src/analysis/distance.h"
#include "../../src/search/astar.h"
#include "../../src/search/bfs.h"
#include "../../src/search/pathbuild.h"
#include "../../src/util/timer.h"

#include <stdio.h>
#include <stdlib.h>

int crosscheck_level(const level *lv, solve_fn solve, const void *cfg, int optimal, int bfs_prune,
                     uint64_t max_nodes, long *bfs_pushes, long *pushes)
{
    board b;
    if (test_level_board(lv, &b) != 0)
        return 0;
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = max_nodes;
    membudget m1, m2;
    mem_init(&m1, 1ULL << 30);
    mem_init(&m2, 1ULL << 30);
    bfs_config bc = {.prune_dead = bfs_prune};
    search_outcome ob, oa;
    bfs_solve(&b, &bc, &lim, &m1, &ob);
    solve(&b, cfg, &lim, &m2, &oa);
    *bfs_pushes = ob.solved ? push_seq_pushes(&ob.pushes) : ob.stop == STOP_EXHAUSTED ? -1 : -2;
    *pushes = oa.solved ? 0 : oa.stop == STOP_EXHAUSTED ? -1 : -2;
    int ok = 1;
    if (oa.solved) {
        /* the pushes of the replayed solution are the truth */
        movelist mv;
        moves_init(&mv);
        replay_result rr;
        ok = path_build(&b, &oa.pushes, &mv) == 0 && solution_replay(&b, &mv, &rr);
        *pushes = ok ? rr.m.pushes : -3;
        moves_free(&mv);
    }
    if (ok && *bfs_pushes != -2 && *pushes != -2) {
        if (optimal)
            ok = *bfs_pushes == *pushes;
        else
            ok = (*bfs_pushes < 0) == (*pushes < 0) && *pushes >= *bfs_pushes;
    }
    push_seq_free(&ob.pushes);
    push_seq_free(&oa.pushes);
    board_free(&b);
    return ok;
}

void crosscheck_file(const char *name, int count, solve_fn solve, const void *cfg, int optimal,
                     int min_decided)
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    CHECK(collection_load(&c, path) == 0);
    if (test_quick())
        count = count / 5;
    int agree = 0, checked = 0, decided = 0;
    for (int k = 0; k < c.nlevels && checked < count; k++) {
        if (c.levels[k].error)
            continue;
        long bp, ap;
        checked++;
        if (crosscheck_level(&c.levels[k], solve, cfg, optimal, 0, 3000000, &bp, &ap))
            agree++;
        else
            test_fail(__FILE__, __LINE__, "%s level %d: BFS %ld pushes, the search %ld", name,
                      c.levels[k].index, bp, ap);
        /* compared for real: both searches reached a verdict */
        decided += bp != -2 && ap != -2;
    }
    CHECK_INT(agree, checked);
    /* A stop short of a verdict (node limit, gave up) agrees with
     * anything, so a search that gave up everywhere would pass above: the
     * verdicts compared must reach min_decided percent of the levels. */
    if (decided * 100 < min_decided * checked)
        test_fail(__FILE__, __LINE__, "%s: only %d of %d levels decided by both searches (at least %d %% required)",
                  name, decided, checked, min_decided);
    if (getenv("KEEPER_TEST_COUNTS"))
        fprintf(stderr, "crosscheck %s: %d of %d levels decided by both\n", name, decided, checked);
    collection_free(&c);
}

int test_level_board(const level *lv, board *b)
{
    if (board_build(b, lv) != 0)
        return -1;
    distance_analyze(b);
    return 0;
}

int test_level_setup(const level *lv, board *b, position *p)
{
    if (test_level_board(lv, b) != 0)
        return -1;
    pos_init(p, b);
    return 0;
}

void test_level_free(board *b, position *p)
{
    pos_free(p);
    board_free(b);
}

int test_board_of(const char *text, collection *c, board *b)
{
    collection_parse(c, "test.xsb", text, strlen(text));
    if (c->nlevels != 1 || c->levels[0].error)
        return -1;
    return test_level_board(&c->levels[0], b);
}

int test_text_setup(const char *text, collection *c, board *b, position *p)
{
    if (test_board_of(text, c, b) != 0) {
        collection_free(c);
        return -1;
    }
    pos_init(p, b);
    return 0;
}

void test_text_free(collection *c, board *b, position *p)
{
    if (p)
        pos_free(p);
    board_free(b);
    collection_free(c);
}

uint64_t test_rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

int test_random_push(position *p, reach *r, uint64_t *seed, int off_dead)
{
    sq_t to;
    return test_random_push_to(p, r, seed, off_dead, &to);
}

int test_random_push_to(position *p, reach *r, uint64_t *seed, int off_dead, sq_t *to)
{
    const board *b = p->b;
    reach_compute(r, p, p->player);
    int cand[4096], nc = 0;
    for (int i = 0; i < b->nboxes; i++)
        for (int d = 0; d < 4; d++) {
            sq_t bx = p->boxes[i], behind = b->nb[bx][DIR_OPP(d)], ahead = b->nb[bx][d];
            if (behind != SQ_NONE && reach_floor(r, behind) && ahead != SQ_NONE &&
                p->box_at[ahead] == NO_BOX && !(off_dead && b->dead[ahead]) && nc < 4096)
                cand[nc++] = i * 4 + d;
        }
    if (nc == 0)
        return 0;
    int c = cand[test_rng_next(seed) % (uint64_t)nc];
    undo_rec u;
    pos_push(p, p->boxes[c / 4], c % 4, 1, &u);
    *to = u.to;
    return 1;
}

void test_best_per_region(position *p, sq_t from, const int *dist, int *best)
{
    int n = p->b->nsq;
    sq_t player0 = p->player;
    for (int i = 0; i < n * n; i++)
        best[i] = -1;
    reach r;
    reach_init(&r, n);
    for (int bx = 0; bx < n; bx++)
        for (int pl = 0; pl < n; pl++) {
            int d0 = dist[bx * n + pl];
            if (d0 < 0)
                continue;
            undo_rec u;
            pos_relocate(p, from, (sq_t)bx, (sq_t)pl, &u);
            sq_t norm = reach_compute(&r, p, (sq_t)pl);
            pos_undo(p, &u);
            int *cell = &best[bx * n + norm];
            if (*cell < 0 || *cell > d0)
                *cell = d0;
        }
    p->player = player0;
    reach_free(&r);
}

/* Free-floor regions with boxes on `boxes` (an independent flood). */
int test_count_regions(const board *b, const sq_t *boxes)
{
    uint8_t *box = calloc((size_t)b->nsq, 1), *seen = calloc((size_t)b->nsq, 1);
    sq_t *stack = malloc(sizeof(sq_t) * (size_t)b->nsq);
    for (int i = 0; i < b->nboxes; i++)
        box[boxes[i]] = 1;
    int n = 0;
    for (sq_t q0 = 0; q0 < b->nsq; q0++) {
        if (box[q0] || seen[q0])
            continue;
        n++;
        int sp = 0;
        seen[q0] = 1;
        stack[sp++] = q0;
        while (sp > 0) {
            sq_t q = stack[--sp];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t != SQ_NONE && !box[t] && !seen[t]) {
                    seen[t] = 1;
                    stack[sp++] = t;
                }
            }
        }
    }
    free(box);
    free(seen);
    free(stack);
    return n;
}

void test_astar_limited(const board *b, const void *cfg, search_outcome *out)
{
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = 3000000;
    membudget mem;
    mem_init(&mem, 1ULL << 30);
    astar_solve(b, cfg, &lim, &mem, out);
}

static void run_astar_cfg(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                          search_outcome *out)
{
    astar_solve(b, cfg, lim, mem, out);
}

void test_bound_proves_the_optimum(const char *name, const void *cfg, int count,
                                   uint64_t (*raised)(const stats *st))
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int n = c.nlevels < count ? c.nlevels : count, decided = 0;
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
        long bp, ap;
        if (c.levels[k].error ||
            !crosscheck_level(&c.levels[k], run_astar_cfg, cfg, 1, 1, 3000000, &bp, &ap) || bp <= 0)
            continue;
        board b;
        if (test_level_board(&c.levels[k], &b) != 0)
            continue;
        for (long extra = 0; extra <= 1; extra++) {
            astar_config bc = *(const astar_config *)cfg;
            bc.bound = (uint32_t)(bp + extra);
            search_outcome out;
            test_astar_limited(&b, &bc, &out);
            if (extra == 0)
                sum += raised(&out.st);
            if (extra == 0 && (out.solved || out.stop != STOP_EXHAUSTED))
                test_fail(__FILE__, __LINE__, "%s level %d: bound %ld (the optimum): %s", name, k + 1,
                          bp, out.solved ? "solved below it" : "not exhausted");
            if (extra == 1 && (!out.solved || push_seq_pushes(&out.pushes) != bp))
                test_fail(__FILE__, __LINE__, "%s level %d: bound %ld: %ld pushes, BFS %ld", name,
                          k + 1, bp + 1, out.solved ? push_seq_pushes(&out.pushes) : -1L, bp);
            push_seq_free(&out.pushes);
        }
        board_free(&b);
        decided++;
    }
    printf("  %d levels decided, %llu raised\n", decided, (unsigned long long)sum);
    CHECK(decided >= n / 2);
    CHECK(sum > 0);
    collection_free(&c);
}
