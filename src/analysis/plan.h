/* plan.h: a packing plan with parking (the packing-order analysis of
 * FESS-style solvers; seed 000's packing order, seed 001's goal traps), as
 * the base search (search/basesearch.h) gives it: steps "a box onto
 * square s", in the order the forward search should reach them. A box may
 * stop on a square that is no goal (it is parked there) and move on at a
 * later step, recorded as the step's `until`. Boxes the search left
 * standing come first as steps of their own (the box must be there before
 * the rest can follow). Here: what a search reads off a plan in a
 * position (steps done, boxes out of plan) and the out-of-plan zones.
 *
 * The plan is a guide, not knowledge: searches use it to rank positions
 * and to advise moves, never to prune. */
#ifndef KEEPER_PLAN_H
#define KEEPER_PLAN_H

#include <stdint.h>
#include "../core/position.h"

typedef struct plan_step {
    sq_t sq;       /* a box stands here once the step is done */
    sq_t from;     /* where that box comes from (a base, or an earlier step's
                      square); SQ_NONE for the steps of boxes left standing */
    int32_t until; /* the later step that moves this box on, or -1: it stays */
} plan_step;

typedef struct plan {
    int n;             /* steps; 0 = no plan */
    plan_step *step;   /* [n] */
    int complete;      /* every box traced back to a base */
    int left;          /* boxes the search left standing off a base */
    int parked;        /* steps that move a box onto a square that is no goal */
    uint64_t *zone;    /* [(n + 1) * zw] out-of-plan zones, per steps done */
    int zw;            /* words per zone */
    uint64_t nodes;    /* positions the base search stored */
    uint64_t expanded; /* positions it expanded */
    int order;         /* the search's order: PLAN_BY_DONE or PLAN_BY_CELLS */
    int passed_over;   /* PLAN_PICK_SIMPLER: the other order's plan (its
                          search perhaps held short) was passed over */
} plan;

enum { PLAN_BY_DONE, PLAN_BY_CELLS };

void plan_free(plan *pl);

/* Fills pl->zone and pl->zw for the steps of pl (the base search calls it
 * once the steps are known). Returns 0, or -1 when memory runs out. */
int plan_build_zones(plan *pl, const board *b);

/* Steps of the plan done in p: the largest m such that each step k < m is
 * done (its square holds a box) or already over (its box has moved on at
 * a step before m). scratch holds pl->n + 2 ints. */
int plan_packed(const plan *pl, const position *p, int *scratch);

/* Boxes of p out of the plan once `packed` steps are done: boxes on
 * squares from which a lone box can be pushed to none of the squares of
 * the steps still to come, with the boxes placed for good by the steps
 * done standing as walls (dead squares excepted). Each zone is looked at
 * one change early: the steps before the zone grows use the grown zone,
 * so a box is cleared out of an area before the plan closes it. */
int plan_oop(const plan *pl, const position *p, int packed);

#endif
