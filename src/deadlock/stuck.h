/* stuck.h: learned deadlock patterns (seed 000's "hindsight"; the stuck
 * patterns of Festival-style solvers).
 *
 * A pattern is a set B of box squares and a set R of player squares: every
 * position with a box on each square of B and the player on a square of R
 * is dead. Why: R is one player region of the board holding B's boxes
 * alone, and that reduced position was proven unable to put all of B on
 * goals (an xy subset search, subset.h). Any position holding B's boxes
 * and more, with the player in R, relaxes to that reduced position (the
 * other boxes' pushes dropped, the player walking where they stood), so a
 * solution of it would solve the reduced one.
 *
 * Learning (stuck_learn), for a position a search suspects (its subtree
 * keeps growing while nothing below it succeeds): boxes the player can
 * push along a row and along a column are taken off one at a time, the
 * player's region recomputed after each; when at most STUCK_MAX_BOXES are
 * left, the xy search tries to prove them stuck (STUCK_LIMIT states). A
 * proven set is shrunk (each box dropped in turn when the rest stays
 * proven) and stored with its player region. The table holds at most
 * STUCK_MAX_PATTERNS; later proofs still answer, unstored.
 *
 * Matching (stuck_match) walks the patterns anchored on the position's box
 * squares: a pattern is anchored on one of its squares, so each is tested
 * at most once per position, in O(boxes) when none is anchored there.
 * Nothing is allocated after stuck_init. */
#ifndef KEEPER_STUCK_H
#define KEEPER_STUCK_H

#include "../core/position.h"
#include "subset.h"
#include "../util/stats.h"

#define STUCK_MAX_BOXES 64
#define STUCK_MAX_PATTERNS 2048
/* The searches test a position when this many expansions have been made
 * below it (its subtree, itself included), and again each time that count
 * grows STUCK_AGAIN-fold, STUCK_ROUNDS tests in all; round r's proof search
 * visits at most STUCK_LIMIT << (STUCK_LIMIT_SHIFT * r) states. */
#define STUCK_AT 64
#define STUCK_AGAIN 16
#define STUCK_ROUNDS 3
#define STUCK_LIMIT 500
#define STUCK_LIMIT_SHIFT 3

typedef struct stuck_table {
    const board *b;
    int n;             /* patterns stored */
    uint32_t words;    /* 64-bit words of a region bitset */
    sq_t *sq;          /* [nsqpool] the patterns' squares, one after the other */
    uint32_t nsqpool, sqcap;
    uint32_t *start;   /* [STUCK_MAX_PATTERNS + 1] pattern j: sq[start[j] .. start[j+1]) */
    uint64_t *region;  /* [STUCK_MAX_PATTERNS * words] player squares */
    uint32_t *head;    /* [nsq] first pattern anchored on the square, or UINT32_MAX */
    uint32_t *next;    /* [STUCK_MAX_PATTERNS] next pattern on the same anchor */
    uint32_t *anchored; /* [nsq] patterns anchored on the square */
    subset_ctx xy;     /* the proofs (xy.b set at the first stuck_learn) */
    uint8_t *on;       /* [nsq] scratch: a box kept on the square */
    uint32_t *mark;    /* [nsq] flood stamps */
    uint32_t ts;
    sq_t *stack;       /* [nsq] */
    sq_t *kept;        /* [nboxes] */
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} stuck_table;

void stuck_init(stuck_table *t, const board *b);
void stuck_free(stuck_table *t);

/* Whether p holds a stored pattern (p->player is the player's square). */
int stuck_match(const stuck_table *t, const position *p);

/* Stores the boxes[0..k) with the player on `player` as a pattern: a set
 * `proof` (an exhaustive search of subset.h) proved dead. It is shrunk with
 * proof first (each box dropped while the rest stays proven). Sets of more
 * than STUCK_ADD_MAX boxes are not stored. */
#define STUCK_ADD_MAX 12
void stuck_add(stuck_table *t, subset_ctx *proof, const sq_t *boxes, int k, sq_t player,
               stats *st);

/* Tries to prove p dead as above, in round `round` (0 .. STUCK_ROUNDS-1);
 * stores the pattern found. Returns 1 when p is proven dead. Counts
 * stuck_tests and stuck_learned in st. */
int stuck_learn(stuck_table *t, const position *p, int round, stats *st);

#endif
