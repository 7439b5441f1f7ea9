/* cmd_solve.c: "keeper solve": solve a collection, print a result table on
 * stderr as levels finish, write solutions as SOK, LURD lines or JSON
 * lines. Levels run on --threads worker threads; a worker that finds no
 * level left to start is lent to a level still running (the portfolio runs
 * its strategies side by side). Results are printed in file order. Ctrl-C
 * stops the levels being solved and starts no new ones; what was found so
 * far is still printed. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "html.h"
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
#include <sys/stat.h>

typedef enum { FMT_SOK, FMT_LURD, FMT_JSONL } out_format;

/* Set by Ctrl-C, read by every thread: an atomic, not a volatile
 * sig_atomic_t, which is only safe within one thread. A lock-free atomic
 * may be stored from a signal handler (C11 7.14.1.1). */
static atomic_int interrupted = 0;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the Ctrl-C flag must be lock-free");

/* The handler runs once: SA_RESETHAND restores the default, so a second
 * Ctrl-C kills. */
static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

typedef struct job {
    const level *lv;
    int started, done;
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

/* One line of rates, then the counters table. */
static void print_counters(FILE *f, const char *prefix, const stats *st, double seconds)
{
    fprintf(f, "%s%.1f s, %.0f positions/s, %.0f expanded/s, %.1f MiB, %.1f bytes/position\n",
            prefix, seconds, seconds > 0 ? (double)st->nodes / seconds : 0.0,
            seconds > 0 ? (double)st->expanded / seconds : 0.0,
            (double)st->mem_bytes / (1024.0 * 1024.0),
            st->nodes ? (double)st->mem_bytes / (double)st->nodes : 0.0);
    stats_print(f, prefix, st);
}

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
    static const char *const strategy_name[] = {"astar", "fess", "portfolio", "backward"};
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
        print_counters(stderr, prefix, st, seconds);
        j->next_verbose_ns = now + 5000000000;
    }
    if (rc->live && now - rc->last_draw_ns >= 250000000)
        draw_line(rc, now);
    pthread_mutex_unlock(&rc->pmu);
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
        job *j = &rc->jobs[rc->next++];
        j->started = 1;
        pthread_mutex_unlock(&rc->mu);

        search_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.start_ns = timer_now_ns();
        if (rc->o->time > 0)
            lim.deadline_ns = lim.start_ns + (int64_t)(rc->o->time * 1e9);
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

/* Prints title t cut or padded to `width` characters (UTF-8 aware: a
 * character is never cut in half). */
static void print_title(FILE *f, const char *t, int width)
{
    int n = 0;
    const unsigned char *p = (const unsigned char *)t;
    while (*p && n < width) {
        int len = 1;
        while ((p[len] & 0xC0) == 0x80)
            len++;
        fwrite(p, 1, (size_t)len, f);
        p += len;
        n++;
    }
    for (; n < width; n++)
        fputc(' ', f);
}

/* Whether paths a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
}

static void write_json(FILE *f, const level *lv, const solve_result *r)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"index\":%d,\"title\":", lv->index);
    sb_json_string(&b, lv->title);
    sb_puts(&b, ",\"status\":");
    sb_json_string(&b, result_status_text(r->status));
    sb_puts(&b, ",\"reason\":");
    sb_json_string(&b, r->reason);
    sb_printf(&b, ",\"seconds\":%.3f,\"nodes\":%llu,\"expanded\":%llu", r->seconds,
              (unsigned long long)r->st.nodes, (unsigned long long)r->st.expanded);
    if (r->lower_bound >= 0)
        sb_printf(&b, ",\"lower_bound\":%ld", r->lower_bound);
    if (r->strategy && r->strategy[0]) {
        sb_puts(&b, ",\"strategy\":");
        sb_json_string(&b, r->strategy);
    }
    if (r->status == RESULT_SOLVED) {
        sb_printf(&b,
                  ",\"moves\":%ld,\"pushes\":%ld,\"box_lines\":%ld,\"box_changes\":%ld,"
                  "\"pushing_sessions\":%ld,\"player_lines\":%ld,\"optimal\":%s,\"solution\":",
                  r->metrics.moves, r->metrics.pushes, r->metrics.box_lines,
                  r->metrics.box_changes, r->metrics.pushing_sessions, r->metrics.player_lines,
                  r->optimal ? "true" : "false");
        sb_json_string(&b, r->lurd);
        if (r->optimized)
            sb_printf(&b, ",\"found\":{\"moves\":%ld,\"pushes\":%ld}", r->found.moves,
                      r->found.pushes);
    } else {
        sb_puts(&b, ",\"moves\":null,\"pushes\":null,\"optimal\":false,\"solution\":null");
    }
    sb_puts(&b, "}\n");
    fputs(b.s, f);
    sb_free(&b);
}

static void write_sok(FILE *f, const level *lv, const solve_result *r)
{
    strbuf b;
    sb_init(&b);
    cli_write_level_sok(f, &b, lv);
    if (r->status == RESULT_SOLVED) {
        sb_printf(&b, "\nSolution %ld/%ld\n", r->metrics.moves, r->metrics.pushes);
        fputs(b.s, f);
        sb_clear(&b);
        cli_write_wrapped(f, r->lurd, 70);
        sb_printf(&b, "Solver: keeper %s%s\n", KEEPER_VERSION,
                  r->optimal ? " (push-optimal)" : "");
        if (r->optimized)
            sb_printf(&b, "Optimizer: keeper %s, %s first, from %ld/%ld\n", KEEPER_VERSION,
                      r->optimal ? "pushes" : "moves", r->found.moves, r->found.pushes);
    }
    sb_putc(&b, '\n');
    fputs(b.s, f);
    sb_free(&b);
}

static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper solve FILE [OPTIONS]\n"
            "\n"
            "Solves the levels of FILE (XSB or SOK, one level or a collection; '-' reads\n"
            "standard input). A result table goes to stderr as levels finish; solutions go\n"
            "to stdout or --output. Every printed solution has been replayed and verified.\n"
            "\n"
            "  --level N            solve level N only (1-based position in the file)\n"
            "  --levels LIST        solve these levels: 1-5,9,12-20\n"
            "  --output FILE        write solutions to FILE instead of stdout ('-': stdout)\n"
            "  --format F           sok (default: levels with a Solution section),\n"
            "                       lurd (one line per level, empty when unsolved),\n"
            "                       jsonl (one JSON object per level)\n"
            "  --html FILE          also write a page that plays the solutions (see\n"
            "                       keeper show --html)\n"
            "  --optimal pushes     prove the push count optimal (same as --optimal)\n"
            "  --quiet              no result table, no status line\n"
            "  --verbose            statistics per level, progress every 5 s\n"
            "  --progress, --no-progress  a status line while levels run (level, time,\n"
            "                       positions, rate, memory, strategy; the bound with\n"
            "                       --optimal), on by default when stderr is a terminal\n"
            "\n"
            "search options:\n");
    options_usage(f);
}

int cmd_solve(int argc, char **argv)
{
    options o;
    options_init(&o);
    level_sel sel = {.given = 0};
    const char *file = NULL, *output = NULL, *html = NULL;
    out_format fmt = FMT_SOK;
    int fmt_given = 0, quiet = 0, verbose = 0, live = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            solve_usage(stdout);
            return 0;
        }
        int used = cli_parse_level_sel(&sel, a, next);
        if (used < 0)
            return EXIT_BAD_INPUT;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = 1;
            continue;
        }
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            verbose = 1;
            continue;
        }
        if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
            live = a[2] != 'n';
            continue;
        }
        if (!strcmp(a, "--html") || !strncmp(a, "--html=", 7)) {
            html = a[6] == '=' ? a + 7 : next;
            if (!html || !*html)
                return cli_usage_error("solve", "--html needs a file name");
            if (a[6] != '=')
                i++;
            continue;
        }
        if (!strcmp(a, "--output") || !strcmp(a, "-o") || !strncmp(a, "--output=", 9)) {
            if (!strncmp(a, "--output=", 9)) {
                output = a + 9;
            } else {
                if (!next)
                    return cli_usage_error("solve", "%s needs a file name", a);
                output = next;
                i++;
            }
            continue;
        }
        if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : next;
            if (!v)
                return cli_usage_error("solve", "--format needs a value");
            if (a[8] != '=')
                i++;
            if (!strcmp(v, "sok"))
                fmt = FMT_SOK;
            else if (!strcmp(v, "lurd"))
                fmt = FMT_LURD;
            else if (!strcmp(v, "jsonl"))
                fmt = FMT_JSONL;
            else
                return cli_usage_error("solve", "--format: '%s' is not sok, lurd or jsonl", v);
            fmt_given = 1;
            continue;
        }
        char err[256];
        used = options_parse(&o, a, next, err, sizeof err);
        if (used < 0)
            return cli_usage_error("solve", "%s", err);
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return cli_usage_error("solve", "unknown option '%s'", a);
        if (file)
            return cli_usage_error("solve", "more than one input file ('%s' and '%s')", file, a);
        file = a;
    }
    if (!file)
        return cli_usage_error("solve", "no input file");
    if (output && !strcmp(output, "-"))
        output = NULL; /* --output - is standard output */
    if (output && !fmt_given) {
        size_t n = strlen(output);
        if (n >= 6 && !strcmp(output + n - 6, ".jsonl"))
            fmt = FMT_JSONL;
        else if (n >= 5 && !strcmp(output + n - 5, ".lurd"))
            fmt = FMT_LURD;
    }

    collection c;
    if (collection_load(&c, file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (cli_check_level_sel(&sel, &c) != 0) {
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    FILE *out = stdout;
    if (output && same_file(output, file)) {
        collection_free(&c);
        return cli_usage_error("solve", "--output %s would overwrite the input file", output);
    }
    if (output) {
        out = fopen(output, "w");
        if (!out) {
            fprintf(stderr, "%s: error: cannot write: %s\n", output, strerror(errno));
            collection_free(&c);
            return EXIT_BAD_INPUT;
        }
    }

    int njobs = 0;
    job *jobs = xcalloc((size_t)c.nlevels, sizeof(job));
    for (int k = 0; k < c.nlevels; k++)
        if (cli_selected(&sel, c.levels[k].index))
            jobs[njobs++].lv = &c.levels[k];
    /* More threads than the levels can use would only wait. */
    int threads = (int)MIN(o.threads, (long long)MAX(njobs, 1) * solve_level_threads(&o));

    run_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.o = &o;
    rc.jobs = jobs;
    rc.njobs = njobs;
    rc.mem_per_thread = (uint64_t)o.memory * 1024 * 1024 / (uint64_t)threads;
    rc.verbose = verbose;
    rc.live = !quiet && (live == 1 || (live < 0 && cli_stderr_tty()));
    pthread_mutex_init(&rc.pmu, NULL);
    spares_init(&rc.spares, threads, rc.mem_per_thread);
    pthread_mutex_init(&rc.mu, NULL);
    pthread_cond_init(&rc.cv, NULL);

    atomic_store(&interrupted, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_sa;
    sigaction(SIGINT, &sa, &old_sa);

    if (!quiet) {
        fprintf(stderr, "keeper %s: %s: %d level%s", KEEPER_VERSION, c.name, njobs,
                njobs == 1 ? "" : "s");
        if (o.time > 0)
            fprintf(stderr, ", %g s per level", o.time);
        static const char *const strategy_name[] = {"A*", "feature-space search",
                                                    "portfolio of feature-space search and A*",
                                                    "backward search"};
        fprintf(stderr, ", %lld MiB, %d thread%s, %s%s\n", o.memory, threads,
                threads == 1 ? "" : "s",
                o.search == 1 ? "breadth-first"
                : o.optimal   ? "A*"
                              : strategy_name[o.strategy],
                o.optimal ? ", push-optimal" : "");
        fprintf(stderr, "%6s  %-20s  %-8s  %9s  %12s  %7s  %6s  %s\n", "level", "title",
                "result", "time", "nodes", "moves", "pushes", "note");
    }
    if (fmt == FMT_SOK && c.nnotes) {
        for (int i = 0; i < c.nnotes; i++)
            fprintf(out, "%s\n", c.notes[i].text);
        fputc('\n', out);
    }

    pthread_t *tids = xcalloc((size_t)threads, sizeof(pthread_t));
    for (int t = 0; t < threads; t++)
        pthread_create(&tids[t], NULL, worker, &rc);

    int64_t t0 = timer_now_ns();
    int solved = 0, unsolved = 0, invalid = 0, skipped = 0;
    stats total;
    memset(&total, 0, sizeof total);
    long total_moves = 0, total_pushes = 0;
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
            skipped++;
            continue;
        }
        const solve_result *r = &j->res;
        if (r->status == RESULT_SOLVED)
            solved++;
        else if (r->status == RESULT_INVALID)
            invalid++;
        else
            unsolved++;
        stats_add(&total, &r->st);
        pthread_mutex_lock(&rc.pmu);
        clear_line(&rc);
        if (r->status == RESULT_INVALID)
            fprintf(stderr, "%s\n", r->reason);
        if (!quiet) {
            fprintf(stderr, "%6d  ", j->lv->index);
            print_title(stderr, j->lv->title, 20);
            fprintf(stderr, "  %-8s  %8.2fs  %12llu  ", result_status_text(r->status), r->seconds,
                    (unsigned long long)r->st.nodes);
            if (r->status == RESULT_SOLVED) {
                fprintf(stderr, "%7ld  %6ld  %s\n", r->metrics.moves, r->metrics.pushes,
                        r->optimal ? "optimal" : "");
                total_moves += r->metrics.moves;
                total_pushes += r->metrics.pushes;
            } else {
                fprintf(stderr, "%7s  %6s  %s", "-", "-",
                        r->status == RESULT_INVALID ? "invalid level" : r->reason);
                if (r->lower_bound >= 0)
                    fprintf(stderr, ", at least %ld pushes", r->lower_bound);
                fputc('\n', stderr);
            }
            if (verbose) {
                print_counters(stderr, "        ", &r->st, r->seconds);
                for (int i = 0; i < r->nmembers; i++) {
                    const member_report *mr = &r->members[i];
                    fprintf(stderr,
                            "        member %-10s %6.2f s  %10llu positions  %9llu expanded",
                            mr->name, mr->seconds, (unsigned long long)mr->st.nodes,
                            (unsigned long long)mr->st.expanded);
                    if (mr->st.cells)
                        fprintf(stderr, "  %5llu cells", (unsigned long long)mr->st.cells);
                    if (mr->st.meetings)
                        fprintf(stderr, "  %llu meeting%s", (unsigned long long)mr->st.meetings,
                                mr->st.meetings == 1 ? "" : "s");
                    fputc('\n', stderr);
                }
            }
        }
        fflush(stderr);
        pthread_mutex_unlock(&rc.pmu);
        if (fmt == FMT_JSONL)
            write_json(out, j->lv, r);
        else if (fmt == FMT_LURD)
            fprintf(out, "%s\n", r->lurd ? r->lurd : "");
        else
            write_sok(out, j->lv, r);
        if (fflush(out) != 0 && !write_errno)
            write_errno = errno;
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tids[t], NULL);
    double elapsed = timer_seconds_since(t0);
    pthread_mutex_lock(&rc.pmu);
    clear_line(&rc);
    pthread_mutex_unlock(&rc.pmu);
    if (!quiet) {
        fprintf(stderr, "%6s  solved %d/%d", "total", solved, njobs);
        if (unsolved)
            fprintf(stderr, ", unsolved %d", unsolved);
        if (invalid)
            fprintf(stderr, ", invalid %d", invalid);
        if (skipped)
            fprintf(stderr, ", not started %d", skipped);
        fprintf(stderr, ", %.2f s, %llu nodes, %ld moves, %ld pushes%s\n", elapsed,
                (unsigned long long)total.nodes, total_moves, total_pushes,
                atomic_load(&interrupted) ? " (interrupted)" : "");
    }
    sigaction(SIGINT, &old_sa, NULL);
    /* A failed write may have happened at any earlier fflush; the stream's
     * error flag remembers it, fclose alone would not report it. */
    if (fflush(out) != 0 && !write_errno)
        write_errno = errno;
    int bad_out = ferror(out) || write_errno;
    if (output && fclose(out) != 0 && !bad_out) {
        bad_out = 1;
        write_errno = errno;
    }
    if (bad_out)
        fprintf(stderr, "%s: error: write failed: %s\n", output ? output : "(standard output)",
                write_errno ? strerror(write_errno) : "I/O error");
    if (html) {
        /* the levels that ran, with the solutions found (replayed) */
        html_level *hl = xcalloc((size_t)njobs + 1, sizeof(html_level));
        movelist *mv = xcalloc((size_t)njobs + 1, sizeof(movelist));
        int n = 0;
        for (int k = 0; k < njobs; k++) {
            const job *j = &jobs[k];
            if (!j->done || j->lv->error)
                continue;
            hl[n].lv = j->lv;
            char err[160];
            moves_init(&mv[n]);
            if (j->res.status == RESULT_SOLVED && j->res.lurd &&
                lurd_decode(j->res.lurd, &mv[n], err, sizeof err) == 0)
                hl[n].mv = &mv[n];
            n++;
        }
        if (html_write_file(html, c.name, hl, n, quiet) != 0)
            bad_out = 1;
        for (int k = 0; k < n; k++)
            moves_free(&mv[k]);
        free(mv);
        free(hl);
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
    if (invalid || bad_out)
        return EXIT_BAD_INPUT;
    if (unsolved || skipped)
        return EXIT_SOME_FAILED;
    return EXIT_ALL_OK;
}
