/* vicinity.h: the vicinity search (seed 002): a cheapest-path search from
 * one position of a solution to a later one that may only visit box
 * configurations near those the solution passes through.
 *
 * Phase 1 builds the cloud: every box configuration of the segment, and
 * each of them with one box moved to one of its `near1` nearest squares
 * and, when near2 > 0, a second box moved to one of its `near2` nearest
 * squares ("nearest" by rings of Manhattan distance around the box,
 * walls skipped; dead squares are never used). Phase 2 is a uniform-cost
 * search over push states (configuration, player square after the push)
 * whose edges are a shortest player walk and one push; a state's cost is
 * (primary, secondary) in lexicographic order: (moves, pushes) or
 * (pushes, moves). The best path found is never worse in those two
 * metrics than the segment it replaces; the caller replays the result and
 * compares all six metrics before keeping it. */
#ifndef KEEPER_VICINITY_H
#define KEEPER_VICINITY_H

#include "../core/board.h"
#include "../core/solution.h"
#include "../search/search.h"
#include "../util/mem.h"

enum { OPT_MOVES = 0, OPT_PUSHES = 1 };

typedef struct vicinity_config {
    int near1;    /* squares for the first moved box (1 = none moved) */
    int near2;    /* squares for the second moved box (0 = one box only) */
    int clockwise; /* ring order: counter-clockwise (0) or clockwise (1) */
    int metric;   /* OPT_MOVES or OPT_PUSHES */
    uint32_t max_configs; /* the cloud's size limit; a larger cloud is "too big" */
    int permute;  /* > 0: the box-permutation cloud instead (seed 002's N-box
                     permutations): the boxes the segment pushes on every
                     combination of squares (not dead, not another box's),
                     the other boxes where they are; near1/near2 unused */
    int global;   /* > 0: the global cloud instead (seed 002's global search):
                     every configuration within this many pushes of one of
                     the segment's positions */
} vicinity_config;

typedef struct vicinity_stats {
    uint64_t configs;  /* box configurations in the clouds built */
    uint64_t states;   /* push states stored */
    uint64_t expanded; /* push states expanded */
    int fit;           /* after VIC_TOO_BIG: the pushes of a segment from i0
                          whose cloud would have fitted (an estimate) */
} vicinity_stats;

typedef enum {
    VIC_NONE = 0,   /* searched: nothing better than the segment */
    VIC_BETTER = 1, /* *out holds the whole solution with a better segment */
    VIC_TOO_BIG,    /* the cloud passed max_configs or the memory budget:
                       try a shorter segment */
    VIC_STOPPED,    /* time limit or interrupt (lim's flags) */
} vicinity_result;

/* The pushes of a legal solution: push k (1-based) is move move_at[k] of
 * the move list; move_at[0] = -1. */
typedef struct sol_trace {
    int npushes;
    int *move_at; /* [npushes + 1] */
    int *box;     /* [npushes + 1] which box push k moves (boxes numbered by
                     their start squares, ascending); box[0] = -1 */
} sol_trace;

/* The last push index i1 > i0 such that pushes i0 + 1 .. i1 of solution
 * `mv` move at most `nboxes` distinct boxes (as long as the solution allows). */
int sol_trace_span(const sol_trace *t, int i0, int nboxes);

/* Fills t from `mv`, which must be a legal solution of b (replayed). */
void sol_trace_build(sol_trace *t, const board *b, const movelist *mv);
void sol_trace_free(sol_trace *t);

/* Searches the part of solution `mv` (a legal solution of b, whose board
 * has its analysis: dead squares) from the position after push i0 to the
 * position after push i1 (0 <= i0 < i1 <= t->npushes), the player then
 * walking to where push i1 + 1 starts (at the end: the solved position,
 * the player anywhere). Returns VIC_BETTER with the whole new solution in
 * `out` (its two metrics strictly better, or equal: the caller decides),
 * or another vicinity_result. Allocates through `mem` and frees it all. */
vicinity_result vicinity_segment(const board *b, const movelist *mv, const sol_trace *t, int i0,
                                 int i1, const vicinity_config *cfg, search_limits *lim,
                                 membudget *mem, movelist *out, vicinity_stats *st);

#endif
