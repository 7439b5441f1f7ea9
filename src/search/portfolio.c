/* portfolio.c: strategies in turn on one level (see portfolio.h). */
#include "portfolio.h"
#include "../util/util.h"

#include <string.h>

/* Positions stored per slice: about a quarter of a second of each search
 * on the benchmark machine (A* stores positions four to five times as fast
 * as the feature-space search, which generates every macro move). */
#define SLICE_FESS 40000u
#define SLICE_ASTAR 160000u

void portfolio_solve(const board *b, const portfolio_config *cfg, search_limits *lim,
                     membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    /* Each search checks time and interrupts; the node limit applies to
     * the two together and is enforced here. */
    search_limits sub = *lim;
    sub.max_nodes = 0;
    search_outcome of, oa;
    fess *f = fess_begin(b, &cfg->fess, &sub, mem, &of);
    astar *a = astar_begin(b, &cfg->astar, &sub, mem, &oa);
    int fdone = 0, adone = 0;
    uint64_t fbudget = 0, abudget = 0;
    stop_reason stop = STOP_NONE;
    for (;;) {
        if (!fdone) {
            fbudget = of.st.nodes + SLICE_FESS;
            if (lim->max_nodes)
                fbudget = MIN(fbudget, of.st.nodes + (lim->max_nodes - of.st.nodes - oa.st.nodes));
            fdone = fess_step(f, fbudget);
        }
        if (fdone && (of.stop == STOP_NONE || of.stop == STOP_EXHAUSTED || of.stop == STOP_TIME ||
                      of.stop == STOP_INTERRUPT)) {
            stop = of.stop;
            break;
        }
        if (lim->max_nodes && of.st.nodes + oa.st.nodes >= lim->max_nodes) {
            stop = STOP_NODES;
            break;
        }
        if (!adone) {
            abudget = oa.st.nodes + SLICE_ASTAR;
            if (lim->max_nodes)
                abudget = MIN(abudget, oa.st.nodes + (lim->max_nodes - of.st.nodes - oa.st.nodes));
            adone = astar_step(a, abudget);
        }
        if (adone && (oa.stop == STOP_NONE || oa.stop == STOP_EXHAUSTED || oa.stop == STOP_TIME ||
                      oa.stop == STOP_INTERRUPT)) {
            stop = oa.stop;
            break;
        }
        if (lim->max_nodes && of.st.nodes + oa.st.nodes >= lim->max_nodes) {
            stop = STOP_NODES;
            break;
        }
        /* A search out of memory gives its memory back to the other. */
        if (fdone && f) {
            fess_end(f);
            f = NULL;
        }
        if (adone && a) {
            astar_end(a);
            a = NULL;
        }
        if (fdone && adone) {
            stop = STOP_MEMORY;
            break;
        }
    }
    if (f)
        fess_end(f);
    if (a)
        astar_end(a);
    search_outcome *win = of.solved ? &of : oa.solved ? &oa : NULL;
    out->st = of.st;
    stats_add(&out->st, &oa.st);
    out->st.mem_bytes = mem->peak;
    if (win) {
        out->solved = 1;
        out->pushes = win->pushes;
        win->pushes = (push_seq){0};
        out->strategy = win == &of ? "fess" : "astar";
    } else {
        out->stop = stop;
        out->strategy = "portfolio";
    }
    push_seq_free(&of.pushes);
    push_seq_free(&oa.pushes);
}
