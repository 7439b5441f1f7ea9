/* bfs.c: exhaustive breadth-first search over pushes (the reference).
 *
 * States are appended in breadth-first order, so the state store is also
 * the FIFO queue. Storage is chunked (no large reallocations) and every
 * byte is charged to the memory budget. Per state: the box bitset, parent
 * index, the push that led to it, the normalized player, a hash. */
#include "bfs.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_BITS 14
#define CHUNK (1u << CHUNK_BITS)

typedef struct bfs_chunk {
    uint64_t *bits;
    uint32_t *parent;
    uint32_t *push; /* from << 2 | dir */
    uint32_t *hash32;
    sq_t *player;
} bfs_chunk;

typedef struct bfs_store {
    int words; /* 64-bit words per bitset */
    bfs_chunk *chunks;
    int nchunks, capchunks;
    uint32_t count;
    uint32_t *table; /* open addressing, state index + 1, 0 = empty */
    uint32_t tsize;
    membudget *mem;
} bfs_store;

#define AT(st, field, i) ((st)->chunks[(i) >> CHUNK_BITS].field + ((i) & (CHUNK - 1)))

static uint64_t *bits_of(const bfs_store *st, uint32_t i)
{
    return st->chunks[i >> CHUNK_BITS].bits + (size_t)(i & (CHUNK - 1)) * (size_t)st->words;
}

static void chunk_free(bfs_store *st, bfs_chunk *c)
{
    mem_free(st->mem, c->bits, sizeof(uint64_t) * (size_t)st->words * CHUNK);
    mem_free(st->mem, c->parent, sizeof(uint32_t) * CHUNK);
    mem_free(st->mem, c->push, sizeof(uint32_t) * CHUNK);
    mem_free(st->mem, c->hash32, sizeof(uint32_t) * CHUNK);
    mem_free(st->mem, c->player, sizeof(sq_t) * CHUNK);
}

static int store_grow_chunks(bfs_store *st)
{
    if (st->nchunks == st->capchunks) {
        int nc = st->capchunks ? st->capchunks * 2 : 16;
        void *q = mem_realloc(st->mem, st->chunks, sizeof(bfs_chunk) * (size_t)st->capchunks,
                              sizeof(bfs_chunk) * (size_t)nc);
        if (!q)
            return -1;
        st->chunks = q;
        st->capchunks = nc;
    }
    bfs_chunk *c = &st->chunks[st->nchunks];
    c->bits = mem_alloc(st->mem, sizeof(uint64_t) * (size_t)st->words * CHUNK);
    c->parent = mem_alloc(st->mem, sizeof(uint32_t) * CHUNK);
    c->push = mem_alloc(st->mem, sizeof(uint32_t) * CHUNK);
    c->hash32 = mem_alloc(st->mem, sizeof(uint32_t) * CHUNK);
    c->player = mem_alloc(st->mem, sizeof(sq_t) * CHUNK);
    if (!c->bits || !c->parent || !c->push || !c->hash32 || !c->player) {
        chunk_free(st, c);
        return -1;
    }
    st->nchunks++;
    return 0;
}

static void store_free(bfs_store *st)
{
    for (int c = 0; c < st->nchunks; c++)
        chunk_free(st, &st->chunks[c]);
    mem_free(st->mem, st->chunks, sizeof(bfs_chunk) * (size_t)st->capchunks);
    mem_free(st->mem, st->table, sizeof(uint32_t) * st->tsize);
}

static int table_resize(bfs_store *st, uint32_t nsize)
{
    uint32_t *t = mem_calloc(st->mem, sizeof(uint32_t) * nsize);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < st->count; i++) {
        uint32_t h = *AT(st, hash32, i) & (nsize - 1);
        while (t[h])
            h = (h + 1) & (nsize - 1);
        t[h] = i + 1;
    }
    mem_free(st->mem, st->table, sizeof(uint32_t) * st->tsize);
    st->table = t;
    st->tsize = nsize;
    return 0;
}

/* Finds the state (bits, player); returns its index + 1, or 0 when absent,
 * with *slot set to where it would go. */
static uint32_t lookup(const bfs_store *st, const uint64_t *bits, sq_t player, uint32_t h,
                       uint32_t *slot)
{
    uint32_t mask = st->tsize - 1, k = h & mask;
    while (st->table[k]) {
        uint32_t i = st->table[k] - 1;
        if (*AT(st, hash32, i) == h && *AT(st, player, i) == player &&
            memcmp(bits_of(st, i), bits, sizeof(uint64_t) * (size_t)st->words) == 0)
            return i + 1;
        k = (k + 1) & mask;
    }
    *slot = k;
    return 0;
}

/* Appends a state; returns its index, or UINT32_MAX when memory runs out. */
static uint32_t store_add(bfs_store *st, const uint64_t *bits, sq_t player, uint32_t h,
                          uint32_t parent, uint32_t push, uint32_t slot)
{
    if (st->count >= UINT32_MAX - 2)
        return UINT32_MAX;
    if ((st->count >> CHUNK_BITS) >= (uint32_t)st->nchunks && store_grow_chunks(st) != 0)
        return UINT32_MAX;
    uint32_t i = st->count++;
    memcpy(bits_of(st, i), bits, sizeof(uint64_t) * (size_t)st->words);
    *AT(st, player, i) = player;
    *AT(st, hash32, i) = h;
    *AT(st, parent, i) = parent;
    *AT(st, push, i) = push;
    st->table[slot] = i + 1;
    return i;
}

static void set_from_bits(position *p, const uint64_t *bits, int words, sq_t player, sq_t *tmp)
{
    int n = 0;
    for (int w = 0; w < words; w++) {
        uint64_t x = bits[w];
        while (x) {
            int k = __builtin_ctzll(x);
            tmp[n++] = (sq_t)(w * 64 + k);
            x &= x - 1;
        }
    }
    pos_set(p, tmp, player);
}

/* The search proper, from position `start`. Returns the index of a solved
 * state, or UINT32_MAX with out->stop set. */
static void bfs_run(const board *b, const position *start, const bfs_config *cfg,
                    search_limits *lim, membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "bfs";
    bfs_store st;
    memset(&st, 0, sizeof st);
    st.mem = mem;
    st.words = (b->nsq + 63) / 64;
    position p;
    pos_init(&p, b);
    pos_copy(&p, start);
    reach r0, r1;
    reach_init(&r0, b->nsq);
    reach_init(&r1, b->nsq);
    uint64_t *cur = xcalloc((size_t)st.words, sizeof(uint64_t));
    uint64_t *child = xcalloc((size_t)st.words, sizeof(uint64_t));
    sq_t *tmp = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    int64_t next_progress = search_first_progress(lim);
    uint32_t found = UINT32_MAX;

    if (table_resize(&st, 1u << 12) != 0) {
        out->stop = STOP_MEMORY;
        goto done;
    }
    for (int i = 0; i < b->nboxes; i++)
        cur[p.boxes[i] >> 6] |= 1ULL << (p.boxes[i] & 63);
    {
        sq_t norm = reach_compute(&r0, &p, p.player);
        uint32_t h = (uint32_t)(p.hash ^ b->zplayer[norm]);
        uint32_t slot = 0;
        lookup(&st, cur, norm, h, &slot);
        if (store_add(&st, cur, norm, h, UINT32_MAX, 0, slot) == UINT32_MAX) {
            out->stop = STOP_MEMORY;
            goto done;
        }
        out->st.nodes = 1;
        if (pos_solved(&p)) {
            found = 0;
            goto done;
        }
    }
    for (uint32_t i = 0; i < st.count; i++) {
        if ((i & 255) == 0) {
            out->st.mem_bytes = mem->peak;
            stop_reason sr = search_check_limits(lim, &out->st, &next_progress);
            if (sr != STOP_NONE) {
                out->stop = sr;
                goto done;
            }
        }
        memcpy(cur, bits_of(&st, i), sizeof(uint64_t) * (size_t)st.words);
        sq_t pl = *AT(&st, player, i);
        set_from_bits(&p, cur, st.words, pl, tmp);
        reach_compute(&r0, &p, pl);
        out->st.reach_calls++;
        out->st.expanded++;
        for (int j = 0; j < b->nboxes; j++) {
            sq_t from = p.boxes[j];
            for (int d = 0; d < 4; d++) {
                sq_t behind = b->nb[from][DIR_OPP(d)];
                if (behind == SQ_NONE || !reach_floor(&r0, behind))
                    continue;
                sq_t to = b->nb[from][d];
                if (to == SQ_NONE || p.box_at[to] != NO_BOX)
                    continue;
                if (cfg->prune_dead && b->dead && b->dead[to]) {
                    out->st.cut_dead++;
                    continue;
                }
                out->st.generated++;
                undo_rec u;
                pos_push(&p, from, d, 1, &u);
                memcpy(child, cur, sizeof(uint64_t) * (size_t)st.words);
                child[from >> 6] &= ~(1ULL << (from & 63));
                child[to >> 6] |= 1ULL << (to & 63);
                sq_t norm = reach_compute(&r1, &p, from);
                out->st.reach_calls++;
                uint32_t h = (uint32_t)(p.hash ^ b->zplayer[norm]);
                uint32_t slot = 0;
                if (lookup(&st, child, norm, h, &slot)) {
                    out->st.duplicates++;
                    pos_undo(&p, &u);
                    continue;
                }
                uint32_t k = store_add(&st, child, norm, h, i, (uint32_t)from << 2 | (uint32_t)d, slot);
                if (k == UINT32_MAX) {
                    out->stop = STOP_MEMORY;
                    goto done;
                }
                out->st.nodes++;
                if (pos_solved(&p)) {
                    found = k;
                    goto done;
                }
                pos_undo(&p, &u);
                if (st.count * 2 > st.tsize && table_resize(&st, st.tsize * 2) != 0) {
                    out->stop = STOP_MEMORY;
                    goto done;
                }
            }
        }
    }
    out->stop = STOP_EXHAUSTED;

done:
    if (found != UINT32_MAX) {
        /* Walk back to the root, then reverse. */
        int n = 0;
        for (uint32_t k = found; *AT(&st, parent, k) != UINT32_MAX; k = *AT(&st, parent, k))
            n++;
        push_seq ps = {0};
        for (int i = 0; i < n; i++)
            push_seq_add(&ps, 0, 0, 0, 1);
        int i = n;
        for (uint32_t k = found; *AT(&st, parent, k) != UINT32_MAX; k = *AT(&st, parent, k)) {
            uint32_t pu = *AT(&st, push, k);
            --i;
            ps.v[i].from = (sq_t)(pu >> 2);
            ps.v[i].dir = (uint8_t)(pu & 3);
            ps.v[i].to = b->nb[ps.v[i].from][ps.v[i].dir];
        }
        out->pushes = ps;
        out->solved = 1;
        out->optimal = 1;
        out->stop = STOP_NONE;
        out->st.max_depth = (uint64_t)n;
    }
    out->st.mem_bytes = mem->peak;
    store_free(&st);
    free(cur);
    free(child);
    free(tmp);
    reach_free(&r0);
    reach_free(&r1);
    pos_free(&p);
}

void bfs_solve(const board *b, const bfs_config *cfg, search_limits *lim, membudget *mem,
               search_outcome *out)
{
    position p;
    pos_init(&p, b);
    bfs_run(b, &p, cfg, lim, mem, out);
    pos_free(&p);
}

int bfs_solvable(const board *b, const position *p, search_limits *lim, membudget *mem,
                 long *pushes_out)
{
    bfs_config cfg = {0};
    search_outcome out;
    bfs_run(b, p, &cfg, lim, mem, &out);
    int r = out.solved ? 1 : out.stop == STOP_EXHAUSTED ? 0 : -1;
    if (pushes_out)
        *pushes_out = out.solved ? push_seq_pushes(&out.pushes) : -1;
    push_seq_free(&out.pushes);
    return r;
}
