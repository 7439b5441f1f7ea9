/* keeper.c: the public API (include/keeper.h) over the internal modules. */
#include "../include/keeper.h"
#include "core/board.h"
#include "core/level.h"
#include "core/solution.h"
#include "search/solver.h"
#include "util/options.h"
#include "util/spares.h"
#include "util/timer.h"
#include "util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct keeper_collection {
    collection c;
};

struct keeper_options {
    options o;
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
    return o;
}

int keeper_options_set(keeper_options *o, const char *name, const char *value)
{
    char *arg = xasprintf("--%s=%s", name, value);
    char err[256];
    int r = options_parse(&o->o, arg, NULL, err, sizeof err);
    free(arg);
    return r == 1 ? 0 : -1;
}

void keeper_options_free(keeper_options *o)
{
    free(o);
}

/* A helper thread: serves the pool until the level is done. */
static void *serve(void *arg)
{
    spares_serve(arg);
    return NULL;
}

keeper_status keeper_solve(const keeper_collection *c, int index, const keeper_options *o,
                           keeper_result *r)
{
    memset(r, 0, sizeof *r);
    const level *lv = get_level(c, index);
    if (!lv) {
        r->status = KEEPER_INVALID;
        strcpy(r->reason, "no such level");
        return r->status;
    }
    options def;
    options_init(&def);
    const options *opt = o ? &o->o : &def;
    search_limits lim;
    search_limits_start(&lim, opt->time);
    lim.max_nodes = (uint64_t)opt->max_nodes;
    /* With "threads" 2 or more, the portfolio's second search gets a
     * thread of its own, and the memory is shared out between the two. */
    uint64_t memory = (uint64_t)opt->memory * 1024 * 1024;
    int threads = (int)MIN(opt->threads, (long long)solve_level_threads(opt));
    spares pool;
    pthread_t helper;
    spares_init(&pool, threads, memory / (uint64_t)threads);
    if (threads > 1 && pthread_create(&helper, NULL, serve, &pool) != 0) {
        spares_destroy(&pool);
        threads = 1;
        spares_init(&pool, threads, memory);
    }
    lim.spares = threads > 1 ? &pool : NULL;
    solve_result sr;
    solve_level(lv, opt, &lim, memory / (uint64_t)threads, &sr);
    spares_serve(&pool); /* this thread is done too: the helper leaves */
    if (threads > 1)
        pthread_join(helper, NULL);
    spares_destroy(&pool);
    r->status = sr.status == RESULT_SOLVED ? KEEPER_SOLVED
                : sr.status == RESULT_INVALID ? KEEPER_INVALID
                                              : KEEPER_UNSOLVED;
    snprintf(r->reason, sizeof r->reason, "%s", sr.reason);
    r->optimal = sr.optimal;
    r->seconds = sr.seconds;
    r->nodes = sr.st.nodes;
    r->expanded = sr.st.expanded;
    memcpy(&r->metrics, &sr.metrics, sizeof r->metrics);
    r->solution = sr.lurd;
    sr.lurd = NULL;
    return r->status;
}

void keeper_result_free(keeper_result *r)
{
    free(r->solution);
    r->solution = NULL;
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
