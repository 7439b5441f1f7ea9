/* rev.c: the reverse strategy (see rev.h). */
#include "rev.h"
#include "nodes.h"
#include "pstack.h"
#include "../analysis/distance.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Turns once the target is known, in stored positions: the backward
 * half's positions are cheap (a few microseconds), the forward half's
 * several times dearer. */
#define REV_BACK_SLICE 160000u
#define REV_FWD_SLICE 40000u

struct rev {
    const board *b;
    fess_config fc;
    backward_config bc;
    search_limits *lim; /* the caller's: max_nodes counts both halves */
    search_limits sub;  /* the halves': the caller's without max_nodes */
    membudget *mem;
    search_outcome *out;
    fess *fw;
    search_outcome fout; /* the forward half's; its end ends the search */
    board tb; /* the level with the target as its start */
    int have_tb;
    uint32_t target; /* the target's node in the forward store */
    uint64_t fwd_nodes; /* the forward half's positions before the target */
    backward *bw;
    search_outcome bout;
    int bdone;
    unsigned turn;
    int finished;
};

static void sum_stats(rev *r)
{
    stats *st = &r->out->st;
    *st = r->fout.st;
    if (r->bw)
        stats_add(st, &r->bout.st);
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
    r->target = NODE_NONE;
    r->fwd_nodes = MAX(fwd_nodes, 1);
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

/* The forward half has stored fwd_nodes positions: the target, and
 * the backward half towards it. Without a target the forward half runs on
 * alone (bdone). */
static void start_backward(rev *r)
{
    const board *b = r->b;
    sq_t *boxes = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    sq_t player = 0;
    r->target = fess_open_target(r->fw, boxes, &player);
    if (r->target != NODE_NONE && board_variant(b, NULL, boxes, player, &r->tb) == 0) {
        if (distance_analyze(&r->tb) == 0)
            r->have_tb = 1;
        else
            board_free(&r->tb);
    }
    if (r->have_tb && getenv("KEEPER_TRACE_REV")) {
        fprintf(stderr, "rev: target, node %u of %u\n", r->target,
                (unsigned)r->fout.st.nodes);
        search_trace_position(b, boxes, player);
    }
    free(boxes);
    if (!r->have_tb) {
        r->bdone = 1;
        return;
    }
    r->bw = backward_begin(&r->tb, &r->bc, &r->sub, r->mem, &r->bout);
    backward_watch(r->bw, fess_nodes(r->fw));
    fess_watch(r->fw, r->bw);
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

static int backward_turn(rev *r, uint64_t upto)
{
    if (!backward_step(r->bw, upto))
        return 0;
    r->bdone = 1;
    stop_reason why = r->bout.stop;
    /* STOP_NONE: the target reached, or a meeting (the solution is taken
     * at the end); or a limit every half shares */
    if (why != STOP_EXHAUSTED && why != STOP_GAVE_UP)
        return finish(r, why);
    /* exhausted: the target does not lead to the goal; the forward half
     * runs on alone */
    return 0;
}

static int step_halves(rev *r, uint64_t node_budget)
{
    if (!r->fw)
        r->fw = fess_begin(r->b, &r->fc, &r->sub, r->mem, &r->fout);
    for (;;) {
        sum_stats(r);
        uint64_t total = r->out->st.nodes;
        if (node_budget && total >= node_budget)
            return 0;
        uint64_t room = node_budget ? node_budget - total : 0;
        if (!r->bw && !r->bdone) {
            uint64_t upto = r->fwd_nodes;
            if (room)
                upto = MIN(upto, r->fout.st.nodes + room);
            if (forward_turn(r, upto))
                return 1;
            if (r->fout.st.nodes >= r->fwd_nodes)
                start_backward(r);
            continue;
        }
        int back = r->bw && !r->bdone && (r->turn++ % 2 == 0);
        if (back) {
            uint64_t slice = room ? MIN(REV_BACK_SLICE, room) : REV_BACK_SLICE;
            if (backward_turn(r, r->bout.st.nodes + slice))
                return 1;
        } else {
            uint64_t slice = room ? MIN(REV_FWD_SLICE, room) : REV_FWD_SLICE;
            if (forward_turn(r, r->fout.st.nodes + slice))
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
    if (r->bw) {
        fess_watch(r->fw, NULL);
        backward_unwatch(r->bw, fess_nodes(r->fw));
        backward_end(r->bw);
        if (r->bout.solved && !out->solved) {
            push_seq full = {0};
            if (r->bout.st.meetings == 0) {
                /* the backward half reached the target: the forward path
                 * to it first */
                nodes_path(fess_nodes(r->fw), r->target, &full);
            }
            for (int i = 0; i < r->bout.pushes.n; i++) {
                const push_step *s = &r->bout.pushes.v[i];
                push_seq_add(&full, s->from, s->to, s->dir, s->pushes);
            }
            out->solved = 1;
            out->stop = STOP_NONE;
            out->pushes = full;
            out->strategy = "rev-meet";
        }
        push_seq_free(&r->bout.pushes);
    }
    fess_end(r->fw);
    if (r->fout.solved && !out->solved) {
        out->solved = 1;
        out->stop = STOP_NONE;
        out->pushes = r->fout.pushes;
        r->fout.pushes = (push_seq){0};
    }
    push_seq_free(&r->fout.pushes);
    if (r->have_tb)
        board_free(&r->tb);
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
