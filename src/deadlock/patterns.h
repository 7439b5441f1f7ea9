/* patterns.h: the small-pattern deadlock table. Every box configuration in
 * a small window of the board (3x3, and 4x3 / 3x4 when asked) is decided
 * once per level by exhaustive search of an abstract game; after a push the
 * windows around the pushed box are looked up.
 *
 * The abstract game of a window W holding the box set S (boxes inside W
 * only; the board's walls, goals and dead squares are the real ones):
 *  - the player may stand on any square that is no wall and holds no box
 *    of S, at any time (it "walks anywhere");
 *  - a box of S on a may be pushed from a to a+d when a-d and a+d are
 *    walls of neither kind, hold no box of S, and a+d is not a dead square;
 *  - a box pushed out of W (a+d outside W) leaves the game;
 *  - the game is won when every box still in W stands on a goal.
 * A window configuration is dead when the game cannot be won from it.
 *
 * Why a dead window makes the real position dead. Take a real solution and
 * follow the boxes that start in W, dropping each the first time it leaves
 * W. At every moment the boxes of the abstract game are a subset of the real
 * boxes (on the same squares), so each real push of a followed box is legal
 * in the abstract game: the real player's square and the target square are
 * free in the real position, hence free of followed boxes; walls and dead
 * squares are the real ones (no solution pushes a box onto a dead square),
 * and the abstract player may stand anywhere free. Pushes of other boxes
 * and the player's walks are simply dropped. At the end every real box is
 * on a goal, so every followed box still in W is on a goal: the abstract
 * game is won. Hence: no abstract win => no real solution. Nothing is
 * assumed about the squares outside W but their walls and dead marks,
 * which are part of the board; the boxes there (and the player's real
 * region) only constrain the real game further.
 *
 * Two consequences the lookup uses: the verdict is monotone in the boxes
 * (more boxes in W never make a dead window alive; the same projection
 * argument) and in the window (a dead window stays dead inside any larger
 * window containing it). So the 2x2, 2x3 and 3x2 windows need no table of
 * their own: each lies in a 3x3 window, and a 3x3 in a 4x3 or 3x4 one.
 *
 * Building: only the walls, goals and dead squares of W and of the ring of
 * squares beside it (the corners excluded) matter, so placements with the
 * same "signature" share one table. A table is a bitset over the subsets
 * of W's cells, filled by a backward breadth-first search from the won
 * configurations (pulls); a placement whose table has no dead bit gets no
 * table. Lookups allocate nothing. Deterministic. */
#ifndef KEEPER_PATTERNS_H
#define KEEPER_PATTERNS_H

#include "../core/position.h"

#define PAT_NONE UINT32_MAX
#define PAT_MAX_SHAPES 3

typedef struct pat_shape {
    int w, h;         /* window width and height */
    int pw, ph;       /* placements per row and column: width + w - 1, height + h - 1 */
    uint32_t *place;  /* [pw * ph] table of the window whose top-left cell is
                         (row - (h - 1), col - (w - 1)), or PAT_NONE */
    uint32_t words;   /* 64-bit words of one table: 2^(w*h) / 64 */
} pat_shape;

typedef struct patterns {
    const board *b;
    int nshape;
    int half;         /* the windows around a square reach this far from it */
    pat_shape shape[PAT_MAX_SHAPES];
    uint64_t *bits;   /* the tables of every shape, one after the other */
    uint32_t nbits_words;
    int ntables;      /* distinct tables with a dead configuration */
    int nsignatures;  /* distinct signatures decided */
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} patterns;

/* Builds the tables of b (analysed: b->dead is used). large = 0: 3x3
 * windows only; 1: 4x3 and 3x4 windows (which contain the 3x3 ones). */
void patterns_init(patterns *pt, const board *b, int large);
void patterns_free(patterns *pt);

/* Whether a window containing s (normally the square a push just put a box
 * on) holds a dead configuration of p's boxes. */
int patterns_dead(const patterns *pt, const position *p, sq_t s);

/* Whether the boxes on squares sq[0..n) (no position needed) fill some
 * window with a dead configuration; a slow check for tests. */
int patterns_dead_set(const patterns *pt, const sq_t *sq, int n);

#endif
