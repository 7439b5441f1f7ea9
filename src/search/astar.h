/* astar.h: A* over box pushes (seed 000: YASS's search).
 *
 *  - A state is the box set plus the normalized player square; player walks
 *    cost nothing here and are rebuilt at the end (pathbuild.c).
 *  - Nodes (nodes.h) store no boxes; a position is put on the board by
 *    undoing pushes back to the common ancestor with the current board and
 *    replaying forward (SetPosition). The pushes on the board are kept on an
 *    explicit path stack with their undo records, so a node re-parented
 *    since it was put on the board is still undone exactly.
 *  - Open list: bucket queue on f = g + w*h, ties to the lowest h.
 *  - Depth-first extension: a child whose f equals its parent's is expanded
 *    at once, reusing the reachability computed to normalize it.
 *  - Optimal mode (w = 1, admissible and consistent bound, goal tested when
 *    it is the lowest f): the push count found is optimal. Fast mode weights
 *    the bound and stops at the first goal generated.
 *  - Two workers (optimal mode, astar_solve with an idle thread in
 *    lim->spares): each has its own board, bound and deadlock layer; the
 *    node store and the open list are shared under a spin lock. A goal is
 *    accepted, and an empty open list ends the search, only while the other
 *    worker expands nothing; the lower bound is the least f being expanded
 *    (run_loop in astar.c gives the argument). */
#ifndef KEEPER_ASTAR_H
#define KEEPER_ASTAR_H

#include "search.h"
#include "../deadlock/layer.h"

struct moves;

typedef struct astar_config {
    int optimal;      /* prove push-optimality */
    int weight;       /* fast mode: f = g + weight * h */
    int weight2;      /* fast mode: second open list's weight (0 = none) */
    int dead_squares; /* prune pushes onto dead squares */
    dl_config dl;     /* the deadlock layer (capsets not used); the learned
                         patterns are matched before storing */
    int matching;     /* minimum-matching bound (else nearest goal) */
    int dfs_ext;      /* depth-first extension */
    int tunnels;      /* tunnel macro pushes */
    int packing;      /* fast mode: packing-order macros */
    int reach_reuse;  /* reachability after a push from the parent's */
    int check;        /* debug: check the position after every push */
    int penalties;    /* optimal mode: the bound raised by a search of the
                         pushed box and its neighbours alone (penalty.h) */
    int goal_layers;  /* optimal mode, with goal_sets: a child of the layer
                         being expanded that a pattern lifts past it is
                         stored with the lifted h (else patterns only cut) */
    int goal_sets;    /* optimal mode: patterns of this many boxes of the
                         start, per set of goals they fill (goalsets.h);
                         0 = none */
    int pair_db;      /* optimal mode: the matching raised by the pattern
                         database of goal pairs (pairdb.h) */
    int sides;        /* optimal mode: a box on a cut square takes the row
                         of the player's piece (lb_row) */
    int clusters;     /* optimal mode: the root's clusters of up to this
                         many boxes searched alone against the matching's
                         potentials raise its bound (0 = none) */
    int pathmax;      /* optimal mode: a child's h at least its parent's
                         less the pushes between them */
    int pop_clusters; /* optimal mode, with clusters: a position taken from
                         the open list is searched for its own clusters
                         (each search at most this many positions; 0 = off)
                         and goes back with the higher bound they give */
    int clusters_below; /* optimal mode, with clusters: the root's clusters
                         raise every position where they stand as at the
                         root (astar_clusters) */
    struct astar_clusters *root_clusters; /* with clusters: the caller's
                         cache of the root's clusters (raise -1 until
                         computed), shared by the searches of a level from
                         the same start; NULL: each search computes its own */
    const struct moves *seed; /* with bound: the known solution's moves,
                         whose detours give goal-set patterns too (or NULL) */
    const struct pairdb *pairs; /* with pair_db: the goal pairs' tables the
                         caller built (pairdb_build), shared by the searches
                         of a level; NULL: the search builds its own */
    const struct goalsets *patterns; /* goal-set patterns the caller built
                         (goalsets_build, with this bound's seed), read by
                         the search instead of building its own: one build
                         for the searches of a level. NULL: its own when
                         goal_sets says so */
    uint32_t bound;   /* optimal mode: the pushes of a known solution (0 =
                         none). A position whose g + h reaches it is not
                         stored (h is admissible: every solution through it
                         has at least that many pushes), and an exhausted
                         search proves the known solution optimal */
    /* Optimal mode, with bound (or NULL): called by the first worker every
     * refine_every expansions (0: 256) with the proven lower bound and the
     * bound; returns
     * the pushes of a shorter solution the caller now holds (it replaces
     * the known solution: the bound drops to it, and the search ends
     * exhausted once the lower bound reaches it), or the bound unchanged. */
    uint32_t (*refine)(void *arg, uint32_t lower, uint32_t bound);
    void *refine_arg;
    uint32_t refine_every;
} astar_config;

/* Builds the goal-set patterns of cfg (cfg->goal_sets boxes; the seed's
 * detours with cfg->bound) into gs, for searches to share through
 * cfg->patterns: with its own matching tables, its scratch and the
 * patterns charged to mem (none when they do not fit), within lim's
 * deadline; adds its counters to st. Returns the patterns kept. Free with
 * astar_patterns_free. */
struct stats;
int astar_patterns(const board *b, const astar_config *cfg, const search_limits *lim,
                   membudget *mem, struct goalsets *gs, struct stats *st);
void astar_patterns_free(struct goalsets *gs, membudget *mem);

/* Builds the goal pairs' tables of b (cfg->pair_db in optimal mode with
 * the matching; else none) into pd, for searches to share through
 * cfg->pairs: its scratch and the tables charged to mem (none when they do
 * not fit), until deadline_ns (0: none) or *stop; adds its counters to st.
 * Returns the tables kept. Free with astar_pairs_free. */
struct pairdb;
int astar_pairs(const board *b, const astar_config *cfg, int64_t deadline_ns, atomic_int *stop,
                membudget *mem, struct pairdb *pd, struct stats *st);
void astar_pairs_free(struct pairdb *pd, membudget *mem);

/* Push-optimal mode: the clusters of the start (cfg->clusters). Each is
 * a few boxes searched alone (penalty_dual) against the goal potentials v
 * of the start's matching, its value `dual` the least over the goals they
 * can end on of their pushes less those goals' v. With v held fixed, a
 * position's boxes outside the clusters take at least their row's least
 * d(row, goal) - v(goal) each (urow: a feasible dual of the position's own
 * matching costs), a cluster whose boxes stand where they stood at the
 * start, the player in the same part of the floor (comp: the floor with
 * only the cluster's boxes on it), at least `dual` plus its goals' v; with
 * the sum of every goal's v once, a lower bound for that position
 * (penalty.h holds the argument). At the start it is the matching plus
 * the clusters' terms (`raise`, over disjoint clusters, largest first);
 * below it (cfg->clusters_below) every cluster with a positive term at the
 * start is kept, largest first, and a position takes the disjoint ones
 * that still stand, in that order: a cluster that lost a box leaves room
 * for an overlapping one that did not. */
#define ASTAR_CLUSTER_MAX 6
typedef struct astar_cluster {
    int k;
    sq_t sq[ASTAR_CLUSTER_MAX]; /* its boxes' squares at the start */
    int64_t dual;
    uint8_t *comp;              /* [nsq] 1: the start player's part of the
                                   floor with only these boxes on it */
} astar_cluster;
typedef struct astar_clusters {
    int64_t raise;      /* the start's raise, -1 until computed whole */
    int n;              /* clusters kept (cfg->clusters_below), largest
                           term first */
    astar_cluster *set; /* [n] */
    int64_t *urow;      /* [nrows] each matching row's least d - v */
    int nrows;
    int64_t vsum;       /* the sum of the start's goal potentials */
    int64_t *v;         /* [nboxes] the start's goal potentials by goal index */
    size_t held;        /* bytes charged to the budget */
} astar_clusters;
void astar_clusters_free(astar_clusters *c, membudget *mem);

/* Searches from the level's start. `b` must have been analysed
 * (distance_analyze). Fills `out`. */
void astar_solve(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                 search_outcome *out);

/* The same search in slices, for a portfolio: astar_begin sets it up (it
 * may already be finished, e.g. when the start is solved), astar_step runs
 * until `out` counts node_budget stored positions (0 = no budget) and then
 * returns 0, or returns 1 once the search has ended (solved, exhausted or a
 * limit hit: out->stop says which); astar_end writes the solution into out
 * and frees everything. astar_solve is begin, step(0), end. */
typedef struct astar astar;
astar *astar_begin(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                   search_outcome *out);
int astar_step(astar *a, uint64_t node_budget);
void astar_end(astar *a);

#endif
