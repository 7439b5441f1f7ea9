/* test_rooms.c: rooms, links, entrances and the room score.
 *  - small boards drawn here, whose rooms, corridors, links and scores are
 *    worked out by hand in the comments;
 *  - the shared XSokoban levels (and the demo levels): the rooms against a
 *    second construction on grid coordinates, the links and the score of
 *    the start position and of random box placements against a direct
 *    flood from every free part of every room, and the invariants of the
 *    tables (ranges, sorted links, entrances, goal rooms);
 *  - the fast room score against the reference flood (rooms_score_check)
 *    on random box placements of every density, with each way of
 *    flooding a cell (word, rows, squares). */
#include "test.h"
#include "crosscheck.h"
#include "../../src/analysis/rooms.h"
#include "../../src/core/board.h"
#include "../../src/core/level.h"
#include "../../src/core/position.h"

#include <stdlib.h>

/* One level from text, with its board, rooms, scratch and start position. */
typedef struct fixture {
    collection c;
    board b;
    rooms r;
    rooms_work w;
    position p;
} fixture;

static int fx_open(fixture *f, const char *text)
{
    if (test_text_setup(text, &f->c, &f->b, &f->p) != 0)
        return -1;
    if (rooms_build(&f->r, &f->b) != 0) {
        test_text_free(&f->c, &f->b, &f->p);
        return -1;
    }
    rooms_work_init(&f->w, &f->r, &f->b);
    return 0;
}

static void fx_close(fixture *f)
{
    rooms_work_free(&f->w);
    rooms_free(&f->r);
    test_text_free(&f->c, &f->b, &f->p);
}

/* Room score with the boxes on the given (row, col) squares (exactly
 * nboxes of them), the player on the first inner square without a box. */
static int score_with(fixture *f, const int (*rc)[2])
{
    sq_t sq[16];
    for (int i = 0; i < f->b.nboxes; i++)
        sq[i] = test_sq(&f->b, rc[i][0], rc[i][1]);
    sq_t player = 0;
    for (int s = 0; s < f->b.nsq; s++) {
        int boxed = 0;
        for (int i = 0; i < f->b.nboxes; i++)
            boxed |= sq[i] == s;
        if (!boxed) {
            player = (sq_t)s;
            break;
        }
    }
    pos_set(&f->p, sq, player);
    return rooms_score(&f->r, &f->w, &f->p);
}

/* The board drawn with walls '#', room squares as letters a, b, c ...,
 * corridor squares '-' and outside cells ' ', rows ending at their last
 * non-space and joined with '\n'. The caller frees it. */
static char *draw(const fixture *f)
{
    const level *lv = &f->c.levels[0];
    char *out = malloc((size_t)(lv->width + 1) * (size_t)lv->height + 1);
    char *o = out;
    for (int r = 0; r < lv->height; r++) {
        char *row = o;
        int len = 0;
        for (int c = 0; c < lv->width; c++) {
            int k = r * lv->width + c;
            sq_t s = f->b.sq_of_cell[k];
            char ch = lv->grid[k] == '#' ? '#' : ' ';
            if (s != SQ_NONE)
                ch = f->r.room_of[s] >= 0 ? (char)('a' + f->r.room_of[s]) : '-';
            row[c] = ch;
            if (ch != ' ')
                len = c + 1;
        }
        o = row + len;
        *o++ = '\n';
    }
    *o = '\0';
    return out;
}

#define CHECK_DRAWING(f, want)                                            \
    do {                                                                  \
        char *got_ = draw(f);                                             \
        CHECK_STR(got_, want);                                            \
        free(got_);                                                       \
    } while (0)

/* The entrances of room x as "row,col row,col ...". */
static void entrances_text(const fixture *f, int x, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = f->r.ent_first[x]; i < f->r.ent_first[x + 1]; i++) {
        size_t len = strlen(buf);
        sq_t s = f->r.entrances[i];
        snprintf(buf + len, n - len, "%s%d,%d", len ? " " : "", board_row(&f->b, s),
                 board_col(&f->b, s));
    }
}

#define CHECK_ENTRANCES(f, x, want)                                       \
    do {                                                                  \
        char buf_[256];                                                   \
        entrances_text(f, x, buf_, sizeof buf_);                          \
        CHECK_STR(buf_, want);                                            \
    } while (0)

TEST(rooms_two_rooms_and_a_corridor)
{
    /* Two 3x3 rooms; the three squares of row 2 between them are corridor
     * (no 2x2 block covers them: the rows above and below are walls).
     * 2 rooms, 1 link a-b; a holds the goal. Entrances: a (2,4), b (2,6).
     * The start box stands in the corridor: the link is cut, score 1. */
    fixture f;
    REQUIRE(fx_open(&f, "###########\n"
                        "#   ###   #\n"
                        "# . @$    #\n"
                        "#   ###   #\n"
                        "###########\n") == 0);
    CHECK_DRAWING(&f, "###########\n"
                      "#aaa###bbb#\n"
                      "#aaa---bbb#\n"
                      "#aaa###bbb#\n"
                      "###########\n");
    CHECK_INT(f.r.nrooms, 2);
    CHECK_INT(f.r.nfound, 2);
    REQUIRE(f.r.nlinks == 1);
    CHECK_INT(f.r.link[0][0], 0);
    CHECK_INT(f.r.link[0][1], 1);
    CHECK_INT(rooms_link_find(&f.r, 1, 0), 0);
    CHECK_INT(f.r.goal_room[0], 1);
    CHECK_INT(f.r.goal_room[1], 0);
    CHECK_INT(f.r.ngoals[0], 1);
    CHECK_INT(f.r.sq_first[1] - f.r.sq_first[0], 9);
    CHECK_INT(f.r.sq_first[2] - f.r.sq_first[1], 9);
    CHECK_ENTRANCES(&f, 0, "2,4");
    CHECK_ENTRANCES(&f, 1, "2,6");
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 1);
    CHECK_INT(f.w.cut[0], 1);
    /* The box in the middle of room b: nothing is cut. */
    const int mid_b[1][2] = {{2, 8}};
    CHECK_INT(score_with(&f, mid_b), 0);
    CHECK_INT(f.w.cut[0], 0);
    /* The box on room a's square by the doorway (2,3): a stays in one
     * piece but no longer reaches the corridor: cut. */
    const int door_a[1][2] = {{2, 3}};
    CHECK_INT(score_with(&f, door_a), 1);
    fx_close(&f);
}

TEST(rooms_three_in_a_row_and_a_wall_of_boxes)
{
    /* Three 3x3 rooms a, b, c with one-square doors (2,4) and (2,8).
     * Links a-b and b-c; not a-c (a flood from a stops at b's squares). */
    fixture f;
    REQUIRE(fx_open(&f, "#############\n"
                        "#.  #   #  $#\n"
                        "#.  @      $#\n"
                        "#.  #   #  $#\n"
                        "#############\n") == 0);
    CHECK_DRAWING(&f, "#############\n"
                      "#aaa#bbb#ccc#\n"
                      "#aaa-bbb-ccc#\n"
                      "#aaa#bbb#ccc#\n"
                      "#############\n");
    CHECK_INT(f.r.nrooms, 3);
    REQUIRE(f.r.nlinks == 2);
    CHECK(rooms_link_find(&f.r, 0, 1) == 0 && rooms_link_find(&f.r, 1, 2) == 1);
    CHECK_INT(rooms_link_find(&f.r, 0, 2), -1);
    CHECK_ENTRANCES(&f, 1, "2,4 2,8");
    /* Start: the boxes line c's right wall; c stays whole. */
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    /* A wall of boxes down b's middle column splits b into a left part
     * (reaches a only) and a right part (reaches c only). a still reaches
     * b's left part, but b's right part does not reach a: with both sides
     * required, a-b is cut, and b-c likewise: score 2. */
    const int wall[3][2] = {{1, 6}, {2, 6}, {3, 6}};
    CHECK_INT(score_with(&f, wall), 2);
    CHECK(f.w.cut[0] && f.w.cut[1]);
    /* A box in the door a-b (the others in a's corners): only a-b. */
    const int door[3][2] = {{2, 4}, {1, 1}, {3, 1}};
    CHECK_INT(score_with(&f, door), 1);
    CHECK(f.w.cut[0] && !f.w.cut[1]);
    /* A box in the middle of b: b is a ring, whole: nothing cut. */
    const int ring[3][2] = {{2, 6}, {1, 1}, {3, 1}};
    CHECK_INT(score_with(&f, ring), 0);
    fx_close(&f);
}

TEST(rooms_split_room_with_two_doors)
{
    /* Rooms a (left) and b (right), 3x3 each, joined by two doors (1,4)
     * and (3,4): still one link a-b. */
    fixture f;
    REQUIRE(fx_open(&f, "#########\n"
                        "#.  @   #\n"
                        "#.. #$$$#\n"
                        "#.  $   #\n"
                        "#########\n") == 0);
    CHECK_DRAWING(&f, "#########\n"
                      "#aaa-bbb#\n"
                      "#aaa#bbb#\n"
                      "#aaa-bbb#\n"
                      "#########\n");
    CHECK_INT(f.r.nrooms, 2);
    CHECK_INT(f.r.nlinks, 1);
    CHECK_ENTRANCES(&f, 0, "1,4 3,4");
    /* Start: b's middle row boxed splits b into its top row (reaches a
     * through (1,4)) and its bottom row, whose door (3,4) holds a box: cut. */
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 1);
    /* The same split with both doors open: each part of b reaches a
     * through its own door; the link survives. */
    const int split[4][2] = {{2, 5}, {2, 6}, {2, 7}, {1, 1}};
    CHECK_INT(score_with(&f, split), 0);
    fx_close(&f);
}

TEST(rooms_full_room_and_a_walled_in_square)
{
    /* Room a is 2x3 (two blocks), b 3x3; the corridor square (1,4) joins
     * them. At the start every square of a holds a box: a has no free
     * square and keeps no link: score 1. */
    fixture f;
    REQUIRE(fx_open(&f, "#########\n"
                        "#$$$ ...#\n"
                        "#$$$#...#\n"
                        "#####@  #\n"
                        "    #####\n") == 0);
    CHECK_DRAWING(&f, "#########\n"
                      "#aaa-bbb#\n"
                      "#aaa#bbb#\n"
                      "#####bbb#\n"
                      "    #####\n");
    CHECK_INT(f.r.nlinks, 1);
    CHECK_INT(f.r.goal_room[0], 0);
    CHECK_INT(f.r.goal_room[1], 1);
    CHECK_INT(f.r.ngoals[1], 6);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 1);
    /* One free square (2,3), boxed in on every side: a part of a that
     * reaches nothing: cut. */
    const int one[6][2] = {{1, 1}, {1, 2}, {1, 3}, {2, 1}, {2, 2}, {3, 7}};
    CHECK_INT(score_with(&f, one), 1);
    /* The free square (1,3) by the door instead: it reaches b. */
    const int door[6][2] = {{1, 1}, {1, 2}, {2, 3}, {2, 1}, {2, 2}, {3, 7}};
    CHECK_INT(score_with(&f, door), 0);
    /* Two free parts of a, (1,3) and (2,1), walled apart by boxes; only
     * (1,3), by the door, reaches b: cut (b's two boxes on its bottom row
     * leave b whole). */
    const int two[6][2] = {{1, 1}, {1, 2}, {2, 3}, {3, 7}, {2, 2}, {3, 6}};
    CHECK_INT(score_with(&f, two), 1);
    fx_close(&f);
}

TEST(rooms_none_without_two_blocks)
{
    /* A corridor: no 2x2 block at all. */
    fixture f;
    REQUIRE(fx_open(&f, "#######\n"
                        "#@$ . #\n"
                        "#######\n") == 0);
    CHECK_INT(f.r.nrooms, 0);
    CHECK_INT(f.r.nfound, 0);
    CHECK_INT(f.r.nlinks, 0);
    for (int s = 0; s < f.b.nsq; s++)
        CHECK_INT(f.r.room_of[s], -1);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    fx_close(&f);
    /* One lone 2x2 block (top-left (1,1)): it has no neighbour block and
     * is dropped: no room. */
    REQUIRE(fx_open(&f, "######\n"
                        "#  $.#\n"
                        "# @###\n"
                        "######\n") == 0);
    CHECK_DRAWING(&f, "######\n"
                      "#----#\n"
                      "#--###\n"
                      "######\n");
    CHECK_INT(f.r.nrooms, 0);
    CHECK_INT(f.r.sq_first[0], 0);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    fx_close(&f);
}

TEST(rooms_diagonal_touch_square_is_corridor)
{
    /* Blocks (1,1),(1,2) make room a; blocks (2,3),(2,4) make room b. The
     * blocks (1,2) and (2,3) touch diagonally at (2,3) only (no block at
     * (1,3) or (2,2): (1,4) and (3,2) are walls), so (2,3) is corridor,
     * the one entrance of both rooms and their link. */
    fixture f;
    REQUIRE(fx_open(&f, "#######\n"
                        "#@$.###\n"
                        "#     #\n"
                        "###   #\n"
                        "#######\n") == 0);
    CHECK_DRAWING(&f, "#######\n"
                      "#aaa###\n"
                      "#aa-bb#\n"
                      "###bbb#\n"
                      "#######\n");
    CHECK_INT(f.r.nrooms, 2);
    CHECK_INT(f.r.nlinks, 1);
    CHECK_ENTRANCES(&f, 0, "2,3");
    CHECK_ENTRANCES(&f, 1, "2,3");
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    const int touch[1][2] = {{2, 3}};
    CHECK_INT(score_with(&f, touch), 1);
    fx_close(&f);
}

TEST(rooms_next_to_each_other_without_corridor)
{
    /* Room a: blocks (1,4),(1,5),(1,6) (numbered first: its first block
     * comes first in row-major order); room b: blocks (2,1),(2,2). No
     * block joins them ((1,3) and (3,4) are walls), yet (2,4) of a and
     * (2,3) of b are neighbours: a link with no corridor square at all.
     * A box on (2,4) cuts it (a's rest is whole but has no other way). */
    fixture f;
    REQUIRE(fx_open(&f, "##########\n"
                        "####@   ##\n"
                        "#  .    ##\n"
                        "#  $######\n"
                        "##########\n") == 0);
    CHECK_DRAWING(&f, "##########\n"
                      "####aaaa##\n"
                      "#bbbaaaa##\n"
                      "#bbb######\n"
                      "##########\n");
    CHECK_INT(f.r.nlinks, 1);
    CHECK_ENTRANCES(&f, 0, "2,3");
    CHECK_ENTRANCES(&f, 1, "2,4");
    CHECK_INT(f.r.goal_room[0], 0);
    CHECK_INT(f.r.goal_room[1], 1);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    const int edge[1][2] = {{2, 4}};
    CHECK_INT(score_with(&f, edge), 1);
    fx_close(&f);
}

/* A level of bands x per_band rooms of 2x3 squares, walled apart: each
 * room's first row has a door (a corridor square in the wall) to the room
 * on its right, and the rooms of the first column have a door down to the
 * next band. The player, the box and the goal are in the first room. */
static char *grid_of_rooms(int bands, int per_band)
{
    int W = per_band * 4 + 1, H = bands * 3 + 1;
    char *t = malloc((size_t)(W + 1) * (size_t)H + 1), *o = t;
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++) {
            int rr = r % 3, cc = c % 4;
            char ch = '#';
            if (r == H - 1 || c == W - 1)
                ch = '#';
            else if (rr != 0 && cc != 0)
                ch = ' ';
            else if (rr == 1 && cc == 0 && c > 0)
                ch = ' '; /* door to the right */
            else if (rr == 0 && r > 0 && c == 1)
                ch = ' '; /* door down, first column */
            if (r == 1 && c >= 1 && c <= 3)
                ch = "@$."[c - 1];
            *o++ = ch;
        }
        *o++ = '\n';
    }
    *o = '\0';
    return t;
}

TEST(rooms_limit_of_seventy)
{
    /* 7 bands of 10 rooms: 70 rooms, the most that is kept. Links: 9 per
     * band between neighbours, and 6 down the first column: 69. */
    fixture f;
    char *text = grid_of_rooms(7, 10);
    REQUIRE(fx_open(&f, text) == 0);
    free(text);
    CHECK_INT(f.r.nfound, 70);
    CHECK_INT(f.r.nrooms, 70);
    CHECK_INT(f.r.nlinks, 69);
    CHECK(rooms_link_find(&f.r, 68, 69) >= 0); /* the last pair (second mask word) */
    CHECK(rooms_link_find(&f.r, 0, 10) >= 0);  /* down the first column */
    CHECK_INT(rooms_link_find(&f.r, 9, 10), -1);
    CHECK_INT(f.r.room_of[test_sq(&f.b, 19, 37)], 69);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    /* The box in the door between the last two rooms (row 19, col 36). */
    const int door[1][2] = {{19, 36}};
    CHECK_INT(score_with(&f, door), 1);
    CHECK_INT(f.w.cut[rooms_link_find(&f.r, 68, 69)], 1);
    fx_close(&f);
    /* 8 bands of 9: 72 rooms, more than ROOMS_MAX: the feature is off. */
    text = grid_of_rooms(8, 9);
    REQUIRE(fx_open(&f, text) == 0);
    free(text);
    CHECK_INT(f.r.nfound, 72);
    CHECK_INT(f.r.nrooms, 0);
    CHECK_INT(f.r.nlinks, 0);
    for (int s = 0; s < f.b.nsq; s++)
        CHECK_INT(f.r.room_of[s], -1);
    CHECK_INT(rooms_score(&f.r, &f.w, &f.p), 0);
    fx_close(&f);
}

/* ---- the shared levels against direct constructions ---- */

/* Rooms from the grid: blocks by (row, col), kept blocks, groups by
 * repeated relaxation of the smallest cell index, rooms numbered by their
 * smallest block, squares covered by blocks of one group. Writes room_of
 * (-1 corridor) and returns the number of groups. */
static int grid_rooms(const board *b, int16_t *room_of)
{
    int W = b->width, H = b->height, nc = W * H;
    int *blk = calloc((size_t)nc, sizeof *blk);
    int *lab = malloc(sizeof *lab * (size_t)nc);
#define INNER(r, c) ((r) >= 0 && (r) < H && (c) >= 0 && (c) < W && b->sq_of_cell[(r) * W + (c)] != SQ_NONE)
#define BLOCK(r, c) (INNER(r, c) && INNER(r, (c) + 1) && INNER((r) + 1, c) && INNER((r) + 1, (c) + 1))
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            blk[r * W + c] = BLOCK(r, c) && (BLOCK(r - 1, c) || BLOCK(r + 1, c) ||
                                             BLOCK(r, c - 1) || BLOCK(r, c + 1));
    for (int k = 0; k < nc; k++)
        lab[k] = blk[k] ? k : -1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < nc; k++) {
            if (!blk[k])
                continue;
            int r = k / W, c = k % W;
            const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
            for (int d = 0; d < 4; d++) {
                int rr = r + dr[d], cc = c + dc[d];
                if (rr < 0 || rr >= H || cc < 0 || cc >= W || !blk[rr * W + cc])
                    continue;
                if (lab[rr * W + cc] < lab[k]) {
                    lab[k] = lab[rr * W + cc];
                    changed = 1;
                }
            }
        }
    }
    /* number the groups by their smallest cell (row-major) */
    int ngroups = 0;
    for (int k = 0; k < nc; k++)
        if (blk[k] && lab[k] == k)
            ngroups++;
    for (int s = 0; s < b->nsq; s++)
        room_of[s] = -1;
    if (ngroups <= ROOMS_MAX) {
        for (int s = 0; s < b->nsq; s++) {
            int r = board_row(b, s), c = board_col(b, s), g = -1, clash = 0;
            for (int dr = -1; dr <= 0; dr++)
                for (int dc = -1; dc <= 0; dc++) {
                    int rr = r + dr, cc = c + dc;
                    if (rr < 0 || cc < 0 || !blk[rr * W + cc])
                        continue;
                    int id = lab[rr * W + cc];
                    if (g >= 0 && g != id)
                        clash = 1;
                    g = id;
                }
            if (g < 0 || clash)
                continue;
            int rank = 0;
            for (int k = 0; k < g; k++)
                rank += blk[k] && lab[k] == k;
            room_of[s] = (int16_t)rank;
        }
    }
#undef BLOCK
#undef INNER
    free(blk);
    free(lab);
    return ngroups;
}

/* keep[x * nr + y]: room x keeps its link to y with boxes on box_at, by a
 * flood from each free part of x on its own. */
static void direct_keep(const rooms *rm, const board *b, const uint16_t *box_at, uint8_t *keep)
{
    int n = b->nsq, nr = rm->nrooms;
    int *part = malloc(sizeof *part * (size_t)n);
    uint8_t *seen = malloc((size_t)n);
    uint8_t *touch = malloc((size_t)nr);
    sq_t *stack = malloc(sizeof *stack * (size_t)n * 4 + 1);
#define FREE_SQ(t) ((t) != SQ_NONE && box_at[t] == NO_BOX)
    for (int x = 0; x < nr; x++) {
        int nparts = 0;
        for (int y = 0; y < nr; y++)
            keep[x * nr + y] = 1;
        for (int s = 0; s < n; s++)
            part[s] = -1;
        for (int s0 = 0; s0 < n; s0++) {
            if (rm->room_of[s0] != x || !FREE_SQ(s0) || part[s0] >= 0)
                continue;
            /* the part: x's free squares connected to s0 inside x */
            int sp = 0;
            part[s0] = nparts;
            stack[sp++] = (sq_t)s0;
            while (sp) {
                sq_t q = stack[--sp];
                for (int d = 0; d < 4; d++) {
                    sq_t t = b->nb[q][d];
                    if (FREE_SQ(t) && rm->room_of[t] == x && part[t] < 0) {
                        part[t] = nparts;
                        stack[sp++] = t;
                    }
                }
            }
            /* the flood from the part through x and the corridor */
            memset(seen, 0, (size_t)n);
            memset(touch, 0, (size_t)nr);
            for (int s = 0; s < n; s++)
                if (part[s] == nparts) {
                    seen[s] = 1;
                    stack[sp++] = (sq_t)s;
                }
            while (sp) {
                sq_t q = stack[--sp];
                for (int d = 0; d < 4; d++) {
                    sq_t t = b->nb[q][d];
                    if (!FREE_SQ(t) || seen[t])
                        continue;
                    int y = rm->room_of[t];
                    if (y >= 0 && y != x) {
                        touch[y] = 1;
                        continue;
                    }
                    seen[t] = 1;
                    stack[sp++] = t;
                }
            }
            for (int y = 0; y < nr; y++)
                keep[x * nr + y] &= touch[y];
            nparts++;
        }
        if (nparts == 0)
            for (int y = 0; y < nr; y++)
                keep[x * nr + y] = 0;
        keep[x * nr + x] = 0;
    }
#undef FREE_SQ
    free(part);
    free(seen);
    free(touch);
    free(stack);
}

/* The score of the position by direct_keep, and the cut flag of each link. */
static int direct_score(const rooms *rm, const board *b, const uint16_t *box_at, uint8_t *cut)
{
    int nr = rm->nrooms;
    uint8_t *keep = malloc((size_t)nr * (size_t)nr + 1);
    direct_keep(rm, b, box_at, keep);
    int score = 0;
    for (int k = 0; k < rm->nlinks; k++) {
        int a = rm->link[k][0], c = rm->link[k][1];
        cut[k] = !(keep[a * nr + c] && keep[c * nr + a]);
        score += cut[k];
    }
    free(keep);
    return score;
}

/* sq[0..n-1] := the squares 0..n-1, the first k of them a random draw
 * (a partial Fisher-Yates shuffle on *seed). */
static void shuffle_squares(sq_t *sq, int n, int k, unsigned *seed)
{
    for (int s = 0; s < n; s++)
        sq[s] = (sq_t)s;
    for (int j = 0; j < k && j < n; j++) {
        *seed = *seed * 1103515245u + 12345u;
        int pick = j + (int)((*seed >> 8) % (unsigned)(n - j));
        sq_t t = sq[j];
        sq[j] = sq[pick];
        sq[pick] = t;
    }
}

static void check_level(const level *lv, int samples, unsigned *seed, int *nlinks_seen)
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    rooms r;
    REQUIRE(rooms_build(&r, &b) == 0);
    int n = b.nsq, nr = r.nrooms;
    /* rooms against the grid construction */
    int16_t *want = malloc(sizeof *want * (size_t)n);
    int ngroups = grid_rooms(&b, want);
    CHECK_INT(r.nfound, ngroups);
    CHECK_INT(nr, ngroups > ROOMS_MAX ? 0 : ngroups);
    for (int s = 0; s < n; s++) {
        CHECK(r.room_of[s] >= -1 && r.room_of[s] < nr);
        if (r.room_of[s] != want[s])
            test_fail(__FILE__, __LINE__, "level %d square (%d,%d): room %d, grid says %d",
                      lv->index, board_row(&b, s), board_col(&b, s), r.room_of[s], want[s]);
    }
    free(want);
    /* squares, goals, entrances */
    for (int x = 0; x < nr; x++) {
        int cnt = 0, goals = 0;
        for (int s = 0; s < n; s++)
            if (r.room_of[s] == x) {
                cnt++;
                goals += b.is_goal[s];
            }
        CHECK_INT(r.sq_first[x + 1] - r.sq_first[x], cnt);
        CHECK(cnt >= 2); /* two blocks share two squares, which no other room covers */
        CHECK_INT(r.ngoals[x], goals);
        CHECK_INT(r.goal_room[x], goals > 0);
        for (int i = r.sq_first[x]; i < r.sq_first[x + 1]; i++)
            CHECK_INT(r.room_of[r.squares[i]], x);
        int nent = 0;
        for (int t = 0; t < n; t++) {
            int next_to = 0;
            for (int d = 0; d < 4; d++)
                next_to |= b.nb[t][d] != SQ_NONE && r.room_of[b.nb[t][d]] == x;
            if (next_to && r.room_of[t] != x) {
                int at = r.ent_first[x] + nent;
                CHECK(at < r.ent_first[x + 1] && r.entrances[at] == t);
                nent++;
            }
        }
        CHECK_INT(r.ent_first[x + 1] - r.ent_first[x], nent);
    }
    /* links: sorted pairs, found, and the direct flood on the empty board */
    CHECK(r.nlinks >= 0 && r.nlinks <= nr * (nr - 1) / 2);
    for (int k = 0; k < r.nlinks; k++) {
        CHECK(r.link[k][0] < r.link[k][1] && r.link[k][1] < nr);
        if (k > 0)
            CHECK(r.link[k - 1][0] < r.link[k][0] ||
                  (r.link[k - 1][0] == r.link[k][0] && r.link[k - 1][1] < r.link[k][1]));
        CHECK_INT(rooms_link_find(&r, r.link[k][1], r.link[k][0]), k);
    }
    uint16_t *empty = malloc(sizeof *empty * (size_t)n);
    for (int s = 0; s < n; s++)
        empty[s] = NO_BOX;
    if (nr > 0) {
        uint8_t *keep = malloc((size_t)nr * (size_t)nr);
        direct_keep(&r, &b, empty, keep);
        int links = 0;
        for (int x = 0; x < nr; x++)
            for (int y = 0; y < nr; y++) {
                CHECK_INT(keep[x * nr + y], keep[y * nr + x]); /* both sides agree */
                if (x < y && keep[x * nr + y]) {
                    CHECK(rooms_link_find(&r, x, y) >= 0);
                    links++;
                }
            }
        CHECK_INT(links, r.nlinks);
        free(keep);
    }
    *nlinks_seen += r.nlinks;
    /* scores: no boxes, the start, random placements */
    rooms_work w;
    rooms_work_init(&w, &r, &b);
    uint8_t *cut = malloc((size_t)r.nlinks + 1);
    /* no boxes: rooms_score reads the board's squares and box count,
       box_at and boxes only (see check_fast) */
    board b0 = b;
    b0.nboxes = 0;
    position p0;
    memset(&p0, 0, sizeof p0);
    p0.b = &b0;
    p0.box_at = empty;
    CHECK_INT(rooms_score(&r, &w, &p0), 0);
    sq_t *sq = malloc(sizeof *sq * (size_t)n);
    for (int i = 0; i <= samples; i++) {
        if (i > 0) { /* nboxes distinct random squares */
            shuffle_squares(sq, n, b.nboxes, seed);
            pos_set(&p, sq, sq[b.nboxes < n ? b.nboxes : 0]);
        }
        int got = rooms_score(&r, &w, &p);
        CHECK(got >= 0 && got <= r.nlinks);
        if (nr == 0) {
            CHECK_INT(got, 0);
            continue;
        }
        int ref = direct_score(&r, &b, p.box_at, cut);
        if (got != ref)
            test_fail(__FILE__, __LINE__, "level %d sample %d: score %d, direct flood says %d",
                      lv->index, i, got, ref);
        for (int k = 0; k < r.nlinks; k++)
            CHECK_INT(w.cut[k], cut[k]);
    }
    free(sq);
    free(cut);
    free(empty);
    rooms_work_free(&w);
    rooms_free(&r);
    test_level_free(&b, &p);
}

/* Runs fn(level, samples, ctx) on every level of the file at `path`
 * (nothing when path is NULL). */
typedef void level_fn(const level *lv, int samples, void *ctx);
static void on_levels(const char *path, int samples, level_fn *fn, void *ctx)
{
    if (!path)
        return;
    collection c;
    REQUIRE(collection_load(&c, path) == 0);
    for (int k = 0; k < c.nlevels; k++)
        fn(&c.levels[k], samples, ctx);
    collection_free(&c);
}

typedef struct seeded {
    unsigned seed;
    int links;      /* check_level: links seen */
    long shown[2];  /* check_moves: claims checked */
} seeded;

static void run_check_level(const level *lv, int samples, void *ctx)
{
    seeded *sd = ctx;
    check_level(lv, samples, &sd->seed, &sd->links);
}

TEST(rooms_match_direct_construction_on_levels)
{
    seeded sd = {.seed = 2024};
    on_levels("levels/demo.xsb", 30, run_check_level, &sd);
    CHECK(sd.links > 0);
    const char *path = test_shared_level("xsokoban90.xsb");
    on_levels(path, test_quick() ? 3 : 25, run_check_level, &sd);
    if (!path)
        SKIP("xsokoban90.xsb not found (demo levels checked)");
}

/* rooms_move_keeps and rooms_all_cut against rooms_score: on random
 * placements of each level's boxes (and its start), random moves of one
 * box to a free square; every claim either makes (the score kept from
 * before the move, or every link cut) must agree with a count afresh.
 * Adds the claims checked to shown[0] (kept) and shown[1] (all cut). */
static void check_moves(const level *lv, int samples, unsigned *seed, long shown[2])
{
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    rooms r;
    REQUIRE(rooms_build(&r, &b) == 0);
    rooms_work w;
    rooms_work_init(&w, &r, &b);
    int n = b.nsq;
    sq_t *sq = malloc(sizeof *sq * (size_t)n), *moved = malloc(sizeof *sq * (size_t)n);
    for (int i = 0; i <= samples && r.nlinks > 0 && b.nboxes + 2 <= n; i++) {
        if (i == 0) { /* the start: its boxes first, a free square next */
            int k = 0;
            for (int j = 0; j < b.nboxes; j++)
                sq[k++] = b.start_boxes[j];
            for (int s = 0; s < n; s++)
                if (p.box_at[s] == NO_BOX)
                    sq[k++] = (sq_t)s;
        } else {
            shuffle_squares(sq, n, n, seed);
        }
        pos_set(&p, sq, sq[b.nboxes]);
        int before = rooms_score(&r, &w, &p);
        rooms_witness(&r, &w, &b, &p);
        for (int m = 0; m < 40; m++) {
            *seed = *seed * 1103515245u + 12345u;
            int j = (int)((*seed >> 8) % (unsigned)b.nboxes);
            *seed = *seed * 1103515245u + 12345u;
            int t = b.nboxes + 1 + (int)((*seed >> 8) % (unsigned)(n - b.nboxes - 1));
            memcpy(moved, sq, sizeof *sq * (size_t)n);
            sq_t from = sq[j], to = sq[t];
            moved[j] = to;
            moved[t] = from;
            position q;
            pos_init(&q, &b);
            pos_set(&q, moved, sq[b.nboxes]);
            int after = rooms_score(&r, &w, &q);
            if (rooms_all_cut(&r, &w, &b, from, to)) {
                shown[1]++;
                if (after != r.nlinks)
                    test_fail(__FILE__, __LINE__, "level %d: every link cut said, %d of %d counted",
                              lv->index, after, r.nlinks);
            }
            if (rooms_move_keeps(&r, &b, &q, from, to)) {
                shown[0]++;
                if (after != before)
                    test_fail(__FILE__, __LINE__, "level %d: score %d kept said, %d counted",
                              lv->index, before, after);
            }
            pos_free(&q);
        }
    }
    free(sq);
    free(moved);
    rooms_work_free(&w);
    rooms_free(&r);
    test_level_free(&b, &p);
}

static void run_check_moves(const level *lv, int samples, void *ctx)
{
    seeded *sd = ctx;
    check_moves(lv, samples, &sd->seed, sd->shown);
}

TEST(rooms_scores_kept_after_a_move_match_a_count)
{
    seeded sd = {.seed = 77};
    on_levels("levels/demo.xsb", 20, run_check_moves, &sd);
    const char *path = test_shared_level("xsokoban90.xsb");
    on_levels(path, test_quick() ? 3 : 15, run_check_moves, &sd);
    fprintf(stderr, "  rooms after a move: %ld kept, %ld all cut\n", sd.shown[0], sd.shown[1]);
    /* the test means something only if both claims are made often */
    CHECK(sd.shown[0] >= 200 && sd.shown[1] >= 200);
    if (!path)
        SKIP("xsokoban90.xsb not found (demo levels checked)");
}

/* The fast room score against the reference flood on `samples` random
 * placements of any number of boxes on f's board: each placement boxes
 * every square with one probability, drawn per placement (from none to
 * nearly all squares). The position is made by hand: rooms_score reads
 * the board's squares and box count, box_at and boxes only, so a copy of
 * the board with another box count stands for it. */
static void check_fast(const board *b, const rooms *r, rooms_work *w, int samples, unsigned *seed,
                       const char *what)
{
    int n = b->nsq;
    board bk = *b;
    uint16_t *box_at = malloc(sizeof *box_at * (size_t)n);
    sq_t *boxes = malloc(sizeof *boxes * (size_t)n);
    position q;
    memset(&q, 0, sizeof q);
    q.b = &bk;
    q.box_at = box_at;
    q.boxes = boxes;
    for (int i = 0; i < samples; i++) {
        *seed = *seed * 1103515245u + 12345u;
        unsigned pct = (*seed >> 8) % 95;
        int k = 0;
        for (int s = 0; s < n; s++) {
            *seed = *seed * 1103515245u + 12345u;
            box_at[s] = NO_BOX;
            if ((*seed >> 8) % 100 < pct) {
                box_at[s] = (uint16_t)k;
                boxes[k++] = (sq_t)s;
            }
        }
        bk.nboxes = k;
        if (!rooms_score_check(r, w, &q)) {
            test_fail(__FILE__, __LINE__, "%s, placement %d (%d boxes): the room score differs from the reference's",
                      what, i, k);
            break;
        }
    }
    free(box_at);
    free(boxes);
}

/* check_fast on board b with each way of flooding: the default one of
 * each cell (counted in seen[]), rows for all (when the board has them),
 * squares for all. */
static void check_fast_ways(const board *b, int samples, unsigned *seed, long seen[3], const char *what)
{
    rooms r;
    REQUIRE(rooms_build(&r, b) == 0);
    rooms_work w;
    rooms_work_init(&w, &r, b);
    if (r.nrooms > 0) {
        uint8_t *dflt = malloc((size_t)w.ncells);
        memcpy(dflt, w.flood, (size_t)w.ncells);
        for (int k = 0; k < w.ncells; k++)
            seen[dflt[k]]++;
        check_fast(b, &r, &w, samples, seed, what);
        if (w.rows) {
            memset(w.flood, ROOMS_FLOOD_ROWS, (size_t)w.ncells);
            check_fast(b, &r, &w, samples, seed, what);
        }
        memset(w.flood, ROOMS_FLOOD_SQUARES, (size_t)w.ncells);
        check_fast(b, &r, &w, samples, seed, what);
        memcpy(w.flood, dflt, (size_t)w.ncells);
        free(dflt);
    }
    rooms_work_free(&w);
    rooms_free(&r);
}

typedef struct fast_ctx {
    unsigned seed;
    long seen[3]; /* cells flooded by default as word, rows, squares */
} fast_ctx;

static void run_check_fast(const level *lv, int samples, void *ctx)
{
    fast_ctx *fc = ctx;
    board b;
    position p;
    if (test_level_setup(lv, &b, &p) != 0)
        return;
    char what[64];
    snprintf(what, sizeof what, "level %d", lv->index);
    check_fast_ways(&b, samples, &fc->seed, fc->seen, what);
    test_level_free(&b, &p);
}

TEST(rooms_fast_score_matches_reference)
{
    fast_ctx fc = {.seed = 4242};
    /* Two 8x9 rooms (too big for one word: flooded by rows) joined at
     * one corridor square, and a third room below, at the end of a
     * corridor that turns. */
    static const char big[] = "####################\n"
                              "#        #         #\n"
                              "#        #         #\n"
                              "#    $   #    .    #\n"
                              "#        #         #\n"
                              "#        #         #\n"
                              "#    @             #\n"
                              "#        #         #\n"
                              "#        #         #\n"
                              "#        #         #\n"
                              "####### ############\n"
                              "      # #\n"
                              "      # ########\n"
                              "      #        #\n"
                              "      ####### ##\n"
                              "          ##   #\n"
                              "          #    #\n"
                              "          #    #\n"
                              "          ######\n";
    /* 72 columns (over 64: no rows): a 31x3 room in the middle (too big
     * for a word: flooded square by square), small rooms at both ends,
     * joined to it by long corridors. */
    char wide[6 * 73 + 1];
    char *o = wide;
    for (int row = 0; row < 5; row++) {
        for (int col = 0; col < 72; col++) {
            int room = col >= 1 && col <= 3 ? 1 : col >= 30 && col <= 60 ? 1 : col >= 68 && col <= 70;
            char ch = row == 0 || row == 4 || col == 0 || col == 71 ? '#' : (row == 2 || room) ? ' ' : '#';
            if (row == 2 && col == 2)
                ch = '@';
            if (row == 2 && col == 20)
                ch = '$';
            if (row == 2 && col == 69)
                ch = '.';
            *o++ = ch;
        }
        *o++ = '\n';
    }
    *o = '\0';
    const char *drawn[2] = {big, wide};
    int samples = test_quick() ? 60 : 400;
    for (int i = 0; i < 2; i++) {
        collection c;
        board b;
        position p;
        REQUIRE(test_text_setup(drawn[i], &c, &b, &p) == 0);
        check_fast_ways(&b, samples, &fc.seed, fc.seen, i == 0 ? "the big rooms" : "the wide board");
        test_text_free(&c, &b, &p);
    }
    on_levels("levels/demo.xsb", samples / 4, run_check_fast, &fc);
    on_levels("levels/demo-hard.xsb", samples / 4, run_check_fast, &fc);
    const char *path = test_shared_level("xsokoban90.xsb");
    on_levels(path, test_quick() ? 10 : 40, run_check_fast, &fc);
    fprintf(stderr, "  cells flooded by default: %ld as a word, %ld by rows, %ld by squares\n",
            fc.seen[ROOMS_FLOOD_WORD], fc.seen[ROOMS_FLOOD_ROWS], fc.seen[ROOMS_FLOOD_SQUARES]);
    /* each way of flooding was the default somewhere */
    CHECK(fc.seen[ROOMS_FLOOD_WORD] > 0 && fc.seen[ROOMS_FLOOD_ROWS] > 0 && fc.seen[ROOMS_FLOOD_SQUARES] > 0);
    if (!path)
        SKIP("xsokoban90.xsb not found (the drawn boards and the demo levels checked)");
}
