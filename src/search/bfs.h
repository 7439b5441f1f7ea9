/* bfs.h: exhaustive breadth-first search over pushes.
 *
 * Each stored state holds its full box set (a bitset over the inner
 * squares) and the normalized player square, so the search depends on no
 * other module's cleverness: it is the reference that push-optimal A* and
 * every deadlock detector are checked against. It finds a push-optimal
 * solution, or proves there is none. */
#ifndef KEEPER_BFS_H
#define KEEPER_BFS_H

#include "search.h"
#include "../core/position.h"
#include "../core/reach.h"

typedef struct bfs_config {
    int prune_dead; /* skip pushes onto b->dead squares (sound; needs distance_analyze) */
    /* Or NULL. When set, the search ends at the first position for which
     * goal(p, r, goal_arg) returns 1 instead of at a solved one (r: the
     * player's region in p); breadth first, so with the fewest pushes.
     * The position is handed out as its pushes (out->pushes, out->solved
     * set) and is not a solution. (The zones' openings, driver/solve.c.) */
    int (*goal)(const position *p, const reach *r, void *goal_arg);
    void *goal_arg;
} bfs_config;

/* Searches from the level's start position. The memory budget `mem` covers
 * all the search's storage. Fills `out`. */
void bfs_solve(const board *b, const bfs_config *cfg, search_limits *lim, membudget *mem,
               search_outcome *out);

/* Searches from position p (boxes and player as given). For soundness
 * tests: returns 1 if some solution exists, 0 if none, -1 if a limit
 * stopped the search. `pushes_out` (may be NULL) receives the optimal push
 * count. */
int bfs_solvable(const board *b, const position *p, search_limits *lim, membudget *mem,
                 long *pushes_out);

#endif
