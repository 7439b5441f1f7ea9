/* run.c: the level driver's limits, threads and runs of many levels. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"
#include "../util/spares.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void driver_limits(search_limits *lim, const options *o, atomic_int *interrupt)
{
    search_limits_start(lim, o->time);
    lim->max_nodes = (uint64_t)o->max_nodes;
    lim->interrupt = interrupt;
}

int driver_threads(const options *o, int nlevels)
{
    long long t = MIN(o->threads, (long long)MAX(nlevels, 1) * solve_level_threads(o));
    return (int)MAX(t, 1);
}

uint64_t driver_memory_share(const options *o, int threads)
{
    return (uint64_t)o->memory * 1024 * 1024 / (uint64_t)MAX(threads, 1);
}

typedef struct job {
    const level *lv;
    int started, done; /* (r->mu) */
    int defer;         /* --defer: 0 not set aside, 1 set aside (its thread
                          waits), 2 going on again (r->mu) */
    int helped;        /* a worker offered itself to this level (r->mu) */
    int64_t began_ns;  /* when it started (r->mu) */
    solve_result res;
} job;

typedef struct progress_arg {
    run *r;
    int k;
} progress_arg;

struct run {
    const options *o;
    atomic_int *interrupt;
    run_hooks hooks;
    job *jobs;
    int njobs, next; /* next: the first level not started (mu) */
    int threads;
    uint64_t mem_per_thread;
    uint64_t aside_bytes, aside_cap; /* --defer: the bytes held by levels set
                                        aside, and at most (mu) */
    spares spares; /* workers with no level left to start */
    pthread_t *tids; /* the workers: threads, and one more per level set
                        aside (mu) */
    int ntids, captids;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static int interrupted(const run *r)
{
    return r->interrupt && atomic_load(r->interrupt);
}

static void run_progress(void *arg, const stats *st, double seconds)
{
    const progress_arg *pa = arg;
    pa->r->hooks.progress(pa->r->hooks.arg, pa->k, st, seconds);
}

/* How long a thread offered to a level waits to be borrowed. */
#define LEND_WAIT_NS 500000000

/* --lend-after: a level running (r->mu held) for at least that long, with
 * a portfolio that can take a second thread and no offer made to it yet,
 * or NULL. */
static job *lend_target(run *r)
{
    if (r->threads < 2 || solve_level_threads(r->o) < 2)
        return NULL;
    int64_t now = timer_raw_ns();
    for (int k = 0; k < r->next; k++) {
        job *j = &r->jobs[k];
        if (!j->started || j->done || j->helped)
            continue;
        /* a level set aside runs its second try on every thread */
        if (j->defer == 2 ||
            (r->o->lend_after >= 0 && j->defer == 0 &&
             now - j->began_ns >= (int64_t)(r->o->lend_after * 1e9)))
            return j;
    }
    return NULL;
}

/* --defer: whether levels are set aside (a run on two threads or more of
 * portfolio levels in fast mode, the one search that pauses, with a time
 * limit longer than the first part; a push-optimal proof, which can take
 * a second thread too, keeps its whole memory share). */
static int deferring(const options *o, int threads)
{
    return o->defer >= 0 && threads >= 2 && solve_level_threads(o) >= 2 && !o->optimal &&
           o->time > o->defer;
}

/* The first level set aside and not resumed (r->mu held), or NULL. */
static job *set_aside(run *r)
{
    for (int k = 0; k < r->next; k++)
        if (r->jobs[k].defer == 1)
            return &r->jobs[k];
    return NULL;
}

static void *worker(void *arg);

/* How often a thread set aside looks for an interrupt. */
#define ASIDE_POLL_NS 100000000

typedef struct pause_arg {
    run *r;
    int k;
    const search_limits *lim;
} pause_arg;

/* --defer (search_limits.pause): level k has run o->defer seconds on its
 * own thread. Where levels are still to start, a new worker takes this
 * thread's turn and this one waits (the level set aside, its memory kept)
 * until a worker that finds no level left to start hands the turn back
 * (the worker loop below), or an interrupt; then the level goes on where
 * it was, its clock shifted past the wait (timer_set_paused_ns), and the other
 * threads are lent to it as they come free. Nothing is set aside where
 * no level is left to start, where the levels set aside would hold more
 * than aside_cap bytes, or where no thread can be started. */
static void run_pause(void *arg, uint64_t bytes)
{
    pause_arg *pa = arg;
    run *r = pa->r;
    job *j = &r->jobs[pa->k];
    pthread_mutex_lock(&r->mu);
    if (j->defer != 0 || r->next >= r->njobs || interrupted(r) ||
        r->aside_bytes + bytes > r->aside_cap) {
        pthread_mutex_unlock(&r->mu);
        return;
    }
    if (r->ntids == r->captids) {
        r->captids *= 2;
        r->tids = xrealloc(r->tids, (size_t)r->captids * sizeof(pthread_t));
    }
    spares_join(&r->spares);
    if (pthread_create(&r->tids[r->ntids], NULL, worker, r) != 0) {
        spares_leave(&r->spares);
        pthread_mutex_unlock(&r->mu);
        return;
    }
    r->ntids++;
    j->defer = 1;
    r->aside_bytes += bytes;
    pthread_mutex_unlock(&r->mu);
    if (r->hooks.finished) /* off the status line while it waits */
        r->hooks.finished(r->hooks.arg, pa->k);

    int64_t t0 = timer_raw_ns();
    pthread_mutex_lock(&r->mu);
    while (j->defer == 1 && !interrupted(r)) {
        struct timespec until = timer_realtime_after(ASIDE_POLL_NS);
        pthread_cond_timedwait(&r->cv, &r->mu, &until);
    }
    j->defer = 2;
    r->aside_bytes -= bytes;
    pthread_mutex_unlock(&r->mu);
    timer_set_paused_ns(timer_paused_ns() + timer_raw_ns() - t0);
    if (r->hooks.started) /* the level's start on the hooks' clock */
        r->hooks.started(r->hooks.arg, pa->k, pa->lim->start_ns + timer_paused_ns());
}

static void *worker(void *arg)
{
    run *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        job *h = lend_target(r);
        job *again = r->next >= r->njobs && !h && !interrupted(r) ? set_aside(r) : NULL;
        if ((r->next >= r->njobs && !again && !h) || interrupted(r)) {
            /* Wake the waiter: after an interrupt it may be waiting for a
             * level that no worker will start. */
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
            break;
        }
        if (h) {
            /* Lend this thread to a level that has run long (a hard
             * one) before starting the next: it borrows the thread at its
             * next slice boundary. An offer that lapses (a slice longer
             * than the wait, or the level's set-up on a big board) is
             * made again while the level runs, so that with --lend-after
             * 0 every level gets the second thread. */
            h->helped = 1;
            pthread_mutex_unlock(&r->mu);
            int ran = spares_help(&r->spares, LEND_WAIT_NS);
            pthread_mutex_lock(&r->mu);
            if (!ran && !h->done)
                h->helped = 0;
            pthread_mutex_unlock(&r->mu);
            continue;
        }
        if (again) {
            /* No level left to start: the first level set aside goes on,
             * on its own thread, which takes this one's turn (this thread
             * ends); the next thread to come free is lent to it. */
            again->defer = 2;
            again->helped = 0;
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
            spares_leave(&r->spares);
            return NULL;
        }
        int k = r->next++;
        job *j = &r->jobs[k];
        j->started = 1;
        j->began_ns = timer_raw_ns();
        pthread_mutex_unlock(&r->mu);

        search_limits lim;
        driver_limits(&lim, r->o, r->interrupt);
        lim.spares = &r->spares;
        pause_arg aside = {r, k, &lim};
        if (deferring(r->o, r->threads)) {
            lim.pause = run_pause;
            lim.pause_arg = &aside;
            lim.pause_after = r->o->defer;
        }
        progress_arg pa = {r, k};
        if (r->hooks.started)
            r->hooks.started(r->hooks.arg, k, lim.start_ns + timer_paused_ns());
        if (r->hooks.progress && r->hooks.every > 0) {
            lim.progress = run_progress;
            lim.progress_arg = &pa;
            lim.progress_every = r->hooks.every;
        }
        solve_level(j->lv, r->o, &lim, r->mem_per_thread, &j->res);
        if (j->defer)
            j->res.st.set_aside++;
        if (r->hooks.finished)
            r->hooks.finished(r->hooks.arg, k);

        pthread_mutex_lock(&r->mu);
        j->done = 1;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
    /* No level left to start: lend this thread to the levels still
     * running, until every worker is done. */
    spares_serve(&r->spares);
    return NULL;
}

run *run_start(const level *const *lv, int n, const options *o, atomic_int *interrupt,
               const run_hooks *hooks)
{
    run *r = xcalloc(1, sizeof *r);
    r->o = o;
    r->interrupt = interrupt;
    if (hooks)
        r->hooks = *hooks;
    r->njobs = n;
    r->jobs = xcalloc((size_t)MAX(n, 1), sizeof(job));
    for (int k = 0; k < n; k++)
        r->jobs[k].lv = lv[k];
    r->threads = driver_threads(o, n);
    r->mem_per_thread = driver_memory_share(o, r->threads);
    if (deferring(o, r->threads)) {
        /* a quarter of the memory for the levels set aside, which keep
         * theirs while they wait */
        r->aside_cap = (uint64_t)o->memory * 1024 * 1024 / 4;
        r->mem_per_thread = driver_memory_share(o, r->threads) / 4 * 3;
    }
    spares_init(&r->spares, r->threads, r->mem_per_thread);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    r->captids = r->threads;
    r->tids = xcalloc((size_t)r->captids, sizeof(pthread_t));
    /* The workers wait for mu until all have started: where the system
     * gives fewer threads, the run goes on with those (each with a larger
     * share of the memory). */
    pthread_mutex_lock(&r->mu);
    int t = 0;
    while (t < r->threads && pthread_create(&r->tids[t], NULL, worker, r) == 0)
        t++;
    if (t == 0)
        die("cannot start a thread");
    r->ntids = t;
    if (t < r->threads) {
        r->threads = t;
        r->mem_per_thread = driver_memory_share(o, t);
        r->aside_cap = 0; /* set nothing aside */
        spares_destroy(&r->spares);
        spares_init(&r->spares, t, r->mem_per_thread);
    }
    pthread_mutex_unlock(&r->mu);
    return r;
}

solve_result *run_wait(run *r, int k)
{
    job *j = &r->jobs[k];
    pthread_mutex_lock(&r->mu);
    while (!j->done && !(interrupted(r) && !j->started))
        pthread_cond_wait(&r->cv, &r->mu);
    /* With an interrupt, levels never started stay undone. */
    int done = j->done;
    pthread_mutex_unlock(&r->mu);
    return done ? &j->res : NULL;
}

void run_end(run *r)
{
    /* a worker may start another while it runs (--defer) */
    for (int t = 0;; t++) {
        pthread_mutex_lock(&r->mu);
        int more = t < r->ntids;
        pthread_t tid;
        if (more)
            tid = r->tids[t];
        pthread_mutex_unlock(&r->mu);
        if (!more)
            break;
        pthread_join(tid, NULL);
    }
    for (int k = 0; k < r->njobs; k++)
        solve_result_free(&r->jobs[k].res);
    free(r->jobs);
    free(r->tids);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    spares_destroy(&r->spares);
    free(r);
}
