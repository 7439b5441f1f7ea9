/* reach.h: the player's reachable squares, with timestamps (seed 000):
 * each computation takes a fresh even stamp ts; reached floors are marked
 * ts, boxes bordering them ts + 1, so no array is ever cleared. The
 * normalized player square is the smallest reached square (top-left). */
#ifndef KEEPER_REACH_H
#define KEEPER_REACH_H

#include <stdbool.h>
#include "position.h"

typedef struct reach {
    uint32_t *stamp; /* [nsq] */
    uint32_t ts;     /* stamp of the latest computation (even) */
    sq_t *stack;     /* [nsq] work stack */
    sq_t *parent;    /* [nsq] BFS parents, for paths */
    int nsq;
} reach;

void reach_init(reach *r, int nsq);
void reach_free(reach *r);

/* Marks the squares the player reaches from `from` in position p (boxes
 * block). Returns the normalized (smallest) reachable square. */
sq_t reach_compute(reach *r, const position *p, sq_t from);

static inline bool reach_floor(const reach *r, sq_t s) { return r->stamp[s] == r->ts; }
static inline bool reach_box(const reach *r, sq_t s) { return r->stamp[s] == r->ts + 1; }

/* Takes a fresh stamp pair and returns it (for callers that run their own
 * flood fills, such as corral analysis). */
uint32_t reach_new_stamp(reach *r);

/* Shortest player walk from `from` to `to` in p (boxes block). Writes the
 * directions into dirs (room for nsq entries) and returns their count, or
 * -1 when `to` cannot be reached. */
int reach_path(reach *r, const position *p, sq_t from, sq_t to, uint8_t *dirs);

#endif
