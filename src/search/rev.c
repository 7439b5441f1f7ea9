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
 * (next_half). */
#define REV_BACK_SLICE 160000u
#define REV_FWD_SLICE 40000u
/* A track's turn once both have their first target: a forward slice and
 * a backward one. */
#define REV_TRACK_SLICE (REV_BACK_SLICE + REV_FWD_SLICE)

/* One target and a backward half pulling towards it (with rev_config
 * cells REV_CELLS_BOTH, two halves per target: the second reads the
 * first's board). */
typedef struct rev_half {
    board tb;            /* the level with the target as its start (built
                            when tbp points here) */
    const board *tbp;    /* the board its backward half runs on */
    backward_config bc;  /* its backward half's (read by it while it runs) */
    uint32_t target;     /* the target's node in the forward store */
    backward *bw;
    search_outcome bout;
    int done;            /* exhausted: the target does not lead to the goal */
} rev_half;

/* A forward half and the backward halves towards its targets. */
typedef struct track {
    fess_config fc;
    fess *fw;
    search_outcome fout; /* the forward half's; its end ends the search */
    uint64_t next_at;    /* the forward half's positions when the next
                            target is taken (0: no more targets) */
    rev_half h[REV_HALVES];
    int nh;              /* backward halves */
    int ntg;             /* targets taken (one or two halves each) */
    int tried;           /* targets taken or tried (take_target) */
    int off;             /* not run (rev_config tracks) */
    unsigned turn;       /* backward turns taken (next_half) */
    unsigned rr;         /* the rotation's next half */
} track;

struct rev {
    const board *b;
    backward_config bc;
    int cells;          /* rev_config cells */
    unsigned share;     /* rev_config share */
    uint64_t back_slice; /* a backward turn's positions (REV_BACK_SLICE) */
    search_limits *lim; /* the caller's: max_nodes counts every half */
    search_limits sub;  /* the halves': the caller's without max_nodes */
    membudget *mem;
    search_outcome *out;
    track t[REV_TRACKS];
    int cur;            /* the track whose turn it is (once each has a target) */
    uint64_t left;      /* positions left in that turn */
    int finished;
};

static void sum_stats(rev *r)
{
    stats *st = &r->out->st;
    memset(st, 0, sizeof *st);
    uint64_t targets = 0;
    for (int i = 0; i < REV_TRACKS; i++) {
        track *t = &r->t[i];
        stats_add(st, &t->fout.st);
        for (int k = 0; k < t->nh; k++)
            stats_add(st, &t->h[k].bout.st);
        targets += (uint64_t)t->ntg;
    }
    st->targets = targets;
    st->mem_bytes = r->mem->peak;
}

rev *rev_begin(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               const rev_config *rc, search_limits *lim, membudget *mem, search_outcome *out)
{
    unsigned tracks = rc->tracks & REV_TRACKS_ALL ? rc->tracks & REV_TRACKS_ALL : 1u;
    memset(out, 0, sizeof *out);
    out->strategy = "rev";
    rev *r = xcalloc(1, sizeof *r);
    r->b = b;
    for (int i = 0; i < REV_TRACKS; i++) {
        track *t = &r->t[i];
        t->fc = *fcfg;
        t->fc.hf = fcfg->matching; /* the HF order needs the matching */
        t->fc.packing = 0;
        t->fc.open = 1;
        t->fc.hot = i == 1;
        t->fc.revpush = i == 2;
        t->next_at = MAX(rc->fwd_nodes, 1);
        if (!(tracks >> i & 1u)) {
            t->off = 1;
            t->tried = 1; /* never first, never in turn */
        }
    }
    r->cur = 0;
    while (r->t[r->cur].off)
        r->cur++;
    r->bc = *bcfg;
    r->bc.open = 0;
    r->bc.cells = 0;
    r->bc.toward = rc->toward;
    r->cells = rc->cells;
    r->share = (unsigned)rc->share;
    r->back_slice = rc->back_slice ? rc->back_slice : REV_BACK_SLICE;
    r->lim = lim;
    r->sub = *lim;
    r->sub.max_nodes = 0;
    r->mem = mem;
    r->out = out;
    return r; /* the forward halves start at their first turns: a portfolio
                 member that never runs costs nothing */
}

static int finish(rev *r, stop_reason why)
{
    r->out->stop = why;
    r->finished = 1;
    sum_stats(r);
    return 1;
}

/* Track t's forward half has stored next_at positions: its most open
 * position becomes a new target, with a backward half towards it (two
 * with REV_CELLS_BOTH: one list and cells), unless it is one already
 * taken. The next target comes after REV_TARGET_GROWTH
 * times as many positions. */
static void take_target(rev *r, track *t)
{
    const board *b = r->b;
    DEBUG_CHECK(t->ntg < REV_TARGETS); /* next_at is 0 once the last is taken */
    t->tried++;
    t->next_at = t->ntg + 1 < REV_TARGETS ? t->next_at * REV_TARGET_GROWTH : 0;
    sq_t *boxes = xmalloc(sizeof(sq_t) * ((size_t)b->nboxes + 1));
    sq_t player = 0;
    uint32_t target = fess_open_target(t->fw, boxes, &player);
    int fresh = target != NODE_NONE;
    for (int k = 0; k < t->nh && fresh; k++)
        fresh = t->h[k].target != target;
    if (fresh && getenv("KEEPER_TRACE_REV")) {
        fprintf(stderr, "rev: track %d, target %d, node %u of %u\n", (int)(t - r->t), t->ntg,
                target, (unsigned)t->fout.st.nodes);
        search_trace_position(b, boxes, player);
    }
    /* the halves on the first one's board: the plain order, in cells, or
     * one of each */
    board *tb = &t->h[t->nh].tb;
    if (fresh && board_variant(b, NULL, boxes, player, tb) != 0)
        fresh = 0;
    if (fresh && distance_analyze(tb) != 0) {
        board_free(tb);
        fresh = 0;
    }
    int twin = r->cells == REV_CELLS_BOTH;
    for (int j = 0; j <= twin && fresh; j++) {
        rev_half *h = &t->h[t->nh];
        h->tbp = tb;
        h->target = target;
        h->bc = r->bc;
        h->bc.cells = twin ? j : r->cells == REV_CELLS;
        h->bw = backward_begin(h->tbp, &h->bc, &r->sub, r->mem, &h->bout);
        backward_watch(h->bw, fess_nodes(t->fw));
        fess_watch(t->fw, h->bw);
        t->nh++;
    }
    t->ntg += fresh;
    free(boxes);
}

/* One turn of track t's forward half, up to `upto` positions of its own.
 * Returns 1 when the whole search has ended. */
static int forward_turn(rev *r, track *t, uint64_t upto)
{
    if (!fess_step(t->fw, upto))
        return 0;
    stop_reason why = t->fout.stop;
    /* solved (the goal, or a meeting), exhausted (no solution: FESS's
     * pruning is sound), or a limit every half shares */
    return finish(r, why);
}

static int backward_turn(rev *r, track *t, int k, uint64_t upto)
{
    rev_half *h = &t->h[k];
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

/* The next live backward half of track t, or -1: with `share` > 1, one
 * turn in `share` the next in rotation after the last one served, the
 * others the half that came nearer its target (backward_stale) the fewest
 * positions ago (ties: the first); with `share` 0 or 1, rotation alone. */
static int next_half(track *t, unsigned share)
{
    if (share > 1 && t->turn++ % share != 0) {
        int pick = -1;
        uint64_t least = 0;
        for (int k = 0; k < t->nh; k++) {
            if (t->h[k].done)
                continue;
            uint64_t s = backward_stale(t->h[k].bw);
            if (pick < 0 || s < least) {
                pick = k;
                least = s;
            }
        }
        return pick;
    }
    for (int i = 0; i < t->nh; i++) {
        int k = (int)(t->rr++ % (unsigned)t->nh);
        if (!t->h[k].done)
            return k;
    }
    return -1;
}

/* Track t's turns until the search counts `budget` positions (0: no
 * budget). Returns 1 when the whole search has ended. */
static int step_track(rev *r, track *t, uint64_t budget)
{
    if (!t->fw)
        t->fw = fess_begin(r->b, &t->fc, &r->sub, r->mem, &t->fout);
    for (int fwd_next = 1;;) {
        sum_stats(r);
        uint64_t total = r->out->st.nodes;
        if (budget && total >= budget)
            return 0;
        uint64_t room = budget ? budget - total : 0;
        int k = fwd_next ? -1 : next_half(t, r->share);
        fwd_next = k >= 0; /* forward and backward turns alternate */
        if (k < 0) {
            /* up to the first target in one go; then a slice, stopping
             * where the next target is due */
            uint64_t upto = t->fout.st.nodes + REV_FWD_SLICE;
            if (t->next_at)
                upto = t->nh ? MIN(upto, t->next_at) : t->next_at;
            if (room)
                upto = MIN(upto, t->fout.st.nodes + room);
            if (forward_turn(r, t, upto))
                return 1;
            if (t->next_at && t->fout.st.nodes >= t->next_at)
                take_target(r, t);
            fwd_next = !t->nh; /* no target yet: the forward half goes on */
        } else {
            uint64_t slice = room ? MIN(r->back_slice, room) : r->back_slice;
            if (backward_turn(r, t, k, t->h[k].bout.st.nodes + slice))
                return 1;
        }
    }
}

/* The tracks in turn: each first up to its first target (or the try of
 * one; the first track's comes first, as with one track), then turns of
 * REV_TRACK_SLICE positions. A turn the caller's budget cut short goes on
 * where it stopped. */
static int step_tracks(rev *r, uint64_t node_budget)
{
    for (;;) {
        sum_stats(r);
        uint64_t total = r->out->st.nodes;
        if (node_budget && total >= node_budget)
            return 0;
        track *t = NULL;
        for (int i = 0; i < REV_TRACKS && !t; i++)
            if (!r->t[i].tried)
                t = &r->t[i];
        int turn = !t; /* a turn of REV_TRACK_SLICE, not the first target's run */
        if (turn) {
            if (r->left == 0) {
                do
                    r->cur = (r->cur + 1) % REV_TRACKS;
                while (r->t[r->cur].off);
                r->left = REV_TRACK_SLICE;
            }
            t = &r->t[r->cur];
        }
        /* the first target's run: the forward half up to it */
        uint64_t upto = total + (turn ? r->left : t->next_at - MIN(t->next_at, t->fout.st.nodes));
        if (node_budget)
            upto = MIN(upto, node_budget);
        if (step_track(r, t, upto))
            return 1;
        if (turn)
            r->left -= MIN(r->left, r->out->st.nodes - total);
    }
}

int rev_step(rev *r, uint64_t node_budget)
{
    if (r->finished)
        return 1;
    uint64_t max = r->lim->max_nodes;
    int capped = max && (!node_budget || node_budget > max);
    if (step_tracks(r, capped ? max : node_budget))
        return 1;
    return capped ? finish(r, STOP_NODES) : 0;
}

/* Track t's solution into out, when it has one and out has none. */
static void track_end(track *t, search_outcome *out)
{
    if (!t->fw)
        return;
    fess_watch(t->fw, NULL);
    for (int k = 0; k < t->nh; k++) {
        rev_half *h = &t->h[k];
        backward_unwatch(h->bw, fess_nodes(t->fw));
        backward_end(h->bw);
        if (h->bout.solved && !out->solved) {
            push_seq full = {0};
            if (h->bout.st.meetings == 0) {
                /* the backward half reached its target: the forward path
                 * to it first */
                nodes_path(fess_nodes(t->fw), h->target, &full);
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
    fess_end(t->fw);
    if (t->fout.solved && !out->solved) {
        out->solved = 1;
        out->stop = STOP_NONE;
        out->pushes = t->fout.pushes;
        t->fout.pushes = (push_seq){0};
    }
    push_seq_free(&t->fout.pushes);
    for (int k = 0; k < t->nh; k++)
        if (t->h[k].tbp == &t->h[k].tb)
            board_free(&t->h[k].tb);
}

void rev_end(rev *r)
{
    for (int i = 0; i < REV_TRACKS; i++)
        track_end(&r->t[i], r->out);
    sum_stats(r);
    free(r);
}

void rev_solve(const board *b, const fess_config *fcfg, const backward_config *bcfg,
               const rev_config *rc, search_limits *lim, membudget *mem, search_outcome *out)
{
    rev *r = rev_begin(b, fcfg, bcfg, rc, lim, mem, out);
    rev_step(r, 0);
    rev_end(r);
}
