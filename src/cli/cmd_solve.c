/* cmd_solve.c: "keeper solve": solve a collection, print a result table on
 * stderr as levels finish, write solutions as SOK, LURD lines or JSON
 * lines. Levels run on --threads worker threads; a worker that finds no
 * level left to start is lent to a level still running (the portfolio runs
 * its strategies side by side). Results are printed in file order. Ctrl-C
 * stops the levels being solved and starts no new ones; what was found so
 * far is still printed. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "solveout.h"
#include "../../include/keeper.h"
#include "../search/solver.h"
#include "../util/options.h"
#include "../util/spares.h"
#include "../util/str.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Set by Ctrl-C, read by every thread: an atomic, not a volatile
 * sig_atomic_t, which is only safe within one thread. A lock-free atomic
 * may be stored from a signal handler (C11 7.14.1.1). */
static atomic_int interrupted = 0;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the Ctrl-C flag must be lock-free");

/* Ctrl-C, SIGTERM or SIGHUP (cli_catch_stop_signals): the searches stop at
 * their next check and what was found is written. The handler runs once
 * per signal: a second one of the same kind kills. */
static void on_stop_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

typedef struct job {
    const level *lv;
    int started, done;
    int helped;  /* a worker offered itself to this level (rc->mu) */
    int64_t began_ns; /* when it started (rc->mu) */
    solve_result res;
    /* the last progress report (under run_ctx.pmu) */
    int64_t start_ns;
    double seconds;
    uint64_t nodes, mem;
    long bound;
    int64_t next_verbose_ns;
} job;

typedef struct run_ctx {
    const options *o;
    job *jobs;
    int njobs, next;
    int threads;
    uint64_t mem_per_thread;
    spares spares; /* workers with no level left to start */
    int verbose;
    int live;               /* the status line on stderr */
    pthread_mutex_t pmu;    /* stderr: the status line, progress and the table */
    int shown;              /* the status line is on the screen */
    int64_t last_draw_ns;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} run_ctx;

typedef struct progress_arg {
    struct run_ctx *rc;
    job *j;
} progress_arg;

/* Takes the status line off the screen (rc->pmu held). */
static void clear_line(run_ctx *rc)
{
    if (rc->shown) {
        fputs("\r\033[K", stderr);
        rc->shown = 0;
    }
}

static void human(char *buf, size_t n, double x)
{
    if (x >= 1e9)
        snprintf(buf, n, "%.1fG", x / 1e9);
    else if (x >= 1e6)
        snprintf(buf, n, "%.1fM", x / 1e6);
    else if (x >= 1e3)
        snprintf(buf, n, "%.0fk", x / 1e3);
    else
        snprintf(buf, n, "%.0f", x);
}

/* Draws the status line: the levels running for a second or more, oldest
 * first (rc->pmu held). */
static void draw_line(run_ctx *rc, int64_t now)
{
    static const char *const strategy_name[] = {"astar", "fess", "portfolio", "backward",
                                                "opening"};
    _Static_assert(sizeof strategy_name / sizeof strategy_name[0] == 5,
                   "a name for every --strategy value (options.h)");
    char line[512];
    size_t len = 0;
    int shown = 0, more = 0;
    for (int k = 0; k < rc->njobs; k++) {
        const job *j = &rc->jobs[k];
        if (!j->started || j->done || j->start_ns == 0 || now - j->start_ns < 1000000000)
            continue;
        if (shown == 2) {
            more++;
            continue;
        }
        char pos[16], rate[16];
        human(pos, sizeof pos, (double)j->nodes);
        human(rate, sizeof rate, j->seconds > 0 ? (double)j->nodes / j->seconds : 0);
        len += (size_t)snprintf(line + len, sizeof line - len,
                                "%slevel %d: %.1f s, %s positions, %s/s, %.0f/%.0f MiB, %s",
                                shown ? " | " : "", j->lv->index,
                                (double)(now - j->start_ns) / 1e9, pos, rate,
                                (double)j->mem / 1048576.0,
                                (double)rc->mem_per_thread / 1048576.0,
                                rc->o->search == 1 ? "bfs"
                                : rc->o->optimal   ? "astar"
                                                   : strategy_name[rc->o->strategy]);
        if (len < sizeof line && rc->o->optimal && j->bound > 0)
            len += (size_t)snprintf(line + len, sizeof line - len, ", >= %ld pushes", j->bound);
        if (len >= sizeof line)
            len = sizeof line - 1;
        shown++;
    }
    if (more && len < sizeof line)
        snprintf(line + len, sizeof line - len, " (+%d more)", more);
    if (!shown)
        return;
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    rc->shown = 1;
    rc->last_draw_ns = now;
}

/* Called by the searches of a level (at least every 0.25 s with the status
 * line, every 5 s for --verbose alone): remembers the counters, prints the
 * --verbose block when due, redraws the status line at most 4 times a
 * second. */
static void progress(void *arg, const stats *st, double seconds)
{
    const progress_arg *pa = arg;
    run_ctx *rc = pa->rc;
    job *j = pa->j;
    int64_t now = timer_now_ns();
    pthread_mutex_lock(&rc->pmu);
    j->seconds = seconds;
    j->nodes = st->nodes;
    j->mem = st->mem_bytes;
    j->bound = (long)st->best_lower_bound;
    if (rc->verbose && now >= j->next_verbose_ns) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "keeper: level %d: ", j->lv->index);
        clear_line(rc);
        solveout_counters(stderr, prefix, st, seconds);
        j->next_verbose_ns = now + 5000000000;
    }
    if (rc->live && now - rc->last_draw_ns >= 250000000)
        draw_line(rc, now);
    pthread_mutex_unlock(&rc->pmu);
}

/* How long a thread offered to a level waits to be borrowed. */
#define LEND_WAIT_NS 500000000

/* --lend-after: a level running (rc->mu held) for at least that long, with
 * a portfolio that can take a second thread and no offer made to it yet,
 * or NULL. */
static job *lend_target(run_ctx *rc)
{
    if (rc->o->lend_after < 0 || rc->threads < 2 || solve_level_threads(rc->o) < 2)
        return NULL;
    int64_t now = timer_now_ns();
    for (int k = 0; k < rc->next; k++) {
        job *j = &rc->jobs[k];
        if (j->started && !j->done && !j->helped &&
            now - j->began_ns >= (int64_t)(rc->o->lend_after * 1e9))
            return j;
    }
    return NULL;
}

static void *worker(void *arg)
{
    run_ctx *rc = arg;
    for (;;) {
        pthread_mutex_lock(&rc->mu);
        if (rc->next >= rc->njobs || atomic_load(&interrupted)) {
            /* Wake the printer: after a Ctrl-C it may be waiting for a job
             * that no worker will start. */
            pthread_cond_broadcast(&rc->cv);
            pthread_mutex_unlock(&rc->mu);
            break;
        }
        job *h = lend_target(rc);
        if (h) {
            /* Lend this thread to a level that has run long (a hard
             * one) before starting the next: it borrows the thread at its
             * next slice boundary, or the offer lapses. */
            h->helped = 1;
            pthread_mutex_unlock(&rc->mu);
            spares_help(&rc->spares, LEND_WAIT_NS);
            continue;
        }
        job *j = &rc->jobs[rc->next++];
        j->started = 1;
        j->began_ns = timer_now_ns();
        pthread_mutex_unlock(&rc->mu);

        search_limits lim;
        search_limits_start(&lim, rc->o->time);
        lim.max_nodes = (uint64_t)rc->o->max_nodes;
        lim.interrupt = &interrupted;
        lim.spares = &rc->spares;
        progress_arg pa = {rc, j};
        pthread_mutex_lock(&rc->pmu);
        j->start_ns = lim.start_ns;
        j->next_verbose_ns = lim.start_ns + 5000000000;
        pthread_mutex_unlock(&rc->pmu);
        if (rc->verbose || rc->live) {
            lim.progress = progress;
            lim.progress_arg = &pa;
            lim.progress_every = rc->live ? 0.25 : 5.0;
        }
        solve_level(j->lv, rc->o, &lim, rc->mem_per_thread, &j->res);

        pthread_mutex_lock(&rc->mu);
        j->done = 1;
        pthread_cond_broadcast(&rc->cv);
        pthread_mutex_unlock(&rc->mu);
    }
    /* No level left to start: lend this thread to the levels still
     * running, until every worker is done. */
    spares_serve(&rc->spares);
    return NULL;
}

static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper solve FILE [OPTIONS]\n"
            "\n"
            "Solves the levels of FILE (XSB or SOK, one level or a collection; '-' reads\n"
            "standard input). A result table goes to stderr as levels finish; solutions go\n"
            "to stdout or --output. Every printed solution has been replayed and verified.\n"
            "\n");
    solve_usage_options(f);
}

int cmd_solve(int argc, char **argv)
{
    solve_args a;
    int prc = solve_parse_args(&a, argc, argv, "solve", 0);
    if (prc) {
        solve_args_free(&a);
        if (prc < 0)
            solve_usage(stdout);
        return prc < 0 ? 0 : prc;
    }
    const options o = a.o;
    const char *file = a.files[0];

    collection c;
    if (collection_load(&c, file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        solve_args_free(&a);
        return EXIT_BAD_INPUT;
    }
    FILE *out = NULL;
    char *resumed = NULL; /* --resume: [k] = level k was solved there */
    int nresumed = 0;
    if (cli_check_level_sel(&a.sel, &c, "solve") != 0 || solve_output_is_input(&a, file) ||
        (a.resume && solve_resume_read(&a, &c, &resumed, &nresumed) != 0) ||
        !(out = solve_open_output(&a))) {
        free(resumed);
        collection_free(&c);
        solve_args_free(&a);
        return EXIT_BAD_INPUT;
    }

    int njobs = 0;
    job *jobs = xcalloc((size_t)c.nlevels, sizeof(job));
    for (int k = 0; k < c.nlevels; k++)
        if (cli_selected(&a.sel, c.levels[k].index) && !(resumed && resumed[k]))
            jobs[njobs++].lv = &c.levels[k];
    free(resumed);
    /* More threads than the levels can use would only wait. */
    int threads = (int)MIN(o.threads, (long long)MAX(njobs, 1) * solve_level_threads(&o));

    run_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.o = &o;
    rc.jobs = jobs;
    rc.njobs = njobs;
    rc.threads = threads;
    rc.mem_per_thread = (uint64_t)o.memory * 1024 * 1024 / (uint64_t)threads;
    rc.verbose = a.verbose;
    rc.live = !a.quiet && (a.live == 1 || (a.live < 0 && cli_stderr_tty()));
    pthread_mutex_init(&rc.pmu, NULL);
    spares_init(&rc.spares, threads, rc.mem_per_thread);
    pthread_mutex_init(&rc.mu, NULL);
    pthread_cond_init(&rc.cv, NULL);

    atomic_store(&interrupted, 0);
    struct sigaction old_sa[CLI_STOP_SIGNALS];
    cli_catch_stop_signals(on_stop_signal, old_sa);

    if (a.resume && !a.quiet)
        solveout_resumed(stderr, a.resume, nresumed);
    if (!a.quiet)
        solveout_header(stderr, c.name, njobs, &o, threads);
    solveout_notes(out, a.fmt, &c);

    pthread_t *tids = xcalloc((size_t)threads, sizeof(pthread_t));
    for (int t = 0; t < threads; t++)
        pthread_create(&tids[t], NULL, worker, &rc);

    int64_t t0 = timer_now_ns();
    solve_tally tally;
    memset(&tally, 0, sizeof tally);
    int write_errno = 0;
    for (int k = 0; k < njobs; k++) {
        job *j = &jobs[k];
        pthread_mutex_lock(&rc.mu);
        while (!j->done && !(atomic_load(&interrupted) && !j->started))
            pthread_cond_wait(&rc.cv, &rc.mu);
        /* With an interrupt, jobs never started stay undone. */
        int done = j->done;
        pthread_mutex_unlock(&rc.mu);
        if (!done) {
            tally.skipped++;
            continue;
        }
        pthread_mutex_lock(&rc.pmu);
        clear_line(&rc);
        solveout_row(stderr, j->lv, &j->res, a.quiet, a.verbose, &tally);
        fflush(stderr);
        pthread_mutex_unlock(&rc.pmu);
        solveout_level(out, a.fmt, j->lv, &j->res);
        if (fflush(out) != 0 && !write_errno)
            write_errno = errno;
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tids[t], NULL);
    double elapsed = timer_seconds_since(t0);
    pthread_mutex_lock(&rc.pmu);
    clear_line(&rc);
    pthread_mutex_unlock(&rc.pmu);
    if (!a.quiet)
        solveout_total(stderr, &tally, njobs, elapsed, atomic_load(&interrupted));
    cli_restore_stop_signals(old_sa);
    int bad_out = solveout_close(out, a.output, write_errno) != 0;
    if (a.html) {
        const level **lv = xcalloc((size_t)njobs + 1, sizeof *lv);
        const solve_result **res = xcalloc((size_t)njobs + 1, sizeof *res);
        int n = 0;
        for (int k = 0; k < njobs; k++)
            if (jobs[k].done) {
                lv[n] = jobs[k].lv;
                res[n++] = &jobs[k].res;
            }
        if (solveout_html(a.html, c.name, lv, res, n, a.quiet) != 0)
            bad_out = 1;
        free(lv);
        free(res);
    }
    for (int k = 0; k < njobs; k++)
        solve_result_free(&jobs[k].res);
    free(jobs);
    free(tids);
    pthread_mutex_destroy(&rc.mu);
    pthread_mutex_destroy(&rc.pmu);
    pthread_cond_destroy(&rc.cv);
    spares_destroy(&rc.spares);
    collection_free(&c);
    solve_args_free(&a);
    return solveout_exit(&tally, bad_out);
}
