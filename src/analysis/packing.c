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

void packing_compute(packing *pk, const board *b, int64_t deadline_ns)
{
    int n = b->nboxes;
    pk->n = 0;
    pk->nrooms = 0;
    pk->order = xmalloc(sizeof(sq_t) * (size_t)n);
    pk->room = xcalloc((size_t)n, 1);
    /* Order matters where goals are packed together: filled goals block
     * the way to the others. With goals mostly apart, keep no order. */
    int packed = 0;
    for (int j = 0; j < n; j++) {
        int any = 0;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[b->goals[j]][d];
            any |= t != SQ_NONE && b->is_goal[t];
        }
        packed += any;
    }
    if (n < 3 || 2 * packed < n)
        return;
    extract_ctx x;
    x.b = b;
    x.occ = xcalloc((size_t)b->nsq, 1);
    x.target = xcalloc((size_t)b->nsq, 1);
    x.visited = xmalloc((size_t)b->nsq * 4);
    x.region = xcalloc((size_t)b->nsq, sizeof(uint32_t));
    x.stamp = 0;
    x.queue = xmalloc(sizeof(int32_t) * (size_t)b->nsq * 4);
    x.stack = xmalloc(sizeof(sq_t) * (size_t)b->nsq);
    int ntargets = 0;
    for (int i = 0; i < n; i++)
        if (!b->is_goal[b->start_boxes[i]]) {
            x.target[b->start_boxes[i]] = 1;
            ntargets++;
        }
    /* key: pushes from the nearest start square to the goal, ignoring boxes */
    uint32_t *key = xmalloc(sizeof(uint32_t) * (size_t)n);
    int *rem = xmalloc(sizeof(int) * (size_t)n);
    for (int j = 0; j < n; j++) {
        uint32_t best = UINT32_MAX;
        for (int i = 0; i < n; i++) {
            sq_t s = b->start_boxes[i];
            uint16_t d = b->goal_dist[(size_t)j * (size_t)b->nsq + s];
            if (x.target[s] && d < best)
                best = d;
        }
        key[j] = best;
        rem[j] = j;
        x.occ[b->goals[j]] = 1;
    }
    /* sort goals by key (insertion sort: n is small), ties by square */
    for (int i = 1; i < n; i++) {
        int v = rem[i], k = i;
        while (k > 0 && (key[rem[k - 1]] > key[v] ||
                         (key[rem[k - 1]] == key[v] && rem[k - 1] > v))) {
            rem[k] = rem[k - 1];
            k--;
        }
        rem[k] = v;
    }
    int nrem = n, ok = ntargets > 0;
    sq_t *rev = xmalloc(sizeof(sq_t) * (size_t)n);
    int nrev = 0;
    while (ok && nrem > 0) {
        if (deadline_ns && timer_now_ns() > deadline_ns) {
            ok = 0;
            break;
        }
        int pick = -1;
        for (int i = 0; i < nrem && pick < 0; i++) {
            sq_t g = b->goals[rem[i]];
            x.occ[g] = 0;
            if (extractable(&x, g))
                pick = i;
            else
                x.occ[g] = 1;
        }
        if (pick < 0) {
            ok = 0;
            break;
        }
        rev[nrev++] = b->goals[rem[pick]];
        memmove(&rem[pick], &rem[pick + 1], sizeof(int) * (size_t)(nrem - pick - 1));
        nrem--;
    }
    if (ok) {
        for (int i = 0; i < nrev; i++)
            pk->order[i] = rev[nrev - 1 - i];
        pk->n = nrev;
        /* rooms: connected groups of goal squares (at most 255 numbered) */
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
    free(rev);
    free(key);
    free(rem);
    free(x.occ);
    free(x.target);
    free(x.visited);
    free(x.region);
    free(x.queue);
    free(x.stack);
}

void packing_free(packing *pk)
{
    free(pk->order);
    free(pk->room);
    pk->order = NULL;
    pk->room = NULL;
    pk->n = 0;
}
