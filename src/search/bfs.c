/* bfs.c: exhaustive breadth-first search over pushes (the reference).
 *
 * States are appended in breadth-first order, so the state store
 * (states.h: the box bitset, the normalized player, the parent and the push
 * that led to it) is also the FIFO queue. */
#include "bfs.h"
#include "states.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* Whether the search ends at p (r: the player's region in p). */
static int bfs_goal(const bfs_config *cfg, const position *p, const reach *r)
{
    return cfg->goal ? cfg->goal(p, r, cfg->goal_arg) : pos_solved(p);
}

static void set_from_bits(position *p, const uint64_t *bits, int words, sq_t player, sq_t *tmp)
{
    states_squares(bits, words, tmp);
    pos_set(p, tmp, player);
}

/* The search proper, from position `start`. Returns the index of a solved
 * state, or UINT32_MAX with out->stop set. */
static void bfs_run(const board *b, const position *start, const bfs_config *cfg,
                    search_limits *lim, membudget *mem, search_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = "bfs";
    states st;
    int st_ok = states_init(&st, b->nsq, 0, mem) == 0;
    position p;
    pos_init(&p, b);
    pos_copy(&p, start);
    reach r0, r1;
    reach_init(&r0, b->nsq);
    reach_init(&r1, b->nsq);
    uint64_t *cur = xcalloc((size_t)st.words, sizeof(uint64_t));
    uint64_t *child = xcalloc((size_t)st.words, sizeof(uint64_t));
    sq_t *tmp = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    int64_t next_progress = search_first_progress(lim);
    uint32_t found = UINT32_MAX;

    if (!st_ok) {
        out->stop = STOP_MEMORY;
        goto done;
    }
    for (int i = 0; i < b->nboxes; i++)
        cur[p.boxes[i] >> 6] |= 1ULL << (p.boxes[i] & 63);
    {
        sq_t norm = reach_compute(&r0, &p, p.player);
        uint32_t h = (uint32_t)(p.hash ^ b->zplayer[norm]);
        uint32_t slot = 0;
        states_find(&st, cur, norm, h, &slot);
        if (states_add(&st, cur, norm, h, STATES_NONE, 0, slot) == STATES_NONE) {
            out->stop = STOP_MEMORY;
            goto done;
        }
        out->st.nodes = 1;
        if (bfs_goal(cfg, &p, &r0)) {
            found = 0;
            goto done;
        }
    }
    for (uint32_t i = 0; i < st.count; i++) {
        if ((i & 255) == 0) {
            out->st.mem_bytes = mem->peak;
            stop_reason sr = search_check_limits(lim, &out->st, &next_progress);
            if (sr != STOP_NONE) {
                out->stop = sr;
                goto done;
            }
        }
        memcpy(cur, states_bits(&st, i), sizeof(uint64_t) * (size_t)st.words);
        sq_t pl = *STATES_AT(&st, player, i);
        set_from_bits(&p, cur, st.words, pl, tmp);
        reach_compute(&r0, &p, pl);
        out->st.reach_calls++;
        out->st.expanded++;
        for (int j = 0; j < b->nboxes; j++) {
            sq_t from = p.boxes[j];
            for (int d = 0; d < 4; d++) {
                sq_t behind = b->nb[from][DIR_OPP(d)];
                if (behind == SQ_NONE || !reach_floor(&r0, behind))
                    continue;
                sq_t to = b->nb[from][d];
                if (to == SQ_NONE || p.box_at[to] != NO_BOX)
                    continue;
                if (cfg->prune_dead && b->dead && b->dead[to]) {
                    out->st.cut_dead++;
                    continue;
                }
                out->st.generated++;
                undo_rec u;
                pos_push(&p, from, d, 1, &u);
                memcpy(child, cur, sizeof(uint64_t) * (size_t)st.words);
                child[from >> 6] &= ~(1ULL << (from & 63));
                child[to >> 6] |= 1ULL << (to & 63);
                sq_t norm = reach_compute(&r1, &p, from);
                out->st.reach_calls++;
                uint32_t h = (uint32_t)(p.hash ^ b->zplayer[norm]);
                uint32_t slot = 0;
                if (states_find(&st, child, norm, h, &slot) != STATES_NONE) {
                    out->st.duplicates++;
                    pos_undo(&p, &u);
                    continue;
                }
                uint32_t k = states_add(&st, child, norm, h, i, (uint32_t)from << 2 | (uint32_t)d, slot);
                if (k == STATES_NONE) {
                    out->stop = STOP_MEMORY;
                    goto done;
                }
                out->st.nodes++;
                if (bfs_goal(cfg, &p, &r1)) {
                    found = k;
                    goto done;
                }
                pos_undo(&p, &u);
            }
        }
    }
    out->stop = STOP_EXHAUSTED;

done:
    if (found != UINT32_MAX) {
        push_seq ps = {0};
        int n = states_path(&st, found, b, &ps);
        out->pushes = ps;
        out->solved = 1;
        out->optimal = 1;
        out->stop = STOP_NONE;
        out->st.max_depth = (uint64_t)n;
    }
    out->st.mem_bytes = mem->peak;
    states_free(&st);
    free(cur);
    free(child);
    free(tmp);
    reach_free(&r0);
    reach_free(&r1);
    pos_free(&p);
}

void bfs_solve(const board *b, const bfs_config *cfg, search_limits *lim, membudget *mem,
               search_outcome *out)
{
    position p;
    pos_init(&p, b);
    bfs_run(b, &p, cfg, lim, mem, out);
    pos_free(&p);
}

int bfs_solvable(const board *b, const position *p, search_limits *lim, membudget *mem,
                 long *pushes_out)
{
    bfs_config cfg = {0};
    search_outcome out;
    bfs_run(b, p, &cfg, lim, mem, &out);
    int r = out.solved ? 1 : out.stop == STOP_EXHAUSTED ? 0 : -1;
    if (pushes_out)
        *pushes_out = out.solved ? push_seq_pushes(&out.pushes) : -1;
    push_seq_free(&out.pushes);
    return r;
}
