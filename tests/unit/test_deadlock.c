/* test_deadlock.c: deadlock detectors against exhaustive search. Positions
 * are sampled by random pushes from the start of small levels; whenever a
 * detector calls a position dead, the breadth-first search (no pruning at
 * all) must find no solution from it. PI-corral pruning is also checked
 * for optimality: the best allowed push must lead to a solution as short
 * as the position's optimum. The corral deadlock search (a search on a
 * subset of the boxes) is checked the same way, on the corral's boxes as
 * the solver uses it and on random subsets. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/distance.h"
#include "../../src/core/level.h"
#include "../../src/core/reach.h"
#include "../../src/deadlock/corral.h"
#include "../../src/deadlock/freeze.h"
#include "../../src/deadlock/stuck.h"
#include "../../src/deadlock/subset.h"
#include "../../src/heuristic/lowerbound.h"
#include "../../src/search/bfs.h"
#include "../../src/util/timer.h"

#include <stdlib.h>

typedef struct tally {
    int freeze, corral, bipartite, dead, corral_prunes, subset, local, xy, corrals;
    int stuck, matched;
    int freeze_wrong, corral_wrong, bipartite_wrong, dead_wrong, prune_wrong, subset_wrong;
    int local_wrong, xy_wrong, corrals_wrong, stuck_wrong, matched_wrong;
    int unknown;
} tally;

/* 1 solvable, 0 not, -1 unknown (limit). *pushes gets the optimum. */
static int solvable(const board *b, const position *p, long *pushes)
{
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = 400000;
    membudget m;
    mem_init(&m, 1ULL << 30);
    return bfs_solvable(b, p, &lim, &m, pushes);
}

/* One random legal push in p (of the first 256 found); *to gets the square
 * the box lands on. Returns 0 when no push is possible. */
static int random_push(position *p, reach *r, sq_t *to)
{
    const board *b = p->b;
    reach_compute(r, p, p->player);
    sq_t fr[256];
    int dr[256], n = 0;
    for (int i = 0; i < b->nboxes; i++)
        for (int d = 0; d < 4 && n < 256; d++) {
            sq_t s = p->boxes[i], be = b->nb[s][DIR_OPP(d)], t = b->nb[s][d];
            if (be != SQ_NONE && reach_floor(r, be) && pos_free_sq(p, t)) {
                fr[n] = s;
                dr[n++] = d;
            }
        }
    if (n == 0)
        return 0;
    int m = rand() % n;
    undo_rec u;
    pos_push(p, fr[m], dr[m], 1, &u);
    *to = u.to;
    return 1;
}

static void sample_level(const level *lv, int samples, tally *t, unsigned seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    reach r, r2;
    reach_init(&r, b.nsq);
    reach_init(&r2, b.nsq);
    freeze_ctx fz;
    freeze_init(&fz, &b);
    corral_ctx cc;
    corral_init(&cc, &b);
    membudget m;
    mem_init(&m, 0);
    lowerbound lb;
    lb_init(&lb, &b, 1, &m);
    lb_sol sol;
    lb_sol_init(&sol, b.nboxes);
    uint8_t *allow = malloc((size_t)b.nboxes);
    subset_ctx sc;
    subset_init(&sc, &b, 3000, b.nboxes);
    subset_ctx xy; /* the xy relaxation, as the feature-space search runs it */
    subset_init(&xy, &b, 100, b.nboxes);
    xy.xy = 1;
    sq_t *keep = malloc(sizeof(sq_t) * (size_t)b.nboxes);
    stuck_table stk; /* learned patterns, from this level's earlier samples too */
    stuck_init(&stk, &b);
    srand(seed);
    for (int sample = 0; sample < samples; sample++) {
        pos_set(&p, b.start_boxes, b.start_player);
        int steps = 1 + rand() % 12;
        sq_t last = SQ_NONE;
        for (int k = 0; k < steps; k++)
            if (!random_push(&p, &r, &last))
                break;
        if (last == SQ_NONE || pos_solved(&p))
            continue;
        long opt = -1;
        int known = -2; /* -2 = not computed yet */
#define TRUTH() (known == -2 ? (known = solvable(&b, &p, &opt)) : known)
        /* a match of the patterns learned from earlier samples */
        if (stuck_match(&stk, &p)) {
            t->matched++;
            if (TRUTH() == 1)
                t->matched_wrong++;
        }
        int dead_sq = 0;
        for (int i = 0; i < b.nboxes; i++)
            dead_sq |= b.dead[p.boxes[i]];
        if (dead_sq) {
            t->dead++;
            if (TRUTH() == 1)
                t->dead_wrong++;
        }
        if (freeze_deadlock(&fz, &p, last)) {
            t->freeze++;
            if (TRUTH() == 1)
                t->freeze_wrong++;
        }
        if (lb_solve(&lb, &sol, p.boxes) == LB_INF) {
            t->bipartite++;
            if (TRUTH() == 1)
                t->bipartite_wrong++;
        }
        reach_compute(&r, &p, p.player);
        int allowed = corral_prune(&cc, &p, &r, allow);
        /* Corral deadlock search: on the corral's boxes, then on a random
         * nonempty subset. */
        for (int trial = 0; trial < 2; trial++) {
            int k = 0;
            if (trial == 0) {
                if (allowed <= 0)
                    continue;
                for (int j = 0; j < cc.nbest; j++)
                    keep[k++] = p.boxes[cc.best_fence[j]];
            } else {
                for (int j = 0; j < b.nboxes; j++)
                    if (rand() % 2)
                        keep[k++] = p.boxes[j];
                if (k == 0)
                    keep[k++] = p.boxes[rand() % b.nboxes];
            }
            if (subset_dead(&sc, keep, k, p.player)) {
                t->subset++;
                if (TRUTH() == 1)
                    t->subset_wrong++;
            }
        }
        /* The local test of the feature-space search: the pushed box and
         * the boxes near it, xy relaxation; then the xy relaxation on a
         * random subset; then every PI-corral found. */
        sq_t near[5];
        int kn = subset_near(&p, last, 2, 5, near);
        if (kn >= 2 && subset_dead(&xy, near, kn, p.player)) {
            stuck_add(&stk, &xy, near, kn, p.player, &(stats){0});
            t->local++;
            if (TRUTH() == 1)
                t->local_wrong++;
        }
        {
            int k = 0;
            for (int j = 0; j < b.nboxes; j++)
                if (rand() % 2)
                    keep[k++] = p.boxes[j];
            if (k > 0 && subset_dead(&xy, keep, k, p.player)) {
                t->xy++;
                if (TRUTH() == 1)
                    t->xy_wrong++;
            }
        }
        if (allowed > 0) {
            stats st = {0};
            if (subset_corrals_dead(&sc, &cc, &p, &st)) {
                stuck_add(&stk, &sc, sc.kept, sc.nkept, p.player, &st);
                t->corrals++;
                if (TRUTH() == 1)
                    t->corrals_wrong++;
            }
        }
        /* Learned patterns: the learning test of the position itself
         * (patterns from the local and corral searches above too). */
        {
            stats st = {0};
            if (stuck_learn(&stk, &p, sample % STUCK_ROUNDS, &st)) {
                t->stuck++;
                if (TRUTH() == 1)
                    t->stuck_wrong++;
            }
        }
        if (allowed == 0) {
            t->corral++;
            if (TRUTH() == 1)
                t->corral_wrong++;
        } else if (allowed > 0 && TRUTH() == 1 && t->corral_prunes < 400) {
            /* the best allowed push keeps the optimum */
            t->corral_prunes++;
            long best = -1;
            int unknown = 0;
            for (int i = 0; i < b.nboxes; i++)
                for (int d = 0; d < 4; d++) {
                    if (!(allow[i] & (1u << d)))
                        continue;
                    undo_rec u;
                    pos_push(&p, p.boxes[i], d, 1, &u);
                    long o2 = -1;
                    int s2 = pos_solved(&p) ? 1 : solvable(&b, &p, &o2);
                    if (pos_solved(&p))
                        o2 = 0;
                    pos_undo(&p, &u);
                    if (s2 < 0)
                        unknown = 1;
                    if (s2 == 1 && (best < 0 || o2 + 1 < best))
                        best = o2 + 1;
                }
            if (!unknown && best != opt)
                t->prune_wrong++;
        }
        if (known == -1)
            t->unknown++;
#undef TRUTH
    }
    free(allow);
    free(keep);
    subset_free(&sc);
    subset_free(&xy);
    stuck_free(&stk);
    lb_sol_free(&sol);
    lb_free(&lb);
    corral_free(&cc);
    freeze_free(&fz);
    reach_free(&r);
    reach_free(&r2);
    test_level_free(&b, &p);
}

static void run_file(const char *name, int levels, int samples)
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    if (test_quick())
        levels /= 4;
    tally t = {0};
    for (int k = 0; k < c.nlevels && k < levels; k++)
        sample_level(&c.levels[k], samples, &t, (unsigned)(1000 + k));
    CHECK_INT(t.dead_wrong, 0);
    CHECK_INT(t.freeze_wrong, 0);
    CHECK_INT(t.bipartite_wrong, 0);
    CHECK_INT(t.corral_wrong, 0);
    CHECK_INT(t.prune_wrong, 0);
    CHECK_INT(t.subset_wrong, 0);
    CHECK_INT(t.local_wrong, 0);
    CHECK_INT(t.xy_wrong, 0);
    CHECK_INT(t.corrals_wrong, 0);
    CHECK_INT(t.stuck_wrong, 0);
    CHECK_INT(t.matched_wrong, 0);
    /* the sample exercised every detector */
    CHECK(t.local > 0);
    CHECK(t.xy > 0);
    CHECK(t.corrals > 0);
    CHECK(t.stuck > 0);
    CHECK(t.matched > 0);
    CHECK(t.freeze > 0);
    CHECK(t.dead > 0);
    CHECK(t.corral_prunes > 0);
    CHECK(t.subset > 0);
    /* verdicts BFS could not settle check nothing: at most one for ten
     * dead-square verdicts (the commonest) */
    CHECK(t.unknown * 10 <= t.dead);
    printf("  %s: positions called dead: %d dead square, %d freeze, %d bipartite, %d corral, "
           "%d subset search, %d local xy search, %d xy search, %d search of every corral, "
           "%d stuck pattern learned, %d learned pattern matched; "
           "%d corral prunings checked; %d unknown (limit)\n",
           name, t.dead, t.freeze, t.bipartite, t.corral, t.subset, t.local, t.xy, t.corrals,
           t.stuck, t.matched, t.corral_prunes, t.unknown);
    collection_free(&c);
}

TEST(deadlock_detectors_sound_boxoban)
{
    run_file("boxoban/unfiltered/test/000.txt", 120, 12);
}

TEST(deadlock_detectors_sound_boxoban_medium)
{
    run_file("boxoban/medium/valid/000.txt", 250, 12);
}
TEST(deadlock_detectors_sound_microban)
{
    run_file("microban155.xsb", 40, 10);
}

/* ------------------------------------------- fixed boxes as walls */

#include "../../src/deadlock/fixed.h"

/* Verdicts of a detector on sampled positions (with_fixed: the fixed-box
 * test's positions that hold a fixed box). */
typedef struct verdict_tally {
    int positions, with_fixed, dead, wrong, alive_pulled, unknown;
} verdict_tally;

/* A "dead" verdict on p, checked against breadth-first search: a solvable
 * p is a wrong verdict, one the search cannot decide within its limit an
 * unknown one. */
static void tally_dead(verdict_tally *t, const board *b, const position *p)
{
    long opt;
    int truth = solvable(b, p, &opt);
    t->dead++;
    t->wrong += truth == 1;
    t->unknown += truth < 0;
}

/* One random pull of a box in p (the player walks to the box, steps away
 * and the box follows); returns 0 when no pull is possible. */
static int random_pull(position *p, reach *r)
{
    const board *b = p->b;
    reach_compute(r, p, p->player);
    sq_t fr[512];
    int dr[512], n = 0;
    for (int i = 0; i < b->nboxes; i++)
        for (int d = 0; d < 4 && n < 512; d++) {
            sq_t s = p->boxes[i], q = b->nb[s][d];
            if (q == SQ_NONE || !reach_floor(r, q))
                continue;
            sq_t qq = b->nb[q][d];
            if (qq == SQ_NONE || !pos_free_sq(p, qq))
                continue;
            fr[n] = s;
            dr[n++] = d;
        }
    if (n == 0)
        return 0;
    int k = rand() % n;
    undo_rec u;
    pos_relocate(p, fr[k], b->nb[fr[k]][dr[k]], b->nb[b->nb[fr[k]][dr[k]]][dr[k]], &u);
    return 1;
}

/* A position a few random pulls from the solved one (solvable: the pulls,
 * reversed, are pushes back to the goals): a box on every goal, the player
 * on a random square free of goals, then up to 9 pulls; *pushes gets how
 * many random pushes the caller should make next (0-3). Returns 0 when no
 * square for the player was found. */
static int near_solved(position *p, reach *r, int *pushes)
{
    const board *b = p->b;
    sq_t pl = SQ_NONE;
    for (int tries = 0; tries < 100 && pl == SQ_NONE; tries++) {
        sq_t s = (sq_t)(rand() % b->nsq);
        if (!b->is_goal[s])
            pl = s;
    }
    if (pl == SQ_NONE)
        return 0;
    pos_set(p, b->goals, pl);
    int pulls = rand() % 10;
    *pushes = rand() % 4;
    for (int k = 0; k < pulls; k++)
        if (!random_pull(p, r))
            break;
    return 1;
}

/* Positions near the solved one: a box on every goal, the player on a
 * random free square, a few random pulls (a position so reached is
 * solvable: the pulls, reversed, are pushes back to the goals), then a few
 * random pushes (which may kill it). Every "dead" verdict of the fixed-box
 * matching is checked against breadth-first search, and no position
 * reached by pulls alone may be called dead. */
static void sample_fixed(const level *lv, int samples, verdict_tally *t, unsigned seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    reach r;
    reach_init(&r, b.nsq);
    fixed_ctx fx;
    fixed_init(&fx, &b);
    srand(seed);
    for (int sample = 0; sample < samples; sample++) {
        int pushes;
        if (!near_solved(&p, &r, &pushes))
            break;
        t->positions++;
        if (fixed_find(&fx, &p) > 0)
            t->with_fixed++;
        if (fixed_deadlock(&fx, &p)) {
            t->dead++;
            t->wrong++; /* reached by pulls: solvable */
        } else {
            t->alive_pulled++;
        }
        sq_t last;
        for (int k = 0; k < pushes; k++)
            if (!random_push(&p, &r, &last))
                break;
        if (pushes == 0 || pos_solved(&p))
            continue;
        t->positions++;
        if (fixed_deadlock(&fx, &p))
            tally_dead(t, &b, &p);
    }
    fixed_free(&fx);
    reach_free(&r);
    test_level_free(&b, &p);
}

/* A sampler: positions of one level checked by one detector, tallied. */
typedef void (*sampler)(const level *lv, int samples, verdict_tally *t, unsigned seed);

/* The sampler on the first `levels` levels of a shared file (a quarter in
 * quick runs), level k seeded seed + k: no verdict may be wrong, and at
 * least min_dead positions (an eighth in quick runs) must be called dead. */
static void run_sampled(const char *name, int levels, int samples, int min_dead, sampler sample,
                        unsigned seed, const char *detector)
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    if (test_quick()) { /* the first quarter of the levels, the small ones */
        levels /= 4;
        min_dead /= 8;
    }
    verdict_tally t = {0};
    for (int k = 0; k < c.nlevels && k < levels; k++)
        sample(&c.levels[k], samples, &t, seed + (unsigned)k);
    CHECK_INT(t.wrong, 0);
    CHECK(t.dead >= min_dead);
    CHECK(t.unknown * 10 <= t.dead); /* unsettled verdicts check nothing */
    printf("  %s: %d positions", name, t.positions);
    if (t.with_fixed) /* counted by the fixed-box sampler only */
        printf(" (%d with fixed boxes)", t.with_fixed);
    printf(", %d called dead by %s (checked by BFS; %d unknown), %d pulled positions kept alive\n",
           t.dead, detector, t.unknown, t.alive_pulled);
    collection_free(&c);
}

static void run_fixed(const char *name, int levels, int samples, int min_dead)
{
    run_sampled(name, levels, samples, min_dead, sample_fixed, 7000, "the fixed-box matching");
}

TEST(fixed_box_matching_sound_microban)
{
    run_fixed("microban155.xsb", 155, 120, 1200);
}

TEST(fixed_box_matching_sound_boxoban)
{
    run_fixed("boxoban/unfiltered/test/000.txt", 200, 60, 900);
}

static int fixed_of_text(const char *text, int *nfixed)
{
    collection c;
    board b;
    position p;
    if (test_text_setup(text, &c, &b, &p) != 0)
        return -1;
    fixed_ctx fx;
    fixed_init(&fx, &b);
    *nfixed = fixed_find(&fx, &p);
    int dead = fixed_deadlock(&fx, &p);
    fixed_free(&fx);
    test_text_free(&c, &b, &p);
    return dead;
}

TEST(fixed_box_matching_hand_made)
{
    int nf;
    /* The box on the top-left goal is fixed (walls left and above). The
     * other box can only reach the goal on its right by a push from the
     * fixed square: dead, though on the empty board it could. */
    CHECK_INT(fixed_of_text("#####\n#*$.#\n# @ #\n#####\n", &nf), 1);
    CHECK_INT(nf, 1);
    /* Same fixed box; the free box is pushed right onto its goal from the
     * square on its left: alive. */
    CHECK_INT(fixed_of_text("#####\n#*  #\n# $.#\n# @ #\n#####\n", &nf), 0);
    CHECK_INT(nf, 1);
    /* A goal corridor filled from its dead end: both boxes fixed, one after
     * the other (the second held by the first); the last box still comes
     * in from the right: alive. */
    CHECK_INT(fixed_of_text("#######\n#**.$@#\n#######\n", &nf), 0);
    CHECK_INT(nf, 2);
    /* Three boxes on goals in a walled row, held only by one another (no
     * wall at either end of the row: the goal on the left is empty, the
     * squares on the right free). A push along the row needs the next box
     * gone first, so none can ever move: all three are fixed. The goal on
     * the left is then cut off, and the free box, which on the empty board
     * could go up through the gap and be pushed left along the row, cannot
     * reach it: dead. */
    CHECK_INT(fixed_of_text("#########\n"
                            "#.***   #\n"
                            "##### # #\n"
                            "#   $   #\n"
                            "#   @   #\n"
                            "#########\n",
                            &nf),
              1);
    CHECK_INT(nf, 3);
    /* One box on a goal in that row, free squares on both sides: it can be
     * pushed along the row, so it is not fixed. Push it left onto the far
     * goal, then bring the free box up through the gap and left onto the
     * goal it left: alive. */
    CHECK_INT(fixed_of_text("#########\n"
                            "#. *    #\n"
                            "##### # #\n"
                            "#   $   #\n"
                            "#   @   #\n"
                            "#########\n",
                            &nf),
              0);
    CHECK_INT(nf, 0);
    /* No box on a goal: nothing is fixed. */
    CHECK_INT(fixed_of_text("#####\n#.$@#\n#####\n", &nf), 0);
    CHECK_INT(nf, 0);
}

/* ------------------------------------------- capacity-counted sets */

#include "../../src/deadlock/capsets.h"

/* The sets of a one-level text: how many traps (*traps) and source sets
 * (*sources) the start position breaks; returns 1 when it is dead by
 * them, -1 when the text is no level. */
static int capsets_of_text(const char *text, int *traps, int *sources)
{
    collection c;
    board b;
    position p;
    if (test_text_setup(text, &c, &b, &p) != 0)
        return -1;
    capsets cs;
    int dead = -1;
    *traps = *sources = 0;
    if (capsets_build(&cs, &b) == 0) {
        dead = capsets_count(&cs, &p);
        for (int k = 0; k < cs.nsets; k++) {
            const capset *s = &cs.set[k];
            if (s->trap && cs.count[k] > s->hi)
                (*traps)++;
            if (!s->trap && cs.count[k] < s->lo)
                (*sources)++;
        }
        capsets_free(&cs);
    }
    test_text_free(&c, &b, &p);
    return dead;
}

TEST(capsets_hand_made)
{
    int tr, so;
    /* The seed's goal trap: the top row of the room is a wall between two
     * corners with one goal on it. A box pushed onto that row can only
     * move along it: the row is a sink region, a trap for one box. Two
     * boxes on it: dead. The bottom row is such a trap too (one goal, one
     * box). The regions are the top row, the two middle rows and the
     * bottom row; no box of the top row comes back down, so the middle
     * rows with their goal need a box of their own (source set: the middle
     * rows, none), and the middle and bottom rows with their two goals two
     * (one): two source sets short of a box as well. */
    const char *two = "#######\n"
                      "# $.$ #\n"
                      "#     #\n"
                      "#  .  #\n"
                      "# .$@ #\n"
                      "#######\n";
    CHECK_INT(capsets_of_text(two, &tr, &so), 1);
    CHECK_INT(tr, 1);
    CHECK_INT(so, 2);
    /* One box on that row, two in the room: alive by the sets (and
     * solvable: the row's box slides onto its goal, the others are pushed
     * up onto the room's goals). */
    const char *one = "#######\n"
                      "# $.  #\n"
                      "#     #\n"
                      "#  .$ #\n"
                      "# .$@ #\n"
                      "#######\n";
    CHECK_INT(capsets_of_text(one, &tr, &so), 0);
    CHECK_INT(tr + so, 0);
    /* The open room alone (the row's goal moved down): no trap says
     * anything, and the boxes may go anywhere. */
    const char *open = "#######\n"
                       "#     #\n"
                       "# $.$ #\n"
                       "#  .  #\n"
                       "# .$@ #\n"
                       "#######\n";
    CHECK_INT(capsets_of_text(open, &tr, &so), 0);
}

/* Every square a lone box on s can reach by pushes on the empty board, the
 * player starting anywhere it can stand (states: box square, player
 * square), into out[nsq]. Independent of analysis/distance.c. */
static void lone_reach(const board *b, sq_t s, uint8_t *out, uint8_t *seen, uint32_t *queue)
{
    int n = b->nsq;
    memset(out, 0, (size_t)n);
    memset(seen, 0, (size_t)n * (size_t)n);
    int head = 0, tail = 0;
    for (sq_t q = 0; q < n; q++)
        if (q != s) {
            seen[(size_t)s * n + q] = 1;
            queue[tail++] = (uint32_t)s * (uint32_t)n + q;
        }
    while (head < tail) {
        uint32_t st = queue[head++];
        sq_t box = (sq_t)(st / (uint32_t)n), pl = (sq_t)(st % (uint32_t)n);
        out[box] = 1;
        for (int d = 0; d < 4; d++) {
            sq_t q = b->nb[pl][d];
            if (q == SQ_NONE)
                continue;
            sq_t nbox = box, npl = q;
            if (q == box) {
                sq_t t = b->nb[box][d];
                if (t == SQ_NONE || b->dead[t])
                    continue;
                nbox = t;
            }
            size_t k = (size_t)nbox * n + npl;
            if (!seen[k]) {
                seen[k] = 1;
                queue[tail++] = (uint32_t)k;
            }
        }
    }
}

/* The sets' closure and bounds, checked square by square against
 * lone_reach: a trap holds every square its squares reach and at most its
 * goals; a source set holds every live square that reaches it, and at
 * least its goals. */
static void check_capsets_level(const level *lv, int *sets, int *levels)
{
    board b;
    if (test_level_board(lv, &b) != 0)
        return;
    capsets cs;
    REQUIRE(capsets_build(&cs, &b) == 0);
    int n = b.nsq;
    uint8_t *reachv = xmalloc((size_t)n * (size_t)n), *seen = xmalloc((size_t)n * (size_t)n);
    uint32_t *queue = xmalloc(sizeof(uint32_t) * (size_t)n * (size_t)n);
    uint8_t *in = xmalloc((size_t)n);
    for (sq_t s = 0; s < n; s++)
        if (!b.dead[s])
            lone_reach(&b, s, reachv + (size_t)s * n, seen, queue);
    for (int k = 0; k < cs.nsets; k++) {
        const capset *c = &cs.set[k];
        memset(in, 0, (size_t)n);
        int goals = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            in[cs.sq[c->start + i]] = 1;
            goals += b.is_goal[cs.sq[c->start + i]];
        }
        int ok = c->trap ? c->hi == goals && goals < b.nboxes : c->lo == goals && goals > 0;
        for (sq_t s = 0; s < n && ok; s++)
            for (sq_t t = 0; t < n && ok; t++) {
                if (b.dead[s] || b.dead[t] || !reachv[(size_t)s * n + t])
                    continue;
                if (c->trap && in[s] && !in[t])
                    ok = 0; /* a box leaves the trap */
                if (!c->trap && in[t] && !in[s])
                    ok = 0; /* a box from outside enters the source set */
            }
        CHECK(ok);
        if (!ok)
            printf("  level %s: set %d (%s) fails its closure or bound\n", lv->title ? lv->title : "?",
                   k, c->trap ? "trap" : "source");
        (*sets)++;
    }
    (*levels)++;
    free(reachv), free(seen), free(queue), free(in);
    capsets_free(&cs);
    board_free(&b);
}

TEST(capsets_closed_microban)
{
    const char *path = test_shared_level("microban155.xsb");
    if (!path)
        SKIP("shared levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    int sets = 0, levels = 0;
    for (int k = 0; k < c.nlevels && k < (test_quick() ? 40 : 155); k++)
        check_capsets_level(&c.levels[k], &sets, &levels);
    CHECK(sets > levels);
    printf("  microban155.xsb: %d sets on %d levels, each closed as its kind needs\n", sets, levels);
    collection_free(&c);
}

/* As sample_fixed: positions a few pulls from the solved one (solvable,
 * never to be called dead), then a few random pushes; every "dead" verdict
 * of the sets is checked against breadth-first search. Boxes are also
 * dropped at random on live squares, which breaks the sets far more
 * often. */
static void sample_capsets(const level *lv, int samples, verdict_tally *t, unsigned seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    capsets cs;
    if (capsets_build(&cs, &b) != 0 || cs.nsets == 0) {
        capsets_free(&cs);
        test_level_free(&b, &p);
        return;
    }
    reach r;
    reach_init(&r, b.nsq);
    srand(seed);
    sq_t *sqs = xmalloc(sizeof(sq_t) * (size_t)b.nboxes);
    uint8_t *used = xmalloc((size_t)b.nsq);
    for (int sample = 0; sample < samples; sample++) {
        int pushes;
        if (!near_solved(&p, &r, &pushes))
            break;
        sq_t pl;
        t->positions++;
        if (capsets_count(&cs, &p)) {
            t->dead++;
            t->wrong++;
        } else {
            t->alive_pulled++;
        }
        sq_t last;
        for (int k = 0; k < pushes; k++)
            if (!random_push(&p, &r, &last))
                break;
        if (pushes > 0 && !pos_solved(&p)) {
            t->positions++;
            if (capsets_count(&cs, &p))
                tally_dead(t, &b, &p);
        }
        /* boxes on random live squares, the player on a free one */
        memset(used, 0, (size_t)b.nsq);
        int k = 0;
        for (int tries = 0; tries < 1000 && k < b.nboxes; tries++) {
            sq_t s = (sq_t)(rand() % b.nsq);
            if (!b.dead[s] && !used[s]) {
                used[s] = 1;
                sqs[k++] = s;
            }
        }
        pl = SQ_NONE;
        for (int tries = 0; tries < 100 && pl == SQ_NONE && k == b.nboxes; tries++) {
            sq_t s = (sq_t)(rand() % b.nsq);
            if (!used[s])
                pl = s;
        }
        if (pl == SQ_NONE)
            continue;
        pos_set(&p, sqs, pl);
        if (pos_solved(&p))
            continue;
        t->positions++;
        if (capsets_count(&cs, &p))
            tally_dead(t, &b, &p);
    }
    free(sqs), free(used);
    capsets_free(&cs);
    reach_free(&r);
    test_level_free(&b, &p);
}

static void run_capsets(const char *name, int levels, int samples, int min_dead)
{
    run_sampled(name, levels, samples, min_dead, sample_capsets, 9100,
                "the capacity-counted sets");
}

TEST(capsets_sound_microban)
{
    run_capsets("microban155.xsb", 155, 40, 900);
}

TEST(capsets_sound_boxoban)
{
    run_capsets("boxoban/unfiltered/test/000.txt", 200, 20, 1600);
}

/* ------------------------------------------- learned deadlock patterns */

TEST(stuck_patterns_hand_made)
{
    /* Two boxes on the top wall (3,1) and (4,1), with one goal on that row:
     * neither can leave the row, and only one can end on a goal. The third
     * box (2,3) can be pushed along both axes and is taken off; the
     * pattern keeps the two wall boxes only. */
    const char *text = "#########\n"
                       "#  $$ . #\n"
                       "#       #\n"
                       "# $  @ .#\n"
                       "#  .    #\n"
                       "#########\n";
    collection c;
    board b;
    position p;
    REQUIRE(test_text_setup(text, &c, &b, &p) == 0);
#define SQ(x, y) b.sq_of_cell[(y) * b.width + (x)]
    stuck_table t;
    stuck_init(&t, &b);
    stats st = {0};
    CHECK_INT(stuck_match(&t, &p), 0);
    CHECK_INT(stuck_learn(&t, &p, 0, &st), 1);
    CHECK_INT(t.n, 1);
    CHECK_INT((int)(t.start[1] - t.start[0]), 2);
    CHECK_INT((int)st.stuck_learned, 1);
    CHECK_INT(stuck_match(&t, &p), 1);
    /* the same two boxes, the third elsewhere, the player moved: matched */
    sq_t other[3] = {SQ(3, 1), SQ(4, 1), SQ(7, 2)};
    pos_set(&p, other, SQ(1, 3));
    CHECK_INT(stuck_match(&t, &p), 1);
    /* one of them moved off the wall: not matched, and nothing to learn
     * (every box can be pushed along both axes) */
    sq_t moved[3] = {SQ(3, 1), SQ(4, 2), SQ(2, 3)};
    pos_set(&p, moved, SQ(5, 3));
    CHECK_INT(stuck_match(&t, &p), 0);
    CHECK_INT(stuck_learn(&t, &p, 0, &st), 0);
    CHECK_INT(t.n, 1);
#undef SQ
    stuck_free(&t);
    test_text_free(&c, &b, &p);
}

#include "../../src/deadlock/layer.h"

/* The deadlock layer sets up what its configuration asks for, and its push
 * test cuts a frozen pair with freeze on, not with it off. */
TEST(deadlock_layer_setup_and_push_test)
{
    /* two boxes side by side under the top wall, off the goals: frozen */
    collection c;
    board b;
    position p;
    REQUIRE(test_text_setup("#######\n# $$  #\n#     #\n#  @..#\n#######\n", &c, &b, &p) == 0);
    sq_t to = test_sq(&b, 1, 3);
    REQUIRE(p.box_at[to] != NO_BOX);
    const dl_sizes sz = {LOCAL_LIMIT, LOCAL_MAX_BOXES};

    dl_config on = {.freeze = 1, .corrals = 1, .deadlock_search = 50, .local = 1, .stuck = 1};
    dl_layer d;
    dl_init(&d, &b, &on, &sz);
    CHECK(d.pat.b == NULL);
    CHECK(d.sub.b != NULL);
    CHECK(d.loc.b != NULL && d.loc.xy);
    CHECK(d.stk.b != NULL);
    CHECK_INT(d.cs.nsets, 0);
    stats st;
    memset(&st, 0, sizeof st);
    CHECK_INT(dl_push_dead(&d, &p, test_sq(&b, 2, 3), to, &st), DL_FREEZE);
    CHECK_INT((int)st.cut_freeze, 1);
    dl_free(&d);

    dl_config off = {.freeze = 0, .corrals = 1, .deadlock_search = 0};
    dl_init(&d, &b, &off, &sz);
    CHECK(d.sub.b == NULL && d.loc.b == NULL && d.stk.b == NULL);
    CHECK_INT(dl_push_dead(&d, &p, test_sq(&b, 2, 3), to, &st), DL_ALIVE);
    CHECK_INT((int)st.cut_freeze, 1);
    dl_free(&d);
    test_text_free(&c, &b, &p);

    /* the same boxes apart and off the wall: each can still be pushed down
     * onto a goal's row */
    REQUIRE(test_text_setup("#######\n#     #\n# $ $ #\n#  @..#\n#######\n", &c, &b, &p) == 0);
    dl_init(&d, &b, &on, &sz);
    CHECK_INT(dl_push_dead(&d, &p, test_sq(&b, 2, 3), test_sq(&b, 2, 4), &st), DL_ALIVE);
    CHECK_INT((int)st.cut_freeze, 1);
    dl_free(&d);
    test_text_free(&c, &b, &p);
}

/* The layer counts what its detectors hold and charges it to a budget: all
 * of it or nothing, once, and gives it back. */
TEST(deadlock_layer_charges_its_tables)
{
    collection c;
    board b;
    position p;
    REQUIRE(test_text_setup("#######\n# $$  #\n#     #\n#  @..#\n#######\n", &c, &b, &p) == 0);
    dl_config on = {.freeze = 1, .patterns = 3, .fixed = 1, .capsets = 1, .corrals = 1,
                    .deadlock_search = 50, .local = 1, .stuck = 1};
    dl_layer d;
    dl_init(&d, &b, &on, &(dl_sizes){LOCAL_LIMIT, LOCAL_MAX_BOXES});
    size_t held = dl_held(&d);
    /* every detector set up counts its tables */
    CHECK(d.fz.held > 0 && d.pat.held > 0 && d.fx.held > 0 && d.cc.held > 0);
    CHECK(d.sub.held > 0 && d.loc.held > 0 && d.stk.held > 0);
    CHECK(held >= d.sub.held + d.loc.held + d.stk.held + d.fx.held);

    membudget small, big;
    mem_init(&small, held - 1);
    CHECK_INT(dl_charge(&d, &small), -1);
    CHECK_INT((int)small.used, 0);
    mem_init(&big, 2 * (uint64_t)held);
    CHECK_INT(dl_charge(&d, &big), 0);
    CHECK(big.used == held);
    CHECK_INT(dl_charge(&d, &big), 0); /* nothing grown: nothing more taken */
    CHECK(big.used == held);
    dl_uncharge(&d, &big);
    CHECK_INT((int)big.used, 0);
    dl_free(&d);
    test_text_free(&c, &b, &p);
}
