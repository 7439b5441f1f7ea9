/* mem.c: budgeted allocation. */
#include "mem.h"

#include <stdlib.h>

void mem_init(membudget *m, uint64_t limit)
{
    m->limit = limit;
    m->used = 0;
    m->peak = 0;
}

int mem_fits(const membudget *m, size_t n)
{
    return m->limit == 0 || m->used + n <= m->limit;
}

static void account(membudget *m, size_t n)
{
    m->used += n;
    if (m->used > m->peak)
        m->peak = m->used;
}

void *mem_alloc(membudget *m, size_t n)
{
    if (!mem_fits(m, n))
        return NULL;
    void *p = malloc(n ? n : 1);
    if (p)
        account(m, n);
    return p;
}

void *mem_calloc(membudget *m, size_t n)
{
    if (!mem_fits(m, n))
        return NULL;
    void *p = calloc(1, n ? n : 1);
    if (p)
        account(m, n);
    return p;
}

void *mem_realloc(membudget *m, void *p, size_t old_n, size_t new_n)
{
    if (new_n > old_n && !mem_fits(m, new_n - old_n))
        return NULL;
    void *q = realloc(p, new_n ? new_n : 1);
    if (!q)
        return NULL;
    m->used -= old_n;
    account(m, new_n);
    return q;
}

void mem_free(membudget *m, void *p, size_t n)
{
    if (!p)
        return;
    free(p);
    m->used -= n;
}
