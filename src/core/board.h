/* board.h: the static board, built once per level and read-only during a
 * search (threads may share it).
 *
 * Inner squares (the player's region minus walls) get compact indices
 * 0..nsq-1 in row-major order, so the smallest index in a set of squares is
 * its top-left-most square (the normalized player square). */
#ifndef KEEPER_BOARD_H
#define KEEPER_BOARD_H

#include <stdint.h>
#include "level.h"

typedef uint16_t sq_t;
#define SQ_NONE ((sq_t)0xFFFF)

/* Directions in LURD order; the opposite of d is d ^ 2. */
enum { DIR_LEFT = 0, DIR_UP = 1, DIR_RIGHT = 2, DIR_DOWN = 3 };
#define DIR_OPP(d) ((d) ^ 2)
extern const char dir_char[4]; /* "lurd" */

#define DIST_INF ((uint16_t)0xFFFF)

typedef struct board {
    int width, height; /* grid size */
    int nsq;           /* inner squares */
    int nboxes;        /* boxes == goals */
    int32_t *cell;     /* [nsq] square -> grid cell (row * width + col) */
    sq_t *sq_of_cell;  /* [width*height] grid cell -> square, SQ_NONE outside */
    sq_t (*nb)[4];     /* [nsq][4] neighbour in each direction, SQ_NONE if none */
    uint8_t *is_goal;  /* [nsq] */
    sq_t *goals;       /* [nboxes] goal squares, ascending */
    sq_t *start_boxes; /* [nboxes] initial box squares, ascending */
    sq_t start_player;
    sq_t end_sq[LEVEL_END_MAX]; /* squares the player's region must hold in a
                                   solved position (lv->end_cell1; see
                                   board_end_ok), the first nend of them */
    int nend;
    uint64_t *zbox;    /* [nsq] Zobrist keys for a box on a square */
    uint64_t *zplayer; /* [nsq] Zobrist keys for the normalized player */

    /* Analysis (analysis/distance.c): */
    uint16_t *goal_dist; /* [nboxes*nsq]: pushes to bring a lone box from s to goal g,
                            goal_dist[g * nsq + s], DIST_INF if impossible */
    uint16_t *near_dist; /* [nsq] min over goals of goal_dist */
    uint8_t *dead;       /* [nsq] 1 if a box on s can never reach any goal */
    int ndead;
    /* The player's side (analysis/distance.c, distance_sides): a box on a
     * square that cuts the floor into pieces is first pushed from the piece
     * the player is in (no other box lets him past it), and from some
     * pieces it needs more pushes than goal_dist (the best over the pieces)
     * says. side_at[s]: -1, or the index of s among those cut squares;
     * side_cls[side_at[s] * nsq + q]: the side class (the smallest
     * direction from s into q's piece) of square q around s, 0xFF for s;
     * side_row[s * 4 + c]: the row of side_dist for a box on s with the
     * player in class c, or SIDE_NONE where goal_dist holds; side_dist[g *
     * nside + k]: row k's pushes to goal g (DIST_INF: never). nside = 0
     * (the arrays NULL) when no side differs, or on boards too big. */
    int nside;
    int32_t *side_at;
    uint8_t *side_cls;
    uint16_t *side_row;
    uint16_t *side_dist;
} board;
#define SIDE_NONE ((uint16_t)0xFFFF)

/* Builds the board of a valid level (lv->error == NULL). Returns 0, or -1
 * when the level is invalid. The analysis fields stay NULL until
 * distance_analyze() fills them. */
int board_build(board *b, const level *lv);
void board_free(board *b);

/* Board b with other goals or another start, built into v: the same
 * squares, square for square, so positions, moves and node-store keys
 * carry over between b and v. goals[nboxes]: v's goals (NULL: b's);
 * boxes[nboxes] and player: v's start (boxes NULL: b's start, player
 * then ignored). b's end squares are kept. Returns 0, or -1 (v left
 * freed) when it cannot be built. v is not analysed (distance_analyze). */
int board_variant(const board *b, const sq_t *goals, const sq_t *boxes, sq_t player, board *v);

/* Row and column of a square (0-based). */
static inline int board_row(const board *b, sq_t s) { return b->cell[s] / b->width; }
static inline int board_col(const board *b, sq_t s) { return b->cell[s] % b->width; }

/* 64-bit mixer used for Zobrist keys (splitmix64 finalizer). */
uint64_t board_mix64(uint64_t x);

#endif
