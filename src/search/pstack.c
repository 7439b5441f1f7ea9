/* pstack.c: the path stack and SetPosition (see pstack.h). */
#include "pstack.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void pstack_init(pstack *s)
{
    s->n = 0;
    s->cap = 256;
    s->v = xmalloc(sizeof(pstack_entry) * s->cap);
    u32map_init(&s->onpath, 1024);
    s->capchain = 256;
    s->chain = xmalloc(sizeof(uint32_t) * s->capchain);
}

void pstack_free(pstack *s)
{
    free(s->v);
    u32map_free(&s->onpath);
    free(s->chain);
    memset(s, 0, sizeof *s);
}

void pstack_push(pstack *s, uint32_t idx, const undo_rec *u)
{
    if (s->n == s->cap) {
        s->cap *= 2;
        s->v = xrealloc(s->v, sizeof(pstack_entry) * s->cap);
    }
    s->v[s->n].node = idx;
    s->v[s->n].u = *u;
    u32map_put(&s->onpath, idx, s->n);
    s->n++;
}

void pstack_pop(pstack *s, position *p)
{
    pstack_entry *e = &s->v[--s->n];
    pos_undo(p, &e->u);
    u32map_del(&s->onpath, e->node);
}

uint32_t pstack_set(pstack *s, position *p, const node_store *ns, uint32_t target)
{
    uint32_t n = 0, x = target, steps = 0;
    uint32_t k;
    while ((k = u32map_get(&s->onpath, x)) == U32MAP_NONE) {
        if (n == s->capchain) {
            s->capchain *= 2;
            s->chain = xrealloc(s->chain, sizeof(uint32_t) * s->capchain);
        }
        s->chain[n++] = x;
        x = nodes_at(ns, x)->parent;
    }
    while (s->n > k + 1) {
        pstack_pop(s, p);
        steps++;
    }
    while (n > 0) {
        uint32_t y = s->chain[--n];
        const node *nd = nodes_at(ns, y);
        undo_rec u;
        pos_relocate(p, nd->from, nd->to, p->b->nb[nd->to][DIR_OPP(node_dir(nd))], &u);
        pstack_push(s, y, &u);
        steps++;
    }
    return steps;
}

void nodes_path(const node_store *ns, uint32_t goal, push_seq *out)
{
    uint32_t cnt = 0;
    for (uint32_t x = goal; nodes_at(ns, x)->parent != NODE_NONE; x = nodes_at(ns, x)->parent)
        cnt++;
    for (uint32_t i = 0; i < cnt; i++)
        push_seq_add(out, 0, 0, 0, 0);
    uint32_t i = cnt;
    for (uint32_t x = goal; nodes_at(ns, x)->parent != NODE_NONE; x = nodes_at(ns, x)->parent) {
        const node *nd = nodes_at(ns, x);
        const node *pn = nodes_at(ns, nd->parent);
        --i;
        out->v[i].from = nd->from;
        out->v[i].to = nd->to;
        out->v[i].dir = (uint8_t)node_dir(nd);
        out->v[i].pushes = node_g(nd) - node_g(pn);
    }
}
