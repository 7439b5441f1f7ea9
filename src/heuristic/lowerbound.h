/* lowerbound.h: lower bounds on the pushes a position still needs.
 *
 *  - nearest goal: the sum over boxes of the push distance to the nearest
 *    goal (seed 003's simple lower bound);
 *  - minimum matching: the cost of a minimum-cost perfect matching of boxes
 *    to goals on true push distances (analysis/distance.c), found with the
 *    Hungarian method in its shortest-augmenting-path form. When no perfect
 *    matching of finite cost exists the position is a bipartite deadlock.
 *
 * A solution (assignment and dual potentials) is kept per position being
 * evaluated. After one box moves only its row changes: the row is
 * unassigned, its potential lowered to stay feasible, and one augmenting
 * path (O(n^2)) restores optimality, so a child's bound costs O(n^2)
 * instead of O(n^3). Both bounds are admissible and consistent: one push
 * changes a box's distance by at most one. */
#ifndef KEEPER_LOWERBOUND_H
#define KEEPER_LOWERBOUND_H

#include <stdint.h>
#include "../core/board.h"
#include "../util/mem.h"

#define LB_INF INT64_MAX
/* x86 with GCC or Clang: augment's column scan and a row's minimum have
 * AVX-512F and AVX2 forms, chosen at run time where the processor has them
 * (the same results: lowerbound.c). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define LB_SIMD 1
#else
#define LB_SIMD 0
#endif
#define LB_STOPPED (-1) /* lb_solve_by: the deadline passed first */

typedef struct lowerbound {
    int n;             /* boxes = goals */
    int nsq;
    int matching;      /* 1 = minimum matching, 0 = nearest goal */
    const board *b;
    uint16_t *dist_t;  /* [nsq * n]: distance from square s to goal j at s * n + j */
    size_t dist_bytes;
    int64_t *minv;     /* scratch, [n + 1] */
    int32_t *way;
    uint8_t *used;     /* scratch, [n + 1]: all 0 between augmenting paths */
    int32_t *ulist;    /* scratch, [n + 1]: a path's used columns in order */
    int64_t *at;       /* scratch, [n + 1]: augment's deferred deltas */
    uint64_t *paths;   /* when set, counts the augmenting paths run */
    int nside;         /* rows of the player's sides after the two above
                          (lb_row; 0 on tables other than the goals') */
    int simd;          /* 2: the scans in AVX-512F, 1: in AVX2 (set by
                          lb_init_table to the widest the processor has);
                          0 = the plain loops, which tests compare them with */
    membudget *mem;
} lowerbound;

/* A bound for one position. Rows are boxes (by box index), columns goals. */
typedef struct lb_sol {
    int32_t *p;   /* [n + 1] row (1-based) assigned to column j (1-based); 0 = none */
    int32_t *col; /* [n + 1] column assigned to row i (1-based); 0 = none */
    int64_t *u, *v;
    sq_t *sq;     /* [n] square of each box when last solved */
    int64_t cost; /* the bound, or LB_INF for a deadlock */
} lb_sol;

/* Returns 0, or -1 when the memory budget refuses the distance table. */
int lb_init(lowerbound *lb, const board *b, int matching, membudget *mem);
/* The same on another table of costs: dist[j * nsq + s] is the cost of a
 * box on s taking column j (DIST_INF: impossible), as b->goal_dist is for
 * goals. The backward search matches boxes to start squares with it. */
int lb_init_table(lowerbound *lb, const board *b, const uint16_t *dist, int matching,
                  membudget *mem);
void lb_free(lowerbound *lb);

/* The wildcard square: a box there costs 0 in every column. Moving boxes
 * there (lb_move) leaves the matching of the others to any goals, the goals
 * the wildcards take being free (the penalties of push-optimal A*). Only
 * with matching (the nearest-goal bound reads b->near_dist). */
static inline sq_t lb_wild(const lowerbound *lb) { return (sq_t)lb->nsq; }
/* The restricted square: a box there costs 0 in the columns lb_restrict
 * gave last and cannot take any other (none before the first call). Moving
 * k boxes there, with k columns given, leaves the matching of the others to
 * the other columns (heuristic/goalsets.h). A solution holding a box there
 * is stale once lb_restrict changes the row: move boxes there afresh from a
 * solution that holds none. Only with matching. */
static inline sq_t lb_restricted(const lowerbound *lb) { return (sq_t)(lb->nsq + 1); }
void lb_restrict(lowerbound *lb, const uint16_t *cols, int k);
/* The row of a box on s with the player on pl (another square, the
 * player's region the same as pl's): s itself, or where s cuts the floor
 * and the piece the player is in makes the box's distances longer than
 * the best over the pieces (board.h, side_row), the row of that piece.
 * Admissible: no other box lets the player past the box, so its first
 * push comes from his piece; and consistent, as a push moves the player
 * to the square the box left, in his piece around every other box.
 * Boxes' rows are what lb_solve and lb_move take in place of squares. */
static inline sq_t lb_row(const lowerbound *lb, sq_t s, sq_t pl)
{
    if (!lb->nside)
        return s;
    const board *b = lb->b;
    int32_t at = b->side_at[s];
    if (at < 0)
        return s;
    uint8_t c = b->side_cls[(size_t)at * (size_t)lb->nsq + pl];
    uint16_t k = c == 0xFF ? SIDE_NONE : b->side_row[s * 4 + c];
    return k == SIDE_NONE ? s : (sq_t)(lb->nsq + 2 + k);
}
/* The rows of n boxes on `boxes` with the player on pl: into out (n
 * entries) and returned, or `boxes` itself when the table has no side rows
 * (every box's row is its square). */
static inline const sq_t *lb_rows(const lowerbound *lb, const sq_t *boxes, int n, sq_t pl,
                                  sq_t *out)
{
    if (!lb->nside)
        return boxes;
    for (int i = 0; i < n; i++)
        out[i] = lb_row(lb, boxes[i], pl);
    return out;
}
/* The cost of the goal assigned to `box` in s (solved), LB_INF when none. */
int64_t lb_assigned(const lowerbound *lb, const lb_sol *s, int box);

void lb_sol_init(lb_sol *s, int n);
void lb_sol_free(lb_sol *s);
void lb_copy(lb_sol *dst, const lb_sol *src, int n);

/* Brings s up to date for boxes[0..n) (box i on boxes[i]). Rows whose
 * square changed since s was last solved are re-solved; a fresh lb_sol
 * solves everything. Returns s->cost. */
int64_t lb_solve(lowerbound *lb, lb_sol *s, const sq_t *boxes);
/* The same, reading the clock between two augmenting paths: returns
 * LB_STOPPED when timer_now_ns() reaches deadline_ns (0: none) before the
 * matching is complete. s then holds a partial assignment that a later
 * lb_solve of the same boxes completes. A fresh matching of n boxes costs
 * O(n^3): tens of milliseconds on the boards of 240 boxes and more. */
int64_t lb_solve_by(lowerbound *lb, lb_sol *s, const sq_t *boxes, int64_t deadline_ns);
/* Box `box` moved to `to`; updates s (which was solved). Returns s->cost. */
int64_t lb_move(lowerbound *lb, lb_sol *s, int box, sq_t to);

/* Reference bound for tests: brute-force minimum over all assignments (n
 * at most 8). Returns LB_INF when no finite assignment exists. */
int64_t lb_brute_force(const lowerbound *lb, const sq_t *boxes);

#endif
