/* mem.h: a memory budget. Every large allocation of a search (node store,
 * hash table, open list, reference BFS states) goes through one budget, so
 * the --memory limit holds exactly: an allocation that would pass the limit
 * fails and the search ends cleanly with "memory limit". Frees are told the
 * size (as in Lua's allocator), keeping the accounting exact.
 *
 * Thread-safe: searches running side by side on one level share its budget.
 * The bytes are reserved (compare-and-swap on `used`) before the system
 * allocates them, so two threads cannot both pass the limit. */
#ifndef KEEPER_MEM_H
#define KEEPER_MEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct membudget {
    _Atomic uint64_t limit; /* bytes; 0 = unlimited */
    _Atomic uint64_t used;  /* bytes currently allocated through this budget */
    _Atomic uint64_t peak;  /* high-water mark of `used` */
} membudget;

void mem_init(membudget *m, uint64_t limit);
/* Returns NULL (and allocates nothing) if the budget or the system refuses. */
void *mem_alloc(membudget *m, size_t n);
void *mem_calloc(membudget *m, size_t n);
/* On failure returns NULL and leaves `p` valid and accounted. */
void *mem_realloc(membudget *m, void *p, size_t old_n, size_t new_n);
void mem_free(membudget *m, void *p, size_t n);
/* Whether `n` more bytes would fit now (another thread may take them
 * first: only mem_alloc's answer is binding). */
int mem_fits(const membudget *m, size_t n);
/* Takes `n` bytes for memory allocated outside the budget (analysis
 * tables, detector contexts); 0 (and nothing taken) if they would pass the
 * limit. mem_give returns them. */
int mem_take(membudget *m, uint64_t n);
void mem_give(membudget *m, uint64_t n);
/* Raises the limit by `n` bytes (a thread lent to the level brings its
 * share); no-op on an unlimited budget. */
void mem_grow(membudget *m, uint64_t n);

#endif
