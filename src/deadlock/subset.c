/* subset.c: exhaustive breadth-first search of a reduced position (see
 * subset.h). States are the kept boxes (in their original order) and the
 * player's square; a state is identified by the Zobrist hash of its box
 * squares and its normalized player square, as in the main search. */
#include "subset.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define CACHE_SIZE (1u << 16)
/* cache_val: 0 = empty, CACHE_DEAD = proven dead, else 1 + the bit length
 * of the limit a search hit without a proof (a search under a larger limit
 * is made again). */
#define CACHE_DEAD 0xFF

static int bit_length(uint32_t x)
{
    int n = 0;
    for (; x; x >>= 1)
        n++;
    return n;
}

void subset_init(subset_ctx *s, const board *b, int limit, int maxk)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->limit = limit > 0 ? limit : 1;
    s->max_limit = s->limit;
    s->maxk = MIN(maxk, b->nboxes);
    s->shell.b = b;
    s->shell.box_at = xmalloc_held(&s->held, sizeof(uint16_t) * (size_t)b->nsq);
    for (int q = 0; q < b->nsq; q++)
        s->shell.box_at[q] = NO_BOX;
    s->shell.boxes = xmalloc_held(&s->held, sizeof(sq_t) * (size_t)(s->maxk + 1));
    freeze_init(&s->fz, b);
    s->mark = xcalloc_held(&s->held, (size_t)b->nsq, sizeof(uint32_t));
    s->stack = xmalloc_held(&s->held, sizeof(sq_t) * (size_t)b->nsq);
    s->states = xmalloc_held(&s->held, sizeof(sq_t) * (size_t)s->limit * (size_t)(s->maxk + 1));
    s->hashes = xmalloc_held(&s->held, sizeof(uint64_t) * (size_t)s->limit);
    s->tcap = 1;
    while (s->tcap < 2u * (uint32_t)s->limit)
        s->tcap <<= 1;
    s->seen = xcalloc_held(&s->held, s->tcap, sizeof(uint64_t));
    s->seen_gen = xcalloc_held(&s->held, s->tcap, sizeof(uint32_t));
    s->ccap = CACHE_SIZE;
    s->cache_key = xcalloc_held(&s->held, s->ccap, sizeof(uint64_t));
    s->cache_val = xcalloc_held(&s->held, s->ccap, 1);
    s->kept = xmalloc_held(&s->held, sizeof(sq_t) * (size_t)b->nboxes);
}

void subset_free(subset_ctx *s)
{
    free(s->shell.box_at);
    free(s->shell.boxes);
    freeze_free(&s->fz);
    free(s->mark);
    free(s->stack);
    free(s->states);
    free(s->hashes);
    free(s->seen);
    free(s->seen_gen);
    free(s->cache_key);
    free(s->cache_val);
    free(s->kept);
    memset(s, 0, sizeof *s);
}

/* Player flood over the shell position from `from`: marks reached squares
 * with s->ts and returns the smallest one. */
static sq_t flood(subset_ctx *s, sq_t from)
{
    return reach_flood_marks(s->b, s->shell.box_at, s->mark, &s->ts, s->stack, from);
}

/* Inserts key into the seen set of the current search; returns 0 when it
 * was there already. */
static int seen_insert(subset_ctx *s, uint64_t key)
{
    uint32_t i = (uint32_t)(key >> 32) & (s->tcap - 1);
    while (s->seen_gen[i] == s->gen) {
        if (s->seen[i] == key)
            return 0;
        i = (i + 1) & (s->tcap - 1);
    }
    s->seen_gen[i] = s->gen;
    s->seen[i] = key;
    return 1;
}

/* Puts the boxes of a state on the shell (SQ_NONE: a box taken off). */
static void place(subset_ctx *s, const sq_t *bx, int k)
{
    for (int j = 0; j < k; j++) {
        s->shell.boxes[j] = bx[j];
        if (bx[j] != SQ_NONE)
            s->shell.box_at[bx[j]] = (uint16_t)j;
    }
}

static void lift(subset_ctx *s, int k)
{
    for (int j = 0; j < k; j++)
        if (s->shell.boxes[j] != SQ_NONE)
            s->shell.box_at[s->shell.boxes[j]] = NO_BOX;
}

/* With s->xy: the first box of the state on the shell (the player's reach
 * marked) that has a legal push along a row and one along a column, or -1. */
static int free_box(subset_ctx *s, const sq_t *st, int k)
{
    const board *b = s->b;
    for (int j = 0; j < k; j++) {
        sq_t B = st[j];
        if (B == SQ_NONE)
            continue;
        int axes = 0;
        for (int d = 0; d < 4; d++) {
            sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
            if (N != SQ_NONE && O != SQ_NONE && s->mark[N] == s->ts &&
                s->shell.box_at[O] == NO_BOX && !b->dead[O])
                axes |= 1 << (d & 1);
        }
        if (axes == 3)
            return j;
    }
    return -1;
}

/* The search proper: 1 = no reduced solution exists, 0 = a solution was
 * found or the limit was hit. The shell is empty on return. */
static int search(subset_ctx *s, int k)
{
    const board *b = s->b;
    size_t w = (size_t)k + 1;
    int n = 1;
    for (int head = 0; head < n; head++) {
        sq_t *st = s->states + (size_t)head * w;
        place(s, st, k);
        sq_t norm = flood(s, st[k]);
        if (!seen_insert(s, s->hashes[head] ^ b->zplayer[norm])) {
            lift(s, k);
            continue;
        }
        int off = 0;
        for (int j = 0; j < k; j++)
            off += st[j] != SQ_NONE && !b->is_goal[st[j]];
        if (off == 0) {
            lift(s, k);
            return 0;
        }
        int fb = s->xy ? free_box(s, st, k) : -1;
        if (fb >= 0) {
            /* the free box is taken off: the one successor */
            if (n == s->limit) {
                lift(s, k);
                return 0;
            }
            sq_t *c = s->states + (size_t)n * w;
            memcpy(c, st, sizeof(sq_t) * w);
            c[fb] = SQ_NONE;
            s->hashes[n] = s->hashes[head] ^ b->zbox[st[fb]];
            n++;
            lift(s, k);
            continue;
        }
        for (int j = 0; j < k; j++) {
            sq_t B = st[j];
            if (B == SQ_NONE)
                continue;
            for (int d = 0; d < 4; d++) {
                sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
                if (N == SQ_NONE || O == SQ_NONE || s->mark[N] != s->ts ||
                    s->shell.box_at[O] != NO_BOX || b->dead[O])
                    continue;
                if (freeze_after_push(&s->fz, &s->shell, j, B, O))
                    continue;
                if (n == s->limit) {
                    lift(s, k);
                    return 0; /* out of room: not proven */
                }
                sq_t *c = s->states + (size_t)n * w;
                memcpy(c, st, sizeof(sq_t) * (size_t)k);
                c[j] = O;
                c[k] = B;
                s->hashes[n] = s->hashes[head] ^ b->zbox[B] ^ b->zbox[O];
                n++;
            }
        }
        lift(s, k);
    }
    return 1;
}

int subset_dead(subset_ctx *s, const sq_t *boxes, int k, sq_t player)
{
    const board *b = s->b;
    if (k <= 0 || k > s->maxk)
        return 0;
    uint64_t h = 0;
    for (int j = 0; j < k; j++)
        h ^= b->zbox[boxes[j]];
    place(s, boxes, k);
    sq_t norm = flood(s, player);
    lift(s, k);
    uint64_t key = h ^ b->zplayer[norm];
    uint32_t slot = (uint32_t)key & (s->ccap - 1);
    if (s->limit > s->max_limit)
        s->limit = s->max_limit;
    int lbits = bit_length((uint32_t)s->limit);
    if (s->cache_key[slot] == key &&
        (s->cache_val[slot] == CACHE_DEAD || (s->cache_val[slot] && s->cache_val[slot] - 1 >= lbits))) {
        s->cache_hits++;
        return s->cache_val[slot] == CACHE_DEAD;
    }
    s->searches++;
    if (++s->gen == 0) {
        memset(s->seen_gen, 0, sizeof(uint32_t) * s->tcap);
        s->gen = 1;
    }
    memcpy(s->states, boxes, sizeof(sq_t) * (size_t)k);
    s->states[k] = player;
    s->hashes[0] = h;
    int dead = search(s, k);
    s->proofs += (uint64_t)dead;
    s->cache_key[slot] = key;
    s->cache_val[slot] = dead ? CACHE_DEAD : (uint8_t)(1 + lbits);
    return dead;
}

/* The corral deadlock search on the boxes fence[0..k) (box indices of p),
 * counted in st. 0 when there are more than s->maxk. */
static int fence_dead(subset_ctx *s, const uint16_t *fence, int k, const position *p, stats *st)
{
    if (k > s->maxk)
        return 0;
    for (int j = 0; j < k; j++)
        s->kept[j] = p->boxes[fence[j]];
    s->nkept = k;
    uint64_t before = s->searches;
    int dead = subset_dead(s, s->kept, k, p->player);
    st->subset_searches += s->searches - before;
    st->subset_deadlocks += (uint64_t)dead;
    return dead;
}

int subset_corral_dead(subset_ctx *s, const corral_ctx *c, const position *p, stats *st)
{
    return fence_dead(s, c->best_fence, c->nbest, p, st);
}

int subset_corrals_dead(subset_ctx *s, const corral_ctx *c, const position *p, stats *st)
{
    if (subset_corral_dead(s, c, p, st))
        return 1;
    for (int i = 0; i < c->nall; i++) {
        const uint16_t *fence = c->all_fence + c->all_start[i];
        if (fence != c->best_fence && /* the chosen one was searched above */
            fence_dead(s, fence, c->all_start[i + 1] - c->all_start[i], p, st))
            return 1;
    }
    return 0;
}

int subset_local_dead(subset_ctx *s, const position *p, sq_t to, int radius, stats *st)
{
    int k = subset_near(p, to, radius, s->maxk, s->kept);
    s->nkept = k;
    if (k < 2)
        return 0; /* a lone box: the dead squares' business */
    uint64_t before = s->searches;
    int dead = subset_dead(s, s->kept, k, p->player);
    st->local_searches += s->searches - before;
    st->cut_local += (uint64_t)dead;
    return dead;
}

int subset_near(const position *p, sq_t to, int radius, int maxk, sq_t *kept)
{
    const board *b = p->b;
    int r0 = board_row(b, to), c0 = board_col(b, to);
    int k = 0;
    if (maxk <= 0)
        return 0;
    kept[k++] = to;
    /* rings of growing Manhattan distance, so the nearest boxes come first */
    for (int dist = 1; dist <= 2 * radius && k < maxk; dist++)
        for (int dy = -radius; dy <= radius && k < maxk; dy++)
            for (int dx = -radius; dx <= radius && k < maxk; dx++) {
                if (abs(dx) + abs(dy) != dist)
                    continue;
                int r = r0 + dy, c = c0 + dx;
                if (r < 0 || c < 0 || r >= b->height || c >= b->width)
                    continue;
                sq_t q = b->sq_of_cell[r * b->width + c];
                if (q != SQ_NONE && p->box_at[q] != NO_BOX)
                    kept[k++] = q;
            }
    return k;
}
