/* subset.h: deadlock proof by a small exhaustive search on a subset of the
 * boxes (corral foresight, seed 000; the idea behind Festival-style corral
 * deadlock searches).
 *
 * Take some boxes of a position and remove all the others. The reduced
 * problem asks only that the kept boxes end on goals (any goals). It is a
 * relaxation: any solution of the full position, with the removed boxes'
 * pushes dropped, is a solution of the reduced one (the player walks where a
 * removed box stood, and nothing else changes). So when an exhaustive search
 * of the reduced problem finds no solution, the full position is dead.
 *
 * The search explores at most `limit` reduced positions; when it hits the
 * limit it answers "not proven" (always safe). It prunes with dead squares
 * and freeze deadlocks, which stay sound in the reduced problem. Results
 * are cached by the kept boxes' squares and the player's normalized square
 * (a direct-mapped table, so answers stay deterministic); a search that hit
 * its limit is made again under a larger one. Nothing is
 * allocated after subset_init.
 *
 * The xy variant (s->xy) relaxes further: a box the player can push both
 * along a row and along a column is taken off the board, and the search
 * succeeds when every box left stands on a goal. Taking a box off never
 * makes the rest harder (its goal need not be reached, and it blocks
 * nothing), so a proof stays a proof; the searches end much sooner, which
 * makes them cheap enough to run on a small neighbourhood of each moved
 * box (a local deadlock test). */
#ifndef KEEPER_SUBSET_H
#define KEEPER_SUBSET_H

#include "../core/position.h"
#include "corral.h"
#include "freeze.h"
#include "../util/stats.h"

typedef struct subset_ctx {
    const board *b;
    int limit;        /* reduced positions per search (may change between
                         searches, up to max_limit) */
    int max_limit;    /* the limit given to subset_init (the room allocated) */
    int maxk;         /* most boxes kept */
    int xy;           /* take off a box as soon as it has a push along a row
                         and one along a column (set after subset_init) */
    position shell;   /* box_at/boxes of the reduced position (freeze reads them) */
    freeze_ctx fz;
    uint32_t *mark;   /* [nsq] reach stamps */
    uint32_t ts;
    sq_t *stack;      /* [nsq] */
    sq_t *states;     /* [limit * (maxk + 1)]: boxes in their order, then the player */
    uint64_t *hashes; /* [limit] Zobrist hash of each state's boxes */
    uint64_t *seen;   /* [tcap] keys of the states expanded in this search */
    uint32_t *seen_gen; /* [tcap] == gen: slot used in this search */
    uint32_t tcap, gen;
    uint64_t *cache_key; /* [ccap] key of the cached search */
    uint8_t *cache_val;  /* [ccap] 0 = empty, 1 = not proven, 2 = dead */
    uint32_t ccap;
    sq_t *kept;       /* [nboxes] the boxes of the last corral or local search */
    int nkept;        /* how many */
    uint64_t searches, proofs, cache_hits;
    size_t held; /* bytes allocated (util.h xmalloc_held), charged by the owner */
} subset_ctx;

/* limit: reduced positions per search (> 0); maxk: most boxes a search
 * keeps (larger subsets are not searched). Needs b->dead. */
void subset_init(subset_ctx *s, const board *b, int limit, int maxk);
void subset_free(subset_ctx *s);

/* Whether the k boxes on squares `boxes` (any order, k <= maxk), alone on
 * the board with the player on `player`, provably cannot all reach goals.
 * Returns 1 = dead (proven), 0 = not proven. */
int subset_dead(subset_ctx *s, const sq_t *boxes, int k, sq_t player);

/* The corral deadlock search of a PI-corral: whether the boxes c->best_fence
 * that corral_prune just chose for position p, alone on the board with the
 * player, are proven stuck. 0 (not proven) when the corral has more than
 * s->maxk boxes. Counts subset_searches and subset_deadlocks in st. */
int subset_corral_dead(subset_ctx *s, const corral_ctx *c, const position *p, stats *st);

/* The local deadlock search of the searches: the boxes kept around the
 * moved box (within LOCAL_RADIUS squares on both axes, nearest first), and
 * the states one search may visit. The feature-space search runs it once
 * per expansion, with a state limit of LOCAL_PER_MOVE per macro move an
 * expansion makes on average, between LOCAL_MIN_LIMIT and LOCAL_LIMIT; A*,
 * which runs it on every position it stores, keeps it smaller
 * (ASTAR_LOCAL_*). */
#define LOCAL_MAX_BOXES 7
#define LOCAL_RADIUS 3
#define LOCAL_LIMIT 300
#define LOCAL_MIN_LIMIT 50
#define LOCAL_PER_MOVE 6
#define LOCAL_PRIOR_MOVES 50
#define LOCAL_PRIOR_WEIGHT 1000
#define ASTAR_LOCAL_MAX_BOXES 5
#define ASTAR_LOCAL_RADIUS 2
#define ASTAR_LOCAL_LIMIT 100

/* The boxes of p near square `to` (a box's square): `to` first, then the
 * boxes within `radius` squares on both axes, nearest (Manhattan) first,
 * at most maxk in all. Returns how many were written to kept. */
int subset_near(const position *p, sq_t to, int radius, int maxk, sq_t *kept);

/* The same for every PI-corral corral_prune found (c->all_fence), the
 * chosen one first: 1 when some corral's boxes are proven stuck. */
int subset_corrals_dead(subset_ctx *s, const corral_ctx *c, const position *p, stats *st);

/* The local deadlock search of position p, whose last push put a box on
 * `to`: that box and the boxes near it (subset_near, at most s->maxk),
 * alone with the player (s is meant to be an xy context). Counts
 * local_searches and cut_local in st. */
int subset_local_dead(subset_ctx *s, const position *p, sq_t to, int radius, stats *st);

#endif
