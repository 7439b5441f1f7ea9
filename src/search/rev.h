/* rev.h: the reverse strategy, the opening search mirrored (Festival's
 * REV): open the start forwards, then pull from the goal towards it.
 *
 *  1. Forward: FESS on the level in Festival's HF order (free-floor
 *     regions first: fess_config hf) for REV_FWD_NODES stored positions.
 *     Its most open position (fess_open_target: one free-floor region,
 *     fewest room links, fewest boxes off goals no push moves, then the
 *     most pushes) becomes the target T: a position the start is known to
 *     reach.
 *  2. Backward: the backward search (backward.h) on the level with T as
 *     its start (board_variant: the same squares, so keys carry over), in
 *     Festival's REV pull order (rev_config toward: the free floor in few
 *     regions first, then the boxes on T's squares, then their matching
 *     to T; without it the matching first, which pulls straight at T
 *     through closed positions: Sasquatch IV 50, V 49 and VI 18 fall in
 *     1-3 s with it and not in 20 s without),
 *     watching the forward search's store. A position both searches
 *     stored solves the level: the forward path to it, then the pulls
 *     read forwards; reaching T itself does too (the forward path to T,
 *     then the pulls). The forward search goes on in turns, watching the
 *     backward stores (fess_watch), and may solve the level itself.
 *  3. More targets: when the forward half has stored REV_TARGET_GROWTH
 *     times as many positions, its most open position then (when it is a
 *     new one) becomes another target with a backward half of its own, up
 *     to REV_TARGETS; the backward halves share the backward turns (one
 *     in rev_config share in rotation, the others to the half that came
 *     nearer its target the fewest positions ago: backward_stale). Which
 *     target leads home is a matter of luck, of which
 *     open position the forward half happened to find: one level solved
 *     in 1.1 s with the target of 300,000 positions needs 6.9 s with the
 *     one of 100,000, another the other way round (bench/README.md, "The
 *     reverse search"); several targets hedge.
 *     With rev_config cells REV_CELLS_BOTH (the default) each target has
 *     two backward halves that share its turns: the order above, and the
 *     same order inside cells of (free-floor regions, boxes on goals)
 *     served in turn (backward_config cells, as the opening search's
 *     backward halves: Festival's backward FESS cells). Each solves
 *     levels the other loses in 20 s (bench/README.md, "The reverse
 *     search's backward halves in cells").
 *
 *  4. Three forward halves (tracks), each with targets of its own: the HF
 *     order above; the same with Festival's HF hotspots ordering a cell's
 *     children (fess_config hot: boxes off the goals beside a box or a
 *     wall, empty goals no push could fill); and Festival's REV push order
 *     (fess_config revpush: fewer boxes no push moves, then the boxes
 *     farther from them, a push into a goal pocket weighing 0). They find
 *     different open positions, and each order solves levels the others
 *     lose (bench/README.md, "Festival's HF hotspots" and "The reverse
 *     search's pull order"). The tracks' first targets come first, in
 *     order; then the tracks take turns of REV_TRACK_SLICE positions, each
 *     alternating its forward half with its backward halves as above. A
 *     forward half that exhausts the level's positions ends the search (a
 *     proof). rev_config tracks picks the tracks that run.
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
/* Forward halves (tracks), each with targets of its own: the HF order,
 * the HF order with Festival's hotspots (fess_config hot), and Festival's
 * REV push order (fess_config revpush). */
#define REV_TRACKS 3
#define REV_TRACKS_ALL ((1u << REV_TRACKS) - 1)
/* rev_config cells */
#define REV_CELLS 1
#define REV_CELLS_BOTH 2
/* Backward halves per track at most: two per target. */
#define REV_HALVES (2 * REV_TARGETS)
#ifndef REV_TARGET_GROWTH
#define REV_TARGET_GROWTH 3
#endif

typedef struct rev rev;

typedef struct rev_config {
    uint64_t fwd_nodes; /* the forward halves' positions before their first
                           targets (REV_FWD_NODES; the tests use fewer) */
    unsigned tracks;    /* the tracks that run: bit k for track k (--rev-tracks) */
    int toward;         /* the backward halves in Festival's REV pull order
                           (backward_config toward; --rev-toward) */
    int cells;          /* the backward halves in the plain order (0), in
                           cells of (free-floor regions, boxes on goals)
                           (REV_CELLS: backward_config cells), or two halves
                           per target, one of each (REV_CELLS_BOTH);
                           --rev-cells */
    int share;          /* the backward turns of a track: 0 or 1, its live
                           halves in rotation; n > 1, one turn in n in
                           rotation, the others to the half that came
                           nearer its target the fewest positions ago
                           (backward_stale); --rev-share */
    uint64_t back_slice; /* a backward half's turn in positions (0: the
                            default, 160,000; the tests use fewer) */
} rev_config;

/* Sets up the reverse strategy on b (analysed). fcfg: the forward half's
 * FESS configuration (hf and open are set here); bcfg: the backward
 * half's (open and cells are cleared here, toward set from rc); all are
 * copied. */
rev *rev_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               const rev_config *rc, search_limits *lim, membudget *mem, search_outcome *out);
/* Runs until out counts node_budget stored positions (0 = no budget), then
 * returns 0; or returns 1 once the search has ended (out->stop). The node
 * limit (lim->max_nodes) counts both halves. */
int rev_step(rev *r, uint64_t node_budget);
/* The solution into out (strategy "rev"), and frees r. */
void rev_end(rev *r);
void rev_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               const rev_config *rc, search_limits *lim, membudget *mem, search_outcome *out);

#endif
