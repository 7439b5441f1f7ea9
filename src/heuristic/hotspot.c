/* hotspot.c: boxes in the way of other boxes (see hotspot.h). */
#include "hotspot.h"
#include "../util/timer.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

static inline void bit_set(uint64_t *v, int q) { v[q >> 6] |= 1ull << (q & 63); }
static inline int bit_has(const uint64_t *v, int q) { return (int)(v[q >> 6] >> (q & 63) & 1); }

/* The squares from which a lone box reaches goal square g by pushes, with
 * `blocked` (or SQ_NONE) walled: a pull search from g, where a pull in
 * direction d takes the box from t to u = nb[t][d] with the player going on
 * to nb[u][d]. */
static void reach_goal(const board *b, sq_t g, sq_t blocked, uint64_t *out, sq_t *queue, int words)
{
    memset(out, 0, sizeof(uint64_t) * (size_t)words);
    if (g == blocked)
        return;
    int head = 0, tail = 0;
    bit_set(out, g);
    queue[tail++] = g;
    while (head < tail) {
        sq_t t = queue[head++];
        for (int d = 0; d < 4; d++) {
            sq_t u = b->nb[t][d];
            if (u == SQ_NONE || u == blocked || bit_has(out, u))
                continue;
            sq_t pl = b->nb[u][d];
            if (pl == SQ_NONE || pl == blocked)
                continue;
            bit_set(out, u);
            queue[tail++] = u;
        }
    }
}

void hotspot_init(hotspot *h, const board *b, int64_t deadline_ns)
{
    memset(h, 0, sizeof *h);
    h->b = b;
    int n = b->nsq, G = b->nboxes;
    h->words = (n + 63) / 64;
    h->off = xcalloc((size_t)h->words, sizeof(uint64_t));
    if (G == 0 || (uint64_t)n * (uint64_t)n * (uint64_t)G > HOTSPOT_MAX_WORK)
        return;
    int W = h->words;
    h->in_way = xcalloc((size_t)n * (size_t)W, sizeof(uint64_t));
    uint64_t *full = xmalloc(sizeof(uint64_t) * (size_t)G * (size_t)W);
    uint64_t *part = xmalloc(sizeof(uint64_t) * (size_t)W);
    sq_t *queue = xmalloc(sizeof(sq_t) * (size_t)n);
    for (int g = 0; g < G; g++)
        reach_goal(b, b->goals[g], SQ_NONE, full + (size_t)g * W, queue, W);
    for (sq_t a = 0; a < n; a++) {
        if (b->is_goal[a] || b->dead[a])
            continue;
        if (deadline_ns && timer_now_ns() > deadline_ns) {
            free(h->in_way);
            h->in_way = NULL;
            break;
        }
        uint64_t *row = h->in_way + (size_t)a * W;
        for (int g = 0; g < G; g++) {
            const uint64_t *fg = full + (size_t)g * W;
            /* a wall on a changes this reach only if a box or the player
             * behind it could stand there: a or a neighbour in the reach */
            int touches = bit_has(fg, a);
            for (int d = 0; d < 4 && !touches; d++) {
                sq_t t = b->nb[a][d];
                touches = t != SQ_NONE && bit_has(fg, t);
            }
            if (!touches)
                continue;
            reach_goal(b, b->goals[g], a, part, queue, W);
            for (int w = 0; w < W; w++)
                row[w] |= fg[w] & ~part[w];
        }
        row[a >> 6] &= ~(1ull << (a & 63));
    }
    free(queue);
    free(part);
    free(full);
}

void hotspot_free(hotspot *h)
{
    free(h->in_way);
    free(h->off);
    memset(h, 0, sizeof *h);
}

int hotspot_in_way(const hotspot *h, sq_t a, sq_t b)
{
    return h->in_way ? bit_has(h->in_way + (size_t)a * h->words, b) : 0;
}

/* Hotspots among the boxes off goal listed in h->off (boxes on `skip` are
 * not looked at: the moved box's old square). */
static int count_off(const hotspot *h, const position *p, sq_t skip, sq_t extra)
{
    const board *b = h->b;
    int W = h->words, n = 0;
    for (int i = 0; i <= b->nboxes; i++) {
        sq_t a = i < b->nboxes ? p->boxes[i] : extra;
        if (a == SQ_NONE || a == skip || b->is_goal[a])
            continue;
        const uint64_t *row = h->in_way + (size_t)a * W;
        for (int w = 0; w < W; w++)
            if (row[w] & h->off[w]) {
                n++;
                break;
            }
    }
    return n;
}

int hotspot_count(hotspot *h, const position *p)
{
    if (!h->in_way)
        return 0;
    const board *b = h->b;
    memset(h->off, 0, sizeof(uint64_t) * (size_t)h->words);
    for (int i = 0; i < b->nboxes; i++)
        if (!b->is_goal[p->boxes[i]])
            bit_set(h->off, p->boxes[i]);
    return count_off(h, p, SQ_NONE, SQ_NONE);
}

int hotspot_count_moved(hotspot *h, const position *p, sq_t from, sq_t to)
{
    if (!h->in_way)
        return 0;
    const board *b = h->b;
    /* p's set of boxes off goal, as hotspot_count left it, with the move
     * applied for the count and undone after it */
    int off_from = !b->is_goal[from], off_to = !b->is_goal[to];
    if (off_from)
        h->off[from >> 6] &= ~(1ull << (from & 63));
    if (off_to)
        bit_set(h->off, to);
    int n = count_off(h, p, from, to);
    if (off_to)
        h->off[to >> 6] &= ~(1ull << (to & 63));
    if (off_from)
        bit_set(h->off, from);
    return n;
}
