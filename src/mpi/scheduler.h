/* scheduler.h: keeper-mpi's job scheduler: which rank runs which job, the
 * recalls, the heartbeats, lost ranks and stopping on a signal. It knows
 * nothing of levels or solutions: a job is an index with a payload of
 * bytes, its reply is bytes, and the hooks of `work` (filled in by
 * keeper_mpi.c, for solve and for verify) make, run and take them. The
 * seam is there because the protocol between ranks is the same for both
 * commands and only the payloads differ. */
#ifndef KEEPER_MPI_SCHEDULER_H
#define KEEPER_MPI_SCHEDULER_H

#include "../util/str.h"

#include <stdatomic.h>
#include <stddef.h>

struct spares;

/* A distributed run: njobs jobs, each run on some rank, each reply taken
 * on rank 0. */
typedef struct work work;
struct work {
    int njobs;
    int threads;    /* per rank */
    int lost;       /* rank 0: ranks lost; other ranks: 1 when some rank was */
    struct spares *spares; /* idle threads lent to running searches, or NULL */
    atomic_int *interrupt; /* set: start no job, stop those running (solve);
                              NULL: the run is not stopped (verify) */
    /* Any rank: runs job id with its payload, appends the reply. */
    void (*run)(work *w, int id, const char *payload, size_t n, strbuf *reply);
    /* Rank 0: the job's payload (appended to out). */
    void (*payload)(work *w, int id, strbuf *out);
    /* Rank 0: the reply of job id arrived, or reply NULL: its rank was lost. */
    void (*take)(work *w, int id, const char *reply, size_t n);
    /* Rank 0: job id will not run (the run was interrupted first). */
    void (*unstarted)(work *w, int id);
    long *weight; /* rank 0: larger jobs go out first */
};

/* Whether the run is being stopped (a signal): no job starts any more. */
int work_stopping(const work *w);

/* Runs w over the ranks of MPI_COMM_WORLD, every rank calling it: rank 0
 * hands the jobs out and takes every reply (through w->take, in the order
 * they come), the others run what they are sent. Returns when every job
 * has its reply; w->lost then says whether a rank was lost (the caller
 * must then leave without MPI_Finalize). */
void sched_distribute(work *w, int me, int size);

#endif
