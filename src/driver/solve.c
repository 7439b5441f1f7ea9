/* solve.c: one level, from text to verified solution. */
#include "solve.h"
#include "../search/bfs.h"
#include "../search/moveopt.h"
#include "../search/rev.h"
#include "../search/pathbuild.h"
#include "../heuristic/goalsets.h"
#include "../heuristic/pairdb.h"
#include "../analysis/distance.h"
#include "../analysis/zones.h"
#include "../deadlock/freeze.h"
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
    /* the portfolio's members and the push-optimal A* use a second thread */
    return o->search != 1 && ((!o->optimal && o->strategy == 2) || o->optimal == 1) ? 2 : 1;
}

void driver_configs(const options *o, search_configs *sc)
{
    memset(sc, 0, sizeof *sc);
    /* the deadlock layer, once for both searches (A* leaves the capsets
     * out itself) */
    const dl_config dl = {
        .freeze = (int)o->freeze,
        .patterns = o->patterns ? (int)o->pattern_size : 0,
        .fixed = (int)o->fixed,
        .capsets = (int)o->capsets,
        .corrals = (int)o->corrals,
        .deadlock_search = (int)o->deadlock_search,
        /* in push-optimal A* too unless --no-optimal-local (short proofs
         * go faster without it, long ones need it) */
        .local = (int)(o->local && (o->optimal != 1 || o->optimal_local)),
        .stuck = (int)o->stuck,
    };
    sc->astar = (astar_config){
        .optimal = (int)o->optimal,
        .weight = (int)o->weight,
        .weight2 = (int)o->weight2,
        .dead_squares = (int)o->dead_squares,
        .dl = dl,
        .matching = (int)o->matching,
        .dfs_ext = (int)o->dfs_ext,
        .tunnels = (int)o->tunnels,
        .packing = (int)o->packing,
        .reach_reuse = (int)o->reach_reuse,
        .check = (int)o->check,
        .penalties = (int)(o->penalties && o->optimal == 1 && o->matching),
        .goal_sets = o->optimal == 1 && o->matching ? (int)o->goal_sets : 0,
        .goal_layers = (int)o->goal_layers,
        .pair_db = (int)(o->pair_db && o->optimal == 1 && o->matching),
        .clusters = o->optimal == 1 && o->matching ? (int)o->clusters : 0,
        .clusters_below = (int)(o->clusters_below && o->optimal == 1),
        .pop_clusters = o->optimal == 1 && o->matching && o->clusters ? (int)o->pop_clusters : 0,
        .pathmax = (int)(o->pathmax && o->optimal == 1),
        .sides = (int)(o->matching && (o->optimal == 1 ? o->sides : o->fast_sides)),
    };
    sc->fess = (fess_config){
        .dl = dl,
        .matching = (int)o->matching,
        .sides = (int)(o->fast_sides && o->matching),
        .packing = (int)o->packing,
        .advisors = (int)o->advisors,
        .rooms = (int)o->rooms,
        .hotspots = (int)o->hotspots,
        .plan = (int)o->plan,
        .plan_pick = (int)o->plan_search,
        .oop = (int)o->oop,
        .check = (int)o->check,
    };
    sc->backward = (backward_config){
        .reach = (int)o->dead_squares,
        .matching = (int)o->matching,
        .check = (int)o->check,
        .cells = (int)o->opening_cells,
    };
    /* the opening search's forward halves, alone or in the portfolio */
    sc->opening_halves = (o->opening_plan ? OPENING_BOTH : OPENING_SQUARES) | (o->opening_hf ? OPENING_HF : 0u) |
                         (o->opening_squares_advisors ? 0u : OPENING_SQUARES_PLAIN) |
                         (o->opening_third ? OPENING_THIRD : 0u) |
                         (o->opening_bicon ? OPENING_BICON : 0u) |
                         (o->opening_hot ? OPENING_HOT : 0u) |
                         (o->opening_weighted == 1 ? OPENING_WEIGHTED : 0u) |
                         (o->opening_weighted == 2 ? OPENING_WEIGHTED_LEG : 0u) |
                         (o->opening_deepen ? OPENING_DEEPEN : 0u) |
                         (o->opening_deepen == 2 ? OPENING_DEEPEN_ENDED : 0u);
    sc->rev = (rev_config){.fwd_nodes = REV_FWD_NODES, .tracks = (unsigned)o->rev_tracks,
                           .toward = (int)o->rev_toward,
                           .cells = (int)o->rev_cells, .share = (int)o->rev_share};
    sc->portfolio = (portfolio_config){.astar = sc->astar, .fess = sc->fess,
                                       .backward = sc->backward, .use_backward = 1,
                                       .meet = (int)o->meet, .use_opening = (int)o->opening,
                                       .use_rev = (int)o->rev, .rev = sc->rev,
                                       .opening_halves = sc->opening_halves,
                                       .lent = (int)o->lent, .rearrange = (int)o->rearrange,
                                       .lent_tracks = (unsigned)o->rev_lent_tracks};
}

/* Whether some box starts on a dead square (then no search is needed). */
static int start_dead(const board *b)
{
    for (int i = 0; i < b->nboxes; i++)
        if (b->dead[b->start_boxes[i]])
            return 1;
    return 0;
}

/* The verified end of a solve: replays `mv` (a solution a search found)
 * on b, optimizes it with --optimize, and fills res (lurd, metrics,
 * status). Returns 0, or -1 (reason set) when it does not solve the level. */
static int finish_solution(const board *b, movelist *mv, const options *o,
                           const search_limits *lim, uint64_t mem_limit, solve_result *res)
{
    replay_result rr;
    if (!solution_replay(b, mv, &rr)) {
        snprintf(res->reason, sizeof res->reason,
                 "internal error: the solution failed verification: %s", rr.reason);
        return -1;
    }
    res->found = rr.m;
    if (o->optimize > 0) {
        /* --optimize: moves first, or pushes first for a push-optimal
         * solution (its push count never grows). */
        opt_config oc;
        opt_config_default(&oc);
        oc.metric = o->optimal == 1 ? OPT_PUSHES : OPT_MOVES;
        search_limits ol;
        search_limits_start(&ol, o->optimize);
        ol.interrupt = lim->interrupt;
        membudget om;
        mem_init(&om, mem_limit);
        opt_report rep;
        if (optimize_solution(b, mv, &oc, &ol, &om, &rep) == 0)
            res->optimized = 1;
        solution_replay(b, mv, &rr); /* optimize_solution keeps it a solution */
    }
    strbuf sb;
    sb_init(&sb);
    lurd_encode(&sb, mv);
    res->lurd = sb_take(&sb);
    res->metrics = rr.m;
    res->status = RESULT_SOLVED;
    return 0;
}

int optimize_level(const level *lv, const char *lurd, const opt_config *cfg,
                   search_limits *lim, uint64_t mem_limit, opt_report *rep, char **out,
                   char *why, size_t why_len)
{
    *out = NULL;
    if (lv->error) {
        snprintf(why, why_len, "%s", lv->error);
        return -1;
    }
    board b;
    if (board_build(&b, lv) != 0) {
        snprintf(why, why_len, "level cannot be built");
        return -1;
    }
    distance_analyze(&b);
    movelist mv;
    moves_init(&mv);
    membudget mem;
    mem_init(&mem, mem_limit);
    int rc = lurd_decode(lurd, &mv, why, why_len);
    if (rc == 0 && optimize_solution(&b, &mv, cfg, lim, &mem, rep) != 0) {
        snprintf(why, why_len, "the moves do not solve the level");
        rc = -1;
    }
    if (rc == 0) {
        strbuf sb;
        sb_init(&sb);
        lurd_encode(&sb, &mv);
        *out = sb_take(&sb);
    }
    moves_free(&mv);
    board_free(&b);
    return rc == 0 ? 0 : -1;
}

/* --zones: the share of a level's time the zones get before any is taken;
 * the portfolio takes the rest, from the start, on the whole board. Each
 * zone taken moves the zones' end on by its boxes' part of the rest
 * (zones_end): with half the boxes home the zones have three quarters. */
#define ZONES_SHARE 0.5

/* The player's cell in a level grid of ncells cells. */
static int grid_player(const char *g, int ncells)
{
    int p = 0;
    while (p < ncells && g[p] != '@' && g[p] != '+')
        p++;
    return p;
}

/* Plays LURD moves on a level grid of `w` columns (one of "# $.*@+" per
 * cell): the moves of a verified sub-level solution, so every step is
 * legal there, and here too (the other zones' boxes were its walls). */
static void grid_play(char *g, int ncells, int w, const char *lurd)
{
    static const char dirs[] = "lurd";
    const int step[4] = {-1, -w, 1, w};
    int p = grid_player(g, ncells);
    for (; *lurd; lurd++) {
        const char *d = strchr(dirs, *lurd | 0x20);
        if (!d || !*d)
            continue;
        int q = p + step[d - dirs];
        if (g[q] == '$' || g[q] == '*') {
            int r = q + step[d - dirs];
            g[r] = g[r] == '.' ? '*' : '$';
            g[q] = g[q] == '*' ? '.' : ' ';
        }
        g[p] = g[p] == '+' ? '.' : ' ';
        g[q] = g[q] == '.' ? '+' : '@';
        p = q;
    }
}

/* The sub-level of zone k in position g (lv's grid as play left it), as
 * XSB text: the boxes of the other zones are walls, their empty goals
 * floor. */
static char *zone_text(const level *lv, const board *b, const zones *z, const char *g, int k)
{
    strbuf sb;
    sb_init(&sb);
    for (int y = 0; y < lv->height; y++) {
        for (int x = 0; x < lv->width; x++) {
            int cell = y * lv->width + x;
            char c = g[cell];
            sq_t s = b->sq_of_cell[cell];
            if (s == SQ_NONE) {
                c = c == '#' ? '#' : ' ';
            } else if (z->of[s] != k) {
                if (c == '$' || c == '*')
                    c = '#';
                else if (c == '.')
                    c = ' ';
                else if (c == '+')
                    c = '@';
            }
            sb_putc(&sb, c);
        }
        sb_putc(&sb, '\n');
    }
    return sb_take(&sb);
}

/* Where the player must end zone k's sub-level in position g, into
 * ends[] (cells; returns how many, at most LEVEL_END_MAX): for each zone
 * still to do (done[]) but k, the cell nearest the player next to one of
 * its boxes, found through the free floor and zone k's boxes (they move)
 * and never on one of zone k's goals (a box ends there). Finishing zone k
 * then leaves the player a way to each of the others (a room's last box
 * pushed in from inside closes its door behind the player). */
static int zone_end_cells(const level *lv, const board *b, const zones *z, const char *g,
                          const char *done, int k, int *ends)
{
    int w = lv->width, ncells = w * lv->height, p = grid_player(g, ncells), nends = 0;
    int *queue = xmalloc((size_t)ncells * sizeof *queue);
    char *seen = xcalloc((size_t)ncells, 1);
    char *found = xcalloc((size_t)z->n, 1);
    const int step[4] = {-1, -w, 1, w};
    int head = 0, tail = 0;
    queue[tail++] = p;
    seen[p] = 1;
    while (head < tail && nends < LEVEL_END_MAX) {
        int c = queue[head++];
        sq_t cs = b->sq_of_cell[c];
        int free_end = !(b->is_goal[cs] && z->of[cs] == k);
        for (int d = 0; d < 4; d++) {
            int n = c + step[d];
            if (n < 0 || n >= ncells || seen[n] || b->sq_of_cell[n] == SQ_NONE)
                continue;
            int zn = z->of[b->sq_of_cell[n]];
            if (g[n] == '$' || g[n] == '*') {
                if (zn >= 0 && zn != k && !done[zn]) {
                    if (free_end && !found[zn] && nends < LEVEL_END_MAX) {
                        found[zn] = 1;
                        ends[nends++] = c;
                    }
                    continue;
                }
                if (zn != k)
                    continue; /* a wall in the sub-level */
            }
            seen[n] = 1;
            queue[tail++] = n;
        }
    }
    free(found);
    free(seen);
    free(queue);
    return nends;
}

/* Whether zone k's sub-level in position g is one: its boxes and goals
 * in the player's reach. */
static int zone_reachable(const level *lv, const board *b, const zones *z, const char *g, int k)
{
    char *text = zone_text(lv, b, z, g, k);
    collection c;
    collection_parse(&c, "zone", text, strlen(text));
    int ok = c.nlevels == 1 && !c.levels[0].error;
    collection_free(&c);
    free(text);
    return ok;
}

/* One --zones run: the level and its zones, the position reached so far
 * (g; g2 is scratch) with the zones done and how many are left, the joined
 * solution, and what the zones' searches may use. */
typedef struct zone_run {
    const level *lv;
    const board *b;
    const options *o;
    const search_limits *lim;
    uint64_t mem_limit;
    stats *st;
    zones z;
    int ncells, left;
    char *g, *g2, *done;
    char *blocked; /* zones proven to have no solution in g (until g changes) */
    int64_t end; /* when the zones' share of the level's time runs out */
    int boxes_todo, boxes_taken; /* boxes of the zones to solve; of those taken */
    strbuf sol;
    int trace;
} zone_run;

enum { ZONE_NOT_SOLVED, ZONE_TAKEN, ZONE_SHUTS_OUT };

/* Marks done the zones whose boxes all start on goals (their boxes stay)
 * and counts the others into zr->left. */
static void zones_first_done(zone_run *zr)
{
    const board *b = zr->b;
    for (int k = 0; k < zr->z.n; k++)
        zr->done[k] = 1;
    for (int i = 0; i < b->nboxes; i++)
        if (!b->is_goal[b->start_boxes[i]])
            zr->done[zr->z.of[b->start_boxes[i]]] = 0;
    for (int k = 0; k < zr->z.n; k++) {
        zr->left += !zr->done[k];
        zr->boxes_todo += zr->done[k] ? 0 : zr->z.boxes[k];
    }
}

/* When the zones' time runs out: ZONES_SHARE of the level's, and of the
 * rest the part of the boxes still to do that zones taken have put home.
 * A level half done by its zones (Sasquatch VI 19: two zones of 20 boxes,
 * 5.7 s each on one thread) would otherwise lose its second zone at the
 * share's end and the portfolio start the whole board from nothing. */
static int64_t zones_end(const zone_run *zr)
{
    double span = (double)(zr->lim->deadline_ns - zr->lim->start_ns);
    double part = zr->boxes_todo ? (double)zr->boxes_taken / zr->boxes_todo : 0;
    return zr->lim->start_ns + (int64_t)(span * (ZONES_SHARE + (1 - ZONES_SHARE) * part));
}

/* Solves zone k's sub-level from zr->g in its share of the time left (from
 * now), adding the counters to zr->st. A solution is taken (played on g,
 * appended to the joined solution, the zone done) when every other zone
 * left stays in the player's reach afterwards, or when last_resort says no
 * zone could be taken so in a whole pass. Returns ZONE_TAKEN, ZONE_SHUTS_OUT
 * (solved but not taken) or ZONE_NOT_SOLVED. */
static int try_zone(zone_run *zr, int k, int64_t now, int last_resort)
{
    const level *lv = zr->lv;
    const zones *z = &zr->z;
    char *text = zone_text(lv, zr->b, z, zr->g, k);
    collection c;
    collection_parse(&c, "zone", text, strlen(text));
    if (zr->trace)
        fprintf(stderr, "zones: zone %d of %d, %d left:\n%s%s\n", k, z->n, zr->left, text,
                c.nlevels == 1 && c.levels[0].error ? c.levels[0].error : "");
    free(text);
    int taken = ZONE_NOT_SOLVED;
    if (c.nlevels == 1 && !c.levels[0].error) {
        /* the player ends where it can go on to the other zones */
        int ends[LEVEL_END_MAX];
        int nends = zone_end_cells(lv, zr->b, z, zr->g, zr->done, k, ends);
        for (int e = 0; e < nends; e++) {
            c.levels[0].end_cell1[e] = ends[e] + 1;
            if (zr->trace)
                fprintf(stderr, "zones: the player ends where it reaches row %d, column %d\n",
                        ends[e] / lv->width + 1, ends[e] % lv->width + 1);
        }
        options so = *zr->o;
        so.zones = 0;
        so.optimize = 0;
        search_limits sl = *zr->lim;
        sl.start_ns = now;
        /* the time left shared by the zones that may still be solved from
         * g: one proven to have no solution there waits for another zone to
         * move (Sasquatch VI 19: its first zone is shut in until the second
         * is solved, which needs more than half of the zones' time) */
        int open = 0;
        for (int j = 0; j < z->n; j++)
            open += !zr->done[j] && !zr->blocked[j];
        sl.deadline_ns = now + (zr->end - now) / MAX(open, 1);
        if (zr->lim->max_nodes)
            sl.max_nodes = zr->lim->max_nodes - zr->st->nodes;
        solve_result r;
        solve_level(&c.levels[0], &so, &sl, zr->mem_limit, &r);
        stats_add(zr->st, &r.st);
        if (zr->trace)
            fprintf(stderr, "zones: zone %d (%d boxes): %s %s in %.2f s, %llu positions\n", k,
                    z->boxes[k], result_status_text(r.status), r.reason, r.seconds,
                    (unsigned long long)r.st.nodes);
        if (r.status == RESULT_SOLVED) {
            memcpy(zr->g2, zr->g, (size_t)zr->ncells);
            grid_play(zr->g2, zr->ncells, lv->width, r.lurd);
            int open_all = 1;
            for (int j = 0; j < z->n && open_all; j++)
                if (!zr->done[j] && j != k)
                    open_all = zone_reachable(lv, zr->b, z, zr->g2, j);
            if (open_all || last_resort) {
                memcpy(zr->g, zr->g2, (size_t)zr->ncells);
                memset(zr->blocked, 0, (size_t)z->n);
                sb_puts(&zr->sol, r.lurd);
                zr->done[k] = 1;
                zr->left--;
                zr->boxes_taken += z->boxes[k];
                zr->end = zones_end(zr);
                taken = ZONE_TAKEN;
            } else {
                taken = ZONE_SHUTS_OUT;
            }
        } else if (r.stop == STOP_EXHAUSTED) {
            zr->blocked[k] = 1;
        }
        solve_result_free(&r);
    }
    collection_free(&c);
    return taken;
}

/* --zones, a zone shut in: when no zone can be taken and a zone j lies
 * outside the player's reach behind the boxes of a zone k still to do
 * (Sasquatch IV 47: the lower zones are reached only through the upper
 * left one, whose goals, once filled, close the way), zone k's boxes are
 * moved first, as few pushes as a breadth-first search over zone k's
 * sub-level finds, until zone j's sub-level is one; zone k stays to do and
 * is solved later from where its boxes stand. At most ZONES_OPEN_STATES
 * positions per search and a quarter of the zones' time left. */
#define ZONES_OPEN_STATES 200000
#define ZONES_OPEN_CHECKS 256 /* candidate positions tested whole per search */

typedef struct zone_opener {
    zone_run *zr;
    const board *sb; /* zone k's sub-level's board (its cells are the level's) */
    int k, j;
    uint8_t *near;   /* [sb->nsq] on a goal of zone j, or next to one of its boxes */
    char *g;         /* scratch grid */
    freeze_ctx fz;
    int checks;
} zone_opener;

/* The level's grid with zone k's boxes and the player as in p (a position
 * of zone k's sub-level) into zo->g. */
static void opener_grid(zone_opener *zo, const position *p)
{
    zone_run *zr = zo->zr;
    const board *b = zr->b;
    memcpy(zo->g, zr->g, (size_t)zr->ncells);
    for (int c = 0; c < zr->ncells; c++) {
        char ch = zo->g[c];
        sq_t s = b->sq_of_cell[c];
        if (s == SQ_NONE)
            continue;
        if ((ch == '$' || ch == '*') && zr->z.of[s] == zo->k)
            zo->g[c] = ch == '*' ? '.' : ' ';
        else if (ch == '@' || ch == '+')
            zo->g[c] = ch == '+' ? '.' : ' ';
    }
    const board *sb = zo->sb;
    for (int i = 0; i < sb->nboxes; i++) {
        int c = sb->cell[p->boxes[i]];
        zo->g[c] = zo->g[c] == '.' ? '*' : '$';
    }
    int c = sb->cell[p->player];
    zo->g[c] = zo->g[c] == '.' ? '+' : '@';
}

/* bfs goal: the player's region in p touches zone j, no box of zone k is
 * frozen off a goal, and zone j's sub-level is one in the grid so made. */
static int opener_goal(const position *p, const reach *r, void *arg)
{
    zone_opener *zo = arg;
    const board *sb = zo->sb;
    int touches = 0;
    for (int s = 0; s < sb->nsq && !touches; s++)
        touches = zo->near[s] && reach_floor(r, (sq_t)s);
    if (!touches || zo->checks >= ZONES_OPEN_CHECKS)
        return 0;
    zo->checks++;
    for (int i = 0; i < sb->nboxes; i++)
        if (freeze_deadlock(&zo->fz, p, p->boxes[i]))
            return 0;
    opener_grid(zo, p);
    return zone_reachable(zo->zr->lv, zo->zr->b, &zo->zr->z, zo->g, zo->j);
}

/* Moves zone k's boxes until zone j is in the player's reach: plays the
 * moves on zr->g and appends them to the joined solution. Returns 1 when
 * done, 0 when no such position was found in the search's limits. */
static int open_zone(zone_run *zr, int k, int j, int64_t deadline)
{
    const level *lv = zr->lv;
    char *text = zone_text(lv, zr->b, &zr->z, zr->g, k);
    collection c;
    collection_parse(&c, "zone", text, strlen(text));
    free(text);
    int opened = 0;
    board sb;
    if (c.nlevels != 1 || c.levels[0].error || c.levels[0].width != lv->width ||
        c.levels[0].height != lv->height || board_build(&sb, &c.levels[0]) != 0) {
        collection_free(&c);
        return 0;
    }
    if (distance_analyze(&sb) == 0) {
        zone_opener zo = {.zr = zr, .sb = &sb, .k = k, .j = j};
        zo.near = xcalloc((size_t)sb.nsq, 1);
        zo.g = xmalloc((size_t)zr->ncells);
        const int w = lv->width, step[4] = {-1, -w, 1, w};
        for (int s = 0; s < sb.nsq; s++) {
            int cell = sb.cell[s];
            sq_t fs = zr->b->sq_of_cell[cell];
            if (fs != SQ_NONE && zr->z.of[fs] == j && zr->b->is_goal[fs])
                zo.near[s] = 1;
            for (int d = 0; d < 4; d++) {
                int n = cell + step[d];
                if (n < 0 || n >= zr->ncells)
                    continue;
                sq_t ns = zr->b->sq_of_cell[n];
                if (ns != SQ_NONE && zr->z.of[ns] == j && (zr->g[n] == '$' || zr->g[n] == '*'))
                    zo.near[s] = 1;
            }
        }
        freeze_init(&zo.fz, &sb);
        bfs_config cfg = {.prune_dead = 1, .goal = opener_goal, .goal_arg = &zo};
        search_limits sl = {.deadline_ns = deadline, .max_nodes = ZONES_OPEN_STATES,
                            .interrupt = zr->lim->interrupt, .start_ns = timer_now_ns()};
        membudget m;
        mem_init(&m, zr->mem_limit / 4);
        search_outcome out;
        bfs_solve(&sb, &cfg, &sl, &m, &out);
        zr->st->nodes += out.st.nodes;
        movelist mv;
        moves_init(&mv);
        if (out.solved && path_build(&sb, &out.pushes, &mv) == 0) {
            strbuf lurd;
            sb_init(&lurd);
            lurd_encode(&lurd, &mv);
            char *moves = sb_take(&lurd);
            grid_play(zr->g, zr->ncells, lv->width, moves);
            sb_puts(&zr->sol, moves);
            free(moves);
            opened = 1;
        }
        if (zr->trace)
            fprintf(stderr, "zones: zone %d opened for zone %d: %s, %ld pushes, %llu positions\n",
                    k, j, opened ? "yes" : "no", opened ? push_seq_pushes(&out.pushes) : 0L,
                    (unsigned long long)out.st.nodes);
        moves_free(&mv);
        push_seq_free(&out.pushes);
        freeze_free(&zo.fz);
        free(zo.g);
        free(zo.near);
    }
    board_free(&sb);
    collection_free(&c);
    return opened;
}

/* When no zone can be taken: opens the first zone still to do that lies
 * outside the player's reach by moving the boxes of another (open_zone).
 * Returns 1 when one was opened. */
static int open_some_zone(zone_run *zr)
{
    const zones *z = &zr->z;
    int64_t now = timer_now_ns();
    if (now >= zr->end)
        return 0;
    int64_t deadline = now + (zr->end - now) / 4;
    char *open = xmalloc((size_t)z->n); /* zones to do in the player's reach */
    for (int k = 0; k < z->n; k++)
        open[k] = !zr->done[k] && zone_reachable(zr->lv, zr->b, z, zr->g, k);
    int opened = 0;
    for (int j = 0; j < z->n && !opened; j++)
        for (int k = 0; k < z->n && !zr->done[j] && !open[j] && !opened; k++)
            opened = open[k] && open_zone(zr, k, j, deadline);
    free(open);
    return opened;
}

/* Verifies the joined solution on the whole level and finishes it into res
 * (finish_solution). Returns 1 when solved. */
static int join_zones(zone_run *zr, solve_result *res)
{
    char *text = sb_take(&zr->sol);
    movelist mv;
    moves_init(&mv);
    char err[160];
    int solved = 0;
    if (lurd_decode(text, &mv, err, sizeof err) == 0 &&
        finish_solution(zr->b, &mv, zr->o, zr->lim, zr->mem_limit, res) == 0) {
        res->strategy = "zones";
        solved = 1;
    }
    moves_free(&mv);
    free(text);
    return solved;
}

/* --zones: solves a level whose boxes fall into two or more zones they
 * never leave (analysis/zones.h), each with as many goals as boxes, one
 * zone at a time: each a sub-level of its own (the other zones' boxes as
 * walls) solved by the portfolio in a share of ZONES_SHARE of the level's
 * time, their solutions played one after the other. A zone that fails (its
 * share ran out, or the other zones' boxes shut the player out) is tried
 * again after the others. The joined solution is verified on the whole
 * level (finish_solution). Adds the sub-levels' counters to *st. Returns 1
 * when solved (res filled), else 0: the whole level then goes to the
 * portfolio for the rest of its time. */
static int solve_by_zones(const level *lv, const board *b, const options *o,
                          const search_limits *lim, uint64_t mem_limit, solve_result *res,
                          stats *st)
{
    zone_run zr = {.lv = lv, .b = b, .o = o, .lim = lim, .mem_limit = mem_limit, .st = st};
    if (zones_find(b, &zr.z) != 0)
        return 0;
    if (!zr.z.balanced || zr.z.active < 2) {
        zones_free(&zr.z);
        return 0;
    }
    zr.ncells = lv->width * lv->height;
    zr.g = xmalloc((size_t)zr.ncells);
    memcpy(zr.g, lv->grid, (size_t)zr.ncells);
    zr.g2 = xmalloc((size_t)zr.ncells);
    zr.done = xcalloc((size_t)zr.z.n, 1);
    zr.blocked = xcalloc((size_t)zr.z.n, 1);
    zones_first_done(&zr);
    zr.end = zones_end(&zr);
    sb_init(&zr.sol);
    zr.trace = getenv("KEEPER_TRACE_ZONES") != NULL;
    for (int progress = 1, shut = 0, last_resort = 0, opens = 0; zr.left;) {
        if (!progress && !shut) {
            /* no zone can be taken: open one shut in by another's boxes */
            if (opens >= zr.z.n || (lim->interrupt && atomic_load(lim->interrupt)) ||
                !open_some_zone(&zr))
                break;
            opens++;
            memset(zr.blocked, 0, (size_t)zr.z.n);
            progress = 1;
        }
        /* a pass that took no zone only because each solution shut
         * another zone out: the next pass takes the first solution found */
        last_resort = !progress && shut;
        progress = 0;
        shut = 0;
        for (int k = 0; k < zr.z.n && zr.left; k++) {
            int64_t now = timer_now_ns();
            if (zr.done[k] || zr.blocked[k] || now >= zr.end ||
                (lim->interrupt && atomic_load(lim->interrupt)) ||
                (lim->max_nodes && st->nodes >= lim->max_nodes))
                continue;
            int t = try_zone(&zr, k, now, last_resort);
            if (t == ZONE_TAKEN) {
                progress = 1;
                last_resort = 0;
            } else if (t == ZONE_SHUTS_OUT) {
                shut = 1;
            }
        }
    }
    int solved = 0;
    if (!zr.left)
        solved = join_zones(&zr, res);
    else
        sb_free(&zr.sol);
    free(zr.done);
    free(zr.blocked);
    free(zr.g2);
    free(zr.g);
    zones_free(&zr.z);
    return solved;
}

/* Push-optimal mode, --optimal-seed: a solution found in fast mode within
 * the seed's share of the level's limits, its pushes shortened by the
 * optimizer in what is left of that share, in *mv (replayed). A seed given
 * with the level (level.seed, keeper solve --seed) takes the place of both
 * when it replays: the proof starts from it at once, whatever a fast
 * search would find (the refinement's turns may still shorten it).
 * Without a deadline the share is of the node limit, or else of 20 s, and
 * the optimizer does not run (it stops on time, which would make node
 * counts under a node limit, keeper bench's, depend on the machine). Adds
 * the fast search's counters to *st; *settled tells whether the optimizer
 * ran to its end (every method, again while one improved: more time would
 * change nothing). Returns its push count, or 0 when none was found. */
static uint32_t seed_solution(const level *lv, const board *b, const options *o,
                              const search_limits *lim, uint64_t mem_limit, movelist *mv,
                              stats *st, int *settled)
{
    *settled = 0;
    int64_t now = timer_now_ns();
    int64_t span = lim->deadline_ns ? lim->deadline_ns - now : (int64_t)20e9;
    if (span <= 0)
        return 0;
    int64_t end = now + (int64_t)((double)span * o->optimal_seed);
    char err[160];
    int have = 0; /* *mv holds a solution */
    int given = 0; /* the level's own seed */
    if (lv->seed) {
        replay_result rr;
        have = given = lurd_decode(lv->seed, mv, err, sizeof err) == 0 &&
                       solution_replay(b, mv, &rr);
        if (!have) {
            moves_free(mv);
            moves_init(mv);
        }
    }
    if (!have && o->optimal_seed > 0) {
        options fo = *o;
        fo.optimal = 0;
        fo.optimize = 0;
        search_limits fl = *lim;
        /* under a node limit alone, its share alone: the same in every build */
        fl.deadline_ns = lim->max_nodes && !lim->deadline_ns ? 0 : end;
        fl.progress = NULL;
        /* one thread: the seed is the same as on one thread (with the lent
         * thread the portfolio's first solution came from another member: on
         * XSokoban 8 a seed of 238 pushes instead of 230), and A* borrows the
         * idle thread for the proof */
        fl.spares = NULL;
        if (lim->max_nodes)
            fl.max_nodes = MAX((uint64_t)((double)lim->max_nodes * o->optimal_seed), 1);
        solve_result fr;
        solve_level(lv, &fo, &fl, mem_limit, &fr);
        /* the fast search's f is weighted: no bound on the pushes (the -v
         * table showed XSokoban 84's 441 beside its proven 153) */
        fr.st.best_lower_bound = 0;
        stats_add(st, &fr.st);
        have = fr.status == RESULT_SOLVED && lurd_decode(fr.lurd, mv, err, sizeof err) == 0;
        solve_result_free(&fr);
    }
    if (!have)
        return 0;
    double left = (double)(end - timer_now_ns()) / 1e9;
    /* a given seed goes to A* at once: one already optimal is proven as
     * soon as the bound reaches it, and the optimizer's turns
     * (--optimal-refine) still come once the bound is near */
    if (!given && lim->deadline_ns && left > 0.01) { /* stops on time: not without a deadline */
        opt_config oc;
        opt_config_default(&oc);
        oc.metric = OPT_PUSHES;
        search_limits ol;
        search_limits_start(&ol, left);
        ol.interrupt = lim->interrupt;
        membudget om;
        mem_init(&om, mem_limit);
        opt_report rep;
        *settled = optimize_solution(b, mv, &oc, &ol, &om, &rep) == 0 && rep.stop == STOP_NONE;
    }
    replay_result rr;
    if (solution_replay(b, mv, &rr) && rr.m.pushes > 0)
        return (uint32_t)rr.m.pushes;
    return 0;
}

/* Push-optimal mode, --optimal-refine: A*'s callback (astar_config's
 * refine). A* proves layer by layer, and only the layers below the seed's
 * pushes; once the proven lower bound is within REFINE_GAP pushes of the
 * seed's, a shorter seed ends the proof at once when it reaches that bound
 * (XSokoban 73: lower bound 441 at 21 s of 120; with a seed of 441 the
 * search ends there, with 443 it walks the layer of 441 past 120 s
 * without reaching a goal, while the optimizer takes a 443-push solution to
 * 441 in 20-60 s). From then on the optimizer and A* take turns on this
 * thread, the optimizer `share` of the time, its turns doubling from
 * REFINE_FIRST_S seconds (the optimizer starts each turn with its quick
 * methods, on the best seed so far). Once the optimizer has run to its end
 * (the seed's, or a turn's: every method, again while one improved), more
 * time would give the same seed, and no turn is taken (XSokoban 7, whose
 * seed is settled: 15 s with the turns, as without; 32 s when they ran
 * anyway). Its memory, at most half of what is free and REFINE_MEM, is
 * taken from the level's budget for the turn: A*'s store and the
 * optimizer's never pass the limit together. Without a deadline it never
 * runs (the node counts under a node limit stay the machine's). */
#define REFINE_GAP 2
#define REFINE_FIRST_S 2.0
#define REFINE_MEM ((uint64_t)1 << 30) /* the most an optimizer turn holds */

typedef struct refine_ctx {
    const board *b;
    movelist *seed;   /* the seed, replaced by each shorter one */
    membudget *mem;   /* the level's */
    const search_limits *lim;
    double share;
    uint32_t pushes;  /* the seed's */
    int settled;      /* the optimizer ran to its end on the seed: another
                         turn would give the same */
    double turn_s;    /* the next optimizer turn's length */
    int64_t next_ns;  /* when it starts (0: not triggered yet) */
    stats *st;
} refine_ctx;

/* A*'s turn before the optimizer's next, in ns. */
static int64_t astar_turn_ns(const refine_ctx *r)
{
    return (int64_t)(r->turn_s * (1 - r->share) / r->share * 1e9);
}

static uint32_t refine_seed(void *arg, uint32_t lower, uint32_t bound)
{
    refine_ctx *r = arg;
    if (!r->lim->deadline_ns || r->settled || lower + REFINE_GAP < bound)
        return bound;
    int64_t now = timer_now_ns();
    if (!r->next_ns) {
        r->next_ns = now + astar_turn_ns(r);
        return bound;
    }
    if (now < r->next_ns)
        return bound;
    double left = (double)(r->lim->deadline_ns - now) / 1e9;
    double t = MIN(r->turn_s, left * r->share);
    r->turn_s *= 2;
    r->next_ns = now + (int64_t)(t * 1e9) + astar_turn_ns(r);
    if (t < 0.05)
        return bound;
    uint64_t room = REFINE_MEM;
    if (r->mem->limit)
        room = MIN(room, (r->mem->limit - MIN(r->mem->limit, r->mem->used)) / 2);
    if (r->mem->limit && (room < ((uint64_t)1 << 24) || !mem_take(r->mem, room)))
        return bound; /* no room beside A*'s store */
    opt_config oc;
    opt_config_default(&oc);
    oc.metric = OPT_PUSHES;
    search_limits ol;
    search_limits_start(&ol, t);
    ol.interrupt = r->lim->interrupt;
    membudget om;
    mem_init(&om, room);
    opt_report rep;
    movelist mv;
    moves_init(&mv);
    moves_copy(&mv, r->seed);
    uint32_t pushes = bound;
    if (optimize_solution(r->b, &mv, &oc, &ol, &om, &rep) == 0) {
        r->settled = rep.stop == STOP_NONE;
        replay_result rr;
        if (solution_replay(r->b, &mv, &rr) && rr.m.pushes > 0 && (uint32_t)rr.m.pushes < bound) {
            pushes = r->pushes = (uint32_t)rr.m.pushes;
            moves_copy(r->seed, &mv);
        }
    }
    moves_free(&mv);
    if (r->mem->limit)
        mem_give(r->mem, room);
    r->st->refine_ms += (uint64_t)(t * 1000);
    return pushes;
}

/* Push-optimal mode, --optimal-plain: A* without PI-corrals (cfg's other
 * settings, the seed's bound) for `share` of what is left of the level's
 * time (or of its node limit, without a deadline). The corral restriction
 * keeps the proofs of the layers below the optimum small, but it can leave
 * few paths to a shortest solution in the layer that holds them: XSokoban
 * 49 (124 pushes) takes 32-94 s with corrals after a seed of 126, 1 s
 * without. Returns 1 when this ends the level, its outcome in *out: a
 * solution (in A*'s order: optimal), or nothing below the seed
 * (exhausted). Otherwise its counters go to *st (its best lower bound
 * stands) and the search with corrals runs, its limits lim less what this
 * one used. */
static int plain_astar(const board *b, const astar_config *cfg, search_limits *lim, double share,
                       membudget *mem, search_outcome *out, stats *st)
{
    int64_t now = timer_now_ns();
    search_limits pl = *lim;
    if (lim->deadline_ns) {
        int64_t span = lim->deadline_ns - now;
        if (span <= 0)
            return 0;
        pl.deadline_ns = now + (int64_t)((double)span * share);
    }
    if (lim->max_nodes)
        pl.max_nodes = MAX((uint64_t)((double)lim->max_nodes * share), 1);
    else if (!lim->deadline_ns)
        return 0; /* no limit to take a share of */
    astar_config pc = *cfg;
    pc.dl.corrals = 0;
    search_outcome po;
    memset(&po, 0, sizeof po);
    astar_solve(b, &pc, &pl, mem, &po);
    if (po.solved || po.stop == STOP_EXHAUSTED) {
        *out = po;
        out->strategy = out->solved ? "astar (no corrals)" : out->strategy;
        return 1;
    }
    push_seq_free(&po.pushes);
    stats_add(st, &po.st);
    if (lim->max_nodes)
        lim->max_nodes = lim->max_nodes > po.st.nodes ? lim->max_nodes - po.st.nodes : 1;
    return 0;
}

void solve_level(const level *lv, const options *o, search_limits *lim, uint64_t mem_limit,
                 solve_result *res)
{
    memset(res, 0, sizeof *res);
    res->lower_bound = -1;
    res->by_moves = o->optimal == 2;
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
    if (!mem_take(&mem, table_bytes) || distance_analyze(&b) != 0) {
        snprintf(res->reason, sizeof res->reason, "%s", stop_reason_text(STOP_MEMORY));
        board_free(&b);
        res->seconds = timer_seconds_since(t0);
        return;
    }
    /* The distance tables stay charged to this level's budget. */

    search_outcome out;
    memset(&out, 0, sizeof out);
    stats zst; /* the zones' sub-levels' counters, or the seed's */
    memset(&zst, 0, sizeof zst);
    movelist seed; /* push-optimal mode: the seed solution (--optimal-seed) */
    moves_init(&seed);
    goalsets gsets; /* push-optimal mode: --goal-sets, built after the seed */
    memset(&gsets, 0, sizeof gsets);
    pairdb pairs; /* push-optimal mode: --pair-db, built after the seed */
    memset(&pairs, 0, sizeof pairs);
    astar_clusters clusters = {.raise = -1}; /* push-optimal mode: the start's
                                                (astar.h), for both searches */
    uint32_t seed_pushes = 0;
    int seed_settled = 0; /* the seed's optimizer ran to its end */
    if (o->dead_squares && start_dead(&b)) {
        out.stop = STOP_EXHAUSTED;
    } else if (o->zones && o->search != 1 && !o->optimal && o->strategy == 2 &&
               lim->deadline_ns > lim->start_ns &&
               solve_by_zones(lv, &b, o, lim, mem_limit - MIN(mem_limit, table_bytes), res,
                              &zst)) {
        /* solved zone by zone */
    } else if (o->search == 1) {
        bfs_config cfg = {.prune_dead = (int)o->dead_squares};
        bfs_solve(&b, &cfg, lim, &mem, &out);
    } else {
        search_configs sc;
        driver_configs(o, &sc);
        search_limits alim = *lim; /* A*'s: the node limit less the seed's positions */
        if (o->optimal == 1 && (o->optimal_seed > 0 || lv->seed)) {
            seed_pushes = seed_solution(lv, &b, o, lim, mem_limit, &seed, &zst, &seed_settled);
            sc.astar.bound = seed_pushes;
            sc.astar.seed = seed_pushes ? &seed : NULL;
            if (lim->max_nodes)
                alim.max_nodes = lim->max_nodes > zst.nodes ? lim->max_nodes - zst.nodes : 1;
        }
        /* the goal-set patterns, once for both searches below (they cut
         * only under the seed's bound) */
        if (o->optimal == 1 && sc.astar.goal_sets) {
            if (seed_pushes) {
                /* at most a quarter of the time left: the searches need
                 * the rest (a safety cap: XSokoban's builds take 0.1-5 s
                 * of 120) */
                search_limits gl = alim;
                int64_t now = timer_now_ns();
                if (gl.deadline_ns)
                    gl.deadline_ns = now + MAX(gl.deadline_ns - now, 0) / 4;
                if (!gl.deadline_ns || gl.deadline_ns > now)
                    astar_patterns(&b, &sc.astar, &gl, &mem, &gsets, &zst);
            }
            sc.astar.patterns = &gsets;
        }
        /* the goal pairs' tables, once for both searches, within a quarter
         * of the time left (XSokoban's largest take 1-3 s) */
        if (o->optimal == 1 && sc.astar.pair_db) {
            int64_t now = timer_now_ns(), until = alim.deadline_ns;
            if (until)
                until = now + MAX(until - now, 0) / 4;
            if (!until || until > now)
                astar_pairs(&b, &sc.astar, until, lim->interrupt, &mem, &pairs, &zst);
            sc.astar.pairs = &pairs;
        }
        /* the start's clusters, once for both searches */
        if (o->optimal == 1 && sc.astar.clusters)
            sc.astar.root_clusters = &clusters;
        refine_ctx rc = {.b = &b, .seed = &seed, .mem = &mem, .lim = lim,
                         .share = o->optimal_refine, .pushes = seed_pushes,
                         .settled = seed_settled, .turn_s = REFINE_FIRST_S, .st = &zst};
        if (o->optimal == 1 && seed_pushes && o->optimal_refine > 0) {
            sc.astar.refine = refine_seed;
            sc.astar.refine_arg = &rc;
        }
        int plain_done = 0;
        if (o->optimal == 1 && o->optimal_plain > 0 && sc.astar.dl.corrals)
            plain_done = plain_astar(&b, &sc.astar, &alim, o->optimal_plain, &mem, &out, &zst);
        if (plain_done) {
            /* proven (or a shorter solution found and proven) without corrals */
        } else if (o->optimal == 2) {
            moveopt_config mc = {.prune_dead = (int)o->dead_squares, .freeze = (int)o->freeze,
                                 .fixed = (int)o->fixed, .bound = (int)o->matching};
            moveopt_solve(&b, &mc, lim, &mem, &out);
        } else if (o->optimal || o->strategy == 0) {
            if (sc.astar.bound)
                sc.astar.bound = rc.pushes; /* shortened during plain_astar */
            astar_solve(&b, &sc.astar, &alim, &mem, &out);
        } else if (o->strategy == 1) {
            fess_solve(&b, &sc.fess, lim, &mem, &out);
        } else if (o->strategy == 3) {
            backward_solve(&b, &sc.backward, lim, &mem, &out);
        } else if (o->strategy == 4) {
            opening_solve(&b, &sc.fess, &sc.backward, OPENING_BACK_NODES, sc.opening_halves, lim, &mem, &out);
        } else if (o->strategy == 5) {
            rev_solve(&b, &sc.fess, &sc.backward, &sc.rev, lim, &mem, &out);
        } else {
            portfolio_solve(&b, &sc.portfolio, lim, &mem, &out);
        }
    }
    res->st = out.st;
    stats_add(&res->st, &zst);
    res->nmembers = out.nmembers;
    memcpy(res->members, out.members, sizeof res->members);
    if (res->status != RESULT_SOLVED)
        res->strategy = out.strategy ? out.strategy : "";
    if (out.solved) {
        movelist mv;
        moves_init(&mv);
        if (path_build(&b, &out.pushes, &mv) != 0)
            snprintf(res->reason, sizeof res->reason,
                     "internal error: the search's pushes do not replay");
        else if (finish_solution(&b, &mv, o, lim, mem_limit, res) == 0)
            res->optimal = out.optimal;
        if (o->optimal == 2 && res->optimal && res->metrics.moves != (long)out.st.best_lower_bound) {
            /* the walks rebuilt are not the search's: not a proof */
            res->optimal = 0;
            snprintf(res->reason, sizeof res->reason,
                     "internal error: %ld moves rebuilt, the search's path has %ld",
                     res->metrics.moves, (long)out.st.best_lower_bound);
        }
        moves_free(&mv);
    } else if (res->status == RESULT_SOLVED) {
        /* solved zone by zone */
    } else if (seed_pushes && finish_solution(&b, &seed, o, lim, mem_limit, res) == 0) {
        /* A* found nothing shorter than the seed: exhausted, a proof that
         * it is optimal; else the seed, unproven, with the lower bound */
        res->optimal = out.stop == STOP_EXHAUSTED;
        res->strategy = "astar (seed)";
        if (!res->optimal) {
            res->stop = out.stop;
            snprintf(res->reason, sizeof res->reason, "%s", stop_reason_text(out.stop));
        }
    } else {
        res->stop = out.stop;
        snprintf(res->reason, sizeof res->reason, "%s", stop_reason_text(out.stop));
    }
    /* In push-optimal mode every expanded f is at most the optimal push
     * count (the bound is admissible and an expanded node has the least f
     * of the open list), so the highest one is a proven lower bound. */
    if (o->search != 1 && o->optimal) {
        if (res->status == RESULT_SOLVED && res->optimal)
            res->lower_bound = o->optimal == 2 ? res->metrics.moves : res->metrics.pushes;
        else if (out.stop != STOP_EXHAUSTED && !out.solved)
            res->lower_bound = (long)res->st.best_lower_bound; /* with --optimal-plain's */
    }
    moves_free(&seed);
    astar_patterns_free(&gsets, &mem);
    astar_pairs_free(&pairs, &mem);
    astar_clusters_free(&clusters, &mem);
    push_seq_free(&out.pushes);
    board_free(&b);
    res->seconds = timer_seconds_since(t0);
}
