/* test_level.c: unit tests for the level file reader and writers
 * (src/core/level.c): XSB, SOK and run-length boards, line ends, titles,
 * notes, solution sections, validation messages, hostile input, and round
 * trips through level_write_xsb / level_write_sok, including every level of
 * the shared collections. */
#include "test.h"
#include "../../src/core/level.h"

#include <stdint.h>
#include <stdlib.h>

/* ------------------------------------------------------------- helpers */

#define NAME "t.sok"

/* Like CHECK_INT, but ends the test when it fails: the checks after it
 * index arrays of that length. */
#define REQUIRE_INT(a, b)                                                 \
    do {                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);               \
        if (a_ != b_) {                                                   \
            test_fail(__FILE__, __LINE__, "%s == %lld, expected %lld (test stopped)", #a, a_, b_); \
            return;                                                       \
        }                                                                 \
    } while (0)


static void parse(collection *c, const char *text)
{
    collection_parse(c, NAME, text, strlen(text));
}

/* Row r of a level's grid as a string (static buffer). */
static const char *row(const level *lv, int r)
{
    static char buf[LEVEL_MAX_WIDTH + 1];
    if (!lv->grid || r < 0 || r >= lv->height)
        return "(no row)";
    memcpy(buf, lv->grid + r * lv->width, (size_t)lv->width);
    buf[lv->width] = '\0';
    return buf;
}

/* Parses text and checks it holds exactly one level with this error
 * message (NULL: valid). */
#define CHECK_ONE_LEVEL(text, want_error)                                 \
    do {                                                                  \
        collection c_;                                                    \
        parse(&c_, (text));                                               \
        CHECK(c_.error == NULL);                                          \
        CHECK_INT(c_.nlevels, 1);                                         \
        if (c_.nlevels == 1) {                                            \
            const char *w_ = (want_error);                                \
            if (w_)                                                       \
                CHECK_STR(c_.levels[0].error, w_);                        \
            else if (c_.levels[0].error)                                  \
                test_fail(__FILE__, __LINE__, "unexpected error: %s", c_.levels[0].error); \
        }                                                                 \
        collection_free(&c_);                                             \
    } while (0)

/* Writes lv with `write`, reparses, and compares grid, size, region and
 * title. Returns 1 when they match; reports the first difference. */
static int roundtrip_ok(const level *lv, void (*write)(strbuf *, const level *),
                        const char *how, const char *file, int line)
{
    strbuf out;
    sb_init(&out);
    write(&out, lv);
    collection c;
    collection_parse(&c, "rt", out.s ? out.s : "", out.len);
    int ok = 0;
    if (c.error || c.nlevels != 1 || c.levels[0].error)
        test_fail(file, line, "level %d (%s) as %s: reparse: %s / %d levels / %s", lv->index,
                  lv->title, how, c.error ? c.error : "-", c.nlevels,
                  c.nlevels > 0 && c.levels[0].error ? c.levels[0].error : "-");
    else if (c.levels[0].width != lv->width || c.levels[0].height != lv->height)
        test_fail(file, line, "level %d (%s) as %s: size %dx%d came back %dx%d", lv->index,
                  lv->title, how, lv->width, lv->height, c.levels[0].width, c.levels[0].height);
    else if (memcmp(c.levels[0].grid, lv->grid, (size_t)(lv->width * lv->height)) != 0)
        test_fail(file, line, "level %d (%s) as %s: grid differs", lv->index, lv->title, how);
    else if (memcmp(c.levels[0].inside, lv->inside, (size_t)(lv->width * lv->height)) != 0)
        test_fail(file, line, "level %d (%s) as %s: region differs", lv->index, lv->title, how);
    else if (strcmp(c.levels[0].title, lv->title) != 0)
        test_fail(file, line, "level %d as %s: title \"%s\" came back \"%s\"", lv->index, how,
                  lv->title, c.levels[0].title);
    else if (level_count(&c.levels[0], '$') != level_count(lv, '$'))
        test_fail(file, line, "level %d as %s: box count differs", lv->index, how);
    else
        ok = 1;
    collection_free(&c);
    sb_free(&out);
    return ok;
}

#define CHECK_ROUNDTRIP(lv)                                                          \
    do {                                                                             \
        roundtrip_ok((lv), level_write_xsb, "XSB", __FILE__, __LINE__);              \
        roundtrip_ok((lv), level_write_sok, "SOK", __FILE__, __LINE__);              \
    } while (0)

static const char *TINY = "#####\n#@$.#\n#####\n";

/* ------------------------------------------------------------- boards */

TEST(level_xsb_single_level)
{
    collection c;
    parse(&c, "; First\n"
              "\n"
              "  ####\n"
              "###  #\n"
              "#.$@ #\n"
              "# *  #\n"
              "######\n");
    CHECK(c.error == NULL);
    REQUIRE_INT(c.nlevels, 1);
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->index, 1);
    CHECK_STR(lv->title, "First");
    CHECK_INT(lv->title_line, 1);
    CHECK_INT(lv->line, 3);
    CHECK_INT(lv->width, 6);
    CHECK_INT(lv->height, 5);
    CHECK_STR(row(lv, 0), "  ####");
    CHECK_STR(row(lv, 1), "###  #");
    CHECK_STR(row(lv, 2), "#.$@ #");
    CHECK_STR(row(lv, 3), "# *  #");
    CHECK_STR(row(lv, 4), "######");
    CHECK_INT(lv->row_line[0], 3);
    CHECK_INT(lv->row_line[4], 7);
    CHECK_INT(level_count(lv, '$'), 2);
    CHECK_INT(level_count(lv, '.'), 2);
    /* The squares left of the first row's walls are exterior, not floor. */
    CHECK_INT(lv->inside[0], 0);
    CHECK_INT(lv->inside[1], 0);
    CHECK_INT(lv->inside[2 * 6 + 3], 1); /* the player */
    CHECK_INT(lv->inside[1 * 6 + 3], 1); /* floor */
    CHECK_INT(lv->inside[1 * 6 + 0], 0); /* a wall */
    collection_free(&c);
}

TEST(level_floor_written_as_dash_or_underscore)
{
    collection c;
    parse(&c, "#######\n#@-$_.#\n#######\n");
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(row(&c.levels[0], 1), "#@ $ .#");
    collection_free(&c);
    /* Leading dashes are exterior indentation like leading spaces. */
    parse(&c, "--####\n--#@ #\n###$ #\n#.   #\n######\n");
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(row(&c.levels[0], 0), "  ####");
    CHECK_INT(c.levels[0].inside[1 * 6 + 1], 0);
    collection_free(&c);
}

TEST(level_sok_letters)
{
    collection c;
    parse(&c, "########\n#p b.B #\n########\n\n#######\n#Pb-- #\n#######\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(row(&c.levels[0], 1), "#@ $.* #");
    CHECK(c.levels[1].error == NULL);
    CHECK_STR(row(&c.levels[1], 1), "#+$   #");
    collection_free(&c);
}

TEST(level_rle_rows)
{
    collection c;
    /* counts, '|' between rows, and a nested group */
    parse(&c, "Packed\n"
              "\n"
              "7#|#.@-#-#|#$*-$-#|#3-$-#|#-..--#|#--*--#|7#\n");
    CHECK(c.error == NULL);
    REQUIRE_INT(c.nlevels, 1);
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_STR(lv->title, "Packed");
    CHECK_INT(lv->width, 7);
    CHECK_INT(lv->height, 7);
    CHECK_STR(row(lv, 0), "#######");
    CHECK_STR(row(lv, 1), "#.@ # #");
    CHECK_STR(row(lv, 2), "#$* $ #");
    CHECK_STR(row(lv, 3), "#   $ #");
    CHECK_STR(row(lv, 6), "#######");
    /* every row of a packed board comes from the same line */
    CHECK_INT(lv->row_line[0], 3);
    CHECK_INT(lv->row_line[6], 3);
    collection_free(&c);

    /* a nested group repeating whole rows */
    parse(&c, "7#|2(#2(-$)-#|)#@4-#|#4.-#|7#\n");
    lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->height, 6);
    CHECK_STR(row(lv, 1), "# $ $ #");
    CHECK_STR(row(lv, 2), "# $ $ #");
    CHECK_STR(row(lv, 3), "#@    #");
    CHECK_STR(row(lv, 4), "#.... #");
    CHECK_INT(level_count(lv, '$'), 4);
    collection_free(&c);
}

TEST(level_rle_rows_spread_over_lines)
{
    collection c;
    parse(&c, "7#\n#@2$2.#\n7#|\n");
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->width, 7);
    CHECK_INT(lv->height, 3);
    CHECK_STR(row(lv, 0), "#######");
    CHECK_STR(row(lv, 1), "#@$$..#");
    CHECK_INT(lv->row_line[2], 3);
    collection_free(&c);
}

TEST(level_rle_row_keeps_its_spaces)
{
    /* Spaces in a run-length row are floor. They used to be skipped as in
     * moves, which moved the squares after them to the left. */
    collection c;
    parse(&c, "  9#\n  #@ 2$ 2.#\n  9#\n");
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(row(&c.levels[0], 1), "  #@ $$ ..#");
    collection_free(&c);
    parse(&c, "7#|#@ $ .#|7#\n");
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(row(&c.levels[0], 1), "#@ $ .#");
    collection_free(&c);
}

TEST(level_rle_empty_rows_at_the_edges_are_dropped)
{
    /* A leading or trailing '|' adds an empty row; it is exterior and not
     * part of the board (the writer could not express it). */
    collection c;
    parse(&c, "|5#|#@$.#|5#|||\n");
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->height, 3);
    CHECK_STR(row(lv, 0), "#####");
    collection_free(&c);
    /* ... but an empty row between two rows is kept. */
    parse(&c, "5#|#@$.#|5#||-3#\n");
    lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->height, 5);
    CHECK_STR(row(lv, 3), "     ");
    CHECK_STR(row(lv, 4), " ### ");
    collection_free(&c);
}

TEST(level_trailing_floor_marks_do_not_widen_the_board)
{
    /* "#####--" is five squares wide: the dashes are exterior. The width
     * used to count them, so the written board (which has none) came back
     * narrower. */
    collection c;
    parse(&c, "#####--\n#@$.#\n#####__\n");
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->width, 5);
    CHECK_ROUNDTRIP(lv);
    collection_free(&c);
}

TEST(level_exterior_rows_inside_a_board)
{
    /* An exterior-only row ("----") continues a board but never starts or
     * ends one. */
    collection c;
    parse(&c, "----\n#####\n#@$.#\n#####\n---\n -\n\n; next\n\n#####\n#@*.#\n#$  #\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_INT(c.levels[0].height, 3);
    CHECK_INT(c.levels[0].line, 2);
    CHECK(c.levels[0].error == NULL);
    collection_free(&c);
    parse(&c, "  ###\n  #.#\n  #$#\n---\n  #@#\n  ###\n");
    REQUIRE_INT(c.nlevels, 1);
    /* the player's region crosses the exterior-only row: it is open there */
    CHECK_STR(c.levels[0].error, NAME ":4: error: board is not closed: the player can walk off "
                                      "the board at column 5");
    collection_free(&c);
}

TEST(level_exterior_box_on_goal_is_a_wall)
{
    collection c;
    parse(&c, "#####  *\n#@$.# **\n#####\n");
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_STR(row(lv, 0), "#####  #");
    CHECK_STR(row(lv, 1), "#@$.# ##");
    CHECK_INT(level_count(lv, '$'), 1);
    collection_free(&c);
    /* A row of nothing but such squares (only a packed board can hold one)
     * used to be written back as "  *", which is not a board row. */
    parse(&c, "5#|#@$.#|5#|2-*\n");
    lv = &c.levels[0];
    CHECK(lv->error == NULL);
    CHECK_INT(lv->height, 4);
    CHECK_STR(row(lv, 3), "  #  ");
    CHECK_ROUNDTRIP(lv);
    collection_free(&c);
}

/* ------------------------------------------------------------- line ends */

TEST(level_crlf_and_cr_line_ends)
{
    const char *lf = "; T\n\n#####\n#@$.#\n#####\nAuthor: A\n";
    const char *crlf = "; T\r\n\r\n#####\r\n#@$.#\r\n#####\r\nAuthor: A\r\n";
    const char *cr = "; T\r\r#####\r#@$.#\r#####\rAuthor: A\r";
    const char *texts[3] = {lf, crlf, cr};
    for (int i = 0; i < 3; i++) {
        collection c;
        parse(&c, texts[i]);
        REQUIRE_INT(c.nlevels, 1);
        const level *lv = &c.levels[0];
        CHECK(lv->error == NULL);
        CHECK_STR(lv->title, "T");
        CHECK_INT(lv->line, 3);
        CHECK_INT(lv->width, 5);
        CHECK_INT(lv->height, 3);
        CHECK_STR(row(lv, 1), "#@$.#");
        CHECK_STR(level_meta(lv, "Author"), "A");
        CHECK_INT(lv->notes[0].line, 6);
        collection_free(&c);
    }
    /* Mixed line ends count one line each; errors give the right line. */
    collection c;
    parse(&c, "a\r\nb\rc\n\r\n#####\r#@@.#\n#####");
    CHECK_STR(c.levels[0].error, NAME ":6: error: more than one player (second at column 3)");
    collection_free(&c);
}

/* ------------------------------------------------------------- titles */

TEST(level_title_is_the_text_line_before_the_board)
{
    collection c;
    parse(&c, "Collection header\n"
              "by someone\n"
              "\n"
              "The First\n"
              "\n"
              "#####\n#@$.#\n#####\n"
              "\n"
              "Second\n"
              "#####\n#@$.#\n#####\n"
              "\n"
              "#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 3);
    CHECK_STR(c.levels[0].title, "The First");
    CHECK_INT(c.levels[0].title_line, 4);
    CHECK_STR(c.levels[1].title, "Second"); /* no blank line after it: still the title */
    CHECK_INT(c.levels[1].title_line, 10);
    CHECK_STR(c.levels[2].title, "");
    /* the header is the file's notes */
    REQUIRE_INT(c.nnotes, 2);
    CHECK_STR(c.notes[0].text, "Collection header");
    CHECK_INT(c.notes[1].line, 2);
    collection_free(&c);
}

TEST(level_title_needs_a_blank_line_before_it)
{
    /* Two text lines right before a board: neither is the title (the text
     * is notes), since the last one is not preceded by a blank line. */
    collection c;
    parse(&c, "Header one\nHeader two\n#####\n#@$.#\n#####\n");
    CHECK_STR(c.levels[0].title, "");
    REQUIRE_INT(c.nnotes, 2);
    collection_free(&c);
    /* After a level: the previous level's note, then the next title. */
    parse(&c, "#####\n#@$.#\n#####\nA note\n\nNext\n\n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[0].title, "");
    REQUIRE_INT(c.levels[0].nnotes, 1);
    CHECK_STR(c.levels[0].notes[0].text, "A note");
    CHECK_STR(c.levels[1].title, "Next");
    collection_free(&c);
    parse(&c, "#####\n#@$.#\n#####\nA note\nNot a title\n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[1].title, "");
    REQUIRE_INT(c.levels[0].nnotes, 2);
    collection_free(&c);
}

TEST(level_title_from_comment_lines)
{
    collection c;
    /* The microban layout: a bare ';' counts as a blank line. */
    parse(&c, "; Collection\n;\n; By me\n;\n; 1\n\n#####\n#@$.#\n#####\n\n;   2  \n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[0].title, "1");
    CHECK_INT(c.levels[0].title_line, 5);
    CHECK_STR(c.levels[1].title, "2");
    REQUIRE_INT(c.nnotes, 2);
    CHECK_STR(c.notes[1].text, "; By me");
    collection_free(&c);
    /* "::" lines are raw comments: never shown, blank for the title rule */
    parse(&c, ":: generated\nFirst\n:: more\n#####\n#@$.#\n#####\n");
    CHECK_STR(c.levels[0].title, "First");
    REQUIRE_INT(c.nnotes, 0);
    collection_free(&c);
}

TEST(level_title_note_after_the_board)
{
    collection c;
    parse(&c, "Line title\n\n#####\n#@$.#\n#####\nAuthor: A\nTitle: From Note\n");
    CHECK_STR(c.levels[0].title, "From Note");
    CHECK_INT(c.levels[0].title_line, 7);
    collection_free(&c);
    parse(&c, "#####\n#@$.#\n#####\ntitle:   lower case  \n");
    CHECK_STR(c.levels[0].title, "lower case");
    collection_free(&c);
    /* Right after a board and right before the next one, "Title:" belongs
     * to the board above (notes follow their board). */
    parse(&c, "#####\n#@$.#\n#####\nTitle: One\n#####\n#@*.#\n#$  #\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[0].title, "One");
    CHECK_STR(c.levels[1].title, "");
    collection_free(&c);
}

TEST(level_title_line_written_as_title_note)
{
    /* "Title: X" in the title's place names the next board X (it used to
     * be titled "Title: X"). */
    collection c;
    parse(&c, "Title: Up Front\n\n#####\n#@$.#\n#####\n\nTitle: Second\n\n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[0].title, "Up Front");
    CHECK_INT(c.levels[0].title_line, 1);
    CHECK_STR(c.levels[1].title, "Second");
    REQUIRE_INT(c.levels[0].nnotes, 0);
    collection_free(&c);
}

TEST(level_key_value_line_is_not_a_title)
{
    /* "Author: X" before a board is metadata; it used to become the title. */
    collection c;
    parse(&c, "Author: Someone\n#####\n#@$.#\n#####\n");
    CHECK_STR(c.levels[0].title, "");
    REQUIRE_INT(c.nnotes, 1);
    CHECK_STR(c.notes[0].text, "Author: Someone");
    collection_free(&c);
    /* right after a board, before the next: a note of the first level */
    parse(&c, "#####\n#@$.#\n#####\nAuthor: Me\n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[1].title, "");
    CHECK_STR(level_meta(&c.levels[0], "author"), "Me");
    collection_free(&c);
    /* A title with a colon after two words is still a title. */
    parse(&c, "Level 3: Easy\n\n#####\n#@$.#\n#####\n");
    CHECK_STR(c.levels[0].title, "Level 3: Easy");
    collection_free(&c);
    parse(&c, "12:30\n#####\n#@$.#\n#####\n");
    CHECK_STR(c.levels[0].title, "12:30");
    collection_free(&c);
}

TEST(level_title_control_characters_are_sanitized)
{
    collection c;
    const char text[] = "; A\x01" "B\tC\n#####\n#@$.#\n#####\n";
    collection_parse(&c, NAME, text, sizeof text - 1);
    CHECK_STR(c.levels[0].title, "A?B C");
    collection_free(&c);
    const char nul[] = "Nul\0here\n#####\n#@$.#\n#####\n";
    collection_parse(&c, NAME, nul, sizeof nul - 1);
    REQUIRE_INT(c.nlevels, 1);
    CHECK_STR(c.levels[0].title, "Nul?here");
    collection_free(&c);
}

/* ------------------------------------------------------------- notes */

TEST(level_metadata_notes)
{
    collection c;
    parse(&c, "T\n\n#####\n#@$.#\n#####\nAuthor: Jane Doe\nComment: nice one\n"
              "e-mail:jane@example.org\nDate Created: 2020-01-01\nfree text line\n; a comment\n");
    const level *lv = &c.levels[0];
    REQUIRE_INT(lv->nnotes, 6);
    CHECK_STR(level_meta(lv, "Author"), "Jane Doe");
    CHECK_STR(level_meta(lv, "AUTHOR"), "Jane Doe");
    CHECK_STR(level_meta(lv, "Comment"), "nice one");
    CHECK_STR(level_meta(lv, "e-mail"), "jane@example.org");
    CHECK_STR(level_meta(lv, "Date Created"), "2020-01-01");
    CHECK(level_meta(lv, "Title") == NULL);
    CHECK(level_meta(lv, "Auth") == NULL);
    CHECK_STR(lv->notes[4].text, "free text line");
    CHECK_STR(lv->notes[5].text, "; a comment");
    CHECK_INT(lv->notes[5].line, 11);
    REQUIRE_INT(lv->nsections, 0);
    collection_free(&c);
}

TEST(level_file_notes_without_levels)
{
    collection c;
    parse(&c, "just text\n\nno board here\n");
    REQUIRE_INT(c.nlevels, 0);
    CHECK_STR(c.error, NAME ":1: error: no level found (no board rows)");
    REQUIRE_INT(c.nnotes, 2);
    collection_free(&c);
    parse(&c, "");
    REQUIRE_INT(c.nlevels, 0);
    CHECK_STR(c.error, NAME ":1: error: no level found (no board rows)");
    collection_free(&c);
}

/* ------------------------------------------------------------- sections */

TEST(level_solution_sections)
{
    collection c;
    parse(&c, "Corner\n"                          /* 1 */
              "\n"                                /* 2 */
              "######\n#@$  #\n#  . #\n######\n"  /* 3-6 */
              "Author: X\n"                       /* 7 */
              "\n"                                /* 8 */
              "Solution/Moves 812/250\n"          /* 9 */
              "rRRdd\n"                           /* 10 */
              "lLu\n"                             /* 11 */
              "Date: 2020\n"                      /* 12 */
              "Solver: someone\n"                 /* 13 */
              "\n"                                /* 14 */
              "Best Solution 230/97 (moves, pushes)\n" /* 15 */
              "3(rR)\n"                           /* 16 */
              "\n"                                /* 17 */
              "Snapshot\n"                        /* 18 */
              "\n"                                /* 19 */
              "r d\n"                             /* 20 */
              "SaveGame\n"                        /* 21 */
              "ul\n"                              /* 22 */
              "\n"                                /* 23 */
              "lurd\n");                          /* 24 */
    REQUIRE_INT(c.nlevels, 1);
    const level *lv = &c.levels[0];
    CHECK(lv->error == NULL);
    REQUIRE_INT(lv->nnotes, 1);
    CHECK_STR(level_meta(lv, "Author"), "X");
    REQUIRE_INT(lv->nsections, 5);
    if (lv->nsections == 5) {
        const level_section *s = lv->sections;
        CHECK_STR(s[0].title, "Solution/Moves 812/250");
        CHECK_INT(s[0].title_line, 9);
        CHECK_INT(s[0].line, 10);
        CHECK_STR(s[0].moves, "rRRddlLu"); /* wrapped lines joined */
        REQUIRE_INT(s[0].nnotes, 2);
        CHECK_STR(s[0].notes[1].text, "Solver: someone");
        CHECK(!section_is_saved_game(&s[0]));
        CHECK_STR(s[1].title, "Best Solution 230/97 (moves, pushes)");
        CHECK_STR(s[1].moves, "3(rR)");
        CHECK(!section_is_saved_game(&s[1]));
        CHECK_STR(s[2].title, "Snapshot");
        CHECK_STR(s[2].moves, "rd");
        CHECK_INT(s[2].line, 20);
        CHECK(section_is_saved_game(&s[2]));
        /* "SaveGame" right after moves, no blank line: still a title */
        CHECK_STR(s[3].title, "SaveGame");
        CHECK_STR(s[3].moves, "ul");
        CHECK(section_is_saved_game(&s[3]));
        CHECK(s[4].title == NULL);
        CHECK_STR(s[4].moves, "lurd");
        CHECK_INT(s[4].line, 24);
        CHECK(!section_is_saved_game(&s[4]));
    }
    collection_free(&c);
}

TEST(level_section_keyword_titles_and_plain_titles)
{
    collection c;
    /* "Solution" directly after a note (no blank line) is still a section
     * title because of its keyword; other text there is a note. */
    parse(&c, "#####\n#@$.#\n#####\nAuthor: Y\nSolution\nr\n\n"
              "#####\n#@$.#\n#####\nAuthor: Z\nMy run\nr\n");
    REQUIRE_INT(c.nlevels, 2);
    REQUIRE_INT(c.levels[0].nsections, 1);
    CHECK_STR(c.levels[0].sections[0].title, "Solution");
    REQUIRE_INT(c.levels[1].nsections, 1);
    CHECK(c.levels[1].sections[0].title == NULL);
    REQUIRE_INT(c.levels[1].nnotes, 2);
    collection_free(&c);
    /* saved-game words anywhere in the title */
    parse(&c, "#####\n#@$.#\n#####\n\nMy Saved Game 3\nr\n\nsnapshot 2\nr\n");
    REQUIRE_INT(c.levels[0].nsections, 2);
    CHECK(section_is_saved_game(&c.levels[0].sections[0]));
    CHECK(section_is_saved_game(&c.levels[0].sections[1]));
    collection_free(&c);
}

TEST(level_moves_before_the_next_title_belong_to_the_level_above)
{
    collection c;
    parse(&c, "One\n\n#####\n#@$.#\n#####\n\nSolution\nr\n\nTwo\n\n#####\n#@$.#\n#####\n");
    REQUIRE_INT(c.nlevels, 2);
    CHECK_STR(c.levels[1].title, "Two");
    REQUIRE_INT(c.levels[0].nsections, 1);
    CHECK_STR(c.levels[0].sections[0].moves, "r");
    REQUIRE_INT(c.levels[1].nsections, 0);
    collection_free(&c);
}

/* ------------------------------------------------------------- validation */

TEST(level_error_no_player)
{
    CHECK_ONE_LEVEL("x\n\n#####\n# $.#\n#####\n", NAME ":3: error: no player in board");
}

TEST(level_error_two_players)
{
    CHECK_ONE_LEVEL("######\n#@$.@#\n######\n",
                    NAME ":2: error: more than one player (second at column 5)");
    CHECK_ONE_LEVEL("######\n#@$. #\n#  +$#\n######\n",
                    NAME ":3: error: more than one player (second at column 4)");
    CHECK_ONE_LEVEL("######\n#p$.P#\n######\n",
                    NAME ":2: error: more than one player (second at column 5)");
}

TEST(level_error_no_boxes)
{
    CHECK_ONE_LEVEL("\n\n#####\n#@  #\n#####\n", NAME ":3: error: no boxes in board");
    CHECK_ONE_LEVEL("#####\n#+  #\n#####\n", NAME ":1: error: no boxes in board");
}

TEST(level_error_unbalanced_boxes_and_goals)
{
    CHECK_ONE_LEVEL("######\n#@$$.#\n######\n", NAME ":1: error: 2 boxes but 1 goal");
    CHECK_ONE_LEVEL("######\n#@$..#\n######\n", NAME ":1: error: 1 box but 2 goals");
    /* '+' is a goal, '*' a box and a goal */
    CHECK_ONE_LEVEL("######\n#+$* #\n######\n", NULL);
    CHECK_ONE_LEVEL("######\n#+$*$#\n######\n", NAME ":1: error: 3 boxes but 2 goals");
}

TEST(level_error_open_board)
{
    CHECK_ONE_LEVEL("#####\n#@$.#\n## ##\n", NAME ":3: error: board is not closed: the "
                                             "player can walk off the board at column 3");
    CHECK_ONE_LEVEL("#####\n @$.#\n#####\n", NAME ":2: error: board is not closed: the "
                                             "player can walk off the board at column 1");
    /* a short row leaves its end open */
    CHECK_ONE_LEVEL("######\n#@$.\n######\n", NAME ":2: error: board is not closed: the "
                                              "player can walk off the board at column 6");
    /* the topmost gap is named, however the fill runs */
    CHECK_ONE_LEVEL("### ###\n#  @ $#\n#.    #\n### ###\n",
                    NAME ":1: error: board is not closed: the player can walk off the board "
                         "at column 4");
    CHECK_ONE_LEVEL("#@$.#\n#####\n", NAME ":1: error: board is not closed: the "
                                      "player can walk off the board at column 2");
}

TEST(level_error_box_or_goal_outside)
{
    CHECK_ONE_LEVEL("#####\n#@$.# $\n#####\n",
                    NAME ":2: error: box at column 7 is outside the player's region");
    CHECK_ONE_LEVEL("#####  #\n#@$.# .#\n#####  #\n",
                    NAME ":2: error: goal at column 7 is outside the player's region");
}

/* A board of w x h squares: walls around, the player top left, `boxes`
 * boxes on goals, the rest floor. */
static char *make_board(int w, int h, int boxes)
{
    strbuf b;
    sb_init(&b);
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            char ch = ' ';
            if (r == 0 || c == 0 || r == h - 1 || c == w - 1)
                ch = '#';
            else if (r == 1 && c == 1)
                ch = '@';
            else if (boxes > 0) {
                ch = '*';
                boxes--;
            }
            sb_putc(&b, ch);
        }
        sb_putc(&b, '\n');
    }
    return sb_take(&b);
}

TEST(level_size_limits)
{
    char *s = make_board(256, 256, 1);
    CHECK_ONE_LEVEL(s, NULL);
    free(s);
    s = make_board(257, 5, 1);
    CHECK_ONE_LEVEL(s, NAME ":1: error: board row is 257 squares wide; the limit is 256");
    free(s);
    s = make_board(5, 257, 1);
    CHECK_ONE_LEVEL(s, NAME ":257: error: board has more than 256 rows");
    free(s);
    s = make_board(40, 40, 1024);
    CHECK_ONE_LEVEL(s, NULL);
    free(s);
    s = make_board(40, 40, 1025);
    CHECK_ONE_LEVEL(s, NAME ":1: error: 1025 boxes; the limit is 1024");
    free(s);
    /* The same limits for a packed board. */
    CHECK_ONE_LEVEL("257#|#@$.#|5#\n", NAME ":1: error: board row is 257 squares wide; the "
                                       "limit is 256");
    CHECK_ONE_LEVEL("257(#|)\n", NAME ":1: error: board has more than 256 rows");
}

TEST(level_rle_errors_name_line_and_column)
{
    CHECK_ONE_LEVEL("T\n\n#####\n#@$.#\n999999999#\n",
                    NAME ":5: error: run-length expansion too long (column 1)");
    CHECK_ONE_LEVEL("#####\n#@$.#\n2(2#\n",
                    NAME ":3: error: unbalanced parentheses: missing ')' (column 5)");
    CHECK_ONE_LEVEL("#####\n#@$.#\n##)###\n",
                    NAME ":3: error: unbalanced parentheses: unexpected ')' (column 3)");
    CHECK_ONE_LEVEL("#####\n#@$.#\n  #0#\n", NAME ":3: error: run-length count of zero (column 4)");
    CHECK_ONE_LEVEL("#####\n#@$.#\n###9999999999#\n",
                    NAME ":3: error: run-length count too large (column 4)");
}

TEST(level_collection_keeps_parsing_after_a_bad_level)
{
    collection c;
    parse(&c, "; 1\n\n#####\n#@$.#\n#####\n"  /* 1-5 */
              "\n; 2\n\n#####\n# $.#\n#####\n" /* 6-11: no player */
              "\n; 3\n\n5#|#@$.#|5(#\n"        /* 12-15: unbalanced */
              "\n; 4\n\n#####\n#@$$#\n#####\n" /* 16-21: unbalanced boxes */
              "\n; 5\n\n#####\n#@*.#\n#$  #\n#####\n");
    CHECK(c.error == NULL);
    REQUIRE_INT(c.nlevels, 5);
    CHECK(c.levels[0].error == NULL);
    CHECK_STR(c.levels[1].error, NAME ":9: error: no player in board");
    CHECK_STR(c.levels[2].error,
              NAME ":15: error: unbalanced parentheses: missing ')' (column 13)");
    CHECK_STR(c.levels[3].error, NAME ":19: error: 2 boxes but 0 goals");
    CHECK(c.levels[4].error == NULL);
    for (int k = 0; k < c.nlevels; k++) {
        char want[16];
        snprintf(want, sizeof want, "%d", k + 1);
        CHECK_STR(c.levels[k].title, want);
    }
    collection_free(&c);
}

TEST(level_load_missing_file)
{
    collection c;
    CHECK_INT(collection_load(&c, "tests/data/does-not-exist.xsb"), -1);
    CHECK_CONTAINS(c.error, "tests/data/does-not-exist.xsb: error: cannot open");
    REQUIRE_INT(c.nlevels, 0);
    collection_free(&c);
}

/* ------------------------------------------------------------- hostile input */

/* Parses n bytes and checks the basic promises: every level has a title,
 * and every error reads "t.sok:LINE: error: ...". */
static void check_survives(const char *data, size_t n, const char *file, int line)
{
    collection c;
    collection_parse(&c, NAME, data, n);
    if (!c.error && c.nlevels == 0)
        test_fail(file, line, "no level and no error");
    if (c.error && strncmp(c.error, NAME ":", strlen(NAME) + 1) != 0)
        test_fail(file, line, "bad file error: %s", c.error);
    for (int k = 0; k < c.nlevels; k++) {
        const level *lv = &c.levels[k];
        if (!lv->title)
            test_fail(file, line, "level %d has no title string", k + 1);
        if (lv->error && (strncmp(lv->error, NAME ":", strlen(NAME) + 1) != 0 ||
                          !strstr(lv->error, ": error: ")))
            test_fail(file, line, "bad level error: %s", lv->error);
        if (!lv->error)
            CHECK_ROUNDTRIP(lv);
    }
    collection_free(&c);
}

TEST(level_hostile_binary_garbage)
{
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    char buf[2048];
    int rounds = test_quick() ? 200 : 2000;
    for (int r = 0; r < rounds; r++) {
        size_t n = (size_t)(r % 2048);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            /* half the rounds use only board and line-end characters */
            buf[i] = (r & 1) ? "#@$.* -|\n(2)"[x % 12] : (char)(x >> 24);
        }
        check_survives(buf, n, __FILE__, __LINE__);
    }
}

TEST(level_hostile_nul_bytes)
{
    const char text[] = "#####\n#@\0.#\n#####\n\0\0\0\n#####\n#@$.#\n###\0##\n";
    collection c;
    collection_parse(&c, NAME, text, sizeof text - 1);
    /* A NUL is not a board character: those lines are text. */
    REQUIRE_INT(c.nlevels, 3);
    check_survives(text, sizeof text - 1, __FILE__, __LINE__);
    collection_free(&c);
}

TEST(level_hostile_long_lines)
{
    size_t n = 200000;
    char *s = malloc(n + 64);
    /* a 200,000-square board row */
    memset(s, '#', n);
    strcpy(s + n, "\n#@$.#\n#####\n");
    CHECK_ONE_LEVEL(s, NAME ":1: error: board row is 200000 squares wide; the limit is 256");
    /* a 200,000-character title */
    memset(s, 'x', n);
    strcpy(s + n, "\n#####\n#@$.#\n#####\n");
    collection c;
    parse(&c, s);
    CHECK_INT((long long)strlen(c.levels[0].title), (long long)n);
    CHECK(c.levels[0].error == NULL);
    CHECK_ROUNDTRIP(&c.levels[0]);
    collection_free(&c);
    /* 200,000 moves */
    strcpy(s, "#####\n#@$.#\n#####\n");
    size_t h = strlen(s);
    memset(s + h, 'r', n);
    s[h + n] = '\0';
    parse(&c, s);
    REQUIRE_INT(c.levels[0].nsections, 1);
    CHECK_INT((long long)strlen(c.levels[0].sections[0].moves), (long long)n);
    collection_free(&c);
    /* 200,000 floors between walls: too wide */
    strcpy(s, "#####\n#@$.#\n#");
    h = strlen(s);
    memset(s + h, '-', n);
    strcpy(s + h + n, "####\n");
    CHECK_ONE_LEVEL(s, NAME ":3: error: board row is 200005 squares wide; the limit is 256");
    /* 200,000 floors after the last wall: exterior, so within limits */
    strcpy(s, "#####\n#@$.#");
    h = strlen(s);
    memset(s + h, '-', n);
    strcpy(s + h + n, "\n#####\n");
    CHECK_ONE_LEVEL(s, NULL);
    free(s);
    check_survives("#\n", 2, __FILE__, __LINE__);
}

TEST(level_hostile_rle_counts)
{
    CHECK_ONE_LEVEL("999999999#\n", NAME ":1: error: run-length expansion too long (column 1)");
    CHECK_ONE_LEVEL("2147483647(2147483647(#))\n",
                    NAME ":1: error: run-length expansion too long (column 12)");
    CHECK_ONE_LEVEL("99999999999999999999#\n",
                    NAME ":1: error: run-length count too large (column 1)");
    CHECK_ONE_LEVEL("#999999999|\n", NAME ":1: error: run-length expansion too long (column 2)");
    /* sixty thousand empty rows before the board: dropped, no error */
    CHECK_ONE_LEVEL("60000|5#|#@$.#|5#\n", NULL);
    /* ... but between two rows they count */
    CHECK_ONE_LEVEL("5#|#@$.#|5#|300|#\n", NAME ":1: error: board has more than 256 rows");
    CHECK_ONE_LEVEL("5#|#@$.#|5#|60000|#\n", NAME ":1: error: board has more than 256 rows");
    CHECK_ONE_LEVEL("((((((((((#))))))))))(\n",
                    NAME ":1: error: unbalanced parentheses: missing ')' (column 23)");
}

TEST(level_hostile_truncated_files)
{
    const char *path = test_shared_level("xsokoban90.xsb");
    size_t n = 0;
    char *data = path ? test_read_file(path, &n) : NULL;
    if (!data)
        data = test_read_file("levels/demo.xsb", &n);
    if (!data)
        SKIP("neither the shared xsokoban90.xsb nor levels/demo.xsb found");
    if (n > 3000)
        n = 3000;
    /* Every prefix of the first levels: cut in a title, a board row, ... */
    for (size_t k = 0; k <= n; k++)
        check_survives(data, k, __FILE__, __LINE__);
    free(data);
}

TEST(level_truncated_board_reports_its_problem)
{
    CHECK_ONE_LEVEL("#####\n#@$.#\n###", NAME ":3: error: board is not closed: the player can "
                                        "walk off the board at column 4");
    CHECK_ONE_LEVEL("#####\n#@$.", NAME ":2: error: board is not closed: the player can "
                                    "walk off the board at column 2");
    CHECK_ONE_LEVEL("#####\n#", NAME ":1: error: no player in board");
}

/* ------------------------------------------------------------- writers */

/* The text a writer produces for the first level of `text`. */
static char *written(const char *text, void (*write)(strbuf *, const level *))
{
    collection c;
    parse(&c, text);
    strbuf b;
    sb_init(&b);
    if (c.nlevels > 0)
        write(&b, &c.levels[0]);
    collection_free(&c);
    return b.s ? sb_take(&b) : strdup("");
}

#define CHECK_WRITES(text, write, want)                                   \
    do {                                                                  \
        char *w_ = written((text), (write));                              \
        CHECK_STR(w_, (want));                                            \
        free(w_);                                                         \
    } while (0)

TEST(level_write_xsb_and_sok_text)
{
    const char *in = "My Level\n\n--####\n###__#\n#.$@-#\n######\nAuthor: A\nComment: c\n";
    CHECK_WRITES(in, level_write_xsb, "; My Level\n\n  ####\n###  #\n#.$@ #\n######\n");
    CHECK_WRITES(in, level_write_sok,
                 "My Level\n\n  ####\n###  #\n#.$@ #\n######\n\nAuthor: A\nComment: c\n");
    /* no title: board only */
    CHECK_WRITES(TINY, level_write_xsb, TINY);
    CHECK_WRITES(TINY, level_write_sok, TINY);
    /* an exterior-only row inside the board is written "-" */
    CHECK_WRITES("5#|#@$.#|5#||3#\n", level_write_xsb, "#####\n#@$.#\n#####\n-\n###\n");
}

TEST(level_write_titles_that_need_the_comment_form)
{
    /* A bare title line that reads as moves ("UR"), a board row ("#1"),
     * metadata ("Author: X") or a comment would not come back as the
     * title: the SOK writer uses "; title" for those (the fuzzer found "r"
     * turning into moves). */
    CHECK_WRITES("; UR\n#####\n#@$.#\n#####\n", level_write_sok, "; UR\n\n#####\n#@$.#\n#####\n");
    CHECK_WRITES("; #1\n#####\n#@$.#\n#####\n", level_write_sok, "; #1\n\n#####\n#@$.#\n#####\n");
    CHECK_WRITES("; Author: X\n#####\n#@$.#\n#####\n", level_write_sok,
                 "; Author: X\n\n#####\n#@$.#\n#####\n");
    CHECK_WRITES(";; semi\n#####\n#@$.#\n#####\n", level_write_sok,
                 "; ; semi\n\n#####\n#@$.#\n#####\n");
    CHECK_WRITES("; ----\n#####\n#@$.#\n#####\n", level_write_sok,
                 "; ----\n\n#####\n#@$.#\n#####\n");
    CHECK_WRITES("; ::x\n#####\n#@$.#\n#####\n", level_write_sok,
                 "; ::x\n\n#####\n#@$.#\n#####\n");
    /* A title of only ';' (from a Title: note) is a blank comment in both
     * forms: it is written as a note. */
    CHECK_WRITES("#####\n#@$.#\n#####\nTitle: ;\n", level_write_xsb,
                 "#####\n#@$.#\n#####\nTitle: ;\n");
    CHECK_WRITES("#####\n#@$.#\n#####\nTitle: ;\n", level_write_sok,
                 "#####\n#@$.#\n#####\n\nTitle: ;\n");
    CHECK_WRITES("Title: ; ;\n#####\n#@$.#\n#####\n", level_write_sok,
                 "#####\n#@$.#\n#####\n\nTitle: ; ;\n");
    const char *tricky[] = {"; UR\n", "; #1\n", "; Author: X\n", ";; semi\n", "; ----\n",
                            "; ::x\n", "Title: ;\n", "Title: ; ;\n", "; Title: X\n",
                            "; 2(lu)\n", "; r\n", "; 1\n", "; lurd 12\n"};
    for (size_t i = 0; i < sizeof tricky / sizeof tricky[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "%s\n#####\n#@$.#\n#####\n", tricky[i]);
        collection c;
        parse(&c, text);
        CHECK(c.levels[0].title[0] != '\0');
        CHECK_ROUNDTRIP(&c.levels[0]);
        collection_free(&c);
    }
}

TEST(level_write_notes_that_look_like_boards_or_moves)
{
    /* A tab makes "#<TAB>#" a text line, but notes are sanitized (tab to
     * space), and "# #" is a board row: written as a comment instead. */
    collection c;
    parse(&c, "T\n\n#####\n#@$.#\n#####\n\n#\t#\nu\tr\nfine\n");
    REQUIRE_INT(c.levels[0].nnotes, 3);
    REQUIRE_INT(c.levels[0].nsections, 0);
    strbuf b;
    sb_init(&b);
    level_write_sok(&b, &c.levels[0]);
    CHECK_STR(b.s, "T\n\n#####\n#@$.#\n#####\n\n; # #\n; u r\nfine\n");
    collection c2;
    collection_parse(&c2, NAME, b.s, b.len);
    REQUIRE_INT(c2.nlevels, 1);
    CHECK_INT(c2.levels[0].nnotes, 3);
    CHECK_INT(c2.levels[0].nsections, 0);
    collection_free(&c2);
    sb_free(&b);
    collection_free(&c);
}

/* ------------------------------------------------------------- round trips */

/* Loads a file, checks level count and that every level is valid, writes
 * every level back as XSB and SOK and reparses it. Returns the collection
 * (caller frees) or leaves c->nlevels 0 when the file is missing. */
static int roundtrip_file(collection *c, const char *path, int want_levels, const char *file,
                          int line)
{
    if (collection_load(c, path) != 0) {
        test_fail(file, line, "%s: %s", path, c->error ? c->error : "cannot load");
        return 0;
    }
    if (want_levels > 0 && c->nlevels != want_levels)
        test_fail(file, line, "%s: %d levels, expected %d", path, c->nlevels, want_levels);
    int bad = 0;
    for (int k = 0; k < c->nlevels; k++) {
        const level *lv = &c->levels[k];
        if (lv->error) {
            if (bad++ < 5)
                test_fail(file, line, "%s", lv->error);
            continue;
        }
        if (!roundtrip_ok(lv, level_write_xsb, "XSB", file, line) ||
            !roundtrip_ok(lv, level_write_sok, "SOK", file, line))
            bad++;
        if (bad > 5)
            break;
    }
    /* The whole collection written level after level reads back with the
     * same levels and titles. */
    strbuf all;
    sb_init(&all);
    for (int k = 0; k < c->nlevels; k++) {
        if (k)
            sb_putc(&all, '\n');
        level_write_xsb(&all, &c->levels[k]);
    }
    collection back;
    collection_parse(&back, "all", all.s ? all.s : "", all.len);
    if (back.nlevels != c->nlevels)
        test_fail(file, line, "%s written whole: %d levels came back, expected %d", path,
                  back.nlevels, c->nlevels);
    else
        for (int k = 0; k < c->nlevels; k++)
            if (strcmp(back.levels[k].title, c->levels[k].title) != 0 ||
                back.levels[k].width != c->levels[k].width ||
                back.levels[k].height != c->levels[k].height) {
                test_fail(file, line, "%s written whole: level %d differs", path, k + 1);
                break;
            }
    collection_free(&back);
    sb_free(&all);
    return 1;
}

/* Round-trips a shared collection and checks a few titles. */
static void shared_collection(const char *name, int nlevels, const char *title1,
                              const char *title_last, const char *file, int line)
{
    const char *path = test_shared_level(name);
    if (!path) {
        test_skip("shared levels not found");
        return;
    }
    collection c;
    if (roundtrip_file(&c, path, nlevels, file, line) && c.nlevels == nlevels) {
        if (strcmp(c.levels[0].title, title1) != 0)
            test_fail(file, line, "%s level 1 title \"%s\", expected \"%s\"", name,
                      c.levels[0].title, title1);
        if (strcmp(c.levels[nlevels - 1].title, title_last) != 0)
            test_fail(file, line, "%s last title \"%s\", expected \"%s\"", name,
                      c.levels[nlevels - 1].title, title_last);
        /* titles of numbered collections are the level numbers */
        if (strcmp(title1, "1") == 0)
            for (int k = 0; k < nlevels; k++)
                if (atoi(c.levels[k].title) != k + 1) {
                    test_fail(file, line, "%s level %d title \"%s\"", name, k + 1,
                              c.levels[k].title);
                    break;
                }
    }
    collection_free(&c);
}

TEST(level_shared_xsokoban90)
{
    shared_collection("xsokoban90.xsb", 90, "1", "90", __FILE__, __LINE__);
    const char *path = test_shared_level("xsokoban90.xsb");
    if (!path)
        SKIP("shared levels not found");
    collection c;
    collection_load(&c, path);
    REQUIRE_INT(c.nlevels, 90);
    /* level 1: 6 boxes, the player at row 9 column 12 */
    const level *lv = &c.levels[0];
    CHECK_INT(level_count(lv, '$'), 6);
    REQUIRE_INT(lv->width, 19);
    REQUIRE_INT(lv->height, 11);
    CHECK(lv->grid[8 * lv->width + 11] == '@');
    CHECK_INT(lv->title_line, 9);
    /* the header is the file's notes */
    REQUIRE_INT(c.nnotes >= 5, 1);
    CHECK_CONTAINS(c.notes[0].text, "XSokoban");
    collection_free(&c);
}

TEST(level_shared_microban)
{
    shared_collection("microban155.xsb", 155, "1", "155 'The Dungeon'", __FILE__, __LINE__);
    shared_collection("microban2_135.xsb", 135, "1", "135 'Fractal'", __FILE__, __LINE__);
    shared_collection("microban3_101.xsb", 101, "1", "101", __FILE__, __LINE__);
    shared_collection("microban4_102.xsb", 102, "1", "102", __FILE__, __LINE__);
    shared_collection("microban5_26.xsb", 26, "1", "26", __FILE__, __LINE__);
    if (test_skipped())
        return;
    collection c;
    collection_load(&c, test_shared_level("microban155.xsb"));
    REQUIRE_INT(c.nnotes >= 2, 1);
    CHECK_STR(c.notes[0].text, "; Microban");
    CHECK_CONTAINS(c.notes[1].text, "Copyright: David W. Skinner");
    collection_free(&c);
}

TEST(level_shared_sokevo107)
{
    shared_collection("sokevo107.xsb", 107, "Claire", "Isabelle", __FILE__, __LINE__);
    if (test_skipped())
        return;
    collection c;
    collection_load(&c, test_shared_level("sokevo107.xsb"));
    REQUIRE_INT(c.nlevels, 107);
    CHECK_STR(c.levels[1].title, "Alice");
    CHECK_STR(c.levels[2].title, "Sophia");
    CHECK_STR(c.levels[3].title, "Jill Leatherby");
    REQUIRE_INT(c.nnotes, 3);
    CHECK_STR(c.notes[1].text, "author:Lee J Haywood");
    collection_free(&c);
}

TEST(level_shared_boxoban)
{
    const char *files[] = {"boxoban/hard/000.txt", "boxoban/hard/001.txt",
                           "boxoban/hard/002.txt", "boxoban/hard/003.txt",
                           "boxoban/medium/valid/000.txt", "boxoban/unfiltered/test/000.txt"};
    int found = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        const char *path = test_shared_level(files[f]);
        if (!path)
            continue;
        found++;
        collection c;
        if (roundtrip_file(&c, path, 0, __FILE__, __LINE__)) {
            CHECK(c.nlevels >= 1);
            for (int k = 0; k < c.nlevels; k++) {
                const level *lv = &c.levels[k];
                char want[16];
                snprintf(want, sizeof want, "%d", k);
                if (strcmp(lv->title, want) != 0 || lv->width != 10 || lv->height != 10 ||
                    level_count(lv, '$') != 4) {
                    test_fail(__FILE__, __LINE__, "%s level %d: title \"%s\", %dx%d, %d boxes",
                              files[f], k + 1, lv->title, lv->width, lv->height,
                              level_count(lv, '$'));
                    break;
                }
            }
        }
        collection_free(&c);
    }
    if (!found)
        SKIP("shared boxoban levels not found");
}

TEST(level_demo_collection_roundtrip)
{
    collection c;
    if (!roundtrip_file(&c, "levels/demo.xsb", 0, __FILE__, __LINE__))
        return;
    CHECK(c.nlevels >= 8);
    if (c.nlevels < 2) {
        collection_free(&c);
        return;
    }
    CHECK_STR(c.levels[0].title, "Warm-up");
    CHECK_STR(c.levels[1].title, "Two Rooms");
    REQUIRE_INT(c.nnotes, 3);
    collection_free(&c);
}

TEST(level_test_data_files)
{
    /* Files written for these tests: every feature in one collection. */
    collection c;
    if (collection_load(&c, "tests/data/features.sok") != 0) {
        test_fail(__FILE__, __LINE__, "tests/data/features.sok: %s", c.error ? c.error : "?");
        collection_free(&c);
        return;
    }
    REQUIRE_INT(c.nlevels, 6);
    if (c.nlevels == 6) {
        CHECK_STR(c.levels[0].title, "Plain XSB");
        CHECK_STR(c.levels[1].title, "SOK letters");
        CHECK_STR(c.levels[2].title, "Packed");
        CHECK_STR(c.levels[3].title, "Renamed");
        CHECK_STR(c.levels[4].title, "Broken");
        CHECK_STR(c.levels[4].error, "tests/data/features.sok:45: error: no player in board");
        CHECK_STR(c.levels[5].title, "Last");
        CHECK_STR(level_meta(&c.levels[1], "Author"), "keeper tests");
        REQUIRE_INT(c.levels[1].nsections, 2);
        CHECK_STR(c.levels[1].sections[0].moves, "lLdrrUru");
        CHECK(section_is_saved_game(&c.levels[1].sections[1]));
        for (int k = 0; k < c.nlevels; k++)
            if (!c.levels[k].error)
                CHECK_ROUNDTRIP(&c.levels[k]);
    }
    collection_free(&c);
    /* The same collection with CRLF line ends gives the same levels. */
    collection d;
    CHECK_INT(collection_load(&d, "tests/data/features.sok"), 0);
    collection e;
    CHECK_INT(collection_load(&e, "tests/data/features-crlf.sok"), 0);
    CHECK_INT(e.nlevels, d.nlevels);
    for (int k = 0; k < d.nlevels && k < e.nlevels; k++) {
        CHECK_STR(e.levels[k].title, d.levels[k].title);
        CHECK_INT(e.levels[k].line, d.levels[k].line);
        if (d.levels[k].grid && e.levels[k].grid)
            CHECK_STR(e.levels[k].grid, d.levels[k].grid);
    }
    collection_free(&d);
    collection_free(&e);
}

TEST(level_tab_indented_board_is_reported)
{
    /* A tab can only appear in a board row's indentation. It used to be
     * reported as "unexpected character '<TAB>'", a raw control character
     * in the message. */
    CHECK_ONE_LEVEL("T\n\n\t#####\n\t#@$.#\n\t#####\n",
                    NAME ":3: error: tab in board row (indent boards with spaces or '-')");
    CHECK_ONE_LEVEL("#####\n #@$.#\n \t#####\n",
                    NAME ":3: error: tab in board row (indent boards with spaces or '-')");
}

TEST(level_indented_section_keyword)
{
    /* Keywords are recognized after indentation too; "Saved game" marks a
     * saved game like "SaveGame". */
    collection c;
    parse(&c, "#####\n#@$.#\n#####\nAuthor: A\n  Saved game 2\nr\nAuthor: B\n   Solution\nr\n");
    REQUIRE_INT(c.nlevels, 1);
    REQUIRE_INT(c.levels[0].nsections, 2);
    CHECK_STR(c.levels[0].sections[0].title, "Saved game 2");
    CHECK(section_is_saved_game(&c.levels[0].sections[0]));
    CHECK_INT(c.levels[0].sections[0].nnotes, 1);
    CHECK_STR(c.levels[0].sections[1].title, "Solution");
    CHECK(!section_is_saved_game(&c.levels[0].sections[1]));
    collection_free(&c);
}
