/* test_analysis.c: board analysis and knowledge against brute force.
 *  - push distances and dead squares against a search over (box, player)
 *    states on the empty board;
 *  - the matching bound against enumeration of all assignments, after
 *    fresh solves, single moves and warm starts; on a board of 44 boxes,
 *    long chains of single moves certified optimal by their duals;
 *  - push generation counts ("perft") against a generator written here on
 *    the raw character grid. */
#include "test.h"
#include "../../src/analysis/distance.h"
#include "../../src/analysis/tunnels.h"
#include "crosscheck.h"
#include "../../src/analysis/zones.h"
#include "../../src/core/board.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/core/reach.h"
#include "../../src/heuristic/lowerbound.h"
#include "../../src/util/timer.h"
#include "../../src/util/util.h"

#include <stdlib.h>

static int brute_dist_from(const board *b, sq_t s, sq_t g, sq_t from);

/* Fewest pushes to bring a lone box from s to goal g, the player starting
 * anywhere: 0-1 BFS over (box, player) pairs. */
static int brute_dist(const board *b, sq_t s, sq_t g)
{
    return brute_dist_from(b, s, g, SQ_NONE);
}

/* The same with the player starting on `from` (SQ_NONE: anywhere). */
static int brute_dist_from(const board *b, sq_t s, sq_t g, sq_t from)
{
    int n = b->nsq;
    int *dist = malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *dq = malloc(sizeof(int) * (size_t)n * (size_t)n * 2);
    for (int i = 0; i < n * n; i++)
        dist[i] = -1;
    int head = n * n, tail = n * n; /* deque in the middle of 2*n*n */
    for (int p = 0; p < n; p++)
        if (p != s && (from == SQ_NONE || p == from)) {
            dist[s * n + p] = 0;
            dq[tail++] = s * n + p;
        }
    int best = -1;
    while (head < tail) {
        int st = dq[head++];
        int bx = st / n, pl = st % n, d0 = dist[st];
        if (bx == g) {
            best = d0;
            break;
        }
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[pl][d];
            if (t == SQ_NONE)
                continue;
            if (t != bx) { /* walk, cost 0 */
                int ns = bx * n + t;
                if (dist[ns] < 0 || dist[ns] > d0) {
                    dist[ns] = d0;
                    dq[--head] = ns;
                }
            } else { /* push, cost 1 */
                sq_t to = b->nb[bx][d];
                if (to == SQ_NONE)
                    continue;
                int ns = to * n + bx;
                if (dist[ns] < 0) {
                    dist[ns] = d0 + 1;
                    dq[tail++] = ns;
                }
            }
        }
    }
    free(dist);
    free(dq);
    return best;
}

static void check_distances(const level *lv, int *sides_checked)
{
    board b;
    if (board_build(&b, lv) != 0)
        return;
    CHECK(distance_analyze(&b) == 0);
    int ndead = 0;
    for (int s = 0; s < b.nsq; s++) {
        int any = 0;
        for (int g = 0; g < b.nboxes; g++) {
            int d = brute_dist(&b, (sq_t)s, b.goals[g]);
            uint16_t mine = b.goal_dist[(size_t)g * (size_t)b.nsq + (size_t)s];
            if (d < 0)
                CHECK_INT(mine, DIST_INF);
            else
                CHECK_INT(mine, d);
            any |= d >= 0;
        }
        CHECK_INT(b.dead[s], !any);
        ndead += !any;
    }
    CHECK_INT(b.ndead, ndead);
    /* The player's sides: for a box on s with the player on q, the row
     * lb_row gives is the pushes from there, the player starting on q. */
    lowerbound lb;
    membudget mem;
    mem_init(&mem, 0);
    REQUIRE(lb_init(&lb, &b, 1, &mem) == 0);
    CHECK_INT(lb.nside, b.nside);
    for (int s = 0; s < b.nsq && b.nside; s++) {
        if (b.side_at[s] < 0)
            continue;
        for (int q = 0; q < b.nsq; q++) {
            if (q == s)
                continue;
            sq_t row = lb_row(&lb, (sq_t)s, (sq_t)q);
            for (int g = 0; g < b.nboxes; g++) {
                int d = brute_dist_from(&b, (sq_t)s, b.goals[g], (sq_t)q);
                uint16_t mine = lb.dist_t[(size_t)row * (size_t)lb.n + (size_t)g];
                CHECK_INT(mine, d < 0 ? DIST_INF : d);
            }
        }
        (*sides_checked)++;
    }
    lb_free(&lb);
    board_free(&b);
}

TEST(distances_and_dead_squares_match_brute_force)
{
    collection c;
    int sides = 0;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    for (int k = 0; k < c.nlevels; k++)
        check_distances(&c.levels[k], &sides);
    collection_free(&c);
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("microban155.xsb not found (demo levels checked)");
    REQUIRE(collection_load(&c, path) == 0);
    int limit = test_quick() ? 8 : 40;
    for (int k = 0; k < c.nlevels && k < limit; k++)
        check_distances(&c.levels[k], &sides);
    collection_free(&c);
    /* a floor: cut squares with side rows were checked at all */
    CHECK(sides >= (test_quick() ? 3 : 20));
}

/* Zones: a box that can reach a goal (a lone box, push distances checked
 * against brute force above) is in that goal's zone, every zone holds a
 * goal, and dead squares are in none. Returns the zones found (-1 when the
 * level was not checked). */
static int check_zones(const level *lv, zones *out)
{
    board b;
    if (board_build(&b, lv) != 0)
        return -1;
    CHECK(distance_analyze(&b) == 0);
    zones z;
    if (zones_find(&b, &z) != 0) {
        test_fail(__FILE__, __LINE__, "zones_find failed");
        board_free(&b);
        return -1;
    }
    int *has_goal = xcalloc((size_t)z.n + 1, sizeof *has_goal);
    for (int s = 0; s < b.nsq; s++) {
        if (b.dead[s]) {
            CHECK_INT(z.of[s], -1);
            continue;
        }
        CHECK(z.of[s] >= 0 && z.of[s] < z.n);
        for (int g = 0; g < b.nboxes; g++)
            if (b.goal_dist[(size_t)g * (size_t)b.nsq + (size_t)s] != DIST_INF)
                CHECK_INT(z.of[s], z.of[b.goals[g]]);
    }
    for (int g = 0; g < b.nboxes; g++)
        has_goal[z.of[b.goals[g]]] = 1;
    int boxes = 0, goals = 0;
    for (int k = 0; k < z.n; k++) {
        CHECK(has_goal[k]);
        boxes += z.boxes[k];
        goals += z.goals[k];
    }
    CHECK_INT(goals, b.nboxes);
    CHECK_INT(boxes, b.nboxes);
    free(has_goal);
    int n = z.n;
    if (out)
        *out = z;
    else
        zones_free(&z);
    board_free(&b);
    return n;
}

TEST(zones_hold_every_square_a_box_can_reach)
{
    collection c;
    REQUIRE(collection_load(&c, "tests/data/zones.xsb") == 0);
    for (int k = 0; k < c.nlevels; k++) {
        zones z;
        CHECK_INT(check_zones(&c.levels[k], &z), 2);
        CHECK_INT(z.active, 2);
        CHECK(z.balanced);
        CHECK_INT(z.boxes[0], (k < 2 ? 2 : 5)); /* Shut In: 5 boxes above, 2 below */
        CHECK_INT(z.boxes[1], 2);
        zones_free(&z);
    }
    collection_free(&c);
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    for (int k = 0; k < c.nlevels; k++)
        check_zones(&c.levels[k], NULL);
    collection_free(&c);
    /* Sasquatch IV: levels 20, 28, 31 and 47 fall into 2, 2, 2 and 4
     * zones with boxes off their goals (the others into one, or none
     * balanced) */
    const char *path = test_shared_level("sasquatch4_50.xsb");
    if (!path)
        SKIP("sasquatch4_50.xsb not found (the levels made here checked)");
    REQUIRE(collection_load(&c, path) == 0);
    int split = 0;
    for (int k = 0; k < c.nlevels; k++) {
        zones z;
        if (check_zones(&c.levels[k], &z) < 0)
            continue;
        if (z.active >= 2 && z.balanced) {
            split++;
            int want = c.levels[k].index == 47 ? 4 : 2;
            if (c.levels[k].index == 20 || c.levels[k].index == 28 ||
                c.levels[k].index == 31 || c.levels[k].index == 47)
                CHECK_INT(z.active, want);
            else
                test_fail(__FILE__, __LINE__, "Sasquatch IV %d split into %d zones",
                          c.levels[k].index, z.active);
        }
        zones_free(&z);
    }
    CHECK_INT(split, 4);
    collection_free(&c);
}

TEST(side_components_match_flood_fill)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    for (int k = 0; k < c.nlevels; k++) {
        board b;
        board_build(&b, &c.levels[k]);
        uint8_t *comp = distance_side_components(&b);
        uint8_t *seen = malloc((size_t)b.nsq);
        sq_t *st = malloc(sizeof(sq_t) * (size_t)b.nsq);
        for (int s = 0; s < b.nsq; s++) {
            /* flood from each neighbour of s in the board without s */
            for (int d = 0; d < 4; d++) {
                sq_t n1 = b.nb[s][d];
                if (n1 == SQ_NONE) {
                    CHECK_INT(comp[s * 4 + d], 0xFF);
                    continue;
                }
                memset(seen, 0, (size_t)b.nsq);
                int sp = 0;
                seen[s] = 1;
                seen[n1] = 1;
                st[sp++] = n1;
                while (sp) {
                    sq_t x = st[--sp];
                    for (int e = 0; e < 4; e++) {
                        sq_t y = b.nb[x][e];
                        if (y != SQ_NONE && !seen[y]) {
                            seen[y] = 1;
                            st[sp++] = y;
                        }
                    }
                }
                for (int e = 0; e < 4; e++) {
                    sq_t n2 = b.nb[s][e];
                    if (n2 == SQ_NONE)
                        continue;
                    int same = seen[n2] != 0;
                    CHECK_INT(comp[s * 4 + d] == comp[s * 4 + e], same);
                }
            }
        }
        free(seen);
        free(st);
        free(comp);
        board_free(&b);
    }
    collection_free(&c);
}

TEST(matching_bound_matches_enumeration)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    srand(777);
    int checked = 0;
    for (int k = 0; k < c.nlevels; k++) {
        board b;
        test_level_board(&c.levels[k], &b);
        if (b.nboxes > 7) {
            board_free(&b);
            continue;
        }
        membudget m;
        mem_init(&m, 0);
        lowerbound lb, nb;
        REQUIRE(lb_init(&lb, &b, 1, &m) == 0);
        REQUIRE(lb_init(&nb, &b, 0, &m) == 0);
        sq_t *boxes = malloc(sizeof(sq_t) * (size_t)b.nboxes);
        lb_sol warm, cur, near;
        lb_sol_init(&warm, b.nboxes);
        lb_sol_init(&near, b.nboxes);
        for (int trial = 0; trial < 200; trial++) {
            /* random distinct squares */
            for (int i = 0; i < b.nboxes; i++) {
                int ok;
                do {
                    boxes[i] = (sq_t)(rand() % b.nsq);
                    ok = 1;
                    for (int j = 0; j < i; j++)
                        ok &= boxes[j] != boxes[i];
                } while (!ok);
            }
            lb_sol_init(&cur, b.nboxes);
            int64_t want = lb_brute_force(&lb, boxes);
            /* a deadline already passed stops a fresh matching before its
             * first augmenting path; a later solve completes it */
            CHECK(lb_solve_by(&lb, &cur, boxes, 1) == LB_STOPPED);
            CHECK(lb_solve_by(&lb, &cur, boxes, timer_now_ns() + 60000000000) == want);
            lb_sol_free(&cur);
            lb_sol_init(&cur, b.nboxes);
            CHECK(lb_solve(&lb, &cur, boxes) == want);
            CHECK(lb_solve(&lb, &warm, boxes) == want); /* warm start from the last trial */
            /* nearest-goal bound: never above the matching */
            int64_t nv = lb_solve(&nb, &near, boxes);
            CHECK(nv == LB_INF ? want == LB_INF : (want == LB_INF || nv <= want));
            /* move one box and update incrementally */
            int i = rand() % b.nboxes;
            sq_t to = (sq_t)(rand() % b.nsq);
            int clash = 0;
            for (int j = 0; j < b.nboxes; j++)
                clash |= j != i && boxes[j] == to;
            if (!clash && cur.cost != LB_INF) {
                boxes[i] = to;
                CHECK(lb_move(&lb, &cur, i, to) == lb_brute_force(&lb, boxes));
            }
            lb_sol_free(&cur);
            checked++;
        }
        lb_sol_free(&warm);
        lb_sol_free(&near);
        free(boxes);
        lb_free(&lb);
        lb_free(&nb);
        board_free(&b);
    }
    CHECK(checked >= 1000);
    collection_free(&c);
}

/* The squares from which every goal is reachable (a finite cost in every
 * column): islive[q] = 1 for them, listed in live (when not NULL).
 * Returns how many. */
static int live_squares(const lowerbound *lb, uint8_t *islive, sq_t *live)
{
    int nlive = 0;
    for (int q = 0; q < lb->nsq; q++) {
        int ok = 1;
        for (int j = 0; j < lb->n; j++)
            ok &= lb->dist_t[(size_t)q * (size_t)lb->n + (size_t)j] != DIST_INF;
        islive[q] = (uint8_t)ok;
        if (ok && live)
            live[nlive] = (sq_t)q;
        nlive += ok;
    }
    return nlive;
}

/* Whether s is a certified minimum matching for boxes: a perfect
 * assignment, dual potentials feasible on every pair (u[i] + v[j] <=
 * c[i][j]) and tight on the assigned ones, so that no other assignment
 * costs less (LP duality), and s->cost its cost. Every box on a square
 * from which every goal is reachable. */
static int matching_certified(const lowerbound *lb, const lb_sol *s, const sq_t *boxes)
{
    int n = lb->n;
    int64_t cost = 0;
    for (int i = 1; i <= n; i++) {
        int j = s->col[i];
        if (j < 1 || j > n || s->p[j] != i || s->sq[i - 1] != boxes[i - 1])
            return 0;
        for (int k = 1; k <= n; k++) {
            uint16_t d = lb->dist_t[(size_t)boxes[i - 1] * (size_t)n + (size_t)(k - 1)];
            if (d == DIST_INF)
                return 0;
            if (s->u[i] + s->v[k] > (int64_t)d || (k == j && s->u[i] + s->v[k] != (int64_t)d))
                return 0;
            if (k == j)
                cost += d;
        }
    }
    return cost == s->cost;
}

TEST(matching_bound_certified_along_long_chains_of_moves)
{
    /* an open room of 18x10 squares with 44 boxes and goals: ties
     * everywhere, so the augmenting paths choose among many columns of
     * equal key */
    const char *text = "####################\n"
                       "#                  #\n"
                       "# $$$$$$$$$$$$$$$$ #\n"
                       "# $              $ #\n"
                       "# $ ............ $ #\n"
                       "# $ ............ $ #\n"
                       "# $ ............ $ #\n"
                       "# $ ........ @   $ #\n"
                       "# $              $ #\n"
                       "# $$$$$$$$$$$$$$$$ #\n"
                       "#                  #\n"
                       "####################\n";
    collection c;
    board b;
    REQUIRE(test_board_of(text, &c, &b) == 0);
    REQUIRE(b.nboxes == 44);
    membudget m;
    mem_init(&m, 0);
    lowerbound lb;
    REQUIRE(lb_init(&lb, &b, 1, &m) == 0);
    /* the squares a box may stand on: every goal reachable from them */
    sq_t *live = malloc(sizeof(sq_t) * (size_t)b.nsq);
    uint8_t *islive = calloc((size_t)b.nsq, 1);
    int nlive = live_squares(&lb, islive, live);
    REQUIRE(nlive >= 80);
    uint8_t *taken = calloc((size_t)b.nsq, 1);
    sq_t *boxes = malloc(sizeof(sq_t) * (size_t)b.nboxes);
    srand(4242);
    int moves = 0, certified = 0, pathless = 0;
    uint64_t paths = 0;
    lb.paths = &paths;
    for (int chain = 0; chain < 4; chain++) {
        memset(taken, 0, (size_t)b.nsq);
        for (int i = 0; i < b.nboxes; i++) {
            sq_t q;
            do
                q = live[rand() % nlive];
            while (taken[q]);
            taken[q] = 1;
            boxes[i] = q;
        }
        lb_sol cur, fresh;
        lb_sol_init(&cur, b.nboxes);
        CHECK(lb_solve(&lb, &cur, boxes) != LB_INF);
        certified += matching_certified(&lb, &cur, boxes);
        for (int step = 0, made = 0; made < 1200 && step < 100000; step++) {
            /* a box moves one square (as a push does) or, one time in
             * eight, anywhere */
            int i = rand() % b.nboxes;
            sq_t to;
            if (rand() % 8) {
                to = b.nb[boxes[i]][rand() % 4];
                if (to == SQ_NONE || !islive[to] || taken[to])
                    continue;
            } else {
                do
                    to = live[rand() % nlive];
                while (taken[to]);
            }
            taken[boxes[i]] = 0;
            taken[to] = 1;
            boxes[i] = to;
            uint64_t before = paths;
            int64_t got = lb_move(&lb, &cur, i, to);
            pathless += paths == before;
            lb_sol_init(&fresh, b.nboxes);
            CHECK(got == lb_solve(&lb, &fresh, boxes));
            lb_sol_free(&fresh);
            certified += matching_certified(&lb, &cur, boxes);
            moves++;
            made++;
        }
        lb_sol_free(&cur);
    }
    /* every matching certified optimal; both kinds of update ran */
    CHECK(moves == 4 * 1200);
    CHECK(certified == moves + 4);
    CHECK(pathless > 0 && pathless < moves);
    free(boxes);
    free(taken);
    free(islive);
    free(live);
    lb_free(&lb);
    board_free(&b);
    collection_free(&c);
}

/* Two matchings of the same boxes, updated the same way, are the same to
 * the last potential. */
static int same_sol(const lb_sol *a, const lb_sol *b, int n)
{
    size_t w = sizeof(int32_t) * (size_t)(n + 1), l = sizeof(int64_t) * (size_t)(n + 1);
    return a->cost == b->cost && !memcmp(a->p, b->p, w) && !memcmp(a->col, b->col, w) &&
           !memcmp(a->u, b->u, l) && !memcmp(a->v, b->v, l);
}

TEST(matching_simd_scans_same_as_plain_loop)
{
    /* augment's AVX2 and AVX-512 column scans must choose the same columns
     * among equal keys as the plain loop (the searches' orders follow the
     * assignment): two rooms whose box counts leave tails of 1 and of 4 + 2
     * columns past the groups of eight (AVX-512: 1 and 6), ties everywhere,
     * boxes also put on dead squares (rows of impossible pairs); each scan
     * the processor has is compared */
    const char *rooms[2] = {"####################\n"
                            "#                  #\n"
                            "# $$$$$$$$$$$$$    #\n"
                            "# $              $ #\n"
                            "# $ ............ $ #\n"
                            "# $ ............ $ #\n"
                            "# $ ............ $ #\n"
                            "# $ .....   @    $ #\n"
                            "# $              $ #\n"
                            "# $$$$$$$$$$$$$$$$ #\n"
                            "#                  #\n"
                            "####################\n",
                            "####################\n"
                            "#                  #\n"
                            "# $$$$$$$$$$$$$$$$ #\n"
                            "# $              $ #\n"
                            "# $ ............ $ #\n"
                            "# $ ............ $ #\n"
                            "# $ ............ $ #\n"
                            "# $ .......... @ $ #\n"
                            "# $   $    $     $ #\n"
                            "# $$$$$$$$$$$$$$$$ #\n"
                            "#                  #\n"
                            "####################\n"};
    const int want_boxes[2] = {41, 46};
#if LB_SIMD
    if (!__builtin_cpu_supports("avx2"))
        SKIP("this processor has no AVX2: only the plain loop runs");
#else
    SKIP("not an x86 build: only the plain loop exists");
#endif
    int compared = 0, infinite = 0, runs = 0;
    for (int t = 0; t < 4; t++) {
        int r = t % 2, scan = 1 + t / 2;
#if LB_SIMD
        if (scan == 2 && !__builtin_cpu_supports("avx512f"))
            continue; /* the AVX2 scan alone is compared */
#endif
        runs++;
        collection c;
        board b;
        REQUIRE(test_board_of(rooms[r], &c, &b) == 0);
        REQUIRE(b.nboxes == want_boxes[r]);
        membudget m;
        mem_init(&m, 0);
        lowerbound fast, plain;
        REQUIRE(lb_init(&fast, &b, 1, &m) == 0);
        REQUIRE(lb_init(&plain, &b, 1, &m) == 0);
        REQUIRE(fast.simd >= scan);
        fast.simd = scan;
        plain.simd = 0;
        uint8_t *taken = calloc((size_t)b.nsq, 1);
        sq_t *boxes = malloc(sizeof(sq_t) * (size_t)b.nboxes);
        for (int i = 0; i < b.nboxes; i++) {
            boxes[i] = b.start_boxes[i];
            taken[boxes[i]] = 1;
        }
        lb_sol a, bb;
        lb_sol_init(&a, b.nboxes);
        lb_sol_init(&bb, b.nboxes);
        lb_solve(&fast, &a, boxes);
        lb_solve(&plain, &bb, boxes);
        CHECK(same_sol(&a, &bb, b.nboxes));
        /* live squares: every goal reachable from them */
        uint8_t *islive = calloc((size_t)b.nsq, 1);
        live_squares(&fast, islive, NULL);
        srand(777 + (unsigned)t);
        for (int step = 0, made = 0; made < 3000 && step < 200000; step++) {
            /* a box moves one square or anywhere live; one time in 32 onto
             * a dead square, from where it is soon taken back */
            int i = rand() % b.nboxes, dead = -1;
            for (int k = 0; k < b.nboxes; k++)
                if (!islive[boxes[k]])
                    dead = k;
            int kind = rand() % 32;
            sq_t to;
            if (dead >= 0 && kind < 16) {
                i = dead;
                to = (sq_t)(rand() % b.nsq);
                if (!islive[to] || taken[to])
                    continue;
            } else if (kind == 16) {
                to = (sq_t)(rand() % b.nsq);
                if (islive[to] || taken[to])
                    continue;
            } else if (kind % 4) {
                to = b.nb[boxes[i]][rand() % 4];
                if (to == SQ_NONE || !islive[to] || taken[to])
                    continue;
            } else {
                to = (sq_t)(rand() % b.nsq);
                if (!islive[to] || taken[to])
                    continue;
            }
            taken[boxes[i]] = 0;
            taken[to] = 1;
            boxes[i] = to;
            int64_t ca = lb_move(&fast, &a, i, to), cb = lb_move(&plain, &bb, i, to);
            CHECK(ca == cb);
            CHECK(same_sol(&a, &bb, b.nboxes));
            infinite += ca == LB_INF;
            if (made % 100 == 0) { /* a fresh matching of the same boxes */
                lb_sol fa, fb;
                lb_sol_init(&fa, b.nboxes);
                lb_sol_init(&fb, b.nboxes);
                lb_solve(&fast, &fa, boxes);
                lb_solve(&plain, &fb, boxes);
                CHECK(same_sol(&fa, &fb, b.nboxes));
                lb_sol_free(&fa);
                lb_sol_free(&fb);
            }
            compared++;
            made++;
        }
        lb_sol_free(&a);
        lb_sol_free(&bb);
        free(islive);
        free(boxes);
        free(taken);
        lb_free(&fast);
        lb_free(&plain);
        board_free(&b);
        collection_free(&c);
    }
    CHECK(runs >= 2 && compared == 3000 * runs);
    CHECK(infinite > 0 && infinite < compared);
}

/* ------------------------------------------------------------ perft */

/* Pushes counted on the raw grid: flood fill the player over ' ' and '.',
 * then for every box and direction test the square behind and in front. */
typedef struct grid {
    int w, h;
    char *c; /* '#', ' ', '$' (goals forgotten: they do not matter here) */
    int player;
} grid;

static long grid_perft(grid *g, int depth)
{
    if (depth == 0)
        return 1;
    int n = g->w * g->h;
    char *seen = calloc((size_t)n, 1);
    int *st = malloc(sizeof(int) * (size_t)n);
    int sp = 0;
    seen[g->player] = 1;
    st[sp++] = g->player;
    const int dd[4] = {-1, -g->w, 1, g->w};
    while (sp) {
        int x = st[--sp];
        for (int d = 0; d < 4; d++) {
            int y = x + dd[d];
            if (y < 0 || y >= n || seen[y] || g->c[y] != ' ')
                continue;
            seen[y] = 1;
            st[sp++] = y;
        }
    }
    long total = 0;
    for (int x = 0; x < n; x++) {
        if (g->c[x] != '$')
            continue;
        for (int d = 0; d < 4; d++) {
            int be = x - dd[d], to = x + dd[d];
            if (be < 0 || be >= n || to < 0 || to >= n || !seen[be] || g->c[to] != ' ')
                continue;
            int pl = g->player;
            g->c[x] = ' ';
            g->c[to] = '$';
            g->player = x;
            total += grid_perft(g, depth - 1);
            g->c[x] = '$';
            g->c[to] = ' ';
            g->player = pl;
        }
    }
    free(seen);
    free(st);
    return total;
}

static long board_perft(position *p, reach *rs, int depth)
{
    if (depth == 0)
        return 1;
    const board *b = p->b;
    reach *r = &rs[depth];
    reach_compute(r, p, p->player);
    long total = 0;
    for (int i = 0; i < b->nboxes; i++)
        for (int d = 0; d < 4; d++) {
            sq_t s = p->boxes[i], be = b->nb[s][DIR_OPP(d)], to = b->nb[s][d];
            if (be == SQ_NONE || !reach_floor(r, be) || !pos_free_sq(p, to))
                continue;
            undo_rec u;
            pos_push(p, s, d, 1, &u);
            total += board_perft(p, rs, depth - 1);
            pos_undo(p, &u);
        }
    return total;
}

TEST(perft_push_generation_counts)
{
    collection c;
    REQUIRE(collection_load(&c, "levels/demo.xsb") == 0);
    const char *xs = test_shared_level("xsokoban90.xsb");
    collection x;
    int have_x = xs && collection_load(&x, xs) == 0;
    int levels = c.nlevels + (have_x ? 3 : 0);
    for (int k = 0; k < levels; k++) {
        const level *lv = k < c.nlevels ? &c.levels[k] : &x.levels[k - c.nlevels];
        board b;
        position p;
        REQUIRE(test_level_setup(lv, &b, &p) == 0);
        grid g = {lv->width, lv->height, malloc((size_t)(lv->width * lv->height)), 0};
        for (int i = 0; i < lv->width * lv->height; i++) {
            char ch = lv->grid[i];
            g.c[i] = ch == '#' || !lv->inside[i] ? '#' : (ch == '$' || ch == '*') ? '$' : ' ';
            if (ch == '@' || ch == '+')
                g.player = i;
        }
        reach rs[5];
        for (int i = 0; i < 5; i++)
            reach_init(&rs[i], b.nsq);
        for (int depth = 1; depth <= (k < c.nlevels ? 4 : 3); depth++) {
            long want = grid_perft(&g, depth);
            long got = board_perft(&p, rs, depth);
            if (want != got)
                test_fail(__FILE__, __LINE__, "level %d depth %d: %ld pushes, grid says %ld",
                          k + 1, depth, got, want);
            CHECK(want > 0 || depth > 1);
        }
        for (int i = 0; i < 5; i++)
            reach_free(&rs[i]);
        free(g.c);
        test_level_free(&b, &p);
    }
    if (have_x)
        collection_free(&x);
    collection_free(&c);
}

/* Tunnel macros: along a corridor the box goes on to the first square
 * that is a goal or before the corridor opens; into a corridor that ends
 * in a dead square or a box it never goes (0); outside corridors a push is
 * one square. */
TEST(tunnel_length_follows_corridors)
{
    static const struct {
        const char *text;
        int row, col, dir, expect;
    } cases[] = {
        {"##########\n#@$    .##\n##########\n", 1, 2, DIR_RIGHT, 5}, /* on to the goal */
        {"#########\n#@$    .#\n##### ###\n##### ###\n#########\n", 1, 2, DIR_RIGHT, 2},
        {"#######\n#@$  ##\n#.#####\n#######\n", 1, 2, DIR_RIGHT, 0}, /* dead end */
        {"##########\n#@$ $  ..#\n##########\n", 1, 2, DIR_RIGHT, 0},  /* a box ahead */
        {"##########\n#@$ $  ..#\n##########\n", 1, 2, DIR_LEFT, 0},   /* the wall */
        {"######\n#@$ .#\n#    #\n######\n", 1, 2, DIR_RIGHT, 1},       /* open floor */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        collection c;
        board b;
        position p;
        REQUIRE(test_text_setup(cases[k].text, &c, &b, &p) == 0);
        sq_t box = test_sq(&b, cases[k].row, cases[k].col);
        if (tunnel_length(&b, &p, box, cases[k].dir) != cases[k].expect)
            test_fail(__FILE__, __LINE__, "case %zu: tunnel length %d, expected %d", k,
                      tunnel_length(&b, &p, box, cases[k].dir), cases[k].expect);
        test_text_free(&c, &b, &p);
    }
}
