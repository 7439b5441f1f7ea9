/* capsets.h: capacity-counted deadlock sets from the reversible regions of
 * the one-box maze (seed 001: goal traps, reversible regions, sinks and
 * sources; seed 000: sets of squares with a capacity, counted push by push).
 *
 * The one-box maze: a lone box on live square s, the player on any side of
 * it, reaches the squares R(s) by pushes (analysis/distance.c's push search
 * over box square and player side). Squares that reach each other form a
 * reversible region; the regions and the arrows "some square of A reaches
 * some square of B" make a graph without cycles.
 *
 * Two kinds of set, each a union of regions closed one way:
 *  - a trap D, closed downwards (every region that a region of D points to
 *    is in D): a box in D never leaves D, whatever the other boxes do (its
 *    real path is a path of the one-box maze, the other boxes only block),
 *    so at most goals(D) boxes may stand in D. A sink region is a trap of
 *    its own; a goal on a wall between two corners, with the wall, is the
 *    seed's simplest goal trap.
 *  - a source set U, closed upwards (every region pointing into U is in U):
 *    a box that ends on a goal of U is in U now (it reaches that goal), so
 *    at least goals(U) boxes must stand in U. A source region whose goals
 *    are more than its boxes is the seed's example.
 * One set of each kind per region (its closure), kept when it says
 * something (a trap with fewer goals than boxes in the level; a source set
 * with goals, not the whole board). Dead squares belong to no region and no
 * set (no box stands there in a search).
 *
 * Both bounds are Hall conditions of the matching of boxes to the goals they
 * reach, so the bipartite matching (heuristic/lowerbound.c) implies them;
 * the sets answer in O(sets of the two squares) per push where the matching
 * costs a search. Counting (seed 000's DoPush/UndoPush): each square lists
 * the sets it belongs to; a push from a to b adds one to b's sets and takes
 * one from a's, and only those can break their bound. */
#ifndef KEEPER_CAPSETS_H
#define KEEPER_CAPSETS_H

#include "../core/position.h"
#include "../util/stats.h"

typedef struct capset {
    uint32_t start, n; /* squares sq[start .. start + n) */
    int32_t lo, hi;    /* a live position has lo <= boxes in the set <= hi */
    int32_t region;    /* the region whose closure it is */
    uint8_t trap;      /* 1: closed downwards (hi bounds), 0: upwards (lo) */
} capset;

typedef struct capsets {
    const board *b;
    int nregions;
    int32_t *region_of; /* [nsq] region of a square, -1 for dead squares */
    int nsets;
    capset *set;        /* [nsets] */
    sq_t *sq;           /* the sets' squares, one set after the other */
    uint32_t *first;    /* [nsq + 1] square s's sets: memb[first[s] .. first[s + 1]) */
    uint16_t *memb;
    int32_t *count;     /* [nsets] boxes in each set (capsets_count) */
    size_t held;        /* bytes of the tables above, charged by the owner */
} capsets;

/* Builds the regions and sets of b (needs b->dead). Returns 0, or -1 when
 * memory for the tables cannot be had. */
int capsets_build(capsets *cs, const board *b);
void capsets_free(capsets *cs);

/* Counts p's boxes into cs->count; returns 1 when some set breaks its bound
 * (p is dead; the player plays no part). 0 when there are no sets (also
 * after a failed capsets_build, which leaves cs empty). */
int capsets_count(capsets *cs, const position *p);

/* Whether a push of a box from `from` to `to` in the position last counted
 * makes a set of either square break its bound (only those can). The
 * counts are left as they were. */
int capsets_push_dead(capsets *cs, sq_t from, sq_t to);

#endif
