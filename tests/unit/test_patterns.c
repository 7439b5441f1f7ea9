/* test_patterns.c: the small-pattern deadlock table (deadlock/patterns.h)
 * against exhaustive search. Positions are sampled by random pushes (none
 * onto a dead square) from the start of small levels; every position the
 * table calls dead must have no solution by breadth-first search (no
 * pruning). Both window sets are checked (3x3, and 4x3 with 3x4). */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/distance.h"
#include "../../src/core/level.h"
#include "../../src/core/reach.h"
#include "../../src/deadlock/freeze.h"
#include "../../src/deadlock/patterns.h"
#include "../../src/search/bfs.h"
#include "../../src/util/timer.h"
#include "../../src/util/u32map.h"

#include <stdlib.h>

typedef struct pat_tally {
    long positions;   /* positions sampled (after a push) */
    long dead[2];     /* called dead by the 3x3 / the large windows */
    long beyond[2];   /* ... of those, not a freeze deadlock */
    long checked;     /* distinct dead verdicts checked by BFS */
    long wrong;       /* ... that BFS solved */
    long unknown;     /* ... BFS hit its limit */
} pat_tally;

/* 1 solvable, 0 not, -1 unknown (limit). */
static int solvable(const board *b, const position *p)
{
    search_limits lim = {0};
    lim.start_ns = timer_now_ns();
    lim.max_nodes = 300000;
    membudget m;
    mem_init(&m, 1ULL << 30);
    long pushes;
    return bfs_solvable(b, p, &lim, &m, &pushes);
}

/* Samples `walks` random walks of up to `len` pushes on lv. */
static void sample_patterns(const level *lv, int walks, int len, pat_tally *t, uint64_t seed)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    reach r;
    reach_init(&r, b.nsq);
    freeze_ctx fz;
    freeze_init(&fz, &b);
    patterns pt[2];
    patterns_init(&pt[0], &b, 0);
    patterns_init(&pt[1], &b, 1);
    u32map seen; /* positions checked already (box hash, low 32 bits) */
    u32map_init(&seen, 64);
    for (int w = 0; w < walks; w++) {
        pos_set(&p, b.start_boxes, b.start_player);
        for (int k = 0; k < len; k++) {
            sq_t to;
            if (!test_random_push_to(&p, &r, &seed, 1, &to))
                break;
            if (pos_solved(&p))
                break;
            t->positions++;
            int dead = 0;
            for (int v = 0; v < 2; v++) {
                int dv = patterns_dead(&pt[v], &p, to);
                /* the slow form agrees (it looks around every box) */
                int ds = patterns_dead_set(&pt[v], p.boxes, b.nboxes);
                if (dv)
                    CHECK(ds);
                if (dv) {
                    t->dead[v]++;
                    t->beyond[v] += !freeze_deadlock(&fz, &p, to);
                }
                dead |= dv | ds;
            }
            if (!dead)
                continue;
            uint64_t h = p.hash ^ b.zplayer[p.player];
            uint32_t key = (uint32_t)(h ^ (h >> 32)) >> 1;
            if (u32map_get(&seen, key) != U32MAP_NONE)
                continue;
            u32map_put(&seen, key, 1);
            t->checked++;
            int s = solvable(&b, &p);
            if (s < 0)
                t->unknown++;
            if (s == 1) {
                t->wrong++;
                if (t->wrong <= 3) {
                    printf("  false verdict, level %d:\n", lv->index);
                    for (int y = 0; y < b.height; y++) {
                        printf("    ");
                        for (int x = 0; x < b.width; x++) {
                            sq_t q = b.sq_of_cell[y * b.width + x];
                            printf("%c", q == SQ_NONE ? '#'
                                         : p.box_at[q] != NO_BOX ? (b.is_goal[q] ? '*' : '$')
                                         : q == p.player ? '@'
                                         : b.is_goal[q] ? '.' : ' ');
                        }
                        printf("\n");
                    }
                }
            }
            break; /* a dead position ends the walk */
        }
    }
    u32map_free(&seen);
    patterns_free(&pt[0]);
    patterns_free(&pt[1]);
    freeze_free(&fz);
    reach_free(&r);
    test_level_free(&b, &p);
}

static void run_patterns(const char *name, int levels, int walks, int len, long min_checked)
{
    const char *path = test_shared_level(name);
    if (!path)
        SKIP("shared levels not found");
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    if (test_quick()) {
        levels /= 4;
        min_checked /= 8;
    }
    pat_tally t = {0};
    for (int k = 0; k < c.nlevels && k < levels; k++)
        if (!c.levels[k].error)
            sample_patterns(&c.levels[k], walks, len, &t, 9000 + (uint64_t)k);
    CHECK_INT(t.wrong, 0);
    CHECK(t.checked >= min_checked);
    CHECK(t.unknown * 10 <= t.checked); /* unsettled verdicts check nothing */
    printf("  %s: %ld positions; called dead: 3x3 %ld (%ld not frozen), 4x3/3x4 %ld (%ld not "
           "frozen); %ld distinct dead verdicts checked by BFS, %ld wrong, %ld unknown (limit)\n",
           name, t.positions, t.dead[0], t.beyond[0], t.dead[1], t.beyond[1], t.checked, t.wrong,
           t.unknown);
    collection_free(&c);
}

TEST(patterns_sound_boxoban)
{
    run_patterns("boxoban/unfiltered/test/000.txt", 200, 40, 30, 1000);
}

TEST(patterns_sound_microban)
{
    run_patterns("microban155.xsb", 90, 150, 30, 1000);
}

/* Whether the table (3x3 or large) calls the position of text dead around
 * the box at (row, col); also checks the verdict against BFS. */
static int dead_of_text(const char *text, int large, int row, int col)
{
    collection c;
    board b;
    position p;
    if (test_text_setup(text, &c, &b, &p) != 0)
        return -1;
    patterns pt;
    patterns_init(&pt, &b, large);
    int dead = patterns_dead(&pt, &p, test_sq(&b, row, col));
    if (dead)
        CHECK_INT(solvable(&b, &p), 0);
    patterns_free(&pt);
    test_text_free(&c, &b, &p);
    return dead;
}

TEST(patterns_hand_made)
{
    /* Column 1 runs along the left wall: its ends (1,1) and (5,1) are
     * corners, hence dead squares. The boxes on (2,1) and (4,1) can move up
     * and down the column only (a push sideways needs the player inside
     * the wall) and never onto the corners, so neither ever leaves the
     * 3x3 window rows 2-4, columns 1-3; the column holds one goal (3,1)
     * for two boxes. Dead, and no freeze: the box on (4,1) can still be
     * pushed up onto the goal. */
    const char *column = "######\n"
                         "#    #\n"
                         "#$ . #\n"
                         "#.   #\n"
                         "#$@  #\n"
                         "#    #\n"
                         "######\n";
    CHECK_INT(dead_of_text(column, 0, 4, 1), 1);
    CHECK_INT(dead_of_text(column, 1, 4, 1), 1);
    {
        collection c;
        board b;
        position p;
        REQUIRE(test_text_setup(column, &c, &b, &p) == 0);
        freeze_ctx fz;
        freeze_init(&fz, &b);
        CHECK_INT(freeze_deadlock(&fz, &p, test_sq(&b, 4, 1)), 0);
        CHECK_INT(freeze_deadlock(&fz, &p, test_sq(&b, 2, 1)), 0);
        freeze_free(&fz);
        test_text_free(&c, &b, &p);
    }
    /* The same column with its second goal on (2,1) under the upper box:
     * pushing the lower box up solves it. Alive. */
    CHECK_INT(dead_of_text("######\n"
                           "#    #\n"
                           "#*   #\n"
                           "#.   #\n"
                           "#$@  #\n"
                           "#    #\n"
                           "######\n",
                           0, 4, 1),
              0);
    /* Two boxes side by side in the open: either can leave any window. */
    CHECK_INT(dead_of_text("#######\n"
                           "#     #\n"
                           "# $$  #\n"
                           "# @ ..#\n"
                           "#     #\n"
                           "#######\n",
                           1, 2, 3),
              0);
    /* A 2x2 block of boxes off goal: frozen, and every window containing
     * it says so too (no box of the block can move). */
    CHECK_INT(dead_of_text("########\n"
                           "#      #\n"
                           "# $$   #\n"
                           "# $$ ..#\n"
                           "#  @ ..#\n"
                           "########\n",
                           0, 2, 2),
              1);
}
