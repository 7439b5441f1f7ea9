/* zones.h: the box zones of a board. Two live squares (not dead) are in one
 * zone when a lone box can be pushed from one to the other, in either
 * direction: the connected components of the push graph (an edge s-n when
 * a box on s can be pushed onto n, the player standing on the square
 * behind s), other boxes and the player's reach ignored. No box ever
 * leaves its zone, so a zone holding more boxes than goals makes the level
 * unsolvable, and a level whose zones each hold as many boxes as goals is
 * a set of sub-levels that share the board and the player: solved one
 * zone at a time, the other zones' boxes standing still as walls (the
 * solver's --zones), as long as no zone needs another's boxes moved to
 * let the player through. */
#ifndef KEEPER_ZONES_H
#define KEEPER_ZONES_H

#include "../core/board.h"

typedef struct zones {
    int n;          /* zones (each holds a goal) */
    int16_t *of;    /* [nsq] zone of a live square, -1 for a dead one */
    int *boxes;     /* [n] boxes that start in the zone */
    int *goals;     /* [n] goals in the zone */
    int active;     /* zones with a box that starts off a goal */
    int balanced;   /* every zone holds as many boxes as goals */
} zones;

/* Finds the zones of b (distance_analyze has run: b->dead is set; no box
 * starts on a dead square). Returns 0, or -1 when out of memory. */
int zones_find(const board *b, zones *z);
void zones_free(zones *z);

#endif
