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
#include "../driver/run.h"
#include "../util/options.h"
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

/* What the result table and the status line know of a level. */
typedef struct job {
    int started, done; /* (under run_ctx.pmu) */
    /* the last progress report (under run_ctx.pmu) */
    int64_t start_ns;
    double seconds;
    uint64_t nodes, mem;
    long bound;
    int64_t next_verbose_ns;
} job;

typedef struct run_ctx {
    const options *o;
    const level **lvs; /* by job */
    job *jobs;
    int njobs;
    uint64_t mem_per_thread;
    int verbose;
    int live;               /* the status line on stderr */
    pthread_mutex_t pmu;    /* stderr: the status line, progress and the table */
    int shown;              /* the status line is on the screen */
    int64_t last_draw_ns;
} run_ctx;

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
                                shown ? " | " : "", rc->lvs[k]->index,
                                (double)(now - j->start_ns) / 1e9, pos, rate,
                                (double)j->mem / 1048576.0,
                                (double)rc->mem_per_thread / 1048576.0,
                                rc->o->search == 1 ? "bfs"
                                : rc->o->optimal == 2 ? "moveopt"
                                : rc->o->optimal   ? "astar"
                                                   : options_value_name("strategy", rc->o->strategy));
        if (len < sizeof line && rc->o->optimal && j->bound > 0)
            len += (size_t)snprintf(line + len, sizeof line - len, ", >= %ld %s", j->bound,
                                    rc->o->optimal == 2 ? "moves" : "pushes");
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
static void progress(void *arg, int k, const stats *st, double seconds)
{
    run_ctx *rc = arg;
    job *j = &rc->jobs[k];
    int64_t now = timer_raw_ns();
    pthread_mutex_lock(&rc->pmu);
    j->seconds = seconds;
    j->nodes = st->nodes;
    j->mem = st->mem_bytes;
    j->bound = (long)st->best_lower_bound;
    if (rc->verbose && now >= j->next_verbose_ns) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "keeper: level %d: ", rc->lvs[k]->index);
        clear_line(rc);
        solveout_counters(stderr, prefix, st, seconds);
        j->next_verbose_ns = now + 5000000000;
    }
    if (rc->live && now - rc->last_draw_ns >= 250000000)
        draw_line(rc, now);
    pthread_mutex_unlock(&rc->pmu);
}

/* Level k starts (a worker thread). */
static void started(void *arg, int k, int64_t start_ns)
{
    run_ctx *rc = arg;
    pthread_mutex_lock(&rc->pmu);
    rc->jobs[k].started = 1;
    rc->jobs[k].done = 0; /* a level set aside (--defer) starts again */
    rc->jobs[k].start_ns = start_ns;
    rc->jobs[k].next_verbose_ns = start_ns + 5000000000;
    pthread_mutex_unlock(&rc->pmu);
}

/* Level k is done (a worker thread): off the status line. */
static void finished(void *arg, int k)
{
    run_ctx *rc = arg;
    pthread_mutex_lock(&rc->pmu);
    rc->jobs[k].done = 1;
    pthread_mutex_unlock(&rc->pmu);
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

/* The levels of c to solve, in file order: the selected ones but those
 * --resume found solved (resumed[k], or resumed NULL); *njobs counts them. */
static const level **select_levels(const solve_args *a, const collection *c,
                                   const char *resumed, int *njobs)
{
    const level **lvs = xcalloc((size_t)c->nlevels + 1, sizeof *lvs);
    int n = 0;
    for (int k = 0; k < c->nlevels; k++)
        if (cli_selected(&a->sel, c->levels[k].index) && !(resumed && resumed[k]))
            lvs[n++] = &c->levels[k];
    *njobs = n;
    return lvs;
}

/* Waits for the run's levels in file order and prints each as it is done:
 * its row of the result table on stderr, its solution on out; res[k] gets
 * level k's result (NULL when an interrupt came before it started). Returns
 * the errno of the first failed write to out, or 0. */
static int print_results(run *r, run_ctx *rc, const solve_args *a, FILE *out,
                         const solve_result **res, solve_tally *tally)
{
    int write_errno = 0;
    for (int k = 0; k < rc->njobs; k++) {
        const solve_result *rk = res[k] = run_wait(r, k);
        if (!rk) { /* an interrupt came before it started */
            tally->skipped++;
            continue;
        }
        pthread_mutex_lock(&rc->pmu);
        clear_line(rc);
        solveout_row(stderr, rc->lvs[k], rk, a->quiet, a->verbose, tally);
        fflush(stderr);
        pthread_mutex_unlock(&rc->pmu);
        solveout_level(out, a->fmt, rc->lvs[k], rk);
        if (fflush(out) != 0 && !write_errno)
            write_errno = errno;
    }
    return write_errno;
}

/* --html: the page of the levels that ran (res[k] not NULL). Returns
 * solveout_html's result (not 0: it could not be written). */
static int write_html(const solve_args *a, const char *name, const level **lvs,
                      const solve_result **res, int njobs)
{
    const level **hlv = xcalloc((size_t)njobs + 1, sizeof *hlv);
    const solve_result **hres = xcalloc((size_t)njobs + 1, sizeof *hres);
    int n = 0;
    for (int k = 0; k < njobs; k++)
        if (res[k]) {
            hlv[n] = lvs[k];
            hres[n++] = res[k];
        }
    int rc = solveout_html(a->html, name, hlv, hres, n, a->quiet);
    free(hlv);
    free(hres);
    return rc;
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
    int nseeded = 0; /* --seed: the levels given a seed */
    if (cli_check_level_sel(&a.sel, &c, "solve") != 0 || solve_output_is_input(&a, file) ||
        (a.resume && solve_resume_read(&a, &c, &resumed, &nresumed) != 0) ||
        (a.seeds && solve_seeds_read(&a, &c, &nseeded) != 0) ||
        !(out = solve_open_output(&a))) {
        free(resumed);
        collection_free(&c);
        solve_args_free(&a);
        return EXIT_BAD_INPUT;
    }

    int njobs = 0;
    job *jobs = xcalloc((size_t)c.nlevels, sizeof(job));
    const level **lvs = select_levels(&a, &c, resumed, &njobs);
    free(resumed);
    const int threads = driver_threads(&o, njobs);

    run_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.o = &o;
    rc.lvs = lvs;
    rc.jobs = jobs;
    rc.njobs = njobs;
    rc.mem_per_thread = driver_memory_share(&o, threads);
    rc.verbose = a.verbose;
    rc.live = !a.quiet && (a.live == 1 || (a.live < 0 && cli_stderr_tty()));
    pthread_mutex_init(&rc.pmu, NULL);

    atomic_store(&interrupted, 0);
    cli_signals old_sa;
    cli_catch_stop_signals(on_stop_signal, &old_sa);

    if (a.resume && !a.quiet)
        solveout_resumed(stderr, a.resume, nresumed);
    if (a.seeds && !a.quiet)
        fprintf(stderr, "keeper: --seed %s: %d level%s seeded (replayed)\n", a.seeds, nseeded,
                nseeded == 1 ? "" : "s");
    if (!a.quiet)
        solveout_header(stderr, c.name, njobs, &o, threads);
    solveout_notes(out, a.fmt, &c);

    run_hooks hooks = {.arg = &rc, .started = started, .finished = finished};
    if (rc.verbose || rc.live) {
        hooks.progress = progress;
        hooks.every = rc.live ? 0.25 : 5.0;
    }
    run *r = run_start(lvs, njobs, &o, &interrupted, &hooks);

    int64_t t0 = timer_raw_ns();
    solve_tally tally;
    memset(&tally, 0, sizeof tally);
    const solve_result **res = xcalloc((size_t)njobs + 1, sizeof *res);
    int write_errno = print_results(r, &rc, &a, out, res, &tally);
    double elapsed = (double)(timer_raw_ns() - t0) / 1e9;
    pthread_mutex_lock(&rc.pmu);
    clear_line(&rc);
    pthread_mutex_unlock(&rc.pmu);
    if (!a.quiet)
        solveout_total(stderr, &tally, njobs, elapsed, atomic_load(&interrupted));
    cli_restore_stop_signals(&old_sa);
    int bad_out = solveout_close(out, a.output, write_errno) != 0;
    if (a.html && write_html(&a, c.name, lvs, res, njobs) != 0)
        bad_out = 1;
    run_end(r);
    free(res);
    free(lvs);
    free(jobs);
    pthread_mutex_destroy(&rc.pmu);
    collection_free(&c);
    solve_args_free(&a);
    return solveout_exit(&tally, bad_out);
}
