/* scheduler.c: keeper-mpi's jobs spread over the ranks of an MPI job
 * (scheduler.h). Jobs are ids with payloads of bytes; what they mean is
 * keeper_mpi.c's business, how they travel and where they run is this
 * file's; the threads of one rank are pool.c's.
 *
 * Rank 0 keeps the work queue: jobs go out largest first, up to --threads
 * at a time to each rank (rank 0 included, with its own threads), and one
 * more to each other rank that waits there, so that a thread finishing a
 * job starts the next at once instead of waiting for rank 0 to hear of it.
 * When no job is left to hand out and some rank has a free thread, rank 0
 * recalls a waiting job from another rank (a job not started yet comes
 * back and goes out again), so that none waits behind a long one.
 *
 * Messages: TAG_JOB (rank 0 to a worker): a 4-byte job id, then the job's
 * payload. TAG_STOP: no job will follow (idle threads are then lent to
 * running portfolios, as keeper solve does); sent once every job has
 * started. TAG_RECALL (rank 0 to a worker, empty): give back a job not
 * started; TAG_RECALLED (the reply): its id, or -1 when every job there has
 * started. TAG_RESULT (worker to rank 0): the job id, then the reply.
 * TAG_ALIVE (worker to rank 0, empty): a heartbeat every second. TAG_DONE
 * (rank 0 to each live worker, one byte): every reply is in; 1 when a rank
 * was lost, so that no rank waits in MPI_Finalize for it.
 *
 * Stopping (w->interrupt set on any rank: a signal, see keeper_mpi.c): a
 * rank that sees it stops the jobs running there (their replies come as
 * usual) and starts none of those waiting. Rank 0 then hands out no more
 * jobs (those never sent count as not started), sends TAG_INTERRUPT (empty)
 * and, unless sent already, TAG_STOP to every live worker, and takes the
 * replies still due. A worker that stops (its own signal, or TAG_INTERRUPT)
 * sends TAG_UNSTARTED: the ids of the jobs it held and will not run,
 * possibly none (which tells rank 0 to stop the run when the signal reached
 * this worker alone); a job arriving after that is sent back the same way.
 * A worker leaves its loop on TAG_STOP alone, so every job sent to it is
 * answered.
 *
 * Every rank's main thread does all MPI calls (MPI_THREAD_FUNNELED); the
 * pool's threads only take jobs from and give replies to it. Errors return
 * (MPI_ERRORS_RETURN): a rank whose messages fail, or that has jobs out and
 * sent nothing for KEEPER_MPI_LOST_AFTER seconds (60), is marked lost, its
 * jobs that may have started reported lost (w->take with no reply; those
 * waiting there go out again), and no more jobs go to it. (Open MPI's
 * mpirun ends the whole job when a rank dies unless run with
 * --enable-recovery; then the heartbeat is what notices.) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include "scheduler.h"
#include "pool.h"

#include "../util/timer.h"
#include "../util/util.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_JOB = 1, TAG_STOP = 2, TAG_RESULT = 3, TAG_ALIVE = 4, TAG_DONE = 5, TAG_RECALL = 6,
       TAG_RECALLED = 7, TAG_INTERRUPT = 8, TAG_UNSTARTED = 9 };

/* Jobs a worker rank holds beyond its threads, waiting there. */
#define AHEAD 1

int work_stopping(const work *w)
{
    return w->interrupt && atomic_load(w->interrupt);
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

/* ------------------------------------------------- a worker rank: serve */

/* A worker rank's state while it serves. */
typedef struct worker {
    work *w;
    int me;
    pool p;
    int stop;           /* 1: TAG_STOP came; 2: leave now (rank 0 is gone,
                           or a message to it failed) */
    int inflight;       /* jobs held here whose reply is not sent */
    int halted;         /* stopping: the jobs waiting here went back */
    int32_t *unstarted; /* room for the ids of every job */
    strbuf msg;
    int64_t beat;       /* when the last heartbeat went */
} worker;

/* A heartbeat to rank 0 once a second (it counts a rank silent too long
 * as lost). */
static void worker_beat(worker *wk)
{
    if (timer_now_ns() - wk->beat >= 1000000000) {
        MPI_Send("", 0, MPI_CHAR, 0, TAG_ALIVE, MPI_COMM_WORLD);
        wk->beat = timer_now_ns();
    }
}

/* A signal here or rank 0's TAG_INTERRUPT, the first time it is seen: the
 * jobs waiting go back unstarted (none: rank 0 learns that the run
 * stops). Returns whether it did anything. */
static int worker_halt(worker *wk)
{
    if (!work_stopping(wk->w) || wk->halted)
        return 0;
    wk->halted = 1;
    int nu = pool_interrupt(&wk->p, wk->unstarted);
    wk->inflight -= nu;
    if (MPI_Send(wk->unstarted, nu * (int)sizeof(int32_t), MPI_CHAR, 0, TAG_UNSTARTED,
                 MPI_COMM_WORLD) != MPI_SUCCESS)
        wk->stop = 2;
    return 1;
}

/* Sends rank 0 every reply the pool has ready. Returns whether one went. */
static int worker_send_replies(worker *wk)
{
    int busy = 0, id;
    while ((id = pool_done(&wk->p)) >= 0) {
        strbuf *r = &wk->p.reply[id];
        int32_t id32 = id;
        sb_clear(&wk->msg);
        sb_putn(&wk->msg, (const char *)&id32, sizeof id32);
        sb_putn(&wk->msg, r->s ? r->s : "", r->len);
        sb_free(r);
        if (MPI_Send(wk->msg.s, (int)wk->msg.len, MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD) !=
            MPI_SUCCESS)
            wk->stop = 2;
        wk->inflight--;
        busy = 1;
    }
    return busy;
}

/* TAG_RECALL: gives back the last job waiting here, or -1. */
static void worker_recall(worker *wk)
{
    int32_t back = pool_recall(&wk->p);
    if (back >= 0)
        wk->inflight--;
    if (MPI_Send(&back, (int)sizeof back, MPI_CHAR, 0, TAG_RECALLED, MPI_COMM_WORLD) !=
        MPI_SUCCESS)
        wk->stop = 2;
}

/* TAG_JOB (buf, n bytes: the id, then the payload): queued for the pool,
 * or sent back unstarted when this rank has stopped. */
static void worker_job(worker *wk, const char *buf, int n)
{
    if (wk->me == lose_rank())
        _exit(3); /* the test of a lost worker */
    int32_t id32;
    memcpy(&id32, buf, sizeof id32);
    if (wk->halted) {
        /* sent before rank 0 knew: back, unstarted */
        if (MPI_Send(&id32, (int)sizeof id32, MPI_CHAR, 0, TAG_UNSTARTED, MPI_COMM_WORLD) !=
            MPI_SUCCESS)
            wk->stop = 2;
        return;
    }
    size_t pn = (size_t)n - sizeof id32;
    char *pay = xmalloc(pn + 1);
    memcpy(pay, buf + sizeof id32, pn);
    pool_push(&wk->p, id32, pay, pn);
    wk->inflight++;
}

/* Takes one message from rank 0, if one is there, and acts on it. Returns
 * whether one came; stop is 2 when rank 0 is gone or an answer failed. */
static int worker_receive(worker *wk)
{
    int flag = 0, n = 0;
    MPI_Status st;
    if (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
        wk->stop = 2; /* rank 0 is gone */
        return 0;
    }
    if (!flag)
        return 0;
    MPI_Get_count(&st, MPI_CHAR, &n);
    char *buf = xmalloc((size_t)n + 1);
    if (MPI_Recv(buf, n, MPI_CHAR, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
        wk->stop = 2;
    } else if (st.MPI_TAG == TAG_STOP) {
        wk->stop = 1;
        pool_close(&wk->p);
    } else if (st.MPI_TAG == TAG_INTERRUPT) {
        if (wk->w->interrupt)
            atomic_store(wk->w->interrupt, 1); /* taken up by worker_halt */
    } else if (st.MPI_TAG == TAG_RECALL) {
        worker_recall(wk);
    } else if (st.MPI_TAG != TAG_JOB || n < (int)sizeof(int32_t)) {
        /* not a job (cannot happen): dropped */
        fprintf(stderr, "keeper-mpi: rank %d: unexpected message (tag %d, %d bytes)\n", wk->me,
                st.MPI_TAG, n);
    } else {
        worker_job(wk, buf, n);
    }
    free(buf);
    return 1;
}

/* The end: rank 0 says whether some rank was lost, in which case this rank
 * leaves without MPI_Finalize too (it would wait for the lost rank
 * forever). A failed send (stop 2) means rank 0 is gone: leave as well. A
 * TAG_INTERRUPT may come first (rank 0 stopped after this rank's last
 * reply): taken and dropped, so that no message is left. Returns whether
 * a rank was lost. */
static int worker_await_done(const worker *wk)
{
    char any_lost = 1;
    while (wk->stop != 2) {
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
    return any_lost != 0;
}

/* A worker rank: runs the jobs rank 0 sends until TAG_STOP and the last
 * reply is sent. */
static void serve(work *w, int me)
{
    worker wk;
    memset(&wk, 0, sizeof wk);
    wk.w = w;
    wk.me = me;
    pool_start(&wk.p, w);
    wk.unstarted = xcalloc((size_t)w->njobs + 1, sizeof(int32_t));
    sb_init(&wk.msg);
    wk.beat = timer_now_ns();
    for (;;) {
        worker_beat(&wk);
        int busy = worker_halt(&wk);
        busy |= worker_send_replies(&wk);
        if (wk.stop == 2 || (wk.stop && wk.inflight == 0))
            break;
        busy |= worker_receive(&wk);
        if (wk.stop == 2)
            break;
        if (!busy)
            pool_nap(&wk.p);
    }
    sb_free(&wk.msg);
    free(wk.unstarted);
    pool_finish(&wk.p);
    if (worker_await_done(&wk))
        w->lost = 1;
}

/* ------------------------------------------------- rank 0: coordinate */

/* Rank 0's view of the run: the jobs, the ranks and the sends in flight. */
typedef struct coord {
    work *w;
    int n;                 /* jobs */
    int size;              /* ranks */
    int threads;           /* per rank */
    int *order;            /* the jobs, largest first */
    int next;              /* order[next] is the next to hand out */
    int *back, nback;      /* jobs recalled or taken from a lost rank, to
                              hand out again before order[next] */
    int *owner;            /* by job: the rank it went to */
    char *got;             /* by job: its reply was taken */
    int64_t *seq;          /* by job: when it was sent (a counter) */
    int64_t nsent;
    int ndone;
    int *load;             /* by rank: jobs out */
    char *alive;           /* by rank: still given jobs */
    int64_t *heard;        /* by rank: when it last sent anything */
    char *recalling;       /* by rank: a recall is out */
    char *started;         /* by rank: its last recall found no job waiting */
    int64_t lost_after_ns; /* a rank with jobs silent this long is lost */
    MPI_Request *sreq;     /* by job: its send to a worker */
    char **sbuf;           /* by job: the buffer of that send, or NULL */
    int *pend, npend;      /* jobs whose send may not be complete */
    pool p;                /* rank 0's own threads */
    int stopped;           /* TAG_STOP went to the workers */
    int halted;            /* the run is stopping: no job goes out any more */
    int32_t *ids;          /* room for the ids of every job */
    strbuf msg;
} coord;

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

/* The order jobs go out in: by weight, descending; equal weights keep
 * input order. */
static int *heaviest_first(const work *w)
{
    int n = w->njobs;
    weighed *wj = xcalloc((size_t)n + 1, sizeof(weighed));
    for (int i = 0; i < n; i++)
        wj[i] = (weighed){w->weight[i], i};
    qsort(wj, (size_t)n, sizeof *wj, heavier_first);
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        order[i] = wj[i].id;
    free(wj);
    return order;
}

/* Sets cs up for w over size ranks (every rank alive, just heard from)
 * and starts rank 0's threads. */
static void coord_start(coord *cs, work *w, int size)
{
    int n = w->njobs;
    memset(cs, 0, sizeof *cs);
    cs->w = w;
    cs->n = n;
    cs->size = size;
    cs->threads = w->threads;
    cs->order = heaviest_first(w);
    cs->back = xcalloc((size_t)n + 1, sizeof(int));
    cs->owner = xcalloc((size_t)n + 1, sizeof(int));
    cs->got = xcalloc((size_t)n + 1, 1);
    cs->seq = xcalloc((size_t)n + 1, sizeof(int64_t));
    cs->load = xcalloc((size_t)size, sizeof(int));
    cs->alive = xcalloc((size_t)size, 1);
    memset(cs->alive, 1, (size_t)size);
    cs->heard = xcalloc((size_t)size, sizeof(int64_t));
    for (int r = 0; r < size; r++)
        cs->heard[r] = timer_now_ns();
    cs->recalling = xcalloc((size_t)size, 1);
    cs->started = xcalloc((size_t)size, 1);
    const char *la = getenv("KEEPER_MPI_LOST_AFTER");
    cs->lost_after_ns = (int64_t)((la && atof(la) > 0 ? atof(la) : 60.0) * 1e9);
    cs->sreq = xcalloc((size_t)n + 1, sizeof(MPI_Request));
    cs->sbuf = xcalloc((size_t)n + 1, sizeof(char *));
    cs->pend = xcalloc((size_t)n + 1, sizeof(int));
    cs->ids = xcalloc((size_t)n + 1, sizeof(int32_t));
    sb_init(&cs->msg);
    pool_start(&cs->p, w);
}

/* Rank r is lost: says so, its jobs that may have started are taken as
 * lost, those waiting there go out again, it gets no more. A worker runs
 * its jobs in the order they came, so with T threads the T sent first of
 * those it holds are the ones that may have started (a job that kills its
 * rank is not handed to the next). */
static void lose(coord *cs, int r, const char *why)
{
    work *w = cs->w;
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
static void unstart(coord *cs, int id)
{
    if (tracing())
        fprintf(stderr, "keeper-mpi: trace: job %d not started\n", id);
    cs->w->unstarted(cs->w, id);
    cs->got[id] = 1;
    cs->ndone++;
}

/* No job will follow, to every live worker rank. */
static void coord_stop_workers(const coord *cs)
{
    for (int r = 1; r < cs->size; r++)
        if (cs->alive[r])
            MPI_Send("", 0, MPI_CHAR, r, TAG_STOP, MPI_COMM_WORLD);
}

/* Stopping (a signal on this rank, or a worker's TAG_UNSTARTED): the jobs
 * queued here and those not sent will not run; the first time, every live
 * worker is told to stop, and that no job will follow. The replies still
 * due are taken as usual; a job recalled or taken back from a lost rank
 * from now on does not run either. */
static void coord_halt(coord *cs)
{
    if (!cs->halted) {
        cs->halted = 1;
        if (tracing())
            fprintf(stderr, "keeper-mpi: trace: stopping\n");
        int nu = pool_interrupt(&cs->p, cs->ids);
        for (int i = 0; i < nu; i++) {
            unstart(cs, cs->ids[i]);
            cs->load[0]--;
        }
        for (int r = 1; r < cs->size; r++)
            if (cs->alive[r] &&
                MPI_Send("", 0, MPI_CHAR, r, TAG_INTERRUPT, MPI_COMM_WORLD) != MPI_SUCCESS)
                lose(cs, r, "its messages fail");
        if (!cs->stopped)
            coord_stop_workers(cs);
        cs->stopped = 1;
    }
    while (cs->next < cs->n)
        unstart(cs, cs->order[cs->next++]);
    while (cs->nback > 0)
        unstart(cs, cs->back[--cs->nback]);
}

/* The rank the next job goes to, or -1 when none has room: a free thread
 * first (the least loaded rank, the workers before rank 0), then a place
 * to wait on a worker rank. */
static int coord_pick_rank(const coord *cs)
{
    int r = -1;
    for (int k = 1; k <= cs->size; k++) {
        int q = k % cs->size;
        int room = (q == 0 ? cs->threads : cs->threads + AHEAD) - cs->load[q];
        if (cs->alive[q] && room > 0 && (r < 0 || cs->load[q] < cs->load[r]))
            r = q;
    }
    return r;
}

/* Sends job id, as cs->msg holds it, to worker rank r. Returns 0, or -1
 * when r cannot be reached (then it is given no more jobs and id goes back
 * to be handed out again). */
static int coord_send_job(coord *cs, int id, int r)
{
    /* Not a blocking send: the worker may be sending a long reply at this
     * moment, both would wait for the other. */
    int len = (int)cs->msg.len;
    if (cs->sbuf[id]) { /* a recalled job's earlier send */
        MPI_Wait(&cs->sreq[id], MPI_STATUS_IGNORE);
        for (int i = 0; i < cs->npend; i++)
            if (cs->pend[i] == id)
                cs->pend[i--] = cs->pend[--cs->npend];
        free(cs->sbuf[id]);
    }
    cs->sbuf[id] = sb_take(&cs->msg);
    if (MPI_Isend(cs->sbuf[id], len, MPI_CHAR, r, TAG_JOB, MPI_COMM_WORLD, &cs->sreq[id]) !=
        MPI_SUCCESS) {
        fprintf(stderr, "keeper: error: rank %d cannot be reached; no more jobs go to it\n", r);
        free(cs->sbuf[id]);
        cs->sbuf[id] = NULL;
        cs->alive[r] = 0;
        cs->back[cs->nback++] = id; /* the job goes to another rank */
        return -1;
    }
    cs->pend[cs->npend++] = id;
    return 0;
}

/* Hands out jobs while some rank has room (recalled ones first). Returns
 * whether one went out. */
static int coord_hand_out(coord *cs)
{
    int busy = 0;
    while (!cs->halted && (cs->next < cs->n || cs->nback > 0)) {
        int r = coord_pick_rank(cs);
        if (r < 0)
            break;
        int id = cs->nback > 0 ? cs->back[--cs->nback] : cs->order[cs->next++];
        sb_clear(&cs->msg);
        int32_t id32 = id;
        sb_putn(&cs->msg, (const char *)&id32, sizeof id32);
        cs->w->payload(cs->w, id, &cs->msg);
        if (r == 0) {
            size_t pn = cs->msg.len - sizeof id32;
            char *pay = xmalloc(pn + 1);
            memcpy(pay, cs->msg.s + sizeof id32, pn);
            pool_push(&cs->p, id, pay, pn);
        } else if (coord_send_job(cs, id, r) != 0) {
            continue;
        }
        if (tracing())
            fprintf(stderr, "keeper-mpi: trace: job %d to rank %d\n", id, r);
        cs->owner[id] = r;
        cs->seq[id] = cs->nsent++;
        cs->load[r]++;
        busy = 1;
    }
    return busy;
}

/* The jobs sent: their buffers are freed once the sends complete (a send
 * that fails loses its rank). */
static void coord_reap_sends(coord *cs)
{
    for (int i = 0; i < cs->npend; i++) {
        int id = cs->pend[i], flag = 0;
        if (MPI_Test(&cs->sreq[id], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            if (cs->alive[cs->owner[id]])
                lose(cs, cs->owner[id], "a job could not be sent");
            flag = 1;
        }
        if (flag) {
            free(cs->sbuf[id]);
            cs->sbuf[id] = NULL;
            cs->pend[i--] = cs->pend[--cs->npend];
        }
    }
}

/* Nothing left to hand out and a thread free somewhere: recalls a job
 * waiting on a worker rank, one at a time (its job may fill the free
 * thread). Returns whether every job out has started, as far as rank 0
 * knows: none waits on a rank and no recall is out. */
static int coord_recall(coord *cs)
{
    int free_thread = 0, waiting = 0, out = 0;
    for (int r = 0; r < cs->size; r++)
        if (cs->alive[r]) {
            free_thread |= cs->load[r] < cs->threads;
            waiting |= cs->load[r] > cs->threads;
            out |= cs->recalling[r];
        }
    if (!cs->halted && cs->next == cs->n && cs->nback == 0 && free_thread)
        for (int r = 1; r < cs->size; r++)
            if (cs->alive[r] && cs->load[r] > cs->threads && !cs->recalling[r] &&
                !cs->started[r]) {
                if (MPI_Send("", 0, MPI_CHAR, r, TAG_RECALL, MPI_COMM_WORLD) != MPI_SUCCESS) {
                    lose(cs, r, "its messages fail");
                    continue;
                }
                cs->recalling[r] = 1;
                out = 1;
                break;
            }
    return !waiting && !out;
}

/* The replies of rank 0's own threads, taken. Returns whether one came. */
static int coord_take_local(coord *cs)
{
    int busy = 0, id;
    while ((id = pool_done(&cs->p)) >= 0) {
        if (tracing())
            fprintf(stderr, "keeper-mpi: trace: job %d done on rank 0\n", id);
        strbuf *r = &cs->p.reply[id];
        cs->w->take(cs->w, id, r->s ? r->s : "", r->len);
        sb_free(r);
        cs->got[id] = 1;
        cs->load[0]--;
        cs->ndone++;
        busy = 1;
    }
    return busy;
}

/* Rank r's heartbeats, taken. */
static void coord_heartbeats(coord *cs, int r, int64_t now)
{
    int flag = 0;
    MPI_Status st;
    while (cs->alive[r] && MPI_Iprobe(r, TAG_ALIVE, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
           flag) {
        MPI_Recv(NULL, 0, MPI_CHAR, r, TAG_ALIVE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        cs->heard[r] = now;
    }
}

/* r stopped: the jobs it will not run (and, when the signal reached r
 * alone, the news that the run stops). Returns whether such news came. */
static int coord_unstarted(coord *cs, int r, int64_t now)
{
    int busy = 0, flag = 0;
    MPI_Status st;
    while (cs->alive[r] && MPI_Iprobe(r, TAG_UNSTARTED, MPI_COMM_WORLD, &flag, &st) ==
                               MPI_SUCCESS &&
           flag) {
        int len = 0;
        MPI_Get_count(&st, MPI_CHAR, &len);
        if (len < 0 || len > cs->n * (int)sizeof(int32_t) ||
            MPI_Recv(cs->ids, len, MPI_CHAR, r, TAG_UNSTARTED, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            lose(cs, r, "its messages fail");
            break;
        }
        cs->heard[r] = now;
        for (int i = 0; i < len / (int)sizeof(int32_t); i++) {
            int32_t id = cs->ids[i];
            if (id >= 0 && id < cs->n && cs->owner[id] == r && !cs->got[id]) {
                unstart(cs, id);
                cs->load[r]--;
            }
        }
        if (cs->w->interrupt)
            atomic_store(cs->w->interrupt, 1);
        busy = 1;
    }
    return busy;
}

/* The answer to a recall out to r, if it came: the job goes out again, or
 * (none waiting there) r gets no recall until its next reply. Returns
 * whether it came. */
static int coord_recalled(coord *cs, int r, int64_t now)
{
    int flag = 0;
    MPI_Status st;
    if (!cs->alive[r] || !cs->recalling[r] ||
        MPI_Iprobe(r, TAG_RECALLED, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
        return 0;
    int32_t back_id = -1;
    if (MPI_Recv(&back_id, (int)sizeof back_id, MPI_CHAR, r, TAG_RECALLED, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        lose(cs, r, "its messages fail");
        return 0;
    }
    cs->heard[r] = now;
    cs->recalling[r] = 0;
    if (tracing())
        fprintf(stderr, "keeper-mpi: trace: recall from rank %d: %s %d\n", r,
                back_id >= 0 ? "job" : "none waiting", back_id);
    if (back_id >= 0 && back_id < cs->n && cs->owner[back_id] == r && !cs->got[back_id]) {
        cs->owner[back_id] = -1;
        cs->load[r]--;
        cs->back[cs->nback++] = back_id;
    } else {
        cs->started[r] = 1;
    }
    return 1;
}

/* Rank r, holding jobs: lost when silent too long, else its next reply
 * taken if one came. Returns whether anything happened. */
static int coord_result(coord *cs, int r, int64_t now)
{
    if (now - cs->heard[r] > cs->lost_after_ns) {
        lose(cs, r, "silent too long");
        return 1;
    }
    int flag = 0, len = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(r, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
    char *buf = NULL;
    if (rc == MPI_SUCCESS && flag) {
        MPI_Get_count(&st, MPI_CHAR, &len);
        buf = xmalloc((size_t)len + 1);
        rc = MPI_Recv(buf, len, MPI_CHAR, r, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS) {
        lose(cs, r, "its messages fail");
        free(buf);
        return 1;
    }
    if (flag) {
        cs->heard[r] = timer_now_ns();
        int32_t id32;
        memcpy(&id32, buf, sizeof id32);
        if (tracing())
            fprintf(stderr, "keeper-mpi: trace: job %d done on rank %d\n", id32, r);
        cs->w->take(cs->w, id32, buf + sizeof id32, (size_t)len - sizeof id32);
        cs->got[id32] = 1;
        cs->load[r]--;
        cs->ndone++;
        cs->started[r] = 0;
    }
    free(buf);
    return flag;
}

/* The messages of the worker ranks, taken. Returns whether any came. */
static int coord_listen(coord *cs)
{
    int busy = 0;
    int64_t now = timer_now_ns();
    for (int r = 1; r < cs->size; r++) {
        coord_heartbeats(cs, r, now);
        busy |= coord_unstarted(cs, r, now);
        busy |= coord_recalled(cs, r, now);
        if (cs->alive[r] && cs->load[r] > 0)
            busy |= coord_result(cs, r, now);
    }
    return busy;
}

/* Every reply is in: the messages still due are taken, every live worker
 * is told that the run is over, the sends are completed and cs freed. */
static void coord_finish(coord *cs)
{
    sb_free(&cs->msg);
    pool_finish(&cs->p);
    /* The stop not sent yet (a recall was out when the last reply came):
     * every worker leaves its loop on it, before the end below. */
    if (!cs->stopped)
        coord_stop_workers(cs);
    /* A recall's answer may come after the last reply (the job it found
     * had started): taken, so that no message is left unreceived. */
    for (int r = 1; r < cs->size; r++)
        if (cs->alive[r] && cs->recalling[r]) {
            int32_t back_id;
            MPI_Recv(&back_id, (int)sizeof back_id, MPI_CHAR, r, TAG_RECALLED, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    /* The end, to every live rank: whether a rank was lost (then none may
     * call MPI_Finalize). */
    char any_lost = cs->w->lost > 0;
    for (int r = 1; r < cs->size; r++)
        if (cs->alive[r])
            MPI_Send(&any_lost, 1, MPI_CHAR, r, TAG_DONE, MPI_COMM_WORLD);
    /* Every job has its reply, so every send to a live rank is complete;
     * those to lost ranks are left (the program leaves without
     * MPI_Finalize then). */
    for (int i = 0; i < cs->npend; i++)
        if (cs->alive[cs->owner[cs->pend[i]]]) {
            MPI_Wait(&cs->sreq[cs->pend[i]], MPI_STATUS_IGNORE);
            free(cs->sbuf[cs->pend[i]]);
        }
    free(cs->sreq);
    free(cs->sbuf);
    free(cs->pend);
    free(cs->back);
    free(cs->seq);
    free(cs->recalling);
    free(cs->started);
    free(cs->ids);
    free(cs->order);
    free(cs->owner);
    free(cs->got);
    free(cs->load);
    free(cs->alive);
    free(cs->heard);
}

/* Rank 0: hands the jobs out (largest first) to the ranks, its own threads
 * included, and takes the replies as they come. */
static void coordinate(work *w, int size)
{
    coord cs;
    coord_start(&cs, w, size);
    for (;;) {
        if (work_stopping(w))
            coord_halt(&cs);
        int busy = coord_hand_out(&cs);
        coord_reap_sends(&cs);
        int all_started = coord_recall(&cs);
        /* Every job started: the ranks may lend their idle threads. */
        if (cs.next == cs.n && cs.nback == 0 && all_started && !cs.stopped) {
            coord_stop_workers(&cs);
            pool_close(&cs.p);
            cs.stopped = 1;
        }
        if (cs.ndone == cs.n)
            break;
        busy |= coord_take_local(&cs);
        busy |= coord_listen(&cs);
        if (!busy)
            pool_nap(&cs.p);
    }
    coord_finish(&cs);
}

/* --------------------------------------------------------- every rank */

/* CPUs this process may run on (its affinity mask), or 0 when unknown. */
static int cpus_allowed(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    return CPU_COUNT(&set);
}

/* Rank 0 coordinates, the others serve. First rank 0 learns the fewest
 * CPUs a rank may use: mpirun binds each rank to one core by default (with
 * no more ranks than cores), so --threads 2 would share one core (Microban
 * I, -n 1 --threads 2: 2.32 s wall bound, 1.25 s with --bind-to none); rank
 * 0 warns, once. */
void sched_distribute(work *w, int me, int size)
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
