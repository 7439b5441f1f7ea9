/* run.h: the level driver: the one place that turns options into a run.
 *
 * Layers: util -> core -> analysis -> deadlock/heuristic -> search ->
 * optimize -> driver -> fronts (the public API keeper.h, the CLI commands,
 * keeper-mpi). The driver holds
 *   - the limits of one level (driver_limits: the clock, the deadline from
 *     --time, the node limit, the interrupt flag), the threads of a run
 *     and each thread's memory share (driver_threads, driver_memory_share);
 *   - the searches' configurations (driver_configs, solve.h) and one level
 *     end to end (solve_level, solve.h: zones, the search, the replay,
 *     --optimize);
 *   - a run of many levels (run_start ... run_end): driver_threads worker
 *     threads take the levels in order; a worker that finds no level left
 *     to start (or, with --lend-after, a level that has run that long) is
 *     lent to a level still running, whose portfolio then runs its
 *     searches side by side. A lone level with --threads 2 is a run of
 *     one level on two threads. With --defer S a level unsolved after S
 *     seconds on its own thread is set aside: its thread waits (a new
 *     worker takes its turn) until no level is left to start, then the
 *     level goes on where it stopped, one at a time on every thread, with
 *     the rest of its time (its clock skips the wait, timer.h).
 *
 * Threads: a run's functions are called from one thread (the caller's);
 * the hooks are called from the worker threads, concurrently. */
#ifndef KEEPER_DRIVER_RUN_H
#define KEEPER_DRIVER_RUN_H

#include "solve.h"

#include <stdatomic.h>

/* Starts lim for one level under o: its clock from now, the deadline from
 * --time (0: none), the node limit from --max-nodes; interrupt (may be
 * NULL) stops the level when set. No progress callback, no spares. */
void driver_limits(search_limits *lim, const options *o, atomic_int *interrupt);

/* The threads a run of n levels uses under o: --threads, but no more than
 * the levels can use (one each, two on a portfolio level). At least 1. */
int driver_threads(const options *o, int nlevels);

/* One thread's memory budget in bytes: --memory shared by the threads. */
uint64_t driver_memory_share(const options *o, int threads);

/* Called from the worker threads (hooks may be NULL, each member too). */
typedef struct run_hooks {
    void *arg;
    /* level k starts (or, set aside, goes on again); start_ns is when
     * it started on timer_raw_ns's clock, less the time it was set aside */
    void (*started)(void *arg, int k, int64_t start_ns);
    /* the searches' progress on level k (search_limits.progress), about
     * every `every` seconds (0: never) */
    void (*progress)(void *arg, int k, const stats *st, double seconds);
    double every;
    /* level k is done (its result is ready for run_wait), or set aside
     * (--defer: started is called again when it goes on, then
     * finished) */
    void (*finished)(void *arg, int k);
} run_hooks;

typedef struct run run;

/* Starts solving lv[0..n-1] (n >= 0) under o on driver_threads(o, n)
 * threads; lv and o must outlive the run. interrupt (may be NULL): once
 * set, the levels running stop at their next check and no new level
 * starts. */
run *run_start(const level *const *lv, int n, const options *o, atomic_int *interrupt,
               const run_hooks *hooks);
/* Waits until level k (0-based) is done and returns its result (owned by
 * the run, valid until run_end), or NULL when an interrupt came before it
 * started (it never will). */
solve_result *run_wait(run *r, int k);
/* Waits for every worker and frees the run and its results. */
void run_end(run *r);

#endif
