/* pool.h: the threads of one rank of keeper-mpi and their jobs: a queue of
 * jobs to run, a queue of ids whose reply is ready. The scheduler
 * (scheduler.c) fills the one and empties the other from the rank's main
 * thread; the pool's threads run the jobs through the work's run hook.
 * No MPI here: the seam is between the threads of one rank (this file) and
 * the messages between ranks (scheduler.c). */
#ifndef KEEPER_MPI_POOL_H
#define KEEPER_MPI_POOL_H

#include "scheduler.h"

#include <pthread.h>
#include <stdint.h>

typedef struct pool {
    work *w;
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* a job queued, or the queue closed */
    pthread_cond_t done_cv; /* a reply ready */
    int *qid;
    char **qpay;
    size_t *qn;
    int qh, qt, closed;
    int *done;
    int dh, dt;
    strbuf *reply; /* by job id */
    pthread_t *tids;
    int nthreads;
} pool;

/* Starts w->threads threads with room for every job of w. */
void pool_start(pool *p, work *w);
/* Queues job id; the pool owns pay (malloc'd, or NULL). */
void pool_push(pool *p, int id, char *pay, size_t n);
/* No job will follow: a thread with none left leaves the queue (and lends
 * itself to w->spares). */
void pool_close(pool *p);
/* A job whose reply is ready (its reply, p->reply[id], now belongs to the
 * caller: free it with sb_free), or -1. */
int pool_done(pool *p);
/* Takes back the last job queued and not started: its id (its payload
 * freed), or -1 when there is none. */
int pool_recall(pool *p);
/* The run is stopping: closes the queue and takes every job still queued
 * out of it (their payloads freed); writes their ids to ids (room for the
 * run's jobs) and returns their count. The pool's threads start no job
 * once stopping, so none of these has started. */
int pool_interrupt(pool *p, int32_t *ids);
/* Closes the queue, joins the threads and frees the pool. */
void pool_finish(pool *p);
/* Nothing to do: waits up to 1 ms, or less when a thread finishes a job
 * meanwhile. */
void pool_nap(pool *p);

#endif
