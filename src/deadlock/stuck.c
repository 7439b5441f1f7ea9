/* stuck.c: learned deadlock patterns (see stuck.h). */
#include "stuck.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void stuck_init(stuck_table *t, const board *b)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    t->words = (uint32_t)(b->nsq + 63) / 64;
    t->sqcap = 1024;
    t->sq = xmalloc_held(&t->held, sizeof(sq_t) * t->sqcap);
    t->start = xcalloc_held(&t->held, STUCK_MAX_PATTERNS + 1, sizeof(uint32_t));
    t->region = xcalloc_held(&t->held, (size_t)STUCK_MAX_PATTERNS * t->words, sizeof(uint64_t));
    t->head = xmalloc_held(&t->held, sizeof(uint32_t) * (size_t)b->nsq);
    for (int q = 0; q < b->nsq; q++)
        t->head[q] = UINT32_MAX;
    t->next = xmalloc_held(&t->held, sizeof(uint32_t) * STUCK_MAX_PATTERNS);
    t->anchored = xcalloc_held(&t->held, (size_t)b->nsq, sizeof(uint32_t));
    t->on = xcalloc_held(&t->held, (size_t)b->nsq, 1);
    t->mark = xcalloc_held(&t->held, (size_t)b->nsq, sizeof(uint32_t));
    t->stack = xmalloc_held(&t->held, sizeof(sq_t) * (size_t)b->nsq);
    t->kept = xmalloc_held(&t->held, sizeof(sq_t) * (size_t)(b->nboxes + 1));
}

void stuck_free(stuck_table *t)
{
    if (!t->b)
        return;
    free(t->sq);
    free(t->start);
    free(t->region);
    free(t->head);
    free(t->next);
    free(t->anchored);
    if (t->xy.b)
        subset_free(&t->xy);
    free(t->on);
    free(t->mark);
    free(t->stack);
    free(t->kept);
    memset(t, 0, sizeof *t);
}

int stuck_match(const stuck_table *t, const position *p)
{
    if (t->n == 0)
        return 0;
    const board *b = t->b;
    sq_t pl = p->player;
    for (int i = 0; i < b->nboxes; i++) {
        for (uint32_t j = t->head[p->boxes[i]]; j != UINT32_MAX; j = t->next[j]) {
            if (!(t->region[(size_t)j * t->words + pl / 64] >> (pl % 64) & 1))
                continue;
            int all = 1;
            for (uint32_t m = t->start[j]; m < t->start[j + 1] && all; m++)
                all = p->box_at[t->sq[m]] != NO_BOX;
            if (all)
                return 1;
        }
    }
    return 0;
}

/* Player flood from `from` with boxes on the squares t->on marks: marks
 * the reached squares with a fresh stamp, returned. */
static uint32_t flood(stuck_table *t, sq_t from)
{
    const board *b = t->b;
    if (++t->ts == 0) {
        memset(t->mark, 0, sizeof(uint32_t) * (size_t)b->nsq);
        t->ts = 1;
    }
    int top = 0;
    t->mark[from] = t->ts;
    t->stack[top++] = from;
    while (top > 0) {
        sq_t x = t->stack[--top];
        for (int d = 0; d < 4; d++) {
            sq_t y = b->nb[x][d];
            if (y != SQ_NONE && t->mark[y] != t->ts && !t->on[y]) {
                t->mark[y] = t->ts;
                t->stack[top++] = y;
            }
        }
    }
    return t->ts;
}

/* Whether the box on B (t->on, the flood marked) can be pushed along a row
 * and along a column: the same test as the xy search's. */
static int xy_free(const stuck_table *t, sq_t B)
{
    const board *b = t->b;
    int axes = 0;
    for (int d = 0; d < 4; d++) {
        sq_t N = b->nb[B][DIR_OPP(d)], O = b->nb[B][d];
        if (N != SQ_NONE && O != SQ_NONE && t->mark[N] == t->ts && !t->on[O] && !b->dead[O])
            axes |= 1 << (d & 1);
    }
    return axes == 3;
}

/* Stores the pattern t->kept[0..k) with the player region of `player`. */
static void store(stuck_table *t, int k, sq_t player)
{
    const board *b = t->b;
    if (t->n >= STUCK_MAX_PATTERNS)
        return;
    if (t->nsqpool + (uint32_t)k > t->sqcap) {
        uint32_t old = t->sqcap;
        t->sqcap = 2 * t->sqcap + (uint32_t)k;
        t->sq = xrealloc_held(&t->held, t->sq, sizeof(sq_t) * old, sizeof(sq_t) * t->sqcap);
    }
    uint32_t j = (uint32_t)t->n++;
    sq_t *s = t->sq + t->nsqpool;
    t->nsqpool += (uint32_t)k;
    t->start[j + 1] = t->nsqpool;
    sq_t anchor = t->kept[0];
    for (int m = 0; m < k; m++) {
        s[m] = t->kept[m];
        t->on[t->kept[m]] = 1;
        if (t->anchored[t->kept[m]] < t->anchored[anchor])
            anchor = t->kept[m];
    }
    uint32_t ts = flood(t, player);
    uint64_t *r = t->region + (size_t)j * t->words;
    memset(r, 0, sizeof(uint64_t) * t->words);
    for (int q = 0; q < b->nsq; q++)
        if (t->mark[q] == ts)
            r[q / 64] |= (uint64_t)1 << (q % 64);
    for (int m = 0; m < k; m++)
        t->on[t->kept[m]] = 0;
    t->next[j] = t->head[anchor];
    t->head[anchor] = j;
    t->anchored[anchor]++;
}

/* Drops boxes from t->kept[0..k) while `proof` still proves the rest dead;
 * returns the count left. */
static int shrink(stuck_table *t, subset_ctx *proof, int k, sq_t player)
{
    for (int j = k - 1; j >= 0 && k > 1; j--) {
        sq_t drop = t->kept[j];
        t->kept[j] = t->kept[k - 1];
        if (subset_dead(proof, t->kept, k - 1, player)) {
            k--;
        } else {
            t->kept[k - 1] = t->kept[j];
            t->kept[j] = drop;
        }
    }
    return k;
}

void stuck_add(stuck_table *t, subset_ctx *proof, const sq_t *boxes, int k, sq_t player,
               stats *st)
{
    if (k <= 0 || k > STUCK_ADD_MAX || t->n >= STUCK_MAX_PATTERNS)
        return;
    memcpy(t->kept, boxes, sizeof(sq_t) * (size_t)k);
    k = shrink(t, proof, k, player);
    st->stuck_learned++;
    store(t, k, player);
}

int stuck_learn(stuck_table *t, const position *p, int round, stats *st)
{
    const board *b = t->b;
    for (int i = 0; i < b->nboxes; i++)
        t->on[p->boxes[i]] = 1;
    /* take off the boxes free along both axes; taking one off only widens
     * the player's region and frees its square, so a box found free stays
     * free: all found in one flood go together */
    for (;;) {
        flood(t, p->player);
        int off = 0;
        for (int i = 0; i < b->nboxes; i++) {
            sq_t B = p->boxes[i];
            if (t->on[B] && xy_free(t, B))
                t->kept[off++] = B;
        }
        if (off == 0)
            break;
        for (int i = 0; i < off; i++)
            t->on[t->kept[i]] = 0;
    }
    int k = 0;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t B = p->boxes[i];
        if (t->on[B]) {
            t->kept[k++] = B;
            t->on[B] = 0;
        }
    }
    if (k == 0 || k > STUCK_MAX_BOXES)
        return 0;
    st->stuck_tests++;
    if (!t->xy.b) { /* set up at the first test (the tables for stuck_add alone need none) */
        subset_init(&t->xy, b, STUCK_LIMIT << (STUCK_LIMIT_SHIFT * (STUCK_ROUNDS - 1)),
                    MIN(STUCK_MAX_BOXES, b->nboxes));
        t->xy.xy = 1;
    }
    t->xy.limit = STUCK_LIMIT << (STUCK_LIMIT_SHIFT * MIN(MAX(round, 0), STUCK_ROUNDS - 1));
    if (!subset_dead(&t->xy, t->kept, k, p->player))
        return 0;
    k = shrink(t, &t->xy, k, p->player);
    if (t->n < STUCK_MAX_PATTERNS)
        st->stuck_learned++;
    store(t, k, p->player);
    return 1;
}
