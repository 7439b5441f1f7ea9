/* rearrange.c: rearrangements (see rearrange.h). */
#include "rearrange.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* A box set's key and the push after which it stands. */
typedef struct keyed {
    uint64_t key;
    int idx;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

void rearr_init(rearr *r, const board *b, const movelist *mv)
{
    memset(r, 0, sizeof *r);
    r->b = b;
    int n = 0;
    for (int i = 0; i < mv->n; i++)
        n += (mv->m[i] & MOVE_PUSH) != 0;
    r->npushes = n;
    r->push = xmalloc(sizeof(rearr_push) * (size_t)(n + 1));
    r->sess = xmalloc(sizeof(int) * (size_t)(n + 1));
    r->sess_box = xmalloc(sizeof(int) * (size_t)(n + 1));
    r->cut = xmalloc(sizeof(int[2]) * (size_t)(n + 1));
    r->order = xmalloc(sizeof(int) * (size_t)(n + 1));
    r->walk = xmalloc((size_t)b->nsq + 1);
    pos_init(&r->pos, b);
    reach_init(&r->r, b->nsq);
    /* the pushes, their boxes and the box set's key after each push */
    uint64_t *key = xmalloc(sizeof(uint64_t) * (size_t)(n + 1));
    position *p = &r->pos;
    key[0] = p->hash;
    int k = 0, last_box = -1;
    for (int i = 0; i < mv->n; i++) {
        int d = mv->m[i] & 3;
        sq_t to = b->nb[p->player][d];
        if (!(mv->m[i] & MOVE_PUSH)) {
            p->player = to;
            continue;
        }
        int box = p->box_at[to];
        if (box != last_box) {
            r->sess[r->nsess] = k;
            r->sess_box[r->nsess++] = box;
            last_box = box;
        }
        r->push[k].from = to;
        r->push[k].dir = (uint8_t)d;
        undo_rec u;
        pos_push(p, to, d, 1, &u);
        key[++k] = p->hash;
    }
    r->sess[r->nsess] = n;
    /* loops: from each position, the last later push that brings the boxes
     * back to it (the keys sorted, each group's last index) */
    keyed *ks = xmalloc(sizeof(keyed) * (size_t)(n + 1));
    int *last = xmalloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i <= n; i++)
        ks[i] = (keyed){key[i], i};
    qsort(ks, (size_t)n + 1, sizeof(keyed), keyed_cmp);
    for (int g = 0, e; g <= n; g = e) {
        for (e = g; e <= n && ks[e].key == ks[g].key; e++)
            ;
        for (int i = g; i < e; i++)
            last[ks[i].idx] = ks[e - 1].idx;
    }
    int reach_end = 0;
    for (int i = 0; i < n; i++)
        if (last[i] > i && last[i] > reach_end) {
            r->cut[r->ncuts][0] = i;
            r->cut[r->ncuts][1] = last[i];
            r->ncuts++;
            reach_end = last[i];
        }
    free(ks);
    free(last);
    free(key);
}

void rearr_free(rearr *r)
{
    free(r->push);
    free(r->sess);
    free(r->sess_box);
    free(r->cut);
    free(r->order);
    free(r->walk);
    pos_free(&r->pos);
    reach_free(&r->r);
    memset(r, 0, sizeof *r);
}

int rearr_count(const rearr *r)
{
    return r->ncuts + 2 * r->nsess + MAX(r->nsess - 1, 0);
}

/* The next session of the same box after session s, or -1. */
static int next_of_box(const rearr *r, int s)
{
    for (int t = s + 1; t < r->nsess; t++)
        if (r->sess_box[t] == r->sess_box[s])
            return t;
    return -1;
}

/* Appends the pushes of session s to the order at *n. */
static void put_session(const rearr *r, int s, int *n)
{
    for (int i = r->sess[s]; i < r->sess[s + 1]; i++)
        r->order[(*n)++] = i;
}

/* Plays the pushes in r->order[0 .. n-1] from the start, each after a
 * shortest walk. Returns 0, or -1 when a walk or a push is blocked. */
static int play(rearr *r, int n, movelist *out)
{
    const board *b = r->b;
    position *p = &r->pos;
    pos_set(p, b->start_boxes, b->start_player);
    for (int k = 0; k < n; k++) {
        const rearr_push *q = &r->push[r->order[k]];
        sq_t behind = b->nb[q->from][DIR_OPP(q->dir)], ahead = b->nb[q->from][q->dir];
        if (p->box_at[q->from] == NO_BOX || behind == SQ_NONE || ahead == SQ_NONE ||
            p->box_at[behind] != NO_BOX || p->box_at[ahead] != NO_BOX)
            return -1;
        int w = reach_path(&r->r, p, p->player, behind, r->walk);
        if (w < 0)
            return -1;
        for (int i = 0; i < w; i++)
            moves_add(out, r->walk[i], 0);
        undo_rec u;
        pos_push(p, q->from, q->dir, 1, &u);
        moves_add(out, q->dir, 1);
    }
    return 0;
}

int rearr_candidate(rearr *r, int k, movelist *out)
{
    out->n = 0;
    int n = 0;
    if (k < r->ncuts) {
        for (int i = 0; i < r->npushes; i++)
            if (i < r->cut[k][0] || i >= r->cut[k][1])
                r->order[n++] = i;
        return play(r, n, out);
    }
    k -= r->ncuts;
    if (k < 2 * r->nsess) {
        int s = k / 2, t = next_of_box(r, s);
        if (t < 0 || t == s + 1)
            return -1;
        if (k % 2 == 0) {
            /* session t moved up to right after s */
            for (int u = 0; u <= s; u++)
                put_session(r, u, &n);
            put_session(r, t, &n);
            for (int u = s + 1; u < r->nsess; u++)
                if (u != t)
                    put_session(r, u, &n);
        } else {
            /* session s moved down to right before t */
            for (int u = 0; u < t; u++)
                if (u != s)
                    put_session(r, u, &n);
            put_session(r, s, &n);
            for (int u = t; u < r->nsess; u++)
                put_session(r, u, &n);
        }
        return play(r, n, out);
    }
    k -= 2 * r->nsess;
    if (k >= r->nsess - 1)
        return -1;
    for (int u = 0; u < r->nsess; u++)
        put_session(r, u == k ? k + 1 : u == k + 1 ? k : u, &n);
    return play(r, n, out);
}
