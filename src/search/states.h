/* states.h: a store of full states (box bitset over the squares, player
 * square) with a transposition table, for the searches that keep every
 * state whole: the breadth-first reference (bfs.c) and the move-optimal
 * search (moveopt.c). They depend on no other module's cleverness.
 *
 * States are appended (index 0, 1, ...) in chunks, so the store grows
 * without large copies; every byte is charged to the memory budget. Per
 * state: the bitset, the player, a 32-bit hash, the parent index, the push
 * that led to it (from << 2 | dir) and, when asked for, a 64-bit word the
 * search uses as it likes (costs, flags). Lookups compare whole states, so
 * two states are never confused. */
#ifndef KEEPER_STATES_H
#define KEEPER_STATES_H

#include <stdint.h>
#include "search.h"
#include "../util/mem.h"

#define STATES_CHUNK_BITS 14
#define STATES_CHUNK (1u << STATES_CHUNK_BITS)
#define STATES_NONE UINT32_MAX

typedef struct states_chunk {
    uint64_t *bits;
    uint32_t *parent;
    uint32_t *push; /* from << 2 | dir */
    uint32_t *hash32;
    uint16_t *player;
    uint64_t *aux;  /* NULL unless the store keeps it */
} states_chunk;

typedef struct states {
    int words; /* 64-bit words per bitset */
    int aux;   /* keep the aux word */
    states_chunk *chunks;
    int nchunks, capchunks;
    uint32_t count;
    uint32_t *table; /* open addressing, state index + 1, 0 = empty */
    uint32_t tsize;
    membudget *mem;
} states;

/* A store for boards of nsq squares. Returns 0, or -1 when the budget
 * refuses the first table. */
int states_init(states *st, int nsq, int aux, membudget *mem);
void states_free(states *st);

#define STATES_AT(st, field, i) ((st)->chunks[(i) >> STATES_CHUNK_BITS].field + ((i) & (STATES_CHUNK - 1)))

static inline uint64_t *states_bits(const states *st, uint32_t i)
{
    return st->chunks[i >> STATES_CHUNK_BITS].bits +
           (size_t)(i & (STATES_CHUNK - 1)) * (size_t)st->words;
}

/* The squares of a bitset in increasing order into out; returns how many. */
static inline int states_squares(const uint64_t *bits, int words, uint16_t *out)
{
    int n = 0;
    for (int w = 0; w < words; w++)
        for (uint64_t x = bits[w]; x; x &= x - 1)
            out[n++] = (uint16_t)(w * 64 + __builtin_ctzll(x));
    return n;
}

/* The index of state (bits, player) with hash h, or STATES_NONE, with *slot
 * set to where it would go (for states_add, until the next add). */
uint32_t states_find(const states *st, const uint64_t *bits, uint16_t player, uint32_t h,
                     uint32_t *slot);

/* Appends a state found absent at `slot`; returns its index, or STATES_NONE
 * when memory runs out. The table doubles when half full. */
uint32_t states_add(states *st, const uint64_t *bits, uint16_t player, uint32_t h,
                    uint32_t parent, uint32_t push, uint32_t slot);

/* The single pushes from the root (the state without a parent) to state i,
 * each stored as from << 2 | dir, into *out (empty on entry). Returns how
 * many. */
int states_path(const states *st, uint32_t i, const board *b, push_seq *out);

#endif
