/* portfolio.c: strategies in turn on one level, or side by side on a lent
 * thread (see portfolio.h). */
#include "portfolio.h"
#include "../deadlock/stuck.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <assert.h>
#include <sched.h>
#include <string.h>

/* Positions stored per slice, at the member's nominal cost (NOMINAL_NS
 * below): FESS's turn about half a second of work, A*'s one second (their
 * positions cost about the same on XSokoban, 11.5 and 13.3 us; A*'s
 * 160,000 with the opening search joining early: training sets 237
 * instead of 238, slower on the levels both solve, in passes that shared
 * the machine; bench/README.md, "the opening search's share"). */
#define SLICE_FESS 40000u
#define SLICE_ASTAR 80000u
/* A member's work so far, in estimated nanoseconds on the benchmark
 * machine, from its counters (deterministic: the counters, not the clock):
 * a least-squares fit, on relative error, of the members' times on 1,000
 * runs (Sasquatch IV-VII, Grigr 2001, XSokoban, Microban I at 5 s per
 * level, every member; bench/README.md, "slices by work"). 80 % of the
 * runs fall within 0.55x-1.25x of the estimate; by the stored positions
 * alone, 0.28x-1.37x, and 4x off for A* on boards of 80 boxes and more
 * (its local deadlock searches grow with the square of the box count). */
static uint64_t member_work(const stats *st, uint64_t nboxes)
{
    return 2400 * st->nodes + (170 + 44 * nboxes) * st->generated +
           17000 * st->subset_searches + 30 * st->setpos_steps + 950000 * st->stuck_tests +
           1900000 * st->cells + (3000 + 36 * nboxes) * nboxes * st->local_searches;
}

enum { MEMBER_FESS, MEMBER_ASTAR, MEMBER_BACKWARD, MEMBER_OPENING, MEMBER_REV };
/* The work (member_work) a position of each member's slice stands for:
 * the members' medians on XSokoban (the opening search's from 3 s runs
 * alone on levels 20-29, where it runs long enough to measure; its
 * matching, most of its backward half's time, is not among the counters,
 * so its estimate is some 2.5 times short of its time, evenly; the reverse
 * search's, 2 us, from its runs on Sasquatch VII at 20 s). A member
 * whose positions cost more gets fewer of them in its turn; never more. */
static const uint64_t NOMINAL_NS[] = {
    [MEMBER_FESS] = 11500, [MEMBER_ASTAR] = 13300, [MEMBER_BACKWARD] = 4300,
    [MEMBER_OPENING] = 3000, [MEMBER_REV] = 2000};
/* The backward search's turn: short (its positions are cheap, and it
 * solves a level in a turn or two when it suits it at all). */
#define SLICE_BACKWARD 160000u
/* The opening search's turn: its backward half's positions are as cheap as
 * the backward search's, its forward half's cost as FESS's. */
#define SLICE_OPENING 640000u
/* fess-plan2's turn, once it joins beside the opening search (whose turns
 * are long): four of the first FESS's. */
#define SLICE_PLAN2 (4 * SLICE_FESS)
/* The reverse search's turn (search/rev.h), joining with the opening
 * search: about as long as four of the first FESS's (1.8 s of work), in
 * its own positions, which cost about 2 us (its backward halves' most):
 * counted at FESS's cost (160,000 positions), a turn took a third of a
 * second and the member solved no level the others do not (rev1, rev3;
 * bench/README.md, "The reverse search"). On boards of more than
 * REV_BOXES boxes the turn grows with the box count, up to twice as long
 * from twice as many: with Festival's REV pull order the member solves
 * big boards in 1.2-5 s of its work alone that it did not get in 20 s of
 * the portfolio (tw1: the training sets 252 against 253), and twice as
 * long a turn everywhere (sr2) solved Sasquatch IV 45 and 50 (60 boxes),
 * V 49 (128) and VI 18 (34) and lost VII 31 (24 boxes) and XSokoban 69
 * (18), where the opening search's turns came later (bench/README.md,
 * "The reverse search in Festival's REV orders"). */
#define SLICE_REV (23 * SLICE_FESS)
#define REV_BOXES 24
/* The opening search joins the round once the first FESS has stored this
 * many positions (or ended), about half a second in: the levels the others
 * solve by then pay nothing for it, and on the designed collections it
 * gets about half of a level's time (300,000, four seconds in, gave it a
 * tenth to a sixth: bench/README.md, "the opening search's share"). */
#define OPENING_JOIN 40000u

/* One member of the portfolio: its search (NULL once ended and freed), its
 * outcome, its slice, and whether it has ended. */
typedef struct member {
    const char *name;
    int kind;     /* MEMBER_FESS, MEMBER_ASTAR, MEMBER_BACKWARD, MEMBER_OPENING or
                     MEMBER_REV */
    void *search;
    search_outcome out;
    uint64_t slice; /* the full slice */
    uint64_t cur;   /* this turn's slice: from slice / 16, doubling each turn */
    uint64_t seen_nodes, seen_work; /* positions and work when its last turn began */
    int64_t spent_ns; /* time in its turns (reported only) */
    int done;
} member;

/* One level's portfolio. In turn, one thread touches it all. Side by side,
 * each member is touched by its own thread only (the lent thread steps
 * m[1]); the threads share `ended`, `nodes_left` and the memory budget. */
typedef struct portfolio {
    member m[7];
    int n;                 /* members: FESS, A*, then the second FESS, the
                              backward search, the opening search, the
                              reverse search and the lent thread's own
                              reverse search when they run */
    search_limits sub;     /* the members' limits: the level's, with no node
                              limit and `ended` as the halt flag */
    uint64_t max_nodes;    /* positions of both members together (0 = none) */
    atomic_int ended;      /* 0, or 1 + the member whose end ended the level */
    _Atomic uint64_t nodes_left; /* side by side, with a node limit: positions
                                    not yet granted to a member */
    int ib;                /* the backward member, or -1 */
    stuck_table patterns;  /* the FESS members' deadlock patterns (patterns.b
                              set when on): they run on one thread */
    atomic_int apart;      /* set once the members run side by side */
    atomic_int lent_ready; /* set once the lent thread's members are set up */
    unsigned lent_group;   /* the members a lent thread steps (bit i: m[i]) */
    int round[28], cycle;  /* side by side, this thread's turns (build_round;
                              the lent thread's members' skipped) */
    uint64_t nboxes;       /* the level's boxes (member_work) */
    void (*up)(void *, const stats *, double); /* the level's progress callback */
    void *up_arg;
} portfolio;

_Static_assert(sizeof(((portfolio *)0)->m) / sizeof(member) <= SEARCH_MAX_MEMBERS,
               "every member has its report");

/* Progress of the level as a whole: in turn, the members' counters summed
 * (this thread touches them all); side by side, the caller's own (the
 * other thread's member is never read from here). */
static void portfolio_progress(void *arg, const stats *st, double seconds)
{
    portfolio *p = arg;
    if (atomic_load(&p->apart)) {
        p->up(p->up_arg, st, seconds);
        return;
    }
    stats sum = p->m[0].out.st;
    for (int i = 1; i < p->n; i++)
        stats_add(&sum, &p->m[i].out.st);
    p->up(p->up_arg, &sum, seconds);
}

static int member_step(member *m, uint64_t budget)
{
    int64_t t0 = timer_now_ns();
    int done;
    switch (m->kind) {
    case MEMBER_FESS: done = fess_step(m->search, budget); break;
    case MEMBER_ASTAR: done = astar_step(m->search, budget); break;
    case MEMBER_OPENING: done = opening_step(m->search, budget); break;
    case MEMBER_REV: done = rev_step(m->search, budget); break;
    default: done = backward_step(m->search, budget); break;
    }
    m->spent_ns += timer_now_ns() - t0;
    return done;
}

/* Frees member m's search, first ending the meetings that read its store
 * (p->ib: the backward member, or -1). */
static void member_end(portfolio *p, member *m)
{
    if (!m->search)
        return;
    if (p->ib >= 0 && m->kind == MEMBER_FESS && p->m[p->ib].search)
        backward_unwatch(p->m[p->ib].search, fess_nodes(m->search));
    if (m->kind == MEMBER_BACKWARD)
        for (int i = 0; i < p->n; i++)
            if (p->m[i].kind == MEMBER_FESS && p->m[i].search)
                fess_watch(p->m[i].search, NULL);
    if (m->kind == MEMBER_FESS)
        fess_end(m->search);
    else if (m->kind == MEMBER_ASTAR)
        astar_end(m->search);
    else if (m->kind == MEMBER_OPENING)
        opening_end(m->search);
    else if (m->kind == MEMBER_REV)
        rev_end(m->search);
    else
        backward_end(m->search);
    m->search = NULL;
}

/* Member i has ended. A solution, a proof that there is none, or a limit
 * every member shares (time, Ctrl-C) ends the level: the first such member
 * is recorded in p->ended, which halts the other. Running out of memory, or
 * (side by side) out of node grants, ends the member alone: its positions
 * are freed for the other. Returns whether the level is over. */
static int member_ended(portfolio *p, int i)
{
    member *x = &p->m[i];
    stop_reason r = x->out.stop;
    if (r == STOP_MEMORY || r == STOP_NODES || r == STOP_GAVE_UP) {
        member_end(p, x);
        return 0;
    }
    if (r != STOP_HALTED) {
        int none = 0;
        atomic_compare_exchange_strong(&p->ended, &none, i + 1);
    }
    return 1;
}

/* Side by side with a node limit: takes up to `want` positions from
 * p->nodes_left (0 when none are left). */
static uint64_t grant_take(portfolio *p, uint64_t want)
{
    uint64_t left = atomic_load(&p->nodes_left), g;
    do
        g = MIN(want, left);
    while (g && !atomic_compare_exchange_weak(&p->nodes_left, &left, left - g));
    return g;
}

/* Gives back the part of a grant not used, or takes what a step stored
 * past it (an expansion stores all its children before it checks). */
static void grant_settle(portfolio *p, uint64_t granted, uint64_t used)
{
    if (used <= granted) {
        atomic_fetch_add(&p->nodes_left, granted - used);
        return;
    }
    uint64_t over = used - granted, left = atomic_load(&p->nodes_left);
    while (left && !atomic_compare_exchange_weak(&p->nodes_left, &left, left - MIN(over, left)))
        ;
}

/* The next turn of member x in the round, in positions: from a sixteenth
 * of its slice, doubling each turn up to the slice, at the member's
 * nominal cost (its median on XSokoban); a member whose positions cost
 * more in its last turn, by member_work, gets a turn shrunk to match. */
static uint64_t round_slice(member *x, uint64_t nboxes)
{
    if (x->cur == 0)
        x->cur = MAX(x->slice / 16, 1);
    uint64_t dn = x->out.st.nodes - x->seen_nodes;
    uint64_t w = member_work(&x->out.st, nboxes), dw = w - x->seen_work;
    uint64_t slice =
        dw > dn * NOMINAL_NS[x->kind] ? x->cur * dn * NOMINAL_NS[x->kind] / dw : x->cur;
    x->seen_nodes = x->out.st.nodes;
    x->seen_work = w;
    x->cur = MIN(x->cur * 2, x->slice);
    return MAX(slice, 1);
}

/* Side by side: one turn of member i on this thread, `size` positions (0:
 * its slice; with a node limit, in grants of that many at most; `one`: the
 * member runs alone, to the end). Records its end. Returns whether it is
 * still running. */
static int member_turn(portfolio *p, int i, int one, uint64_t size)
{
    member *x = &p->m[i];
    if (x->done)
        return 0;
    if (!size)
        size = x->slice;
    if (!p->max_nodes) {
        x->done = member_step(x, one ? 0 : x->out.st.nodes + size);
    } else {
        uint64_t before = x->out.st.nodes, g = grant_take(p, size);
        if (atomic_load(&p->ended) || g == 0) {
            grant_settle(p, g, 0);
            x->out.stop = atomic_load(&p->ended) ? STOP_HALTED : STOP_NODES;
            x->done = 1;
        } else {
            x->done = member_step(x, before + g);
            grant_settle(p, g, x->out.st.nodes - before);
        }
    }
    if (x->done)
        member_ended(p, i);
    return !x->done;
}

/* A turn on the lent thread for member x, in positions: its slice's
 * nominal time (slice times NOMINAL_NS) at the rate x has shown so far,
 * within 1 .. its slice (a sixteenth of it before it has run). Positions
 * that cost more than their nominal time (big boards, a slower build)
 * shorten the turn, so that neither member runs long past its share. */
static uint64_t fair_size(const member *x)
{
    if (x->out.st.nodes == 0 || x->spent_ns <= 0)
        return MAX(x->slice / 16, 1);
    uint64_t per = MAX((uint64_t)x->spent_ns / x->out.st.nodes, 1);
    return MAX(MIN(x->slice * NOMINAL_NS[x->kind] / per, x->slice), 1);
}

/* Side by side, a group without the first FESS (the lent thread's): its
 * members (in m[0 .. n)) share the thread's time equally, the one with the
 * least time since the group began taking the next turn (of fair_size),
 * until each has ended. Their slices, in positions, are sized for the
 * round on one thread and differ several times over in seconds (the
 * reverse search's turn is ten times A*'s): taken in plain turns, A* got
 * an eighth of a lent thread. */
static void member_run_fair(portfolio *p, unsigned group, int n)
{
    int64_t since[sizeof p->m / sizeof p->m[0]];
    for (int i = 0; i < n; i++) /* the others' are the other thread's */
        since[i] = (group & 1u << i) ? p->m[i].spent_ns : 0;
    for (;;) {
        int next = -1;
        for (int i = 0; i < n; i++)
            if ((group & 1u << i) && !p->m[i].done &&
                (next < 0 || p->m[i].spent_ns - since[i] < p->m[next].spent_ns - since[next]))
                next = i;
        if (next < 0)
            return;
        member_turn(p, next, 0, fair_size(&p->m[next]));
    }
}

/* The members with turns in round[0 .. cycle) (bit i: m[i]). */
static unsigned round_members(const int *round, int cycle)
{
    unsigned in = 0;
    for (int t = 0; t < cycle; t++)
        in |= 1u << round[t];
    return in;
}

/* Side by side: steps the members in `group` (a bit mask) on this thread
 * until each has ended. With the first FESS (member 0) in the group, in
 * the round's turns (p->round), those of the lent thread's members
 * skipped, each of the round's size (round_slice: full slices in
 * positions gave the reverse search, whose positions cost the most, half
 * of the thread on XSokoban 25, and the first FESS too little to meet the
 * backward search). Until 2026-12-06 the others took plain turns between
 * the first FESS's: the opening search, which has four of the round's
 * seven other turns with A* there, had a third of them (Sasquatch VI 37,
 * VII 31 and XSokoban 69, which it solves, 5-6 s later with --lent rev).
 * A lone member runs to the end; a group of several without the first
 * FESS shares the time equally (member_run_fair). */
static void member_run(portfolio *p, unsigned group)
{
    int one = (group & (group - 1)) == 0; /* a lone member runs to the end */
    int lead = (group & 1u) && !one;
    int n = 0; /* past the group's last member (p->n may grow on the other thread) */
    while (group >> n)
        n++;
    if (one) {
        if (group)
            member_turn(p, n - 1, 1, 0);
        return;
    }
    if (!lead) {
        member_run_fair(p, group, n);
        return;
    }
    /* every member of the group has turns in the round (portfolio_solve
     * builds it so when it lends the thread) */
    assert((group & ~round_members(p->round, p->cycle)) == 0);
    for (int t = 0, idle = 0; idle < p->cycle; t++) {
        int i = p->round[t % p->cycle];
        if (!(group & 1u << i) || p->m[i].done) {
            idle++;
            continue;
        }
        idle = 0;
        member_turn(p, i, 0, round_slice(&p->m[i], p->nboxes));
    }
}

/* The lent thread's task: the members of p->lent_group (cfg->lent). */
static void spare_run(void *arg)
{
    portfolio *p = arg;
    while (!atomic_load(&p->lent_ready)) /* the borrower sets them up */
        sched_yield();
    member_run(p, p->lent_group);
}

/* Sets up fess-plan2 (cfg: the first FESS's with the other plan_pick) as
 * member p->n, meeting the backward member when `meet`. Returns 1, or 0
 * (nothing set up) when its plan is not complete. */
static int plan2_join(portfolio *p, const board *b, const fess_config *cfg, membudget *mem,
                      int meet)
{
    member *x = &p->m[p->n];
    *x = (member){.name = "fess-plan2", .kind = MEMBER_FESS, .slice = SLICE_PLAN2};
    x->search = fess_begin(b, cfg, &p->sub, mem, &x->out);
    if (!fess_plan_complete(x->search)) {
        fess_end(x->search);
        push_seq_free(&x->out.pushes);
        *x = (member){0};
        return 0;
    }
    if (p->patterns.b)
        fess_share_patterns(x->search, &p->patterns);
    if (meet && p->ib >= 0 && p->m[p->ib].search) {
        fess_watch(x->search, p->m[p->ib].search);
        backward_watch(p->m[p->ib].search, fess_nodes(x->search));
    }
    p->n++;
    return 1;
}

/* The turns of a round: the first FESS every other turn, the others
 * between, in the order A*, the opening search (io), the backward search
 * (ib), the second FESS (i2) and the backward search again, the opening
 * search again; members that do not run (-1) are left out. `pair`: the
 * second FESS is the first's peer (fess-plan2): the two take the first's
 * turns alternately, in the round of a single FESS (the others keep their
 * share). `rearranged`: the level starts with most boxes on goals
 * (portfolio_config rearrange). Returns the turns in round[] (at most 28:
 * seven others, each after a FESS turn, twice with fess-order or the
 * reverse search). */
static int build_round(int *round, int ib, int i2, int io, int ir, int pair, int rearranged)
{
    const int others[7] = {1, io, ib, pair ? -1 : i2, i2 >= 0 && !pair ? ib : -1, io, ir};
    int cycle = 0, firsts = 0;
    for (int j = 0; j < 7; j++)
        if (others[j] >= 0) {
            round[cycle++] = pair && firsts++ % 2 ? i2 : 0;
            round[cycle++] = others[j];
        }
    if (io >= 0 && ((i2 >= 0 && !pair) || ir >= 0)) {
        /* Once the opening search has joined, fess-order (the greedy
         * packing order) takes A*'s turn every other round: A* solves its
         * levels before the join or hardly at all (after 0.5 s: 2 of 89
         * XSokoban levels, 3 of the 245 training levels), while fess-order
         * alone solves levels the portfolio loses (Grigr 19: 0.75 s alone,
         * 0.76 s of its turns came in 28 s; bench/README.md, "fess-order's
         * share"). Where no fess-order runs, the reverse search takes that
         * turn (Sasquatch VII 25: 2.9 s alone, 2.8 s of its turns came by
         * 16 s; with its own turn only, 1.8 s in 20 s). */
        int sub = i2 >= 0 && !pair ? i2 : ir;
        for (int t = 0; t < cycle; t++)
            round[cycle + t] = round[t] == 1 ? sub : round[t];
        cycle *= 2;
    }
    /* On a rearrangement the opening search also takes the turns A* and
     * the reverse search have left: such levels are the opening search's
     * (its targets carry the boxes off the goals); A* wins them before
     * the join or not at all, and the reverse search won none of the 168
     * of them in Sasquatch IV-VII, Grigr 2001, XSokoban, Microban I-IV
     * and SokEvo (bench/README.md, "Rearrangements"). */
    if (io >= 0 && rearranged)
        for (int t = 0; t < cycle; t++)
            if (round[t] == 1 || (ir >= 0 && round[t] == ir))
                round[t] = io;
    return cycle;
}

void portfolio_solve(const board *b, const portfolio_config *cfg, search_limits *lim,
                     membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    portfolio p;
    memset(&p, 0, sizeof p);
    atomic_init(&p.ended, 0);
    atomic_init(&p.nodes_left, 0);
    p.max_nodes = lim->max_nodes;
    p.nboxes = (uint64_t)b->nboxes;
    /* Each search checks time, interrupts and the halt flag; the node limit
     * applies to the two together and is enforced here. */
    p.sub = *lim;
    p.sub.max_nodes = 0;
    p.sub.halt = &p.ended;
    p.sub.spares = NULL;
    p.sub.pause = NULL; /* asked here, between the turns */
    atomic_init(&p.apart, 0);
    atomic_init(&p.lent_ready, 0);
    if (lim->progress) {
        p.up = lim->progress;
        p.up_arg = lim->progress_arg;
        p.sub.progress = portfolio_progress;
        p.sub.progress_arg = &p;
    }
    member *m = p.m;
    m[0] = (member){.name = "fess", .kind = MEMBER_FESS, .slice = SLICE_FESS};
    m[1] = (member){.name = "astar", .kind = MEMBER_ASTAR, .slice = SLICE_ASTAR};
    m[0].search = fess_begin(b, &cfg->fess, &p.sub, mem, &m[0].out);
    /* Patterns hold whatever the search: the FESS members, which always run
     * on this thread, learn into one table (A* may run on the lent thread
     * and keeps its own). */
    if (cfg->fess.dl.stuck) {
        stuck_init(&p.patterns, b);
        fess_share_patterns(m[0].search, &p.patterns);
    }
    m[1].search = astar_begin(b, &cfg->astar, &p.sub, mem, &m[1].out);
    p.n = 2;
    /* Where a complete plan replaced the greedy packing order, a second
     * FESS keeps the order: each finds levels the other misses. */
    fess_config order = cfg->fess;
    order.plan = 1;
    if (cfg->fess.plan == 2 && !m[0].done && m[0].search &&
        fess_plan_replaced_order(m[0].search)) {
        m[2] = (member){.name = "fess-order", .kind = MEMBER_FESS, .slice = SLICE_FESS};
        m[2].search = fess_begin(b, &order, &p.sub, mem, &m[2].out);
        if (p.patterns.b)
            fess_share_patterns(m[2].search, &p.patterns);
        p.n = 3;
    }
    /* Elsewhere, where the plan followed is the simpler of two, a second
     * FESS will follow the other base search's plan (fess-plan2, set up
     * when the opening search joins). */
    fess_config other = cfg->fess;
    other.plan_pick = p.n == 2 && m[0].search && !m[0].done ? fess_plan_other(m[0].search) : -1;
    p.ib = cfg->use_backward ? p.n++ : -1; /* the backward member */
    const int ib = p.ib;
    if (ib >= 0) {
        m[ib] = (member){.name = "backward", .kind = MEMBER_BACKWARD, .slice = SLICE_BACKWARD};
        m[ib].search = backward_begin(b, &cfg->backward, &p.sub, mem, &m[ib].out);
        /* The FESS members and the backward search meet: each looks up the
         * positions it stores in the other's store (they run on one thread,
         * in turn or side by side, so the stores are never read while they
         * grow). */
        if (cfg->meet)
            for (int i = 0; i < p.n; i++)
                if (m[i].kind == MEMBER_FESS) {
                    fess_watch(m[i].search, m[ib].search);
                    backward_watch(m[ib].search, fess_nodes(m[i].search));
                }
    }
    int i2 = p.n > 2 && m[2].kind == MEMBER_FESS ? 2 : -1; /* the second FESS */
    int pair = 0; /* i2 is fess-plan2 */
    const int io = cfg->use_opening ? p.n++ : -1; /* the opening member */
    if (io >= 0) {
        m[io] = (member){.name = "opening", .kind = MEMBER_OPENING, .slice = SLICE_OPENING};
        m[io].search = opening_begin(b, &cfg->fess, &cfg->backward, OPENING_BACK_NODES,
                                     cfg->opening_halves,
                                     &p.sub, mem, &m[io].out);
    }
    /* the reverse member: in the round, and on a lent thread alone
     * (LENT_REV) or in turn with A* (LENT_ASTAR_REV); without the member
     * the lent thread takes A* */
    const int ir = cfg->use_rev ? p.n++ : -1;
    if (ir >= 0) {
        uint64_t nb = (uint64_t)MIN(MAX(b->nboxes, REV_BOXES), 2 * REV_BOXES);
        m[ir] = (member){.name = "rev", .kind = MEMBER_REV,
                         .slice = SLICE_REV * nb / REV_BOXES};
        m[ir].search = rev_begin(b, &cfg->fess, &cfg->backward, &cfg->rev, &p.sub, mem,
                                 &m[ir].out);
    }
    spare_task task;
    stop_reason stop = STOP_MEMORY; /* when every member ran out of memory */
    int lent = 0;
    /* The turns (build_round): the first FESS every other turn (it solves
     * the most), then in turn A*, the backward search (whose positions the
     * FESS members meet) and, with the second FESS, that one and the
     * backward search again; the opening search twice once it joins. */
    int on_goals = 0;
    for (int i = 0; i < b->nboxes; i++)
        on_goals += b->is_goal[b->start_boxes[i]];
    /* a rearrangement (cfg->rearrange); cleared once the opening search has
     * ended (every leg gave up), when A* and the reverse search have their
     * turns back */
    int rearranged = cfg->rearrange > 0 && 100 * on_goals >= cfg->rearrange * b->nboxes;
    int round[28], cycle = build_round(round, ib, i2, -1, -1, 0, 0), next_turn = 0;
    /* the opening member and fess-plan2 are in the round */
    int joined = io < 0 && ir < 0 && other.plan_pick < 0;
    int may_pause = lim->pause != NULL; /* --defer: asks once */
    for (;;) {
        if (may_pause &&
            timer_now_ns() - lim->start_ns >= (int64_t)(lim->pause_after * 1e9)) {
            may_pause = 0;
            lim->pause(lim->pause_arg, atomic_load(&mem->used));
        }
        if (!joined && (m[0].done || m[0].out.st.nodes >= OPENING_JOIN)) {
            /* The opening search joins, and fess-plan2 where its plan is
             * complete (the levels solved by then pay nothing for either):
             * a new round, from its start. */
            if (other.plan_pick >= 0 && !m[0].done)
                pair = plan2_join(&p, b, &other, mem, cfg->meet);
            if (pair)
                i2 = p.n - 1;
            cycle = build_round(round, ib, i2, io, ir, pair, rearranged);
            next_turn = 0;
            joined = 1;
        }
        if (joined && rearranged && io >= 0 && m[io].done) {
            rearranged = 0;
            cycle = build_round(round, ib, i2, io, ir, pair, 0);
            next_turn = 0;
        }
        int turn = round[next_turn++ % cycle];
        member *x = &m[turn];
        uint64_t total = 0;
        int all_done = 1;
        for (int i = 0; i < p.n; i++) {
            total += m[i].out.st.nodes;
            all_done &= m[i].done;
        }
        if (p.max_nodes && total >= p.max_nodes) {
            stop = STOP_NODES;
            break;
        }
        /* 1. A lent thread: the members go on side by side, to the end. */
        atomic_store(&p.apart, 1);
        p.lent_group = 1u << 1;
        if ((cfg->lent == LENT_ASTAR_REV || cfg->lent == LENT_REV) && rearranged && io >= 0 &&
            !m[io].done)
            /* on a rearrangement, the opening search alone: one level on
             * two threads, the 67 rearrangements of the training sets and
             * XSokoban solved the same 60 in 54.3 s against 73.6 s with A*
             * and the reverse search there (bench/README.md) */
            p.lent_group = 1u << io;
        else if (cfg->lent == LENT_REV && ir >= 0 && !m[ir].done)
            p.lent_group = 1u << ir;
        else if (cfg->lent == LENT_ASTAR_REV && ir >= 0 && !m[ir].done)
            p.lent_group |= 1u << ir;
        else if (cfg->lent == LENT_OPENING && io >= 0 && !m[io].done)
            p.lent_group |= 1u << io;
        else if (cfg->lent == LENT_OPENING_ALONE && io >= 0 && !m[io].done)
            p.lent_group = 1u << io;
        if (lim->spares && !m[0].done && !m[1].done &&
            spares_lend(lim->spares, &task, spare_run, &p)) {
            lent = 1;
            /* fess-plan2 joins now if it has not: side by side, every
             * member runs from here on (without it a level alone on two
             * threads lost Sasquatch IV 43, which one thread solves) */
            if (!joined && !pair && other.plan_pick >= 0 &&
                (pair = plan2_join(&p, b, &other, mem, cfg->meet)))
                i2 = p.n - 1;
            mem_grow(mem, lim->spares->share);
            if (ir >= 0 && p.lent_group == 1u << ir && cfg->lent_tracks &&
                cfg->lent_tracks != cfg->rev.tracks && p.n < (int)(sizeof p.m / sizeof p.m[0])) {
                /* a reverse search of its own on the lent thread; the
                 * round's keeps its turns here */
                rev_config rc = cfg->rev;
                rc.tracks = cfg->lent_tracks;
                member *rl = &m[p.n];
                *rl = (member){.name = "rev-lent", .kind = MEMBER_REV, .slice = m[ir].slice};
                rl->search = rev_begin(b, &cfg->fess, &cfg->backward, &rc, &p.sub, mem, &rl->out);
                p.lent_group = 1u << p.n++;
            }
            /* this thread: the searches the lent one does not step, in the
             * round's turns as joined (every member runs from here on),
             * the lent thread's skipped; on a rearrangement whose opening
             * search went there, A* and the reverse search have their own
             * turns back */
            unsigned own = ((1u << p.n) - 1) & ~p.lent_group;
            p.cycle = build_round(p.round, ib, i2, io, ir, pair, rearranged);
            if (own & ~round_members(p.round, p.cycle))
                p.cycle = build_round(p.round, ib, i2, io, ir, pair, 0);
            atomic_store(&p.lent_ready, 1);
            if (p.max_nodes)
                atomic_store(&p.nodes_left, p.max_nodes - total);
            member_run(&p, own);
            spares_wait(lim->spares, &task);
            for (int i = 0; i < p.n; i++)
                if (m[i].out.stop == STOP_NODES)
                    stop = STOP_NODES;
            break;
        }
        atomic_store(&p.apart, 0);
        /* 2. In turn: the next slice of this member. */
        if (!x->done) {
            uint64_t budget = x->out.st.nodes + round_slice(x, (uint64_t)b->nboxes);
            if (p.max_nodes)
                budget = MIN(budget, x->out.st.nodes + (p.max_nodes - total));
            x->done = member_step(x, budget);
            if (x->done && member_ended(&p, turn))
                break;
        }
        if (all_done)
            break;
    }
    for (int i = 0; i < p.n; i++)
        member_end(&p, &m[i]);
    stuck_free(&p.patterns);
    /* The member that ended the level; a solution wins anyway (side by
     * side, one may solve just after the other hit the time limit). */
    int e = atomic_load(&p.ended) - 1;
    member *win = e >= 0 && m[e].out.solved ? &m[e] : NULL;
    for (int i = 0; i < p.n && !win; i++)
        if (m[i].out.solved)
            win = &m[i];
    out->st = m[0].out.st;
    for (int i = 1; i < p.n; i++)
        stats_add(&out->st, &m[i].out.st);
    out->st.mem_bytes = mem->peak;
    out->st.lent_threads = (uint64_t)lent;
    out->nmembers = p.n;
    for (int i = 0; i < p.n; i++) {
        out->members[i].name = m[i].name;
        out->members[i].seconds = (double)m[i].spent_ns / 1e9;
        out->members[i].st = m[i].out.st;
    }
    if (win) {
        out->solved = 1;
        out->pushes = win->out.pushes;
        win->out.pushes = (push_seq){0};
        /* a meeting: the solution is a FESS path and a backward one; the
         * opening search names its forward half, the reverse search which
         * half reached the other (rev, rev-meet) */
        out->strategy = win->kind == MEMBER_OPENING || win->kind == MEMBER_REV
                            ? win->out.strategy
                        : win->out.st.meetings ? "meet" : win->name;
    } else {
        out->stop = e >= 0 ? m[e].out.stop : stop;
        out->strategy = "portfolio";
    }
    for (int i = 0; i < p.n; i++)
        push_seq_free(&m[i].out.pushes);
}
