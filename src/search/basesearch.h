/* basesearch.h: the base search, which makes a packing plan with parking
 * (analysis/plan.h; the packing-order analysis of FESS-style solvers, seed
 * 000's packing order, seed 001's goal traps).
 *
 * The search runs backwards from the solved position: every goal holds a
 * box and the player stands in one of the zones the goals leave free.
 * Moves are pull macro moves (a box pulled along a path, the player
 * walking freely between pulls). The squares where boxes start are the
 * bases. A pull that brings a box onto a base eliminates both, box and
 * base, when the base lies far from where the box came from (six or more
 * squares of walking from the goal it left) and every remaining box can
 * still be pushed from some remaining base (a bipartite matching on the
 * empty board): the box is then taken as the one that starts there, and
 * what it would block is ignored. When a position has an eliminating pull,
 * only eliminating pulls are kept, one per box. Boxes done: those
 * eliminated, and all once every remaining box stands on a base. The
 * search takes positions in one of two orders:
 *  - PLAN_BY_DONE: one queue per count of boxes done, each ordered by
 *    fewest free-floor regions, then fewest pulls; the highest count is
 *    served on odd turns and the counts in turn on even ones, so a greedy
 *    line stuck on a plateau does not starve the others.
 *  - PLAN_BY_CELLS: a feature-space search backwards. A position's score
 *    is, first difference wins: fewer boxes left, fewer free-floor
 *    regions, fewer boxes on goals, a larger sum of the boxes' push
 *    distances to the nearest goal. It waits in the cell of the best
 *    score on its path (boxes left, regions, boxes on goals: the score
 *    without the distance), fewest pulls first; odd turns serve the cells
 *    in turn (a new cell at once), even turns the cell of the best
 *    position so far. Pulling boxes off the goals counts as progress
 *    before any elimination, so it completes plans where the first order
 *    stalls (XSokoban 50, 66, 69), at the price of more parking.
 * Either stops when every remaining box stands on a base (the plan is
 * complete), or on its node budget or deadline (the position with most
 * boxes done gives a partial plan).
 *
 * Read forwards, the pulls from the start to the best position become the
 * plan (analysis/plan.h). */
#ifndef KEEPER_BASESEARCH_H
#define KEEPER_BASESEARCH_H

#include "../analysis/plan.h"

struct packing;
struct membudget;

/* Runs the base search on board b (after distance_analyze) in the given
 * order with at most max_nodes stored positions (0: a default of 50,000)
 * until deadline_ns (monotonic ns, 0 = none), and fills pl. The search's
 * arrays are taken from mem (the caller's budget, so that --memory counts
 * them; NULL: none) and all given back before it returns; the plan itself
 * (a few bytes per step) is plain heap. Returns 0, or -1 when memory runs
 * out (pl then holds no plan). Deterministic for a given node budget when
 * the deadline does not strike and the budget does not run out. */
int plan_compute(plan *pl, const board *b, struct membudget *mem, uint64_t max_nodes,
                 int64_t deadline_ns, int order);


/* Which plan plan_pick gives: the search by boxes done alone, by cells
 * alone, or the simpler of both (a complete plan over a partial one; of
 * two complete plans the one with fewer steps, the cells' on a tie; of two
 * partial ones the one with fewer boxes left). (A second FESS following
 * the plan passed over, in the place of the one keeping the greedy order,
 * solved the same XSokoban levels: bench/README.md.) */
enum { PLAN_PICK_DONE, PLAN_PICK_CELLS, PLAN_PICK_SIMPLER };
int plan_pick(plan *pl, const board *b, struct membudget *mem, int pick, int64_t deadline_ns);

/* The plan a search counts packed boxes by, as --plan `mode` says, given
 * the greedy packing order pk: 0 = none; 1 = where pk found no order;
 * 2 = also where the plan is complete (a partial plan never replaces an
 * order); `pick` as plan_pick. pl is left empty (n == 0, nothing to free)
 * when no plan is to be used; else plan_free it. */
void plan_choose(plan *pl, const board *b, struct membudget *mem, const struct packing *pk,
                 int mode, int pick, int64_t deadline_ns);

#endif
