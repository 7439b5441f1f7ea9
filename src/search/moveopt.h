/* moveopt.h: move-optimal search (--optimal moves): the fewest moves, and
 * among solutions with that many moves the fewest pushes.
 *
 * A* over push states: a state is the box set and the player's exact
 * square (after a push, the square the box left), stored whole
 * (states.h). A push costs the player's shortest walk to the square behind
 * the box, on the board as it stands, plus one; so a path's cost is
 * exactly the moves of the solution that makes each walk shortest, and
 * every solution's moves are at least its path's cost. Costs are compared
 * as (moves, pushes), lexicographically.
 *
 * The bound is (h, h) with h the minimum-matching push bound
 * (heuristic/lowerbound.h; 0 with bound = 0): every push is a move, so a
 * solution from the state has at least h moves and at least h pushes;
 * admissible for the lexicographic order, which is all A* needs for the
 * first solution it takes from the open list to be optimal. The bound is
 * not always consistent, so a closed state reached more cheaply is opened
 * again. Pruning keeps optimality: a push onto a dead square, into a
 * freeze deadlock or a fixed-box matching deadlock, or to a position no
 * perfect matching of boxes to goals exists for, has no solution at all
 * behind it (each detector's header gives its argument).
 *
 * The state store is the memory: every state costs its bitset and about
 * 30 bytes, charged to the budget; a level too big for it stops with
 * STOP_MEMORY. For small levels (Microban, Boxoban). */
#ifndef KEEPER_MOVEOPT_H
#define KEEPER_MOVEOPT_H

#include "search.h"

typedef struct moveopt_config {
    int prune_dead; /* skip pushes onto b->dead squares */
    int freeze;     /* prune freeze deadlocks (deadlock/freeze.h) */
    int fixed;      /* prune the matching deadlock with fixed boxes as walls */
    int bound;      /* 1 = the matching bound, 0 = none (uniform cost) */
} moveopt_config;

/* Searches from the level's start. `b` must have been analysed
 * (distance_analyze). Fills `out`: the pushes of a move-optimal solution
 * (out->optimal set), whose walks the caller rebuilds shortest; the moves
 * are in out->st.best_lower_bound once solved (the proven optimum), else
 * the greatest f taken from the open list (a lower bound on the moves). */
void moveopt_solve(const board *b, const moveopt_config *cfg, search_limits *lim, membudget *mem,
                   search_outcome *out);

#endif
