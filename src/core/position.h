/* position.h: the dynamic state of a level: box squares, the player, the
 * Zobrist hash of the box set. Pushes are made and unmade with undo
 * records; nothing is allocated after pos_init. */
#ifndef KEEPER_POSITION_H
#define KEEPER_POSITION_H

#include <stdbool.h>
#include "board.h"

#define NO_BOX ((uint16_t)0xFFFF)

typedef struct position {
    const board *b;
    sq_t player;      /* the player's actual square */
    uint16_t *box_at; /* [nsq] index of the box on a square, or NO_BOX */
    sq_t *boxes;      /* [nboxes] square of each box */
    uint64_t hash;    /* XOR of b->zbox over box squares */
    int on_goal;      /* boxes standing on goals */
} position;

/* What pos_push changed, so that pos_undo can restore it exactly. */
typedef struct undo_rec {
    uint16_t box;
    sq_t from, to; /* box squares before and after */
    sq_t player;   /* player square before */
} undo_rec;

/* Sets up the level's start position. */
void pos_init(position *p, const board *b);
void pos_free(position *p);
/* Puts boxes on `squares` (nboxes of them) and the player on `player`. */
void pos_set(position *p, const sq_t *squares, sq_t player);
/* Copies the state of `src` into `dst` (both initialized on one board). */
void pos_copy(position *dst, const position *src);

/* Pushes the box on `from` `len` squares in direction `dir`; the player ends
 * on the square behind the box. Contract: the squares on the way are free
 * floor (callers check); `u` receives the undo record. */
void pos_push(position *p, sq_t from, int dir, int len, undo_rec *u);
void pos_undo(position *p, const undo_rec *u);
/* Moves the box on `from` to `to` (any free square) and the player to
 * `player`: the end of a macro move whose pushes were checked elsewhere. */
void pos_relocate(position *p, sq_t from, sq_t to, sq_t player, undo_rec *u);

static inline bool pos_solved(const position *p) { return p->on_goal == p->b->nboxes; }
static inline bool pos_free_sq(const position *p, sq_t s)
{
    return s != SQ_NONE && p->box_at[s] == NO_BOX;
}

/* Debug check: recomputes everything from scratch; returns 0 when
 * consistent, else a nonzero code naming the first broken invariant. */
int pos_check(const position *p);

#endif
