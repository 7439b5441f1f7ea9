/* test_hotspot.c: boxes in the way of other boxes (heuristic/hotspot.h),
 * on hand-made boards worked out in the comments. */
#include "test.h"
#include "crosscheck.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"
#include "../../src/heuristic/hotspot.h"

/* A hand-made level with its board, hotspot table and start position. */
typedef struct fixture {
    collection c;
    board b;
    hotspot h;
    position p;
} fixture;

static int setup(fixture *x, const char *text)
{
    if (test_text_setup(text, &x->c, &x->b, &x->p) != 0)
        return -1;
    hotspot_init(&x->h, &x->b, 0);
    return 0;
}

static void teardown(fixture *x)
{
    hotspot_free(&x->h);
    test_text_free(&x->c, &x->b, &x->p);
}

TEST(hotspot_corridor)
{
    /* A one-wide corridor, boxes in columns 3 and 5, goals in 6 and 7:
     *
     *   #########
     *   #@ $ $..#
     *   #########
     *
     * A box is pushed rightwards only. A wall on column 5 keeps the box of
     * column 3 from both goals: box 5 is in the way of box 3. A wall on
     * column 3 leaves the box of column 5 its push (the player stands on
     * column 4): box 3 is not in the way of box 5. With the box of column
     * 3 pushed to column 4, each is in the way of the other: a wall on 4
     * takes the square the player needs to push the box of column 5. So
     * the start has 1 hotspot, box 3 on column 4 makes 2, box 5 on its
     * goal (column 6) makes 0 (box 3 alone off goal). */
    fixture x;
    REQUIRE(setup(&x, "#########\n#@ $ $..#\n#########\n") == 0);
    const board *b = &x.b;
    hotspot *h = &x.h;
    position *p = &x.p;
    REQUIRE(h->in_way != NULL);
    CHECK(hotspot_in_way(h, test_sq(b, 1, 5), test_sq(b, 1, 3)));
    CHECK(!hotspot_in_way(h, test_sq(b, 1, 3), test_sq(b, 1, 5)));
    CHECK(hotspot_in_way(h, test_sq(b, 1, 4), test_sq(b, 1, 5)));
    CHECK(hotspot_in_way(h, test_sq(b, 1, 5), test_sq(b, 1, 4)));
    CHECK(!hotspot_in_way(h, test_sq(b, 1, 3), test_sq(b, 1, 3)));
    CHECK_INT(hotspot_count(h, p), 1);
    CHECK_INT(hotspot_count_moved(h, p, test_sq(b, 1, 3), test_sq(b, 1, 4)), 2);
    CHECK_INT(hotspot_count_moved(h, p, test_sq(b, 1, 5), test_sq(b, 1, 6)), 0);
    /* the position itself is unchanged by the moved counts */
    CHECK_INT(hotspot_count(h, p), 1);
    sq_t moved[2] = {test_sq(b, 1, 4), test_sq(b, 1, 5)};
    pos_set(p, moved, test_sq(b, 1, 1));
    CHECK_INT(hotspot_count(h, p), 2);
    teardown(&x);
}

TEST(hotspot_room)
{
    /* An open room:
     *
     *   #######
     *   #.   .#
     *   #  $  #
     *   # $@  #
     *   #     #
     *   #######
     *
     * The start's boxes keep both goals whatever square the other walls
     * off: the box on (3,2) goes up column 2 to row 1 and left, or right
     * along row 3 and up column 5; the box on (2,3) goes up and along row
     * 1 either way. So no hotspots. Along the left wall it is different: a
     * box on (3,1) can only be pushed up (the player below it), so a box
     * on (2,1) takes its only way to a goal, and a box on (2,2) does not
     * (the way up column 1 stays open). */
    fixture x;
    REQUIRE(setup(&x, "#######\n#.   .#\n#  $  #\n# $@  #\n#     #\n#######\n") == 0);
    const board *b = &x.b;
    hotspot *h = &x.h;
    position *p = &x.p;
    REQUIRE(h->in_way != NULL);
    CHECK_INT(hotspot_count(h, p), 0);
    CHECK(!hotspot_in_way(h, test_sq(b, 2, 3), test_sq(b, 3, 2)));
    CHECK(!hotspot_in_way(h, test_sq(b, 3, 2), test_sq(b, 2, 3)));
    CHECK(hotspot_in_way(h, test_sq(b, 2, 1), test_sq(b, 3, 1)));
    CHECK(!hotspot_in_way(h, test_sq(b, 2, 2), test_sq(b, 3, 1)));
    /* boxes on (2,1) and (3,1): each is a hotspot, the upper one on the
     * lower one's only way, the lower one on the square the player needs
     * to push the upper one up (its only push: the wall is on its left) */
    sq_t two[2] = {test_sq(b, 2, 1), test_sq(b, 3, 1)};
    pos_set(p, two, test_sq(b, 3, 3));
    CHECK_INT(hotspot_count(h, p), 2);
    CHECK(hotspot_in_way(h, test_sq(b, 3, 1), test_sq(b, 2, 1)));
    teardown(&x);
}
