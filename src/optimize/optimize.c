/* optimize.c: the method schedule (see optimize.h). */
#include "optimize.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdio.h>
#include <string.h>

const char *const opt_method_name[OPT_NMETHODS] = {
#define X(n, d) #n,
    OPT_METHODS(X)
#undef X
};

const char *const opt_method_desc[OPT_NMETHODS] = {
#define X(n, d) d,
    OPT_METHODS(X)
#undef X
};

void opt_config_default(opt_config *c)
{
    c->metric = OPT_MOVES;
    c->near1 = 20;
    c->near2 = 10;
    c->max_configs = 4u << 20;
    c->methods = (1u << OPT_NMETHODS) - 1;
    c->global_depth = 3;
    c->progress = NULL;
    c->progress_arg = NULL;
}

int metrics_cmp(const sol_metrics *a, const sol_metrics *b, int metric)
{
    long x[6] = {a->moves, a->pushes, a->box_lines, a->box_changes, a->pushing_sessions,
                 a->player_lines};
    long y[6] = {b->moves, b->pushes, b->box_lines, b->box_changes, b->pushing_sessions,
                 b->player_lines};
    if (metric == OPT_PUSHES) {
        long t = x[0];
        x[0] = x[1];
        x[1] = t;
        t = y[0];
        y[0] = y[1];
        y[1] = t;
    }
    for (int i = 0; i < 6; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The optimizer's state: the best solution so far, its trace and metrics. */
typedef struct opt_state {
    const board *b;
    const opt_config *cfg;
    search_limits *lim;
    membudget *mem;
    opt_report *rep;
    movelist best;
    sol_trace tr;
    sol_metrics m;
    movelist cand;
} opt_state;

/* Keeps `cand` when it solves the level and is better than the best.
 * Returns 1 when kept. */
static int offer(opt_state *s, opt_method method)
{
    replay_result rr;
    if (!solution_replay(s->b, &s->cand, &rr))
        return 0; /* a method's bug must never reach the output */
    if (metrics_cmp(&rr.m, &s->m, s->cfg->metric) >= 0)
        return 0;
    movelist t = s->best;
    s->best = s->cand;
    s->cand = t;
    s->m = rr.m;
    sol_trace_free(&s->tr);
    sol_trace_build(&s->tr, s->b, &s->best);
    s->rep->method[method].improvements++;
    s->rep->improvements++;
    return 1;
}

static int stopped(opt_state *s)
{
    stats dummy;
    memset(&dummy, 0, sizeof dummy);
    int64_t next = 0;
    stop_reason r = search_check_limits(s->lim, &dummy, &next);
    if (r != STOP_NONE)
        s->rep->stop = r;
    return r != STOP_NONE;
}

/* One cloud setting (vicinity or global) over the whole solution, in
 * windows of pushes as long as the cloud allows (cut to what fitted while
 * too big), half a window apart.
 * Returns 1 when something improved, -1 when stopped. */
static int window_pass(opt_state *s, opt_method method, const vicinity_config *vcp, int *from)
{
    vicinity_config vc = *vcp;
    vc.metric = s->cfg->metric;
    vc.max_configs = s->cfg->max_configs;
    int improved = 0, len = s->tr.npushes;
    int64_t t0 = timer_now_ns();
    opt_method_report *mr = &s->rep->method[method];
    int i0 = MIN(*from, MAX(s->tr.npushes - 1, 0));
    *from = 0;
    for (; i0 < s->tr.npushes;) {
        int P = s->tr.npushes;
        int i1 = MIN(i0 + len, P);
        if (i1 <= i0)
            break;
        mr->runs++;
        char setting[32];
        if (method == OPT_M_global)
            snprintf(setting, sizeof setting, "depth %d", vc.global);
        else
            snprintf(setting, sizeof setting, "%d/%d", vc.near1, vc.near2);
        if (s->cfg->progress)
            s->cfg->progress(s->cfg->progress_arg, opt_method_name[method], setting, i0, i1,
                             &s->m, timer_seconds_since(s->lim->start_ns));
        vicinity_result r = vicinity_segment(s->b, &s->best, &s->tr, i0, i1, &vc, s->lim, s->mem,
                                             &s->cand, &s->rep->vic);
        if (r == VIC_STOPPED || stopped(s)) {
            if (r == VIC_STOPPED && s->rep->stop == STOP_NONE)
                s->rep->stop = STOP_TIME;
            improved = -1;
            *from = i0;
            break;
        }
        if (r == VIC_TOO_BIG) {
            if (len <= 2)
                break; /* this setting cannot run on this level */
            len = MAX(MIN(s->rep->vic.fit * 3 / 4, len - 1), 2);
            continue;
        }
        if (r == VIC_BETTER && offer(s, method)) {
            improved = 1;
            if (s->cfg->progress)
                s->cfg->progress(s->cfg->progress_arg, opt_method_name[method], setting, i0, i1,
                                 &s->m, timer_seconds_since(s->lim->start_ns));
        }
        if (i1 >= s->tr.npushes)
            break;
        i0 += MAX(len / 2, 1);
    }
    mr->seconds += timer_seconds_since(t0);
    return improved;
}

/* One N-box permutation pass: from the start of each box session, the
 * longest stretch of the solution that moves at most `nbox` boxes, searched
 * with those boxes anywhere. Returns 1 when something improved, -1 when
 * stopped. */
static int permutation_pass(opt_state *s, int nbox, int *from)
{
    vicinity_config vc = {.permute = nbox, .metric = s->cfg->metric,
                          .max_configs = s->cfg->max_configs};
    int improved = 0;
    int64_t t0 = timer_now_ns();
    opt_method_report *mr = &s->rep->method[OPT_M_permutations];
    char setting[32];
    snprintf(setting, sizeof setting, "%d", nbox);
    int i0 = MIN(*from, MAX(s->tr.npushes - 1, 0));
    *from = 0;
    for (; i0 < s->tr.npushes;) {
        int i1 = sol_trace_span(&s->tr, i0, nbox);
        if (i1 - i0 >= 2) {
            mr->runs++;
            if (s->cfg->progress)
                s->cfg->progress(s->cfg->progress_arg, opt_method_name[OPT_M_permutations],
                                 setting, i0, i1, &s->m, timer_seconds_since(s->lim->start_ns));
            vicinity_result r = vicinity_segment(s->b, &s->best, &s->tr, i0, i1, &vc, s->lim,
                                                 s->mem, &s->cand, &s->rep->vic);
            if (r == VIC_STOPPED || stopped(s)) {
                if (r == VIC_STOPPED && s->rep->stop == STOP_NONE)
                    s->rep->stop = STOP_TIME;
                improved = -1;
                *from = i0;
                break;
            }
            if (r == VIC_TOO_BIG)
                break; /* the next boxes' squares would not fit either */
            if (r == VIC_BETTER && offer(s, OPT_M_permutations)) {
                improved = 1;
                if (s->cfg->progress)
                    s->cfg->progress(s->cfg->progress_arg,
                                     opt_method_name[OPT_M_permutations], setting, i0, i1,
                                     &s->m, timer_seconds_since(s->lim->start_ns));
            }
        }
        if (i1 >= s->tr.npushes)
            break;
        /* the next box session */
        int k = i0 + 1;
        while (k < s->tr.npushes && s->tr.box[k + 1] == s->tr.box[i0 + 1])
            k++;
        i0 = k;
    }
    mr->seconds += timer_seconds_since(t0);
    return improved;
}

/* One rearrangement pass: every candidate of the best solution in turn
 * (loop cuts, joins, swaps), the candidates of a new best taken from the
 * same index on. Returns 1 when something improved, -1 when stopped. */
static int rearrange_pass(opt_state *s, int *from)
{
    int64_t t0 = timer_now_ns();
    opt_method_report *mr = &s->rep->method[OPT_M_rearrangements];
    rearr r;
    rearr_init(&r, s->b, &s->best);
    int improved = 0, k = *from;
    *from = 0;
    if (s->cfg->progress)
        s->cfg->progress(s->cfg->progress_arg, opt_method_name[OPT_M_rearrangements], "", 0,
                         s->tr.npushes, &s->m, timer_seconds_since(s->lim->start_ns));
    for (; k < rearr_count(&r); k++) {
        if (stopped(s)) {
            improved = -1;
            *from = k;
            break;
        }
        mr->runs++;
        if (rearr_candidate(&r, k, &s->cand) != 0 || !offer(s, OPT_M_rearrangements))
            continue;
        improved = 1;
        rearr_free(&r);
        rearr_init(&r, s->b, &s->best);
        if (s->cfg->progress)
            s->cfg->progress(s->cfg->progress_arg, opt_method_name[OPT_M_rearrangements], "",
                             0, s->tr.npushes, &s->m, timer_seconds_since(s->lim->start_ns));
    }
    rearr_free(&r);
    mr->seconds += timer_seconds_since(t0);
    return improved;
}

/* How many configurations the N-box permutation cloud of b may hold at most:
 * the combinations of N squares among the squares that are not dead. */
static double perm_cloud_size(const board *b, int n)
{
    double c = 1;
    int live = b->nsq - b->ndead;
    for (int i = 0; i < n; i++)
        c = c * (live - i) / (i + 1);
    return c;
}

/* One step of a pass: a method with its settings, where its next run
 * starts, and the solutions it found nothing better than. */
typedef struct opt_step {
    opt_method method;
    int a, b; /* vicinity N1/N2, permutations N, global depth */
    int from; /* where the step's next run starts (it ran out of time) */
    long clean[2]; /* the solution (rep->improvements) a whole run of the
                      step, in each ring direction, found nothing better
                      than; -1 before */
} opt_step;

#define OPT_MAX_STEPS 16

/* The ring direction a step runs in this pass (only the vicinity's rings
 * have one). */
static int step_dir(const opt_step *st, int pass)
{
    return st->method == OPT_M_vicinity ? pass & 1 : 0;
}

/* Fills steps (room for OPT_MAX_STEPS) with the steps of a pass among
 * cfg's methods: the cheap settings of each method first, the widest last
 * (as YASO's quick searches). Returns how many. */
static int plan_steps(const board *b, const opt_config *cfg, opt_step *steps)
{
    int nsteps = 0;
#define STEP(m, x, y)                                                                    \
    do {                                                                                 \
        if (cfg->methods >> (m) & 1)                                                     \
            steps[nsteps++] = (opt_step){(m), (x), (y), 0, {-1, -1}};                    \
    } while (0)
    STEP(OPT_M_rearrangements, 0, 0);
    STEP(OPT_M_vicinity, 10, 0);
    STEP(OPT_M_vicinity, 20, 0);
    STEP(OPT_M_permutations, 1, 0);
    STEP(OPT_M_vicinity, 999, 0);
    if (perm_cloud_size(b, 2) <= (double)cfg->max_configs)
        STEP(OPT_M_permutations, 2, 0);
    if (cfg->global_depth >= 1)
        STEP(OPT_M_global, 1, 0);
    if (!(cfg->near2 == 0 && (cfg->near1 == 10 || cfg->near1 == 20 || cfg->near1 == 999)))
        STEP(OPT_M_vicinity, cfg->near1, cfg->near2);
    for (int n = 3; n <= 4; n++)
        if (perm_cloud_size(b, n) <= (double)cfg->max_configs)
            STEP(OPT_M_permutations, n, 0);
    for (int d = 2; d <= cfg->global_depth && nsteps < OPT_MAX_STEPS; d++)
        STEP(OPT_M_global, d, 0);
#undef STEP
    return nsteps;
}

/* Runs step k of this pass on s->best, under s->lim narrowed to the step's
 * share of the time. Returns 1 when it improved, 0 when not, -1 when
 * stopped (the whole run or only the step's share). */
static int run_step(opt_state *s, opt_step *steps, int nsteps, int k, int pass)
{
    opt_step *st = &steps[k];
    search_limits *lim = s->lim;
    int left = 0;
    for (int j = k; j < nsteps; j++)
        left += steps[j].clean[step_dir(&steps[j], pass)] != s->rep->improvements;
    /* With a time limit, a step gets at most twice its share of the time
     * left in the pass; what it leaves goes to the others, and a step cut
     * short resumes where it stopped next pass. */
    search_limits sub = *lim;
    int64_t now = timer_now_ns();
    if (lim->deadline_ns > 0)
        sub.deadline_ns = now + MAX((lim->deadline_ns - now) * 2 / left, (int64_t)100000000);
    if (sub.deadline_ns > lim->deadline_ns)
        sub.deadline_ns = lim->deadline_ns;
    s->lim = &sub;
    int r;
    if (st->method == OPT_M_rearrangements) {
        r = rearrange_pass(s, &st->from);
    } else if (st->method == OPT_M_permutations) {
        r = permutation_pass(s, st->a, &st->from);
    } else {
        vicinity_config vc = {.clockwise = pass & 1};
        if (st->method == OPT_M_global)
            vc.global = st->a;
        else
            vc.near1 = st->a, vc.near2 = st->b;
        r = window_pass(s, st->method, &vc, &st->from);
    }
    s->lim = lim;
    return r;
}

/* Runs passes of the steps over s->best until one improves nothing (at
 * least two passes, each turning the rings the other way, unless a step
 * was cut short by its share of the time) or the run is stopped. */
static void run_passes(opt_state *s, opt_step *steps, int nsteps)
{
    opt_report *rep = s->rep;
    for (int pass = 0;; pass++) {
        int improved = 0, stop = 0, capped = 0;
        for (int k = 0; k < nsteps && !stop; k++) {
            opt_step *st = &steps[k];
            /* A step that went over this very solution (in this ring
             * direction: only the vicinity's rings have one) and found
             * nothing would find nothing again: it is skipped (the search
             * is deterministic for a given solution). */
            int dir = step_dir(st, pass);
            if (st->clean[dir] == rep->improvements)
                continue;
            int whole = st->from == 0;
            long version = rep->improvements;
            int r = run_step(s, steps, nsteps, k, pass);
            if (r < 0) {
                if (stopped(s)) {
                    stop = 1;
                } else {
                    rep->stop = STOP_NONE; /* only the step's share ran out */
                    capped = 1;
                }
            } else if (r > 0) {
                improved = 1;
            } else if (whole && rep->improvements == version) {
                st->clean[dir] = version;
            }
        }
        if (stop || (!improved && !capped && pass >= 1))
            break;
    }
}

int optimize_solution(const board *b, movelist *mv, const opt_config *cfg, search_limits *lim,
                      membudget *mem, opt_report *rep)
{
    memset(rep, 0, sizeof *rep);
    opt_state s = {.b = b, .cfg = cfg, .lim = lim, .mem = mem, .rep = rep};
    replay_result rr;
    if (!solution_replay(b, mv, &rr))
        return -1;
    rep->before = rep->after = rr.m;
    s.m = rr.m;
    moves_init(&s.best);
    moves_init(&s.cand);
    moves_copy(&s.best, mv);
    sol_trace_build(&s.tr, b, &s.best);
    /* The steps of a pass, again while a pass improves. */
    opt_step steps[OPT_MAX_STEPS];
    int nsteps = plan_steps(b, cfg, steps);
    run_passes(&s, steps, nsteps);
    if (metrics_cmp(&s.m, &rr.m, cfg->metric) < 0)
        moves_copy(mv, &s.best);
    solution_replay(b, mv, &rr);
    rep->after = rr.m;
    sol_trace_free(&s.tr);
    moves_free(&s.best);
    moves_free(&s.cand);
    return 0;
}
