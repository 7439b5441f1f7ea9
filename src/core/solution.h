/* solution.h: moves in LURD notation, replay and metrics.
 *
 * Every solution keeper prints has gone through solution_replay: the moves
 * are played from the level's start, each step checked, the case of each
 * letter recomputed (lower = move, upper = push) and the metrics counted.
 *
 * Metrics (YASC's secondary metrics; definitions as keeper counts them):
 *   moves             player steps, pushes included
 *   pushes            steps that push a box
 *   box lines         pushes that start a new straight box movement: the
 *                     first push, and every push whose box or direction
 *                     differs from the previous push's (player moves in
 *                     between do not end a line)
 *   box changes       pushes whose box differs from the previous push's
 *                     box (the first push counts as one)
 *   pushing sessions  runs of consecutive pushes (a non-pushing move ends
 *                     a session)
 *   player lines      runs of consecutive steps in one direction, pushes
 *                     included */
#ifndef KEEPER_SOLUTION_H
#define KEEPER_SOLUTION_H

#include <stddef.h>
#include "board.h"
#include "../util/str.h"

/* A move: bits 0-1 direction (DIR_*), bit 2 set when it pushes. */
#define MOVE_PUSH 4

typedef struct moves {
    uint8_t *m;
    int n, cap;
} movelist;

void moves_init(movelist *mv);
void moves_free(movelist *mv);
void moves_add(movelist *mv, int dir, int push);
/* Makes dst (initialized) a copy of src. */
void moves_copy(movelist *dst, const movelist *src);

typedef struct sol_metrics {
    long moves, pushes, box_lines, box_changes, pushing_sessions, player_lines;
} sol_metrics;

/* Decodes LURD text (any case, run-length encoded or not, whitespace
 * ignored). The push flags are taken from the letter case and are only a
 * hint: solution_replay recomputes them. Returns 0, or -1 with a message. */
int lurd_decode(const char *text, movelist *out, char *err, size_t errlen);
/* Appends the moves as LURD (upper case = push). */
void lurd_encode(strbuf *out, const movelist *mv);

typedef struct replay_result {
    int legal;      /* every step was a legal move */
    int solved;     /* all boxes on goals after the last step */
    long fail_step; /* 1-based step that failed, 0 when legal */
    char reason[160];
    sol_metrics m;  /* of the legal prefix */
} replay_result;

/* Plays `mv` from the start of board b. Rewrites the push flags of `mv` to
 * what the replay found. Fills r. Returns 1 if the moves solve the level. */
int solution_replay(const board *b, movelist *mv, replay_result *r);

#endif
