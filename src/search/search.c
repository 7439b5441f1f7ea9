/* search.c: shared pieces of the search strategies. */
#include "search.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *stop_reason_text(stop_reason r)
{
    switch (r) {
    case STOP_NONE: return "";
    case STOP_TIME: return "time limit";
    case STOP_MEMORY: return "memory limit";
    case STOP_NODES: return "node limit";
    case STOP_INTERRUPT: return "interrupted";
    case STOP_EXHAUSTED: return "no solution";
    case STOP_HALTED: return "stopped";
    case STOP_GAVE_UP: return "gave up";
    }
    return "?";
}

void push_seq_add(push_seq *ps, sq_t from, sq_t to, int dir, uint32_t pushes)
{
    push_step *st = vec_push(&ps->v, &ps->n, &ps->cap, sizeof(push_step));
    st->from = from;
    st->to = to;
    st->dir = (uint8_t)dir;
    st->pushes = pushes;
}

void push_seq_free(push_seq *ps)
{
    free(ps->v);
    ps->v = NULL;
    ps->n = ps->cap = 0;
}

long push_seq_pushes(const push_seq *ps)
{
    long n = 0;
    for (int i = 0; i < ps->n; i++)
        n += ps->v[i].pushes;
    return n;
}

stop_reason search_check_limits(search_limits *lim, const stats *st, int64_t *next_progress_ns)
{
    if (lim->interrupt && atomic_load_explicit(lim->interrupt, memory_order_relaxed))
        return STOP_INTERRUPT;
    if (lim->halt && atomic_load_explicit(lim->halt, memory_order_relaxed))
        return STOP_HALTED;
    if (lim->max_nodes && st->nodes >= lim->max_nodes)
        return STOP_NODES;
    int64_t now = timer_now_ns();
    if (lim->deadline_ns && now >= lim->deadline_ns)
        return STOP_TIME;
    if (lim->progress && next_progress_ns && now >= *next_progress_ns) {
        lim->progress(lim->progress_arg, st, (double)(now - lim->start_ns) / 1e9);
        *next_progress_ns = now + (int64_t)(lim->progress_every * 1e9);
    }
    return STOP_NONE;
}

int search_deadline_passed(const search_limits *lim, deadline_poll *dp)
{
    if (!lim->deadline_ns || ++dp->n < dp->every)
        return 0;
    dp->n = 0;
    int64_t now = timer_now_ns();
    int64_t gap = now - dp->last_ns;
    dp->last_ns = now;
    if (dp->every == 0)
        dp->every = 1;
    else if (gap < 500000 && dp->every < 4096)
        dp->every *= 2;
    else if (gap > 2000000 && dp->every > 1)
        dp->every /= 2;
    return now >= lim->deadline_ns;
}

void search_limits_start(search_limits *lim, double seconds)
{
    memset(lim, 0, sizeof *lim);
    lim->start_ns = timer_now_ns();
    if (seconds > 0)
        lim->deadline_ns = lim->start_ns + (int64_t)(seconds * 1e9);
}

int64_t search_first_progress(const search_limits *lim)
{
    return lim->progress ? lim->start_ns + (int64_t)(lim->progress_every * 1e9) : 0;
}

void search_trace_position(const board *b, const sq_t *boxes, sq_t player)
{
    char *g = xmalloc((size_t)b->width * b->height);
    for (int c = 0; c < b->width * b->height; c++)
        g[c] = b->sq_of_cell[c] == SQ_NONE ? '#' : ' ';
    for (int i = 0; i < b->nboxes; i++)
        g[b->cell[boxes[i]]] = '$';
    for (int i = 0; i < b->nboxes; i++)
        g[b->cell[b->goals[i]]] = g[b->cell[b->goals[i]]] == '$' ? '*' : '.';
    g[b->cell[player]] = '@';
    for (int y = 0; y < b->height; y++)
        fprintf(stderr, "%.*s\n", b->width, g + y * b->width);
    fprintf(stderr, "\n");
    free(g);
}
