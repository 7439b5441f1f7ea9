/* plan.c: the plan a base search gives (see plan.h): its out-of-plan
 * zones, the steps done in a position, the boxes out of plan. */
#include "plan.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* The out-of-plan zones (see plan_oop). For m steps done, the walls are
 * the squares of the steps < m whose boxes stay; a lone box on a square
 * off the zone can be pushed (the player assumed able to get behind it
 * wherever that square is no wall) to the square of some step >= m. */
int plan_build_zones(plan *pl, const board *b)
{
    int n = pl->n, nsq = b->nsq;
    pl->zw = (nsq + 63) / 64;
    pl->zone = calloc((size_t)(n + 1) * (size_t)pl->zw, sizeof(uint64_t));
    uint8_t *wall = calloc((size_t)nsq, 1), *ok = malloc((size_t)nsq);
    sq_t *queue = malloc(sizeof(sq_t) * (size_t)nsq);
    size_t bytes = sizeof(uint64_t) * (size_t)pl->zw;
    uint64_t *prev = malloc(bytes), *cur = malloc(bytes);
    int rc = -1;
    if (!pl->zone || !wall || !ok || !queue || !prev || !cur)
        goto done;
    for (int m = 0; m <= n; m++) {
        if (m > 0 && pl->step[m - 1].until < 0)
            wall[pl->step[m - 1].sq] = 1;
        memset(ok, 0, (size_t)nsq);
        int head = 0, tail = 0;
        for (int k = m; k < n; k++) {
            sq_t t = pl->step[k].sq;
            if (!wall[t] && !ok[t]) {
                ok[t] = 1;
                queue[tail++] = t;
            }
        }
        /* backwards: a push from s to t = s + d needs s - d free of walls */
        while (head < tail) {
            sq_t t = queue[head++];
            for (int d = 0; d < 4; d++) {
                sq_t s = b->nb[t][DIR_OPP(d)];
                if (s == SQ_NONE || wall[s] || ok[s])
                    continue;
                sq_t behind = b->nb[s][DIR_OPP(d)];
                if (behind == SQ_NONE || wall[behind])
                    continue;
                ok[s] = 1;
                queue[tail++] = s;
            }
        }
        uint64_t *z = pl->zone + (size_t)m * pl->zw;
        for (int q = 0; q < nsq; q++)
            if (!ok[q] && !wall[q] && !b->dead[q])
                z[q / 64] |= 1ull << (q % 64);
    }
    /* One change early: each run of equal zones takes the zone of the
     * run after it (the last run keeps its own). Walking down, `prev`
     * holds the unchanged zone of step m + 1. */
    memcpy(prev, pl->zone + (size_t)n * pl->zw, bytes);
    for (int m = n - 1; m >= 0; m--) {
        uint64_t *z = pl->zone + (size_t)m * pl->zw;
        memcpy(cur, z, bytes);
        if (memcmp(cur, prev, bytes) != 0)
            memcpy(z, prev, bytes);
        else
            memcpy(z, z + pl->zw, bytes);
        memcpy(prev, cur, bytes);
    }
    rc = 0;
done:
    if (rc != 0) {
        free(pl->zone);
        pl->zone = NULL;
    }
    free(prev);
    free(cur);
    free(wall);
    free(ok);
    free(queue);
    return rc;
}

int plan_oop(const plan *pl, const position *p, int packed)
{
    if (!pl->zone)
        return 0;
    const uint64_t *z = pl->zone + (size_t)packed * pl->zw;
    int n = 0;
    for (int i = 0; i < p->b->nboxes; i++) {
        sq_t q = p->boxes[i];
        n += (int)(z[q / 64] >> (q % 64) & 1);
    }
    return n;
}

void plan_free(plan *pl)
{
    free(pl->step);
    free(pl->zone);
    memset(pl, 0, sizeof *pl);
}

int plan_packed(const plan *pl, const position *p, int *scratch)
{
    int n = pl->n;
    for (int m = 0; m <= n + 1; m++)
        scratch[m] = 0;
    for (int k = 0; k < n; k++) {
        if (p->box_at[pl->step[k].sq] != NO_BOX)
            continue;
        int end = pl->step[k].until < 0 ? n : pl->step[k].until;
        scratch[k + 1]++;
        scratch[end + 1]--;
    }
    int packed = 0, run = 0;
    for (int m = 0; m <= n; m++) {
        run += scratch[m];
        if (run == 0)
            packed = m;
    }
    return packed;
}
