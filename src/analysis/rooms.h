/* rooms.h: rooms, links between rooms and goal rooms of a board, and the
 * room score of a position (the "room connectivity" feature of a
 * feature-space search).
 *
 * Rooms (on the board with no boxes):
 *   - a block is a 2x2 group of inner squares, keyed by its top-left square;
 *   - two blocks are neighbours when their top-left squares are one step
 *     apart (left, right, up or down); a block without any neighbour block
 *     is dropped;
 *   - the remaining blocks fall into groups connected through neighbour
 *     blocks; each group is a room. Rooms are numbered in the row-major
 *     order of their first (top-left-most) block;
 *   - a square covered only by blocks of one room belongs to that room. A
 *     square covered by blocks of two rooms (the two blocks touch
 *     diagonally, at that square only) belongs to neither. Squares of no
 *     room are corridor squares (room_of = -1).
 * Each room is connected on the empty board. With more than ROOMS_MAX
 * rooms the feature is off: nrooms = 0, every square is corridor.
 *
 * Reaching: a square set S of room X reaches room Y when a path leaves S,
 * goes through box-free squares of X and box-free corridor squares only,
 * and steps onto a box-free square of Y. (A path never crosses a third
 * room: the flood stops at the first square of another room.)
 *
 * Free parts: with boxes, the box-free squares of room X split into free
 * parts (connected through box-free squares of X alone). X keeps its link
 * to Y when X has at least one free part and every free part of X reaches
 * Y. A room with no box-free square keeps no link.
 *
 * Links: the link X-Y (an unordered pair) survives a position when BOTH
 * sides keep it: X keeps its link to Y and Y keeps its link to X. Splitting
 * either room so that one of its parts is cut off from the other room cuts
 * the link, even if the other side still reaches it. The links of the
 * empty board (where each room is one part and both sides agree) are the
 * base links; the room score of a position is the number of base links
 * that do not survive it.
 *
 * Goal rooms hold at least one goal. The entrances of a room are the
 * squares outside it (corridor squares or squares of other rooms) next to
 * one of its squares. */
#ifndef KEEPER_ROOMS_H
#define KEEPER_ROOMS_H

#include "../core/board.h"
#include "../core/position.h"

#define ROOMS_WITNESSES 3 /* shut squares noted per room (rooms_witness) */
#define ROOMS_MAX 70 /* more rooms than this: the feature is disabled (nrooms = 0) */

typedef struct rooms {
    int nrooms;         /* 0 when disabled or when the board has no room */
    int nfound;         /* rooms found; > ROOMS_MAX when the feature is disabled */
    int nsq;            /* inner squares of the board */
    int16_t *room_of;   /* [nsq] room index of a square, -1 for corridor squares */
    int nlinks;         /* links of the empty board: unordered room pairs */
    uint8_t (*link)[2]; /* [nlinks] the two rooms of each link, link[k][0] < link[k][1];
                           sorted by (link[k][0], link[k][1]) */
    uint8_t *goal_room; /* [nrooms] 1 when the room holds a goal */
    int *ngoals;        /* [nrooms] goals in the room */
    /* The squares of room i: squares[sq_first[i] .. sq_first[i+1]-1],
       ascending. sq_first has nrooms + 1 entries. */
    int *sq_first;
    sq_t *squares;
    /* The entrances of room i: entrances[ent_first[i] .. ent_first[i+1]-1],
       ascending, each once. ent_first has nrooms + 1 entries. */
    int *ent_first;
    sq_t *entrances;
} rooms;

/* Scratch for rooms_score, one per thread (the rooms themselves are
 * read-only and shared). Only rooms_work_init allocates. */
typedef struct rooms_work {
    int nsq, nrooms, nlinks;
    int32_t *label;     /* [nsq] free part of a room square, or a visit mark */
    sq_t *queue;        /* [nsq] flood queue */
    int32_t *parent;    /* [nsq] union-find over free parts */
    uint8_t *part_room; /* [nsq] room of each free part */
    uint64_t (*mask)[2]; /* [nsq] rooms reached by each free part (bit per room) */
    uint64_t (*keep)[2]; /* [nrooms] rooms that room X keeps its link to */
    uint8_t *has_part;  /* [nrooms] the room has a box-free square */
    int32_t *seen_in;   /* [nrooms] last corridor component that met the room */
    int32_t *rep;       /* [nrooms] a free part of the room met by that component */
    uint8_t *cut;       /* [nlinks] after rooms_score: 1 when link k is cut */
    sq_t (*wit)[ROOMS_WITNESSES]; /* [nrooms] rooms_witness: shut squares, SQ_NONE after the last */
    int all_shut;       /* rooms_witness: every link has a room with a shut square */
    sq_t *corr;         /* [nsq] the corridor squares (room_of -1), ascending */
    int ncorr;
} rooms_work;

/* Finds the rooms, links, goal rooms and entrances of board b (goals are
 * read; the analysis fields of b are not needed). Returns 0, or -1 when
 * memory cannot be had (r is then empty and safe to free). Never fails
 * otherwise: a board without rooms gets nrooms = 0. */
int rooms_build(rooms *r, const board *b);
void rooms_free(rooms *r);

/* Allocates scratch for rooms_score on r (built for board b). Dies when
 * memory cannot be had, like the other per-search tables. */
void rooms_work_init(rooms_work *w, const rooms *r, const board *b);
void rooms_work_free(rooms_work *w);

/* Room score of position p: how many base links the boxes of p cut (0 when
 * all links survive; at most nlinks). Also sets w->cut[k] for each link.
 * Allocation-free, O(nsq + nlinks); O(1) and always 0 when r->nrooms == 0
 * or r->nlinks == 0. */
int rooms_score(const rooms *r, rooms_work *w, const position *p);

/* Whether the room score of position p equals that of the position one
 * box move before it: p with the box that now stands on `to` back on
 * `from` (to != from; every other box in place). 1 is a proof, 0 only
 * means "not shown": the caller then computes rooms_score. O(1): it looks
 * at the 3x3 squares around `to` and around `from` only.
 *
 * Why it holds: the score is a function of the free parts and corridor
 * components (the components of box-free squares of one room, or of
 * corridor squares) and of which of them touch. Blocking `to` (in the
 * position before the move with `from` still blocked) leaves them as they
 * were when every box-free side of `to` is of `to`'s own class and all of
 * them are joined by box-free squares of that class among the eight
 * around `to` (its component loses one square and stays connected; no
 * touch ran through `to` alone); freeing `from` then leaves them as they
 * were when the same holds around `from` (the square joins one component
 * and makes no new touch). Contract: p is a position of the board r was
 * built on. */
int rooms_move_keeps(const rooms *r, const board *b, const position *p, sq_t from, sq_t to);

/* Shut squares: a box-free square of a room whose four sides are walls or
 * boxes is a free part alone that reaches no room, so its room keeps no
 * link, and every link of that room is cut.
 * rooms_witness notes in w up to ROOMS_WITNESSES shut squares of each room
 * of p; rooms_all_cut then tells, for the position after one box move from
 * `from` to `to` (a move from p), whether every link has a room with a
 * noted shut square still shut (not `to`, no side on `from`): its room
 * score is then nlinks, a proof. 0 means "not shown". */
void rooms_witness(const rooms *r, rooms_work *w, const board *b, const position *p);
int rooms_all_cut(const rooms *r, const rooms_work *w, const board *b, sq_t from, sq_t to);

/* Index k of the link between rooms a and b (either order), or -1. */
int rooms_link_find(const rooms *r, int a, int b);

#endif
