/* audit.h: the deadlock detectors and the packing plan checked against a
 * known solution ("keeper verify --audit").
 *
 * A solution's positions are all solvable, so no deadlock detector may call
 * one of them dead: the audit replays the solution and, after every push,
 * asks each detector the searches use (dead squares, freeze, the
 * small-pattern table, the matching,
 * the matching with fixed boxes as walls, PI-corral deadlocks, the corral
 * deadlock searches, the local deadlock search, a learned-pattern proof as
 * the feature-space search makes one, and the backward search's two cuts,
 * which concern the positions it meets on its way from the goals).
 * Each verdict "dead" on a solution's position is a soundness bug; the
 * audit counts them per detector and remembers the first push of each.
 *
 * It also follows the packing plan's progress along the solution (the
 * packed feature of the feature-space search): its highest value and the
 * push where it was reached, and the longest stretch of pushes where it
 * fell below a value reached before. A plan the solution cannot follow
 * leaves packed low until the very end: a hint of where the plan misleads
 * the search. */
#ifndef KEEPER_AUDIT_H
#define KEEPER_AUDIT_H

#include "../core/board.h"
#include "../core/solution.h"

/* The detectors, in the order audited. */
#define AUDIT_DETECTORS(X)                                                        \
    X(dead_square, "a box on a dead square")                                      \
    X(freeze, "freeze deadlock of the pushed box")                                \
    X(patterns, "small-pattern table around the pushed box (3x3, 4x3, 3x4)")      \
    X(matching, "no matching of boxes to goals")                                  \
    X(fixed, "no matching with fixed boxes as walls")                            \
    X(capsets, "a capacity-counted set over or under its bound")                 \
    X(corral, "PI-corral with no legal push")                                     \
    X(corral_search, "corral deadlock search")                                    \
    X(local, "local deadlock search (xy)")                                        \
    X(stuck, "learned-pattern proof (xy, large limit)")                           \
    X(backward_reach, "backward search: a box no start square reaches")          \
    X(backward_matching, "backward search: no matching of boxes to start squares")

enum {
#define AUDIT_ENUM(name, desc) AUDIT_##name,
    AUDIT_DETECTORS(AUDIT_ENUM)
#undef AUDIT_ENUM
        AUDIT_N
};

extern const char *const audit_name[AUDIT_N];
extern const char *const audit_desc[AUDIT_N];

#define AUDIT_MAX_PACKED 64

typedef struct audit_report {
    long pushes;              /* pushes replayed */
    long dead[AUDIT_N];       /* positions each detector called dead */
    long first[AUDIT_N];      /* 1-based push after which it first did, 0 if never */
    int plan_steps;           /* steps of the plan the feature search would use
                                 (0: none; then packed follows the packing order
                                 or the boxes on goals) */
    int packed_start;         /* packed at the start */
    int packed_best;          /* highest packed seen */
    long packed_best_push;    /* first push where it was seen */
    int packed_final;         /* packed in the solved position */
    long packed_low_longest;  /* the longest run of pushes with packed below
                                 packed_best's value reached so far... */
    long packed_low_from;     /* ...and the push where that run began */
    long packed_first[AUDIT_MAX_PACKED + 1]; /* first push after which packed
                                 was at least k (k <= AUDIT_MAX_PACKED), -1 never */
} audit_report;

/* Replays `mv` (a solution of b, checked by solution_replay before) from
 * the start and audits every position after a push. b must have been
 * analysed (distance_analyze). Returns 0, or -1 when mv is not a legal
 * solution (r is then incomplete). Deterministic. */
int audit_solution(const board *b, const movelist *mv, audit_report *r);

/* Total of r->dead over the detectors. */
long audit_false_verdicts(const audit_report *r);

#endif
