/* hotspot.h: hotspots, a feature of the feature-space search (the
 * "hotspots" advisor of Shoham and Schaeffer's FESS): a box off its goal
 * that gets in the way of another box off its goal.
 *
 * Box a is in the way of box b when a wall on a's square would take some
 * goal out of the reach of a lone box on b's square: pushes of a lone box,
 * the player assumed able to stand wherever the square behind the box is
 * floor. The pairs are computed once per level (a pull search from every
 * goal on the empty board, then again with each square walled, only for
 * the goals whose reach contained it). A position's hotspots are the
 * boxes off goal that are in the way of at least one other box off goal.
 *
 * It is guidance only (an advisor names the best child with fewer
 * hotspots than its parent); nothing is pruned with it. Levels whose table
 * would cost too much to build get none (hotspot_count answers 0). */
#ifndef KEEPER_HOTSPOT_H
#define KEEPER_HOTSPOT_H

#include <stdint.h>
#include "../core/position.h"

/* Largest nsq * nsq * goals the table is built for (about 0.1 s). */
#define HOTSPOT_MAX_WORK 40000000ull

typedef struct hotspot {
    const board *b;
    int words;        /* 64-bit words of a square set */
    uint64_t *in_way; /* [nsq * words]: row a = the squares b that a is in the way of;
                         NULL when the level has no table */
    uint64_t *off;    /* [words] scratch: the squares of the boxes off goal */
} hotspot;

/* Builds the table of board b (after distance_analyze). A deadline
 * (timer_now_ns's clock; 0: none) that passes while it is built leaves
 * the level without a table, as one too large to build. */
void hotspot_init(hotspot *h, const board *b, int64_t deadline_ns);
void hotspot_free(hotspot *h);

/* Hotspots of position p; also keeps p's boxes off goal in h for
 * hotspot_count_moved. */
int hotspot_count(hotspot *h, const position *p);
/* The same for p with the box on `from` moved to `to` (p itself unchanged),
 * in O(boxes): hotspot_count(h, p) must be the last count made, so the
 * children of one position cost no rebuild of its boxes. */
int hotspot_count_moved(hotspot *h, const position *p, sq_t from, sq_t to);

/* Whether box square a is in the way of box square b (the table; 0 without one). */
int hotspot_in_way(const hotspot *h, sq_t a, sq_t b);

#endif
