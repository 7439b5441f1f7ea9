/* moveopt.c: move-optimal A* over push states (see moveopt.h). */
#include "moveopt.h"
#include "states.h"
#include "../core/position.h"
#include "../core/reach.h"
#include "../deadlock/layer.h"
#include "../heuristic/lowerbound.h"
#include "../util/heap.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* A state's aux word: moves so far (bits 40-63), pushes so far (20-39),
 * its bound (4-19), closed (bit 0). */
#define G_MOVES_MAX 0xFFFFFFu
#define G_PUSHES_MAX 0xFFFFFu
#define H_MAX 0xFFFFu

static inline uint32_t aux_moves(uint64_t a) { return (uint32_t)(a >> 40); }
static inline uint32_t aux_pushes(uint64_t a) { return (uint32_t)(a >> 20) & G_PUSHES_MAX; }
static inline uint32_t aux_h(uint64_t a) { return (uint32_t)(a >> 4) & H_MAX; }
static inline int aux_closed(uint64_t a) { return (int)(a & 1); }
static inline uint64_t aux_make(uint32_t gm, uint32_t gp, uint32_t h, int closed)
{
    return (uint64_t)gm << 40 | (uint64_t)gp << 20 | (uint64_t)h << 4 | (uint64_t)(closed != 0);
}

/* The open list's key: f in moves (25 bits: g below 2^24, h below 2^16),
 * then f in pushes (21 bits), then the deeper state first (more moves
 * made; 18 bits, saturating: only the tie-break order changes). */
#define TIE_MAX 0x3FFFFu
static inline uint64_t key_of(uint64_t a)
{
    uint64_t fm = (uint64_t)aux_moves(a) + aux_h(a);
    uint64_t fp = (uint64_t)aux_pushes(a) + aux_h(a);
    return fm << 39 | fp << 18 | (uint64_t)(TIE_MAX - MIN(aux_moves(a), TIE_MAX));
}

void moveopt_solve(const board *b, const moveopt_config *cfg, search_limits *lim, membudget *mem,
                   search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "moveopt";
    int n = b->nboxes;
    states st;
    heap open = {0};
    lowerbound lb = {0};
    lb_sol sol0, sol1;
    lb_sol_init(&sol0, n);
    lb_sol_init(&sol1, n);
    position p;
    pos_init(&p, b);
    uint32_t *walk = xmalloc(sizeof(uint32_t) * (size_t)b->nsq); /* reach_walk's distances */
    reach r;
    reach_init(&r, b->nsq);
    int words = (b->nsq + 63) / 64;
    uint64_t *cur = xcalloc((size_t)words, sizeof(uint64_t));
    uint64_t *child = xcalloc((size_t)words, sizeof(uint64_t));
    sq_t *tmp = xmalloc(sizeof(sq_t) * (size_t)(n + 1));
    int64_t next_progress = search_first_progress(lim);
    uint32_t found = STATES_NONE;
    /* the detectors that need only the position after the push */
    dl_layer dl;
    dl_init(&dl, b, &(dl_config){.freeze = cfg->freeze, .fixed = cfg->fixed},
            &(dl_sizes){0, 0});
    int st_ok = states_init(&st, b->nsq, 1, mem) == 0;
    if (!st_ok || dl_charge(&dl, mem) != 0 || (cfg->bound && lb_init(&lb, b, 1, mem) != 0)) {
        out->stop = STOP_MEMORY;
        goto done;
    }

    /* the root */
    {
        for (int i = 0; i < n; i++)
            cur[p.boxes[i] >> 6] |= 1ULL << (p.boxes[i] & 63);
        int64_t h = cfg->bound ? lb_solve(&lb, &sol0, p.boxes) : 0;
        int dead = h == LB_INF;
        for (int i = 0; cfg->prune_dead && i < n; i++)
            dead |= b->dead[p.boxes[i]];
        if (dead) {
            out->stop = STOP_EXHAUSTED;
            goto done;
        }
        uint32_t hh = (uint32_t)MIN(h, (int64_t)H_MAX), slot = 0;
        uint32_t h32 = (uint32_t)(p.hash ^ b->zplayer[p.player]);
        states_find(&st, cur, p.player, h32, &slot);
        uint32_t root = states_add(&st, cur, p.player, h32, STATES_NONE, 0, slot);
        if (root == STATES_NONE) {
            out->stop = STOP_MEMORY;
            goto done;
        }
        *STATES_AT(&st, aux, root) = aux_make(0, 0, hh, 0);
        out->st.nodes = 1;
        if (heap_push(&open, mem, key_of(*STATES_AT(&st, aux, root)), root) != 0) {
            out->stop = STOP_MEMORY;
            goto done;
        }
    }

    for (uint64_t pops = 0;; pops++) {
        if ((pops & 255) == 0) {
            if (dl_charge(&dl, mem) != 0) {
                out->stop = STOP_MEMORY;
                goto done;
            }
            out->st.mem_bytes = mem->peak;
            stop_reason sr = search_check_limits(lim, &out->st, &next_progress);
            if (sr != STOP_NONE) {
                out->stop = sr;
                goto done;
            }
        }
        if (open.n == 0) {
            out->stop = STOP_EXHAUSTED;
            goto done;
        }
        heap_item it = heap_pop(&open);
        uint32_t i = it.val;
        uint64_t a = *STATES_AT(&st, aux, i);
        if (aux_closed(a) || key_of(a) != it.key)
            continue; /* stale: a better entry came or the state was expanded */
        *STATES_AT(&st, aux, i) = a | 1;
        uint32_t gm = aux_moves(a), gp = aux_pushes(a);
        uint32_t fm = gm + aux_h(a);
        if (fm > out->st.best_lower_bound)
            out->st.best_lower_bound = fm;
        memcpy(cur, states_bits(&st, i), sizeof(uint64_t) * (size_t)words);
        sq_t pl = *STATES_AT(&st, player, i);
        states_squares(cur, words, tmp);
        pos_set(&p, tmp, pl);
        if (pos_solved(&p)) {
            reach_compute(&r, &p, pl);
            if (board_end_ok(b, &r)) {
                found = i;
                out->st.best_lower_bound = gm;
                goto done;
            }
        }
        out->st.expanded++;
        if (cfg->bound)
            lb_solve(&lb, &sol0, p.boxes);
        uint32_t walked = reach_walk(&r, &p, pl, walk);
        for (int j = 0; j < n; j++) {
            sq_t from = p.boxes[j];
            for (int d = 0; d < 4; d++) {
                sq_t behind = b->nb[from][DIR_OPP(d)];
                if (behind == SQ_NONE || r.stamp[behind] != walked)
                    continue;
                sq_t to = b->nb[from][d];
                if (to == SQ_NONE || p.box_at[to] != NO_BOX)
                    continue;
                out->st.generated++;
                if (cfg->prune_dead && b->dead[to]) {
                    out->st.cut_dead++;
                    continue;
                }
                uint32_t cm = gm + walk[behind] + 1, cp = gp + 1;
                if (cm > G_MOVES_MAX || cp > G_PUSHES_MAX)
                    continue; /* beyond any level this search is for */
                undo_rec u;
                pos_push(&p, from, d, 1, &u);
                int dead = dl_push_dead(&dl, &p, from, to, &out->st) != DL_ALIVE;
                if (!dead && cfg->fixed && b->is_goal[to] && fixed_deadlock(&dl.fx, &p)) {
                    out->st.cut_fixed++;
                    dead = 1;
                }
                if (dead) {
                    pos_undo(&p, &u);
                    continue;
                }
                memcpy(child, cur, sizeof(uint64_t) * (size_t)words);
                child[from >> 6] &= ~(1ULL << (from & 63));
                child[to >> 6] |= 1ULL << (to & 63);
                uint32_t h32 = (uint32_t)(p.hash ^ b->zplayer[from]);
                pos_undo(&p, &u);
                uint32_t slot = 0, k = states_find(&st, child, from, h32, &slot);
                uint64_t ca;
                if (k != STATES_NONE) {
                    uint64_t ka = *STATES_AT(&st, aux, k);
                    uint32_t km = aux_moves(ka), kp = aux_pushes(ka);
                    if (cm > km || (cm == km && cp >= kp)) {
                        out->st.duplicates++;
                        continue;
                    }
                    /* a cheaper path: take it, and open the state again */
                    if (aux_closed(ka))
                        out->st.reopened++;
                    ca = aux_make(cm, cp, aux_h(ka), 0);
                    *STATES_AT(&st, aux, k) = ca;
                    *STATES_AT(&st, parent, k) = i;
                    *STATES_AT(&st, push, k) = (uint32_t)from << 2 | (uint32_t)d;
                } else {
                    /* the bound of a new state (a stored one's is known) */
                    int64_t h = 0;
                    if (cfg->bound) {
                        lb_copy(&sol1, &sol0, n);
                        h = lb_move(&lb, &sol1, j, to);
                        if (h == LB_INF) {
                            out->st.cut_bipartite++;
                            continue;
                        }
                    }
                    k = states_add(&st, child, from, h32, i, (uint32_t)from << 2 | (uint32_t)d, slot);
                    if (k == STATES_NONE) {
                        out->stop = STOP_MEMORY;
                        goto done;
                    }
                    out->st.nodes++;
                    ca = aux_make(cm, cp, (uint32_t)MIN(h, (int64_t)H_MAX), 0);
                    *STATES_AT(&st, aux, k) = ca;
                    if (cp > out->st.max_depth)
                        out->st.max_depth = cp;
                }
                if (heap_push(&open, mem, key_of(ca), k) != 0) {
                    out->stop = STOP_MEMORY;
                    goto done;
                }
            }
        }
    }

done:
    if (found != STATES_NONE) {
        push_seq ps = {0};
        states_path(&st, found, b, &ps);
        out->pushes = ps;
        out->solved = 1;
        out->optimal = 1;
        out->stop = STOP_NONE;
    }
    out->st.mem_bytes = mem->peak;
    dl_uncharge(&dl, mem);
    dl_free(&dl);
    heap_free(&open, mem);
    states_free(&st);
    if (lb.dist_t)
        lb_free(&lb);
    lb_sol_free(&sol0);
    lb_sol_free(&sol1);
    pos_free(&p);
    reach_free(&r);
    free(walk);
    free(cur);
    free(child);
    free(tmp);
}
