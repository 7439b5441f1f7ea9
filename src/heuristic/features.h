/* features.h: the features of a position that the feature-space search
 * (search/fess.c) files positions by (Shoham and Schaeffer's FESS):
 *
 *  - packed: how far the goal-filling plan has got. With a packing plan
 *    (analysis/plan.h), the steps of the plan done, parking included.
 *    Else with a packing order
 *    (analysis/packing.h), the sum over its rooms of the length of the
 *    filled prefix of the room's order: a box counts only once every goal
 *    to be filled before it in its room holds a box, so boxes placed early
 *    are not rewarded (YASS's stampede lesson). Without an order, the
 *    boxes on goals. Higher is better.
 *  - connectivity: the number of 4-connected regions of free floor (boxes
 *    and walls separate them; every region counts, not only the
 *    player's). At least 1 when the board has free floor; lower is better.
 *  - rooms: the links between rooms that boxes cut (analysis/rooms.h);
 *    lower is better; 0 when the level has no room analysis.
 *  - out of plan: with a packing plan, the boxes standing where no step
 *    still to come can use them (plan_oop); lower is better.
 *
 * A feature vector folds into a 32-bit rank, smaller is better, compared
 * field by field in the order packed, connectivity, rooms, out of plan;
 * the rank is also the key of a feature-space cell. */
#ifndef KEEPER_FEATURES_H
#define KEEPER_FEATURES_H

#include <stdint.h>
#include "../analysis/packing.h"
#include "../analysis/plan.h"
#include "../core/position.h"
#include "../core/reach.h"

typedef struct feat {
    int packed;
    int conn;
    int rooms;
    int oop;
} feat;

typedef struct feat_ctx {
    const board *b;
    const packing *pk;  /* NULL or pk->n == 0: boxes on goals count */
    const plan *pl;     /* NULL, or a plan that takes the order's place */
    int *pscratch;      /* [pl->n + 2] */
    int *filled;        /* [nrooms] scratch: goals filled so far per room */
    uint32_t *stamp;    /* [nsq] connectivity flood */
    uint32_t ts;
    sq_t *stack;        /* [nsq] */
} feat_ctx;

/* pl, when not NULL and not empty, counts packed boxes instead of pk:
 * the steps of the plan done (plan_packed). */
void feat_init(feat_ctx *c, const board *b, const packing *pk, const plan *pl);
void feat_free(feat_ctx *c);

/* Packed boxes of p (see above). */
int feat_packed(const feat_ctx *c, const position *p);
/* Boxes of p out of the plan (plan_oop) with `packed` steps done; 0
 * without a plan. */
int feat_oop(const feat_ctx *c, const position *p, int packed);
/* The square the plan fills next in p, `packed` steps being done: the
 * plan's next step, or the first empty goal of the packing order; SQ_NONE
 * without either or when all is done. */
sq_t feat_next_square(const feat_ctx *c, const position *p, int packed);
/* Regions of free floor in p. r: NULL, or the player's region in p just
 * computed (reach_compute), which then counts as one region unflooded. */
int feat_connectivity(feat_ctx *c, const position *p, const reach *r);

/* The rank of a feature vector: smaller is better; each field is clamped
 * to a byte. */
static inline uint32_t feat_rank(const feat *f)
{
    uint32_t packed = f->packed > 255 ? 255u : (uint32_t)f->packed;
    uint32_t conn = f->conn > 254 ? 254u : (uint32_t)f->conn;
    uint32_t cut = f->rooms > 254 ? 254u : (uint32_t)f->rooms;
    uint32_t oop = f->oop > 254 ? 254u : (uint32_t)f->oop;
    return (255u - packed) << 24 | conn << 16 | cut << 8 | oop;
}
static inline int rank_packed(uint32_t r) { return 255 - (int)(r >> 24); }
static inline int rank_conn(uint32_t r) { return (int)(r >> 16 & 0xFF); }
static inline int rank_rooms(uint32_t r) { return (int)(r >> 8 & 0xFF); }
static inline int rank_oop(uint32_t r) { return (int)(r & 0xFF); }

#endif
