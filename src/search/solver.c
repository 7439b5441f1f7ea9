/* solver.c: one level, from text to verified solution. */
#include "solver.h"
#include "astar.h"
#include "backward.h"
#include "bfs.h"
#include "fess.h"
#include "opening.h"
#include "portfolio.h"
#include "pathbuild.h"
#include "../analysis/distance.h"
#include "../optimize/optimize.h"
#include "../core/board.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *result_status_text(result_status s)
{
    switch (s) {
    case RESULT_SOLVED: return "solved";
    case RESULT_UNSOLVED: return "unsolved";
    case RESULT_INVALID: return "invalid";
    }
    return "?";
}

void solve_result_free(solve_result *res)
{
    free(res->lurd);
    res->lurd = NULL;
}

int solve_level_threads(const options *o)
{
    return o->search != 1 && !o->optimal && o->strategy == 2 ? 2 : 1;
}

/* Whether some box starts on a dead square (then no search is needed). */
static int start_dead(const board *b)
{
    for (int i = 0; i < b->nboxes; i++)
        if (b->dead[b->start_boxes[i]])
            return 1;
    return 0;
}

void solve_level(const level *lv, const options *o, search_limits *lim, uint64_t mem_limit,
                 solve_result *res)
{
    memset(res, 0, sizeof *res);
    res->lower_bound = -1;
    int64_t t0 = timer_now_ns();
    if (lv->error) {
        res->status = RESULT_INVALID;
        snprintf(res->reason, sizeof res->reason, "%s", lv->error);
        return;
    }
    board b;
    if (board_build(&b, lv) != 0) {
        res->status = RESULT_INVALID;
        snprintf(res->reason, sizeof res->reason, "level cannot be built");
        return;
    }
    res->status = RESULT_UNSOLVED;
    membudget mem;
    mem_init(&mem, mem_limit);
    size_t table_bytes = (size_t)b.nboxes * (size_t)b.nsq * 2;
    if (!mem_fits(&mem, table_bytes) || distance_analyze(&b) != 0) {
        snprintf(res->reason, sizeof res->reason, "%s", stop_reason_text(STOP_MEMORY));
        board_free(&b);
        res->seconds = timer_seconds_since(t0);
        return;
    }
    /* The distance tables stay charged to this level's budget. */
    mem_charge(&mem, table_bytes);

    search_outcome out;
    memset(&out, 0, sizeof out);
    if (o->dead_squares && start_dead(&b)) {
        out.stop = STOP_EXHAUSTED;
    } else if (o->search == 1) {
        bfs_config cfg = {.prune_dead = (int)o->dead_squares};
        bfs_solve(&b, &cfg, lim, &mem, &out);
    } else {
        astar_config acfg = {
            .optimal = (int)o->optimal,
            .weight = (int)o->weight,
            .weight2 = (int)o->weight2,
            .dead_squares = (int)o->dead_squares,
            .freeze = (int)o->freeze,
            .patterns = o->patterns ? (int)o->pattern_size : 0,
            .matching = (int)o->matching,
            .fixed = (int)o->fixed,
            .local = (int)o->local,
            .stuck = (int)o->stuck,
            .dfs_ext = (int)o->dfs_ext,
            .corrals = (int)o->corrals,
            .deadlock_search = (int)o->deadlock_search,
            .tunnels = (int)o->tunnels,
            .packing = (int)o->packing,
            .reach_reuse = (int)o->reach_reuse,
            .check = (int)o->check,
        };
        fess_config fcfg = {
            .freeze = (int)o->freeze,
            .patterns = o->patterns ? (int)o->pattern_size : 0,
            .corrals = (int)o->corrals,
            .deadlock_search = (int)o->deadlock_search,
            .matching = (int)o->matching,
            .fixed = (int)o->fixed,
            .capsets = (int)o->capsets,
            .local = (int)o->local,
            .stuck = (int)o->stuck,
            .packing = (int)o->packing,
            .advisors = (int)o->advisors,
            .rooms = (int)o->rooms,
            .hotspots = (int)o->hotspots,
            .plan = (int)o->plan,
            .plan_pick = (int)o->plan_search,
            .oop = (int)o->oop,
            .check = (int)o->check,
        };
        backward_config bcfg = {
            .reach = (int)o->dead_squares,
            .matching = (int)o->matching,
            .check = (int)o->check,
            .cells = (int)o->opening_cells,
        };
        /* the opening search's forward halves, alone or in the portfolio */
        unsigned halves = OPENING_BOTH | (o->opening_hf ? OPENING_HF : 0u) |
                          (o->opening_squares_advisors ? 0u : OPENING_SQUARES_PLAIN) |
                          (o->opening_third ? OPENING_THIRD : 0u);
        if (o->optimal || o->strategy == 0) {
            astar_solve(&b, &acfg, lim, &mem, &out);
        } else if (o->strategy == 1) {
            fess_solve(&b, &fcfg, lim, &mem, &out);
        } else if (o->strategy == 3) {
            backward_solve(&b, &bcfg, lim, &mem, &out);
        } else if (o->strategy == 4) {
            opening_solve(&b, &fcfg, &bcfg, OPENING_BACK_NODES, halves, lim, &mem, &out);
        } else {
            portfolio_config pcfg = {.astar = acfg, .fess = fcfg, .backward = bcfg,
                                     .use_backward = 1, .meet = (int)o->meet,
                                     .use_opening = (int)o->opening,
                                     .opening_halves = halves};
            portfolio_solve(&b, &pcfg, lim, &mem, &out);
        }
    }
    res->st = out.st;
    res->nmembers = out.nmembers;
    memcpy(res->members, out.members, sizeof res->members);
    res->strategy = out.strategy ? out.strategy : "";
    if (out.solved) {
        movelist mv;
        moves_init(&mv);
        replay_result rr;
        if (path_build(&b, &out.pushes, &mv) != 0) {
            snprintf(res->reason, sizeof res->reason,
                     "internal error: the search's pushes do not replay");
        } else if (!solution_replay(&b, &mv, &rr)) {
            snprintf(res->reason, sizeof res->reason,
                     "internal error: the solution failed verification: %s", rr.reason);
        } else {
            res->found = rr.m;
            if (o->optimize > 0) {
                /* --optimize: moves first, or pushes first for a
                 * push-optimal solution (its push count never grows). */
                opt_config oc;
                opt_config_default(&oc);
                oc.metric = o->optimal ? OPT_PUSHES : OPT_MOVES;
                search_limits ol;
                memset(&ol, 0, sizeof ol);
                ol.start_ns = timer_now_ns();
                ol.deadline_ns = ol.start_ns + (int64_t)(o->optimize * 1e9);
                ol.interrupt = lim->interrupt;
                membudget om;
                mem_init(&om, mem_limit);
                opt_report rep;
                if (optimize_solution(&b, &mv, &oc, &ol, &om, &rep) == 0)
                    res->optimized = 1;
                solution_replay(&b, &mv, &rr); /* optimize_solution keeps it a solution */
            }
            strbuf sb;
            sb_init(&sb);
            lurd_encode(&sb, &mv);
            res->lurd = sb_take(&sb);
            res->metrics = rr.m;
            res->status = RESULT_SOLVED;
            res->optimal = out.optimal;
        }
        moves_free(&mv);
    } else {
        snprintf(res->reason, sizeof res->reason, "%s", stop_reason_text(out.stop));
    }
    /* In push-optimal mode every expanded f is at most the optimal push
     * count (the bound is admissible and an expanded node has the least f
     * of the open list), so the highest one is a proven lower bound. */
    if (o->search != 1 && o->optimal) {
        if (res->status == RESULT_SOLVED && res->optimal)
            res->lower_bound = res->metrics.pushes;
        else if (out.stop != STOP_EXHAUSTED && !out.solved)
            res->lower_bound = (long)out.st.best_lower_bound;
    }
    push_seq_free(&out.pushes);
    board_free(&b);
    res->seconds = timer_seconds_since(t0);
}
