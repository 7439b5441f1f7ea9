/* level.h: reading and writing level files (XSB, SOK, run-length encoded).
 *
 * A file is a collection: file notes, then levels. Each level has an
 * optional title, a board, notes (free text and "Key: Value" lines) and
 * sections (saved games or solutions as YASC and JSoko write them: an
 * optional title line, moves wrapped over lines, then notes).
 *
 * Titles follow the SOK rule: the last non-blank text line before a board
 * (or a moves section) is its title when it is preceded by a blank line or
 * is the only text line at that place. A "; comment" title has its ';'
 * stripped. A one-word "Key: Value" line is metadata, never a title, except
 * "Title: X" there, which titles the board X (unless it directly follows
 * the previous board: then it is that board's note). A "Title: X" note
 * after the board overrides the title line.
 *
 * Board rows: trailing floor marks are exterior and do not count towards
 * the width; empty rows at the top or bottom of a board are dropped.
 *
 * Validation: exactly one player, at least one box, as many boxes as goals,
 * the player's region closed by walls, at most LEVEL_MAX_WIDTH x
 * LEVEL_MAX_HEIGHT squares and LEVEL_MAX_BOXES boxes. Squares outside the
 * player's region are exterior; a box on a goal there is a wall (the grid
 * holds '#' for it), a lone box or goal there is an error. */
#ifndef KEEPER_LEVEL_H
#define KEEPER_LEVEL_H

#include <stddef.h>
#include <stdint.h>
#include "../util/str.h"

#define LEVEL_MAX_WIDTH 256
#define LEVEL_MAX_HEIGHT 256
#define LEVEL_MAX_BOXES 1024
/* Squares a sub-level's player must reach at the end (level.end_cell1). */
#define LEVEL_END_MAX 4
/* Moves in one section; longer ones are rejected as invalid input. */
#define LEVEL_MAX_MOVES 10000000

typedef struct note_line {
    char *text; /* sanitized: no control characters */
    int line;
} note_line;

typedef struct level_section {
    char *title; /* NULL when untitled */
    int title_line;
    char *moves; /* moves text as written, wrapped lines joined */
    int line;    /* first line of the moves */
    note_line *notes;
    int nnotes, capnotes;
} level_section;

typedef struct level {
    int index;    /* 1-based position in its file */
    int line;     /* line of the first board row */
    char *title;  /* never NULL ("" when the level has none) */
    int title_line;
    int width, height;
    char *grid;      /* height*width cells: one of "# $.*@+" (floor and exterior are ' ') */
    uint8_t *inside; /* per cell: 1 if inside the player's region (floor, box, goal, player) */
    int *row_line;   /* per row: source line (RLE rows may share a line) */
    note_line *notes;
    int nnotes, capnotes;
    level_section *sections;
    int nsections, capsections;
    char *error; /* NULL when valid, else "FILE:LINE: error: ..." */
    int end_cell1[LEVEL_END_MAX]; /* 0, or 1 + cells the player's region must
                                     hold at the end (the zones' sub-levels,
                                     driver/solve.c); never read from a file */
    char *seed; /* NULL, or a solution (LURD, allocated, freed with the
                   collection) that seeds a push-optimal proof: keeper solve
                   --seed sets it; never read from a file */
} level;

typedef struct collection {
    char *name; /* file name used in messages */
    note_line *notes;
    int nnotes, capnotes;
    level *levels;
    int nlevels, caplevels;
    char *error; /* file-level problem (unreadable, no levels), or NULL */
} collection;

/* Reads and parses a file ("-" is standard input). Always fills `c`; a file
 * that cannot be read or holds no level sets c->error. Returns 0 when the
 * file was read and holds at least one level (some may still be invalid). */
int collection_load(collection *c, const char *path);
/* The bytes of a file ("-" is standard input), for collection_parse with
 * the name "<stdin>" for "-": 0 with *data (free it) and *n, or -1 with
 * *error ("FILE: error: ...", free it). */
int collection_read(const char *path, char **data, size_t *n, char **error);
/* Parses `data` (n bytes, need not be NUL-terminated); `name` is used in
 * messages. */
void collection_parse(collection *c, const char *name, const char *data, size_t n);
void collection_free(collection *c);

/* The value of note "Key: Value" (key compared case-insensitively), or NULL. */
const char *level_meta(const level *lv, const char *key);
/* Whether a section title marks a saved game rather than a solution. */
int section_is_saved_game(const level_section *s);

/* Writers. The board is written with ' ' for floor; a row of only exterior
 * is written as "-" so that it does not end the board. Whatever they write
 * reads back with the same grid, size and title (a title that would read
 * back as something else, such as "UR", is written "; UR" or as a
 * "Title:" note). */
void level_write_board(strbuf *out, const level *lv);
/* Title line, blank line, board, notes: readable by keeper, YASC and JSoko. */
void level_write_sok(strbuf *out, const level *lv);
/* "; title", board: the XSB style. */
void level_write_xsb(strbuf *out, const level *lv);

/* Counts of the level's content (valid levels only). */
int level_count(const level *lv, char what); /* what: '$' boxes, '.' goals */

#endif
