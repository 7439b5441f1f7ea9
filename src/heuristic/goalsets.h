/* goalsets.h: a few boxes alone, per set of goals they fill (push-optimal
 * mode, --goal-sets; bench/README.md, "A few boxes per set of goals").
 *
 * Take k boxes P of the level's start (a box and its k-1 nearest) and
 * remove every other box. A best-first search of P alone with the player
 * (goalsets.c, search_sets) gives, for each set G of k goals, the fewest
 * pushes c(G) that put P exactly on G (sets it does not list need at least
 * `cap`). In any position holding boxes on P's squares, with the player in
 * the region he has on the board holding P alone, a solution's pushes of
 * those k boxes, the others' dropped, fill some set G in the reduced
 * problem, so they are at least c(G); the other boxes fill the goals
 * outside G, at least their matching to those goals. So
 *
 *     h' = min over G of c(G) + M(others, goals outside G)
 *
 * is admissible, and higher than the matching of all boxes where P's boxes
 * block one another or the player on the way to the goals the matching
 * gives them: XSokoban 84's start, 147 -> 151 with three boxes (the
 * coupling matters: with L = min c(G) and the others matched to any goals,
 * as --penalties does, the start stays at 147).
 *
 * Patterns are built once, from the start and from the positions of a
 * known solution before its detours; only those that raise the bound of
 * the position they come from are kept. A position is tested
 * (goalsets_cut) against the bound of a known solution: first h' <=
 * c(G*) + the others' share of its matching, G* the goals the matching
 * gives P (most positions fail there, with no matching); then the sets in
 * increasing c(G), until c(G) + M(others, any goals) reaches what is
 * needed, each skipped when a bound from dual potentials already lifts it
 * there, so a cut costs about one matching. M(others, goals outside G)
 * comes from the position's matching by moving P's rows to the restricted
 * square of the lower bound (lb_restricted: cost 0 on G, impossible
 * elsewhere). */
#ifndef KEEPER_GOALSETS_H
#define KEEPER_GOALSETS_H

#include "lowerbound.h"
#include "../core/position.h"

struct moves;

#define GS_MAX_BOXES 4
#define GS_MAX_PATTERNS 32

typedef struct gs_pattern {
    int k;
    sq_t sq[GS_MAX_BOXES]; /* the boxes' squares, ascending */
    uint8_t *region;       /* [nsq] the player's region with P's boxes alone */
    int nsets;
    uint16_t *cost;        /* [nsets] c(G), ascending */
    uint16_t *sets;        /* [nsets * k] goal indices of each G */
    int cap;               /* every set not listed needs at least this */
    uint64_t *hkey;        /* [hcap] the sets by key (goal indices, 16 bits
                              each, ascending), + 1; 0 = empty */
    uint16_t *hcost;       /* [hcap] their c(G) */
    uint32_t hcap;
    int gain;              /* h' - matching at the start */
} gs_pattern;

typedef struct goalsets {
    const board *b;
    int n;
    gs_pattern pat[GS_MAX_PATTERNS];
    uint64_t states; /* reduced positions the builds stored */
    size_t held;     /* bytes the patterns hold, charged by the owner
                        (the build's scratch is freed before it returns) */
} goalsets;

/* Builds the patterns of k boxes (2 <= k <= GS_MAX_BOXES) from the level's
 * start, each search stopping at `limit` reduced positions, keeping those
 * that raise the start's bound (lb: the goal matching), until
 * deadline_ns (0: none); with a known solution (seed, or NULL), also the
 * patterns of the box pushed at each of its first GS_SEED_DETOURS detours
 * (pushes that raise g + h) in the position before it. Returns the
 * patterns kept (0 without the matching, or with k out of range). */
int goalsets_build(goalsets *g, const board *b, lowerbound *lb, int k, int limit,
                   int64_t deadline_ns, const struct moves *seed);
void goalsets_free(goalsets *g);

/* The bytes goalsets_build allocates for its searches while it runs (freed
 * before it returns): the caller charges them to its budget around it. */
size_t goalsets_scratch_bytes(const board *b, int limit);

/* Whether some pattern held in p (boxes on its squares, the player in its
 * region) shows that p needs at least `need` pushes: s is p's solved
 * matching (lb), t0 and t scratch of the same size. */
int goalsets_cut(const goalsets *g, const position *p, lowerbound *lb, const lb_sol *s,
                 lb_sol *t0, lb_sol *t, int64_t need);

/* Whether p holds pattern t: boxes on its squares, the player in its region. */
int goalsets_holds(const gs_pattern *t, const position *p);

/* h' of pattern i in p (which must hold it), at most `limit`. */
int64_t goalsets_value(const goalsets *g, int i, const position *p, lowerbound *lb,
                       const lb_sol *s, lb_sol *t0, lb_sol *t, int64_t limit);

#endif
