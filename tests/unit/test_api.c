/* test_api.c: the public interface (include/keeper.h) as a program that
 * links libkeeper uses it: options by name with their errors, solve,
 * solve_many, optimize, progress and cancelling, interrupts. Every solution
 * returned is replayed here with keeper_verify. */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "../../include/keeper.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static keeper_collection *load(const char *path)
{
    char *err = NULL;
    keeper_collection *c = keeper_load(path, &err);
    if (!c) {
        test_fail(__FILE__, __LINE__, "cannot load %s: %s", path, err ? err : "?");
        free(err);
    }
    return c;
}

TEST(api_options_by_name)
{
    keeper_options *o = keeper_options_new();
    const char *names = keeper_option_names();
    CHECK_CONTAINS(names, "time");
    CHECK_CONTAINS(names, "dead-squares");
    CHECK_CONTAINS(names, "strategy");
    CHECK(strchr(names, '_') == NULL); /* written as on the command line */
    CHECK_INT(keeper_options_set(o, "time", "5"), 0);
    CHECK_STR(keeper_options_error(o), "");
    CHECK_INT(keeper_options_set(o, "strategy", "fess"), 0);
    CHECK_INT(keeper_options_set(o, "dead-squares", "off"), 0);
    /* an unknown name lists the names there are */
    CHECK_INT(keeper_options_set(o, "speed", "9"), -1);
    CHECK_CONTAINS(keeper_options_error(o), "unknown option 'speed'");
    CHECK_CONTAINS(keeper_options_error(o), "memory");
    /* a bad value says what is wrong with it */
    CHECK_INT(keeper_options_set(o, "time", "soon"), -1);
    CHECK_CONTAINS(keeper_options_error(o), "time");
    CHECK_INT(keeper_options_set(o, "strategy", "magic"), -1);
    CHECK_CONTAINS(keeper_options_error(o), "fess");
    keeper_options_free(o);
}

TEST(api_solve_reports_and_verifies)
{
    keeper_collection *c = load("levels/demo.xsb");
    REQUIRE(c);
    keeper_options *o = keeper_options_new();
    CHECK_INT(keeper_options_set(o, "time", "30"), 0);
    keeper_result r;
    CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_SOLVED);
    REQUIRE(r.solution);
    CHECK(r.strategy && r.strategy[0]);
    CHECK_INT(r.lower_bound, -1); /* not push-optimal mode */
    keeper_metrics m;
    char why[200];
    CHECK_INT(keeper_verify(c, 2, r.solution, &m, why, sizeof why), 1);
    CHECK_INT(m.moves, r.metrics.moves);
    CHECK_INT(m.pushes, r.metrics.pushes);
    CHECK_INT(r.found.pushes, r.metrics.pushes); /* no optimize option */
    keeper_result_free(&r);
    /* push-optimal mode proves its bound: the lower bound is the count */
    CHECK_INT(keeper_options_set(o, "optimal", "1"), 0);
    CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_SOLVED);
    CHECK(r.optimal);
    CHECK_INT(r.lower_bound, r.metrics.pushes);
    keeper_result_free(&r);
    /* a level that does not exist */
    CHECK_INT(keeper_solve(c, 99, o, &r), KEEPER_INVALID);
    CHECK_STR(r.reason, "no such level");
    keeper_result_free(&r);
    keeper_options_free(o);
    keeper_free(c);
}

/* keeper_seed: a proven solution given back as the seed is proven again
 * from it (the level ends on the seed: nothing shorter); a bad seed is
 * refused with its reason; NULL removes it. */
TEST(api_seed_proves_from_a_given_solution)
{
    keeper_collection *c = load("levels/demo.xsb");
    REQUIRE(c);
    keeper_options *o = keeper_options_new();
    CHECK_INT(keeper_options_set(o, "time", "30"), 0);
    CHECK_INT(keeper_options_set(o, "optimal", "pushes"), 0);
    keeper_result r;
    CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_SOLVED);
    REQUIRE(r.solution);
    CHECK(r.optimal);
    char *best = strdup(r.solution);
    long pushes = r.metrics.pushes;
    keeper_result_free(&r);
    char why[200] = "";
    CHECK_INT(keeper_seed(c, 2, best, why, sizeof why), 0);
    CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_SOLVED);
    CHECK(r.optimal);
    CHECK_INT(r.metrics.pushes, pushes);
    CHECK_STR(r.strategy, "astar (seed)");
    keeper_result_free(&r);
    CHECK_INT(keeper_seed(c, 2, "uuuu", why, sizeof why), -1);
    CHECK(why[0] != '\0');
    CHECK_INT(keeper_seed(c, 99, best, why, sizeof why), -1);
    CHECK_STR(why, "no such level");
    CHECK_INT(keeper_seed(c, 2, NULL, why, sizeof why), 0);
    CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_SOLVED);
    CHECK(r.optimal);
    CHECK_INT(r.metrics.pushes, pushes);
    keeper_result_free(&r);
    free(best);
    keeper_options_free(o);
    keeper_free(c);
}

typedef struct many {
    const keeper_collection *c;
    int calls, order_ok, verified;
    int seen[16];
} many;

static void on_done(void *arg, int i, keeper_result *r)
{
    many *m = arg;
    m->order_ok += i == m->calls;
    m->calls++;
    if (i >= 0 && i < 16)
        m->seen[i] = r->status == KEEPER_SOLVED ? 1 : 2;
    char why[200];
    if (r->status == KEEPER_SOLVED && r->solution &&
        keeper_verify(m->c, i + 1, r->solution, NULL, why, sizeof why))
        m->verified++;
}

TEST(api_threads_solve_many_in_order)
{
    keeper_collection *c = load("levels/demo.xsb");
    REQUIRE(c);
    int n = keeper_level_count(c);
    REQUIRE(n >= 4 && n <= 16);
    keeper_options *o = keeper_options_new();
    CHECK_INT(keeper_options_set(o, "threads", "2"), 0);
    CHECK_INT(keeper_options_set(o, "time", "30"), 0);
    many m;
    memset(&m, 0, sizeof m);
    m.c = c;
    CHECK_INT(keeper_solve_many(c, NULL, 0, o, on_done, &m), n);
    CHECK_INT(m.calls, n);
    CHECK_INT(m.order_ok, n);
    CHECK_INT(m.verified, n);
    /* a chosen list, with a level that does not exist: reported invalid,
     * in its place */
    int pick[3] = {3, 99, 1};
    memset(&m, 0, sizeof m);
    m.c = c;
    CHECK_INT(keeper_solve_many(c, pick, 3, o, NULL, NULL), 2);
    keeper_options_free(o);
    keeper_free(c);
}

static int cancel_at_once(void *arg, const keeper_progress *p)
{
    int *calls = arg;
    (*calls)++;
    CHECK(p->status && strstr(p->status, "positions"));
    CHECK(p->level == 1);
    return 1;
}

TEST(api_threads_progress_cancels_its_call)
{
    /* demo-hard's levels take seconds: the first report cancels */
    keeper_collection *c = load("levels/demo-hard.xsb");
    REQUIRE(c);
    keeper_options *o = keeper_options_new();
    CHECK_INT(keeper_options_set(o, "time", "60"), 0);
    int calls = 0;
    keeper_options_set_progress(o, cancel_at_once, &calls, 0.05);
    keeper_result r;
    CHECK_INT(keeper_solve(c, 1, o, &r), KEEPER_UNSOLVED);
    CHECK_STR(r.reason, "interrupted");
    CHECK_INT(calls, 1);
    keeper_result_free(&r);
    keeper_options_free(o);
    keeper_free(c);
}

typedef struct stopper {
    keeper_options *o;
} stopper;

static void *interrupt_soon(void *arg)
{
    stopper *s = arg;
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    keeper_interrupt(s->o);
    return NULL;
}

TEST(api_threads_interrupt_from_another_thread)
{
    keeper_collection *c = load("levels/demo-hard.xsb");
    REQUIRE(c);
    keeper_options *o = keeper_options_new();
    CHECK_INT(keeper_options_set(o, "time", "60"), 0);
    CHECK_INT(keeper_options_set(o, "threads", "2"), 0);
    for (int with_progress = 0; with_progress < 2; with_progress++) {
        int calls = 0;
        if (with_progress) /* reports every 10 s: the interrupt still stops it */
            keeper_options_set_progress(o, cancel_at_once, &calls, 10);
        keeper_options_resume(o);
        stopper s = {o};
        pthread_t t;
        REQUIRE(pthread_create(&t, NULL, interrupt_soon, &s) == 0);
        keeper_result r;
        CHECK_INT(keeper_solve(c, 1, o, &r), KEEPER_UNSOLVED);
        CHECK_STR(r.reason, "interrupted");
        pthread_join(t, NULL);
        keeper_result_free(&r);
        CHECK_INT(calls, 0);
        /* interrupted options stay so: the next call returns at once */
        CHECK_INT(keeper_solve(c, 2, o, &r), KEEPER_UNSOLVED);
        CHECK_STR(r.reason, "interrupted");
        keeper_result_free(&r);
    }
    keeper_options_free(o);
    keeper_free(c);
}

TEST(api_optimize_shortens_and_checks_input)
{
    keeper_collection *c = load("levels/demo.xsb");
    REQUIRE(c);
    int level = keeper_level_count(c);
    keeper_options *o = keeper_options_new();
    keeper_result r;
    CHECK_INT(keeper_solve(c, level, o, &r), KEEPER_SOLVED);
    REQUIRE(r.solution);
    /* the solution with a detour in front: a step away and back, where the
     * player can step (found by trying each) */
    static const char *const detours[] = {"lr", "rl", "ud", "du"};
    char *slow = NULL;
    char why[200];
    for (int k = 0; k < 4 && !slow; k++) {
        size_t n = strlen(r.solution) + 3;
        char *s = malloc(n);
        snprintf(s, n, "%s%s", detours[k], r.solution);
        if (keeper_verify(c, level, s, NULL, why, sizeof why))
            slow = s;
        else
            free(s);
    }
    REQUIRE(slow);
    char *out = NULL;
    keeper_metrics m;
    CHECK_INT(keeper_optimize(c, level, slow, "moves", 10, o, &out, &m, why, sizeof why), 0);
    REQUIRE(out);
    keeper_metrics v;
    CHECK_INT(keeper_verify(c, level, out, &v, why, sizeof why), 1);
    CHECK_INT(v.moves, m.moves);
    CHECK(m.moves <= r.metrics.moves); /* the detour is gone */
    free(out);
    /* input that is not a solution, a bad metric, a missing level */
    CHECK_INT(keeper_optimize(c, level, "l", "moves", 1, o, &out, NULL, why, sizeof why), -1);
    CHECK(out == NULL && why[0]);
    CHECK_INT(keeper_optimize(c, level, slow, "speed", 1, o, &out, NULL, why, sizeof why), -1);
    CHECK_CONTAINS(why, "unknown metric");
    CHECK_INT(keeper_optimize(c, 99, slow, "moves", 1, o, &out, NULL, why, sizeof why), -1);
    CHECK_STR(why, "no such level");
    free(slow);
    keeper_result_free(&r);
    keeper_options_free(o);
    keeper_free(c);
}
