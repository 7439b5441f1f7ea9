/* pathbuild.h: from a push sequence to full player moves. Searches count
 * pushes only; the player's walks between pushes are rebuilt here as
 * shortest walks on the board as it stands before each push. */
#ifndef KEEPER_PATHBUILD_H
#define KEEPER_PATHBUILD_H

#include "search.h"
#include "../core/solution.h"

/* Appends to `out` the moves that play `ps` from the level's start. The
 * push counts in `ps` are not trusted: straight steps are measured and
 * other macros replayed by the fewest-push path of their box.
 * Returns 0, or -1 when a push cannot be played (a search bug: the caller
 * reports it and prints no solution). */
int path_build(const board *b, const push_seq *ps, movelist *out);

#endif
