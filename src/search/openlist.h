/* openlist.h: the A* open list as a two-level bucket queue: buckets by f,
 * and inside each by h, so pushing and popping are O(1) (amortized) and
 * ties on f go to the lowest h (the deepest positions). Each (f, h) bucket
 * is a stack: the newest entry pops first, which keeps consecutive
 * expansions close in the tree (cheap to walk between).
 *
 * Entries are node indices. A node whose g improves is pushed again; the
 * search skips stale entries when it pops them. */
#ifndef KEEPER_OPENLIST_H
#define KEEPER_OPENLIST_H

#include <stdint.h>
#include "../util/mem.h"

typedef struct ol_stack {
    uint32_t *v;
    uint32_t n, cap;
} ol_stack;

typedef struct ol_fbucket {
    ol_stack *h;   /* [nh] stacks by h */
    uint32_t nh;   /* allocated h slots */
    uint32_t minh; /* no nonempty stack below this h */
    uint64_t count;
} ol_fbucket;

typedef struct openlist {
    ol_fbucket *f;
    uint32_t nf;   /* allocated f slots */
    uint32_t minf; /* no nonempty bucket below this f */
    uint64_t count;
    membudget *mem;
} openlist;

void ol_init(openlist *o, membudget *mem);
void ol_free(openlist *o);
/* Returns 0, or -1 when the memory budget refuses. */
int ol_push(openlist *o, uint32_t f, uint32_t h, uint32_t node);
/* Pops the entry with the lowest (f, h); returns 0 with *node, *f, *h set,
 * or -1 when the list is empty. */
int ol_pop(openlist *o, uint32_t *node, uint32_t *f, uint32_t *h);
/* The lowest f in the list (UINT32_MAX when empty). */
uint32_t ol_min_f(openlist *o);

#endif
