/* mem.c: budgeted allocation, exact under threads (see mem.h). */
#include "mem.h"

#include <stdlib.h>

void mem_init(membudget *m, uint64_t limit)
{
    atomic_init(&m->limit, limit);
    atomic_init(&m->used, 0);
    atomic_init(&m->peak, 0);
}

int mem_fits(const membudget *m, size_t n)
{
    uint64_t limit = atomic_load(&m->limit);
    return limit == 0 || atomic_load(&m->used) + n <= limit;
}

/* Takes `n` bytes of the budget, or returns 0 if they would pass the limit.
 * A compare-and-swap loop, so concurrent reservations never pass it
 * together; the peak follows. */
static int reserve(membudget *m, uint64_t n)
{
    uint64_t used = atomic_load(&m->used);
    do {
        uint64_t limit = atomic_load(&m->limit);
        if (limit && used + n > limit)
            return 0;
    } while (!atomic_compare_exchange_weak(&m->used, &used, used + n));
    uint64_t now = used + n, peak = atomic_load(&m->peak);
    while (now > peak && !atomic_compare_exchange_weak(&m->peak, &peak, now))
        ;
    return 1;
}

static void release(membudget *m, uint64_t n)
{
    atomic_fetch_sub(&m->used, n);
}

void mem_charge(membudget *m, uint64_t n)
{
    uint64_t now = atomic_fetch_add(&m->used, n) + n, peak = atomic_load(&m->peak);
    while (now > peak && !atomic_compare_exchange_weak(&m->peak, &peak, now))
        ;
}

void mem_grow(membudget *m, uint64_t n)
{
    uint64_t limit = atomic_load(&m->limit);
    while (limit && !atomic_compare_exchange_weak(&m->limit, &limit, limit + n))
        ;
}

void *mem_alloc(membudget *m, size_t n)
{
    if (!reserve(m, n))
        return NULL;
    void *p = malloc(n ? n : 1);
    if (!p)
        release(m, n);
    return p;
}

void *mem_calloc(membudget *m, size_t n)
{
    if (!reserve(m, n))
        return NULL;
    void *p = calloc(1, n ? n : 1);
    if (!p)
        release(m, n);
    return p;
}

void *mem_realloc(membudget *m, void *p, size_t old_n, size_t new_n)
{
    if (new_n > old_n && !reserve(m, new_n - old_n))
        return NULL;
    void *q = realloc(p, new_n ? new_n : 1);
    if (!q) {
        if (new_n > old_n)
            release(m, new_n - old_n);
        return NULL;
    }
    if (new_n < old_n)
        release(m, old_n - new_n);
    return q;
}

void mem_free(membudget *m, void *p, size_t n)
{
    if (!p)
        return;
    free(p);
    release(m, n);
}
