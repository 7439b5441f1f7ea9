/* spares.h: threads without work of their own, lent to searches that can
 * use them. A run of T worker threads makes one pool. A worker that finds
 * no level left to start serves the pool (spares_serve) until every worker
 * has finished its levels; meanwhile a search running alone on a level may,
 * between its slices, borrow an idle thread (spares_lend) to run a task, and
 * gives the thread back with spares_wait, which returns once the task has
 * run. The borrower also holds the thread's share of the memory budget
 * (`share`) until it gives the thread back, so the budgets of the levels
 * running at any moment never add up to more than the run's. */
#ifndef KEEPER_SPARES_H
#define KEEPER_SPARES_H

#include <pthread.h>
#include <stdint.h>

typedef struct spare_task {
    void (*run)(void *arg);
    void *arg;
    int state;               /* spares.c's: queued, running, ran, returned */
    struct spare_task *next; /* in the queue of lent tasks not yet taken */
    int *back;               /* set when the borrower gives the thread back */
    int64_t paused_ns;       /* the borrower's clock (timer_paused_ns): the
                                lent thread keeps it while the task runs */
} spare_task;

typedef struct spares {
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* broadcast on every change below */
    int working;          /* workers still on levels of their own */
    int idle;             /* threads in spares_serve without a task */
    int queued;           /* lent tasks no thread has taken yet */
    spare_task *queue;
    uint64_t share;       /* bytes of memory budget each thread brings */
} spares;

/* A pool for `workers` threads, each with `share` bytes of memory. */
void spares_init(spares *s, int workers, uint64_t share);
void spares_destroy(spares *s);

/* A worker joins the pool's count of workers on levels of their own (a
 * thread started to take the turn of one set aside), or leaves it without
 * serving (its thread ends). */
void spares_join(spares *s);
void spares_leave(spares *s);

/* Called by a worker that has no level left to start: runs the tasks lent
 * to it, and returns when every worker has called spares_serve and every
 * task this thread ran has been given back. */
void spares_serve(spares *s);

/* Called by a worker that still has levels to start but would rather lend
 * itself first: serves the pool as spares_serve does, for one task at
 * most. Returns 1 once a task lent to this thread has run and been given
 * back, 0 when no search borrowed the thread within `wait_ns` (a borrower
 * asks at its slice boundaries, a few times a second). */
int spares_help(spares *s, int64_t wait_ns);

/* If an idle thread is waiting, queues `t` for it and returns 1 (the caller
 * then owns one more share of memory, and must call spares_wait(s, t)
 * before `t` goes out of scope); else returns 0 at once. */
int spares_lend(spares *s, spare_task *t, void (*run)(void *arg), void *arg);

/* Blocks until `t` has run, then gives its thread back to the pool. */
void spares_wait(spares *s, spare_task *t);

#endif
