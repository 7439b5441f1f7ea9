/* html.h: a self-contained HTML page that plays solutions on the board
 * ("keeper show FILE [SOLUTIONS] --html OUT", "keeper solve ... --html OUT").
 *
 * The page holds everything inline (CSS, script, the levels and their
 * solutions as data; the board is drawn on a canvas): it needs no network
 * and no other file. It shows a level list when there are several levels,
 * the board, play/pause, step back and forward, start and end, a speed
 * setting and the moves/pushes counters, with keyboard shortcuts. It
 * replays each solution itself when it loads and shows an error for one
 * that does not solve its level (the writer's caller has replayed it
 * already, so that must not happen). A level without a solution is shown
 * as its board with a note.
 *
 * For tests and links, the address's fragment selects what is shown:
 * "#level=N&step=S" (N the level's number in its file, S a move count or
 * "end"). The element #status carries the state as attributes:
 * data-level, data-step, data-moves, data-pushes (at the current step),
 * data-total-moves, data-total-pushes, data-solved ("1" when every box is
 * on a goal at the current step) and data-valid ("1" the solution solves
 * the level, "0" it does not, "none" no solution). */
#ifndef KEEPER_HTML_H
#define KEEPER_HTML_H

#include "../core/level.h"
#include "../util/str.h"

typedef struct html_level {
    const level *lv;    /* a valid level */
    const char *lurd;   /* its solution as plain LURD, replayed (upper case
                           exactly for the pushes), or NULL */
} html_level;

/* Appends the page for levels[0..n) to out; `title` names the collection. */
void html_page(strbuf *out, const char *title, const html_level *levels, int n);

/* Writes the page to the file `path` and says so on stderr ("keeper: wrote
 * PATH: N levels, M with a solution, B bytes"; nothing with `quiet`).
 * Returns 0, or -1 with "PATH: error: cannot write: ..." on stderr. */
int html_write_file(const char *path, const char *title, const html_level *levels, int n,
                    int quiet);

#endif
