/* audit.c: deadlock detectors and the packing plan checked along a known
 * solution (audit.h). */
#include "audit.h"

#include <stdlib.h>
#include <string.h>

#include "backward.h"
#include "../analysis/packing.h"
#include "basesearch.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../deadlock/layer.h"
#include "../heuristic/features.h"
#include "../heuristic/lowerbound.h"
#include "../util/mem.h"
#include "../util/util.h"

/* As the searches set them up (the driver's --deadlock-search). */
#define AUDIT_CORRAL_LIMIT 50

const char *const audit_name[AUDIT_N] = {
#define AUDIT_NAME(name, desc) #name,
    AUDIT_DETECTORS(AUDIT_NAME)
#undef AUDIT_NAME
};
const char *const audit_desc[AUDIT_N] = {
#define AUDIT_DESC(name, desc) desc,
    AUDIT_DETECTORS(AUDIT_DESC)
#undef AUDIT_DESC
};

typedef struct auditor {
    const board *b;
    position pos;
    reach r;
    dl_layer dl;     /* every detector on; its patterns: 3x3 windows */
    patterns pat4;   /* 4x3 and 3x4 windows */
    membudget mem;
    lowerbound lb;
    lb_sol sol;
    int lb_ok;
    uint8_t *allow;
    stats st;
    backward *bw;
    search_outcome bw_out;
    search_limits lim;
    packing pk;
    plan pl;
    feat_ctx fc;
    audit_report *rep;
} auditor;

static void verdict(auditor *a, int det, int dead)
{
    if (!dead)
        return;
    if (a->rep->dead[det]++ == 0)
        a->rep->first[det] = a->rep->pushes;
}

/* Every detector on the position on the board; `to` is the square the last
 * push put a box on. */
static void audit_here(auditor *a, sq_t to)
{
    const board *b = a->b;
    position *p = &a->pos;
    int on_dead = 0;
    for (int i = 0; i < b->nboxes; i++)
        on_dead |= b->dead[p->boxes[i]];
    verdict(a, AUDIT_dead_square, on_dead);
    dl_layer *d = &a->dl;
    verdict(a, AUDIT_freeze, freeze_deadlock(&d->fz, p, to));
    verdict(a, AUDIT_patterns, patterns_dead(&d->pat, p, to) || patterns_dead(&a->pat4, p, to));
    if (a->lb_ok)
        verdict(a, AUDIT_matching, lb_solve(&a->lb, &a->sol, p->boxes) == LB_INF);
    verdict(a, AUDIT_fixed, fixed_deadlock(&d->fx, p));
    verdict(a, AUDIT_capsets, capsets_count(&d->cs, p));
    reach_compute(&a->r, p, p->player);
    int pruned = corral_prune(&d->cc, p, &a->r, a->allow);
    verdict(a, AUDIT_corral, pruned == 0);
    if (pruned > 0)
        verdict(a, AUDIT_corral_search, subset_corrals_dead(&d->sub, &d->cc, p, &a->st));
    verdict(a, AUDIT_local, subset_local_dead(&d->loc, p, to, LOCAL_RADIUS, &a->st));
    verdict(a, AUDIT_stuck, stuck_learn(&d->stk, p, STUCK_ROUNDS - 1, &a->st));
    if (a->bw) {
        int why = backward_cuts(a->bw, p);
        verdict(a, AUDIT_backward_reach, why == 1);
        verdict(a, AUDIT_backward_matching, why == 2);
    }
}

static void follow_packed(auditor *a, long *low_run, long *low_from)
{
    audit_report *r = a->rep;
    int packed = feat_packed(&a->fc, &a->pos);
    for (int k = 0; k <= packed && k <= AUDIT_MAX_PACKED; k++)
        if (r->packed_first[k] < 0)
            r->packed_first[k] = r->pushes;
    if (packed > r->packed_best) {
        r->packed_best = packed;
        r->packed_best_push = r->pushes;
    }
    if (packed < r->packed_best) {
        if ((*low_run)++ == 0)
            *low_from = r->pushes;
        if (*low_run > r->packed_low_longest) {
            r->packed_low_longest = *low_run;
            r->packed_low_from = *low_from;
        }
    } else {
        *low_run = 0;
    }
}

int audit_solution(const board *b, const movelist *mv, audit_report *r)
{
    memset(r, 0, sizeof *r);
    auditor a;
    memset(&a, 0, sizeof a);
    a.b = b;
    a.rep = r;
    pos_init(&a.pos, b);
    reach_init(&a.r, b->nsq);
    const dl_config every = {.freeze = 1, .patterns = 3, .fixed = 1, .capsets = 1, .corrals = 1,
                             .deadlock_search = AUDIT_CORRAL_LIMIT, .local = 1, .stuck = 1};
    dl_init(&a.dl, b, &every, &(dl_sizes){LOCAL_LIMIT, LOCAL_MAX_BOXES});
    patterns_init(&a.pat4, b, 1);
    mem_init(&a.mem, 1ULL << 30);
    lb_sol_init(&a.sol, b->nboxes);
    a.lb_ok = lb_init(&a.lb, b, 1, &a.mem) == 0;
    a.allow = xcalloc((size_t)b->nboxes, 1);
    backward_config bc = {.reach = 1, .matching = 1, .check = 0};
    a.bw = backward_begin(b, &bc, &a.lim, &a.mem, &a.bw_out);
    /* The plan as the feature-space search builds it (--plan 2, the
     * simpler of both base searches' plans). */
    packing_compute(&a.pk, b, 0);
    plan_choose(&a.pl, b, &a.mem, &a.pk, 2, PLAN_PICK_SIMPLER, 0);
    r->plan_steps = a.pl.n;
    feat_init(&a.fc, b, &a.pk, &a.pl);

    for (int k = 0; k <= AUDIT_MAX_PACKED; k++)
        r->packed_first[k] = -1;
    r->packed_start = r->packed_best = feat_packed(&a.fc, &a.pos);
    for (int k = 0; k <= r->packed_start && k <= AUDIT_MAX_PACKED; k++)
        r->packed_first[k] = 0;
    long low_run = 0, low_from = 0;
    int rc = 0;
    for (int i = 0; i < mv->n; i++) {
        int dir = mv->m[i] & 3;
        sq_t next = b->nb[a.pos.player][dir];
        if (next == SQ_NONE) {
            rc = -1;
            break;
        }
        if (a.pos.box_at[next] == NO_BOX) {
            a.pos.player = next;
            continue;
        }
        sq_t beyond = b->nb[next][dir];
        if (beyond == SQ_NONE || a.pos.box_at[beyond] != NO_BOX) {
            rc = -1;
            break;
        }
        undo_rec u;
        pos_push(&a.pos, next, dir, 1, &u);
        r->pushes++;
        audit_here(&a, beyond);
        follow_packed(&a, &low_run, &low_from);
    }
    if (rc == 0 && !pos_solved(&a.pos))
        rc = -1;
    r->packed_final = feat_packed(&a.fc, &a.pos);

    feat_free(&a.fc);
    plan_free(&a.pl);
    packing_free(&a.pk);
    backward_end(a.bw);
    free(a.allow);
    if (a.lb_ok)
        lb_free(&a.lb);
    lb_sol_free(&a.sol);
    patterns_free(&a.pat4);
    dl_free(&a.dl);
    reach_free(&a.r);
    pos_free(&a.pos);
    return rc;
}

long audit_false_verdicts(const audit_report *r)
{
    long n = 0;
    for (int d = 0; d < AUDIT_N; d++)
        n += r->dead[d];
    return n;
}
