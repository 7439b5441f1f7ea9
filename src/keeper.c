/* keeper.c: the public API (include/keeper.h) over the internal modules. */
#include "../include/keeper.h"
#include "core/board.h"
#include "core/level.h"
#include "core/solution.h"
#include "driver/run.h"
#include "optimize/optimize.h"
#include "util/options.h"
#include "util/timer.h"
#include "util/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct keeper_collection {
    collection c;
};

struct keeper_options {
    options o;
    char error[2400];         /* the last keeper_options_set's message */
    keeper_progress_fn progress;
    void *progress_arg;
    double every;
    atomic_int *stop;         /* keeper_interrupt (allocated: a const object's calls read it) */
};

keeper_collection *keeper_load(const char *path, char **error)
{
    keeper_collection *k = xcalloc(1, sizeof *k);
    if (collection_load(&k->c, path) != 0) {
        if (error)
            *error = xstrdup(k->c.error ? k->c.error : "cannot load");
        keeper_free(k);
        return NULL;
    }
    return k;
}

keeper_collection *keeper_parse(const char *name, const char *text, unsigned long length,
                                char **error)
{
    keeper_collection *k = xcalloc(1, sizeof *k);
    collection_parse(&k->c, name, text, length);
    if (k->c.error) {
        if (error)
            *error = xstrdup(k->c.error);
        keeper_free(k);
        return NULL;
    }
    return k;
}

void keeper_free(keeper_collection *c)
{
    if (!c)
        return;
    collection_free(&c->c);
    free(c);
}

int keeper_level_count(const keeper_collection *c)
{
    return c->c.nlevels;
}

static const level *get_level(const keeper_collection *c, int index)
{
    if (!c || index < 1 || index > c->c.nlevels)
        return NULL;
    return &c->c.levels[index - 1];
}

const char *keeper_level_title(const keeper_collection *c, int index)
{
    const level *lv = get_level(c, index);
    return lv ? lv->title : NULL;
}

const char *keeper_level_error(const keeper_collection *c, int index)
{
    const level *lv = get_level(c, index);
    return lv ? lv->error : "no such level";
}

keeper_options *keeper_options_new(void)
{
    keeper_options *o = xcalloc(1, sizeof *o);
    options_init(&o->o);
    o->stop = xmalloc(sizeof *o->stop);
    atomic_init(o->stop, 0);
    return o;
}

static char option_names[2048];

static void fill_names(void)
{
    options_names(option_names, sizeof option_names);
}

const char *keeper_option_names(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_names);
    return option_names;
}

int keeper_options_set(keeper_options *o, const char *name, const char *value)
{
    char *arg = xasprintf("--%s=%s", name, value ? value : "");
    char err[256] = "";
    int r = options_parse(&o->o, arg, NULL, err, sizeof err);
    free(arg);
    if (r == 1) {
        o->error[0] = '\0';
        return 0;
    }
    if (r == 0)
        snprintf(o->error, sizeof o->error, "unknown option '%s'; the options are: %s", name,
                 keeper_option_names());
    else
        snprintf(o->error, sizeof o->error, "%s", err);
    return -1;
}

const char *keeper_options_error(const keeper_options *o)
{
    return o->error;
}

void keeper_options_set_progress(keeper_options *o, keeper_progress_fn fn, void *arg,
                                 double every)
{
    o->progress = fn;
    o->progress_arg = arg;
    o->every = every > 0 ? every : 1.0;
}

void keeper_interrupt(keeper_options *o)
{
    atomic_store(o->stop, 1);
}

void keeper_options_resume(keeper_options *o)
{
    atomic_store(o->stop, 0);
}

void keeper_options_free(keeper_options *o)
{
    if (!o)
        return;
    free(o->stop);
    free(o);
}

/* One call's run: the options, and with a progress callback the call's
 * own stop flag (a callback cancels its call only). */
typedef struct call {
    const keeper_options *ko;
    const options *o;
    const level **lv;          /* by job */
    atomic_int cancel;
    pthread_mutex_t mu;        /* next_report */
    double *next_report;       /* by job: seconds of its next report */
} call;

/* How often a call with a progress callback looks at keeper_interrupt. */
#define STOP_POLL_SECONDS 0.25

static void call_progress(void *arg, int k, const stats *st, double seconds)
{
    call *c = arg;
    if (atomic_load(c->ko->stop)) {
        atomic_store(&c->cancel, 1);
        return;
    }
    pthread_mutex_lock(&c->mu);
    int due = seconds >= c->next_report[k];
    if (due)
        c->next_report[k] = seconds + c->ko->every;
    pthread_mutex_unlock(&c->mu);
    if (!due)
        return;
    keeper_progress p;
    char status[160];
    p.level = c->lv[k]->index;
    p.seconds = seconds;
    p.nodes = st->nodes;
    p.memory = st->mem_bytes;
    p.lower_bound = c->o->optimal ? (long)st->best_lower_bound : -1;
    snprintf(status, sizeof status, "level %d: %.1f s, %llu positions, %.0f MiB", p.level,
             seconds, (unsigned long long)st->nodes, (double)st->mem_bytes / 1048576.0);
    if (p.lower_bound >= 0) {
        size_t len = strlen(status);
        snprintf(status + len, sizeof status - len, ", >= %ld pushes", p.lower_bound);
    }
    p.status = status;
    if (c->ko->progress(c->ko->progress_arg, &p) != 0)
        atomic_store(&c->cancel, 1);
}

/* Starts a run of levels lv[0..n-1] for call c (ko may be NULL: the
 * defaults). */
static run *call_start(call *c, const keeper_options *ko, const options *o, const level **lv,
                       int n)
{
    memset(c, 0, sizeof *c);
    c->ko = ko;
    c->o = o;
    c->lv = lv;
    atomic_init(&c->cancel, 0);
    if (!ko)
        return run_start(lv, n, o, NULL, NULL);
    if (!ko->progress) /* keeper_interrupt stops the run directly */
        return run_start(lv, n, o, ko->stop, NULL);
    pthread_mutex_init(&c->mu, NULL);
    c->next_report = xcalloc((size_t)MAX(n, 1), sizeof(double));
    for (int k = 0; k < n; k++)
        c->next_report[k] = ko->every;
    run_hooks h = {.arg = c, .progress = call_progress,
                   .every = MIN(ko->every, STOP_POLL_SECONDS)};
    if (atomic_load(ko->stop))
        atomic_store(&c->cancel, 1);
    return run_start(lv, n, o, &c->cancel, &h);
}

static void call_end(call *c, run *r)
{
    run_end(r);
    if (c->next_report) {
        free(c->next_report);
        pthread_mutex_destroy(&c->mu);
    }
}

/* A result with nothing in it: no strategy, no bound. */
static void result_init(keeper_result *r)
{
    memset(r, 0, sizeof *r);
    r->strategy = "";
    r->lower_bound = -1;
}

/* The public result from the driver's (taking its solution). */
static void fill_result(keeper_result *r, solve_result *sr)
{
    memset(r, 0, sizeof *r);
    r->status = sr->status == RESULT_SOLVED    ? KEEPER_SOLVED
                : sr->status == RESULT_INVALID ? KEEPER_INVALID
                                               : KEEPER_UNSOLVED;
    snprintf(r->reason, sizeof r->reason, "%s", sr->reason);
    r->optimal = sr->optimal;
    r->seconds = sr->seconds;
    r->nodes = sr->st.nodes;
    r->expanded = sr->st.expanded;
    memcpy(&r->metrics, &sr->metrics, sizeof r->metrics);
    memcpy(&r->found, sr->status == RESULT_SOLVED ? &sr->found : &sr->metrics, sizeof r->found);
    r->strategy = sr->strategy ? sr->strategy : "";
    r->lower_bound = sr->lower_bound;
    r->solution = sr->lurd;
    sr->lurd = NULL;
}

int keeper_solve_many(const keeper_collection *c, const int *indices, int n,
                      const keeper_options *o,
                      void (*done)(void *arg, int i, keeper_result *r), void *arg)
{
    if (!indices)
        n = c->c.nlevels;
    if (n <= 0)
        return 0;
    options def;
    options_init(&def);
    const options *opt = o ? &o->o : &def;
    /* levels that do not exist come back invalid without running */
    const level **lv = xcalloc((size_t)n, sizeof *lv);
    int *job_of = xcalloc((size_t)n, sizeof *job_of);
    int njobs = 0;
    for (int i = 0; i < n; i++) {
        const level *l = get_level(c, indices ? indices[i] : i + 1);
        job_of[i] = l ? njobs : -1;
        if (l)
            lv[njobs++] = l;
    }
    call cl;
    run *rn = call_start(&cl, o, opt, lv, njobs);
    int solved = 0;
    for (int i = 0; i < n; i++) {
        keeper_result r;
        result_init(&r);
        solve_result *res = job_of[i] >= 0 ? run_wait(rn, job_of[i]) : NULL;
        if (res) {
            fill_result(&r, res);
        } else {
            r.status = job_of[i] >= 0 ? KEEPER_UNSOLVED : KEEPER_INVALID;
            snprintf(r.reason, sizeof r.reason, "%s",
                     job_of[i] >= 0 ? "interrupted" : "no such level");
        }
        solved += r.status == KEEPER_SOLVED;
        if (done)
            done(arg, i, &r);
        keeper_result_free(&r);
    }
    call_end(&cl, rn);
    free(job_of);
    free(lv);
    return solved;
}

/* keeper_solve's result: taken whole, solution included. */
static void take_result(void *arg, int i, keeper_result *r)
{
    (void)i;
    *(keeper_result *)arg = *r;
    r->solution = NULL;
}

/* A run of one level: with "threads" 2 or more, the portfolio's second
 * search gets a thread of its own, and the memory is shared out between
 * the two. */
keeper_status keeper_solve(const keeper_collection *c, int index, const keeper_options *o,
                           keeper_result *r)
{
    result_init(r);
    keeper_solve_many(c, &index, 1, o, take_result, r);
    return r->status;
}

int keeper_optimize(const keeper_collection *c, int index, const char *lurd,
                    const char *metric, double seconds, const keeper_options *o, char **out,
                    keeper_metrics *m, char *why, unsigned long why_len)
{
    *out = NULL;
    const level *lv = get_level(c, index);
    if (!lv) {
        snprintf(why, why_len, "no such level");
        return -1;
    }
    opt_config cfg;
    opt_config_default(&cfg);
    if (!metric || !strcmp(metric, "moves")) {
        cfg.metric = OPT_MOVES;
    } else if (!strcmp(metric, "pushes")) {
        cfg.metric = OPT_PUSHES;
    } else {
        snprintf(why, why_len, "unknown metric '%s' (moves, pushes)", metric);
        return -1;
    }
    options def;
    options_init(&def);
    const options *opt = o ? &o->o : &def;
    search_limits lim;
    search_limits_start(&lim, seconds);
    lim.interrupt = o ? o->stop : NULL;
    opt_report rep;
    if (optimize_level(lv, lurd, &cfg, &lim, driver_memory_share(opt, 1), &rep, out, why,
                       why_len) != 0)
        return -1;
    if (m)
        memcpy(m, &rep.after, sizeof *m);
    return 0;
}

void keeper_result_free(keeper_result *r)
{
    free(r->solution);
    r->solution = NULL;
}

int keeper_seed(keeper_collection *c, int index, const char *lurd, char *why,
                unsigned long why_len)
{
    const level *cl = get_level(c, index);
    if (!cl || cl->error) {
        snprintf(why, why_len, "%s", cl ? cl->error : "no such level");
        return -1;
    }
    level *lv = &c->c.levels[index - 1]; /* cl, writable */
    if (!lurd) {
        free(lv->seed);
        lv->seed = NULL;
        return 0;
    }
    keeper_metrics m;
    if (!keeper_verify(c, index, lurd, &m, why, why_len))
        return -1;
    if (m.pushes <= 0) {
        snprintf(why, why_len, "the level is solved at the start: nothing to seed");
        return -1;
    }
    free(lv->seed);
    lv->seed = xstrdup(lurd);
    return 0;
}

int keeper_verify(const keeper_collection *c, int index, const char *lurd, keeper_metrics *m,
                  char *why, unsigned long why_len)
{
    const level *lv = get_level(c, index);
    if (!lv || lv->error) {
        snprintf(why, why_len, "%s", lv ? lv->error : "no such level");
        return 0;
    }
    board b;
    board_build(&b, lv);
    movelist mv;
    moves_init(&mv);
    int ok = 0;
    if (lurd_decode(lurd, &mv, why, why_len) == 0) {
        replay_result rr;
        ok = solution_replay(&b, &mv, &rr);
        if (!ok)
            snprintf(why, why_len, "%s", rr.reason);
        else if (m)
            memcpy(m, &rr.m, sizeof *m);
    }
    moves_free(&mv);
    board_free(&b);
    return ok;
}
