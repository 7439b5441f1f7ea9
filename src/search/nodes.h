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
 *   16    from    square the pushed box came from
 *    2    dir     direction of the push (DIR_*)
 *   13    len     squares the box moved (1, or more for a macro push)
 *    1    closed  the node has been expanded
 *   16    g       pushes from the start
 *   16    h       lower bound on the pushes still needed
 *
 * Nodes live in chunks of 2^16 so the store grows without large copies;
 * the chain heads form a power-of-two table that doubles as the store
 * grows. Everything is charged to the search's memory budget. Two positions
 * with equal 64-bit keys are taken to be the same (as YASS does): a false
 * match can only lose part of the search, never produce a wrong solution,
 * because every solution is replayed from the start before it is printed. */
#ifndef KEEPER_NODES_H
#define KEEPER_NODES_H

#include <stdint.h>
#include "../util/mem.h"

#define NODE_NONE UINT32_MAX

typedef struct node {
    uint64_t hash;
    uint32_t parent;
    uint32_t next;
    uint32_t push; /* from | dir << 16 | len << 18 | closed << 31 */
    uint16_t g;
    uint16_t h;
} node;

_Static_assert(sizeof(node) == 24, "node layout");

#define NODE_CHUNK_BITS 16
#define NODE_CHUNK (1u << NODE_CHUNK_BITS)
#define NODE_MAX_LEN 8191
#define NODE_CLOSED (1u << 31)

static inline uint32_t node_push_pack(uint32_t from, uint32_t dir, uint32_t len)
{
    return from | dir << 16 | len << 18;
}
static inline uint32_t node_from(const node *n) { return n->push & 0xFFFF; }
static inline uint32_t node_dir(const node *n) { return (n->push >> 16) & 3; }
static inline uint32_t node_len(const node *n) { return (n->push >> 18) & 0x1FFF; }
static inline int node_closed(const node *n) { return (n->push & NODE_CLOSED) != 0; }

typedef struct node_store {
    node **chunks;
    uint32_t nchunks, capchunks;
    uint32_t count;
    uint32_t *heads; /* chain heads, NODE_NONE = empty */
    uint32_t hmask;  /* table size - 1 */
    membudget *mem;
} node_store;

/* Bytes a stored position costs on average (node + table share). */
#define NODE_BYTES_PER_POSITION (sizeof(node) + 2 * sizeof(uint32_t))

int nodes_init(node_store *s, membudget *mem);
void nodes_free(node_store *s);

static inline node *nodes_at(const node_store *s, uint32_t i)
{
    return &s->chunks[i >> NODE_CHUNK_BITS][i & (NODE_CHUNK - 1)];
}

/* The node with this hash, or NODE_NONE. */
uint32_t nodes_find(const node_store *s, uint64_t hash);
/* Adds a node (hash must not be present). Returns its index, or NODE_NONE
 * when the memory budget is exhausted. */
uint32_t nodes_add(node_store *s, uint64_t hash, uint32_t parent, uint32_t push, uint16_t g,
                   uint16_t h);

#endif
