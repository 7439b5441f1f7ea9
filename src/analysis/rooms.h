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

/* How rooms_score floods a cell holding a box (rooms_work.flood). */
enum { ROOMS_FLOOD_SQUARES = 0, ROOMS_FLOOD_ROWS = 1, ROOMS_FLOOD_WORD = 2 };

/* Scratch for rooms_score, one per thread (the rooms themselves are
 * read-only and shared). Only rooms_work_init allocates. */
typedef struct rooms_work {
    int nsq, nrooms, nlinks;
    int32_t *label;     /* [nsq] free part or corridor component of a square, or a visit mark */
    sq_t *queue;        /* [nsq] flood queue */
    int32_t *parent;    /* [nsq + nrooms] union-find over free parts */
    uint8_t *part_room; /* [nsq + nrooms] room of each free part (reference flood) */
    uint64_t (*mask)[2]; /* [nsq + nrooms] rooms reached by each free part (bit per room) */
    uint64_t (*keep)[2]; /* [nrooms] rooms that room X keeps its link to */
    uint8_t *has_part;  /* [nrooms] the room has a box-free square */
    int32_t *seen_in;   /* [nrooms] last corridor component that met the room */
    int32_t *rep;       /* [nrooms] a free part of the room met by that component */
    uint8_t *cut;       /* [nlinks] after rooms_score: 1 when link k is cut */
    sq_t (*wit)[ROOMS_WITNESSES]; /* [nrooms] rooms_witness: shut squares, SQ_NONE after the last */
    int all_shut;       /* rooms_witness: every link has a room with a shut square */
    sq_t *corr;         /* [nsq] the corridor squares (room_of -1), ascending */
    int ncorr;

    /* Tables of the fast room score (rooms.c, compute_keep), derived from
     * the rooms in rooms_work_init and read-only after (but flood[], which
     * tests may lower).
     * Cells: cell x < nrooms is room x; cell nrooms + c is corridor cell c,
     * a component of corridor squares on the empty board (ncc of them).
     * Side squares: the squares of a room next to a square outside it, the
     * corridor squares next to a room square. */
    int ncells, ncc;
    int16_t *cell_of;   /* [nsq] cell of each square */
    int *cell_first;    /* [ncells + 1] the squares of cell k: */
    sq_t *cell_sq;      /*   cell_sq[cell_first[k] .. cell_first[k+1]-1], ascending */
    int *side_first;    /* [ncells + 1] the side squares of cell k: */
    sq_t *side_sq;      /*   side_sq[side_first[k] .. side_first[k+1]-1], ascending */
    /* The sides of room x: each pair of neighbours (s in x, t outside x)
     * once, edge[edge_first[x] .. edge_mid[x]-1] with t in another room
     * (other: that room), then edge[edge_mid[x] .. edge_first[x+1]-1] with
     * t a corridor square (other: its corridor cell c). */
    struct rooms_edge {
        sq_t s, t;
        int16_t other;
    } *edge;
    int *edge_first;    /* [nrooms + 1] */
    int *edge_mid;      /* [nrooms] */
    /* How each cell holding a box is flooded: ROOMS_FLOOD_WORD when its
     * bounding box packs into one word, else ROOMS_FLOOD_ROWS when rows
     * (the board is at most 64 columns wide), else ROOMS_FLOOD_SQUARES.
     * Any cell may be lowered to SQUARES, and to ROWS when rows (the
     * results are the same). */
    uint8_t *flood;     /* [ncells] */
    uint16_t *cwidth;   /* [ncells] columns of the cell's bounding box */
    /* Word layout: the bounding box of cell k packed row after row into
     * one word, wstride[k] bits a row (its width and a 0 bit between
     * rows); square s of a packed cell is bit wbit[s] (0 for the others).
     * wmask[k]: the cell's squares; wside[k]: its side squares. */
    uint8_t *wbit;      /* [nsq] */
    uint8_t *wstride;   /* [ncells] */
    uint64_t *wmask, *wside; /* [ncells] */
    /* Row layout (rows = 1): bit c of a row word is column c. Cell k spans
     * rows row0[k] .. row0[k] + row_first[k+1] - row_first[k] - 1; for
     * each of them cmask[] holds the cell's squares and cside[] its side
     * squares, at index row_first[k] + row - row0[k]. */
    int rows, width, height;
    uint8_t *sq_row, *sq_col; /* [nsq] row and column of each square */
    int *row_first;     /* [ncells + 1] */
    int *row0;          /* [ncells] */
    uint64_t *cmask, *cside;

    /* Scratch of the fast room score, rewritten by each call. */
    uint64_t *cbox;     /* [ncells] bit wbit[s] of each box s of the cell (0: no box there) */
    uint8_t *state;     /* [ncells] how the cell's box-free squares fall apart (rooms.c) */
    uint64_t *boxrow;   /* [height] the boxes, as row bitboards (rows == 1) */
    uint64_t *rem;      /* [height] a flooded cell's free squares not yet in a component */
    uint64_t *fill;     /* [height] the component being flooded */
    int32_t *xfirst;    /* [nrooms] room x's free parts other than part x: */
    int32_t *xend;      /*   ids xfirst[x] .. xend[x]-1 */
    uint64_t (*met)[2]; /* [ncorr + ncc] rooms touched by each corridor component */
    int32_t *cstamp;    /* [ncorr + ncc] last room whose parts a corridor component met */
    int32_t *cfirst;    /* [ncorr + ncc] the first part of that room it met */

    /* rooms_score_check: the fast results, kept while the reference runs. */
    uint64_t (*chk_keep)[2]; /* [nrooms] */
    uint8_t *chk_has;        /* [nrooms] */
    uint8_t *chk_cut;        /* [nlinks] */
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
 * all links survive; at most nlinks). Also sets w->cut[k] for each link,
 * and w->keep[x], w->has_part[x] (see rooms_work) for each room.
 * Allocation-free; O(1) and always 0 when r->nrooms == 0 or r->nlinks ==
 * 0, else O(nboxes + board height + cells + sides of the rooms + squares
 * of the cells that hold a box + nlinks) (cells and sides: rooms_work).
 * Contract: p->boxes[0 .. p->b->nboxes-1] are exactly the squares where
 * p->box_at has a box (as pos_set, pos_push and pos_undo keep them). */
int rooms_score(const rooms *r, rooms_work *w, const position *p);

/* The consistency check of rooms_score (--check, unit tests): computes the
 * score of p as rooms_score does, then again with the reference flood
 * (the former implementation, kept for this only: one flood over every
 * room and corridor square), and returns 1 when the two agree on the
 * score, every w->cut[], w->keep[] and w->has_part[] entry, else 0. w is
 * left as rooms_score leaves it. Contract: as rooms_score's. */
int rooms_score_check(const rooms *r, rooms_work *w, const position *p);

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
