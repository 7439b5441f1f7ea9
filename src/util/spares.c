/* spares.c: lending idle threads to searches (see spares.h). One mutex and
 * one condition variable: the pool holds a few threads and sees a few
 * events per second, so a broadcast to all of them costs nothing. */
#include "spares.h"
#include "timer.h"

#include <errno.h>
#include <stddef.h>
#include <time.h>

enum { TASK_QUEUED = 1, TASK_RUNNING, TASK_RAN, TASK_RETURNED };

/* The handshake of a lent task, all under the pool's mutex: lend queues it
 * (QUEUED); a serving thread takes it (RUNNING), runs it (RAN) and waits
 * on a flag of its own, `back`; spares_wait sees RAN, sets the flag and
 * marks the task RETURNED. The serving thread never reads the task again
 * after RAN, so the borrower may drop it as soon as spares_wait returns. */

void spares_init(spares *s, int workers, uint64_t share)
{
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->working = workers;
    s->idle = 0;
    s->queued = 0;
    s->queue = NULL;
    s->share = share;
}

void spares_destroy(spares *s)
{
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}

/* Takes the first queued task and runs it (s->mu held on entry and on
 * return, released while the task runs), then stays lent, and the memory
 * share with the borrower, until the borrower gives the thread back. */
static void run_first(spares *s)
{
    spare_task *t = s->queue;
    int back = 0;
    s->queue = t->next;
    s->queued--;
    t->state = TASK_RUNNING;
    t->back = &back;
    int64_t own = timer_paused_ns();
    timer_set_paused_ns(t->paused_ns); /* the borrower's clock */
    pthread_mutex_unlock(&s->mu);
    t->run(t->arg);
    pthread_mutex_lock(&s->mu);
    timer_set_paused_ns(own);
    t->state = TASK_RAN;
    pthread_cond_broadcast(&s->cv);
    while (!back)
        pthread_cond_wait(&s->cv, &s->mu);
}

void spares_join(spares *s)
{
    pthread_mutex_lock(&s->mu);
    s->working++;
    pthread_mutex_unlock(&s->mu);
}

void spares_leave(spares *s)
{
    pthread_mutex_lock(&s->mu);
    s->working--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void spares_serve(spares *s)
{
    pthread_mutex_lock(&s->mu);
    s->working--;
    pthread_cond_broadcast(&s->cv);
    for (;;) {
        /* A task can only be queued by a working thread, and that thread
         * waits for it before it serves the pool itself: once no thread
         * works, no task is queued or will be. */
        if (!s->queue && s->working == 0)
            break;
        if (!s->queue) {
            s->idle++;
            pthread_cond_wait(&s->cv, &s->mu);
            s->idle--;
            continue;
        }
        run_first(s);
    }
    pthread_mutex_unlock(&s->mu);
}

int spares_help(spares *s, int64_t wait_ns)
{
    struct timespec until = timer_realtime_after(wait_ns);
    pthread_mutex_lock(&s->mu);
    int timed_out = 0;
    while (!s->queue && !timed_out) {
        s->idle++;
        timed_out = pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT;
        s->idle--;
    }
    int ran = s->queue != NULL;
    if (ran)
        run_first(s);
    pthread_mutex_unlock(&s->mu);
    return ran;
}

int spares_lend(spares *s, spare_task *t, void (*run)(void *arg), void *arg)
{
    pthread_mutex_lock(&s->mu);
    int ok = s->idle > s->queued;
    if (ok) {
        t->run = run;
        t->arg = arg;
        t->paused_ns = timer_paused_ns();
        t->state = TASK_QUEUED;
        t->next = s->queue;
        s->queue = t;
        s->queued++;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void spares_wait(spares *s, spare_task *t)
{
    pthread_mutex_lock(&s->mu);
    while (t->state != TASK_RAN)
        pthread_cond_wait(&s->cv, &s->mu);
    t->state = TASK_RETURNED;
    *t->back = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}
