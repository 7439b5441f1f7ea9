/* heap.h: a binary min-heap of (key, value) pairs, the open list of the
 * searches that order by one 64-bit key (the backward search, the plan's
 * base search, the optimizer's vicinity search). Pops the least key; among
 * equal keys the order is the sift order, the same on every run (callers
 * that need another tie-break put it in the key's low bits). */
#ifndef KEEPER_HEAP_H
#define KEEPER_HEAP_H

#include <stdint.h>
#include "mem.h"

typedef struct heap_item {
    uint64_t key;
    uint32_t val;
} heap_item;

typedef struct heap {
    heap_item *e;
    uint32_t n, cap;
} heap;

/* Doubles the array, in mem's budget or with plain realloc when mem is
 * NULL. Returns 0, or -1 when memory is refused (the heap is unchanged). */
int heap_grow(heap *h, membudget *mem);

/* Adds (key, val), growing the array as heap_grow does. Returns 0, or -1
 * when memory is refused (the heap is unchanged). Inline: it is on the
 * backward search's path for every child. */
static inline int heap_push(heap *h, membudget *mem, uint64_t key, uint32_t val)
{
    if (h->n == h->cap && heap_grow(h, mem) != 0)
        return -1;
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (h->e[up].key <= key)
            break;
        h->e[i] = h->e[up];
        i = up;
    }
    h->e[i] = (heap_item){key, val};
    return 0;
}

/* Removes and returns the item of least key. h->n must be > 0. */
static inline heap_item heap_pop(heap *h)
{
    heap_item top = h->e[0], last = h->e[--h->n];
    uint32_t i = 0, n = h->n;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h->e[c + 1].key < h->e[c].key)
            c++;
        if (last.key <= h->e[c].key)
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (n > 0)
        h->e[i] = last;
    return top;
}

/* Frees the array (mem: the budget it was pushed with, or NULL). */
void heap_free(heap *h, membudget *mem);

#endif
