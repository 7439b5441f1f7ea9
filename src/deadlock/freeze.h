/* freeze.h: freeze deadlocks. A box is frozen when it can move along
 * neither axis: on each axis a wall on one side, dead squares on both
 * sides, or a frozen box on one side (boxes already under examination
 * count as walls, so a group of boxes that lock each other is frozen
 * together). A frozen box off its goal, or a frozen group with any box off
 * a goal, can never be solved.
 *
 * Checked incrementally: only the box just pushed (and the boxes its
 * freezing depends on) is examined. The check is sound: it never calls a
 * solvable position dead (tested against exhaustive search). */
#ifndef KEEPER_FREEZE_H
#define KEEPER_FREEZE_H

#include "../core/position.h"

typedef struct freeze_ctx {
    uint8_t *mark;   /* [nsq] boxes under examination */
    sq_t *frozen;    /* boxes found frozen in the current check */
    int nfrozen;
    int budget;      /* recursion steps left in this check */
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} freeze_ctx;

void freeze_init(freeze_ctx *f, const board *b);
void freeze_free(freeze_ctx *f);

/* Whether the box on `s` (just pushed there) is part of a frozen group that
 * has a box off a goal. Needs b->dead (dead squares). */
int freeze_deadlock(freeze_ctx *f, const position *p, sq_t s);

/* The same for the push of box `box` from `from` to `to` (free) on a
 * shell: a position of which only box_at and boxes are kept, as the
 * searches of reduced positions hold (deadlock/subset.c,
 * heuristic/penalty.c). The push is made for the check and undone. */
int freeze_after_push(freeze_ctx *f, position *shell, int box, sq_t from, sq_t to);

#endif
