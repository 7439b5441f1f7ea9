/* rev.h: the reverse strategy, the opening search mirrored (Festival's
 * REV): open the start forwards, then pull from the goal towards it.
 *
 *  1. Forward: FESS on the level in Festival's HF order (free-floor
 *     regions first: fess_config hf) for REV_FWD_NODES stored positions.
 *     Its most open position (fess_open_target: one free-floor region,
 *     fewest room links, fewest boxes off goals no push moves, then the
 *     most pushes) becomes the target T: a position the start is known to
 *     reach.
 *  2. Backward: the backward search (backward.h, its own order: the
 *     boxes' matching to the start squares) on the level with T as its
 *     start (board_variant: the same squares, so keys carry over),
 *     watching the forward search's store. A position both searches
 *     stored solves the level: the forward path to it, then the pulls
 *     read forwards; reaching T itself does too (the forward path to T,
 *     then the pulls). The forward search goes on in turns, watching the
 *     backward stores (fess_watch), and may solve the level itself.
 *  3. More targets: when the forward half has stored REV_TARGET_GROWTH
 *     times as many positions, its most open position then (when it is a
 *     new one) becomes another target with a backward half of its own, up
 *     to REV_TARGETS; the backward halves share the backward turns in
 *     rotation. Which target leads home is a matter of luck, of which
 *     open position the forward half happened to find: one level solved
 *     in 1.1 s with the target of 300,000 positions needs 6.9 s with the
 *     one of 100,000, another the other way round (bench/README.md, "The
 *     reverse search"); several targets hedge.
 *
 *  4. Two forward halves (tracks), each with targets of its own: the HF
 *     order above, and the same with Festival's HF hotspots ordering a
 *     cell's children (fess_config hot: boxes off the goals beside a box
 *     or a wall, empty goals no push could fill). The two find different
 *     open positions, and each order solves levels the other loses
 *     (bench/README.md, "Festival's HF hotspots"). The
 *     first track's first target comes first, then the second's; then the
 *     tracks take turns of REV_TRACK_SLICE positions, each alternating
 *     its forward half with its backward halves as above. A forward half
 *     that exhausts the level's positions ends the search (a proof).
 *
 * For levels whose start is packed tight and whose goal area is not: the
 * opening search pulls the goal area open and pushes towards it; this one
 * pushes the start open and pulls towards it. No target (no stored
 * position with one region): the forward search runs on alone. Not
 * push-optimal; the solution is replayed as any other. */
#ifndef KEEPER_REV_H
#define KEEPER_REV_H

#include "backward.h"
#include "fess.h"

/* Positions of the forward half before the first target is taken; each
 * further target (at most REV_TARGETS) after REV_TARGET_GROWTH times as
 * many. */
#define REV_FWD_NODES 100000u
#ifndef REV_TARGETS
#define REV_TARGETS 3
#endif
/* Forward halves (tracks), each with targets of its own: the HF order, and
 * the HF order with Festival's hotspots (fess_config hot). */
#define REV_TRACKS 2
#ifndef REV_TARGET_GROWTH
#define REV_TARGET_GROWTH 3
#endif

typedef struct rev rev;

/* Sets up the reverse strategy on b (analysed). fcfg: the forward half's
 * FESS configuration (hf and open are set here); bcfg: the backward
 * half's (open and cells are cleared here); both are copied. fwd_nodes:
 * the forward half's positions before the target is taken
 * (REV_FWD_NODES; the tests use fewer). */
rev *rev_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               uint64_t fwd_nodes, search_limits *lim, membudget *mem, search_outcome *out);
/* Runs until out counts node_budget stored positions (0 = no budget), then
 * returns 0; or returns 1 once the search has ended (out->stop). The node
 * limit (lim->max_nodes) counts both halves. */
int rev_step(rev *r, uint64_t node_budget);
/* The solution into out (strategy "rev"), and frees r. */
void rev_end(rev *r);
void rev_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               uint64_t fwd_nodes, search_limits *lim, membudget *mem, search_outcome *out);

#endif
