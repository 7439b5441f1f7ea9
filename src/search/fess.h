/* fess.h: the feature-space search (Shoham and Schaeffer, "The FESS
 * Algorithm: A Feature Based Approach to Single-Agent Search", 2020).
 *
 *  - Moves are macro box moves (search/boxpath.h): one box pushed along any
 *    path while the others stand still, one move per destination square
 *    and player region. Every generated position is stored (nodes.h); a
 *    position is expanded at most once, and the parent that first
 *    generated it stays its parent for the solution.
 *  - Each position has a feature vector (heuristic/features.h): packed
 *    boxes, free-floor regions, rooms cut apart. An expanded position is
 *    filed in the feature-space cell of the best vector on its path from
 *    the start (its own included), and its unexpanded children wait in
 *    that cell.
 *  - Advisors look at all children of an expansion and each names at most
 *    one: the best child that packs more, the best that joins free-floor
 *    regions, the best that joins rooms (none of them packing less). A named
 *    move weighs 0, any other 1; a position's accumulated weight counts the
 *    unadvised moves on its path. Inside a cell the child with the least
 *    accumulated weight goes first, then the better feature vector, then
 *    the older.
 *  - The search cycles over the cells: odd steps take the next cell in
 *    creation order (a new cell is served at once), even steps the best
 *    cell that still holds children.
 *  - Deadlock tests: dead squares inside the move generator, freeze
 *    deadlocks for every child; a child chosen for expansion first passes
 *    the bipartite matching test, PI-corral deadlocks and the corral
 *    deadlock search. PI-corrals restrict the moves to those whose first
 *    push is an allowed corral push (sound: some solution starts so).
 *
 * Not push-optimal: the first solution found is returned. */
#ifndef KEEPER_FESS_H
#define KEEPER_FESS_H

#include "search.h"
#include "../deadlock/layer.h"

typedef struct fess_config {
    dl_config dl;        /* the deadlock layer */
    int matching;        /* bipartite (matching) deadlock test */
    int sides;           /* with matching: a box on a square that cuts the
                            floor takes the row of the player's piece
                            (lowerbound.h, lb_row) in the test and in the
                            HF order's distances */
    int goal_needs_meet; /* the board's goal is not the level's (search/opening.h):
                            only a meeting with the watched backward search ends
                            the search solved */
    int packing;         /* packed boxes follow the packing order (else boxes on goals) */
    int advisors;        /* 0 = every move weighs the same */
    int rooms;           /* the rooms feature (links between rooms cut by boxes) */
    int hotspots;        /* the hotspots advisor (heuristic/hotspot.h) */
    int plan;            /* packing plan with parking (analysis/plan.h): 0 = off,
                            1 = where the packing order fails, 2 = always */
    int plan_pick;       /* which base search's plan (basesearch.h PLAN_PICK_*) */
    int oop;             /* the out-of-plan feature and advisor (with a plan) */
    int hf;              /* Festival's HF forward order (the opening search's
                            squares half): every move weighs 0 (no advisors);
                            the cells ordered by free-floor regions first,
                            then packed (boxes on the target's squares), and
                            inside a cell the children by that order, then by
                            the boxes' matching distance to the goals (the
                            parent's assignment, the moved box updated), then
                            age; needs matching */
    int open;            /* with hf: the reverse strategy's forward half
                            (search/rev.h): packed is always 0 and the
                            children of a cell go by age, so the cells are
                            free-floor regions and room links alone */
    int hot;             /* with hf: Festival's HF hotspots (boxes off the
                            goals beside a box or a wall, and empty goals no
                            push could fill now) order a cell's children
                            after the free-floor regions and packed, in
                            place of the room links; the cells are keyed on
                            those two alone */
    int revpush;         /* with hf and open: Festival's REV push order (the
                            reverse search's third track): the cells are
                            keyed on the free-floor regions alone; a cell's
                            children go by accumulated weight, regions, room
                            links, then the boxes off the goals no push moves
                            (stuck), then the larger sum of the boxes'
                            walking distances from the stuck boxes (or,
                            with none stuck, their push distances to the
                            nearest goal); a push into a goal pocket (a goal
                            walled on three sides, the pockets filled in
                            turn), or else the best child better than its
                            parent, weighs 0, any other 1 */
    int check;           /* debug: check the position after every walk */
} fess_config;

/* Searches from the level's start. `b` must have been analysed
 * (distance_analyze). Fills `out`. */
void fess_solve(const board *b, const fess_config *cfg, search_limits *lim, membudget *mem,
                search_outcome *out);

/* The same search in slices, as astar_begin/step/end (astar.h). */
typedef struct fess fess;
fess *fess_begin(const board *b, const fess_config *cfg, search_limits *lim, membudget *mem,
                 search_outcome *out);
int fess_step(fess *f, uint64_t node_budget);
void fess_end(fess *f);
/* Whether the packing plan took the place of a greedy packing order found
 * too (then a search with --plan 1 would rank positions differently). */
int fess_plan_replaced_order(const fess *f);

/* The plan_pick (search/basesearch.h) that gives the other base search's
 * plan, where f follows the simpler of two plans; else -1. */
int fess_plan_other(const fess *f);
/* Whether f follows a complete plan. */
int fess_plan_complete(const fess *f);

/* Meeting backward searches (backward.h): f looks up every position it
 * stores in the store of each w it watches (at most FESS_WATCH_MAX, in the
 * order they were added); a hit ends the search solved through it (stat
 * meetings). w = NULL stops every watch (before any is freed). */
#define FESS_WATCH_MAX 8
struct backward;
void fess_watch(fess *f, const struct backward *w);
/* Makes f learn into and match against t (deadlock/stuck.h) instead of a
 * table of its own, when f keeps patterns at all (cfg->dl.stuck). t must be
 * set up on f's board, outlive f, and be touched by one thread at a time. */
struct stuck_table;
void fess_share_patterns(fess *f, struct stuck_table *t);

/* The reverse strategy's target (search/rev.h): of the positions f has
 * stored with the fewest free-floor regions and then the fewest room
 * links, the one with the fewest boxes off goals that no push moves, then
 * the most pushes from the start, then the first stored; or NODE_NONE
 * when f has stored none. Its boxes into boxes[nboxes], its player's square into
 * *player. Looks at REV_CANDIDATES positions at most (in the order they
 * were stored). f may have ended but not been freed; fess_step may
 * follow. */
#define REV_CANDIDATES 20000u
uint32_t fess_open_target(fess *f, sq_t *boxes, sq_t *player);

/* f's node store, for backward_watch. */
const struct node_store *fess_nodes(const fess *f);

#endif
