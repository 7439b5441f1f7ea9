/* opening.c: the opening strategy (see opening.h). */
#include "opening.h"
#include "nodes.h"
#include "../analysis/distance.h"
#include "../core/level.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opening {
    const board *b;
    fess_config fc;
    backward_config bc;
    search_limits *lim;    /* the caller's: max_nodes counts both halves */
    search_limits sub;     /* the halves': the caller's without max_nodes */
    membudget *mem;
    search_outcome *out;
    uint64_t back_nodes;   /* the backward half's positions */
    backward *bw;          /* the backward half (from the first step to the end) */
    search_outcome bout;
    board tb;              /* the target board: b with the target's goals */
    int have_tb;
    fess *fw;              /* the forward half, once the target is known */
    search_outcome fout;
    int finished;
};

/* b with its boxes and player where they start and its goals on the
 * squares `goals` (nboxes of them), built and analysed into tb: the same
 * squares, square for square, so positions, moves and keys carry over.
 * Returns 0, or -1 (tb left freed) when it cannot be built. */
static int target_board(const board *b, const sq_t *goals, board *tb)
{
    size_t cells = (size_t)b->width * (size_t)b->height;
    level lv;
    memset(&lv, 0, sizeof lv);
    lv.width = b->width;
    lv.height = b->height;
    lv.title = "";
    lv.grid = xmalloc(cells + 1);
    lv.inside = xcalloc(cells + 1, 1);
    for (size_t c = 0; c < cells; c++) {
        lv.grid[c] = '#';
        lv.inside[c] = b->sq_of_cell[c] != SQ_NONE;
        if (lv.inside[c])
            lv.grid[c] = ' ';
    }
    for (int i = 0; i < b->nboxes; i++) {
        lv.grid[b->cell[goals[i]]] = '.';
    }
    for (int i = 0; i < b->nboxes; i++) {
        char *g = &lv.grid[b->cell[b->start_boxes[i]]];
        *g = *g == '.' ? '*' : '$';
    }
    char *pg = &lv.grid[b->cell[b->start_player]];
    *pg = *pg == '.' ? '+' : '@';
    int rc = board_build(tb, &lv);
    free(lv.grid);
    free(lv.inside);
    if (rc != 0)
        return -1;
    if (tb->nsq != b->nsq || tb->nboxes != b->nboxes ||
        memcmp(tb->sq_of_cell, b->sq_of_cell, sizeof(sq_t) * cells) != 0 ||
        distance_analyze(tb) != 0) {
        board_free(tb);
        return -1;
    }
    return 0;
}

/* out's counters: both halves'. */
static void sum_stats(opening *o)
{
    o->out->st = o->bout.st;
    stats_add(&o->out->st, &o->fout.st);
    o->out->st.mem_bytes = o->mem->peak;
}

/* The backward half has stored its positions: the target, and the forward
 * half set up on the target board. Returns 0, or 1 when the member gives up
 * (no target). */
static int start_forward(opening *o)
{
    const board *b = o->b;
    sq_t *target = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    sq_t player;
    int ok = backward_best(o->bw, target, &player) != NODE_NONE &&
             target_board(b, target, &o->tb) == 0;
    if (ok && getenv("KEEPER_TRACE_OPENING")) {
        char *g = xmalloc((size_t)b->width * b->height);
        for (int c = 0; c < b->width * b->height; c++)
            g[c] = b->sq_of_cell[c] == SQ_NONE ? '#' : ' ';
        for (int i = 0; i < b->nboxes; i++)
            g[b->cell[target[i]]] = '$';
        for (int i = 0; i < b->nboxes; i++)
            g[b->cell[b->goals[i]]] = g[b->cell[b->goals[i]]] == '$' ? '*' : '.';
        g[b->cell[player]] = '@';
        for (int y = 0; y < b->height; y++)
            fprintf(stderr, "%.*s\n", b->width, g + y * b->width);
        free(g);
    }
    free(target);
    if (!ok)
        return 1;
    o->have_tb = 1;
    o->fw = fess_begin(&o->tb, &o->fc, &o->sub, o->mem, &o->fout);
    fess_watch(o->fw, o->bw);
    return 0;
}

opening *opening_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                       uint64_t back_nodes, search_limits *lim, membudget *mem,
                       search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "opening";
    opening *o = xcalloc(1, sizeof *o);
    o->b = b;
    o->fc = *fcfg;
    o->fc.goal_needs_meet = 1;
    o->bc = *bcfg;
    o->bc.open = 1;
    o->back_nodes = MAX(back_nodes, 1);
    o->lim = lim;
    o->sub = *lim;
    o->sub.max_nodes = 0;
    o->mem = mem;
    o->out = out;
    return o; /* the backward half starts at the first step: a portfolio
                 member that never runs costs nothing */
}

/* The search has ended with stop reason r; returns 1. */
static int finish(opening *o, stop_reason r)
{
    o->out->stop = r;
    o->finished = 1;
    return 1;
}

/* opening_step without the node limit: returns 1 once ended, 0 when
 * node_budget (0: none) stored positions are reached. */
static int step_halves(opening *o, uint64_t node_budget)
{
    search_outcome *out = o->out;
    if (!o->fw) {
        /* the backward half, up to its positions */
        uint64_t target = o->back_nodes;
        if (node_budget)
            target = MIN(target, o->bout.st.nodes + (node_budget - MIN(node_budget,
                                                                        out->st.nodes)));
        int done = backward_step(o->bw, target);
        sum_stats(o);
        if (done) /* solved by itself (a level that opens easily), a limit,
                     or exhausted: no position with the start's boxes pulls
                     to the goal, the level has no solution */
            return finish(o, o->bout.stop);
        if (o->bout.st.nodes < o->back_nodes)
            return 0; /* the budget, not the half, is used up */
        if (start_forward(o) != 0)
            return finish(o, STOP_GAVE_UP); /* no target */
    }
    uint64_t fbudget = 0;
    if (node_budget) {
        if (out->st.nodes >= node_budget)
            return 0;
        fbudget = o->fout.st.nodes + (node_budget - out->st.nodes);
    }
    int done = fess_step(o->fw, fbudget);
    sum_stats(o);
    if (!done)
        return 0;
    /* a meeting solves the level (the solution is taken at the end);
     * exhausting the target board's positions proves nothing about the
     * level's */
    if (o->fout.st.meetings > 0)
        return finish(o, STOP_NONE);
    return finish(o, o->fout.stop == STOP_EXHAUSTED || o->fout.stop == STOP_NONE ? STOP_GAVE_UP
                                                                                 : o->fout.stop);
}

int opening_step(opening *o, uint64_t node_budget)
{
    if (o->finished)
        return 1;
    if (!o->bw)
        o->bw = backward_begin(o->b, &o->bc, &o->sub, o->mem, &o->bout);
    /* the node limit holds for both halves together: a budget at the limit,
     * and reaching it ends the search */
    uint64_t max = o->lim->max_nodes;
    int capped = max && (!node_budget || node_budget > max);
    if (step_halves(o, capped ? max : node_budget))
        return 1;
    return capped ? finish(o, STOP_NODES) : 0;
}

void opening_end(opening *o)
{
    search_outcome *out = o->out;
    if (o->fw) {
        fess_watch(o->fw, NULL);
        fess_end(o->fw);
        if (o->fout.solved && o->fout.st.meetings > 0) {
            out->solved = 1;
            out->stop = STOP_NONE;
            out->pushes = o->fout.pushes;
            o->fout.pushes = (push_seq){0};
        }
        push_seq_free(&o->fout.pushes);
    }
    if (o->bw)
        backward_end(o->bw);
    if (o->bout.solved && !out->solved) {
        out->solved = 1;
        out->stop = STOP_NONE;
        out->pushes = o->bout.pushes;
        o->bout.pushes = (push_seq){0};
    }
    push_seq_free(&o->bout.pushes);
    sum_stats(o);
    if (o->have_tb)
        board_free(&o->tb);
    free(o);
}

void opening_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                   uint64_t back_nodes, search_limits *lim, membudget *mem, search_outcome *out)
{
    opening *o = opening_begin(b, fcfg, bcfg, back_nodes, lim, mem, out);
    opening_step(o, 0);
    opening_end(o);
}
