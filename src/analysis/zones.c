/* zones.c: the box zones of a board (see zones.h). */
#include "zones.h"

#include <stdlib.h>
#include <string.h>

int zones_find(const board *b, zones *z)
{
    memset(z, 0, sizeof *z);
    int nsq = b->nsq;
    z->of = malloc((size_t)nsq * sizeof *z->of);
    sq_t *stack = malloc((size_t)nsq * sizeof *stack);
    if (!z->of || !stack) {
        free(stack);
        zones_free(z);
        return -1;
    }
    for (int s = 0; s < nsq; s++)
        z->of[s] = -1;
    /* Flood the push graph's components; an edge joins s and n = nb[s][d]
     * when both are live and the player's square nb[s][d ^ 2] exists. An
     * edge is found from either end: from n, as the push back d ^ 2 needs
     * the square beyond n in direction d. */
    int n = 0;
    for (int s0 = 0; s0 < nsq; s0++) {
        if (b->dead[s0] || z->of[s0] >= 0)
            continue;
        int top = 0;
        stack[top++] = (sq_t)s0;
        z->of[s0] = (int16_t)n;
        while (top) {
            sq_t s = stack[--top];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[s][d];
                if (t == SQ_NONE || b->dead[t] || z->of[t] >= 0)
                    continue;
                /* s to t (player behind s) or t to s (player beyond t) */
                if (b->nb[s][DIR_OPP(d)] == SQ_NONE && b->nb[t][d] == SQ_NONE)
                    continue;
                z->of[t] = (int16_t)n;
                stack[top++] = t;
            }
        }
        n++;
    }
    free(stack);
    /* Every zone holds a goal: a live square's box reaches a goal along
     * pushes, every square on the way live, so along the zone's edges. */
    size_t nz = (size_t)(n ? n : 1);
    z->n = n;
    z->boxes = calloc(nz, sizeof *z->boxes);
    z->goals = calloc(nz, sizeof *z->goals);
    int *off = calloc(nz, sizeof *off); /* boxes off goals */
    if (!z->boxes || !z->goals || !off) {
        free(off);
        zones_free(z);
        return -1;
    }
    for (int i = 0; i < b->nboxes; i++) {
        sq_t s = b->start_boxes[i];
        if (z->of[s] >= 0) {
            z->boxes[z->of[s]]++;
            off[z->of[s]] += !b->is_goal[s];
        }
        z->goals[z->of[b->goals[i]]]++; /* a goal is live */
    }
    z->balanced = 1;
    for (int k = 0; k < n; k++) {
        z->balanced &= z->boxes[k] == z->goals[k];
        z->active += off[k] > 0;
    }
    free(off);
    return 0;
}

void zones_free(zones *z)
{
    free(z->of);
    free(z->boxes);
    free(z->goals);
    memset(z, 0, sizeof *z);
}
