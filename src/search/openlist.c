/* openlist.c: two-level bucket queue. */
#include "openlist.h"

#include <string.h>

void ol_init(openlist *o, membudget *mem)
{
    memset(o, 0, sizeof *o);
    o->mem = mem;
}

void ol_free(openlist *o)
{
    for (uint32_t f = 0; f < o->nf; f++) {
        ol_fbucket *fb = &o->f[f];
        for (uint32_t h = 0; h < fb->nh; h++)
            mem_free(o->mem, fb->h[h].v, sizeof(uint32_t) * fb->h[h].cap);
        mem_free(o->mem, fb->h, sizeof(ol_stack) * fb->nh);
    }
    mem_free(o->mem, o->f, sizeof(ol_fbucket) * o->nf);
    memset(o, 0, sizeof *o);
}

/* Grows an array of `elem`-byte items from *n to at least need, zeroing. */
static int grow(membudget *mem, void **arr, uint32_t *n, uint32_t need, size_t elem)
{
    if (need <= *n)
        return 0;
    uint32_t nn = *n ? *n : 16;
    while (nn < need)
        nn *= 2;
    void *a = mem_realloc(mem, *arr, elem * *n, elem * nn);
    if (!a)
        return -1;
    memset((char *)a + elem * *n, 0, elem * (nn - *n));
    *arr = a;
    *n = nn;
    return 0;
}

int ol_push(openlist *o, uint32_t f, uint32_t h, uint32_t node)
{
    if (grow(o->mem, (void **)&o->f, &o->nf, f + 1, sizeof(ol_fbucket)) != 0)
        return -1;
    ol_fbucket *fb = &o->f[f];
    if (grow(o->mem, (void **)&fb->h, &fb->nh, h + 1, sizeof(ol_stack)) != 0)
        return -1;
    ol_stack *st = &fb->h[h];
    if (st->n == st->cap) {
        uint32_t nc = st->cap ? st->cap * 2 : 64;
        uint32_t *v = mem_realloc(o->mem, st->v, sizeof(uint32_t) * st->cap,
                                  sizeof(uint32_t) * nc);
        if (!v)
            return -1;
        st->v = v;
        st->cap = nc;
    }
    st->v[st->n++] = node;
    if (fb->count == 0 || h < fb->minh)
        fb->minh = h;
    fb->count++;
    if (o->count == 0 || f < o->minf)
        o->minf = f;
    o->count++;
    return 0;
}

uint32_t ol_min_f(openlist *o)
{
    if (o->count == 0)
        return UINT32_MAX;
    while (o->f[o->minf].count == 0)
        o->minf++;
    return o->minf;
}

int ol_pop(openlist *o, uint32_t *node, uint32_t *f, uint32_t *h)
{
    if (o->count == 0)
        return -1;
    uint32_t mf = ol_min_f(o);
    ol_fbucket *fb = &o->f[mf];
    while (fb->h[fb->minh].n == 0)
        fb->minh++;
    ol_stack *st = &fb->h[fb->minh];
    *node = st->v[--st->n];
    *f = mf;
    *h = fb->minh;
    fb->count--;
    o->count--;
    return 0;
}
