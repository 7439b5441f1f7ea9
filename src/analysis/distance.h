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

/* Fills b->goal_dist, b->near_dist, b->dead and b->ndead, and the player's
 * side rows of the squares that cut the floor (b->side_*: board.h), from
 * the same pull searches. Returns 0, or -1 when memory for the tables
 * cannot be had. */
int distance_analyze(board *b);

/* comp[s*4+d]: for the neighbour of s in direction d, the smallest direction
 * d' whose neighbour lies in the same component of the board minus s;
 * 0xFF where there is no neighbour. Exposed for tests and other analyses;
 * the caller frees the result. */
uint8_t *distance_side_components(const board *b);

/* The pull search from goal gs: sd[s*4+c] (4 * nsq entries) receives the
 * pushes a lone box on s, the player in side component c of s, needs to
 * reach gs (DIST_INF: never); queue is scratch of 4 * nsq. comp comes from
 * distance_side_components of the same board. */
void distance_pull(const board *b, const uint8_t *comp, sq_t gs, uint16_t *sd, int32_t *queue);

/* The same search forwards, for the backward search: a lone box starts on
 * s with the player in side component c0 of s (every side when c0 < 0);
 * sd[t*4+c] (4 * nsq entries) receives the fewest pushes that bring it to
 * t with the player in side component c of t (DIST_INF: never; the start
 * state itself gets 0). queue is scratch of 4 * nsq. */
void distance_push(const board *b, const uint8_t *comp, sq_t s, int c0, uint16_t *sd,
                   int32_t *queue);

#endif
