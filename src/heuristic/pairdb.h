/* pairdb.h: two boxes alone, per pair of goals (push-optimal mode,
 * --pair-db): a pattern database of the level's goal pairs, added to the
 * matching through its dual potentials.
 *
 * For a pair of goals G = {g, g'} close together, a breadth-first search of
 * pulls from two boxes on G (every region of the player) gives D_G(a, b):
 * the fewest pushes that put two boxes standing on a and b onto G, every
 * other box taken away, the player wherever he may be (the least over his
 * regions). Only pairs where some D_G exceeds the two boxes' own
 * distances (one blocks the other's way in, or the order of the goals
 * matters) are kept.
 *
 * Why it is admissible with the matching. Let M be a position's matching
 * of boxes (rows, potentials u) to goals (columns, potentials v): u_i +
 * v_j <= c(i, j) for every box and goal, M = sum u + sum v. In a solution
 * some two boxes P end on G, and their pushes alone solve the reduced
 * problem of P and G, so they are at least D_G(P); the other boxes fill the
 * other goals, at least their matching there, which the same potentials
 * bound from below by M - u_P - v_G. So the solution has at least
 *
 *     M + (D_G(P) - u_P - v_G)    >=    M + min over pairs P of (D_G(P) - u_P - v_G),
 *
 * and for disjoint pairs G_1 .. G_k the terms add up (the minima over
 * pairs, overlapping or not, are at most the solution's own disjoint
 * pairs' terms). A term is at most 0 where the matching already pays what
 * D_G asks (the pair it assigns to G has no conflict), so only positive
 * terms are taken, and the raise is their sum over disjoint goal pairs
 * (chosen greedily, the largest first). Every solution's pushes have the
 * parity of the matching (each push moves one box one square), so an odd
 * sum is rounded up to the next even number. */
#ifndef KEEPER_PAIRDB_H
#define KEEPER_PAIRDB_H

#include <stdatomic.h>
#include <stdint.h>
#include <stddef.h>
#include "lowerbound.h"
#include "../core/position.h"

/* Goal pairs at most this many player steps apart on the empty board get
 * a table (measured: XSokoban, bench/README.md). */
#ifndef PAIRDB_GAP
#define PAIRDB_GAP 2
#endif
/* Boards of more inner squares get no tables (a search's visited set
 * holds nsq^3 bits). */
#define PAIRDB_MAX_SQ 400
#define PAIRDB_MAX_TABLES 256

typedef struct pd_table {
    int g1, g2;   /* goal indices */
    uint16_t *d;  /* [nsq * nsq]: D_G for boxes on a < b at a * nsq + b;
                     DIST_INF: never */
} pd_table;

typedef struct pairdb {
    const board *b;
    int n;          /* tables kept */
    pd_table t[PAIRDB_MAX_TABLES];
    uint64_t states; /* reduced positions the builds visited */
    int built;       /* goal pairs searched */
    size_t held;     /* bytes the tables hold */
} pairdb;

/* Builds the tables of b's goal pairs at most `gap` steps apart, nearest
 * first, until deadline_ns (0: none) or *stop (NULL: none) is set, polled
 * every 4,096 reduced positions. Returns the tables kept (0 on boards too
 * big; a build cut short keeps the tables finished). */
int pairdb_build(pairdb *pd, const board *b, int gap, int64_t deadline_ns, atomic_int *stop);
void pairdb_free(pairdb *pd);

/* The bytes pairdb_build allocates while it runs (freed before it
 * returns). */
size_t pairdb_scratch_bytes(const board *b);

/* The raise over the matching s of the boxes on `boxes` (s solved, cost
 * finite): the sum of the positive terms of disjoint goal pairs. `used`
 * and `q`: scratch of b->nboxes entries. */
int64_t pairdb_raise(const pairdb *pd, const sq_t *boxes, const lb_sol *s, uint8_t *used,
                     int64_t *q);
/* The raise from each table's term (term[k], table k's least excess; only
 * positive ones count): the sum over disjoint goal pairs, the largest
 * first, rounded up to even. `used`: scratch of b->nboxes bytes. */
int64_t pairdb_sum(const pairdb *pd, const int64_t *term, uint8_t *used);

#endif
