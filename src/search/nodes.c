/* nodes.c: chunked node store with a chained hash table. */
#include "nodes.h"
#include "../util/timer.h"

#include <string.h>

#define INITIAL_TABLE (1u << 12)
#define FILTER_BITS 16 /* per chain head */

static inline int filter_has(const node_store *s, uint64_t hash)
{
    uint64_t i = hash & s->fmask;
    return (int)(s->filter[i >> 6] >> (i & 63)) & 1;
}

static inline void filter_set(uint64_t *filter, uint64_t fmask, uint64_t hash)
{
    uint64_t i = hash & fmask;
    filter[i >> 6] |= 1ull << (i & 63);
}

int nodes_init(node_store *s, membudget *mem)
{
    memset(s, 0, sizeof *s);
    s->mem = mem;
    s->heads = mem_alloc(mem, sizeof(uint32_t) * INITIAL_TABLE);
    if (!s->heads)
        return -1;
    memset(s->heads, 0xFF, sizeof(uint32_t) * INITIAL_TABLE);
    s->hmask = INITIAL_TABLE - 1;
    s->fmask = (uint64_t)INITIAL_TABLE * FILTER_BITS - 1;
    s->filter = mem_alloc(mem, (s->fmask + 1) / 8);
    if (!s->filter) {
        mem_free(mem, s->heads, sizeof(uint32_t) * INITIAL_TABLE);
        s->heads = NULL;
        return -1;
    }
    memset(s->filter, 0, (s->fmask + 1) / 8);
    return 0;
}

void nodes_free(node_store *s)
{
    for (uint32_t c = 0; c < s->nchunks; c++)
        mem_free(s->mem, s->chunks[c], sizeof(node) * NODE_CHUNK);
    mem_free(s->mem, s->chunks, sizeof(node *) * s->capchunks);
    mem_free(s->mem, s->heads, sizeof(uint32_t) * ((size_t)s->hmask + 1));
    if (s->filter)
        mem_free(s->mem, s->filter, (s->fmask + 1) / 8);
    memset(s, 0, sizeof *s);
}

static inline uint32_t bucket(const node_store *s, uint64_t hash)
{
    /* high bits: the low bits also index the open list's stale checks */
    return (uint32_t)(hash >> 32) & s->hmask;
}

uint32_t nodes_find(const node_store *s, uint64_t hash)
{
    if (!filter_has(s, hash))
        return NODE_NONE;
    uint32_t i = s->heads[bucket(s, hash)];
    while (i != NODE_NONE) {
        const node *n = nodes_at(s, i);
        if (n->hash == hash)
            return i;
        i = n->next;
    }
    return NODE_NONE;
}

/* Doubles the chain table and rehashes. Keeps the old table on failure. */
static int grow_table(node_store *s)
{
    size_t old = (size_t)s->hmask + 1, size = old * 2;
    uint32_t *h = mem_alloc(s->mem, sizeof(uint32_t) * size);
    if (!h)
        return -1;
    uint64_t fmask = (uint64_t)size * FILTER_BITS - 1;
    uint64_t *f = mem_alloc(s->mem, (fmask + 1) / 8);
    if (!f) {
        mem_free(s->mem, h, sizeof(uint32_t) * size);
        return -1;
    }
    memset(h, 0xFF, sizeof(uint32_t) * size);
    memset(f, 0, (fmask + 1) / 8);
    uint32_t mask = (uint32_t)size - 1;
    for (uint32_t i = 0; i < s->count; i++) {
        node *n = nodes_at(s, i);
        uint32_t b = (uint32_t)(n->hash >> 32) & mask;
        n->next = h[b];
        h[b] = i;
        filter_set(f, fmask, n->hash);
    }
    mem_free(s->mem, s->heads, sizeof(uint32_t) * old);
    mem_free(s->mem, s->filter, (s->fmask + 1) / 8);
    /* atomic stores: nodes_prefetch reads these without the lock */
    __atomic_store_n(&s->heads, h, __ATOMIC_RELAXED);
    __atomic_store_n(&s->hmask, mask, __ATOMIC_RELAXED);
    __atomic_store_n(&s->filter, f, __ATOMIC_RELAXED);
    __atomic_store_n(&s->fmask, fmask, __ATOMIC_RELAXED);
    return 0;
}

uint32_t nodes_add(node_store *s, uint64_t hash, uint32_t parent, uint32_t from, uint32_t to,
                   uint32_t dir, uint32_t g, uint32_t h)
{
    if (s->count >= NODE_NONE - 1)
        return NODE_NONE;
    if ((s->count >> NODE_CHUNK_BITS) >= s->nchunks) {
        if (s->nchunks == s->capchunks) {
            uint32_t nc = s->capchunks ? s->capchunks * 2 : 64;
            node **c = mem_realloc(s->mem, s->chunks, sizeof(node *) * s->capchunks,
                                   sizeof(node *) * nc);
            if (!c)
                return NODE_NONE;
            s->chunks = c;
            s->capchunks = nc;
        }
        node *chunk = mem_alloc(s->mem, sizeof(node) * NODE_CHUNK);
        if (!chunk)
            return NODE_NONE;
        s->chunks[s->nchunks++] = chunk;
    }
    /* Keep chains short: at most two nodes per head on average. The table
     * grows before the store is full, so a failed growth only lengthens
     * chains; it is not fatal. */
    if (s->count >= 2 * ((size_t)s->hmask + 1) &&
        (!s->deadline_ns || !*s->deadline_ns ||
         timer_now_ns() + (int64_t)s->count * NODE_REHASH_NS < *s->deadline_ns))
        grow_table(s);
    uint32_t i = s->count++;
    node *n = nodes_at(s, i);
    n->hash = hash;
    n->parent = parent;
    n->from = (uint16_t)from;
    n->to = (uint16_t)to;
    n->gc = (uint16_t)g;
    n->hd = (uint16_t)(h | dir << 14);
    uint32_t b = bucket(s, hash);
    n->next = s->heads[b];
    s->heads[b] = i;
    filter_set(s->filter, s->fmask, hash);
    return i;
}
