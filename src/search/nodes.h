/* nodes.h: the node store and transposition table of the A* search.
 *
 * A node is a position reached by the search. It does not store its boxes:
 * a position is put on the board by walking from the current position to
 * the target along parent links (YASS's SetPosition, seed 000). A node is
 * 24 bytes:
 *
 *   bits  field
 *   64    hash    Zobrist key of the box set XOR the normalized player
 *   32    parent  index of the parent node (NODE_NONE for the root)
 *   32    next    next node in the same hash-table chain
 *   16    from    square the moved box came from
 *   16    to      square it went to (a push, a tunnel or a packing macro)
 *   15    g       pushes from the start
 *    1    closed  the node has been expanded
 *   13    h       lower bound on the pushes still needed (clamped)
 *    1    nopic   the position has no PI-corral (known when it was stored)
 *    2    dir     direction of the last push (the player ends behind the box)
 *
 * Nodes live in chunks of 2^16 so the store grows without large copies;
 * the chain heads form a power-of-two table that doubles as the store
 * grows. Beside it a filter of 16 bits per chain head, one set per stored
 * key, answers most lookups of absent keys without walking a chain (a
 * chain's nodes lie anywhere in memory: on XSokoban 41 the lookups were
 * 16 % of the feature-space search's time, 20 % on a level the searches
 * solve by meeting, where every position is looked up in the other's
 * store). Everything is charged to the search's memory budget. Two positions
 * with equal 64-bit keys are taken to be the same (as YASS does): a false
 * match can only lose part of the search, never produce a wrong solution,
 * because every solution is replayed from the start before it is printed. */
#ifndef KEEPER_NODES_H
#define KEEPER_NODES_H

#include <stdint.h>
#include "../util/mem.h"

#define NODE_NONE UINT32_MAX
#define NODE_MAX_G 0x7FFF
#define NODE_MAX_H 0x1FFF

typedef struct node {
    uint64_t hash;
    uint32_t parent;
    uint32_t next;
    uint16_t from, to;
    uint16_t gc; /* g | closed << 15 */
    uint16_t hd; /* h | nopic << 13 | dir << 14 */
} node;

_Static_assert(sizeof(node) == 24, "node layout");

#define NODE_CHUNK_BITS 16
#define NODE_CHUNK (1u << NODE_CHUNK_BITS)

static inline uint32_t node_g(const node *n) { return n->gc & 0x7FFF; }
static inline uint32_t node_h(const node *n) { return n->hd & 0x1FFF; }
static inline int node_nopic(const node *n) { return (n->hd & 0x2000) != 0; }
static inline void node_set_nopic(node *n) { n->hd |= 0x2000; }
static inline uint32_t node_dir(const node *n) { return n->hd >> 14; }
static inline int node_closed(const node *n) { return (n->gc & 0x8000) != 0; }
static inline void node_close(node *n) { n->gc |= 0x8000; }
static inline void node_reopen(node *n) { n->gc &= 0x7FFF; }
static inline void node_set_g(node *n, uint32_t g) { n->gc = (uint16_t)((n->gc & 0x8000) | g); }
static inline void node_set_h(node *n, uint32_t h) { n->hd = (uint16_t)((n->hd & 0xE000) | h); }
static inline void node_set_move(node *n, uint32_t from, uint32_t to, uint32_t dir)
{
    n->from = (uint16_t)from;
    n->to = (uint16_t)to;
    n->hd = (uint16_t)((n->hd & 0x3FFF) | dir << 14);
}

typedef struct node_store {
    node **chunks;
    uint32_t nchunks, capchunks;
    uint32_t count;
    uint32_t *heads; /* chain heads, NODE_NONE = empty */
    uint32_t hmask;  /* table size - 1 */
    uint64_t *filter; /* [16 * (hmask + 1) bits]: bit (hash & fmask) set
                         for every stored hash */
    uint64_t fmask;
    membudget *mem;
    /* When set: the time limit (timer_now_ns, 0 = none). The table then
     * grows only where the rehash (NODE_REHASH_NS a position) ends before
     * it: a rehash of 134 M positions took 3.5 s past a 600 s limit. */
    const int64_t *deadline_ns;
} node_store;

#define NODE_REHASH_NS 40

/* Bytes a stored position costs on average (node + table share). */
#define NODE_BYTES_PER_POSITION (sizeof(node) + 2 * sizeof(uint32_t) + 2)

int nodes_init(node_store *s, membudget *mem);
void nodes_free(node_store *s);

static inline node *nodes_at(const node_store *s, uint32_t i)
{
    return &s->chunks[i >> NODE_CHUNK_BITS][i & (NODE_CHUNK - 1)];
}

/* The node with this hash, or NODE_NONE. */
uint32_t nodes_find(const node_store *s, uint64_t hash);
/* Adds a node (hash must not be present): the box moved from `from` to `to`,
 * the last push in direction `dir`. g <= NODE_MAX_G, h <= NODE_MAX_H.
 * Returns its index, or NODE_NONE when the memory budget is exhausted. */
uint32_t nodes_add(node_store *s, uint64_t hash, uint32_t parent, uint32_t from, uint32_t to,
                   uint32_t dir, uint32_t g, uint32_t h);

/* Brings the table entries of `hash` (its filter word and chain head)
 * towards the cache before a lookup made under a lock, so that the lock is
 * held for less of their memory latency. A hint only: another thread may
 * be growing the store (its arrays then replaced); the fields are read
 * atomically, and a prefetch of a stale address does no harm. */
static inline void nodes_prefetch(const node_store *s, uint64_t hash)
{
#if defined(__GNUC__)
    const uint64_t *f = __atomic_load_n(&s->filter, __ATOMIC_RELAXED);
    uint64_t fm = __atomic_load_n(&s->fmask, __ATOMIC_RELAXED);
    const uint32_t *h = __atomic_load_n(&s->heads, __ATOMIC_RELAXED);
    uint32_t hm = __atomic_load_n(&s->hmask, __ATOMIC_RELAXED);
    __builtin_prefetch(f + ((hash & fm) >> 6));
    __builtin_prefetch(h + ((uint32_t)(hash >> 32) & hm));
#else
    (void)s;
    (void)hash;
#endif
}

#endif
