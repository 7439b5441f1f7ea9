/* stats.h: the search counters as one table. The X-macro generates the
 * struct, the names printed in the statistics block and the JSON keys. */
#ifndef KEEPER_STATS_H
#define KEEPER_STATS_H

#include <stdint.h>
#include <stdio.h>

/* X(name, how, description): how counters of two searches or sub-levels
 * combine (stats_add): SUM adds them, MAX keeps the larger (depths, bests,
 * peaks). */
#define KEEPER_STATS(X)                                                               \
    X(nodes, SUM, "positions stored")                                                 \
    X(expanded, SUM, "positions expanded")                                            \
    X(generated, SUM, "pushes generated")                                             \
    X(duplicates, SUM, "transposition hits (position already stored)")                \
    X(reopened, SUM, "stored positions reached again on a shorter path")              \
    X(cut_dead, SUM, "pushes onto dead squares")                                      \
    X(cut_freeze, SUM, "freeze deadlocks")                                            \
    X(cut_patterns, SUM, "small box/wall patterns proven dead (not frozen)")          \
    X(cut_bipartite, SUM, "bipartite deadlocks (no perfect matching)")                \
    X(cut_bound, SUM, "pushes whose bound reaches the known solution's pushes (push-optimal mode)") \
    X(cut_fixed, SUM, "deadlocks of the matching with fixed boxes as walls")          \
    X(cut_corral, SUM, "pushes pruned by PI-corrals")                                 \
    X(penalty_searches, SUM, "searches of a few boxes alone (push-optimal --penalties)") \
    X(penalty_raised, SUM, "positions whose boxes near the push needed the raise that cuts them alone") \
    X(penalty_cuts, SUM, "positions cut by the bound so raised (or boxes that can never reach goals)") \
    X(goalset_patterns, SUM, "patterns of a few boxes per goal set that raise their position's bound (push-optimal --goal-sets)") \
    X(goalset_gain, MAX, "most a pattern raises its position's bound (push-optimal --goal-sets)") \
    X(goalset_states, SUM, "reduced positions the patterns' searches stored") \
    X(pairdb_tables, SUM, "goal pairs whose table of two boxes alone was kept (--pair-db)") \
    X(pairdb_states, SUM, "reduced positions the goal pairs' searches visited") \
    X(pairdb_raised, SUM, "positions whose matching the goal pairs' tables raised") \
    X(pathmax_raised, SUM, "children whose bound their parent's lifted (push-optimal pathmax)") \
    X(cluster_searches, SUM, "searches of clusters of boxes alone at the start (--clusters)") \
    X(cluster_sets, SUM, "disjoint clusters whose terms raised the start's bound") \
    X(cluster_raise, MAX, "pushes the clusters added to the start's bound")  \
    X(cluster_raised, SUM, "children the start's clusters raised below the start (--clusters-below)") \
    X(pop_cluster_tests, SUM, "positions taken from the open list searched for their own clusters (--pop-clusters)") \
    X(pop_cluster_lifted, SUM, "of those, positions whose clusters lifted them back into the open list") \
    X(pop_cluster_searches, SUM, "their clusters' searches") \
    X(pop_cluster_hits, SUM, "their clusters' values found in the cache") \
    X(goalset_tests, SUM, "positions holding no more than the bound lets, tested against the patterns") \
    X(goalset_cuts, SUM, "positions the patterns cut") \
    X(goalset_raises, SUM, "positions the patterns deferred past the layer being expanded") \
    X(refined, SUM, "known solutions shortened while A* proved (--optimal-refine)") \
    X(refine_ms, SUM, "milliseconds the optimizer spent on the seed while A* proved") \
    X(corrals, SUM, "PI-corrals found")                                               \
    X(corral_deadlocks, SUM, "positions with a PI-corral and no legal push")          \
    X(subset_searches, SUM, "corral deadlock searches run")                           \
    X(subset_deadlocks, SUM, "positions proven dead by a corral deadlock search")     \
    X(local_searches, SUM, "local deadlock searches run (xy relaxation)")             \
    X(cut_local, SUM, "positions proven dead by a local deadlock search")             \
    X(stuck_tests, SUM, "positions searched for a stuck pattern (large subtrees)")    \
    X(stuck_learned, SUM, "deadlock patterns learned")                                \
    X(cut_capsets, SUM, "pushes that break a capacity-counted deadlock set")          \
    X(cut_stuck, SUM, "positions holding a learned deadlock pattern")                 \
    X(cut_ancestor, SUM, "positions below a position proven dead")                    \
    X(tunnel_macros, SUM, "tunnel pushes extended to macro pushes")                   \
    X(cut_tunnel, SUM, "pushes into tunnels that cannot be finished")                 \
    X(packing_macros, SUM, "packing-order macro moves made")                          \
    X(dfs_extensions, SUM, "children expanded at once (equal f)")                     \
    X(matching_paths, SUM, "augmenting paths of the matching bound (backward search)") \
    X(setpos_steps, SUM, "pushes made and unmade to put positions on the board")      \
    X(reach_calls, SUM, "player reachability computations")                           \
    X(reach_reused, SUM, "reachability updated from the parent's after a push")       \
    X(regions_reused, SUM, "free-floor regions counted from the parent's after a move") \
    X(rooms_reused, SUM, "room scores kept from the parent's after a move") \
    X(hotspots_reused, SUM, "HF hotspots counted from the parent's after a move")    \
    X(stuck_reused, SUM, "REV order: boxes no push moves counted from the parent's after a move") \
    X(meetings, SUM, "positions both a forward and the backward search reached")      \
    X(opening_deepened, SUM, "opening legs that ran their backward half on to a new target (--opening-deepen)") \
    X(targets, SUM, "open positions the reverse search pulled towards")               \
    X(cells, SUM, "feature-space cells made")                                         \
    X(advised, SUM, "moves an advisor chose (weight 0)")                              \
    X(max_depth, MAX, "deepest position (pushes)")                                    \
    X(best_packed, MAX, "most boxes packed in packing order (feature search)")        \
    X(best_lower_bound, MAX, "highest f expanded (pushes)")                           \
    X(lent_threads, SUM, "threads lent to the level (strategies side by side)")       \
    X(set_aside, SUM, "times set aside unsolved (--defer), the level going on after")       \
    X(mem_bytes, MAX, "peak bytes in the search's memory budget")

typedef struct stats {
#define STATS_FIELD(name, how, desc) uint64_t name;
    KEEPER_STATS(STATS_FIELD)
#undef STATS_FIELD
} stats;

/* Prints "prefix name  value  description" lines for nonzero counters. */
void stats_print(FILE *f, const char *prefix, const stats *s);
/* Combines every counter of b into a as the table says (SUM or MAX). */
void stats_add(stats *a, const stats *b);

#endif
