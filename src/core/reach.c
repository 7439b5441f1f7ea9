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

/* Depth-first flood from `from` (already marked ts) over free squares not
 * yet marked; returns the smallest square reached, at most `best`. */
static sq_t flood(reach *r, const position *p, sq_t from, uint32_t ts, sq_t best)
{
    const board *b = p->b;
    uint32_t *st = r->stamp;
    sq_t *stack = r->stack;
    int sp = 0;
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

sq_t reach_compute(reach *r, const position *p, sq_t from)
{
    uint32_t ts = reach_new_stamp(r);
    r->stamp[from] = ts;
    r->norm = flood(r, p, from, ts, from);
    DEBUG_CHECK(reach_check(r, p, from) == 0);
    return r->norm;
}

sq_t reach_flood_marks(const board *b, const uint16_t *box_at, uint32_t *mark, uint32_t *ts,
                       sq_t *stack, sq_t from)
{
    if (++*ts == 0) {
        memset(mark, 0, sizeof(uint32_t) * (size_t)b->nsq);
        *ts = 1;
    }
    uint32_t t = *ts;
    int top = 0;
    sq_t norm = from;
    mark[from] = t;
    stack[top++] = from;
    while (top > 0) {
        sq_t x = stack[--top];
        if (x < norm)
            norm = x;
        for (int d = 0; d < 4; d++) {
            sq_t y = b->nb[x][d];
            if (y != SQ_NONE && mark[y] != t && box_at[y] == NO_BOX) {
                mark[y] = t;
                stack[top++] = y;
            }
        }
    }
    return norm;
}

int reach_check(const reach *r, const position *p, sq_t from)
{
    const board *b = p->b;
    if (!reach_floor(r, from))
        return 1;
    uint8_t *seen = xcalloc((size_t)b->nsq, 1);
    sq_t *stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    int n = 0, code = 0;
    sq_t least = from;
    stack[n++] = from;
    seen[from] = 1;
    while (n && !code) {
        sq_t s = stack[--n];
        least = s < least ? s : least;
        if (!reach_floor(r, s) || p->box_at[s] != NO_BOX)
            code = 2; /* a free square joined to `from` not marked */
        for (int d = 0; d < 4 && !code; d++) {
            sq_t x = b->nb[s][d];
            if (x == SQ_NONE || seen[x])
                continue;
            if (p->box_at[x] != NO_BOX) {
                if (!reach_box(r, x))
                    code = 3; /* a box next to the region not marked */
                continue;
            }
            seen[x] = 1;
            stack[n++] = x;
        }
    }
    for (int s = 0; s < b->nsq && !code; s++) {
        if (reach_floor(r, s) && !seen[s])
            code = 4; /* a floor marked but not joined */
        if (p->box_at[s] != NO_BOX && reach_box(r, s)) {
            int touches = 0;
            for (int d = 0; d < 4; d++) {
                sq_t x = b->nb[s][d];
                touches |= x != SQ_NONE && seen[x] && p->box_at[x] == NO_BOX;
            }
            if (!touches)
                code = 5; /* a box marked that no reached floor touches */
        }
    }
    if (!code && r->norm != least)
        code = 6;
    free(stack);
    free(seen);
    return code;
}

/* Whether the free orthogonal neighbours of s (boxes block) are joined to
 * each other around s through free diagonal squares, so that taking s away
 * cannot disconnect anything. */
static int joined_around(const position *p, sq_t s)
{
    const board *b = p->b;
    int nfree = 0, links = 0;
    for (int d = 0; d < 4; d++) {
        sq_t x = b->nb[s][d];
        if (x == SQ_NONE || p->box_at[x] != NO_BOX)
            continue;
        nfree++;
        int e = (d + 1) & 3;
        sq_t y = b->nb[s][e];
        if (y == SQ_NONE || p->box_at[y] != NO_BOX)
            continue;
        sq_t diag = b->nb[x][e];
        if (diag != SQ_NONE && p->box_at[diag] == NO_BOX)
            links++;
    }
    /* The free neighbours and their links form paths on a 4-cycle (or the
     * whole cycle): one group when links = nfree - 1, or 4 on the cycle. */
    return nfree <= 1 || links >= nfree - 1;
}

sq_t reach_after_push(reach *r, const reach *parent, const position *p, sq_t B, sq_t O,
                      int *fresh)
{
    return reach_after_move(r, parent, p, B, O, B, fresh);
}

sq_t reach_after_move(reach *r, const reach *parent, const position *p, sq_t B, sq_t O, sq_t pl,
                      int *fresh)
{
    return reach_after_move_known(r, parent, p, B, O, pl, 0, fresh);
}

/* Why the update from the parent's region is exact when O splits nothing
 * (o_joins, or the local test): the parent's region R is a whole component
 * of the floor with the box on B, so a free square next to R is in R, or is
 * B: whatever the move adds is reached from B without crossing R (the
 * flood from B); and R less O stays joined to B, since the floor with the
 * box lifted stays joined without O. */
sq_t reach_after_move_known(reach *r, const reach *parent, const position *p, sq_t B, sq_t O,
                            sq_t pl, int o_joins, int *fresh)
{
    const board *b = p->b;
    uint32_t ts = parent->ts;
    int o_reached = parent->stamp[O] == ts;
    if (B == O || (o_reached && !o_joins && !joined_around(p, O))) {
        *fresh = 1;
        return reach_compute(r, p, pl);
    }
    *fresh = 0;
    memcpy(r->stamp, parent->stamp, sizeof(uint32_t) * (size_t)r->nsq);
    r->ts = ts;
    uint32_t *st = r->stamp;
    st[O] = ts + 1; /* a box next to the player */
    st[B] = ts;
    /* the parent's smallest square, unless the box now stands on it */
    sq_t best = flood(r, p, B, ts, parent->norm < B && parent->norm != O ? parent->norm : B);
    if (parent->norm == O)
        for (sq_t q = 0; q < best; q++)
            if (st[q] == ts) {
                best = q;
                break;
            }
    if (o_reached) {
        /* Boxes next to O may have bordered no other reached floor. */
        for (int d = 0; d < 4; d++) {
            sq_t x = b->nb[O][d];
            if (x == SQ_NONE || p->box_at[x] == NO_BOX || x == O || st[x] != ts + 1)
                continue;
            int touches = 0;
            for (int e = 0; e < 4 && !touches; e++) {
                sq_t y = b->nb[x][e];
                touches = y != SQ_NONE && st[y] == ts;
            }
            if (!touches)
                st[x] = 0;
        }
    }
    if (st[pl] != ts) {
        /* the player ended apart from the freed square (the box's path
         * closed behind it): the region is the player's own */
        *fresh = 1;
        return reach_compute(r, p, pl);
    }
    r->norm = best;
    DEBUG_CHECK(reach_check(r, p, pl) == 0);
    return best;
}

/* Breadth-first walk of the player from `from` (boxes block) under a
 * fresh stamp, in a fixed direction order (walks stay deterministic):
 * parent[] of every square reached and, when dist is not NULL, its walking
 * distance; stops once `to` is reached (SQ_NONE: walks everything).
 * Returns the stamp of the squares reached. */
static uint32_t walk_bfs(reach *r, const position *p, sq_t from, sq_t to, uint32_t *dist)
{
    const board *b = p->b;
    uint32_t ts = reach_new_stamp(r);
    sq_t *queue = r->stack;
    int head = 0, tail = 0;
    r->stamp[from] = ts;
    if (dist)
        dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        sq_t s = queue[head++];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE || r->stamp[t] == ts || p->box_at[t] != NO_BOX)
                continue;
            r->stamp[t] = ts;
            r->parent[t] = s;
            if (dist)
                dist[t] = dist[s] + 1;
            if (t == to)
                return ts;
            queue[tail++] = t;
        }
    }
    return ts;
}

int reach_path(reach *r, const position *p, sq_t from, sq_t to, uint8_t *dirs)
{
    const board *b = p->b;
    if (from == to)
        return 0;
    uint32_t ts = walk_bfs(r, p, from, to, NULL);
    if (r->stamp[to] != ts)
        return -1;
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

uint32_t reach_walk(reach *r, const position *p, sq_t from, uint32_t *dist)
{
    return walk_bfs(r, p, from, SQ_NONE, dist);
}
