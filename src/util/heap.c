/* heap.c: the binary min-heap (see heap.h). */
#include "heap.h"

#include <stdlib.h>

int heap_grow(heap *h, membudget *mem)
{
    uint32_t cap = h->cap ? h->cap * 2 : 256;
    heap_item *e = mem ? mem_realloc(mem, h->e, sizeof(heap_item) * h->cap,
                                     sizeof(heap_item) * cap)
                       : realloc(h->e, sizeof(heap_item) * cap);
    if (!e)
        return -1;
    h->e = e;
    h->cap = cap;
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
