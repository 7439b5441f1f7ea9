/* solread.h: the solutions "keeper verify" and "keeper optimize" read.
 *
 * Solutions come from the sections stored in FILE (as YASC and JSoko save
 * them), or from a separate SOLUTIONS file: a SOK/XSB file (each of its
 * levels is matched to FILE's level with the same board, else the same
 * title, else the same position), a CSV file with a header naming the
 * columns level and lurd (and optionally moves and pushes, which are then
 * checked), or plain text with one LURD line per level, in order (an empty
 * line skips a level; lines starting with ';' are comments), or keeper's
 * JSON lines (solve --format jsonl: each object's index and solution). */
#ifndef KEEPER_SOLREAD_H
#define KEEPER_SOLREAD_H

#include "cli.h"
#include "../core/solution.h"

typedef struct vitem {
    const level *lv;     /* level of FILE the moves are checked against */
    char *src;           /* file the moves come from */
    int line;            /* line of the moves in src (0 if unknown) */
    int section;         /* 1-based section number within the level */
    char *title;         /* section title or NULL */
    char *moves;         /* moves text */
    int saved_game;      /* title says saved game */
    long claim_moves, claim_pushes; /* from CSV, -1 when not claimed */
} vitem;

typedef struct vlist {
    vitem *v;
    int n, cap;
} vlist;

/* Adds the solution sections of level `from` as solutions of `target`. */
void sol_add_sections(vlist *l, const level *target, const level *from, const char *src);
/* Reads the solutions of SOLUTIONS into l. A LURD-lines file stands for the
 * levels of c in order; with a selection (--levels LIST) and a line count
 * different from c's level count, it stands for the selected levels (as
 * "keeper solve --levels LIST --format lurd" writes them).
 * Returns 0, or EXIT_BAD_INPUT on unreadable or malformed input (after
 * reading what it could). */
int sol_read(vlist *l, const collection *c, const level_sel *sel, const char *file);
/* For each level of c (index k: c->levels[k]) that `sel` selects and that
 * is valid, the best valid solution among `items` in the metric order
 * (OPT_MOVES or OPT_PUSHES): best[k] receives its LURD (replayed: the case
 * of each letter recomputed, allocated) and m[k] its metrics; best[k] stays
 * NULL when none is valid. An item that does not solve its level (saved
 * games excepted) is reported on stderr as "FILE:LINE: error: ..." and
 * counted. Returns the count of such items. */
int sol_best(const vlist *items, const collection *c, const level_sel *sel, int metric,
             char **best, sol_metrics *m);
/* Frees the items and the list. */
void sol_list_free(vlist *l);

#endif
