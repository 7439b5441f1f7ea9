/* options.h: the solver options as one table. The X-macro generates the
 * options struct, the defaults, the range checks, the "--name=value"
 * parser and the help text, so an option is added in one place.
 *
 * X(name, type, default, min, max, help); type is INT or DBL. In the CLI an
 * underscore in a name is written as '-'. A 0/1 option also takes
 * "--name" (1) and "--no-name" (0). */
#ifndef KEEPER_OPTIONS_H
#define KEEPER_OPTIONS_H

#include <stdio.h>

/* --check is on by default in debug builds (make debug), where every
 * search then verifies its position after every push. */
#ifdef KEEPER_CHECKS
#define CHECK_DEFAULT 1
#else
#define CHECK_DEFAULT 0
#endif

#define KEEPER_OPTIONS(X)                                                                    \
    X(time, DBL, 600, 0, 1e9, "time limit per level in seconds (0 = none)")                  \
    X(memory, INT, 4096, 16, 1048576, "memory limit of a run in MiB, shared by its threads") \
    X(threads, INT, 1, 1, 64, "threads: levels at a time, two on a lone portfolio or push-optimal level")   \
    X(defer, DBL, 2, -1, 1e9, "threads: a level unsolved after this many seconds on one thread is set aside (its thread waits) and goes on where it stopped once no level is left to start, one at a time on all the threads, with the rest of its time (-1 = never)") \
    X(lend_after, DBL, -1, -1, 1e9, "threads: a thread that finishes a level first lends itself to a level that has run this many seconds (-1 = only once no level is left to start)") \
    X(lent, INT, 3, 0, 4, "threads: what a lent thread runs on a portfolio level: astar (A*), opening (the opening search and A*), opening-alone (the opening search; A* stays with the others), rev (the reverse search; A* with --no-rev) or astar-rev (A* and the reverse search sharing its time equally; the opening search alone on a rearrangement, see --rearrange)") \
    X(optimal, INT, 0, 0, 2, "prove the solution optimal: pushes (1, also --optimal alone; fewest pushes) or moves (2; fewest moves, then fewest pushes: small levels)") \
    X(optimal_seed, DBL, 0.1, 0, 0.9, "push-optimal mode: the share of the level's time (and node limit) first spent finding a solution in fast mode and shortening its pushes; A* then stores no position that cannot beat it, and proves it optimal when nothing shorter exists (0 = off; 20 s when there is no time limit)") \
    X(optimal_plain, DBL, 0.05, 0, 0.9, "push-optimal mode: the share of the level's time (and node limit) spent, after the seed, on A* without PI-corrals under the seed's bound; it finds a shortest solution where the corrals leave few paths to it (XSokoban 49: 1 s against 32-94 s), and its proof stands (0 = off)") \
    X(optimal_refine, DBL, 0.5, 0, 0.9, "push-optimal mode: once A*'s proven lower bound is within 2 pushes of the seed's, this share of the time from then on goes to the optimizer shortening the seed, in turns of doubling length; a shorter seed cuts more and is proven optimal when the lower bound reaches it (0 = off)") \
    X(optimize, DBL, 0, 0, 1e9, "optimize each solution found for this many seconds before it is written (moves first; pushes first with --optimal; 0 = off)") \
    X(search, INT, 0, 0, 1, "search: astar (the searches of --strategy) or bfs (breadth-first over pushes)") \
    X(strategy, INT, 2, 0, 5, "fast mode: astar (A*), fess (feature-space search), portfolio (every member, in turn or side by side), backward (pulls from the goals), opening (pulls to an open position, then FESS meeting them), rev (FESS pushes to an open position, then pulls from the goals meeting it)") \
    X(zones, INT, 1, 0, 1, "fast mode: a level whose boxes fall into zones they never leave, as many goals as boxes in each, is first solved zone by zone (the other zones' boxes standing as walls) in half its time") \
    X(advisors, INT, 1, 0, 1, "fess: advisors choose weight-0 moves (0 = all moves weigh the same)") \
    X(rooms, INT, 1, 0, 1, "fess: the rooms feature (links between rooms that boxes cut)") \
    X(hotspots, INT, 1, 0, 1, "fess: the hotspots advisor (a move that takes a box out of another's way)") \
    X(oop, INT, 0, 0, 1, "fess: the out-of-plan feature (boxes the plan's next steps cannot use) and its advisor") \
    X(plan, INT, 2, 0, 2, "fess: packing plan with parking from the base search: 0 = off, 1 = where the packing order fails, 2 = also where the plan is complete") \
    X(plan_search, INT, 2, 0, 2, "fess: the base search that makes the plan: 0 = by boxes done, 1 = by feature cells, 2 = both, the simpler complete plan") \
    X(meet, INT, 1, 0, 1, "portfolio: the feature-space and backward searches meet (a position both reach solves the level)") \
    X(opening, INT, 1, 0, 1, "portfolio: the opening search as a member (pulls to an open position, then FESS meeting them)") \
    X(rev, INT, 1, 0, 1, "portfolio: the reverse search as a member, joining with the opening search (FESS pushes to an open position, then pulls from the goals meeting it; where no fess-order runs, it takes A*'s turn every other round)") \
    X(rearrange, INT, 50, 0, 100, "portfolio: on a level where at least this percentage of the boxes start on goals (a rearrangement: most boxes must first leave them), the opening search takes A*'s and the reverse search's turns once it has joined, and a lent thread (--lent astar-rev or rev) runs it alone (0 = never)") \
    X(rev_tracks, INT, 7, 1, 7, "rev: which forward halves (tracks) run, a sum of 1 (Festival's HF order), 2 (the same with its HF hotspots) and 4 (Festival's REV push order: fewer boxes no push moves, then the boxes farther from them)") \
    X(rev_lent_tracks, INT, 2, 0, 7, "rev: with --lent rev, a reverse search of its own with these tracks (a sum as --rev-tracks) runs on the lent thread, the round's keeping its turns on the level's own thread (0 = the round's reverse search moves to the lent thread)") \
    X(rev_cells, INT, 2, 0, 2, "rev: its backward halves keep the positions to expand in one list (0), in cells of free-floor regions and boxes on goals served in turn, as Festival's backward cells (1), or two halves per target, one of each (2)") \
    X(rev_share, INT, 2, 0, 64, "rev: the backward turns of a track: one in N goes to its live backward halves in rotation, the others to the half whose nearest position to its target (fewest boxes off the target's squares, then the matching) is the newest (0 or 1 = rotation alone)") \
    X(rev_toward, INT, 1, 0, 1, "rev: its backward halves keep the free floor in few regions first, then the boxes on the target's squares, then the matching to the target (Festival's REV pull order; 0 = the matching first)") \
    X(opening_cells, INT, 1, 0, 1, "opening: its backward searches keep their waiting positions in cells of (free-floor regions, boxes on goals), served in turn (0 = one best-first list)") \
    X(opening_third, INT, 0, 0, 1, "opening: a third forward half beside the two, the squares half without advisors (strategy opening-plain)") \
    X(opening_plan, INT, 0, 0, 1, "opening: the forward half that follows the target board's packing plan (strategy opening) takes turns with the squares half (0 = the squares half alone)") \
    X(opening_squares_advisors, INT, 1, 0, 1, "opening: its squares half weighs moves by the advisors (0 = every move weighs the same)") \
    X(opening_hf, INT, 1, 0, 1, "opening: its squares half in Festival's HF forward order (every move weighs 0; free-floor regions first, then the boxes on the target's squares; inside a cell, then the boxes' matching distance to the target)") \
    X(opening_bicon, INT, 1, 0, 1, "opening: its first leg's backward order as Festival's BICON (after the stuck boxes, fewer free-floor squares on no cycle)") \
    X(opening_deepen, INT, 1, 0, 2, "opening: 1 = a leg whose forward halves have stored eight times its backward half's positions without a meeting runs its backward half on to three times its positions (at most 2.7 million) and heads for the best target then; 2 = also a leg that would give up (no target of one region, or its forward halves ended); 0 = off") \
    X(opening_weighted, INT, 2, 0, 2, "opening: 2 = a second leg, before the nearest-goal one, runs the first leg's order with its backward half weighted as Festival's HF backward search (of a position's new children the best that beats the position costs 0, the others 1; inside a cell the positions of least cost on their path come first); 1 = the first leg's backward half weighted, two legs; 0 = off") \
    X(opening_hot, INT, 1, 0, 1, "opening: its first leg's squares half orders a cell's children by Festival's HF hotspots (boxes off the target's squares beside a box or a wall, empty target squares no push could fill) after the free-floor regions and the boxes on the target's squares") \
    X(max_nodes, DBL, 0, 0, 1e15, "stop after storing this many positions (0 = no limit)")   \
    X(dead_squares, INT, 1, 0, 1, "prune pushes onto dead squares")                          \
    X(freeze, INT, 1, 0, 1, "prune freeze deadlocks")                                        \
    X(matching, INT, 1, 0, 1, "lower bound by minimum matching (0 = nearest goal)")          \
    X(tunnels, INT, 1, 0, 1, "tunnel macro pushes")                                         \
    X(packing, INT, 1, 0, 1, "fast mode: packing-order macros (a box to its next goal)")     \
    X(patterns, INT, 0, 0, 1, "prune small box/wall patterns proven dead by exhaustive search (off: they pay too little beyond freeze, bench/README.md)") \
    X(pattern_size, INT, 3, 3, 4, "patterns: the windows searched, 3 = 3x3, 4 = 4x3 and 3x4") \
    X(fixed, INT, 1, 0, 1, "prune positions where boxes fixed on goals leave another box no goal of its own") \
    X(capsets, INT, 1, 0, 1, "fess: prune pushes that break a capacity-counted set of the reversible regions (a trap over its goals, a source set under them)") \
    X(corrals, INT, 1, 0, 1, "PI-corral pruning")                                            \
    X(local, INT, 1, 0, 1, "local deadlock search on the pushed box and the boxes near it") \
    X(optimal_local, INT, 1, 0, 1, "push-optimal mode: the local deadlock search as well (on: it decides XSokoban 5's 600 s proof; off: short proofs 6-17 % faster)") \
    X(penalties, INT, 0, 0, 1, "push-optimal mode, under a known solution's bound: cut a position when the pushed box and its neighbours, searched alone (every other box removed), need enough pushes beyond their share of the matching to reach the bound (off: measured slower, bench/README.md)") \
    X(goal_sets, INT, 3, 0, 4, "push-optimal mode, under a known solution's bound: patterns of this many boxes (each box of the start and its nearest; the box the seed solution pushes at its detours and its nearest), searched alone for the pushes that fill each set of goals; a position holding a pattern is cut when those pushes plus the other boxes' matching to the other goals reach the bound (0 = off)") \
    X(goal_layers, INT, 1, 0, 1, "push-optimal mode, with --goal-sets: a position of the layer A* is expanding that a pattern lifts past it is stored with the pattern's bound as its h, for a later layer (0 = the patterns only cut at the known solution's bound)") \
    X(pair_db, INT, 1, 0, 1, "push-optimal mode: a pattern database of two boxes per pair of goals close together, added to the matching through its dual potentials (heuristic/pairdb.h)") \
    X(clusters, INT, 5, 0, 6, "push-optimal mode: at the start, each box and its nearest (2 to this many boxes) searched alone against the matching's dual potentials; the positive terms of disjoint clusters raise the start's bound (0 = off)") \
    X(clusters_below, INT, 1, 0, 1, "push-optimal mode: the start's clusters raise every position where their boxes stand as at the start and the player is in the same part of the floor (with the start's goal potentials; needs --clusters)") \
    X(pop_clusters, INT, 1000, 0, 1000000, "push-optimal mode: a position taken from the open list is searched for clusters of its own (each box and its nearest, 2 to --clusters of them) against the start's goal potentials, each search at most this many positions, their values cached by the boxes' squares and the player's; one they lift goes back to the open list with the higher bound (0 = off)") \
    X(pathmax, INT, 0, 0, 1, "push-optimal mode: a child's bound is at least its parent's less the pushes between them (pathmax; off: XSokoban 49 lost its 16 s proof under a raised start, bench/README.md)") \
    X(sides, INT, 1, 0, 1, "push-optimal mode: a box on a square that cuts the floor counts its pushes from the piece the player is in (a box in a corridor or a doorway; 0 = the best over the pieces)") \
    X(fast_sides, INT, 0, 0, 1, "fast mode: the same rows in every search's matching (the feature-space search's bipartite deadlock test and HF order, A*); off: measured to solve no more levels") \
    X(stuck, INT, 1, 0, 1, "learned deadlock patterns: the sets the local and corral searches prove dead, and (fess) positions with large subtrees") \
    X(deadlock_search, INT, 50, 0, 1000000,                                                  \
      "positions per corral deadlock search (0 = off)")                                      \
    X(dfs_ext, INT, 1, 0, 1, "expand a child with its parent's f at once")                   \
    X(reach_reuse, INT, 1, 0, 1, "update reachability after a push from the parent's")       \
    X(weight, INT, 3, 1, 10, "fast mode: f = g + weight * h (optimal mode uses 1)")        \
    X(weight2, INT, 1, 0, 10, "fast mode: a second open list with this weight, expansions alternate (0 = none)") \
    X(check, INT, CHECK_DEFAULT, 0, 1, "debug: verify the position after every push (default on in make debug builds)")

#define OPT_TYPE_INT long long
#define OPT_TYPE_DBL double

typedef struct options {
#define OPTIONS_FIELD(name, type, def, lo, hi, help) OPT_TYPE_##type name;
    KEEPER_OPTIONS(OPTIONS_FIELD)
#undef OPTIONS_FIELD
} options;

/* Sets every option to its default. */
void options_init(options *o);

/* Parses one command-line argument that may be an option.
 *   arg:  the current argument ("--name=value", "--name", "--no-name")
 *   next: the following argument or NULL (used as the value of "--name V")
 * Returns the number of arguments consumed (1 or 2), 0 when arg names no
 * option in the table, -1 on a bad value (message in err). */
int options_parse(options *o, const char *arg, const char *next, char *err, size_t errlen);

/* Prints "  --name=VALUE  help (default D, range)" lines. */
void options_usage(FILE *f);

/* The name of value v of an option whose values have names ("strategy",
 * "search"), or NULL (another option, or no such value). */
const char *options_value_name(const char *option, long long v);

/* The options' names as the command line writes them ("time", "memory",
 * "dead-squares", ...), comma-separated, into buf (n bytes, truncated). */
void options_names(char *buf, size_t n);

/* Prints the options that differ from their defaults, for reports. */
void options_print_changed(FILE *f, const options *o, const char *prefix);

#endif
