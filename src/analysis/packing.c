/* packing.c: packing order by backward extraction (see packing.h). */
#include "packing.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct extract_ctx {
    const board *b;
    uint8_t *occ;      /* [nsq] a goal box stands here */
    uint8_t *target;   /* [nsq] a box starts here (and it is no goal) */
    uint8_t *visited;  /* [nsq * 4] state (box square, player side) seen */
    uint32_t *region;  /* [nsq] flood stamps */
    uint32_t stamp;
    int32_t *queue;    /* [nsq * 4] states */
    sq_t *stack;       /* [nsq] flood */
} extract_ctx;

/* Marks the player's region from `from`, boxes on occ[] and on `box`. */
static void flood(extract_ctx *x, sq_t from, sq_t box)
{
    const board *b = x->b;
    uint32_t st = ++x->stamp;
    int sp = 0;
    x->region[from] = st;
    x->stack[sp++] = from;
    while (sp > 0) {
        sq_t s = x->stack[--sp];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE || t == box || x->occ[t] || x->region[t] == st)
                continue;
            x->region[t] = st;
            x->stack[sp++] = t;
        }
    }
}

/* Whether the box on goal g can be pulled to a target square, the player
 * starting next to it, the other occupied goals standing still. */
static int extractable(extract_ctx *x, sq_t g)
{
    const board *b = x->b;
    int n4 = b->nsq * 4;
    memset(x->visited, 0, (size_t)n4);
    int head = 0, tail = 0;
    for (int d = 0; d < 4; d++) {
        sq_t q = b->nb[g][d];
        if (q != SQ_NONE && !x->occ[q]) {
            x->visited[g * 4 + d] = 1;
            x->queue[tail++] = g * 4 + d;
        }
    }
    while (head < tail) {
        int st = x->queue[head++];
        sq_t box = (sq_t)(st / 4);
        flood(x, b->nb[box][st % 4], box);
        for (int e = 0; e < 4; e++) {
            sq_t q = b->nb[box][e];
            if (q == SQ_NONE || x->region[q] != x->stamp)
                continue;
            sq_t qq = b->nb[q][e];
            if (qq == SQ_NONE || x->region[qq] != x->stamp)
                continue;
            /* pull: the box goes to q, the player to qq (side e of q) */
            if (x->target[q])
                return 1;
            int ns = q * 4 + e;
            if (!x->visited[ns]) {
                x->visited[ns] = 1;
                x->queue[tail++] = ns;
            }
        }
    }
    return 0;
}

/* Whether the goals are packed together enough for their order to matter:
 * filled goals block the way to the others. With goals mostly apart (or
 * fewer than three), keep no order. */
static int goals_packed(const board *b)
{
    int n = b->nboxes;
    int packed = 0;
    for (int j = 0; j < n; j++) {
        int any = 0;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[b->goals[j]][d];
            any |= t != SQ_NONE && b->is_goal[t];
        }
        packed += any;
    }
    return !(n < 3 || 2 * packed < n);
}

/* Sets up x for b: the targets are the start squares that are no goals,
 * every goal occupied. Returns the number of targets. */
static int ctx_init(extract_ctx *x, const board *b)
{
    x->b = b;
    x->occ = xcalloc((size_t)b->nsq, 1);
    x->target = xcalloc((size_t)b->nsq, 1);
    x->visited = xmalloc((size_t)b->nsq * 4);
    x->region = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    x->stamp = 0;
    x->queue = xmalloc(sizeof(int32_t) * (size_t)b->nsq * 4);
    x->stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    int ntargets = 0;
    for (int i = 0; i < b->nboxes; i++)
        if (!b->is_goal[b->start_boxes[i]]) {
            x->target[b->start_boxes[i]] = 1;
            ntargets++;
        }
    for (int j = 0; j < b->nboxes; j++)
        x->occ[b->goals[j]] = 1;
    return ntargets;
}

static void ctx_free(extract_ctx *x)
{
    free(x->occ);
    free(x->target);
    free(x->visited);
    free(x->region);
    free(x->queue);
    free(x->stack);
}

/* Fills rem with the goal indices in the order extraction tries them: by
 * pushes from the nearest target to the goal, ignoring boxes, ties by
 * index. */
static void sort_goals(const extract_ctx *x, int *rem)
{
    const board *b = x->b;
    int n = b->nboxes;
    uint32_t *key = xmalloc(sizeof(uint32_t) * (size_t)n);
    for (int j = 0; j < n; j++) {
        uint32_t best = UINT32_MAX;
        for (int i = 0; i < n; i++) {
            sq_t s = b->start_boxes[i];
            uint16_t d = b->goal_dist[(size_t)j * (size_t)b->nsq + s];
            if (x->target[s] && d < best)
                best = d;
        }
        key[j] = best;
        rem[j] = j;
    }
    /* insertion sort: n is small */
    for (int i = 1; i < n; i++) {
        int v = rem[i], k = i;
        while (k > 0 && (key[rem[k - 1]] > key[v] ||
                         (key[rem[k - 1]] == key[v] && rem[k - 1] > v))) {
            rem[k] = rem[k - 1];
            k--;
        }
        rem[k] = v;
    }
    free(key);
}

/* Extracts the goal boxes one by one, each time the first goal of rem
 * (emptied as it goes) whose box can be pulled out, into rev. Returns
 * how many, or -1 when some box cannot be or the deadline passes. */
static int extract_all(extract_ctx *x, int *rem, sq_t *rev, int64_t deadline_ns)
{
    const board *b = x->b;
    int nrem = b->nboxes, nrev = 0;
    while (nrem > 0) {
        if (deadline_ns && timer_now_ns() > deadline_ns)
            return -1;
        int pick = -1;
        for (int i = 0; i < nrem && pick < 0; i++) {
            sq_t g = b->goals[rem[i]];
            x->occ[g] = 0;
            if (extractable(x, g))
                pick = i;
            else
                x->occ[g] = 1;
        }
        if (pick < 0)
            return -1;
        rev[nrev++] = b->goals[rem[pick]];
        memmove(&rem[pick], &rem[pick + 1], sizeof(int) * (size_t)(nrem - pick - 1));
        nrem--;
    }
    return nrev;
}

/* Numbers the rooms, connected groups of goal squares, in the packing
 * order (at most 255; goals beyond them get room 0) into pk->room. */
static void number_rooms(packing *pk, const board *b)
{
    int n = b->nboxes;
    uint8_t *room_of = xcalloc((size_t)b->nsq, 1);
    sq_t *stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    for (int i = 0; i < n; i++) {
        sq_t g = pk->order[i];
        if (room_of[g])
            continue;
        if (pk->nrooms == 255)
            break;
        uint8_t id = (uint8_t)++pk->nrooms;
        int sp = 0;
        room_of[g] = id;
        stack[sp++] = g;
        while (sp > 0) {
            sq_t s = stack[--sp];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[s][d];
                if (t != SQ_NONE && b->is_goal[t] && !room_of[t]) {
                    room_of[t] = id;
                    stack[sp++] = t;
                }
            }
        }
    }
    for (int i = 0; i < n; i++)
        pk->room[i] = room_of[pk->order[i]] ? (uint8_t)(room_of[pk->order[i]] - 1) : 0;
    free(room_of);
    free(stack);
}

void packing_compute(packing *pk, const board *b, int64_t deadline_ns)
{
    int n = b->nboxes;
    pk->n = 0;
    pk->nrooms = 0;
    pk->order = xmalloc(sizeof(sq_t) * (size_t)n);
    pk->room = xcalloc((size_t)n, 1);
    if (!goals_packed(b))
        return;
    extract_ctx x;
    int ntargets = ctx_init(&x, b);
    int *rem = xmalloc(sizeof(int) * (size_t)n);
    sort_goals(&x, rem);
    sq_t *rev = xmalloc(sizeof(sq_t) * (size_t)n);
    int nrev = ntargets > 0 ? extract_all(&x, rem, rev, deadline_ns) : -1;
    if (nrev >= 0) {
        /* extracted last, packed first */
        for (int i = 0; i < nrev; i++)
            pk->order[i] = rev[nrev - 1 - i];
        pk->n = nrev;
        number_rooms(pk, b);
    }
    free(rev);
    free(rem);
    ctx_free(&x);
}

void packing_free(packing *pk)
{
    free(pk->order);
    free(pk->room);
    pk->order = NULL;
    pk->room = NULL;
    pk->n = 0;
}
