/* portfolio.c: strategies in turn on one level (see portfolio.h). */
#include "portfolio.h"
#include "../util/util.h"

#include <string.h>

/* Positions stored per slice: about a quarter of a second of each search
 * on the benchmark machine (A* stores positions four to five times as fast
 * as the feature-space search, which generates every macro move). */
#define SLICE_FESS 40000u
#define SLICE_ASTAR 160000u

/* One member of the portfolio: its search (NULL once ended and freed), its
 * outcome, its slice, and whether it has ended. */
typedef struct member {
    const char *name;
    int is_fess;  /* else A* */
    void *search;
    search_outcome out;
    uint64_t slice; /* the full slice */
    uint64_t cur;   /* this turn's slice: from slice / 16, doubling each turn */
    int done;
} member;

static int member_step(member *m, uint64_t budget)
{
    return m->is_fess ? fess_step(m->search, budget) : astar_step(m->search, budget);
}

static void member_end(member *m)
{
    if (!m->search)
        return;
    if (m->is_fess)
        fess_end(m->search);
    else
        astar_end(m->search);
    m->search = NULL;
}

void portfolio_solve(const board *b, const portfolio_config *cfg, search_limits *lim,
                     membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    /* Each search checks time and interrupts; the node limit applies to
     * the two together and is enforced here. */
    search_limits sub = *lim;
    sub.max_nodes = 0;
    member m[2] = {{.name = "fess", .is_fess = 1, .slice = SLICE_FESS},
                   {.name = "astar", .slice = SLICE_ASTAR}};
    m[0].search = fess_begin(b, &cfg->fess, &sub, mem, &m[0].out);
    m[1].search = astar_begin(b, &cfg->astar, &sub, mem, &m[1].out);
    stop_reason stop = STOP_NONE;
    for (int turn = 0;; turn ^= 1) {
        member *x = &m[turn];
        uint64_t total = m[0].out.st.nodes + m[1].out.st.nodes;
        if (lim->max_nodes && total >= lim->max_nodes) {
            stop = STOP_NODES;
            break;
        }
        if (!x->done) {
            if (x->cur == 0)
                x->cur = MAX(x->slice / 16, 1);
            uint64_t budget = x->out.st.nodes + x->cur;
            x->cur = MIN(x->cur * 2, x->slice);
            if (lim->max_nodes)
                budget = MIN(budget, x->out.st.nodes + (lim->max_nodes - total));
            x->done = member_step(x, budget);
            /* Solved, proven unsolvable, or a limit every member shares. */
            stop_reason r = x->out.stop;
            if (x->done && r != STOP_MEMORY) {
                stop = r;
                break;
            }
            /* Out of memory: give the memory back to the other member. */
            if (x->done)
                member_end(x);
        }
        if (m[0].done && m[1].done) {
            stop = STOP_MEMORY;
            break;
        }
    }
    member_end(&m[0]);
    member_end(&m[1]);
    member *win = m[0].out.solved ? &m[0] : m[1].out.solved ? &m[1] : NULL;
    out->st = m[0].out.st;
    stats_add(&out->st, &m[1].out.st);
    out->st.mem_bytes = mem->peak;
    if (win) {
        out->solved = 1;
        out->pushes = win->out.pushes;
        win->out.pushes = (push_seq){0};
        out->strategy = win->name;
    } else {
        out->stop = stop;
        out->strategy = "portfolio";
    }
    push_seq_free(&m[0].out.pushes);
    push_seq_free(&m[1].out.pushes);
}
