/* penalty.h: the pushes a few boxes need alone, a bound the matching misses
 * (push-optimal mode, --penalties; bench/README.md, "Where the matching
 * bound is wrong: clusters of boxes").
 *
 * Take k boxes of a position (the pushed box and its neighbours) and remove
 * every other box. Any solution of the position, with the other boxes'
 * pushes dropped, solves the reduced problem (the k boxes onto any k goals,
 * the player starting where he stands: he walks where a removed box stood),
 * so the reduced problem's fewest pushes L bound the pushes those k boxes
 * take in the full one. The other boxes take at least their own matching
 * (to any goals), so L + matching(others) is admissible, and where the
 * matching of all boxes lets the k boxes walk straight to their goals while
 * they block one another or the player, it is higher.
 *
 * penalty_bound finds L by IDA* on the sum of the boxes' nearest-goal
 * distances, with a table of the pushes each reduced position was reached
 * with (so no position is searched twice at the same depth), pruning pushes
 * onto dead squares and freeze deadlocks (both sound in the reduced
 * problem). It stops at `limit` positions per search: then the last depth
 * exhausted is a lower bound still. Results are cached by the boxes'
 * squares and the player's normalized square. Nothing is allocated after
 * penalty_init. */
#ifndef KEEPER_PENALTY_H
#define KEEPER_PENALTY_H

#include "../core/position.h"
#include "../deadlock/freeze.h"

#define PENALTY_MAX_BOXES 6
#define PENALTY_INF 0xFFFF /* the k boxes can never all reach goals */

typedef struct penalty_ctx {
    const board *b;
    int limit;         /* reduced positions per search */
    int maxk;
    position shell;    /* the reduced position's boxes (freeze reads them) */
    freeze_ctx fz;
    uint32_t *mark;    /* [nsq] reach stamps */
    uint32_t ts;
    sq_t *stack;       /* [nsq] */
    uint64_t *seen;    /* [tcap] keys reached in this search */
    uint16_t *seen_g;  /* [tcap] pushes they were reached with */
    uint32_t *seen_gen;
    uint32_t tcap, gen;
    uint64_t *cache_key; /* [ccap] */
    uint16_t *cache_val; /* [ccap] the bound found */
    uint32_t ccap;
    uint32_t nodes;    /* positions of the current search */
    uint64_t searches, cache_hits;
    int64_t *hd;       /* [nsq] penalty_dual: least goal distance less potential */
    int *gidx;         /* [nsq] penalty_dual: goal index of a square, or -1 */
    int64_t *hv;       /* [nboxes] the potentials hd was made for */
    int hv_set;
    size_t held;       /* bytes allocated, charged by the owner */
} penalty_ctx;

void penalty_init(penalty_ctx *c, const board *b, int limit, int maxk);
void penalty_free(penalty_ctx *c);

/* A lower bound on the pushes that bring the k boxes on squares boxes[]
 * (k <= maxk) onto any k goals with no other box on the board and the
 * player on `player` (exact when the search finished within its limit);
 * PENALTY_INF when they cannot. The search stops once the bound passes
 * `enough` (it need not be exact beyond what the caller can use). */
int penalty_bound(penalty_ctx *c, const sq_t *boxes, int k, sq_t player, int enough);

/* The matching's dual form of the same search (push-optimal A*'s clusters
 * at the root): the least, over the ways the k boxes alone (player on
 * `player`) end on k goals, of the pushes less the sum of v[g] over the
 * goals g they end on (v: the matching's goal potentials, by goal index).
 * With the matching's box potentials u, the term (this less u over the k
 * boxes; the caller takes the positive ones: the matching's side-aware
 * costs can pass the lone distances this search uses) summed over
 * disjoint box sets adds to the matching admissibly: in any solution the boxes outside the sets take
 * at least u_i + v_g each (dual feasibility), those of a set at least this
 * search's pushes onto the goals they end on. A lower bound when the
 * search stops at its limit; it stops once past `enough`.
 * PENALTY_DUAL_NEVER: the boxes can never all end on goals. */
#define PENALTY_DUAL_NEVER INT64_MAX
int64_t penalty_dual(penalty_ctx *c, const sq_t *boxes, int k, sq_t player, const int64_t *v,
                     int64_t enough);

#endif
