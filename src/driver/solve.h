/* solve.h: solving one level end to end: build and analyse the board,
 * run the chosen search under the limits, rebuild the moves, replay them
 * (every printed solution is verified), optimize them with --optimize,
 * and report. Part of the level driver (driver/run.h runs many levels). */
#ifndef KEEPER_DRIVER_SOLVE_H
#define KEEPER_DRIVER_SOLVE_H

#include "../search/astar.h"
#include "../search/backward.h"
#include "../search/fess.h"
#include "../search/opening.h"
#include "../search/portfolio.h"
#include "../search/search.h"
#include "../optimize/optimize.h"
#include "../core/level.h"
#include "../core/solution.h"
#include "../util/options.h"

typedef enum { RESULT_SOLVED, RESULT_UNSOLVED, RESULT_INVALID } result_status;

const char *result_status_text(result_status s); /* "solved", "unsolved", "invalid" */

typedef struct solve_result {
    result_status status;
    char reason[512]; /* why not solved: a stop reason or the level's error */
    stop_reason stop; /* why the search stopped when not solved (STOP_EXHAUSTED:
                         proven to have no solution) */
    int optimal;      /* proven optimal: the push count (--optimal pushes), or
                         the moves, then the pushes (--optimal moves) */
    int by_moves;     /* --optimal moves: optimal and lower_bound count moves */
    long lower_bound; /* optimal modes: every solution has at least this many
                         pushes (moves with by_moves), proven; -1 when not known */
    double seconds;
    const char *strategy; /* the search that found the solution, or that ran */
    stats st;
    int nmembers;        /* the portfolio's members, each with its own counters */
    member_report members[SEARCH_MAX_MEMBERS];
    sol_metrics metrics; /* of the verified solution */
    sol_metrics found;   /* of the solution as the search found it (before
                            --optimize) */
    int optimized;       /* --optimize ran on it */
    char *lurd;          /* the verified solution, NULL unless solved */
} solve_result;

/* Solves `lv` with options `o`. `lim` carries the deadline, interrupt flag,
 * progress callback and the pool of idle threads the portfolio may borrow;
 * `mem_limit` is this level's memory budget in bytes (a borrowed thread adds
 * its share).
 * Never fails: problems become an "unsolved" or "invalid" result. */
void solve_level(const level *lv, const options *o, search_limits *lim, uint64_t mem_limit,
                 solve_result *res);
void solve_result_free(solve_result *res);

/* The searches' configurations under options o: the only place that
 * copies options into them. */
typedef struct search_configs {
    astar_config astar;
    fess_config fess;
    backward_config backward;
    unsigned opening_halves; /* opening.h: OPENING_BOTH and its variants */
    rev_config rev;          /* the reverse search's (rev.h) */
    portfolio_config portfolio;
} search_configs;
void driver_configs(const options *o, search_configs *sc);

/* Optimizes `lurd`, a solution of lv, under cfg within lim (time,
 * interrupt) and mem_limit bytes: the board is built and analysed here.
 * On success returns 0 with *out the result (malloc'd LURD, replayed: it
 * solves the level and is no worse than lurd in cfg->metric's order) and
 * rep filled. Returns -1 with the reason in `why` when the level is
 * invalid or lurd is not a solution of it. */
int optimize_level(const level *lv, const char *lurd, const opt_config *cfg,
                   search_limits *lim, uint64_t mem_limit, opt_report *rep, char **out,
                   char *why, size_t why_len);

/* How many threads one level can use with options `o`: 2 for the
 * portfolio (its two searches side by side), else 1. */
int solve_level_threads(const options *o);

#endif
