/* blocks.c: the blocks of the free floor (see blocks.h). */
#include "blocks.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void blocks_init(blocks *bk, int nsq)
{
    memset(bk, 0, sizeof *bk);
    bk->nsq = nsq;
    size_t n = nsq > 0 ? (size_t)nsq : 1;
    bk->blk = xmalloc(sizeof(uint32_t) * n * 4);
    bk->disc = xmalloc(sizeof(uint32_t) * n);
    bk->low = xmalloc(sizeof(uint32_t) * n);
    bk->seen = xcalloc(n, sizeof(uint32_t));
    bk->frame = xmalloc(sizeof(sq_t) * n);
    bk->next = xmalloc(n);
    bk->edges = xmalloc(sizeof(uint32_t) * (2 * n + 4));
    bk->comp = xmalloc(sizeof(uint32_t) * n);
    bk->fin = xmalloc(sizeof(uint32_t) * n);
    bk->cuts = xmalloc(n);
}

void blocks_free(blocks *bk)
{
    free(bk->blk);
    free(bk->disc);
    free(bk->low);
    free(bk->seen);
    free(bk->frame);
    free(bk->next);
    free(bk->edges);
    free(bk->comp);
    free(bk->fin);
    free(bk->cuts);
    memset(bk, 0, sizeof *bk);
}

/* Gives the edges on the stack down to (and with) the tree edge u -> v a
 * new block, in both directions. */
static void pop_block(blocks *bk, const board *b, uint32_t *ep, sq_t u, sq_t v)
{
    uint32_t id = bk->nblk++;
    for (;;) {
        uint32_t e = bk->edges[--*ep];
        sq_t a = (sq_t)(e / 4);
        int d = (int)(e % 4);
        sq_t c = b->nb[a][d];
        bk->blk[e] = id;
        bk->blk[(size_t)c * 4 + (size_t)DIR_OPP(d)] = id;
        if (a == u && c == v)
            return;
    }
}

void blocks_build(blocks *bk, const board *b, const uint8_t *blocked, sq_t root)
{
    if (++bk->ts == 0) {
        memset(bk->seen, 0, sizeof(uint32_t) * (size_t)bk->nsq);
        bk->ts = 1;
    }
    uint32_t ts = bk->ts, order = 0, ep = 0;
    int sp = 0;
    bk->seen[root] = ts;
    bk->disc[root] = bk->low[root] = order++;
    bk->frame[sp] = root;
    bk->next[sp++] = 0;
    while (sp > 0) {
        sq_t v = bk->frame[sp - 1];
        if (bk->next[sp - 1] < 4) {
            int d = bk->next[sp - 1]++;
            sq_t w = b->nb[v][d];
            if (w == SQ_NONE || blocked[w])
                continue;
            if (bk->seen[w] != ts) { /* a tree edge */
                bk->seen[w] = ts;
                bk->disc[w] = bk->low[w] = order++;
                bk->edges[ep++] = (uint32_t)v * 4 + (uint32_t)d;
                bk->frame[sp] = w;
                bk->next[sp++] = 0;
            } else if (sp >= 2 && w == bk->frame[sp - 2]) {
                continue; /* the tree edge back to the parent (no parallel edges) */
            } else if (bk->disc[w] < bk->disc[v]) { /* a back edge to an ancestor */
                bk->edges[ep++] = (uint32_t)v * 4 + (uint32_t)d;
                if (bk->disc[w] < bk->low[v])
                    bk->low[v] = bk->disc[w];
            } /* else w is a finished descendant: its side pushed the edge */
            continue;
        }
        sp--;
        if (sp == 0)
            break;
        sq_t u = bk->frame[sp - 1];
        if (bk->low[v] < bk->low[u])
            bk->low[u] = bk->low[v];
        if (bk->low[v] >= bk->disc[u])
            pop_block(bk, b, &ep, u, v);
    }
    DEBUG_CHECK(ep == 0);
}

/* Square w enters the forest's depth-first path (frame[*sp]) in
 * component c. */
static inline void forest_enter(blocks *bk, sq_t w, uint32_t c, uint32_t *order, int *sp)
{
    bk->seen[w] = bk->ts;
    bk->disc[w] = bk->low[w] = (*order)++;
    bk->comp[w] = c;
    bk->cuts[w] = 0;
    bk->frame[*sp] = w;
    bk->next[(*sp)++] = 0;
}

void blocks_build_forest(blocks *bk, const board *b, const uint8_t *blocked)
{
    if (++bk->ts == 0) {
        memset(bk->seen, 0, sizeof(uint32_t) * (size_t)bk->nsq);
        bk->ts = 1;
    }
    const uint32_t ts = bk->ts;
    uint32_t *seen = bk->seen, *disc = bk->disc, *low = bk->low;
    sq_t *frame = bk->frame;
    uint8_t *next = bk->next;
    uint32_t order = 0;
    bk->ncomp = 0;
    for (sq_t root = 0; root < b->nsq; root++) {
        if (blocked[root] || seen[root] == ts)
            continue;
        bk->ncomp++;
        uint32_t c = order;
        int sp = 0;
        forest_enter(bk, root, c, &order, &sp);
        while (sp > 0) {
            sq_t v = frame[sp - 1];
            if (next[sp - 1] < 4) {
                int d = next[sp - 1]++;
                sq_t w = b->nb[v][d];
                if (w == SQ_NONE || blocked[w])
                    continue;
                if (seen[w] != ts) /* a tree edge */
                    forest_enter(bk, w, c, &order, &sp);
                else if ((sp < 2 || w != frame[sp - 2]) && disc[w] < low[v])
                    low[v] = disc[w]; /* a back edge (a finished descendant's is no lower) */
                continue;
            }
            bk->fin[v] = order - 1;
            sp--;
            if (sp > 0) {
                sq_t u = frame[sp - 1]; /* v's parent, which reached it in direction next - 1 */
                if (low[v] < low[u])
                    low[u] = low[v];
                if (low[v] >= disc[u])
                    bk->cuts[u] |= (uint8_t)(1u << (next[sp - 1] - 1));
            }
        }
    }
}
