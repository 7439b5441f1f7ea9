/* pool.c: the threads of one rank and their jobs (pool.h). The rank's
 * main thread (the scheduler) queues jobs and takes the replies; the
 * threads here run them, and once no job is left for the rank, lend
 * themselves to the searches still running on it. */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include "../util/spares.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *pool_thread(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->qh == p->qt && !p->closed)
            pthread_cond_wait(&p->cv, &p->mu);
        /* Stopping: the jobs queued stay there, for pool_interrupt. */
        if (p->qh == p->qt || work_stopping(p->w)) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        int id = p->qid[p->qh];
        char *pay = p->qpay[p->qh];
        size_t n = p->qn[p->qh];
        p->qh++;
        pthread_mutex_unlock(&p->mu);
        strbuf r;
        sb_init(&r);
        p->w->run(p->w, id, pay, n, &r);
        free(pay);
        pthread_mutex_lock(&p->mu);
        p->reply[id] = r;
        p->done[p->dt++] = id;
        pthread_cond_signal(&p->done_cv);
        pthread_mutex_unlock(&p->mu);
    }
    /* No job left for this rank: lend the thread to the levels still
     * running here, until every thread is done. */
    if (p->w->spares)
        spares_serve(p->w->spares);
    return NULL;
}

void pool_start(pool *p, work *w)
{
    memset(p, 0, sizeof *p);
    p->w = w;
    size_t n = (size_t)w->njobs + 1;
    p->qid = xcalloc(n, sizeof(int));
    p->qpay = xcalloc(n, sizeof(char *));
    p->qn = xcalloc(n, sizeof(size_t));
    p->done = xcalloc(n, sizeof(int));
    p->reply = xcalloc(n, sizeof(strbuf));
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    p->nthreads = w->threads;
    p->tids = xcalloc((size_t)p->nthreads, sizeof(pthread_t));
    for (int t = 0; t < p->nthreads; t++)
        pthread_create(&p->tids[t], NULL, pool_thread, p);
}

void pool_push(pool *p, int id, char *pay, size_t n)
{
    pthread_mutex_lock(&p->mu);
    p->qid[p->qt] = id;
    p->qpay[p->qt] = pay;
    p->qn[p->qt] = n;
    p->qt++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void pool_close(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->closed = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

int pool_done(pool *p)
{
    pthread_mutex_lock(&p->mu);
    int id = p->dh < p->dt ? p->done[p->dh++] : -1;
    pthread_mutex_unlock(&p->mu);
    return id;
}

int pool_recall(pool *p)
{
    pthread_mutex_lock(&p->mu);
    int id = -1;
    if (p->qh < p->qt) {
        p->qt--;
        id = p->qid[p->qt];
        free(p->qpay[p->qt]);
        p->qpay[p->qt] = NULL;
    }
    pthread_mutex_unlock(&p->mu);
    return id;
}

int pool_interrupt(pool *p, int32_t *ids)
{
    pthread_mutex_lock(&p->mu);
    int n = 0;
    for (; p->qh < p->qt; p->qh++) {
        ids[n++] = p->qid[p->qh];
        free(p->qpay[p->qh]);
        p->qpay[p->qh] = NULL;
    }
    p->closed = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return n;
}

void pool_finish(pool *p)
{
    pool_close(p);
    for (int t = 0; t < p->nthreads; t++)
        pthread_join(p->tids[t], NULL);
    for (int i = p->qh; i < p->qt; i++)
        free(p->qpay[i]);
    free(p->qid);
    free(p->qpay);
    free(p->qn);
    free(p->done);
    free(p->reply);
    free(p->tids);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    pthread_cond_destroy(&p->done_cv);
}

/* Waits up to 1 ms for a message, or less when one of this rank's
 * threads finishes a job meanwhile (its reply then goes out at once:
 * with a plain 1 ms sleep, Microban I's 155 short levels lost 0.35 s of 2 s
 * waiting, one thread on one rank). */
void pool_nap(pool *p)
{
    struct timespec ts = timer_realtime_after(1000000);
    pthread_mutex_lock(&p->mu);
    if (p->dh == p->dt)
        pthread_cond_timedwait(&p->done_cv, &p->mu, &ts);
    pthread_mutex_unlock(&p->mu);
}
