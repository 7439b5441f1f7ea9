/* stats.h: the search counters as one table. The X-macro generates the
 * struct, the names printed in the statistics block and the JSON keys. */
#ifndef KEEPER_STATS_H
#define KEEPER_STATS_H

#include <stdint.h>
#include <stdio.h>

/* X(name, description) */
#define KEEPER_STATS(X)                                                        \
    X(nodes, "positions stored")                                               \
    X(expanded, "positions expanded")                                          \
    X(generated, "pushes generated")                                           \
    X(duplicates, "transposition hits (position already stored)")              \
    X(reopened, "stored positions reached again on a shorter path")            \
    X(cut_dead, "pushes onto dead squares")                                    \
    X(cut_freeze, "freeze deadlocks")                                          \
    X(cut_patterns, "small box/wall patterns proven dead (not frozen)")        \
    X(cut_bipartite, "bipartite deadlocks (no perfect matching)")              \
    X(cut_fixed, "deadlocks of the matching with fixed boxes as walls")        \
    X(cut_corral, "pushes pruned by PI-corrals")                               \
    X(corrals, "PI-corrals found")                                             \
    X(corral_deadlocks, "positions with a PI-corral and no legal push")        \
    X(subset_searches, "corral deadlock searches run")                           \
    X(subset_deadlocks, "positions proven dead by a corral deadlock search")     \
    X(local_searches, "local deadlock searches run (xy relaxation)")            \
    X(cut_local, "positions proven dead by a local deadlock search")           \
    X(stuck_tests, "positions searched for a stuck pattern (large subtrees)")  \
    X(stuck_learned, "deadlock patterns learned")                              \
    X(cut_capsets, "pushes that break a capacity-counted deadlock set")          \
    X(cut_stuck, "positions holding a learned deadlock pattern")               \
    X(cut_ancestor, "positions below a position proven dead")                  \
    X(tunnel_macros, "tunnel pushes extended to macro pushes")                 \
    X(cut_tunnel, "pushes into tunnels that cannot be finished")               \
    X(packing_macros, "packing-order macro moves made")                        \
    X(dfs_extensions, "children expanded at once (equal f)")                   \
    X(setpos_steps, "pushes made and unmade to put positions on the board")    \
    X(reach_calls, "player reachability computations")                         \
    X(reach_reused, "reachability updated from the parent's after a push")     \
    X(meetings, "positions both a forward and the backward search reached")   \
    X(cells, "feature-space cells made")                                       \
    X(advised, "moves an advisor chose (weight 0)")                            \
    X(max_depth, "deepest position (pushes)")                                  \
    X(best_packed, "most boxes packed in packing order (feature search)")      \
    X(best_lower_bound, "highest f expanded (pushes)")                         \
    X(lent_threads, "threads lent to the level (strategies side by side)")     \
    X(mem_bytes, "peak bytes in the search's memory budget")

typedef struct stats {
#define STATS_FIELD(name, desc) uint64_t name;
    KEEPER_STATS(STATS_FIELD)
#undef STATS_FIELD
} stats;

/* Prints "prefix name  value  description" lines for nonzero counters. */
void stats_print(FILE *f, const char *prefix, const stats *s);
/* Adds every counter of b into a (max_depth, best_packed, best_lower_bound and
 * mem_bytes take the maximum). */
void stats_add(stats *a, const stats *b);

#endif
