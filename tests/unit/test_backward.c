/* test_backward.c: the backward (pull) search and its parts.
 *  - pull macro moves (boxpath_pulls) against a brute-force search over
 *    (box square, player square) states with single pulls, with and
 *    without a filter on the states the box may enter;
 *  - the backward search's pruning never cuts a position reached from the
 *    start by pushes (those are exactly the positions from which the start
 *    is reachable by pulls);
 *  - the search solves what BFS solves, and every solution replays;
 *  - meeting a feature-space search: the two in turn, one expansion each,
 *    solve what BFS solves, and the solutions through a meeting replay. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/core/reach.h"
#include "../../src/search/backward.h"
#include "../../src/search/boxpath.h"
#include "../../src/search/fess.h"
#include "../../src/util/util.h"

#include <stdlib.h>

/* Brute force: from position p, the box on `from` alone moves (pulls of
 * that box, walks of the player, other boxes still; a pull that leaves the
 * box on q with the player on its side d needs ok[q * 4 + d] when ok is
 * given). For every state (box square, player square) reached, its fewest
 * pulls; then per (box square, normalized player square) the least.
 * Writes into best[box * nsq + norm] (-1 = not reached). */
static void brute_pulls(position *p, sq_t from, const uint8_t *ok, int *best)
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
            if (t == SQ_NONE || t == bx || (p->box_at[t] != NO_BOX && t != from))
                continue;
            /* a walk */
            int ns = bx * n + t;
            if (dist[ns] < 0 || dist[ns] > d0) {
                dist[ns] = d0;
                dq[--head] = ns;
            }
            /* a pull: the box is behind the player */
            if (b->nb[pl][DIR_OPP(d)] != bx || (ok && !ok[pl * 4 + d]))
                continue;
            ns = pl * n + t;
            if (dist[ns] < 0 || dist[ns] > d0 + 1) {
                dist[ns] = d0 + 1;
                dq[tail++] = ns;
            }
        }
    }
    test_best_per_region(p, from, dist, best);
    free(dist);
    free(dq);
}

/* Compares boxpath_pulls with brute_pulls for every box of p the player
 * touches. Returns the number of moves checked; failures are reported. */
static int check_pulls(position *p, boxpath *bp, const uint8_t *ok, const char *what)
{
    const board *b = p->b;
    int n = b->nsq, checked = 0;
    int *best = malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *got = malloc(sizeof(int) * (size_t)n * (size_t)n);
    box_move *mv = malloc(sizeof(box_move) * (size_t)n * 4);
    reach r, r2;
    reach_init(&r, n);
    reach_init(&r2, n);
    sq_t norm0 = reach_compute(&r, p, p->player);
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        brute_pulls(p, from, ok, best);
        best[from * n + norm0] = -1; /* the position itself is no move */
        for (int k = 0; k < n * n; k++)
            got[k] = -1;
        int nm = boxpath_pulls(bp, p, &r, from, ok, mv);
        int last = 0;
        for (int k = 0; k < nm; k++) {
            sq_t pl = b->nb[mv[k].to][mv[k].dir];
            sq_t start = b->nb[from][mv[k].first];
            if (pl == SQ_NONE || (p->box_at[pl] != NO_BOX && pl != from) || start == SQ_NONE ||
                !reach_floor(&r, start)) {
                test_fail(__FILE__, __LINE__, "%s: box %d: move to %d: bad player squares", what,
                          i, mv[k].to);
                continue;
            }
            undo_rec u;
            pos_relocate(p, from, mv[k].to, pl, &u);
            sq_t norm = reach_compute(&r2, p, pl);
            /* read forwards, the move is a macro push back to `from`
             * ending with a push in direction opposite to the first pull */
            uint8_t *dirs = malloc((size_t)n * 4 + 1);
            int np = boxpath_search_dir(bp, p, mv[k].to, from, DIR_OPP(mv[k].first), dirs, 0);
            pos_undo(p, &u);
            if (np < 1 || np > mv[k].pushes)
                test_fail(__FILE__, __LINE__, "%s: forward push path %d pushes, pull move %d",
                          what, np, mv[k].pushes);
            free(dirs);
            if (got[mv[k].to * n + norm] >= 0)
                test_fail(__FILE__, __LINE__, "%s: box %d: move to %d given twice", what, i,
                          mv[k].to);
            got[mv[k].to * n + norm] = mv[k].pushes;
            if (mv[k].pushes < last)
                test_fail(__FILE__, __LINE__, "%s: moves out of pull order", what);
            last = mv[k].pushes;
        }
        for (int k = 0; k < n * n; k++) {
            if (got[k] != best[k])
                test_fail(__FILE__, __LINE__, "%s: box %d, square %d player %d: %d pulls, brute %d",
                          what, i, k / n, k % n, got[k], best[k]);
            if (got[k] >= 0)
                checked++;
        }
    }
    reach_free(&r);
    reach_free(&r2);
    free(best);
    free(got);
    free(mv);
    return checked;
}

/* Puts the solved position on p, the player on the first free square next
 * to a box that can be pulled; returns 0, or -1 when no pull exists. */
static int set_solved(position *p)
{
    const board *b = p->b;
    pos_set(p, b->goals, b->goals[0]); /* the player is placed below */
    for (sq_t q = 0; q < b->nsq; q++) {
        if (p->box_at[q] != NO_BOX)
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t box = b->nb[q][DIR_OPP(d)], beyond = b->nb[q][d];
            if (box != SQ_NONE && p->box_at[box] != NO_BOX && beyond != SQ_NONE &&
                p->box_at[beyond] == NO_BOX) {
                p->player = q;
                return 0;
            }
        }
    }
    return -1;
}

/* Walks from the solved position with random single pulls, checking the
 * pull moves of every position on the way (without and with a filter). */
static int check_level_pulls(const level *lv, int steps, uint64_t seed)
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
    uint8_t *ok = malloc((size_t)b.nsq * 4);
    uint64_t fs = seed * 31 + 5;
    for (int i = 0; i < b.nsq * 4; i++)
        ok[i] = test_rng_next(&fs) % 4 != 0;
    int checked = 0;
    char what[64];
    if (set_solved(&p) == 0) {
        for (int s = 0; s < steps; s++) {
            snprintf(what, sizeof what, "level %d step %d", lv->index, s);
            checked += check_pulls(&p, &bp, NULL, what);
            snprintf(what, sizeof what, "level %d step %d, filtered", lv->index, s);
            checked += check_pulls(&p, &bp, ok, what);
            reach_compute(&r, &p, p.player);
            int cand[4096], nc = 0;
            for (int i = 0; i < b.nboxes; i++)
                for (int d = 0; d < 4; d++) {
                    sq_t q = b.nb[p.boxes[i]][d];
                    if (q == SQ_NONE || !reach_floor(&r, q))
                        continue;
                    sq_t beyond = b.nb[q][d];
                    if (beyond != SQ_NONE && p.box_at[beyond] == NO_BOX && nc < 4096)
                        cand[nc++] = i * 4 + d;
                }
            if (nc == 0)
                break;
            int c = cand[test_rng_next(&seed) % (uint64_t)nc];
            sq_t q = b.nb[p.boxes[c / 4]][c % 4];
            undo_rec u;
            pos_relocate(&p, p.boxes[c / 4], q, b.nb[q][c % 4], &u);
        }
    }
    free(ok);
    reach_free(&r);
    boxpath_free(&bp);
    test_level_free(&b, &p);
    return checked;
}

TEST(pull_moves_match_brute_force_demo)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int checked = 0;
    for (int k = 0; k < c.nlevels; k++)
        checked += check_level_pulls(&c.levels[k], 12, 7 + (uint64_t)k);
    CHECK(checked > 300);
    collection_free(&c);
}

TEST(pull_moves_match_brute_force_boxoban)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 8 : 40, checked = 0;
    for (int k = 0; k < c.nlevels && k < count; k++)
        checked += check_level_pulls(&c.levels[k], 6, 100 + (uint64_t)k);
    CHECK(checked > (test_quick() ? 200 : 1000));
    collection_free(&c);
}

/* ---------------------------------------------------------- pruning */

static backward_config backward_all_on(void)
{
    backward_config c = {.reach = 1, .matching = 1, .check = 0};
    return c;
}

/* Walks `walks` times `steps` random pushes (any legal push, dead squares
 * included) from the start of lv; every position on the way is reached
 * from the start by pushes, so the start is reached from it by pulls and
 * the backward search must keep it. Returns the positions checked. */
static int check_level_cuts(const level *lv, int walks, int steps, uint64_t seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return 0;
    backward_config cfg = backward_all_on();
    search_limits lim = {0};
    membudget mem;
    mem_init(&mem, 1ULL << 28);
    search_outcome out;
    backward *w = backward_begin(&b, &cfg, &lim, &mem, &out);
    reach r;
    reach_init(&r, b.nsq);
    int checked = 0;
    for (int k = 0; k < walks; k++) {
        pos_set(&p, b.start_boxes, b.start_player);
        for (int s = 0; s <= steps; s++) {
            int why = backward_cuts(w, &p);
            if (why)
                test_fail(__FILE__, __LINE__, "level %d walk %d step %d: a position reached by "
                          "pushes is cut (rule %d)", lv->index, k, s, why);
            checked++;
            if (!test_random_push(&p, &r, &seed, 0))
                break;
            /* the player may walk anywhere in his region before the next
             * check: put him on a random reachable square */
            reach_compute(&r, &p, p.player);
            sq_t pick = p.player;
            int seen = 0;
            for (sq_t q = 0; q < b.nsq; q++)
                if (reach_floor(&r, q) && test_rng_next(&seed) % (uint64_t)(++seen) == 0)
                    pick = q;
            p.player = pick;
        }
    }
    reach_free(&r);
    backward_end(w);
    test_level_free(&b, &p);
    return checked;
}

TEST(backward_never_cuts_positions_reached_by_pushes)
{
    static const char *const files[] = {"microban155.xsb", "boxoban/medium/valid/000.txt",
                                        "xsokoban90.xsb"};
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int checked = 0;
    for (int k = 0; k < c.nlevels; k++)
        checked += check_level_cuts(&c.levels[k], 10, 40, 11 + (uint64_t)k);
    collection_free(&c);
    CHECK(checked > 1000);
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        const char *path = test_shared_level(files[f]);
        if (!path)
            SKIP("shared levels not found");
        REQUIRE(collection_load(&c, path) == 0);
        int count = test_quick() ? 10 : 50;
        checked = 0;
        for (int k = 0; k < c.nlevels && k < count; k++)
            if (!c.levels[k].error)
                checked += check_level_cuts(&c.levels[k], 4, 60, 1000 * f + (uint64_t)k);
        CHECK(checked > count * 20);
        collection_free(&c);
    }
}

/* ---------------------------------------------------------- the search */

static void run_backward(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                         search_outcome *out)
{
    backward_solve(b, cfg, lim, mem, out);
}

TEST(backward_solves_the_demo_levels)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    backward_config cfg = backward_all_on();
    cfg.check = 1;
    for (int k = 0; k < c.nlevels; k++) {
        long bp, fp;
        if (!crosscheck_level(&c.levels[k], run_backward, &cfg, 0, 1, 2000000, &bp, &fp))
            test_fail(__FILE__, __LINE__, "demo level %d: BFS %ld pushes, backward %ld", k + 1,
                      bp, fp);
        CHECK(fp > 0);
    }
    collection_free(&c);
}

/* backward_stale (the reverse search's share): stepped a few positions at
 * a time in Festival's REV pull order on the demo levels, the count never
 * exceeds the positions stored, grows by at most the positions stored in
 * a step, and drops (a nearer position stored) again and again. */
TEST(backward_stale_counts_positions_since_the_nearest)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    int drops = 0, steps = 0;
    for (int k = 0; k < c.nlevels; k++) {
        board b;
        position p;
        if (test_level_setup(&c.levels[k], &b, &p) != 0)
            continue;
        backward_config cfg = backward_all_on();
        cfg.toward = 1;
        search_limits lim = {0};
        membudget mem;
        mem_init(&mem, 1ULL << 28);
        search_outcome out;
        backward *w = backward_begin(&b, &cfg, &lim, &mem, &out);
        uint64_t prev_stale = 0, prev_nodes = 0;
        for (uint64_t n = 3; n < 20000; n += 3) {
            int done = backward_step(w, n);
            uint64_t stale = backward_stale(w), nodes = out.st.nodes;
            CHECK(stale <= nodes);
            CHECK(stale <= prev_stale + (nodes - prev_nodes));
            drops += stale < prev_stale + (nodes - prev_nodes);
            steps++;
            prev_stale = stale;
            prev_nodes = nodes;
            if (done)
                break;
        }
        backward_end(w);
        push_seq_free(&out.pushes);
        test_level_free(&b, &p);
    }
    collection_free(&c);
    CHECK(steps > 20);
    CHECK(drops >= 5);
}

TEST(backward_solves_what_bfs_solves_boxoban)
{
    backward_config cfg = backward_all_on();
    crosscheck_file("boxoban/unfiltered/test/000.txt", 60, run_backward, &cfg, 0, 90);
}

TEST(backward_without_pruning_solves_what_bfs_solves)
{
    backward_config cfg = {.reach = 0, .matching = 0};
    crosscheck_file("boxoban/medium/valid/000.txt", 30, run_backward, &cfg, 0, 90);
}

/* The XSB text of position p on b's board (every cell that is no inner
 * square a wall). */
static char *position_xsb(const board *b, const position *p)
{
    size_t cap = (size_t)(b->width + 1) * (size_t)b->height + 2, n = 0;
    char *t = malloc(cap);
    for (int y = 0; y < b->height; y++) {
        for (int x = 0; x < b->width; x++) {
            sq_t q = b->sq_of_cell[y * b->width + x];
            char ch = '#';
            if (q != SQ_NONE) {
                int box = p->box_at[q] != NO_BOX, goal = b->is_goal[q], pl = q == p->player;
                ch = box ? (goal ? '*' : '$') : pl ? (goal ? '+' : '@') : goal ? '.' : ' ';
            }
            t[n++] = ch;
        }
        t[n++] = '\n';
    }
    t[n] = '\0';
    return t;
}

/* From positions reached by random pushes (boxes kept off dead squares;
 * many positions are dead all the same), the
 * backward search, pruning on, reaches the same verdict as BFS: a solution
 * where BFS finds one, an exhausted search where BFS proves there is none. */
/* From positions reached by random pushes on the first Microban levels, the
 * search `solve` (config cfg) agrees with BFS: a solution where BFS finds
 * one, "no solution" where BFS proves there is none. */
static void sampled_agreement(solve_fn solve, const void *cfg, const char *what)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int count = test_quick() ? 20 : 100, solvable = 0, dead = 0;
    uint64_t seed = 99;
    for (int k = 0; k < c.nlevels && k < count; k++) {
        if (c.levels[k].error)
            continue;
        board b;
        position p;
        if (test_level_setup(&c.levels[k], &b, &p) != 0)
            continue;
        reach r;
        reach_init(&r, b.nsq);
        for (int s = 0; s < 12; s++) {
            if (!test_random_push(&p, &r, &seed, 1))
                break;
            if (s % 3 != 2)
                continue;
            char *text = position_xsb(&b, &p);
            collection one;
            collection_parse(&one, "sample.xsb", text, strlen(text));
            if (one.nlevels == 1 && !one.levels[0].error) {
                long bp, fp;
                if (!crosscheck_level(&one.levels[0], solve, cfg, 0, 1, 100000, &bp, &fp))
                    test_fail(__FILE__, __LINE__, "microban %d, %d pushes in: BFS %ld, %s %ld",
                              k + 1, s + 1, bp, what, fp);
                solvable += bp >= 0 && fp >= 0;
                dead += bp == -1 && fp == -1;
            }
            collection_free(&one);
            free(text);
        }
        reach_free(&r);
        test_level_free(&b, &p);
    }
    collection_free(&c);
    CHECK(solvable > count / 2);
    CHECK(dead > count / 4);
}

TEST(backward_agrees_with_bfs_from_sampled_positions)
{
    backward_config cfg = backward_all_on();
    sampled_agreement(run_backward, &cfg, "backward");
}

/* The same for the feature-space search with every pruning on (local and
 * corral deadlock searches, fixed boxes, PI-corral restriction): "no
 * solution" only when every position it reached was proven dead. */
static void run_fess_all(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                         search_outcome *out)
{
    fess_solve(b, cfg, lim, mem, out);
}

TEST(fess_agrees_with_bfs_from_sampled_positions)
{
    fess_config cfg = {.dl = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .fixed = 1,
                              .local = 1, .stuck = 1},
                       .matching = 1, .packing = 1, .advisors = 1, .rooms = 1, .hotspots = 1,
                       .plan = 2};
    sampled_agreement(run_fess_all, &cfg, "fess");
}

/* The feature-space search and the backward search in turn, one expansion
 * each, meeting; counts the levels solved through a meeting. */
static int meet_solved;

static void run_meet(const board *b, const void *cfg, search_limits *lim, membudget *mem,
                     search_outcome *out)
{
    (void)cfg;
    fess_config fc = {.dl = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .fixed = 1},
                      .matching = 1, .packing = 1, .advisors = 1, .rooms = 1, .hotspots = 1,
                      .plan = 2};
    backward_config bc = backward_all_on();
    search_outcome of, ob;
    fess *f = fess_begin(b, &fc, lim, mem, &of);
    backward *w = backward_begin(b, &bc, lim, mem, &ob);
    fess_watch(f, w);
    backward_watch(w, fess_nodes(f));
    int fd = 0, bd = 0;
    for (;;) {
        if (!fd)
            fd = fess_step(f, of.st.nodes + 1);
        if (fd && of.stop != STOP_EXHAUSTED)
            break; /* solved, or a limit */
        if (!bd)
            bd = backward_step(w, ob.st.nodes + 1);
        if (bd && ob.stop != STOP_EXHAUSTED)
            break;
        if (fd && bd)
            break;
    }
    backward_unwatch(w, fess_nodes(f));
    fess_end(f);
    backward_end(w);
    search_outcome *win = of.solved ? &of : ob.solved ? &ob : NULL;
    *out = win ? *win : of;
    if (win && win->st.meetings)
        meet_solved++;
    if (win != &of)
        push_seq_free(&of.pushes);
    if (win != &ob)
        push_seq_free(&ob.pushes);
    if (!win && ob.stop != STOP_EXHAUSTED)
        out->stop = ob.stop;
}

TEST(fess_and_backward_meet)
{
    const char *path = test_shared_level("boxoban/medium/valid/000.txt");
    if (!path)
        SKIP("shared boxoban levels not found");
    meet_solved = 0;
    crosscheck_file("boxoban/medium/valid/000.txt", 50, run_meet, NULL, 0, 80);
    /* the test means something only if meetings happen */
    CHECK(meet_solved >= (test_quick() ? 5 : 25));
}
