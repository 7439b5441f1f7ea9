/* fixed.h: fixed boxes, and the matching deadlock with fixed boxes as
 * walls (the "fixed box" idea of FESS-style solvers).
 *
 * A box on a goal is fixed when it can never move again: on each axis a
 * wall or a fixed box stands next to it (a push along an axis needs both
 * squares of the axis free, one for the box and one for the player). The
 * set grows to a fixed point from the walls inwards, so each box is fixed
 * only because walls and boxes fixed before it hold it.
 *
 * Fixed boxes are walls for good. Every other box must still reach a goal
 * of its own among the goals not fixed: on the board with the fixed squares
 * walled off, a lone box's reach (pull searches from each free goal over
 * (box square, player side), as analysis/distance.c does on the empty
 * board, so a box that the fixed boxes cut off from the player's side is
 * seen as stuck) must allow a perfect matching of the free boxes to the
 * free goals. When none exists the position is dead. The test only
 * relaxes (other boxes ignored), so it never calls a solvable position
 * dead. Reaches are cached per set of fixed squares (keyed by its Zobrist
 * hash: two sets with one 64-bit key are taken to be the same). */
#ifndef KEEPER_FIXED_H
#define KEEPER_FIXED_H

#include "../core/position.h"

typedef struct fixed_entry {
    uint64_t key;   /* Zobrist hash of the fixed squares; 0 = empty entry */
    uint8_t *reach; /* [nsq * ngoals]: 1 when a lone box on s reaches goal g */
} fixed_entry;

typedef struct fixed_ctx {
    const board *b;
    int nsq, ngoals;
    board sub;          /* b with the fixed squares walled off (own nb) */
    sq_t (*nb)[4];      /* [nsq][4] sub's neighbours */
    uint8_t *fixed;     /* [nsq] scratch: the fixed squares of the position */
    sq_t *flist;        /* [nboxes] the fixed squares, nfixed of them */
    int nfixed;
    uint16_t *sd;       /* [4 * nsq] */
    int32_t *queue;     /* [4 * nsq] */
    fixed_entry *cache; /* [FIXED_CACHE] direct mapped */
    int *match_goal;    /* [ngoals] box matched to each goal, or -1 */
    int *seen;          /* [ngoals] */
    int seen_stamp;
    int *boxes;         /* [nboxes] free boxes (indices) */
    int *goals;         /* [ngoals] free goals (indices) */
    int nfree_boxes, nfree_goals;
    uint64_t misses;    /* reach tables computed */
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} fixed_ctx;

void fixed_init(fixed_ctx *c, const board *b);
void fixed_free(fixed_ctx *c);

/* Marks the fixed boxes of p in c->fixed (and c->flist); returns how many. */
int fixed_find(fixed_ctx *c, const position *p);

/* Whether p is dead by the matching with fixed boxes as walls (0 when no
 * box is fixed). */
int fixed_deadlock(fixed_ctx *c, const position *p);

#endif
