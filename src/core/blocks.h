/* blocks.h: the blocks (biconnected components) of the free floor, to say
 * in constant time which sides of a box a player next to it reaches.
 *
 * The graph: floor squares that are not blocked (blocked[s] == 0), joined
 * to their free neighbours. Two edges {q, u} and {q, v} at a square q lie
 * in the same block exactly when u and v are joined in the graph without
 * q: so with a box on q (q free in the graph, the box lifted), a player on
 * the neighbour u reaches the side v of the box exactly when the two edges
 * share a block. A box walk (one box moving, the others standing) builds
 * the blocks once, with the moving box lifted, and answers every square it
 * visits from them, where a flood per square costs the player's region
 * each time (on a board of 288 boxes, two thirds of a run went to those
 * floods in the packing plan's base search).
 *
 * Built by Tarjan's depth-first search with an edge stack, iteratively,
 * over the component of one root: O(squares + edges) of that component.
 * No allocation after blocks_init. */
#ifndef KEEPER_BLOCKS_H
#define KEEPER_BLOCKS_H

#include "board.h"

#include <stdint.h>

typedef struct blocks {
    int nsq;
    uint32_t *blk;    /* [4 * nsq] block of the edge (q, direction d) */
    uint32_t *disc;   /* [nsq] discovery order */
    uint32_t *low;    /* [nsq] lowest discovery reached from the subtree */
    uint32_t *seen;   /* [nsq] == ts: in the current build's component */
    uint32_t ts;
    uint32_t nblk;    /* blocks numbered so far (ids run on across builds) */
    sq_t *frame;      /* [nsq] the depth-first path */
    uint8_t *next;    /* [nsq] the next direction to try at each square */
    uint32_t *edges;  /* [2 * nsq + 4] the edge stack, edges as q * 4 + d */
    /* blocks_build_forest only */
    uint32_t *comp;   /* [nsq] the square's component: its root's discovery */
    uint32_t *fin;    /* [nsq] the last discovery in the square's subtree */
    uint32_t ncomp;   /* the components (regions) of the latest forest */
    uint8_t *cuts;    /* [nsq] the directions of the square's tree children
                         whose subtrees reach nothing above it (it cuts them
                         off) */
} blocks;

void blocks_init(blocks *bk, int nsq);
void blocks_free(blocks *bk);

/* Builds the blocks of the component of `root` (which must not be
 * blocked) in the graph of the squares s with blocked[s] == 0. */
void blocks_build(blocks *bk, const board *b, const uint8_t *blocked, sq_t root);

/* The depth-first forest of every component of the same graph (every
 * square with blocked[s] == 0): discovery order, low links, components and
 * subtrees, no block ids (blk is left alone). Then blocks_has says whether
 * a square is in the graph, and blocks_piece which piece of the graph
 * without a square another square lies in: one build answers for any
 * square taken out, where blocks_build answers for any square of one
 * graph. O(squares + edges). */
void blocks_build_forest(blocks *bk, const board *b, const uint8_t *blocked);

/* After blocks_build_forest: the piece of the graph without square s that
 * square x lies in (x != s, both in the graph), as a number equal for two
 * squares exactly when they are joined without s: x's component when s is
 * in another one; else the subtree of the tree child of s holding x when
 * nothing in that subtree reaches above s (s cuts it off), or the part of
 * s's component outside s's subtree. O(1): s has at most four children. */
static inline uint32_t blocks_piece(const blocks *bk, const board *b, sq_t x, sq_t s)
{
    uint32_t c = bk->comp[x];
    if (c != bk->comp[s])
        return c * 8 + 7;
    uint32_t dx = bk->disc[x];
    for (unsigned cut = bk->cuts[s]; cut; cut &= cut - 1) {
        int e = __builtin_ctz(cut);
        sq_t y = b->nb[s][e];
        if (bk->disc[y] <= dx && dx <= bk->fin[y])
            return c * 8 + (uint32_t)e;
    }
    return c * 8 + 4;
}

/* Whether square s lies in the component of the latest build (after
 * blocks_build_forest: in the graph). */
static inline int blocks_has(const blocks *bk, sq_t s) { return bk->seen[s] == bk->ts; }

/* The directions from q (in the component of the latest build) to its
 * free neighbours: those in the component (a blocked square never is). */
static inline int blocks_free_side(const blocks *bk, const board *b, sq_t q)
{
    int got = 0;
    for (int d = 0; d < 4; d++) {
        sq_t t = b->nb[q][d];
        if (t != SQ_NONE && blocks_has(bk, t))
            got |= 1 << d;
    }
    return got;
}

/* The sides of a box on q (in the component of the latest build, free in
 * its graph) that a player on q's neighbour in direction dpl reaches, as a
 * mask of directions. */
static inline int blocks_sides(const blocks *bk, const board *b, sq_t q, int dpl)
{
    const uint32_t *e = bk->blk + (size_t)q * 4;
    uint32_t id = e[dpl];
    int free_side = blocks_free_side(bk, b, q), got = 0;
    for (int d = 0; d < 4; d++)
        if ((free_side & (1 << d)) && e[d] == id)
            got |= 1 << d;
    return got;
}

/* The pieces that q's component (of the latest build) falls into without
 * q: the distinct blocks of q's edges to free squares (0 when q has none).
 * Two blocks that share q meet only through q (the block tree has no
 * cycles), so with the regions of a graph known, taking q out makes
 * regions - 1 + pieces. */
static inline int blocks_pieces(const blocks *bk, const board *b, sq_t q)
{
    const uint32_t *e = bk->blk + (size_t)q * 4;
    uint32_t seen[4];
    int free_side = blocks_free_side(bk, b, q), n = 0;
    for (int d = 0; d < 4; d++) {
        if (!(free_side & (1 << d)))
            continue;
        int k = 0;
        while (k < n && seen[k] != e[d])
            k++;
        if (k == n)
            seen[n++] = e[d];
    }
    return n;
}

#endif
