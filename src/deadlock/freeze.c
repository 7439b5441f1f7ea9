/* freeze.c: freeze deadlock detection. */
#include "freeze.h"
#include "../util/util.h"

#include <stdlib.h>

/* Recursion steps one check may take before it gives up (and reports no
 * deadlock, which is always safe). */
#define FREEZE_BUDGET 256

void freeze_init(freeze_ctx *f, const board *b)
{
    f->mark = xcalloc_held(&f->held, (size_t)b->nsq, 1);
    /* one entry per recursive call at most (a box may be listed twice) */
    f->frozen = xmalloc_held(&f->held, sizeof(sq_t) * (FREEZE_BUDGET + 1));
    f->nfrozen = 0;
    f->budget = 0;
}

void freeze_free(freeze_ctx *f)
{
    free(f->mark);
    free(f->frozen);
    f->mark = NULL;
    f->frozen = NULL;
}

static int frozen(freeze_ctx *f, const position *p, sq_t s);

/* Whether the box on s cannot move along the axis given by directions d1
 * and d2 = DIR_OPP(d1). */
static int blocked(freeze_ctx *f, const position *p, sq_t s, int d1)
{
    const board *b = p->b;
    sq_t a = b->nb[s][d1], c = b->nb[s][DIR_OPP(d1)];
    if (a == SQ_NONE || c == SQ_NONE)
        return 1; /* a wall on one side: no push along this axis */
    if (b->dead[a] && b->dead[c])
        return 1; /* both ways lead onto dead squares */
    if (p->box_at[a] != NO_BOX && (f->mark[a] || frozen(f, p, a)))
        return 1;
    if (p->box_at[c] != NO_BOX && (f->mark[c] || frozen(f, p, c)))
        return 1;
    return 0;
}

/* Whether the box on s is frozen, with the marked boxes counting as walls.
 * On success the boxes proven frozen in this subtree stay in f->frozen. */
static int frozen(freeze_ctx *f, const position *p, sq_t s)
{
    if (--f->budget < 0)
        return 0;
    int keep = f->nfrozen;
    f->mark[s] = 1;
    int r = blocked(f, p, s, DIR_LEFT) && blocked(f, p, s, DIR_UP);
    f->mark[s] = 0;
    if (r && f->budget >= 0)
        f->frozen[f->nfrozen++] = s;
    else
        f->nfrozen = keep; /* conclusions that assumed s immovable are void */
    return r && f->budget >= 0;
}

int freeze_deadlock(freeze_ctx *f, const position *p, sq_t s)
{
    f->nfrozen = 0;
    f->budget = FREEZE_BUDGET;
    if (!frozen(f, p, s))
        return 0;
    for (int i = 0; i < f->nfrozen; i++)
        if (!p->b->is_goal[f->frozen[i]])
            return 1;
    return 0;
}

int freeze_after_push(freeze_ctx *f, position *shell, int box, sq_t from, sq_t to)
{
    shell->box_at[from] = NO_BOX;
    shell->box_at[to] = (uint16_t)box;
    shell->boxes[box] = to;
    int frozen = freeze_deadlock(f, shell, to);
    shell->box_at[to] = NO_BOX;
    shell->box_at[from] = (uint16_t)box;
    shell->boxes[box] = from;
    return frozen;
}
