/* backward.h: the backward search (seed 001: reverse search): pulls from
 * the solved position towards the level's start.
 *
 *  - A state is a box set and the player's region (normalized square), in
 *    the node store of the forward searches (nodes.h); positions are put on
 *    the board by walking parent links (pstack.h).
 *  - Roots: a box on every goal, one root per zone of free floor the goal
 *    boxes leave (the player may end a solution anywhere) that has a pull.
 *  - Moves: pull macro moves (boxpath_pulls): one box pulled along any
 *    path, the player walking freely between pulls; one move per
 *    destination square and player region, fewest pulls.
 *  - Goal: the start's box set with the start player inside the region.
 *  - Pruning, sound (a position from which the start can be reached by
 *    pulls is one reached from the start by pushes; nothing such is cut):
 *    a box stands only where some start square pushes a lone box, with the
 *    player on the side he is on (checked for every box the player
 *    touches); the boxes can be matched to distinct start squares, each
 *    pushing a lone box to its box.
 *  - Order: best first on the minimum matching of boxes to start squares
 *    by lone-box push distances, then fewer boxes off start squares, then
 *    fewer free-floor regions, then age.
 *  - The solution: the pulls from the root to the goal, read backwards,
 *    are macro pushes from the start (a pull of a box from a to c whose
 *    first pull went in direction d is a push of the box from c to a whose
 *    last push goes in direction -d), rebuilt and replayed as any other.
 *
 * Not push-optimal: the first solution found is returned. */
#ifndef KEEPER_BACKWARD_H
#define KEEPER_BACKWARD_H

#include "search.h"
#include "../core/position.h"

struct node_store;

/* backward_config.open */
#define OPEN_NEAREST 1
#define OPEN_MATCHED 2
#define OPEN_BICON 3

typedef struct backward_config {
    int reach;    /* a box only where a start square pushes a lone box */
    int matching; /* boxes matched to distinct start squares (minimum matching
                     as the heuristic; 0 = each box's nearest start square) */
    int check;    /* debug: check the position after every walk */
    int open;     /* 0, or the opening order (search/opening.h): fewest
                     free-floor regions, then fewest boxes no pull moves,
                     then the boxes farthest from the goals (OPEN_NEAREST:
                     nearest goals, OPEN_MATCHED: the minimum matching to
                     the goals, stuck boxes counted with one region only;
                     OPEN_BICON: OPEN_MATCHED with, after the stuck boxes,
                     fewer free-floor squares on no cycle);
                     the best position with one region is kept
                     (backward_best) */
    int cells;    /* with open or toward (else ignored): the open list in
                     cells of (free-floor regions, boxes on goals), each
                     position in its parent's cell of the best key on the
                     path; the cells served in turn and the best one every
                     other step (Festival's backward FESS without advisors),
                     so that no plateau of one key holds the whole search */
    int weighted; /* with cells (else ignored): Festival's HF backward
                     weights. Of an expanded position's new children the
                     best (least key without the age) that beats the
                     position itself costs 0, every other child 1; inside a
                     cell the positions with the least cost summed over
                     their path come first, then the order. The search
                     follows chains of improving pulls far from the goal
                     before it widens (bench/README.md, "Weighted backward
                     halves") */
    int toward;   /* without open: the order pulls towards the start through
                     open positions (Festival's REV pull order; the reverse
                     search's backward halves): fewer free-floor regions
                     first, then fewer boxes off start squares, then the
                     matching to the start squares (else the matching
                     first, then the boxes off start squares, then the
                     regions) */
} backward_config;

/* Searches from the solved position to the level's start. `b` must have
 * been analysed (distance_analyze). Fills `out` (strategy "backward"). */
void backward_solve(const board *b, const backward_config *cfg, search_limits *lim,
                    membudget *mem, search_outcome *out);

/* The same search in slices, as fess_begin/step/end (fess.h): step
 * returns 1 when the search has ended, 0 when node_budget positions are
 * stored (0 = no budget). */
typedef struct backward backward;
backward *backward_begin(const board *b, const backward_config *cfg, search_limits *lim,
                         membudget *mem, search_outcome *out);
int backward_step(backward *w, uint64_t node_budget);
void backward_end(backward *w);

/* Meeting the forward searches (a bidirectional search). A position that
 * a forward search reached from the start and this search reached from
 * the goal solves the level: the forward path to it, then this search's
 * path from it, read forwards. Positions are compared by their node-store
 * key (the boxes' Zobrist hash XOR the normalized player's), so the two
 * stores must come from searches of the same board. */

/* The node of w's store holding the position with key `hash` (a position
 * the goal is reached from by pushes), or NODE_NONE. w may have ended
 * (backward_step returned 1) but not been freed. */
uint32_t backward_find(const backward *w, uint64_t hash);
/* The solution through a meeting, into `out` (its contents replaced): the
 * path of node fnode of a forward search's store fwd (from the start),
 * then the macro pushes that take the position of w's node x (the same
 * position, from backward_find) to the goal. */
void backward_meet_path(const backward *w, uint32_t x, const struct node_store *fwd,
                        uint32_t fnode, push_seq *out);
/* From now on w looks up every position it stores in `fwd`, the node store
 * of a forward search whose paths start at the level's start; a hit ends
 * the search solved (stat meetings). At most BACKWARD_WATCHED stores; a
 * store must be unwatched before it is freed. */
#define BACKWARD_WATCHED 4
void backward_watch(backward *w, const struct node_store *fwd);
void backward_unwatch(backward *w, const struct node_store *fwd);

/* Sets the flood budget of w's box walks (boxpath.flood_budget, 48 by
 * default; 1: the blocks of the floor answer every walk, and the
 * children's regions come from them). For tests. */
void backward_walk_floods(backward *w, int budget);

/* For the soundness tests: whether the search's rules would cut position
 * p (1: a box where no start square pushes a lone box with the player on
 * his side; 2: no matching of the boxes to start squares; 0: kept). w
 * comes from backward_begin; p is any position of the same board. */
int backward_cuts(backward *w, const position *p);

/* Without cfg->open: the positions w has stored since it stored the
 * nearest to the start so far (fewest boxes off start squares, then the
 * least matching cost); small while it keeps coming nearer. How long a
 * backward search has gone without coming closer (the reverse search's
 * share of turns between its backward halves, rev.h). */
uint64_t backward_stale(const backward *w);

/* The opening order (cfg->open): the best position with one free-floor
 * region stored so far, or NODE_NONE; its boxes into boxes[nboxes] and its
 * player's square into *player (the position is put on the board; a
 * backward_step may follow: each expansion puts its own position on the
 * board first). */
uint32_t backward_best(backward *w, sq_t *boxes, sq_t *player);

#endif
