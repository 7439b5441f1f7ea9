/* reach.c: player reachability and walks. */
#include "reach.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void reach_init(reach *r, int nsq)
{
    r->nsq = nsq;
    r->stamp = xcalloc((size_t)nsq, sizeof(uint32_t));
    r->stack = xmalloc(sizeof(sq_t) * (size_t)nsq);
    r->parent = xmalloc(sizeof(sq_t) * (size_t)nsq);
    r->ts = 0;
}

void reach_free(reach *r)
{
    free(r->stamp);
    free(r->stack);
    free(r->parent);
    memset(r, 0, sizeof *r);
}

uint32_t reach_new_stamp(reach *r)
{
    if (r->ts >= 0xFFFFFFF0u) {
        memset(r->stamp, 0, sizeof(uint32_t) * (size_t)r->nsq);
        r->ts = 0;
    }
    r->ts += 2;
    return r->ts;
}

sq_t reach_compute(reach *r, const position *p, sq_t from)
{
    const board *b = p->b;
    uint32_t ts = reach_new_stamp(r);
    uint32_t *st = r->stamp;
    sq_t *stack = r->stack;
    int sp = 0;
    sq_t best = from;
    st[from] = ts;
    stack[sp++] = from;
    while (sp > 0) {
        sq_t s = stack[--sp];
        const sq_t *nb = b->nb[s];
        for (int d = 0; d < 4; d++) {
            sq_t t = nb[d];
            if (t == SQ_NONE || st[t] >= ts)
                continue;
            if (p->box_at[t] != NO_BOX) {
                st[t] = ts + 1;
                continue;
            }
            st[t] = ts;
            if (t < best)
                best = t;
            stack[sp++] = t;
        }
    }
    return best;
}

int reach_path(reach *r, const position *p, sq_t from, sq_t to, uint8_t *dirs)
{
    const board *b = p->b;
    if (from == to)
        return 0;
    uint32_t ts = reach_new_stamp(r);
    sq_t *queue = r->stack;
    int head = 0, tail = 0;
    r->stamp[from] = ts;
    queue[tail++] = from;
    while (head < tail) {
        sq_t s = queue[head++];
        /* Fixed direction order keeps walks deterministic. */
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE || r->stamp[t] == ts || p->box_at[t] != NO_BOX)
                continue;
            r->stamp[t] = ts;
            r->parent[t] = s;
            if (t == to) {
                int n = 0;
                for (sq_t x = to; x != from; x = r->parent[x])
                    n++;
                int i = n;
                for (sq_t x = to; x != from; x = r->parent[x]) {
                    sq_t px = r->parent[x];
                    int dd = 0;
                    while (b->nb[px][dd] != x)
                        dd++;
                    dirs[--i] = (uint8_t)dd;
                }
                return n;
            }
            queue[tail++] = t;
        }
    }
    return -1;
}
