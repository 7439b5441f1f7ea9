/* corral.h: PI-corral pruning (seed 000, Meger's insight; combined corrals
 * after Damgaard).
 *
 * A corral is a region of free squares the player cannot reach. Take a set
 * S of such squares and a set F of boxes containing every box next to S.
 * Suppose that
 *   (a) some box of F is off its goal, or S holds an empty goal, so a box of
 *       F must be pushed in every solution;
 *   (b) every push of an F box that the player could make from outside S
 *       before any F box has moved goes into S (pushes onto dead squares
 *       never belong to a solution and are ignored);
 *   (c) each of those inward pushes can be made now.
 * Then some solution starts with one of those inward pushes: the first
 * F push of any solution is one of them, and pulling it to the front keeps
 * every earlier push legal (they never touch S or F's squares) and the push
 * count unchanged. So the search may generate only the inward pushes of F,
 * without losing push-optimality; when there are none, the position is a
 * deadlock.
 *
 * When a push breaks (b) or (c) only because its player square lies in
 * another corral, that corral joins S; when it needs a box outside F to
 * move first, that box joins F. The closure either fails (an outward push
 * is available now, or (a) fails) or yields a combined PI-corral. Every
 * corral next to a box the player can reach is tried as a seed; the one
 * allowing the fewest pushes wins. */
#ifndef KEEPER_CORRAL_H
#define KEEPER_CORRAL_H

#include "../core/position.h"
#include "../core/reach.h"

/* Corrals tried as seeds per position. */
#define CORRAL_MAX_SEEDS 16

typedef struct corral_ctx {
    /* The corrals of the position, labelled on demand, once per call of
     * corral_prune: region[s] is the corral of free unreachable square s
     * when lab[s] == call; per corral: whether it holds a goal, and the
     * boxes next to it (rbox[reg_box[id]..reg_box[id + 1]), with repeats;
     * corrals are labelled one after the other, so each one's boxes start
     * where the previous one's end). */
    uint32_t *lab, call;
    uint32_t *region;
    uint32_t nregions;
    uint8_t *reg_goal;
    uint8_t *reg_seen;   /* corral already tried as a seed in this call */
    uint32_t *reg_mark;  /* == stamp: corral in S */
    uint32_t *reg_box;   /* [nsq + 1] */
    uint16_t *rbox;      /* [4 nsq] */
    uint32_t nrbox;
    uint32_t *box_mark; /* [nboxes] == stamp: box in F */
    uint32_t stamp;
    sq_t *queue;        /* [nsq] flood fill */
    uint16_t *work;     /* [nboxes] F boxes waiting to be checked */
    uint16_t *fence;    /* [nboxes] F boxes of the current attempt */
    int nfence;
    uint16_t *best_fence; /* F of the PI-corral corral_prune chose (in all_fence) */
    int nbest;
    uint8_t *allow_try; /* [nboxes] allowed directions of the current attempt */
    /* Every PI-corral corral_prune found, the chosen one included: the
     * boxes of corral i are all_fence[all_start[i]..all_start[i + 1]). */
    uint16_t *all_fence; /* [max_seeds * nboxes] */
    int all_start[CORRAL_MAX_SEEDS + 1];
    int nall;
    int max_seeds;      /* corrals tried per position */
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} corral_ctx;

void corral_init(corral_ctx *c, const board *b);
void corral_free(corral_ctx *c);

/* Looks for a PI-corral in position p, whose player region is r.
 * Returns -1 when none applies (all pushes must be generated). Otherwise
 * returns how many pushes are allowed (0 = the position is a deadlock),
 * sets allow[box] to a mask of the directions (1 << dir) allowed for each
 * box index (other boxes get 0), and leaves the corral's boxes F in
 * c->best_fence[0..c->nbest). Every PI-corral found on the way is listed
 * in c->all_fence (each is a proof target for a corral deadlock search). */
int corral_prune(corral_ctx *c, const position *p, const reach *r, uint8_t *allow);

#endif
