/* layer.h: the deadlock layer: the detectors a search prunes with, set up
 * and freed together from one configuration (A*, FESS, and the soundness
 * audit with every detector on).
 *
 *  - dl_config: which detectors run; the searches' configurations embed it
 *    (astar_config.dl, fess_config.dl), and the driver fills it once from
 *    the options.
 *  - dl_layer: their contexts. A detector that is off is left unset (its
 *    board pointer NULL, or capsets with no sets), so a test of it is cheap.
 *  - dl_push_dead: the tests on the square a push has just filled, the
 *    ones both searches make for every child while generating (freeze,
 *    small patterns, capacity-counted sets), counted in the statistics.
 *    The tests that need the player's region or a search (fixed boxes,
 *    learned patterns, PI-corrals, the corral and local searches) stay
 *    where each search makes them (A* on every child, FESS lazily on the
 *    child it expands), through the contexts here.
 *
 * Every detector is sound (its header gives the argument): a position it
 * calls dead has no solution. */
#ifndef KEEPER_LAYER_H
#define KEEPER_LAYER_H

#include "capsets.h"
#include "corral.h"
#include "fixed.h"
#include "freeze.h"
#include "patterns.h"
#include "stuck.h"
#include "subset.h"
#include "../util/mem.h"

typedef struct dl_config {
    int freeze;          /* freeze deadlocks */
    int patterns;        /* small-pattern table: 0 off, 3 3x3, 4 4x3/3x4 windows */
    int fixed;           /* matching deadlock with fixed boxes as walls */
    int capsets;         /* capacity-counted sets of the reversible regions */
    int corrals;         /* PI-corral pruning */
    int deadlock_search; /* positions per corral deadlock search (0 = off;
                            needs corrals) */
    int local;           /* local deadlock search around the moved box */
    int stuck;           /* learned deadlock patterns (deadlock/stuck.h) */
} dl_config;

/* How big the local deadlock searches are (subset.h: LOCAL_* for FESS,
 * ASTAR_LOCAL_* for A*, which runs one on every position it stores). */
typedef struct dl_sizes {
    int local_limit;     /* reduced positions per local search */
    int local_max_boxes; /* boxes kept */
} dl_sizes;

/* Corral deadlock searches keep at most this many boxes. */
#define DL_SUBSET_MAX_BOXES 64

typedef struct dl_layer {
    dl_config cfg;   /* a copy of dl_init's */
    freeze_ctx fz;   /* always set up (cheap; also a helper of others) */
    patterns pat;    /* cfg->patterns; pat.b set */
    fixed_ctx fx;    /* always set up; tested with cfg->fixed */
    capsets cs;      /* cfg->capsets; cs.nsets 0 when off or out of memory */
    corral_ctx cc;   /* always set up; pruning with cfg->corrals */
    subset_ctx sub;  /* corral deadlock searches (corrals and
                        deadlock_search > 0); sub.b set */
    subset_ctx loc;  /* local deadlock searches, xy relaxation (cfg->local);
                        loc.b set */
    stuck_table stk; /* learned patterns (cfg->stuck); stk.b set */
    size_t charged;  /* bytes of dl_held taken from a budget (dl_charge) */
} dl_layer;

/* Sets up the detectors c asks for on board b (analysed). */
void dl_init(dl_layer *d, const board *b, const dl_config *c, const dl_sizes *s);
void dl_free(dl_layer *d);

/* The bytes the detectors hold: set up by dl_init, and growing while a
 * search runs (the fixed boxes' reach tables, learned patterns). */
size_t dl_held(const dl_layer *d);
/* Takes from m what dl_held has grown by since the last call: 0, or -1
 * (nothing taken) when the budget cannot give it; the search owning the
 * layer then stops with "memory limit". The searches call it after dl_init
 * and at their progress checks; dl_uncharge gives it all back (before
 * dl_free). */
int dl_charge(dl_layer *d, membudget *m);
void dl_uncharge(dl_layer *d, membudget *m);

/* Which test dl_push_dead found the position dead by. */
enum { DL_ALIVE = 0, DL_FREEZE, DL_PATTERN, DL_CAPSET };

/* The position p, whose last push moved a box from `from` to `to`: dead by
 * a freeze deadlock around `to`, a small pattern at `to`, or a
 * capacity-counted set the push breaks (cs counted on p's parent, see
 * capsets.h), tested in that order; the cut is counted in st (cut_freeze,
 * cut_patterns, cut_capsets). Returns DL_ALIVE or the test that cut. */
int dl_push_dead(dl_layer *d, const position *p, sq_t from, sq_t to, stats *st);

#endif
