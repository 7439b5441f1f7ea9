/* boxpath.h: the fewest pushes that move one box from a square to another
 * with every other box standing still. Used to replay macro moves and to
 * find packing macros. A breadth-first search over states (box square,
 * side of the box the player stands on after a push); the player's walks
 * between pushes are free. */
#ifndef KEEPER_BOXPATH_H
#define KEEPER_BOXPATH_H

#include "../core/blocks.h"
#include "../core/position.h"
#include "../core/reach.h"

typedef struct boxpath {
    int nsq;
    int32_t *parent; /* [4 * nsq] previous state */
    int32_t *depth;  /* [4 * nsq] pushes to reach a state */
    uint32_t *mark;  /* [4 * nsq] == stamp: visited */
    uint32_t stamp;
    int32_t *queue;  /* [4 * nsq + 1] */
    uint32_t *side_stamp; /* [4 * nsq] == stamp: side_mask known for this state */
    uint8_t *side_mask;   /* [4 * nsq] sides of the box the player reaches */
    uint64_t refused;     /* boxpath_pulls: states its filter refused (a count
                             for the caller's statistics, never reset here) */
    reach r;
    /* A walk answers its first sides by floods; once one flood visits more
     * than flood_budget squares (0: never), it builds the forest of the
     * position's floor (blocks.h, kept below for every walk from that
     * position) and answers the rest from it, the walking box lifted.
     * Speed only: the answers are the same. */
    int flood_budget;
    int bk_ready;      /* bk holds the forest of the current walk's position
                          (boxpath_lifted_has, boxpath_lifted_pieces) */
    int bk_last;       /* an earlier walk built bk: the next ones build it at
                          their first flood instead, but for one in 16, which
                          floods and clears this when the flood suffices
                          (speed only) */
    uint32_t walks;    /* walks begun */
    /* The depth-first forest (blocks_build_forest) of the free floor of a
     * position, every box standing: built once, it answers the sides of
     * every box's walk from that position, the walking box lifted, where
     * one build per walk took a fifth of a hard level's time. Kept for the
     * position (its box set) until a walk begins from another. */
    blocks bk;
    int forest_ok;         /* bk holds a forest: of the boxes forest_boxes */
    uint64_t forest_hash;  /* that box set's hash */
    sq_t *forest_boxes;    /* [nsq] its squares, by box index */
    int forest_n;          /* its boxes */
    sq_t walk_from;        /* the current walk's box, where it started */
    uint64_t walk_hash;    /* the current walk's position's box hash */
    uint8_t *blocked;  /* [nsq] the boxes, for blocks_build_forest */
} boxpath;

void boxpath_init(boxpath *bp, int nsq);

/* After a walk (boxpath_moves, boxpath_pulls) that built the forest
 * (bp->bk_ready): whether square x lies in the walking box's component of
 * the free floor with that box lifted (a graph G: the walk's position, the
 * box off its square `from`) ... */
int boxpath_lifted_has(const boxpath *bp, const board *b, sq_t x);
/* ... and the pieces that x's component of G falls into without x (x in
 * it): blocks_pieces of the blocks of G, from the forest. */
int boxpath_lifted_pieces(const boxpath *bp, const board *b, sq_t x);
/* ... and the free-floor regions of the walk's position (every box
 * standing): the forest's components. */
static inline int boxpath_regions(const boxpath *bp) { return (int)bp->bk.ncomp; }
void boxpath_free(boxpath *bp);

/* Fewest pushes moving the box on `from` to `to` in position p, the player
 * starting on p->player, other boxes fixed; at most max_pushes (0 = no
 * cap). Returns the push count, or -1 when it cannot be done. On success
 * dirs[0..count) (room for 4 * nsq entries) hold the push directions.
 * p is unchanged on return. */
int boxpath_search(boxpath *bp, position *p, sq_t from, sq_t to, uint8_t *dirs, int max_pushes);
/* The same, with the last push in direction last_dir (the player ends on
 * the square behind `to`, as a macro move recorded it), or in any
 * direction when last_dir < 0. */
int boxpath_search_dir(boxpath *bp, position *p, sq_t from, sq_t to, int last_dir, uint8_t *dirs,
                       int max_pushes);

/* One macro box move (a box pushed along a path, the player walking freely
 * between pushes): the box ends on `to` after `pushes` pushes, the last in
 * direction `dir`, so the player stands on the square behind it; `first`
 * is the direction of the first push. A pull move (boxpath_pulls) reads
 * the same with pulls: the box travels in direction `dir` on its last
 * pull, so the player stands on the square ahead of it (nb[to][dir]), and
 * its first pull went in direction `first` (the player started on
 * nb[from][first]). */
typedef struct box_move {
    sq_t to;
    uint8_t dir;
    uint8_t first;
    uint16_t pushes;
} box_move;

/* Every macro move of the box on `from` in position p, the other boxes
 * standing still; r must hold the player's reachable squares in p. One
 * move per box square and player region: a square the box reaches with
 * the player able to get to several of its sides gives one move, the
 * first found (fewest pushes); the box back on `from` counts only with the
 * player in a region other than his present one. The box never enters a
 * dead square (b->dead), and its first push must be in a direction of
 * first_allow (bit d for direction d; 0xF allows all). Writes at most
 * 4 * nsq moves into out and returns their count; p is unchanged on
 * return. Moves come in order of their push counts. */
int boxpath_moves(boxpath *bp, position *p, const reach *r, sq_t from, unsigned first_allow,
                  box_move *out);

/* The backward counterpart of boxpath_moves: every pull macro move of the
 * box on `from` (a pull in direction d: the player on the box's neighbour
 * in direction d steps on to the square beyond, the box follows him), the
 * other boxes standing still, the player walking freely between pulls; r
 * must hold the player's reachable squares in p. One move per box square
 * and player region, the first found (fewest pulls); the box back on
 * `from` counts only with the player in a region other than his present
 * one. A state "box on q, the player on its neighbour in direction d just
 * after a pull" is entered only when ok is NULL or ok[q * 4 + d] is
 * nonzero (the backward search's rule "some start square pushes a lone box
 * here with the player on that side"). Writes at most 4 * nsq moves into
 * out, in order of their pull counts, and returns their count; p is
 * unchanged on return. */
int boxpath_pulls(boxpath *bp, position *p, const reach *r, sq_t from, const uint8_t *ok,
                  box_move *out);

#endif
