/* rev.c: the reverse strategy (see rev.h). */
#include "rev.h"
#include "nodes.h"
#include "pstack.h"
#include "../analysis/distance.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Turns once a target is known, in stored positions: the backward
 * halves' positions are cheap (a few microseconds), the forward half's
 * several times dearer. The backward turns go to the live backward halves
 * in rotation. */
#define REV_BACK_SLICE 160000u
#define REV_FWD_SLICE 40000u

/* One target and the backward half pulling towards it. */
typedef struct rev_half {
    board tb;            /* the level with the target as its start */
    uint32_t target;     /* the target's node in the forward store */
    backward *bw;
    search_outcome bout;
    int done;            /* exhausted: the target does not lead to the goal */
} rev_half;

struct rev {
    const board *b;
    fess_config fc;
    backward_config bc;
    search_limits *lim; /* the caller's: max_nodes counts every half */
    search_limits sub;  /* the halves': the caller's without max_nodes */
    membudget *mem;
    search_outcome *out;
    fess *fw;
    search_outcome fout; /* the forward half's; its end ends the search */
    uint64_t next_at;    /* the forward half's positions when the next
                            target is taken (0: no more targets) */
    rev_half h[REV_TARGETS];
    int nh;
    unsigned turn;
    int finished;
};

static void sum_stats(rev *r)
{
    stats *st = &r->out->st;
    *st = r->fout.st;
    for (int k = 0; k < r->nh; k++)
        stats_add(st, &r->h[k].bout.st);
    st->targets = (uint64_t)r->nh;
    st->mem_bytes = r->mem->peak;
}

rev *rev_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               uint64_t fwd_nodes, search_limits *lim, membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "rev";
    rev *r = xcalloc(1, sizeof *r);
    r->b = b;
    r->fc = *fcfg;
    r->fc.hf = fcfg->matching; /* the HF order needs the matching */
    r->fc.packing = 0;
    r->fc.open = 1;
    r->bc = *bcfg;
    r->bc.open = 0;
    r->bc.cells = 0;
    r->lim = lim;
    r->sub = *lim;
    r->sub.max_nodes = 0;
    r->mem = mem;
    r->out = out;
    r->next_at = MAX(fwd_nodes, 1);
    return r; /* the forward half starts at the first step: a portfolio
                 member that never runs costs nothing */
}

static int finish(rev *r, stop_reason why)
{
    r->out->stop = why;
    r->finished = 1;
    sum_stats(r);
    return 1;
}

/* The forward half has stored next_at positions: its most open position
 * becomes a new target, with a backward half towards it, unless it is one
 * already taken. The next target comes after REV_TARGET_GROWTH times as
 * many positions. */
static void take_target(rev *r)
{
    const board *b = r->b;
    DEBUG_CHECK(r->nh < REV_TARGETS); /* next_at is 0 once the last is taken */
    r->next_at = r->nh + 1 < REV_TARGETS ? r->next_at * REV_TARGET_GROWTH : 0;
    sq_t *boxes = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    sq_t player = 0;
    uint32_t target = fess_open_target(r->fw, boxes, &player);
    int fresh = target != NODE_NONE;
    for (int k = 0; k < r->nh && fresh; k++)
        fresh = r->h[k].target != target;
    rev_half *h = &r->h[r->nh];
    if (fresh)
        fresh = board_variant(b, NULL, boxes, player, &h->tb) == 0;
    if (fresh && distance_analyze(&h->tb) != 0) {
        board_free(&h->tb);
        fresh = 0;
    }
    if (fresh) {
        if (getenv("KEEPER_TRACE_REV")) {
            fprintf(stderr, "rev: target %d, node %u of %u\n", r->nh, target,
                    (unsigned)r->fout.st.nodes);
            search_trace_position(b, boxes, player);
        }
        h->target = target;
        h->bw = backward_begin(&h->tb, &r->bc, &r->sub, r->mem, &h->bout);
        backward_watch(h->bw, fess_nodes(r->fw));
        fess_watch(r->fw, h->bw);
        r->nh++;
    }
    free(boxes);
}

/* One turn of the forward half, up to `upto` positions of its own.
 * Returns 1 when the whole search has ended. */
static int forward_turn(rev *r, uint64_t upto)
{
    if (!fess_step(r->fw, upto))
        return 0;
    stop_reason why = r->fout.stop;
    /* solved (the goal, or a meeting), exhausted (no solution: FESS's
     * pruning is sound), or a limit every half shares */
    return finish(r, why);
}

static int backward_turn(rev *r, int k, uint64_t upto)
{
    rev_half *h = &r->h[k];
    if (!backward_step(h->bw, upto))
        return 0;
    h->done = 1;
    stop_reason why = h->bout.stop;
    /* STOP_NONE: the target reached, or a meeting (the solution is taken
     * at the end: the only half solved, as the first ends the search); or
     * a limit every half shares */
    if (why != STOP_EXHAUSTED && why != STOP_GAVE_UP)
        return finish(r, why);
    /* exhausted: the target does not lead to the goal; the others go on */
    return 0;
}

/* The next live backward half in rotation after the last one served, or -1. */
static int next_half(rev *r)
{
    for (int i = 0; i < r->nh; i++) {
        int k = (int)(r->turn++ % (unsigned)r->nh);
        if (!r->h[k].done)
            return k;
    }
    return -1;
}

static int step_halves(rev *r, uint64_t node_budget)
{
    if (!r->fw)
        r->fw = fess_begin(r->b, &r->fc, &r->sub, r->mem, &r->fout);
    for (int fwd_next = 1;;) {
        sum_stats(r);
        uint64_t total = r->out->st.nodes;
        if (node_budget && total >= node_budget)
            return 0;
        uint64_t room = node_budget ? node_budget - total : 0;
        int k = fwd_next ? -1 : next_half(r);
        fwd_next = k >= 0; /* forward and backward turns alternate */
        if (k < 0) {
            /* up to the first target in one go; then a slice, stopping
             * where the next target is due */
            uint64_t upto = r->fout.st.nodes + REV_FWD_SLICE;
            if (r->next_at)
                upto = r->nh ? MIN(upto, r->next_at) : r->next_at;
            if (room)
                upto = MIN(upto, r->fout.st.nodes + room);
            if (forward_turn(r, upto))
                return 1;
            if (r->next_at && r->fout.st.nodes >= r->next_at)
                take_target(r);
            fwd_next = !r->nh; /* no target yet: the forward half goes on */
        } else {
            uint64_t slice = room ? MIN(REV_BACK_SLICE, room) : REV_BACK_SLICE;
            if (backward_turn(r, k, r->h[k].bout.st.nodes + slice))
                return 1;
        }
    }
}

int rev_step(rev *r, uint64_t node_budget)
{
    if (r->finished)
        return 1;
    uint64_t max = r->lim->max_nodes;
    int capped = max && (!node_budget || node_budget > max);
    if (step_halves(r, capped ? max : node_budget))
        return 1;
    return capped ? finish(r, STOP_NODES) : 0;
}

void rev_end(rev *r)
{
    search_outcome *out = r->out;
    if (!r->fw) {
        free(r);
        return;
    }
    fess_watch(r->fw, NULL);
    for (int k = 0; k < r->nh; k++) {
        rev_half *h = &r->h[k];
        backward_unwatch(h->bw, fess_nodes(r->fw));
        backward_end(h->bw);
        if (h->bout.solved && !out->solved) {
            push_seq full = {0};
            if (h->bout.st.meetings == 0) {
                /* the backward half reached its target: the forward path
                 * to it first */
                nodes_path(fess_nodes(r->fw), h->target, &full);
            }
            for (int i = 0; i < h->bout.pushes.n; i++) {
                const push_step *s = &h->bout.pushes.v[i];
                push_seq_add(&full, s->from, s->to, s->dir, s->pushes);
            }
            out->solved = 1;
            out->stop = STOP_NONE;
            out->pushes = full;
            out->strategy = "rev-meet";
        }
        push_seq_free(&h->bout.pushes);
    }
    fess_end(r->fw);
    if (r->fout.solved && !out->solved) {
        out->solved = 1;
        out->stop = STOP_NONE;
        out->pushes = r->fout.pushes;
        r->fout.pushes = (push_seq){0};
    }
    push_seq_free(&r->fout.pushes);
    for (int k = 0; k < r->nh; k++)
        board_free(&r->h[k].tb);
    sum_stats(r);
    free(r);
}

void rev_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               uint64_t fwd_nodes, search_limits *lim, membudget *mem, search_outcome *out)
{
    rev *r = rev_begin(b, fcfg, bcfg, fwd_nodes, lim, mem, out);
    rev_step(r, 0);
    rev_end(r);
}
