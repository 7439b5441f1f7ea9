/* heap.c: the binary min-heap (see heap.h). */
#include "heap.h"

#include <stdlib.h>

int heap_push(heap *h, membudget *mem, uint64_t key, uint32_t val)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 256;
        heap_item *e = mem ? mem_realloc(mem, h->e, sizeof(heap_item) * h->cap,
                                         sizeof(heap_item) * cap)
                           : realloc(h->e, sizeof(heap_item) * cap);
        if (!e)
            return -1;
        h->e = e;
        h->cap = cap;
    }
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

void heap_free(heap *h, membudget *mem)
{
    if (h->e) {
        if (mem)
            mem_free(mem, h->e, sizeof(heap_item) * h->cap);
        else
            free(h->e);
    }
    *h = (heap){0};
}
