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
    sq_t norm;       /* normalized square of the latest computation */
    int nsq;
} reach;

void reach_init(reach *r, int nsq);
void reach_free(reach *r);

/* Marks the squares the player reaches from `from` in position p (boxes
 * block). Returns the normalized (smallest) reachable square. */
sq_t reach_compute(reach *r, const position *p, sq_t from);

/* The same over any box array, for the searches of reduced positions (a
 * few boxes alone: deadlock/subset.c, heuristic/penalty.c): advances *ts
 * (clearing mark[] when it wraps), marks mark[s] = *ts on every square
 * reached from `from` through squares with box_at[s] == NO_BOX, and
 * returns the smallest; stack holds nsq squares of scratch. */
sq_t reach_flood_marks(const board *b, const uint16_t *box_at, uint32_t *mark, uint32_t *ts,
                       sq_t *stack, sq_t from);

/* Debug: whether r is the player's region from `from` in p: the reached
 * floor is exactly the free squares joined to `from`, the boxes marked are
 * exactly those next to it, and r->norm its smallest square. Returns 0,
 * or a code of the first rule broken. O(nsq), with a scratch allocation:
 * for DEBUG_CHECK and --check only. */
int reach_check(const reach *r, const position *p, sq_t from);

static inline bool reach_floor(const reach *r, sq_t s) { return r->stamp[s] == r->ts; }
static inline bool reach_box(const reach *r, sq_t s) { return r->stamp[s] == r->ts + 1; }
/* Whether a position with every box on a goal, the player's region in r,
 * is solved: on a board that asks for it (b->nend), the region must hold
 * those squares too. */
static inline bool board_end_ok(const board *b, const reach *r)
{
    for (int i = 0; i < b->nend; i++)
        if (!reach_floor(r, b->end_sq[i]))
            return false;
    return true;
}

/* The same result as reach_compute(r, p, B) for the position p just after
 * one push of a box from B to O (the player now on B), computed from
 * `parent`, the reachability of the position before the push (B a box, O
 * free, the player able to reach the square behind B), when that can be
 * done locally (seed 000: reusing the reachable squares after a push).
 * Squares reached before stay reached unless O was a reached square whose
 * free neighbours are not joined around it (a possible cut square): then
 * the squares are computed afresh. Otherwise the parent's stamps are
 * copied, O becomes a box, and a flood from B adds what the freed square
 * opens up (the normalized square found anew when O was it); reached
 * boxes are exactly those next to a reached floor, as after reach_compute.
 * Sets *fresh to 1 when it fell back to a full computation. r and parent
 * must differ. */
sq_t reach_after_push(reach *r, const reach *parent, const position *p, sq_t B, sq_t O,
                      int *fresh);
/* The same after a macro move: the box went from B to O over several
 * pushes and the player ended on pl (parent: the position before, B a
 * box the player could push). As reach_after_push, flooding from the freed
 * square B; when pl is not in the region found (or B == O), the region is
 * computed afresh from pl. reach_after_push(.., B, O, f) is
 * reach_after_move(.., B, O, B, f). */
sq_t reach_after_move(reach *r, const reach *parent, const position *p, sq_t B, sq_t O, sq_t pl,
                      int *fresh);
/* reach_after_move, told by the caller whether O is known to split nothing:
 * o_joins = 1 when the free floor with the moving box lifted stays joined
 * without O (O no cut square there: blocks_pieces(O) <= 1 in the blocks of
 * a box walk), so the local test at O is skipped and the region is always
 * updated from the parent's; 0 = unknown (reach_after_move). */
sq_t reach_after_move_known(reach *r, const reach *parent, const position *p, sq_t B, sq_t O,
                            sq_t pl, int o_joins, int *fresh);

/* Takes a fresh stamp pair and returns it (for callers that run their own
 * flood fills, such as corral analysis). */
uint32_t reach_new_stamp(reach *r);

/* Shortest player walk from `from` to `to` in p (boxes block). Writes the
 * directions into dirs (room for nsq entries) and returns their count, or
 * -1 when `to` cannot be reached. */
int reach_path(reach *r, const position *p, sq_t from, sq_t to, uint8_t *dirs);

/* The player's shortest walk from `from` to every square it can reach in p
 * (boxes block): dist[s] (room for nsq entries) for each square s with
 * r->stamp[s] equal to the stamp returned. */
uint32_t reach_walk(reach *r, const position *p, sq_t from, uint32_t *dist);

#endif
