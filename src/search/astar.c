/* astar.c: A* over pushes with a transposition table, SetPosition and the
 * depth-first extension (see astar.h). */
#include "astar.h"
#include "nodes.h"
#include "openlist.h"
#include "boxpath.h"
#include "pstack.h"
#include "../analysis/packing.h"
#include "../analysis/tunnels.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../deadlock/layer.h"
#include "../heuristic/lowerbound.h"
#include "../util/u32map.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>


/* Depth-first extensions nest at most this deep; deeper children are
 * queued like the others. */
#define MAX_EXT_DEPTH 48

/* Packing macros: boxes tried per goal (nearest first), and the most
 * pushes a macro may take beyond the box's lone distance to the goal. */
#ifndef PACK_CANDIDATES
#define PACK_CANDIDATES 3
#endif
#ifndef PACK_DETOUR
#define PACK_DETOUR 24
#endif


struct astar {
    const board *b;
    const astar_config *cfg;
    search_limits *lim;
    membudget *mem;
    stats *st;
    int nq;              /* open lists (fast mode may alternate two) */
    int weight[2];       /* f = g + weight[q] * h in open list q */
    int cq;              /* the open list the expanded node came from */

    position pos;
    node_store ns;
    openlist open[2];
    lowerbound lb;
    lb_sol sols[MAX_EXT_DEPTH + 2]; /* bound of the position expanded at each depth, + child */
    reach reach[MAX_EXT_DEPTH + 2];
    dl_layer dl;         /* the deadlock layer (cfg->dl) */
    packing pk;          /* fast mode: goals in filling order (pk.n = 0: none) */
    uint8_t *rank;       /* [nsq] 1 + position of a goal in the order, else 0 */
    int *room_next;      /* [rooms] scratch: first empty goal of each room */
    uint16_t *goal_index; /* [nsq] index of a goal square in b->goals */
    boxpath bp;
    uint8_t *dirs;       /* boxpath scratch */
    uint32_t packing_defer; /* a node whose packing macro was made waits with
                               its bound raised by this much before its
                               ordinary pushes are generated */
    uint8_t *allow[MAX_EXT_DEPTH + 2]; /* PI-corral: allowed directions per box */

    pstack path;     /* the pushes on the board, from the root */
    u32map deferred; /* nodes whose ordinary pushes wait after a packing macro */

    search_outcome *out;
    uint32_t turn;   /* expansions so far: with two open lists, which one is next */
    int finished;    /* the search has ended (solved, exhausted or a limit) */
    uint64_t budget; /* astar_step: stored positions at which to pause (0 = none);
                        past it no depth-first extension starts */
    uint32_t goal;
    stop_reason stop;
    uint32_t fmin; /* f of the node being expanded */
    int64_t next_progress;
    uint32_t checks; /* expansions since the last limit check */
    deadline_poll dpoll; /* the clock between checks */
};

/* ---------------------------------------------------------- expansion */

static inline uint32_t f_of(const astar *a, int q, uint32_t g, uint32_t h)
{
    return g + (uint32_t)a->weight[q] * h;
}

/* Queues node n (with g and h) in every open list. Returns -1 when the
 * memory budget is spent. */
static int queue_node(astar *a, uint32_t n, uint32_t g, uint32_t h)
{
    for (int q = 0; q < a->nq; q++)
        if (ol_push(&a->open[q], f_of(a, q, g, h), h, n) != 0)
            return -1;
    return 0;
}

static void debug_check(astar *a)
{
    int r = pos_check(&a->pos);
    if (r)
        die("internal error: position check failed (code %d)", r);
}

/* Debug: the reachability r (normalized square norm) of the position on
 * the board is its player's region (reach_check). */
static void check_reach(astar *a, const reach *r, sq_t norm)
{
    int code = r->norm == norm ? reach_check(r, &a->pos, a->pos.player) : 6;
    if (code)
        die("internal error: incremental reachability is wrong (reach_check code %d)", code);
}

static int expand(astar *a, uint32_t n, int depth);

/* Every 256 expansions (stale open entries count too), the time, node,
 * interrupt limits and the progress report. Called from the main loop and
 * from depth-first extensions, which can chain many expansions inside one
 * expansion of the main loop. Returns 1 and sets a->stop when a limit is hit. */
static int limits_hit(astar *a)
{
    if (search_deadline_passed(a->lim, &a->dpoll)) {
        a->stop = STOP_TIME;
        return 1;
    }
    if (a->checks < 256)
        return 0;
    a->checks = 0;
    if (dl_charge(&a->dl, a->mem) != 0) {
        a->stop = STOP_MEMORY;
        return 1;
    }
    a->st->mem_bytes = a->mem->peak;
    stop_reason sr = search_check_limits(a->lim, a->st, &a->next_progress);
    if (sr == STOP_NONE)
        return 0;
    a->stop = sr;
    return 1;
}

/* Corral analysis of the position on the board (its reachable squares in
 * a->reach[depth]), before it is stored, so dead positions take no memory.
 * Returns -1 for a corral deadlock (a PI-corral with no legal push, or one
 * whose boxes alone are proven stuck by a deadlock search), 1 when the
 * position has a live PI-corral, 0 when it has none. */
static int corral_check(astar *a, int depth)
{
    const position *p = &a->pos;
    int pruned = corral_prune(&a->dl.cc, p, &a->reach[depth], a->allow[depth]);
    if (pruned == 0) {
        a->st->corral_deadlocks++;
        return -1;
    }
    if (pruned < 0)
        return 0;
    if (a->cfg->dl.deadlock_search <= 0)
        return 1;
    if (!subset_corral_dead(&a->dl.sub, &a->dl.cc, p, a->st))
        return 1;
    if (a->dl.stk.b)
        stuck_add(&a->dl.stk, &a->dl.sub, a->dl.sub.kept, a->dl.sub.nkept, p->player, a->st);
    return -1;
}

/* The bound of the child of the position at `depth` in which box i went
 * to `to`, into a->sols[depth + 1]; LB_INF (counted) when no perfect
 * matching exists. */
static int64_t child_bound(astar *a, int depth, int i, sq_t to)
{
    lb_copy(&a->sols[depth + 1], &a->sols[depth], a->b->nboxes);
    int64_t h = lb_move(&a->lb, &a->sols[depth + 1], i, to);
    if (h == LB_INF)
        a->st->cut_bipartite++;
    return h;
}

/* Makes the child of node n (on the board, expanded at `depth`) in which
 * box i goes from `from` to `to` with `pushes` pushes, the last one in
 * direction `dir`: deadlock checks, transposition table, bound, then the
 * open list or a depth-first extension. The board is as before on return.
 * Returns 1 when the search must stop (goal found or a limit hit). */
static int make_child(astar *a, uint32_t n, int depth, int i, sq_t from, sq_t to, int dir,
                      uint32_t pushes)
{
    const board *b = a->b;
    position *p = &a->pos;
    uint32_t ng = node_g(nodes_at(&a->ns, n)) + pushes;
    if (ng > NODE_MAX_G)
        return 0;
    undo_rec u;
    pos_relocate(p, from, to, b->nb[to][DIR_OPP(dir)], &u);
    if (a->cfg->check)
        debug_check(a);
    if (dl_push_dead(&a->dl, p, from, to, a->st)) {
        pos_undo(p, &u);
        return 0;
    }
    /* Under a known solution's bound the child's bound comes first: it
     * needs only the boxes, and a child it cuts (every solution through it
     * has at least cfg->bound pushes, whatever path reached it) costs no
     * player region and no table lookup (on XSokoban 8 the bound cuts one
     * push generated in thirteen). Without a bound duplicates are found
     * first, as they cost no matching. */
    int64_t h64 = -1;
    if (a->cfg->bound) {
        h64 = child_bound(a, depth, i, to);
        int cut = h64 == LB_INF;
        if (!cut && (uint64_t)ng + (uint64_t)h64 >= a->cfg->bound) {
            a->st->cut_bound++;
            cut = 1;
        }
        if (cut) {
            pos_undo(p, &u);
            return 0;
        }
    }
    sq_t norm;
    if (pushes == 1 && to == b->nb[from][dir] && a->cfg->reach_reuse) {
        int fresh;
        norm = reach_after_push(&a->reach[depth + 1], &a->reach[depth], p, from, to, &fresh);
        if (fresh)
            a->st->reach_calls++;
        else
            a->st->reach_reused++;
        if (a->cfg->check)
            check_reach(a, &a->reach[depth + 1], norm);
    } else {
        norm = reach_compute(&a->reach[depth + 1], p, p->player);
        a->st->reach_calls++;
    }
    uint64_t hash = p->hash ^ b->zplayer[norm];
    uint32_t ex = nodes_find(&a->ns, hash);
    if (ex != NODE_NONE) {
        node *e = nodes_at(&a->ns, ex);
        if (ng < node_g(e)) {
            /* A shorter path to a stored position. Open: requeue it.
             * Closed: in fast mode adopt the shorter path without
             * expanding again; in optimal mode open it again. The bound
             * is admissible but not always consistent (a lone box's
             * distance is the best over the player's sides, and a push
             * can leave the player on the worse side), so a closed node
             * can be reached again more cheaply, and then its subtree
             * must be searched again for the proof to hold. */
            int closed = node_closed(e);
            if (closed && a->cfg->optimal) {
                node_reopen(e);
                closed = 0;
            }
            node_set_g(e, ng);
            e->parent = n;
            node_set_move(e, from, to, (uint32_t)dir);
            a->st->reopened++;
            if (!closed && queue_node(a, ex, ng, node_h(e)) != 0) {
                a->stop = STOP_MEMORY;
                pos_undo(p, &u);
                return 1;
            }
        } else {
            a->st->duplicates++;
        }
        pos_undo(p, &u);
        return 0;
    }
    if (h64 < 0 && (h64 = child_bound(a, depth, i, to)) == LB_INF) {
        pos_undo(p, &u);
        return 0;
    }
    if (a->cfg->dl.fixed && b->is_goal[to] && fixed_deadlock(&a->dl.fx, p)) {
        a->st->cut_fixed++;
        pos_undo(p, &u);
        return 0;
    }
    if (a->dl.stk.b && stuck_match(&a->dl.stk, p)) {
        a->st->cut_stuck++;
        pos_undo(p, &u);
        return 0;
    }
    if (a->dl.loc.b && subset_local_dead(&a->dl.loc, p, to, ASTAR_LOCAL_RADIUS, a->st)) {
        if (a->dl.stk.b)
            stuck_add(&a->dl.stk, &a->dl.loc, a->dl.loc.kept, a->dl.loc.nkept, p->player, a->st);
        pos_undo(p, &u);
        return 0;
    }
    int pic = 0;
    if (a->cfg->dl.corrals && (pic = corral_check(a, depth + 1)) < 0) {
        pos_undo(p, &u);
        return 0;
    }
    uint32_t h = h64 > NODE_MAX_H ? NODE_MAX_H : (uint32_t)h64;
    uint32_t child = nodes_add(&a->ns, hash, n, from, to, (uint32_t)dir, ng, h);
    if (child == NODE_NONE) {
        a->stop = STOP_MEMORY;
        pos_undo(p, &u);
        return 1;
    }
    if (a->cfg->dl.corrals && !pic)
        node_set_nopic(nodes_at(&a->ns, child));
    a->st->nodes++;
    if (ng > a->st->max_depth)
        a->st->max_depth = ng;
    uint32_t f = f_of(a, a->cq, ng, h);
    if (h == 0 && board_end_ok(b, &a->reach[depth + 1]) &&
        (!a->cfg->optimal || (f == a->fmin && ol_min_f(&a->open[0]) >= f))) {
        /* Solved. In optimal mode only when no open node can be shorter:
         * every open f is at least f (the bound is not always consistent,
         * so a child may have been queued below fmin); otherwise the goal
         * is queued and accepted when it is popped. */
        a->goal = child;
        pos_undo(p, &u);
        return 1;
    }
    if (a->cfg->dfs_ext && f == a->fmin && depth + 1 < MAX_EXT_DEPTH && h != 0 &&
        (a->budget == 0 || a->st->nodes < a->budget)) {
        a->st->dfs_extensions++;
        pstack_push(&a->path, child, &u);
        int stop = expand(a, child, depth + 1);
        pstack_pop(&a->path, &a->pos); /* undoes the move */
        return stop;
    }
    if (queue_node(a, child, ng, h) != 0) {
        a->stop = STOP_MEMORY;
        pos_undo(p, &u);
        return 1;
    }
    pos_undo(p, &u);
    return 0;
}

/* Packing macros (fast mode): for each goal room, bring a box to the next
 * goal of the room's packing order in one move, the fewest pushes it takes
 * with the other boxes standing still; the boxes nearest that goal are
 * tried. The macros are extra children: the node's ordinary pushes are
 * generated too (later: see expand), so nothing is lost when the plan is
 * wrong. Returns 1 when the search must stop; *made counts the macros. */
static int packing_macros(astar *a, uint32_t n, int depth, int *made)
{
    const board *b = a->b;
    position *p = &a->pos;
    const packing *pk = &a->pk;
    int *next = a->room_next; /* per room: index of its first empty goal */
    for (int r = 0; r < pk->nrooms; r++)
        next[r] = pk->n;
    for (int k = pk->n - 1; k >= 0; k--)
        if (p->box_at[pk->order[k]] == NO_BOX)
            next[pk->room[k]] = k;
    for (int r = 0; r < pk->nrooms; r++) {
        if (next[r] == pk->n)
            continue;
        sq_t goal = pk->order[next[r]];
        const uint16_t *dist = b->goal_dist + (size_t)a->goal_index[goal] * (size_t)b->nsq;
        /* the nearest boxes not settled on an earlier goal of a room */
        int cand[PACK_CANDIDATES], nc = 0;
        for (int i = 0; i < b->nboxes; i++) {
            sq_t s = p->boxes[i];
            if (dist[s] == DIST_INF)
                continue;
            int rk = a->rank[s];
            if (rk && rk - 1 < next[pk->room[rk - 1]])
                continue;
            int at = nc < PACK_CANDIDATES ? nc++ : PACK_CANDIDATES;
            while (at > 0 && dist[p->boxes[cand[at - 1]]] > dist[s]) {
                if (at < PACK_CANDIDATES)
                    cand[at] = cand[at - 1];
                at--;
            }
            if (at < PACK_CANDIDATES)
                cand[at] = i;
        }
        for (int c = 0; c < nc; c++) {
            int i = cand[c];
            sq_t from = p->boxes[i];
            int pushes = boxpath_search(&a->bp, p, from, goal, a->dirs, dist[from] + PACK_DETOUR);
            if (pushes <= 1)
                continue; /* a single push is generated anyway */
            a->st->packing_macros++;
            (*made)++;
            if (make_child(a, n, depth, i, from, goal, a->dirs[pushes - 1], (uint32_t)pushes))
                return 1;
            break;
        }
    }
    return 0;
}

/* Returns 1 when the search must stop (goal found or a limit hit). The
 * position of node n is on the board, a->reach[depth] holds its reachable
 * squares and a->sols[depth] its bound. */
static int expand(astar *a, uint32_t n, int depth)
{
    const board *b = a->b;
    position *p = &a->pos;
    reach *r = &a->reach[depth];
    node_close(nodes_at(&a->ns, n));
    a->st->expanded++;
    a->checks++;
    if (depth > 0 && limits_hit(a))
        return 1;

    uint8_t *allow = a->allow[depth];
    int pruned = -1;
    if (a->cfg->dl.corrals && !node_nopic(nodes_at(&a->ns, n))) {
        pruned = corral_prune(&a->dl.cc, p, r, allow);
        if (pruned == 0) {
            a->st->corral_deadlocks++;
            return 0;
        }
        if (pruned > 0)
            a->st->corrals++;
    }
    if (a->pk.n) {
        /* Goal cut, deferred: when a packing macro exists, make only it now
         * and put this node back in the open list with a worse f; its
         * ordinary pushes are generated if the search comes back to it. */
        if (u32map_get(&a->deferred, n) != U32MAP_NONE) {
            u32map_del(&a->deferred, n);
        } else if (pruned < 0) {
            int made = 0;
            if (packing_macros(a, n, depth, &made))
                return 1;
            if (made) {
                node *nd = nodes_at(&a->ns, n);
                uint32_t h = MIN(node_h(nd) + a->packing_defer, NODE_MAX_H);
                node_set_h(nd, h);
                node_reopen(nd);
                u32map_put(&a->deferred, n, 1);
                if (queue_node(a, n, node_g(nd), h) != 0) {
                    a->stop = STOP_MEMORY;
                    return 1;
                }
                return 0;
            }
        }
    }
    for (int i = 0; i < b->nboxes; i++) {
        sq_t from = p->boxes[i];
        if (!reach_box(r, from))
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t behind = b->nb[from][DIR_OPP(d)];
            if (behind == SQ_NONE || !reach_floor(r, behind))
                continue;
            sq_t to = b->nb[from][d];
            if (to == SQ_NONE || p->box_at[to] != NO_BOX)
                continue;
            a->st->generated++;
            if (b->dead[to] && (a->cfg->dead_squares || pruned > 0)) {
                a->st->cut_dead++;
                continue;
            }
            if (pruned > 0 && !(allow[i] & (1u << d))) {
                a->st->cut_corral++;
                continue;
            }
            int len = 1;
            if (a->cfg->tunnels) {
                len = tunnel_length(b, p, from, d);
                if (len == 0) {
                    a->st->cut_tunnel++;
                    continue;
                }
                if (len > 1) {
                    a->st->tunnel_macros++;
                    for (int k = 1; k < len; k++)
                        to = b->nb[to][d];
                }
            }
            if (make_child(a, n, depth, i, from, to, d, (uint32_t)len))
                return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- driver */

astar *astar_begin(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                   search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "astar";
    astar *a = xcalloc(1, sizeof *a);
    a->b = b;
    a->cfg = cfg;
    a->lim = lim;
    a->mem = mem;
    a->st = &out->st;
    a->out = out;
    a->nq = 1;
    a->weight[0] = cfg->optimal ? 1 : MAX(1, cfg->weight);
    if (!cfg->optimal && cfg->weight2 > 0) {
        a->nq = 2;
        a->weight[1] = cfg->weight2;
    }
    a->goal = NODE_NONE;
    pos_init(&a->pos, b);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++) {
        reach_init(&a->reach[d], b->nsq);
        lb_sol_init(&a->sols[d], b->nboxes);
    }
    /* capsets off: their test needs the sets counted on the parent, which
     * A* does not do */
    dl_config dc = cfg->dl;
    dc.capsets = 0;
    dl_init(&a->dl, b, &dc, &(dl_sizes){ASTAR_LOCAL_LIMIT, ASTAR_LOCAL_MAX_BOXES});
    a->rank = xcalloc((size_t)b->nsq, 1);
    a->goal_index = xcalloc((size_t)b->nsq, sizeof(uint16_t));
    for (int j = 0; j < b->nboxes; j++)
        a->goal_index[b->goals[j]] = (uint16_t)j;
    a->pk.n = 0;
    a->pk.order = NULL;
    if (!cfg->optimal && cfg->packing) {
        packing_compute(&a->pk, b, lim->deadline_ns);
        for (int k = 0; k < a->pk.n && k < 255; k++)
            a->rank[a->pk.order[k]] = (uint8_t)(k + 1);
        if (a->pk.n > 255)
            a->pk.n = 255; /* ranks fit a byte; later goals get no macro */
    }
    a->room_next = xmalloc(sizeof(int) * (size_t)(a->pk.nrooms + 1));
    boxpath_init(&a->bp, b->nsq);
    a->dirs = xmalloc((size_t)b->nsq * 4 + 1);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++)
        a->allow[d] = xcalloc((size_t)b->nboxes, 1);
    pstack_init(&a->path);
    u32map_init(&a->deferred, 1024);
    ol_init(&a->open[0], mem);
    ol_init(&a->open[1], mem);
    a->next_progress = search_first_progress(lim);

    int ok = dl_charge(&a->dl, mem) == 0 && nodes_init(&a->ns, mem) == 0 &&
             lb_init(&a->lb, b, cfg->matching, mem) == 0;
    if (!ok) {
        out->stop = STOP_MEMORY;
        a->finished = 1;
        return a;
    }
    /* The root. */
    {
        sq_t norm = reach_compute(&a->reach[0], &a->pos, a->pos.player);
        /* the root's matching: O(n^3), long on the biggest boards */
        int64_t h64 = lb_solve_by(&a->lb, &a->sols[0], a->pos.boxes, lim->deadline_ns);
        if (h64 == LB_STOPPED) {
            out->stop = STOP_TIME;
            a->finished = 1;
            return a;
        }
        int dead_start = 0;
        for (int i = 0; cfg->dead_squares && i < b->nboxes; i++)
            dead_start |= b->dead[a->pos.boxes[i]];
        if (h64 == LB_INF || dead_start || (cfg->bound && h64 >= cfg->bound)) {
            out->stop = STOP_EXHAUSTED;
            a->finished = 1;
        return a;
        }
        uint32_t h = h64 > NODE_MAX_H ? NODE_MAX_H : (uint32_t)h64;
        a->packing_defer = MAX(3u, h / 4);
        uint32_t root = nodes_add(&a->ns, a->pos.hash ^ b->zplayer[norm], NODE_NONE, 0, 0, 0, 0, h);
        if (root == NODE_NONE) {
            out->stop = STOP_MEMORY;
            a->finished = 1;
        return a;
        }
        out->st.nodes = 1;
        undo_rec none = {0, 0, 0, 0};
        pstack_push(&a->path, root, &none);
        if (pos_solved(&a->pos) && board_end_ok(b, &a->reach[0])) {
            a->goal = root;
            a->finished = 1;
        return a;
        }
        if (queue_node(a, root, 0, h) != 0) {
            out->stop = STOP_MEMORY;
            a->finished = 1;
        return a;
        }
    }
    return a;
}

int astar_step(astar *a, uint64_t node_budget)
{
    search_outcome *out = a->out;
    const astar_config *cfg = a->cfg;
    if (a->finished)
        return 1;
    a->budget = node_budget;
    for (;;) {
        if (node_budget && out->st.nodes >= node_budget)
            return 0;
        if (limits_hit(a))
            break;
        /* With two open lists, expansions alternate between them. */
        uint32_t n, f, h;
        int q = (int)(a->turn++ % (uint32_t)a->nq), got = -1;
        for (int k = 0; k < a->nq && got != 0; k++)
            if ((got = ol_pop(&a->open[(q + k) % a->nq], &n, &f, &h)) == 0)
                q = (q + k) % a->nq;
        if (got != 0) {
            a->stop = STOP_EXHAUSTED;
            break;
        }
        a->cq = q;
        node *nd = nodes_at(&a->ns, n);
        if (node_closed(nd) || node_h(nd) != h || f_of(a, q, node_g(nd), h) != f) {
            a->checks++; /* stale entry: count it towards the limit checks */
            continue;
        }
        out->st.setpos_steps += pstack_set(&a->path, &a->pos, &a->ns, n);
        if (cfg->check)
            debug_check(a);
        reach_compute(&a->reach[0], &a->pos, a->pos.player);
        out->st.reach_calls++;
        if (h == 0 && pos_solved(&a->pos) && board_end_ok(a->b, &a->reach[0])) {
            a->goal = n;
            break;
        }
        a->fmin = f;
        if (f > out->st.best_lower_bound)
            out->st.best_lower_bound = f;
        lb_solve(&a->lb, &a->sols[0], a->pos.boxes);
        if (expand(a, n, 0))
            break;
    }
    out->stop = a->stop;
    a->finished = 1;
    return 1;
}

void astar_end(astar *a)
{
    search_outcome *out = a->out;
    const astar_config *cfg = a->cfg;
    membudget *mem = a->mem;
    if (a->goal != NODE_NONE) {
        push_seq ps = {0};
        nodes_path(&a->ns, a->goal, &ps);
        out->pushes = ps;
        out->solved = 1;
        out->optimal = cfg->optimal;
        out->stop = STOP_NONE;
    }
    out->st.mem_bytes = mem->peak;
    ol_free(&a->open[0]);
    ol_free(&a->open[1]);
    nodes_free(&a->ns);
    if (a->lb.dist_t)
        lb_free(&a->lb);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++) {
        reach_free(&a->reach[d]);
        lb_sol_free(&a->sols[d]);
    }
    dl_uncharge(&a->dl, a->mem);
    dl_free(&a->dl);
    packing_free(&a->pk);
    free(a->rank);
    free(a->room_next);
    free(a->goal_index);
    boxpath_free(&a->bp);
    free(a->dirs);
    for (int d = 0; d < MAX_EXT_DEPTH + 2; d++)
        free(a->allow[d]);
    pstack_free(&a->path);
    u32map_free(&a->deferred);
    pos_free(&a->pos);
    free(a);
}

void astar_solve(const board *b, const astar_config *cfg, search_limits *lim, membudget *mem,
                 search_outcome *out)
{
    astar *a = astar_begin(b, cfg, lim, mem, out);
    astar_step(a, 0);
    astar_end(a);
}
