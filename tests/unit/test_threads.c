/* test_threads.c: what runs on several threads. The memory budget holds
 * its limit and stays exact under concurrent allocation; the pool of spare
 * threads lends a waiting thread and gets it back. */
#include "test.h"
#include "../../src/util/mem.h"
#include "../../src/util/spares.h"
#include "../../src/util/timer.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* ---------------------------------------------------------- memory */

typedef struct hammer {
    membudget *m;
    int rounds;
    uint32_t seed;
    int failures; /* allocations refused by the budget */
} hammer;

/* Allocates, grows, shrinks and frees blocks at random, touching them. */
static void *hammer_run(void *arg)
{
    hammer *h = arg;
    enum { SLOTS = 16 };
    void *p[SLOTS] = {0};
    size_t n[SLOTS] = {0};
    for (int r = 0; r < h->rounds; r++) {
        h->seed = h->seed * 1103515245u + 12345u;
        int k = (int)((h->seed >> 8) % SLOTS);
        size_t want = 1 + (h->seed >> 12) % 65536;
        if (!p[k]) {
            p[k] = mem_alloc(h->m, want);
            if (p[k]) {
                n[k] = want;
                memset(p[k], 1, want);
            } else {
                h->failures++;
            }
        } else if (r % 3 == 0) {
            void *q = mem_realloc(h->m, p[k], n[k], want);
            if (q) {
                p[k] = q;
                n[k] = want;
            } else {
                h->failures++;
            }
        } else {
            mem_free(h->m, p[k], n[k]);
            p[k] = NULL;
        }
    }
    for (int k = 0; k < SLOTS; k++)
        mem_free(h->m, p[k], n[k]);
    return NULL;
}

TEST(mem_budget_holds_under_threads)
{
    membudget m;
    mem_init(&m, 300000); /* less than what 2 x 16 slots could hold */
    hammer h[2] = {{&m, 200000, 1, 0}, {&m, 200000, 2, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        REQUIRE(pthread_create(&t[i], NULL, hammer_run, &h[i]) == 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK_INT(atomic_load(&m.used), 0);
    CHECK(atomic_load(&m.peak) <= 300000);
    CHECK(atomic_load(&m.peak) > 200000);
    CHECK(h[0].failures > 0 && h[1].failures > 0);
    /* A refused allocation changes nothing; mem_grow raises the limit. */
    void *p = mem_alloc(&m, 300001);
    CHECK(p == NULL);
    CHECK_INT(atomic_load(&m.used), 0);
    mem_grow(&m, 1);
    p = mem_alloc(&m, 300001);
    CHECK(p != NULL);
    mem_free(&m, p, 300001);
    CHECK_INT(atomic_load(&m.used), 0);
}

/* ---------------------------------------------------------- the pool */

static void *serve(void *arg)
{
    spares_serve(arg);
    return NULL;
}

/* Waits until a spare thread waits for work. */
static void wait_idle(spares *s)
{
    for (;;) {
        pthread_mutex_lock(&s->mu);
        int idle = s->idle;
        pthread_mutex_unlock(&s->mu);
        if (idle)
            return;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
}

/* Starts one spare thread and waits until it waits for work. */
static int spare_start(spares *s, pthread_t *tid, uint64_t share)
{
    spares_init(s, 2, share);
    if (pthread_create(tid, NULL, serve, s) != 0)
        return -1;
    wait_idle(s);
    return 0;
}

/* This thread has no more work either: the spare leaves. */
static void spare_stop(spares *s, pthread_t tid)
{
    spares_serve(s);
    pthread_join(tid, NULL);
    spares_destroy(s);
}

static void add_one(void *arg)
{
    (*(int *)arg)++;
}

TEST(spares_lend_an_idle_thread)
{
    spares s;
    spares_init(&s, 1, 0);
    spare_task t;
    int runs = 0;
    CHECK(spares_lend(&s, &t, add_one, &runs) == 0); /* nobody idle */
    spares_serve(&s);                                /* returns: no one works */
    spares_destroy(&s);

    pthread_t tid;
    REQUIRE(spare_start(&s, &tid, 0) == 0);
    spare_task t2;
    for (int k = 0; k < 3; k++) {
        wait_idle(&s); /* back from the last task */
        REQUIRE(spares_lend(&s, &t, add_one, &runs) == 1);
        CHECK(spares_lend(&s, &t2, add_one, &runs) == 0); /* one spare only */
        spares_wait(&s, &t);
        CHECK_INT(runs, k + 1);
    }
    spare_stop(&s, tid);
}
