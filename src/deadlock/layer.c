/* layer.c: the deadlock layer (see layer.h). */
#include "layer.h"

#include <string.h>

void dl_init(dl_layer *d, const board *b, const dl_config *c, const dl_sizes *s)
{
    memset(d, 0, sizeof *d);
    d->cfg = *c;
    freeze_init(&d->fz, b);
    if (c->patterns)
        patterns_init(&d->pat, b, c->patterns == 4);
    fixed_init(&d->fx, b);
    if (c->capsets)
        capsets_build(&d->cs, b); /* out of memory: no sets, no pruning */
    corral_init(&d->cc, b);
    if (c->corrals && c->deadlock_search > 0)
        subset_init(&d->sub, b, c->deadlock_search, DL_SUBSET_MAX_BOXES);
    if (c->local) {
        subset_init(&d->loc, b, s->local_limit, s->local_max_boxes);
        d->loc.xy = 1;
    }
    if (c->stuck)
        stuck_init(&d->stk, b);
}

void dl_free(dl_layer *d)
{
    freeze_free(&d->fz);
    if (d->pat.b)
        patterns_free(&d->pat);
    fixed_free(&d->fx);
    capsets_free(&d->cs);
    corral_free(&d->cc);
    if (d->sub.b)
        subset_free(&d->sub);
    if (d->loc.b)
        subset_free(&d->loc);
    stuck_free(&d->stk);
}

size_t dl_held(const dl_layer *d)
{
    return d->fz.held + d->pat.held + d->fx.held + d->cs.held + d->cc.held + d->sub.held +
           d->sub.fz.held + d->loc.held + d->loc.fz.held + d->stk.held + d->stk.xy.held +
           d->stk.xy.fz.held;
}

int dl_charge(dl_layer *d, membudget *m)
{
    size_t held = dl_held(d);
    if (held <= d->charged)
        return 0;
    if (!mem_take(m, held - d->charged))
        return -1;
    d->charged = held;
    return 0;
}

void dl_uncharge(dl_layer *d, membudget *m)
{
    mem_give(m, d->charged);
    d->charged = 0;
}

int dl_push_dead(dl_layer *d, const position *p, sq_t from, sq_t to, stats *st)
{
    if (d->cfg.freeze && freeze_deadlock(&d->fz, p, to)) {
        st->cut_freeze++;
        return DL_FREEZE;
    }
    if (d->pat.b && patterns_dead(&d->pat, p, to)) {
        st->cut_patterns++;
        return DL_PATTERN;
    }
    if (d->cs.nsets && capsets_push_dead(&d->cs, from, to)) {
        st->cut_capsets++;
        return DL_CAPSET;
    }
    return DL_ALIVE;
}
