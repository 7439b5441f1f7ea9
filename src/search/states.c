/* states.c: the store of full states (see states.h). */
#include "states.h"

#include <string.h>

static void chunk_free(states *st, states_chunk *c)
{
    mem_free(st->mem, c->bits, sizeof(uint64_t) * (size_t)st->words * STATES_CHUNK);
    mem_free(st->mem, c->parent, sizeof(uint32_t) * STATES_CHUNK);
    mem_free(st->mem, c->push, sizeof(uint32_t) * STATES_CHUNK);
    mem_free(st->mem, c->hash32, sizeof(uint32_t) * STATES_CHUNK);
    mem_free(st->mem, c->player, sizeof(uint16_t) * STATES_CHUNK);
    if (st->aux)
        mem_free(st->mem, c->aux, sizeof(uint64_t) * STATES_CHUNK);
}

static int grow_chunks(states *st)
{
    if (st->nchunks == st->capchunks) {
        int nc = st->capchunks ? st->capchunks * 2 : 16;
        void *q = mem_realloc(st->mem, st->chunks, sizeof(states_chunk) * (size_t)st->capchunks,
                              sizeof(states_chunk) * (size_t)nc);
        if (!q)
            return -1;
        st->chunks = q;
        st->capchunks = nc;
    }
    states_chunk *c = &st->chunks[st->nchunks];
    memset(c, 0, sizeof *c);
    c->bits = mem_alloc(st->mem, sizeof(uint64_t) * (size_t)st->words * STATES_CHUNK);
    c->parent = mem_alloc(st->mem, sizeof(uint32_t) * STATES_CHUNK);
    c->push = mem_alloc(st->mem, sizeof(uint32_t) * STATES_CHUNK);
    c->hash32 = mem_alloc(st->mem, sizeof(uint32_t) * STATES_CHUNK);
    c->player = mem_alloc(st->mem, sizeof(uint16_t) * STATES_CHUNK);
    if (st->aux)
        c->aux = mem_alloc(st->mem, sizeof(uint64_t) * STATES_CHUNK);
    if (!c->bits || !c->parent || !c->push || !c->hash32 || !c->player ||
        (st->aux && !c->aux)) {
        chunk_free(st, c);
        return -1;
    }
    st->nchunks++;
    return 0;
}

static int table_resize(states *st, uint32_t nsize)
{
    uint32_t *t = mem_calloc(st->mem, sizeof(uint32_t) * nsize);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < st->count; i++) {
        uint32_t h = *STATES_AT(st, hash32, i) & (nsize - 1);
        while (t[h])
            h = (h + 1) & (nsize - 1);
        t[h] = i + 1;
    }
    mem_free(st->mem, st->table, sizeof(uint32_t) * st->tsize);
    st->table = t;
    st->tsize = nsize;
    return 0;
}

int states_init(states *st, int nsq, int aux, membudget *mem)
{
    memset(st, 0, sizeof *st);
    st->mem = mem;
    st->words = (nsq + 63) / 64;
    st->aux = aux;
    return table_resize(st, 1u << 12);
}

void states_free(states *st)
{
    for (int c = 0; c < st->nchunks; c++)
        chunk_free(st, &st->chunks[c]);
    mem_free(st->mem, st->chunks, sizeof(states_chunk) * (size_t)st->capchunks);
    mem_free(st->mem, st->table, sizeof(uint32_t) * st->tsize);
    memset(st, 0, sizeof *st);
}

uint32_t states_find(const states *st, const uint64_t *bits, uint16_t player, uint32_t h,
                     uint32_t *slot)
{
    uint32_t mask = st->tsize - 1, k = h & mask;
    while (st->table[k]) {
        uint32_t i = st->table[k] - 1;
        if (*STATES_AT(st, hash32, i) == h && *STATES_AT(st, player, i) == player &&
            memcmp(states_bits(st, i), bits, sizeof(uint64_t) * (size_t)st->words) == 0)
            return i;
        k = (k + 1) & mask;
    }
    *slot = k;
    return STATES_NONE;
}

uint32_t states_add(states *st, const uint64_t *bits, uint16_t player, uint32_t h,
                    uint32_t parent, uint32_t push, uint32_t slot)
{
    if (st->count >= UINT32_MAX - 2)
        return STATES_NONE;
    if ((st->count >> STATES_CHUNK_BITS) >= (uint32_t)st->nchunks && grow_chunks(st) != 0)
        return STATES_NONE;
    uint32_t i = st->count++;
    memcpy(states_bits(st, i), bits, sizeof(uint64_t) * (size_t)st->words);
    *STATES_AT(st, player, i) = player;
    *STATES_AT(st, hash32, i) = h;
    *STATES_AT(st, parent, i) = parent;
    *STATES_AT(st, push, i) = push;
    if (st->aux)
        *STATES_AT(st, aux, i) = 0;
    st->table[slot] = i + 1;
    if (st->count * 2 > st->tsize && table_resize(st, st->tsize * 2) != 0) {
        st->table[slot] = 0; /* keep the table consistent: forget it */
        st->count--;
        return STATES_NONE;
    }
    return i;
}

int states_path(const states *st, uint32_t i, const board *b, push_seq *out)
{
    int n = 0;
    for (uint32_t k = i; *STATES_AT(st, parent, k) != STATES_NONE; k = *STATES_AT(st, parent, k))
        n++;
    for (int j = 0; j < n; j++)
        push_seq_add(out, 0, 0, 0, 1);
    int at = n;
    for (uint32_t k = i; *STATES_AT(st, parent, k) != STATES_NONE; k = *STATES_AT(st, parent, k)) {
        uint32_t pu = *STATES_AT(st, push, k);
        push_step *ps = &out->v[--at];
        ps->from = (sq_t)(pu >> 2);
        ps->dir = (uint8_t)(pu & 3);
        ps->to = b->nb[ps->from][ps->dir];
    }
    return n;
}
