/* rearrange.h: rearrangements (seed 002): the solution's own pushes in
 * another order, or with a loop of pushes left out.
 *
 * A solution is read as its pushes (the box's square and the direction)
 * grouped in sessions: maximal runs of consecutive pushes of one box. The
 * candidates, each a whole new solution with every player walk rebuilt as
 * a shortest walk:
 *   - loop cuts: where the boxes stand on the same squares after push i
 *     and after a later push j, pushes i+1 .. j are left out (the longest
 *     loop from each i);
 *   - joins: the next session of the same box moved up to right after a
 *     session, or a session moved down to right before the next session
 *     of its box (the box then travels in one go);
 *   - swaps: two neighbouring sessions of different boxes exchanged.
 * Within a join or a swap every box keeps its own pushes in their order,
 * so the boxes end where the solution leaves them; a loop cut skips pushes
 * that change nothing. A candidate that cannot be played (a walk or a push
 * blocked in the new order) is skipped. The caller replays each candidate
 * and keeps it only when it is better in its metric order. */
#ifndef KEEPER_REARRANGE_H
#define KEEPER_REARRANGE_H

#include "../core/board.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../core/solution.h"

typedef struct rearr_push {
    sq_t from;   /* the box's square before the push */
    uint8_t dir; /* DIR_* */
} rearr_push;

/* The pushes of one solution, the candidates derived from them, and the
 * scratch to play them. */
typedef struct rearr {
    const board *b;
    int npushes;
    rearr_push *push; /* [npushes] */
    int nsess;
    int *sess;        /* [nsess + 1] first push of each session; sess[nsess] = npushes */
    int *sess_box;    /* [nsess] the box (by start square index) */
    int ncuts;
    int (*cut)[2];    /* [ncuts] loops: pushes cut[k][0] .. cut[k][1] - 1 left out */
    int *order;       /* [npushes] scratch: push indices in candidate order */
    position pos;
    reach r;
    uint8_t *walk;    /* [nsq] */
} rearr;

/* Reads the pushes of `mv`, a legal solution of b (replayed). */
void rearr_init(rearr *r, const board *b, const movelist *mv);
void rearr_free(rearr *r);

/* The number of candidates (loop cuts, joins, swaps). */
int rearr_count(const rearr *r);

/* Writes candidate k (0 <= k < rearr_count) into out (cleared first).
 * Returns 0, or -1 when the candidate is the solution itself or cannot be
 * played. */
int rearr_candidate(rearr *r, int k, movelist *out);

#endif
