/* distance.h: push distances of a lone box to each goal, and the dead
 * squares they imply (seed 001: dead squares via one-box mazes).
 *
 * The distances come from a pull search backwards from each goal over
 * states (box square, player side). The player's side is the component of
 * the board minus the box square that the player stands in; components are
 * found for all squares at once from one depth-first search (articulation
 * points), so the search knows when a box in a corridor cuts the player off
 * from the square behind it. A square from which no goal can be reached is
 * dead: a box there can never be solved, whatever the other boxes do. */
#ifndef KEEPER_DISTANCE_H
#define KEEPER_DISTANCE_H

#include "../core/board.h"

/* Fills b->goal_dist, b->near_dist, b->dead and b->ndead. Returns 0, or -1
 * when memory for the tables cannot be had. */
int distance_analyze(board *b);

/* comp[s*4+d]: for the neighbour of s in direction d, the smallest direction
 * d' whose neighbour lies in the same component of the board minus s;
 * 0xFF where there is no neighbour. Exposed for tests and other analyses;
 * the caller frees the result. */
uint8_t *distance_side_components(const board *b);

#endif
