/* cmd_optimize.c: "keeper optimize": make solutions shorter.
 *
 * Reads the solutions wherever "keeper verify" reads them (solread.h),
 * takes for each selected level the best valid one in the chosen metric
 * order, optimizes it (optimize/optimize.h) and writes the result as
 * "keeper solve" writes solutions. Levels run on --threads worker threads,
 * each level on one; results are printed in file order. Ctrl-C stops the
 * levels being optimized (each keeps the best found so far) and starts no
 * new ones. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "solread.h"
#include "../../include/keeper.h"
#include "../core/solution.h"
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

typedef enum { FMT_SOK, FMT_LURD, FMT_JSONL } out_format;

/* --time's default here (keeper solve's is 600 s per level) */
#define OPTIMIZE_DEFAULT_SECONDS 10

static atomic_int interrupted = 0;

static void on_stop_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

typedef enum { OJ_OPTIMIZED, OJ_UNCHANGED, OJ_NO_SOLUTION, OJ_NOT_STARTED } oj_status;
static const char *const oj_text[] = {"optimized", "unchanged", "none", "skipped"};

/* One level: its input solution (the best valid one), and the result. */
typedef struct ojob {
    const level *lv;
    char *input;      /* LURD of the input solution, NULL when none is valid */
    int started, done;
    oj_status status;
    double seconds;
    opt_report rep;
    char *lurd;       /* the result (replayed), NULL when none */
} ojob;

/* Progress on stderr: on a terminal one line rewritten in place (at most
 * 4 times a second), with --verbose plain lines elsewhere. */
typedef struct oprog {
    int tty, verbose;
    pthread_mutex_t *mu;
    int64_t *last_ns; /* shared by the threads: the last line's time */
    int index;        /* the level */
} oprog;

static void on_progress(void *arg, const char *method, const char *setting, int from, int to,
                        const sol_metrics *best, double seconds)
{
    oprog *p = arg;
    int64_t now = timer_now_ns();
    pthread_mutex_lock(p->mu);
    if (p->tty && now - *p->last_ns >= 250000000) {
        *p->last_ns = now;
        fprintf(stderr, "\r\033[Klevel %d: %.1f s, %s%s%s, pushes %d-%d, best %ld/%ld",
                p->index, seconds, method, *setting ? " " : "", setting, from, to, best->moves,
                best->pushes);
        fflush(stderr);
    } else if (!p->tty && p->verbose) {
        fprintf(stderr, "keeper: level %d: %.1f s, %s%s%s, pushes %d-%d, best %ld/%ld\n",
                p->index, seconds, method, *setting ? " " : "", setting, from, to, best->moves,
                best->pushes);
    }
    pthread_mutex_unlock(p->mu);
}

typedef struct octx {
    ojob *jobs;
    int njobs, next;
    double seconds;
    uint64_t mem_per_thread;
    opt_config cfg;
    int progress, verbose;
    int64_t last_ns;
    pthread_mutex_t mu, pmu;
    pthread_cond_t cv;
} octx;

static void run_job(octx *c, ojob *j)
{
    search_limits lim; /* the level's time counts from here */
    search_limits_start(&lim, c->seconds);
    lim.interrupt = &interrupted;
    opt_config cfg = c->cfg;
    oprog pr = {.tty = c->progress, .verbose = c->verbose, .mu = &c->pmu,
                .last_ns = &c->last_ns, .index = j->lv->index};
    if (c->progress || c->verbose) {
        cfg.progress = on_progress;
        cfg.progress_arg = &pr;
    }
    char why[160];
    if (optimize_level(j->lv, j->input, &cfg, &lim, c->mem_per_thread, &j->rep, &j->lurd, why,
                       sizeof why) != 0)
        j->status = OJ_NO_SOLUTION; /* checked before: cannot happen */
    else
        j->status = metrics_cmp(&j->rep.after, &j->rep.before, c->cfg.metric) < 0
                        ? OJ_OPTIMIZED
                        : OJ_UNCHANGED;
    j->seconds = timer_seconds_since(lim.start_ns);
}

static void *oworker(void *arg)
{
    octx *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->mu);
        while (c->next < c->njobs && !c->jobs[c->next].input)
            c->jobs[c->next++].done = 1; /* nothing to optimize */
        if (c->next >= c->njobs || atomic_load(&interrupted)) {
            pthread_cond_broadcast(&c->cv);
            pthread_mutex_unlock(&c->mu);
            break;
        }
        ojob *j = &c->jobs[c->next++];
        j->started = 1;
        pthread_mutex_unlock(&c->mu);
        run_job(c, j);
        pthread_mutex_lock(&c->mu);
        j->done = 1;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
    }
    return NULL;
}

static void write_metrics(strbuf *b, const char *name, const sol_metrics *m)
{
    sb_printf(b,
              ",\"%s\":{\"moves\":%ld,\"pushes\":%ld,\"box_lines\":%ld,\"box_changes\":%ld,"
              "\"pushing_sessions\":%ld,\"player_lines\":%ld}",
              name, m->moves, m->pushes, m->box_lines, m->box_changes, m->pushing_sessions,
              m->player_lines);
}

static void write_json(FILE *f, const ojob *j)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"index\":%d,\"title\":", j->lv->index);
    sb_json_string(&b, j->lv->title);
    sb_puts(&b, ",\"status\":");
    sb_json_string(&b, oj_text[j->status]);
    if (j->lurd) {
        sb_printf(&b, ",\"seconds\":%.3f", j->seconds);
        write_metrics(&b, "before", &j->rep.before);
        write_metrics(&b, "after", &j->rep.after);
        sb_printf(&b, ",\"stop\":");
        sb_json_string(&b, j->rep.stop == STOP_NONE ? "done" : stop_reason_text(j->rep.stop));
        sb_puts(&b, ",\"methods\":{");
        for (int m = 0; m < OPT_NMETHODS; m++)
            sb_printf(&b, "%s\"%s\":{\"improvements\":%ld,\"runs\":%ld,\"seconds\":%.3f}",
                      m ? "," : "", opt_method_name[m], j->rep.method[m].improvements,
                      j->rep.method[m].runs, j->rep.method[m].seconds);
        sb_printf(&b, "},\"configs\":%llu,\"states\":%llu,\"solution\":",
                  (unsigned long long)j->rep.vic.configs, (unsigned long long)j->rep.vic.states);
        sb_json_string(&b, j->lurd);
    } else {
        sb_puts(&b, ",\"solution\":null");
    }
    sb_puts(&b, "}\n");
    fputs(b.s, f);
    sb_free(&b);
}

static void write_sok(FILE *f, const ojob *j, int metric)
{
    const level *lv = j->lv;
    strbuf b;
    sb_init(&b);
    cli_write_level_sok(f, &b, lv);
    if (j->lurd) {
        sb_printf(&b, "\nSolution %ld/%ld\n", j->rep.after.moves, j->rep.after.pushes);
        fputs(b.s, f);
        sb_clear(&b);
        cli_write_wrapped(f, j->lurd, 70);
        sb_printf(&b, "Optimizer: keeper %s, %s first, from %ld/%ld\n", KEEPER_VERSION,
                  metric == OPT_MOVES ? "moves" : "pushes", j->rep.before.moves,
                  j->rep.before.pushes);
    }
    sb_putc(&b, '\n');
    fputs(b.s, f);
    sb_free(&b);
}

static void optimize_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper optimize FILE [SOLUTIONS] [OPTIONS]\n"
            "\n"
            "Makes solutions shorter. The solutions are read as 'keeper verify' reads them\n"
            "(stored in FILE, or SOLUTIONS: SOK, CSV or LURD lines); for each level the best\n"
            "valid one in the metric order is optimized. Results are written as 'keeper\n"
            "solve' writes solutions (the level's sections are kept, the optimized solution\n"
            "added); a result table goes to stderr. Every written solution has been\n"
            "replayed, and it is never worse than its input in the metric order.\n"
            "\n"
            "  --metric moves|pushes  moves first (then pushes, box lines, box changes,\n"
            "                         pushing sessions, player lines; default), or pushes\n"
            "                         first (then moves and the rest)\n"
            "  --time SECONDS         per level (default 10; 0 = until no method improves)\n"
            "  --memory MB            memory limit of the run (default 4096)\n"
            "  --threads N            levels optimized side by side (default 1)\n"
            "  --vicinity N1/N2       the vicinity search's widest setting: one box moved to\n"
            "                         one of its N1 nearest squares, a second to one of N2\n"
            "                         (default 20/10; 10/0, 20/0 and 999/0 run first)\n"
            "  --method LIST          the methods that run (default all):\n"
            "                         rearrangements,vicinity,permutations,global\n"
            "  --level N | --levels LIST  these levels only (LIST: 1-5,9,12-20)\n"
            "  --output FILE          write to FILE instead of stdout\n"
            "  --format sok|lurd|jsonl  output format (default sok)\n"
            "  --quiet                no result table, no progress\n"
            "  --verbose              progress lines also when stderr is no terminal\n"
            "  --progress, --no-progress  force the progress line on or off (default: on\n"
            "                         when stderr is a terminal)\n"
            "\n"
            "exit status: 0 every selected level had a valid solution, 1 some had none (an\n"
            "invalid solution is reported as an error), 2 bad input.\n");
}

/* The command line of keeper optimize. */
typedef struct oargs {
    const char *file, *solfile, *output;
    level_sel sel;
    out_format fmt;
    int fmt_given, quiet, verbose, progress; /* progress: -1 = on a terminal */
    options lo; /* --time, --memory, --threads */
    opt_config cfg;
} oargs;

/* --method LIST into cfg->methods. Returns 0, or EXIT_BAD_INPUT (said). */
static int parse_methods(opt_config *cfg, const char *v)
{
    if (!v)
        return cli_usage_error("optimize", "--method needs a value");
    cfg->methods = 0;
    char *list = xstrdup(v), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int m = 0;
        while (m < OPT_NMETHODS && strcmp(t, opt_method_name[m]))
            m++;
        if (m == OPT_NMETHODS) {
            /* the message names every method, from the table */
            char known[160] = "";
            for (int j = 0; j < OPT_NMETHODS; j++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         j == 0 ? "" : j == OPT_NMETHODS - 1 ? " or " : ", ",
                         opt_method_name[j]);
            cli_usage_error("optimize", "--method: '%s' is not %s", t, known);
            free(list);
            return EXIT_BAD_INPUT;
        }
        cfg->methods |= 1u << m;
    }
    free(list);
    if (!cfg->methods)
        return cli_usage_error("optimize", "--method: no method in '%s'", v);
    return 0;
}

/* One option that takes a value (`name`, its value v). Returns 0 when
 * taken, -1 when `name` is not one of them, else EXIT_BAD_INPUT (said). */
static int parse_valued(oargs *o, const char *name, const char *v)
{
    if (!strcmp(name, "--metric")) {
        if (v && !strcmp(v, "moves"))
            o->cfg.metric = OPT_MOVES;
        else if (v && !strcmp(v, "pushes"))
            o->cfg.metric = OPT_PUSHES;
        else
            return cli_usage_error("optimize", "--metric: '%s' is not moves or pushes",
                                   v ? v : "");
    } else if (!strcmp(name, "--time") || !strcmp(name, "--memory") ||
               !strcmp(name, "--threads")) {
        /* keeper solve's table entries: the same ranges and messages */
        if (!v)
            return cli_usage_error("optimize", "%s needs a value", name);
        char *arg = xasprintf("%s=%s", name, v), err[200] = "";
        int r = options_parse(&o->lo, arg, NULL, err, sizeof err);
        free(arg);
        if (r != 1)
            return cli_usage_error("optimize", "%s", err);
    } else if (!strcmp(name, "--vicinity")) {
        int n1, n2;
        char tail;
        if (!v || sscanf(v, "%d/%d%c", &n1, &n2, &tail) != 2 || n1 < 1 || n1 > 999 || n2 < 0 ||
            n2 > 999)
            return cli_usage_error("optimize", "--vicinity: '%s' is not N1/N2 (1-999 and 0-999)",
                                   v ? v : "");
        o->cfg.near1 = n1;
        o->cfg.near2 = n2;
    } else if (!strcmp(name, "--method")) {
        return parse_methods(&o->cfg, v);
    } else if (!strcmp(name, "--output") || !strcmp(name, "-o")) {
        if (!v)
            return cli_usage_error("optimize", "%s needs a file name", name);
        o->output = v;
    } else if (!strcmp(name, "--format")) {
        if (v && !strcmp(v, "sok"))
            o->fmt = FMT_SOK;
        else if (v && !strcmp(v, "lurd"))
            o->fmt = FMT_LURD;
        else if (v && !strcmp(v, "jsonl"))
            o->fmt = FMT_JSONL;
        else
            return cli_usage_error("optimize", "--format: '%s' is not sok, lurd or jsonl",
                                   v ? v : "");
        o->fmt_given = 1;
    } else {
        return -1;
    }
    return 0;
}

/* The command line into o. Returns 0 to go on, -1 after --help, else
 * EXIT_BAD_INPUT (said). */
static int parse_args(int argc, char **argv, oargs *o)
{
    memset(o, 0, sizeof *o);
    o->fmt = FMT_SOK;
    o->progress = -1;
    options_init(&o->lo);
    o->lo.time = OPTIMIZE_DEFAULT_SECONDS;
    opt_config_default(&o->cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        char name[32] = "";
        if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof name)
            memcpy(name, a, (size_t)(eq - a));
        else
            snprintf(name, sizeof name, "%s", a);
        const char *v = eq && a[0] == '-' ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
        int takes = !(eq && a[0] == '-'); /* the value is the next argument */
        int c = cli_common_arg(&o->sel, &o->quiet, argc, argv, &i, "optimize");
        if (c == CLI_ARG_HELP)
            optimize_usage(stdout);
        if (c < 0)
            return c == CLI_ARG_HELP ? -1 : EXIT_BAD_INPUT;
        if (c)
            continue;
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            o->verbose = 1;
            continue;
        }
        if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
            o->progress = a[2] != 'n';
            continue;
        }
        int r = parse_valued(o, name, v);
        if (r > 0)
            return r;
        if (r < 0) {
            if (a[0] == '-' && a[1] != '\0')
                return cli_usage_error("optimize", "unknown option '%s'", a);
            if (!o->file)
                o->file = a;
            else if (!o->solfile)
                o->solfile = a;
            else
                return cli_usage_error("optimize", "too many files ('%s')", a);
            continue;
        }
        if (takes) {
            if (!v)
                return cli_usage_error("optimize", "%s needs a value", name);
            i++;
        }
    }
    if (!o->file)
        return cli_usage_error("optimize", "no input file");
    if (o->solfile && !strcmp(o->file, "-") && !strcmp(o->solfile, "-"))
        return cli_usage_error("optimize", "FILE and SOLUTIONS cannot both be standard input");
    if (o->output && !strcmp(o->output, "-"))
        o->output = NULL;
    if (o->output && !o->fmt_given) {
        size_t n = strlen(o->output);
        if (n >= 6 && !strcmp(o->output + n - 6, ".jsonl"))
            o->fmt = FMT_JSONL;
        else if (n >= 5 && !strcmp(o->output + n - 5, ".lurd"))
            o->fmt = FMT_LURD;
    }
    return 0;
}

/* The jobs: one per selected level of c, with the best valid solution of
 * `items` in the metric order as its input. *nbadlevel counts the levels
 * that do not parse, *ninvalid the solutions that do not replay. */
static ojob *make_jobs(const collection *c, const level_sel *sel, vlist *items, int metric,
                       int *njobs, int *ninvalid, int *nbadlevel)
{
    ojob *jobs = xcalloc((size_t)c->nlevels, sizeof(ojob));
    int n = 0;
    *nbadlevel = 0;
    int *job_of = xmalloc(sizeof(int) * ((size_t)c->nlevels + 1));
    for (int k = 0; k < c->nlevels; k++) {
        job_of[c->levels[k].index] = -1;
        if (!cli_selected(sel, c->levels[k].index))
            continue;
        if (c->levels[k].error) {
            fprintf(stderr, "%s\n", c->levels[k].error);
            (*nbadlevel)++;
        }
        job_of[c->levels[k].index] = n;
        jobs[n++].lv = &c->levels[k];
    }
    char **input = xcalloc((size_t)c->nlevels, sizeof(char *));
    sol_metrics *best = xcalloc((size_t)c->nlevels, sizeof(sol_metrics));
    *ninvalid = sol_best(items, c, sel, metric, input, best);
    for (int k = 0; k < c->nlevels; k++) {
        int jn = job_of[c->levels[k].index];
        if (jn >= 0)
            jobs[jn].input = input[k];
        else
            free(input[k]);
    }
    free(input);
    free(best);
    free(job_of);
    *njobs = n;
    return jobs;
}

/* The totals of the result table. */
typedef struct otally {
    int opt, same, none, skip;
    long bm, bp, am, ap; /* moves and pushes before and after */
} otally;

/* Job j has ended (done), or will not start: its status, its row of the
 * result table (unless quiet) and its solution in the output. */
static void report_job(octx *ctx, const oargs *o, ojob *j, int done, FILE *out, otally *t)
{
    if (!done)
        j->status = j->input ? OJ_NOT_STARTED : OJ_NO_SOLUTION;
    else if (!j->input)
        j->status = OJ_NO_SOLUTION;
    if (j->status == OJ_OPTIMIZED)
        t->opt++;
    else if (j->status == OJ_UNCHANGED)
        t->same++;
    else if (j->status == OJ_NO_SOLUTION)
        t->none++;
    else
        t->skip++;
    if (j->lurd) {
        t->bm += j->rep.before.moves;
        t->bp += j->rep.before.pushes;
        t->am += j->rep.after.moves;
        t->ap += j->rep.after.pushes;
    }
    if (!o->quiet) {
        pthread_mutex_lock(&ctx->pmu);
        if (ctx->progress)
            fputs("\r\033[K", stderr);
        fprintf(stderr, "%6d  %-9s  ", j->lv->index, oj_text[j->status]);
        if (j->lurd) {
            char bb[32], ab[32];
            snprintf(bb, sizeof bb, "%ld/%ld", j->rep.before.moves, j->rep.before.pushes);
            snprintf(ab, sizeof ab, "%ld/%ld", j->rep.after.moves, j->rep.after.pushes);
            fprintf(stderr, "%7.2fs  %15s  %15s  %s\n", j->seconds, bb, ab,
                    j->rep.stop == STOP_NONE ? "" : stop_reason_text(j->rep.stop));
        } else {
            fprintf(stderr, "%8s  %15s  %15s  %s\n", "-", "-", "-",
                    j->status == OJ_NO_SOLUTION ? "no valid solution" : "not started");
        }
        pthread_mutex_unlock(&ctx->pmu);
    }
    if (o->fmt == FMT_JSONL)
        write_json(out, j);
    else if (o->fmt == FMT_LURD)
        fprintf(out, "%s\n", j->lurd ? j->lurd : (j->input ? j->input : ""));
    else
        write_sok(out, j, o->cfg.metric);
    fflush(out);
}

/* The header of the result table, and the collection's notes first in a
 * SOK output. */
static void print_header(const oargs *o, const collection *c, int njobs, int threads, FILE *out)
{
    if (!o->quiet) {
        fprintf(stderr, "keeper %s: optimize %s: %d level%s, %s first, ", KEEPER_VERSION, c->name,
                njobs, njobs == 1 ? "" : "s", o->cfg.metric == OPT_MOVES ? "moves" : "pushes");
        if (o->lo.time > 0)
            fprintf(stderr, "%g s per level, ", o->lo.time);
        fprintf(stderr, "vicinity %d/%d, %d thread%s\n", o->cfg.near1, o->cfg.near2, threads,
                threads == 1 ? "" : "s");
        fprintf(stderr, "%6s  %-9s  %8s  %15s  %15s  %s\n", "level", "result", "time", "before",
                "after", "note");
    }
    if (o->fmt == FMT_SOK && c->nnotes) {
        for (int i = 0; i < c->nnotes; i++)
            fprintf(out, "%s\n", c->notes[i].text);
        fputc('\n', out);
    }
}

/* The last line of the result table; t0: when the levels started. */
static void print_totals(const otally *t, int64_t t0)
{
    char skip[48] = "";
    if (t->skip)
        snprintf(skip, sizeof skip, ", not started %d", t->skip);
    fprintf(stderr,
            "%6s  optimized %d, unchanged %d, without a solution %d%s, %.2f s; "
            "%ld/%ld -> %ld/%ld moves/pushes%s\n",
            "total", t->opt, t->same, t->none, skip, timer_seconds_since(t0), t->bm, t->bp,
            t->am, t->ap, atomic_load(&interrupted) ? " (interrupted)" : "");
}

int cmd_optimize(int argc, char **argv)
{
    oargs o;
    int prc = parse_args(argc, argv, &o);
    if (prc)
        return prc < 0 ? 0 : prc;
    collection c;
    if (collection_load(&c, o.file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (cli_check_level_sel(&o.sel, &c, "optimize") != 0) {
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
    vlist items = {0};
    if (o.solfile)
        rc = sol_read(&items, &c, &o.sel, o.solfile);
    else
        for (int k = 0; k < c.nlevels; k++)
            sol_add_sections(&items, &c.levels[k], &c.levels[k], c.name);
    if (rc && items.n == 0) {
        sol_list_free(&items);
        collection_free(&c);
        return rc;
    }
    /* The best valid solution of each selected level. */
    int njobs, ninvalid, nbadlevel;
    ojob *jobs = make_jobs(&c, &o.sel, &items, o.cfg.metric, &njobs, &ninvalid, &nbadlevel);

    FILE *out = stdout;
    if (o.output) {
        out = fopen(o.output, "w");
        if (!out) {
            fprintf(stderr, "%s: error: cannot write: %s\n", o.output, strerror(errno));
            sol_list_free(&items);
            collection_free(&c);
            free(jobs);
            return EXIT_BAD_INPUT;
        }
    }
    int threads = (int)MIN(o.lo.threads, (long long)MAX(njobs, 1));
    octx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.jobs = jobs;
    ctx.njobs = njobs;
    ctx.seconds = o.lo.time;
    ctx.cfg = o.cfg;
    ctx.mem_per_thread = driver_memory_share(&o.lo, threads);
    ctx.progress = !o.quiet && (o.progress == 1 || (o.progress < 0 && cli_stderr_tty()));
    ctx.verbose = o.verbose && !o.quiet;
    pthread_mutex_init(&ctx.mu, NULL);
    pthread_mutex_init(&ctx.pmu, NULL);
    pthread_cond_init(&ctx.cv, NULL);
    atomic_store(&interrupted, 0);
    cli_signals old_sa;
    cli_catch_stop_signals(on_stop_signal, &old_sa);
    print_header(&o, &c, njobs, threads, out);
    pthread_t *tids = xcalloc((size_t)threads, sizeof(pthread_t));
    for (int t = 0; t < threads; t++)
        pthread_create(&tids[t], NULL, oworker, &ctx);
    int64_t t0 = timer_now_ns();
    otally t = {0};
    for (int k = 0; k < njobs; k++) {
        ojob *j = &jobs[k];
        pthread_mutex_lock(&ctx.mu);
        while (!j->done && !(atomic_load(&interrupted) && !j->started))
            pthread_cond_wait(&ctx.cv, &ctx.mu);
        int done = j->done;
        pthread_mutex_unlock(&ctx.mu);
        report_job(&ctx, &o, j, done, out, &t);
    }
    for (int k = 0; k < threads; k++)
        pthread_join(tids[k], NULL);
    if (!o.quiet)
        print_totals(&t, t0);
    cli_restore_stop_signals(&old_sa);
    int bad_out = fflush(out) != 0 || ferror(out);
    if (o.output && fclose(out) != 0)
        bad_out = 1;
    if (bad_out)
        fprintf(stderr, "%s: error: write failed\n", o.output ? o.output : "(standard output)");
    for (int k = 0; k < njobs; k++) {
        free(jobs[k].input);
        free(jobs[k].lurd);
    }
    free(jobs);
    free(tids);
    pthread_mutex_destroy(&ctx.mu);
    pthread_mutex_destroy(&ctx.pmu);
    pthread_cond_destroy(&ctx.cv);
    sol_list_free(&items);
    collection_free(&c);
    if (rc || nbadlevel || bad_out)
        return EXIT_BAD_INPUT;
    return ninvalid || t.none || t.skip ? EXIT_SOME_FAILED : EXIT_ALL_OK;
}
