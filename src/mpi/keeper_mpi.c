/* keeper_mpi.c: keeper-mpi, "keeper solve" and "keeper verify" with the
 * levels (solutions) spread over the ranks of an MPI job.
 *
 * Rank 0 reads the arguments and the files, broadcasts the files' bytes
 * (every rank parses the same collections, so no shared file system is
 * needed and '-' works), then keeps the work queue: jobs go out largest
 * first, up to --threads at a time to each rank (rank 0 included, with
 * its own threads), and one more to each other rank that waits there, so
 * that a thread finishing a job starts the next at once instead of
 * waiting for rank 0 to hear of it. When no job is left to hand out and
 * some rank has a free thread, rank 0 recalls a waiting job from another
 * rank (a job not started yet comes back and goes out again), so that
 * none waits behind a long one. Results are written by rank 0 alone, in
 * input order, through the formatters of keeper solve and keeper verify
 * (solveout.h, verify.h): the output is byte for byte what keeper writes,
 * times aside.
 *
 * Messages: TAG_JOB (rank 0 to a worker): a 4-byte job id, then the job's
 * payload (verify: the solution; solve: nothing). TAG_STOP: no job will
 * follow (idle threads are then lent to running portfolios, as keeper
 * solve does); sent once every job has started. TAG_RECALL (rank 0 to a
 * worker, empty): give back a job not started; TAG_RECALLED (the reply):
 * its id, or -1 when every job there has started. TAG_RESULT (worker to
 * rank 0): the job id, then the reply (solve: the solve_result and its
 * strings; verify: the outcome and the text). TAG_ALIVE (worker to rank
 * 0, empty): a heartbeat every second. TAG_DONE (rank 0 to each live
 * worker, one byte): every reply is in; 1 when a rank was lost, so that no
 * rank waits in MPI_Finalize for it.
 * The ranks run the same binary: structs travel as bytes.
 *
 * Signals (solve): SIGINT, SIGTERM and SIGHUP stop a run as they stop
 * keeper solve, on whichever rank they arrive (mpirun passes them on to
 * every rank, Slurm sends them to every task). A rank that gets one stops
 * the levels running there (they end 'interrupted') and starts none of
 * those waiting. Rank 0 then hands out no more jobs (those never sent count
 * as not started), sends TAG_INTERRUPT (empty) and, unless sent already,
 * TAG_STOP to every live worker, takes the replies still due and writes
 * every level finished, in input order. A worker that stops (its own
 * signal, or TAG_INTERRUPT) sends TAG_UNSTARTED: the ids of the jobs it
 * held and will not run, possibly none (which tells rank 0 to stop the run
 * when the signal reached this worker alone); a job arriving after that is
 * sent back the same way. A worker leaves its loop on TAG_STOP alone, so
 * every job sent to it is answered.
 *
 * Every rank's main thread does all MPI calls (MPI_THREAD_FUNNELED); the
 * solver threads only take jobs from and give results to a local pool.
 * Errors return (MPI_ERRORS_RETURN): a rank whose messages fail, or that
 * has jobs out and sent nothing for KEEPER_MPI_LOST_AFTER seconds (60), is
 * marked lost, its jobs that may have started reported as "worker lost"
 * (those waiting there go out again), and no more jobs go to it. (Open
 * MPI's mpirun ends the whole job when a rank dies unless run with
 * --enable-recovery; then the heartbeat is what notices.) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include "../cli/cli.h"
#include "../cli/solveout.h"
#include "../cli/solread.h"
#include "../cli/verify.h"
#include "../../include/keeper.h"
#include "../driver/run.h"
#include "../util/spares.h"
#include "../util/str.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TAG_JOB = 1, TAG_STOP = 2, TAG_RESULT = 3, TAG_ALIVE = 4, TAG_DONE = 5, TAG_RECALL = 6,
       TAG_RECALLED = 7, TAG_INTERRUPT = 8, TAG_UNSTARTED = 9 };

/* Set on any rank by SIGINT, SIGTERM or SIGHUP (cli_catch_stop_signals, in
 * solve), on a worker also by TAG_INTERRUPT, on rank 0 also by a worker's
 * TAG_UNSTARTED; read by every thread (an atomic: see cmd_solve.c). */
static atomic_int interrupted = 0;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free");

static void on_stop_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

/* Jobs a worker rank holds beyond its threads, waiting there. */
#define AHEAD 1

/* ------------------------------------------------------ work, any rank */

/* A distributed run: njobs jobs, each run on some rank, each reply taken
 * on rank 0. */
typedef struct work work;
struct work {
    int njobs;
    int threads;    /* per rank */
    int lost;       /* rank 0: ranks lost */
    spares *spares; /* idle threads lent to running searches, or NULL */
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
static int stopping(const work *w)
{
    return w->interrupt && atomic_load(w->interrupt);
}

/* The threads of one rank and their jobs: a queue of jobs to run, a queue
 * of ids whose reply is ready. */
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

static void *pool_thread(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->qh == p->qt && !p->closed)
            pthread_cond_wait(&p->cv, &p->mu);
        /* Stopping: the jobs queued stay there, for pool_interrupt. */
        if (p->qh == p->qt || stopping(p->w)) {
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

static void pool_start(pool *p, work *w)
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

/* Queues job id; the pool owns pay (malloc'd, or NULL). */
static void pool_push(pool *p, int id, char *pay, size_t n)
{
    pthread_mutex_lock(&p->mu);
    p->qid[p->qt] = id;
    p->qpay[p->qt] = pay;
    p->qn[p->qt] = n;
    p->qt++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void pool_close(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->closed = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* A job whose reply is ready (its reply now belongs to the caller: free it
 * with sb_free), or -1. */
static int pool_done(pool *p)
{
    pthread_mutex_lock(&p->mu);
    int id = p->dh < p->dt ? p->done[p->dh++] : -1;
    pthread_mutex_unlock(&p->mu);
    return id;
}

/* Takes back the last job queued and not started: its id (its payload
 * freed), or -1 when there is none. */
static int pool_recall(pool *p)
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

/* The run is stopping: closes the queue and takes every job still queued
 * out of it (their payloads freed); writes their ids to ids (room for the
 * run's jobs) and returns their count. The pool's threads start no job
 * once stopping, so none of these has started. */
static int pool_interrupt(pool *p, int32_t *ids)
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

static void pool_finish(pool *p)
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

/* Nothing to do: waits up to 1 ms for a message, or less when one of this
 * rank's threads finishes a job meanwhile (its reply then goes out at once:
 * with a plain 1 ms sleep, Microban I's 155 short levels lost 0.35 s of 2 s
 * waiting, one thread on one rank). */
static void nap(pool *p)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&p->mu);
    if (p->dh == p->dt)
        pthread_cond_timedwait(&p->done_cv, &p->mu, &ts);
    pthread_mutex_unlock(&p->mu);
}

/* Whether rank 0 tells on stderr where jobs go (KEEPER_MPI_TRACE=1; the
 * test of recalls reads it). */
static int tracing(void)
{
    static int t = -1;
    if (t < 0) {
        const char *s = getenv("KEEPER_MPI_TRACE");
        t = s && *s && strcmp(s, "0") != 0;
    }
    return t;
}

/* The rank that the test of lost workers makes die (0: none). */
static int lose_rank(void)
{
    const char *s = getenv("KEEPER_MPI_TEST_LOSE_RANK");
    return s ? atoi(s) : 0;
}

/* A worker rank: runs the jobs rank 0 sends until TAG_STOP and the last
 * reply is sent. */
static void serve(work *w, int me)
{
    pool p;
    pool_start(&p, w);
    int stop = 0, inflight = 0, halted = 0;
    int32_t *unstarted = xcalloc((size_t)w->njobs + 1, sizeof(int32_t));
    strbuf msg;
    sb_init(&msg);
    int64_t beat = timer_now_ns();
    for (;;) {
        int busy = 0, id;
        if (timer_now_ns() - beat >= 1000000000) {
            /* still here (rank 0 counts a rank silent too long as lost) */
            MPI_Send("", 0, MPI_CHAR, 0, TAG_ALIVE, MPI_COMM_WORLD);
            beat = timer_now_ns();
        }
        if (stopping(w) && !halted) {
            /* A signal here or rank 0's TAG_INTERRUPT: the jobs waiting go
             * back unstarted (none: rank 0 learns that the run stops). */
            halted = 1;
            int nu = pool_interrupt(&p, unstarted);
            inflight -= nu;
            if (MPI_Send(unstarted, nu * (int)sizeof(int32_t), MPI_CHAR, 0, TAG_UNSTARTED,
                         MPI_COMM_WORLD) != MPI_SUCCESS)
                stop = 2;
            busy = 1;
        }
        while ((id = pool_done(&p)) >= 0) {
            int32_t id32 = id;
            sb_clear(&msg);
            sb_putn(&msg, (const char *)&id32, sizeof id32);
            sb_putn(&msg, p.reply[id].s ? p.reply[id].s : "", p.reply[id].len);
            sb_free(&p.reply[id]);
            if (MPI_Send(msg.s, (int)msg.len, MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD) !=
                MPI_SUCCESS)
                stop = 2;
            inflight--;
            busy = 1;
        }
        if (stop == 2 || (stop && inflight == 0))
            break;
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
            stop = 2; /* rank 0 is gone */
            break;
        }
        if (flag) {
            int n = 0;
            MPI_Get_count(&st, MPI_CHAR, &n);
            char *buf = xmalloc((size_t)n + 1);
            if (MPI_Recv(buf, n, MPI_CHAR, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                MPI_SUCCESS) {
                free(buf);
                stop = 2;
                break;
            }
            if (st.MPI_TAG == TAG_STOP) {
                stop = 1;
                pool_close(&p);
                free(buf);
            } else if (st.MPI_TAG == TAG_INTERRUPT) {
                free(buf);
                if (w->interrupt)
                    atomic_store(w->interrupt, 1); /* taken up at the loop's top */
            } else if (st.MPI_TAG == TAG_RECALL) {
                free(buf);
                int32_t back = pool_recall(&p);
                if (back >= 0)
                    inflight--;
                if (MPI_Send(&back, (int)sizeof back, MPI_CHAR, 0, TAG_RECALLED, MPI_COMM_WORLD) !=
                    MPI_SUCCESS) {
                    stop = 2;
                    break;
                }
            } else if (st.MPI_TAG != TAG_JOB || n < (int)sizeof(int32_t)) {
                free(buf); /* not a job (cannot happen): dropped */
                fprintf(stderr, "keeper-mpi: rank %d: unexpected message (tag %d, %d bytes)\n", me,
                        st.MPI_TAG, n);
            } else {
                if (me == lose_rank())
                    _exit(3); /* the test of a lost worker */
                int32_t id32;
                memcpy(&id32, buf, sizeof id32);
                if (halted) {
                    /* sent before rank 0 knew: back, unstarted */
                    free(buf);
                    if (MPI_Send(&id32, (int)sizeof id32, MPI_CHAR, 0, TAG_UNSTARTED,
                                 MPI_COMM_WORLD) != MPI_SUCCESS) {
                        stop = 2;
                        break;
                    }
                } else {
                    size_t pn = (size_t)n - sizeof id32;
                    char *pay = xmalloc(pn + 1);
                    memcpy(pay, buf + sizeof id32, pn);
                    free(buf);
                    pool_push(&p, id32, pay, pn);
                    inflight++;
                }
            }
            busy = 1;
        }
        if (!busy)
            nap(&p);
    }
    sb_free(&msg);
    free(unstarted);
    pool_finish(&p);
    /* The end: rank 0 says whether some rank was lost, in which case this
     * rank leaves without MPI_Finalize too (it would wait for the lost
     * rank forever). A failed send means rank 0 is gone: leave as well.
     * A TAG_INTERRUPT may come first (rank 0 stopped after this rank's
     * last reply): taken and dropped, so that no message is left. */
    char any_lost = 1;
    while (stop != 2) {
        MPI_Status st;
        int n = 0;
        if (MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
            break;
        MPI_Get_count(&st, MPI_CHAR, &n);
        char *buf = xmalloc((size_t)n + 1);
        int rc = MPI_Recv(buf, n, MPI_CHAR, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && st.MPI_TAG == TAG_DONE && n == 1)
            any_lost = buf[0];
        free(buf);
        if (rc != MPI_SUCCESS || st.MPI_TAG == TAG_DONE)
            break;
    }
    if (any_lost)
        w->lost = 1;
}

/* Rank 0's view of the ranks. */
typedef struct coord {
    int *owner;           /* by job: the rank it went to */
    char *got;            /* by job: its reply was taken */
    int *load;            /* by rank: jobs out */
    char *alive;          /* by rank: still given jobs */
    int64_t *heard;       /* by rank: when it last sent anything */
    int64_t lost_after_ns; /* a rank with jobs silent this long is lost */
    int ndone;
    int threads;          /* per rank */
    int64_t *seq;         /* by job: when it was sent (a counter) */
    int64_t nsent;
    int *back, nback;     /* jobs to hand out again, before the queue's next */
} coord;

/* Rank r is lost: says so, its jobs that may have started are taken as
 * lost, those waiting there go out again, it gets no more. A worker runs
 * its jobs in the order they came, so with T threads the T sent first of
 * those it holds are the ones that may have started (a job that kills its
 * rank is not handed to the next). */
static void lose(work *w, coord *cs, int r, const char *why)
{
    /* the jobs r holds; cut: 1 may have started (lost), 2 waits there
     * (goes out again) */
    int *held = xcalloc((size_t)cs->load[r] + 1, sizeof(int)), nheld = 0, nlost = 0;
    for (int k = 0; k < w->njobs && nheld < cs->load[r]; k++)
        if (cs->owner[k] == r && !cs->got[k])
            held[nheld++] = k;
    char *cut = xcalloc((size_t)nheld + 1, 1);
    for (int i = 0; i < nheld; i++) {
        int older = 0; /* jobs held by r sent before this one */
        for (int j = 0; j < nheld; j++)
            older += cs->seq[held[j]] < cs->seq[held[i]];
        cut[i] = older < cs->threads ? 1 : 2;
        nlost += cut[i] == 1;
    }
    fprintf(stderr, "keeper: error: rank %d lost (%s); its %d level%s marked 'worker lost'\n", r,
            why, nlost, nlost == 1 ? "" : "s");
    cs->alive[r] = 0;
    w->lost++;
    for (int i = 0; i < nheld; i++) {
        int k = held[i];
        if (cut[i] == 1) {
            w->take(w, k, NULL, 0);
            cs->got[k] = 1;
            cs->ndone++;
        } else {
            cs->owner[k] = -1;
            cs->back[cs->nback++] = k;
        }
    }
    free(held);
    free(cut);
    cs->load[r] = 0;
}

/* Job id will not run (the run is stopping): said to w, and resolved. */
static void unstart(work *w, coord *cs, int id)
{
    if (tracing())
        fprintf(stderr, "keeper-mpi: trace: job %d not started\n", id);
    w->unstarted(w, id);
    cs->got[id] = 1;
    cs->ndone++;
}

typedef struct weighed {
    long weight;
    int id;
} weighed;

static int heavier_first(const void *a, const void *b)
{
    const weighed *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Rank 0: no job will follow, to every live worker rank. */
static void stop_workers(const char *alive, int size)
{
    for (int r = 1; r < size; r++)
        if (alive[r])
            MPI_Send("", 0, MPI_CHAR, r, TAG_STOP, MPI_COMM_WORLD);
}

/* Rank 0: hands the jobs out (largest first) to the ranks, its own threads
 * included, and takes the replies as they come. */
static void coordinate(work *w, int size)
{
    int n = w->njobs;
    /* by weight, descending; equal weights keep input order */
    weighed *wj = xcalloc((size_t)n + 1, sizeof(weighed));
    for (int i = 0; i < n; i++)
        wj[i] = (weighed){w->weight[i], i};
    qsort(wj, (size_t)n, sizeof *wj, heavier_first);
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        order[i] = wj[i].id;
    free(wj);
    coord cs;
    memset(&cs, 0, sizeof cs);
    int *owner = cs.owner = xcalloc((size_t)n + 1, sizeof(int));
    char *got = cs.got = xcalloc((size_t)n + 1, 1);
    int *load = cs.load = xcalloc((size_t)size, sizeof(int));
    char *alive = cs.alive = xcalloc((size_t)size, 1);
    memset(alive, 1, (size_t)size);
    cs.heard = xcalloc((size_t)size, sizeof(int64_t));
    for (int r = 0; r < size; r++)
        cs.heard[r] = timer_now_ns();
    const char *la = getenv("KEEPER_MPI_LOST_AFTER");
    cs.lost_after_ns = (int64_t)((la && atof(la) > 0 ? atof(la) : 60.0) * 1e9);
    MPI_Request *sreq = xcalloc((size_t)n + 1, sizeof(MPI_Request));
    char **sbuf = xcalloc((size_t)n + 1, sizeof(char *));
    int *pend = xcalloc((size_t)n + 1, sizeof(int)), npend = 0;
    pool p;
    pool_start(&p, w);
    int next = 0, stopped = 0;
    cs.threads = w->threads;
    cs.seq = xcalloc((size_t)n + 1, sizeof(int64_t));
    /* jobs recalled or taken from a lost rank, to hand out again before
     * order[next] */
    int *back = cs.back = xcalloc((size_t)n + 1, sizeof(int));
    char *recalling = xcalloc((size_t)size, 1); /* by rank: a recall is out */
    char *started = xcalloc((size_t)size, 1);   /* by rank: its last recall
                                                   found no job waiting */
    int halted = 0; /* the run is stopping: no job goes out any more */
    int32_t *ids = xcalloc((size_t)n + 1, sizeof(int32_t));
    strbuf msg;
    sb_init(&msg);
    for (;;) {
        int busy = 0;
        /* 0. Stopping (a signal on this rank, or a worker's TAG_UNSTARTED):
         *    the jobs queued here and those not sent will not run; every
         *    live worker is told to stop, and that no job will follow. The
         *    replies still due are taken below; a job recalled or taken
         *    back from a lost rank from now on does not run either. */
        if (stopping(w)) {
            if (!halted) {
                halted = 1;
                if (tracing())
                    fprintf(stderr, "keeper-mpi: trace: stopping\n");
                int nu = pool_interrupt(&p, ids);
                for (int i = 0; i < nu; i++) {
                    unstart(w, &cs, ids[i]);
                    load[0]--;
                }
                for (int r = 1; r < size; r++)
                    if (alive[r] &&
                        MPI_Send("", 0, MPI_CHAR, r, TAG_INTERRUPT, MPI_COMM_WORLD) != MPI_SUCCESS)
                        lose(w, &cs, r, "its messages fail");
                if (!stopped)
                    stop_workers(alive, size);
                stopped = 1;
            }
            while (next < n)
                unstart(w, &cs, order[next++]);
            while (cs.nback > 0)
                unstart(w, &cs, back[--cs.nback]);
        }
        /* 1. Hand out jobs while some rank has room: a free thread first
         *    (the least loaded rank, the workers before rank 0), then a
         *    place to wait on a worker rank. */
        while (!halted && (next < n || cs.nback > 0)) {
            int r = -1;
            for (int k = 1; k <= size; k++) {
                int q = k % size;
                int room = (q == 0 ? w->threads : w->threads + AHEAD) - load[q];
                if (alive[q] && room > 0 && (r < 0 || load[q] < load[r]))
                    r = q;
            }
            if (r < 0)
                break;
            int id = cs.nback > 0 ? back[--cs.nback] : order[next++];
            sb_clear(&msg);
            int32_t id32 = id;
            sb_putn(&msg, (const char *)&id32, sizeof id32);
            w->payload(w, id, &msg);
            if (r == 0) {
                size_t pn = msg.len - sizeof id32;
                char *pay = xmalloc(pn + 1);
                memcpy(pay, msg.s + sizeof id32, pn);
                pool_push(&p, id, pay, pn);
            } else {
                /* Not a blocking send: the worker may be sending a long
                 * reply at this moment, both would wait for the other. */
                int len = (int)msg.len;
                if (sbuf[id]) { /* a recalled job's earlier send */
                    MPI_Wait(&sreq[id], MPI_STATUS_IGNORE);
                    for (int i = 0; i < npend; i++)
                        if (pend[i] == id)
                            pend[i--] = pend[--npend];
                    free(sbuf[id]);
                }
                sbuf[id] = sb_take(&msg);
                if (MPI_Isend(sbuf[id], len, MPI_CHAR, r, TAG_JOB, MPI_COMM_WORLD, &sreq[id]) !=
                    MPI_SUCCESS) {
                    fprintf(stderr,
                            "keeper: error: rank %d cannot be reached; no more jobs go to it\n", r);
                    free(sbuf[id]);
                    sbuf[id] = NULL;
                    alive[r] = 0;
                    back[cs.nback++] = id; /* the job goes to another rank */
                    continue;
                }
                pend[npend++] = id;
            }
            if (tracing())
                fprintf(stderr, "keeper-mpi: trace: job %d to rank %d\n", id, r);
            owner[id] = r;
            cs.seq[id] = cs.nsent++;
            load[r]++;
            busy = 1;
        }
        /* The jobs sent: their buffers are free once the sends complete. */
        for (int i = 0; i < npend; i++) {
            int id = pend[i], flag = 0;
            if (MPI_Test(&sreq[id], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                if (alive[owner[id]])
                    lose(w, &cs, owner[id], "a job could not be sent");
                flag = 1;
            }
            if (flag) {
                free(sbuf[id]);
                sbuf[id] = NULL;
                pend[i--] = pend[--npend];
            }
        }
        /* 1b. Nothing left to hand out, a thread free somewhere: recall a
         *     job waiting on a worker rank. */
        int free_thread = 0, waiting = 0, out = 0;
        for (int r = 0; r < size; r++)
            if (alive[r]) {
                free_thread |= load[r] < w->threads;
                waiting |= load[r] > w->threads;
                out |= recalling[r];
            }
        if (!halted && next == n && cs.nback == 0 && free_thread)
            for (int r = 1; r < size; r++)
                if (alive[r] && load[r] > w->threads && !recalling[r] && !started[r]) {
                    if (MPI_Send("", 0, MPI_CHAR, r, TAG_RECALL, MPI_COMM_WORLD) != MPI_SUCCESS) {
                        lose(w, &cs, r, "its messages fail");
                        continue;
                    }
                    recalling[r] = 1;
                    out = 1;
                    break; /* one at a time: its job may fill the free thread */
                }
        /* 2. Every job started: the ranks may lend their idle threads. */
        if (next == n && cs.nback == 0 && !waiting && !out && !stopped) {
            stop_workers(alive, size);
            pool_close(&p);
            stopped = 1;
        }
        if (cs.ndone == n)
            break;
        /* 3. Replies from rank 0's threads, then from the other ranks. */
        int id;
        while ((id = pool_done(&p)) >= 0) {
            if (tracing())
                fprintf(stderr, "keeper-mpi: trace: job %d done on rank 0\n", id);
            w->take(w, id, p.reply[id].s ? p.reply[id].s : "", p.reply[id].len);
            sb_free(&p.reply[id]);
            got[id] = 1;
            load[0]--;
            cs.ndone++;
            busy = 1;
        }
        int64_t now = timer_now_ns();
        for (int r = 1; r < size; r++) {
            int flag = 0, rc;
            MPI_Status st;
            while (alive[r] && MPI_Iprobe(r, TAG_ALIVE, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
                   flag) {
                MPI_Recv(NULL, 0, MPI_CHAR, r, TAG_ALIVE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                cs.heard[r] = now;
            }
            /* r stopped: the jobs it will not run (and, when the signal
             * reached r alone, the news that the run stops) */
            while (alive[r] && MPI_Iprobe(r, TAG_UNSTARTED, MPI_COMM_WORLD, &flag, &st) ==
                                   MPI_SUCCESS &&
                   flag) {
                int len = 0;
                MPI_Get_count(&st, MPI_CHAR, &len);
                if (len < 0 || len > n * (int)sizeof(int32_t) ||
                    MPI_Recv(ids, len, MPI_CHAR, r, TAG_UNSTARTED, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    lose(w, &cs, r, "its messages fail");
                    break;
                }
                cs.heard[r] = now;
                for (int i = 0; i < len / (int)sizeof(int32_t); i++)
                    if (ids[i] >= 0 && ids[i] < n && owner[ids[i]] == r && !got[ids[i]]) {
                        unstart(w, &cs, ids[i]);
                        load[r]--;
                    }
                if (w->interrupt)
                    atomic_store(w->interrupt, 1);
                busy = 1;
            }
            if (alive[r] && recalling[r] &&
                MPI_Iprobe(r, TAG_RECALLED, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag) {
                int32_t back_id = -1;
                if (MPI_Recv(&back_id, (int)sizeof back_id, MPI_CHAR, r, TAG_RECALLED,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    lose(w, &cs, r, "its messages fail");
                    continue;
                }
                cs.heard[r] = now;
                recalling[r] = 0;
                if (tracing())
                    fprintf(stderr, "keeper-mpi: trace: recall from rank %d: %s %d\n", r,
                            back_id >= 0 ? "job" : "none waiting", back_id);
                if (back_id >= 0 && back_id < n && owner[back_id] == r && !got[back_id]) {
                    owner[back_id] = -1;
                    load[r]--;
                    back[cs.nback++] = back_id;
                } else {
                    started[r] = 1; /* no recall until its next reply */
                }
                busy = 1;
            }
            if (!alive[r] || load[r] == 0)
                continue;
            if (now - cs.heard[r] > cs.lost_after_ns) {
                lose(w, &cs, r, "silent too long");
                busy = 1;
                continue;
            }
            rc = MPI_Iprobe(r, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
            char *buf = NULL;
            int len = 0;
            if (rc == MPI_SUCCESS && flag) {
                MPI_Get_count(&st, MPI_CHAR, &len);
                buf = xmalloc((size_t)len + 1);
                rc = MPI_Recv(buf, len, MPI_CHAR, r, TAG_RESULT, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE);
            }
            if (rc != MPI_SUCCESS) {
                lose(w, &cs, r, "its messages fail");
                free(buf);
                busy = 1;
                continue;
            }
            if (flag) {
                cs.heard[r] = timer_now_ns();
                int32_t id32;
                memcpy(&id32, buf, sizeof id32);
                if (tracing())
                    fprintf(stderr, "keeper-mpi: trace: job %d done on rank %d\n", id32, r);
                w->take(w, id32, buf + sizeof id32, (size_t)len - sizeof id32);
                got[id32] = 1;
                load[r]--;
                cs.ndone++;
                started[r] = 0;
                busy = 1;
            }
            free(buf);
        }
        if (!busy)
            nap(&p);
    }
    sb_free(&msg);
    pool_finish(&p);
    /* The stop not sent yet (a recall was out when the last reply came):
     * every worker leaves its loop on it, before the end below. */
    if (!stopped)
        stop_workers(alive, size);
    /* A recall's answer may come after the last reply (the job it found
     * had started): taken, so that no message is left unreceived. */
    for (int r = 1; r < size; r++)
        if (alive[r] && recalling[r]) {
            int32_t back_id;
            MPI_Recv(&back_id, (int)sizeof back_id, MPI_CHAR, r, TAG_RECALLED, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    /* The end, to every live rank: whether a rank was lost (then none may
     * call MPI_Finalize). */
    char any_lost = w->lost > 0;
    for (int r = 1; r < size; r++)
        if (alive[r])
            MPI_Send(&any_lost, 1, MPI_CHAR, r, TAG_DONE, MPI_COMM_WORLD);
    /* Every job has its reply, so every send to a live rank is complete;
     * those to lost ranks are left (the program leaves without
     * MPI_Finalize then). */
    for (int i = 0; i < npend; i++)
        if (alive[owner[pend[i]]]) {
            MPI_Wait(&sreq[pend[i]], MPI_STATUS_IGNORE);
            free(sbuf[pend[i]]);
        }
    free(sreq);
    free(sbuf);
    free(pend);
    free(back);
    free(cs.seq);
    free(recalling);
    free(started);
    free(ids);
    free(order);
    free(owner);
    free(got);
    free(load);
    free(alive);
    free(cs.heard);
}

/* CPUs this process may run on (its affinity mask), or 0 when unknown. */
static int cpus_allowed(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    return CPU_COUNT(&set);
}

/* Runs w: rank 0 coordinates, the others serve. First rank 0 learns the
 * fewest CPUs a rank may use: mpirun binds each rank to one core by
 * default (with no more ranks than cores), so --threads 2 would share one
 * core (Microban I, -n 1 --threads 2: 2.32 s wall bound, 1.25 s with
 * --bind-to none); rank 0 warns, once. */
static void distribute(work *w, int me, int size)
{
    int mine = cpus_allowed(), fewest = mine;
    if (mine <= 0)
        mine = fewest = 1 << 20; /* unknown: no warning */
    MPI_Reduce(&mine, &fewest, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (me == 0 && fewest < w->threads)
        fprintf(stderr,
                "keeper-mpi: warning: %d thread%s per rank, but a rank may run on only %d CPU%s "
                "(mpirun binds each rank to a core by default): run mpirun with --bind-to none, "
                "or --map-by slot:PE=%d\n",
                w->threads, w->threads == 1 ? "" : "s", fewest, fewest == 1 ? "" : "s",
                w->threads);
    if (me == 0)
        coordinate(w, size);
    else
        serve(w, me);
}

/* ---------------------------------------------------------------- files */

/* Rank 0 reads the files, every rank receives their bytes and parses them
 * the same way. Returns 0, or EXIT_BAD_INPUT on every rank when rank 0 could
 * not read one (rank 0 printed why). */
static int share_files(collection *c, const char *const *files, int nfiles, int me)
{
    int status = 0;
    char **data = xcalloc((size_t)nfiles + 1, sizeof(char *));
    uint64_t *len = xcalloc((size_t)nfiles + 1, sizeof(uint64_t));
    if (me == 0) {
        for (int f = 0; f < nfiles && !status; f++) {
            char *error;
            size_t n;
            if (collection_read(files[f], &data[f], &n, &error) != 0) {
                fprintf(stderr, "%s\n", error);
                free(error);
                status = EXIT_BAD_INPUT;
            }
            len[f] = n;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!status) {
        MPI_Bcast(len, nfiles, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        for (int f = 0; f < nfiles; f++) {
            if (me != 0)
                data[f] = xmalloc(len[f] + 1);
            MPI_Bcast(data[f], (int)len[f], MPI_CHAR, 0, MPI_COMM_WORLD);
            const char *name = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
            collection_parse(&c[f], name, data[f], len[f]);
        }
    }
    for (int f = 0; f < nfiles; f++)
        free(data[f]);
    free(data);
    free(len);
    return status;
}

/* Ranks other than 0 keep quiet while they parse the arguments (rank 0
 * prints the same messages); then their stderr is back, for fatal errors.
 * The one mutable static of the program, set once in main. */
static int saved_stderr = -1;

static void speak(void)
{
    if (saved_stderr >= 0) {
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
}

/* Agrees on a status: rank 0's. */
static int agree(int status)
{
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

/* ---------------------------------------------------------------- solve */

typedef struct solve_work {
    work w;
    const solve_args *a;
    const collection *c;
    int nfiles;
    const level **lv;   /* by job */
    int *file;          /* by job: its file */
    uint64_t mem;       /* memory budget of one thread */
    /* rank 0 */
    solve_result *res;  /* by job */
    char **keep;        /* by job: the reply the result's strings point into */
    char *done;         /* by job: 1 its result is in, 2 it will not run */
    int out_next, cur_file;
    int *file_end;      /* by file: one past its last job */
    int *file_jobs;
    FILE *out;
    int write_errno;
    solve_tally tally, sum;
    int64_t t_file;
} solve_work;

static void solve_run(work *w, int id, const char *payload, size_t n, strbuf *reply)
{
    solve_work *sw = (solve_work *)w;
    search_limits lim;
    driver_limits(&lim, &sw->a->o, w->interrupt);
    lim.spares = w->spares;
    solve_result r;
    solve_level(sw->lv[id], &sw->a->o, &lim, sw->mem, &r);
    /* the struct, then its strings: strategy, member names, solution */
    sb_putn(reply, (const char *)&r, sizeof r);
    sb_puts(reply, r.strategy ? r.strategy : "");
    sb_putc(reply, '\0');
    for (int i = 0; i < r.nmembers; i++) {
        sb_puts(reply, r.members[i].name ? r.members[i].name : "");
        sb_putc(reply, '\0');
    }
    sb_puts(reply, r.lurd ? r.lurd : "");
    sb_putc(reply, '\0');
    solve_result_free(&r);
}

static void solve_payload(work *w, int id, strbuf *out) {}

/* Writes the results that are next in input order, with each file's header
 * before its first level and its totals after its last. */
static void solve_flush(solve_work *sw)
{
    const solve_args *a = sw->a;
    while (sw->cur_file < sw->nfiles) {
        int f = sw->cur_file;
        if (sw->out_next < sw->file_end[f]) {
            int id = sw->out_next;
            if (!sw->done[id])
                return;
            if (sw->done[id] == 2) { /* interrupted before it started */
                sw->tally.skipped++;
                sw->out_next++;
                continue;
            }
            solveout_row(stderr, sw->lv[id], &sw->res[id], a->quiet, a->verbose, &sw->tally);
            fflush(stderr);
            solveout_level(sw->out, a->fmt, sw->lv[id], &sw->res[id]);
            if (fflush(sw->out) != 0 && !sw->write_errno)
                sw->write_errno = errno;
            sw->out_next++;
            continue;
        }
        /* the file is done: its totals, then the next file's header */
        if (!a->quiet)
            solveout_total(stderr, &sw->tally, sw->file_jobs[f], timer_seconds_since(sw->t_file),
                           atomic_load(&interrupted));
        sw->sum.solved += sw->tally.solved;
        sw->sum.unsolved += sw->tally.unsolved;
        sw->sum.invalid += sw->tally.invalid;
        sw->sum.skipped += sw->tally.skipped;
        memset(&sw->tally, 0, sizeof sw->tally);
        sw->t_file = timer_now_ns();
        sw->cur_file++;
        if (sw->cur_file < sw->nfiles) {
            int g = sw->cur_file;
            if (!a->quiet)
                solveout_header(stderr, sw->c[g].name, sw->file_jobs[g], &a->o,
                                driver_threads(&a->o, sw->file_jobs[g]));
            solveout_notes(sw->out, a->fmt, &sw->c[g]);
        }
    }
}

static void solve_take(work *w, int id, const char *reply, size_t n)
{
    solve_work *sw = (solve_work *)w;
    solve_result *r = &sw->res[id];
    if (!reply || n < sizeof *r) {
        memset(r, 0, sizeof *r);
        r->status = RESULT_UNSOLVED;
        r->lower_bound = -1;
        r->strategy = "";
        snprintf(r->reason, sizeof r->reason, "worker lost");
    } else {
        char *k = xmalloc(n + 1);
        memcpy(k, reply, n);
        k[n] = '\0';
        sw->keep[id] = k;
        memcpy(r, k, sizeof *r);
        const char *s = k + sizeof *r;
        r->strategy = s;
        s += strlen(s) + 1;
        for (int i = 0; i < r->nmembers; i++) {
            r->members[i].name = s;
            s += strlen(s) + 1;
        }
        r->lurd = r->status == RESULT_SOLVED ? xstrdup(s) : NULL;
    }
    sw->done[id] = 1;
    solve_flush(sw);
}

static void solve_unstarted(work *w, int id)
{
    solve_work *sw = (solve_work *)w;
    sw->done[id] = 2;
    solve_flush(sw);
}

static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -n N keeper-mpi solve FILE... [OPTIONS]\n"
            "       mpirun -n N keeper-mpi verify FILE [SOLUTIONS] [OPTIONS]\n"
            "\n"
            "Solves the levels of each FILE as keeper solve does, spread over the MPI\n"
            "ranks: rank 0 hands the levels out, largest first, --threads at a time to\n"
            "each rank (itself included), and writes the results in input order, the\n"
            "same bytes keeper solve writes for each FILE in turn (SOK, LURD or JSON\n"
            "lines; the result table on stderr). --html and --resume take one FILE. A\n"
            "signal (SIGTERM, Ctrl-C) on any rank stops every rank; the levels finished\n"
            "are written. A rank that dies is reported and its levels come out unsolved\n"
            "with the reason 'worker lost'. verify checks solutions the same way (see\n"
            "keeper verify --help).\n"
            "\n");
    solve_usage_options(f);
}

static int mpi_solve(int argc, char **argv, int me, int size, int *lost)
{
    solve_args a;
    int status = solve_parse_args(&a, argc, argv, "solve", 1);
    if (status < 0 && me == 0)
        solve_usage(stdout);
    if (status < 0) {
        solve_args_free(&a);
        return 0;
    }
    if (!status && a.html && a.nfiles > 1)
        status = cli_usage_error("solve", "--html takes one input file");
    /* The output of a run over several files cannot be matched to each
     * file exactly: its JSON lines repeat level numbers, its LURD lines do
     * not say where a file ends. */
    if (!status && a.resume && a.nfiles > 1)
        status = cli_usage_error("solve", "--resume takes one input file (continue each file's "
                                          "run on its own)");
    if (agree(status)) {
        solve_args_free(&a);
        return status;
    }
    speak();
    collection *c = xcalloc((size_t)a.nfiles, sizeof(collection));
    status = share_files(c, a.files, a.nfiles, me);
    for (int f = 0; f < a.nfiles && !status && me == 0; f++) {
        if (c[f].error) {
            fprintf(stderr, "%s\n", c[f].error);
            status = EXIT_BAD_INPUT;
        } else if (cli_check_level_sel(&a.sel, &c[f], "solve") != 0 ||
                   solve_output_is_input(&a, a.files[f])) {
            status = EXIT_BAD_INPUT;
        }
    }
    /* --resume: rank 0 reads the earlier output (solutions replayed); every
     * rank leaves out the levels solved there */
    char *resumed = NULL; /* by level of c[0]: solved in the --resume file */
    int nresumed = 0;
    if (me == 0 && !status && a.resume &&
        solve_resume_read(&a, &c[0], &resumed, &nresumed) != 0)
        status = EXIT_BAD_INPUT;
    FILE *out = NULL;
    if (me == 0 && !status && !(out = solve_open_output(&a)))
        status = EXIT_BAD_INPUT;
    if (agree(status)) {
        free(resumed);
        for (int f = 0; f < a.nfiles; f++)
            collection_free(&c[f]);
        free(c);
        solve_args_free(&a);
        return status;
    }
    if (a.resume) {
        if (me != 0)
            resumed = xcalloc((size_t)MAX(c[0].nlevels, 1), 1);
        MPI_Bcast(resumed, c[0].nlevels, MPI_CHAR, 0, MPI_COMM_WORLD);
    }

    solve_work sw;
    memset(&sw, 0, sizeof sw);
    sw.a = &a;
    sw.c = c;
    sw.nfiles = a.nfiles;
    int total = 0;
    for (int f = 0; f < a.nfiles; f++)
        total += c[f].nlevels;
    sw.lv = xcalloc((size_t)total + 1, sizeof(level *));
    sw.file = xcalloc((size_t)total + 1, sizeof(int));
    sw.file_end = xcalloc((size_t)a.nfiles, sizeof(int));
    sw.file_jobs = xcalloc((size_t)a.nfiles, sizeof(int));
    sw.w.weight = xcalloc((size_t)total + 1, sizeof(long));
    int n = 0;
    for (int f = 0; f < a.nfiles; f++) {
        for (int k = 0; k < c[f].nlevels; k++) {
            const level *lv = &c[f].levels[k];
            if (!cli_selected(&a.sel, lv->index) || (resumed && f == 0 && resumed[k]))
                continue;
            sw.file[n] = f;
            /* size: boxes first, then the board's area */
            sw.w.weight[n] = lv->error ? 0 : (long)level_count(lv, '$') * 100000 +
                                                 (long)lv->width * lv->height;
            sw.lv[n++] = lv;
        }
        sw.file_end[f] = n;
        sw.file_jobs[f] = n - (f ? sw.file_end[f - 1] : 0);
    }
    sw.w.njobs = n;
    sw.w.threads = driver_threads(&a.o, n);
    free(resumed);
    sw.w.run = solve_run;
    sw.w.payload = solve_payload;
    sw.w.take = solve_take;
    sw.w.unstarted = solve_unstarted;
    sw.w.interrupt = &interrupted;
    sw.mem = driver_memory_share(&a.o, sw.w.threads);
    spares sp;
    spares_init(&sp, sw.w.threads, sw.mem);
    sw.w.spares = &sp;
    int bad_out = 0;
    if (me == 0) {
        sw.res = xcalloc((size_t)n + 1, sizeof(solve_result));
        sw.keep = xcalloc((size_t)n + 1, sizeof(char *));
        sw.done = xcalloc((size_t)n + 1, 1);
        sw.out = out;
        sw.t_file = timer_now_ns();
        if (a.resume && !a.quiet)
            solveout_resumed(stderr, a.resume, nresumed);
        if (!a.quiet)
            solveout_header(stderr, c[0].name, sw.file_jobs[0], &a.o,
                            driver_threads(&a.o, sw.file_jobs[0]));
        solveout_notes(out, a.fmt, &c[0]);
        solve_flush(&sw); /* files without a selected level */
    }
    /* Every rank: a signal stops the run as it stops keeper solve (see the
     * top of this file). */
    atomic_store(&interrupted, 0);
    cli_signals old_sa;
    cli_catch_stop_signals(on_stop_signal, &old_sa);
    distribute(&sw.w, me, size);
    *lost = sw.w.lost;
    if (me == 0) {
        solve_flush(&sw);
        bad_out = solveout_close(out, a.output, sw.write_errno) != 0;
        if (a.html) {
            /* the levels that ran */
            const level **lp = xcalloc((size_t)n + 1, sizeof *lp);
            const solve_result **rp = xcalloc((size_t)n + 1, sizeof *rp);
            int m = 0;
            for (int k = 0; k < n; k++)
                if (sw.done[k] == 1) {
                    lp[m] = sw.lv[k];
                    rp[m++] = &sw.res[k];
                }
            if (solveout_html(a.html, c[0].name, lp, rp, m, a.quiet) != 0)
                bad_out = 1;
            free(lp);
            free(rp);
        }
        status = solveout_exit(&sw.sum, bad_out);
        for (int k = 0; k < n; k++) {
            solve_result_free(&sw.res[k]);
            free(sw.keep[k]);
        }
        free(sw.res);
        free(sw.keep);
        free(sw.done);
    }
    cli_restore_stop_signals(&old_sa);
    spares_destroy(&sp);
    free(sw.lv);
    free(sw.file);
    free(sw.file_end);
    free(sw.file_jobs);
    free(sw.w.weight);
    for (int f = 0; f < a.nfiles; f++)
        collection_free(&c[f]);
    free(c);
    solve_args_free(&a);
    /* No collective call here: a lost rank would never join it. Rank 0's
     * status is the run's (mpirun exits with it). */
    return me == 0 ? status : 0;
}

/* --------------------------------------------------------------- verify */

typedef struct verify_work {
    work w;
    const verify_args *a;
    const collection *c;
    vlist items; /* rank 0 */
    int *item;   /* by job: its index in items */
    /* rank 0 */
    char *done;
    strbuf *out, *err;
    verify_outcome *vo;
    int out_next;
    int *has_solution;
    verify_tally tally;
} verify_work;

static void put_i64(strbuf *b, int64_t x)
{
    sb_putn(b, (const char *)&x, sizeof x);
}

static int64_t get_i64(const char **p)
{
    int64_t x;
    memcpy(&x, *p, sizeof x);
    *p += sizeof x;
    return x;
}

/* A solution as a job's payload: the level (its place in the collection),
 * the numbers, then the strings src, title (or none) and moves. */
static void verify_payload(work *w, int id, strbuf *out)
{
    verify_work *vw = (verify_work *)w;
    const vitem *it = &vw->items.v[vw->item[id]];
    put_i64(out, it->lv - vw->c->levels);
    put_i64(out, it->line);
    put_i64(out, it->section);
    put_i64(out, it->saved_game);
    put_i64(out, it->claim_moves);
    put_i64(out, it->claim_pushes);
    put_i64(out, it->title != NULL);
    sb_puts(out, it->src);
    sb_putc(out, '\0');
    sb_puts(out, it->title ? it->title : "");
    sb_putc(out, '\0');
    sb_puts(out, it->moves);
    sb_putc(out, '\0');
}

static void verify_run(work *w, int id, const char *payload, size_t n, strbuf *reply)
{
    verify_work *vw = (verify_work *)w;
    const char *p = payload;
    vitem it;
    memset(&it, 0, sizeof it);
    it.lv = &vw->c->levels[get_i64(&p)];
    it.line = (int)get_i64(&p);
    it.section = (int)get_i64(&p);
    it.saved_game = (int)get_i64(&p);
    it.claim_moves = (long)get_i64(&p);
    it.claim_pushes = (long)get_i64(&p);
    int has_title = (int)get_i64(&p);
    it.src = (char *)(uintptr_t)p;
    p += strlen(p) + 1;
    it.title = has_title ? (char *)(uintptr_t)p : NULL;
    p += strlen(p) + 1;
    it.moves = (char *)(uintptr_t)p;
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    verify_outcome vo;
    verify_item(&it, &vw->a->f, &out, &err, &vo);
    /* the outcome, the stdout text's length, the stdout text, the stderr text */
    sb_putn(reply, (const char *)&vo, sizeof vo);
    put_i64(reply, (int64_t)out.len);
    sb_putn(reply, out.s ? out.s : "", out.len);
    sb_putn(reply, err.s ? err.s : "", err.len);
    sb_free(&out);
    sb_free(&err);
}

static void verify_take(work *w, int id, const char *reply, size_t n)
{
    verify_work *vw = (verify_work *)w;
    const vitem *it = &vw->items.v[vw->item[id]];
    sb_init(&vw->out[id]);
    sb_init(&vw->err[id]);
    if (!reply || n < sizeof(verify_outcome) + sizeof(int64_t)) {
        memset(&vw->vo[id], 0, sizeof vw->vo[id]);
        vw->vo[id].kind = 2;
        sb_printf(&vw->err[id], "%s:%d: error: level %d, section %d: not checked: worker lost\n",
                  it->src, it->line, it->lv->index, it->section);
    } else {
        memcpy(&vw->vo[id], reply, sizeof vw->vo[id]);
        const char *p = reply + sizeof vw->vo[id];
        size_t olen = (size_t)get_i64(&p);
        sb_putn(&vw->out[id], p, olen);
        sb_putn(&vw->err[id], p + olen, (size_t)(reply + n - (p + olen)));
    }
    vw->done[id] = 1;
    while (vw->out_next < w->njobs && vw->done[vw->out_next]) {
        int k = vw->out_next++;
        if (vw->out[k].len)
            fwrite(vw->out[k].s, 1, vw->out[k].len, stdout);
        fflush(stdout);
        if (vw->err[k].len)
            fwrite(vw->err[k].s, 1, vw->err[k].len, stderr);
        verify_count(&vw->tally, &vw->items.v[vw->item[k]], &vw->vo[k], vw->has_solution);
        sb_free(&vw->out[k]);
        sb_free(&vw->err[k]);
    }
}

static int mpi_verify(int argc, char **argv, int me, int size, int *lost)
{
    verify_args a;
    int status = verify_parse_args(&a, argc, argv);
    if (status < 0) {
        if (me == 0)
            verify_usage(stdout);
        return 0;
    }
    if (agree(status))
        return status;
    speak();
    collection c;
    memset(&c, 0, sizeof c);
    status = share_files(&c, &a.file, 1, me);
    if (!status && me == 0 && (c.error || cli_check_level_sel(&a.sel, &c, "verify") != 0)) {
        if (c.error)
            fprintf(stderr, "%s\n", c.error);
        status = EXIT_BAD_INPUT;
    }
    verify_work vw;
    memset(&vw, 0, sizeof vw);
    vw.a = &a;
    vw.c = &c;
    int rc = 0, nbadlevel = 0;
    if (!status && me == 0) {
        /* the solutions, read on rank 0 alone */
        if (a.solfile) {
            rc = sol_read(&vw.items, &c, &a.sel, a.solfile);
            if (rc && vw.items.n == 0)
                status = rc;
        } else {
            for (int k = 0; k < c.nlevels; k++)
                sol_add_sections(&vw.items, &c.levels[k], &c.levels[k], c.name);
        }
    }
    if (agree(status)) {
        sol_list_free(&vw.items);
        collection_free(&c);
        return status;
    }
    if (me == 0) {
        for (int k = 0; k < c.nlevels; k++) {
            if (c.levels[k].error && cli_selected(&a.sel, c.levels[k].index)) {
                fprintf(stderr, "%s\n", c.levels[k].error);
                nbadlevel++;
            }
        }
        vw.item = xcalloc((size_t)vw.items.n + 1, sizeof(int));
        vw.w.weight = xcalloc((size_t)vw.items.n + 1, sizeof(long));
        for (int i = 0; i < vw.items.n; i++) {
            if (!cli_selected(&a.sel, vw.items.v[i].lv->index))
                continue;
            vw.w.weight[vw.w.njobs] = (long)strlen(vw.items.v[i].moves);
            vw.item[vw.w.njobs++] = i;
        }
        vw.done = xcalloc((size_t)vw.w.njobs + 1, 1);
        vw.out = xcalloc((size_t)vw.w.njobs + 1, sizeof(strbuf));
        vw.err = xcalloc((size_t)vw.w.njobs + 1, sizeof(strbuf));
        vw.vo = xcalloc((size_t)vw.w.njobs + 1, sizeof(verify_outcome));
        vw.has_solution = xcalloc((size_t)c.nlevels + 1, sizeof(int));
    }
    MPI_Bcast(&vw.w.njobs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    vw.w.threads = 1;
    vw.w.run = verify_run;
    vw.w.payload = verify_payload;
    vw.w.take = verify_take;
    distribute(&vw.w, me, size);
    *lost = vw.w.lost;
    if (me == 0) {
        verify_summary(stderr, &vw.tally, &c, &a.sel, vw.has_solution, a.f.audit);
        if (rc || nbadlevel)
            status = EXIT_BAD_INPUT;
        else
            status = verify_status(&vw.tally, a.solfile ? a.solfile : a.file);
        free(vw.item);
        free(vw.w.weight);
        free(vw.done);
        free(vw.out);
        free(vw.err);
        free(vw.vo);
        free(vw.has_solution);
    }
    sol_list_free(&vw.items);
    collection_free(&c);
    return me == 0 ? status : 0;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -n N keeper-mpi solve FILE... [OPTIONS]\n"
               "       mpirun -n N keeper-mpi verify FILE [SOLUTIONS] [OPTIONS]\n"
               "(keeper-mpi solve --help, keeper-mpi verify --help)\n");
}

int main(int argc, char **argv)
{
    cli_setup_allocator();
    int provided, me, size;
    /* Open MPI's point-to-point layer: ob1 unless the user chose one. Its
     * default probes UCX first, which costs 0.2 s at every start (mpirun
     * -n 2 on the demo: 0.35 s against 0.14 s); keeper-mpi's messages are
     * few and small, so the choice costs nothing once running. Other MPI
     * libraries ignore the variable. */
    setenv("OMPI_MCA_pml", "ob1", 0);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Only rank 0 speaks: the others' copies of the same messages (every
     * rank parses the same arguments) go nowhere. */
    if (me != 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            saved_stderr = dup(2);
            dup2(null, 2);
            close(null);
        }
    }
    int status, lost = 0;
    if (argc < 2) {
        if (me == 0)
            usage(stderr);
        status = EXIT_BAD_INPUT;
    } else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (me == 0)
            usage(stdout);
        status = 0;
    } else if (!strcmp(argv[1], "--version")) {
        if (me == 0)
            printf("keeper-mpi %s\n", KEEPER_VERSION);
        status = 0;
    } else if (!strcmp(argv[1], "solve")) {
        status = mpi_solve(argc - 1, argv + 1, me, size, &lost);
    } else if (!strcmp(argv[1], "verify")) {
        status = mpi_verify(argc - 1, argv + 1, me, size, &lost);
    } else {
        status = me == 0 ? cli_usage_error(NULL, "unknown command '%s' (solve or verify)", argv[1])
                         : EXIT_BAD_INPUT;
    }
    speak();
    if (lost) {
        /* MPI_Finalize would wait for the lost rank forever; everything is
         * written, so leave without it (mpirun then ends the other ranks). */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    MPI_Finalize();
    return status;
}
