/* opening.c: the opening strategy (see opening.h). */
#include "opening.h"
#include "nodes.h"
#include "../analysis/distance.h"
#include "../core/level.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A forward half's turn is a slice of at most this many stored positions
 * (deterministic: counted in positions). */
#define OPENING_FWD_SLICE 160000u

/* One target and the searches around it: the backward half in one opening
 * order, the target it leaves, the forward halves that head for it. */
typedef struct leg {
    backward_config bc;
    backward *bw;          /* the backward half (from the leg's first turn) */
    search_outcome bout;
    board tb;              /* the target board: b with the target's goals */
    int have_tb;
    fess_config fc[OPENING_HALVES]; /* the forward halves' configurations */
    fess *fw[OPENING_HALVES]; /* the forward halves, once the target is known */
    search_outcome fout[OPENING_HALVES];
    int fdone[OPENING_HALVES]; /* that half has ended without a meeting (or is not run) */
    unsigned turn;         /* forward turns begun: the half whose turn is next */
    int cur;               /* the half whose turn goes on while left > 0 */
    uint64_t left;         /* positions left in that turn; 0: the turn is over */
    int done;              /* the leg has given up */
    uint64_t back_goal;    /* the backward half's positions before its target
                              (back_nodes, grown by each deepening) */
    uint64_t fwd_from;     /* the forward halves' positions when the target
                              was taken (their counts live on in gone) */
    stats gone;            /* the counters of forward halves dropped by a
                              deepening */
} leg;

struct opening {
    const board *b;
    int nhalves;           /* 2, or 3 with OPENING_THIRD */
    int hot;               /* OPENING_HOT: the first leg's squares half with hotspots */
    fess_config fc[OPENING_HALVES]; /* the forward halves': [0] following the target
                              board's packing plan, [1] without one, [2] that
                              one without advisors (OPENING_THIRD) */
    search_limits *lim;    /* the caller's: max_nodes counts every search */
    search_limits sub;     /* the searches': the caller's without max_nodes */
    membudget *mem;
    search_outcome *out;
    unsigned halves;       /* opening_begin's mask */
    leg legs[OPENING_LEGS];
    int nlegs;
    unsigned turn;         /* the leg whose turn it is */
    int won_leg, won;      /* the leg and forward half that met, or -1 */
    int finished;
};

/* b with its goals on the squares `goals`, analysed, into tb (board_variant).
 * Returns 0, or -1 (tb left freed) when it cannot be built. */
static int target_board(const board *b, const sq_t *goals, board *tb)
{
    if (board_variant(b, goals, NULL, 0, tb) != 0)
        return -1;
    if (distance_analyze(tb) != 0) {
        board_free(tb);
        return -1;
    }
    return 0;
}

/* out's counters: every search's. */
static void sum_stats(opening *o)
{
    stats *st = &o->out->st;
    memset(st, 0, sizeof *st);
    for (int l = 0; l < o->nlegs; l++) {
        stats_add(st, &o->legs[l].bout.st);
        stats_add(st, &o->legs[l].gone);
        for (int k = 0; k < OPENING_HALVES; k++)
            stats_add(st, &o->legs[l].fout[k].st);
    }
    st->mem_bytes = o->mem->peak;
}

/* Leg g's backward half has stored its positions: the target, and the
 * forward halves set up on the target board. Returns 0, or 1 when the leg
 * gives up (no target). */
static int start_forward(opening *o, leg *g)
{
    const board *b = o->b;
    sq_t *target = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    sq_t player;
    int ok = backward_best(g->bw, target, &player) != NODE_NONE &&
             target_board(b, target, &g->tb) == 0;
    if (ok && getenv("KEEPER_TRACE_OPENING"))
        search_trace_position(b, target, player);
    free(target);
    if (!ok)
        return 1;
    g->have_tb = 1;
    for (int k = 0; k < OPENING_HALVES; k++) {
        if (g->fdone[k])
            continue; /* not run */
        g->fc[k] = o->fc[k];
        /* the hotspots in every leg's squares half but OPEN_NEAREST's */
        g->fc[k].hot = k == 1 && g->bc.open != OPEN_NEAREST && o->hot;
        g->fw[k] = fess_begin(&g->tb, &g->fc[k], &o->sub, o->mem, &g->fout[k]);
        fess_watch(g->fw[k], g->bw);
    }
    return 0;
}

opening *opening_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                       uint64_t back_nodes, unsigned halves, search_limits *lim,
                       membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "opening";
    opening *o = xcalloc(1, sizeof *o);
    o->b = b;
    /* Two forward halves: the target board's plan (or packing order) makes
     * packed the prefix of its steps done; without one, packed counts the
     * boxes on the target's squares, and the search is led by those and
     * the free-floor regions (Festival's HF forward cells). */
    o->fc[0] = *fcfg;
    o->fc[0].goal_needs_meet = 1;
    o->fc[1] = o->fc[0];
    o->fc[1].packing = 0;
    o->fc[0].hf = 0;
    o->fc[1].hf = (halves & OPENING_HF) != 0;
    if (halves & OPENING_SQUARES_PLAIN)
        o->fc[1].advisors = 0;
    /* the third: the squares half without advisors, beside the two */
    o->fc[2] = o->fc[1];
    o->fc[2].advisors = 0;
    o->fc[2].hf = 0;
    o->nhalves = halves & OPENING_THIRD ? 3 : 2;
    o->hot = (halves & OPENING_HOT) && (halves & OPENING_HF);
    /* Two legs, the targets of two opening orders; with
     * OPENING_WEIGHTED_LEG three, the first order twice (opening.h). */
    const int first = halves & OPENING_BICON ? OPEN_BICON : OPEN_MATCHED;
    const int three = (halves & OPENING_WEIGHTED_LEG) != 0;
    const int orders[OPENING_LEGS] = {first, three ? first : OPEN_NEAREST, OPEN_NEAREST};
    o->nlegs = three ? 3 : 2;
    for (int l = 0; l < o->nlegs; l++) {
        leg *g = &o->legs[l];
        g->bc = *bcfg;
        g->bc.open = orders[l];
        g->bc.weighted = three ? l == 1 : l == 0 && (halves & OPENING_WEIGHTED);
        g->fdone[0] = !(halves & OPENING_PLAN);
        g->fdone[1] = !(halves & OPENING_SQUARES);
        g->fdone[2] = !(halves & OPENING_THIRD);
        g->back_goal = MAX(back_nodes, 1);
    }
    o->halves = halves;
    o->won_leg = o->won = -1;
    o->lim = lim;
    o->sub = *lim;
    o->sub.max_nodes = 0;
    o->mem = mem;
    o->out = out;
    return o; /* each backward half starts at its leg's first turn: a
                 portfolio member that never runs costs nothing */
}

/* The search has ended with stop reason r; returns 1. */
static int finish(opening *o, stop_reason r)
{
    o->out->stop = r;
    o->finished = 1;
    return 1;
}

/* The positions leg g's forward halves have stored. */
static uint64_t forward_nodes(const leg *g)
{
    uint64_t n = 0;
    for (int k = 0; k < OPENING_HALVES; k++)
        n += g->fout[k].st.nodes;
    return n;
}

/* The forward positions leg g's halves may still store before it deepens
 * (opening.h, OPENING_DEEPEN): 0 once they have had their share,
 * UINT64_MAX when the leg never deepens (the option off, or its backward
 * half as deep as it may grow). */
static uint64_t share_left(const opening *o, const leg *g)
{
    if (!(o->halves & OPENING_DEEPEN) || g->back_goal >= OPENING_DEEPEN_MAX)
        return UINT64_MAX;
    uint64_t used = forward_nodes(g) - g->fwd_from, share = OPENING_DEEPEN_RATIO * g->back_goal;
    return used >= share ? 0 : share - used;
}

/* Whether leg g deepens now: its forward halves have had their share, or
 * (OPENING_DEEPEN_ENDED) it would give up (ended); and its backward half
 * may grow. */
static int deepens(const opening *o, const leg *g, int ended)
{
    uint64_t left = share_left(o, g);
    if (left == UINT64_MAX)
        return 0;
    return ended ? (o->halves & OPENING_DEEPEN_ENDED) != 0 : left == 0;
}

/* Drops leg g's forward halves and its target (their counters kept in
 * g->gone); its backward half goes on at its next turn to a grown goal,
 * then a new target. */
static void deepen(opening *o, leg *g)
{
    for (int k = 0; k < OPENING_HALVES; k++) {
        if (g->fw[k]) {
            fess_watch(g->fw[k], NULL);
            fess_end(g->fw[k]);
            g->fw[k] = NULL;
        }
        push_seq_free(&g->fout[k].pushes);
        stats_add(&g->gone, &g->fout[k].st);
        memset(&g->fout[k], 0, sizeof g->fout[k]);
    }
    g->fdone[0] = !(o->halves & OPENING_PLAN);
    g->fdone[1] = !(o->halves & OPENING_SQUARES);
    g->fdone[2] = !(o->halves & OPENING_THIRD);
    if (g->have_tb)
        board_free(&g->tb);
    g->have_tb = 0;
    g->turn = 0;
    g->cur = 0;
    g->left = 0;
    g->gone.opening_deepened++;
    g->back_goal = MIN(g->back_goal * OPENING_DEEPEN_GROWTH, (uint64_t)OPENING_DEEPEN_MAX);
}

/* One turn of leg g, up to `limit` positions counted in out (0: none):
 * its backward half to the end (then its target), or one slice of a
 * forward half. Returns 1 when the whole search has ended (finish), else 0
 * (the leg may have given up: g->done). */
static int leg_turn(opening *o, leg *g, uint64_t limit)
{
    search_outcome *out = o->out;
    if (!g->have_tb) {
        if (!g->bw)
            g->bw = backward_begin(o->b, &g->bc, &o->sub, o->mem, &g->bout);
        uint64_t target = g->back_goal;
        if (limit)
            target = MIN(target, g->bout.st.nodes + (limit - MIN(limit, out->st.nodes)));
        int done = backward_step(g->bw, target);
        sum_stats(o);
        if (getenv("KEEPER_TRACE_OPENING"))
            fprintf(stderr, "opening: %.2f s leg %d backward: %llu positions\n",
                    timer_seconds_since(o->lim->start_ns), (int)(g - o->legs),
                    (unsigned long long)g->bout.st.nodes);
        if (done) /* solved by itself (a level that opens easily), a limit,
                     or exhausted: no position with the start's boxes pulls
                     to the goal, the level has no solution */
            return finish(o, g->bout.stop);
        if (g->bout.st.nodes >= g->back_goal) {
            if (start_forward(o, g) == 0)
                g->fwd_from = forward_nodes(g);
            else if (deepens(o, g, 1))
                deepen(o, g); /* no target yet: a later one may have one region */
            else
                g->done = 1; /* no target */
        }
        return 0;
    }
    if (g->fdone[0] && g->fdone[1] && g->fdone[2]) {
        if (deepens(o, g, 1))
            deepen(o, g);
        else
            g->done = 1; /* exhausting the target board's positions proves
                            nothing about the level's */
        return 0;
    }
    if (deepens(o, g, 0)) {
        deepen(o, g); /* the halves have had their share (a turn ends there) */
        return 0;
    }
    /* A turn the caller's limit cut short goes on where it stopped, so the
     * halves take the same turns however the caller slices the search
     * (alone, or as a portfolio member). */
    int k = g->cur;
    if (g->left == 0) { /* a half that ends leaves no turn going on */
        k = (int)(g->turn % (unsigned)o->nhalves); /* the next half still running */
        while (g->fdone[k])
            k = (k + 1) % o->nhalves;
        g->cur = k;
        g->left = OPENING_FWD_SLICE;
        g->turn++;
    }
    uint64_t slice = g->left, before = g->fout[k].st.nodes;
    if (limit)
        slice = MIN(slice, limit - MIN(limit, out->st.nodes));
    slice = MIN(slice, share_left(o, g)); /* a turn ends where the share does */
    int done = fess_step(g->fw[k], before + slice);
    sum_stats(o);
    uint64_t used = g->fout[k].st.nodes - before;
    g->left = done || used >= g->left ? 0 : g->left - used;
    if (getenv("KEEPER_TRACE_OPENING"))
        fprintf(stderr, "opening: %.2f s leg %d half %d: %llu positions, best packed %u\n",
                timer_seconds_since(o->lim->start_ns), (int)(g - o->legs), k,
                (unsigned long long)g->fout[k].st.nodes, (unsigned)g->fout[k].st.best_packed);
    if (!done)
        return 0;
    /* a meeting solves the level (the solution is taken at the end) */
    if (g->fout[k].st.meetings > 0) {
        o->won_leg = (int)(g - o->legs);
        o->won = k;
        return finish(o, STOP_NONE);
    }
    stop_reason r = g->fout[k].stop;
    if (r != STOP_EXHAUSTED && r != STOP_NONE)
        return finish(o, r); /* a limit: time, memory, interrupt, halt */
    g->fdone[k] = 1;
    return 0;
}

/* Whether leg g's turn was cut short by the budget and goes on at the
 * next call (its backward half short of its positions, or a forward turn
 * with positions left). */
static int leg_midturn(const opening *o, const leg *g)
{
    return !g->done && (g->have_tb ? g->left > 0 : g->bout.st.nodes < g->back_goal);
}

/* opening_step without the node limit: returns 1 once ended, 0 when
 * node_budget (0: none) stored positions are reached. The legs take turns;
 * a leg that gives up leaves its turns to the others. */
static int step_halves(opening *o, uint64_t node_budget)
{
    for (;;) {
        int live = 0;
        for (int l = 0; l < o->nlegs; l++)
            live += !o->legs[l].done;
        if (!live)
            return finish(o, STOP_GAVE_UP);
        if (node_budget && o->out->st.nodes >= node_budget)
            return 0;
        leg *g = &o->legs[o->turn % (unsigned)o->nlegs];
        if (g->done) {
            o->turn++;
            continue;
        }
        /* a leg starts once the one before has given each of its forward
         * halves a turn (or given up): the first target gets going first */
        if (g > o->legs && !g->bw && !g[-1].done && g[-1].turn < 2) {
            o->turn++;
            continue;
        }
        if (leg_turn(o, g, node_budget))
            return 1;
        if (!leg_midturn(o, g))
            o->turn++;
    }
}

int opening_step(opening *o, uint64_t node_budget)
{
    if (o->finished)
        return 1;
    /* the node limit holds for every search together: a budget at the
     * limit, and reaching it ends the search */
    uint64_t max = o->lim->max_nodes;
    int capped = max && (!node_budget || node_budget > max);
    if (step_halves(o, capped ? max : node_budget))
        return 1;
    return capped ? finish(o, STOP_NODES) : 0;
}

void opening_end(opening *o)
{
    search_outcome *out = o->out;
    for (int l = 0; l < o->nlegs; l++) {
        leg *g = &o->legs[l];
        for (int k = 0; k < OPENING_HALVES; k++) {
            if (!g->fw[k])
                continue;
            fess_watch(g->fw[k], NULL);
            fess_end(g->fw[k]);
            if (l == o->won_leg && k == o->won && g->fout[k].solved) {
                out->solved = 1;
                out->stop = STOP_NONE;
                out->strategy = k == 0 ? "opening" : k == 1 ? "opening-squares" : "opening-plain";
                if (getenv("KEEPER_TRACE_OPENING"))
                    fprintf(stderr, "opening: leg %d's forward half %d met\n", l, k);
                out->pushes = g->fout[k].pushes;
                g->fout[k].pushes = (push_seq){0};
            }
            push_seq_free(&g->fout[k].pushes);
        }
        if (g->bw)
            backward_end(g->bw);
        if (g->bout.solved && !out->solved) {
            out->solved = 1;
            out->stop = STOP_NONE;
            out->pushes = g->bout.pushes;
            g->bout.pushes = (push_seq){0};
        }
        push_seq_free(&g->bout.pushes);
        if (g->have_tb)
            board_free(&g->tb);
    }
    sum_stats(o);
    free(o);
}

void opening_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
                   uint64_t back_nodes, unsigned halves, search_limits *lim, membudget *mem,
                   search_outcome *out)
{
    opening *o = opening_begin(b, fcfg, bcfg, back_nodes, halves, lim, mem, out);
    opening_step(o, 0);
    opening_end(o);
}
