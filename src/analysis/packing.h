/* packing.h: a packing order for the goals (seed 000: YASS's packing-order
 * calculation; Rolling Stone's goal macros).
 *
 * The order is found backwards from the solved position: with a box on
 * every goal, take out the box that can be pulled away from its goal to a
 * square where some box starts, the other goal boxes standing still; it is
 * the goal to fill last. Remove it and repeat. Goals are tried nearest to
 * the way out first, so the outermost goals are filled last and the
 * deepest first. When no remaining box can be taken out the order is
 * abandoned (the level keeps no packing order). Levels whose goals are
 * mostly apart (fewer than half next to another goal) get no order: there
 * the order in which goals fill hardly matters.
 *
 * The order is a plan, not knowledge: the fast search uses it to propose
 * macro moves (a box brought all the way to the next goal of the order),
 * never to prune, so it cannot make a solvable level unsolvable. */
#ifndef KEEPER_PACKING_H
#define KEEPER_PACKING_H

#include "../core/board.h"

typedef struct packing {
    int n;        /* goals in the order (0 = no order) */
    sq_t *order;  /* [nboxes] goals, first to fill first */
    uint8_t *room; /* [nboxes] room of order[i]: goals that touch are one room */
    int nrooms;
} packing;

/* Computes the order for board b (after distance_analyze). Stops early,
 * leaving no order, when the deadline (monotonic ns, 0 = none) passes. */
void packing_compute(packing *pk, const board *b, int64_t deadline_ns);
void packing_free(packing *pk);

#endif
