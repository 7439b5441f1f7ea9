/* mem.h: a memory budget. Every large allocation of a search (node store,
 * hash table, open list, reference BFS states) goes through one budget, so
 * the --memory limit holds exactly: an allocation that would pass the limit
 * fails and the search ends cleanly with "memory limit". Frees are told the
 * size (as in Lua's allocator), keeping the accounting exact. */
#ifndef KEEPER_MEM_H
#define KEEPER_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct membudget {
    uint64_t limit; /* bytes; 0 = unlimited */
    uint64_t used;  /* bytes currently allocated through this budget */
    uint64_t peak;  /* high-water mark of `used` */
} membudget;

void mem_init(membudget *m, uint64_t limit);
/* Returns NULL (and allocates nothing) if the budget or the system refuses. */
void *mem_alloc(membudget *m, size_t n);
void *mem_calloc(membudget *m, size_t n);
/* On failure returns NULL and leaves `p` valid and accounted. */
void *mem_realloc(membudget *m, void *p, size_t old_n, size_t new_n);
void mem_free(membudget *m, void *p, size_t n);
/* Whether `n` more bytes would fit. */
int mem_fits(const membudget *m, size_t n);

#endif
