/* distance.c: side components, goal push distances, dead squares. */
#include "distance.h"
#include "../core/reach.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* One iterative depth-first search over the squares gives discovery and
 * finish times, parents and low links. For a square s and a neighbour n:
 *   - n a child of s in the DFS tree: n's subtree is cut off from the rest
 *     when low[n] >= disc[s], else it hangs on s's parent side;
 *   - n an ancestor of s (back edge up): parent side;
 *   - n a descendant through a back edge: same as the child of s whose
 *     subtree holds n.
 * The player region is connected, so one search covers it. */
uint8_t *distance_side_components(const board *b)
{
    int n = b->nsq;
    uint8_t *comp = xmalloc((size_t)n * 4);
    int32_t *disc = xmalloc(sizeof(int32_t) * (size_t)n);
    int32_t *fin = xmalloc(sizeof(int32_t) * (size_t)n);
    int32_t *low = xmalloc(sizeof(int32_t) * (size_t)n);
    int32_t *par = xmalloc(sizeof(int32_t) * (size_t)n);
    uint8_t *next_dir = xcalloc((size_t)n, 1);
    int32_t *stack = xmalloc(sizeof(int32_t) * (size_t)n);
    for (int s = 0; s < n; s++)
        disc[s] = -1;
    int time = 0;
    for (int root = 0; root < n; root++) {
        if (disc[root] >= 0)
            continue;
        int sp = 0;
        stack[sp++] = root;
        disc[root] = low[root] = time++;
        par[root] = -1;
        while (sp > 0) {
            int s = stack[sp - 1];
            if (next_dir[s] < 4) {
                int d = next_dir[s]++;
                sq_t t = b->nb[s][d];
                if (t == SQ_NONE)
                    continue;
                if (disc[t] < 0) {
                    disc[t] = low[t] = time++;
                    par[t] = s;
                    stack[sp++] = t;
                } else if (t != par[s] && disc[t] < low[s]) {
                    low[s] = disc[t];
                }
            } else {
                sp--;
                fin[s] = time++;
                if (par[s] >= 0 && low[s] < low[par[s]])
                    low[par[s]] = low[s];
            }
        }
    }
    for (int s = 0; s < n; s++) {
        int32_t label[4];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE) {
                label[d] = -2;
                continue;
            }
            int child = -1;
            if (par[t] == s) {
                child = t;
            } else if (disc[t] > disc[s]) {
                /* descendant via a back edge: find the child subtree */
                for (int e = 0; e < 4; e++) {
                    sq_t c = b->nb[s][e];
                    if (c != SQ_NONE && par[c] == s && disc[c] <= disc[t] && fin[t] <= fin[c])
                        child = c;
                }
            }
            if (child >= 0 && low[child] >= disc[s])
                label[d] = child; /* its own component */
            else
                label[d] = -1; /* parent side */
        }
        for (int d = 0; d < 4; d++) {
            if (label[d] == -2) {
                comp[s * 4 + d] = 0xFF;
                continue;
            }
            int e = 0;
            while (label[e] != label[d])
                e++;
            comp[s * 4 + d] = (uint8_t)e;
        }
    }
    free(disc);
    free(fin);
    free(low);
    free(par);
    free(next_dir);
    free(stack);
    return comp;
}

void distance_pull(const board *b, const uint8_t *comp, sq_t gs, uint16_t *sd, int32_t *queue)
{
    int n = b->nsq;
    for (int i = 0; i < n * 4; i++)
        sd[i] = DIST_INF;
    int head = 0, tail = 0;
    for (int d = 0; d < 4; d++) {
        uint8_t c = comp[gs * 4 + d];
        if (c == d) { /* one state per distinct side */
            sd[gs * 4 + c] = 0;
            queue[tail++] = gs * 4 + c;
        }
    }
    while (head < tail) {
        int st = queue[head++];
        int y = st / 4, c = st % 4;
        uint16_t dist = sd[st];
        for (int d = 0; d < 4; d++) {
            /* forward push in direction d ended with the box on y and
             * the player on x = y - d; before it the box was on x and
             * the player on x - d */
            int od = DIR_OPP(d);
            sq_t x = b->nb[y][od];
            if (x == SQ_NONE || comp[y * 4 + od] != c)
                continue;
            sq_t px = b->nb[x][od];
            if (px == SQ_NONE)
                continue;
            int pst = x * 4 + comp[x * 4 + od];
            if (sd[pst] != DIST_INF)
                continue;
            sd[pst] = (uint16_t)(dist + 1);
            queue[tail++] = pst;
        }
    }
}

void distance_push(const board *b, const uint8_t *comp, sq_t s, int c0, uint16_t *sd,
                   int32_t *queue)
{
    int n = b->nsq;
    for (int i = 0; i < n * 4; i++)
        sd[i] = DIST_INF;
    int head = 0, tail = 0;
    for (int d = 0; d < 4; d++) {
        uint8_t c = comp[s * 4 + d];
        if (c == d && (c0 < 0 || c == c0)) { /* one state per distinct side */
            sd[s * 4 + c] = 0;
            queue[tail++] = s * 4 + c;
        }
    }
    while (head < tail) {
        int st = queue[head++];
        int x = st / 4, c = st % 4;
        uint16_t dist = sd[st];
        for (int d = 0; d < 4; d++) {
            /* a push in direction d: the player on x - d (in component c),
             * the box to y = x + d, the player ends on x, side -d of y */
            int od = DIR_OPP(d);
            sq_t px = b->nb[x][od], y = b->nb[x][d];
            if (px == SQ_NONE || y == SQ_NONE || comp[x * 4 + od] != c)
                continue;
            int nst = y * 4 + comp[y * 4 + od];
            if (sd[nst] != DIST_INF)
                continue;
            sd[nst] = (uint16_t)(dist + 1);
            queue[tail++] = nst;
        }
    }
}

/* The cut squares' side rows (board.h, side_at ...): candidate rows are
 * every (cut square, side class) pair; d[g * ncand + k] holds their
 * distances, filled goal by goal by distance_analyze. Rows equal to
 * goal_dist for every goal are dropped. Boards whose class table would pass
 * SIDE_MAX_BYTES keep no rows (goal_dist alone, as before). */
#define SIDE_MAX_BYTES ((size_t)16 << 20)

typedef struct side_cands {
    int ncand;
    int32_t *sq;   /* [ncand] the cut square */
    uint8_t *cls;  /* [ncand] the side class */
    uint16_t *d;   /* [ng * ncand] */
} side_cands;

/* Whether s has two side classes or more. */
static int is_cut(const uint8_t *comp, int s)
{
    int first = -1;
    for (int d = 0; d < 4; d++) {
        uint8_t c = comp[s * 4 + d];
        if (c == 0xFF)
            continue;
        if (first < 0)
            first = c;
        else if (c != first)
            return 1;
    }
    return 0;
}

static void side_cands_init(side_cands *sc, const board *b, const uint8_t *comp)
{
    memset(sc, 0, sizeof *sc);
    int n = b->nsq, k = 0, cuts = 0;
    for (int s = 0; s < n; s++)
        if (is_cut(comp, s)) {
            cuts++;
            for (int d = 0; d < 4; d++)
                k += comp[s * 4 + d] == d;
        }
    if (k == 0 || (size_t)cuts * (size_t)n > SIDE_MAX_BYTES || n + 2 + k >= 0xFF00)
        return;
    sc->ncand = k;
    sc->sq = xmalloc(sizeof(int32_t) * (size_t)k);
    sc->cls = xmalloc((size_t)k);
    sc->d = xmalloc(sizeof(uint16_t) * (size_t)k * (size_t)b->nboxes);
    k = 0;
    for (int s = 0; s < n; s++)
        if (is_cut(comp, s))
            for (int d = 0; d < 4; d++)
                if (comp[s * 4 + d] == d) {
                    sc->sq[k] = s;
                    sc->cls[k] = (uint8_t)d;
                    k++;
                }
}

/* Keeps the candidate rows that differ from goal_dist somewhere and fills
 * the board's side tables; the class of every square around each cut
 * square comes from a flood of the floor without it from each side. */
static void side_finish(board *b, const uint8_t *comp, side_cands *sc)
{
    int n = b->nsq, ng = b->nboxes, keep = 0;
    uint8_t *kept = xcalloc((size_t)sc->ncand + 1, 1);
    for (int k = 0; k < sc->ncand; k++)
        for (int g = 0; g < ng && !kept[k]; g++)
            if (sc->d[(size_t)g * (size_t)sc->ncand + (size_t)k] !=
                b->goal_dist[(size_t)g * (size_t)n + (size_t)sc->sq[k]])
                kept[k] = 1;
    for (int k = 0; k < sc->ncand; k++)
        keep += kept[k];
    if (keep > 0) {
        b->side_at = xmalloc(sizeof(int32_t) * (size_t)n);
        for (int s = 0; s < n; s++)
            b->side_at[s] = -1;
        int ncut = 0;
        for (int k = 0; k < sc->ncand; k++)
            if (kept[k] && b->side_at[sc->sq[k]] < 0)
                b->side_at[sc->sq[k]] = ncut++;
        b->nside = keep;
        b->side_row = xmalloc(sizeof(uint16_t) * (size_t)n * 4);
        for (int i = 0; i < n * 4; i++)
            b->side_row[i] = SIDE_NONE;
        b->side_dist = xmalloc(sizeof(uint16_t) * (size_t)ng * (size_t)keep);
        int r = 0;
        for (int k = 0; k < sc->ncand; k++) {
            if (!kept[k])
                continue;
            b->side_row[sc->sq[k] * 4 + sc->cls[k]] = (uint16_t)r;
            for (int g = 0; g < ng; g++)
                b->side_dist[(size_t)g * (size_t)keep + (size_t)r] =
                    sc->d[(size_t)g * (size_t)sc->ncand + (size_t)k];
            r++;
        }
        /* each piece: a flood from a neighbour of s with a box on s */
        b->side_cls = xmalloc((size_t)ncut * (size_t)n);
        sq_t *stack = xmalloc(sizeof(sq_t) * (size_t)n);
        uint16_t *box_at = xmalloc(sizeof(uint16_t) * (size_t)n);
        uint32_t *mark = xcalloc((size_t)n, sizeof(uint32_t));
        uint32_t ts = 0;
        for (int q = 0; q < n; q++)
            box_at[q] = NO_BOX;
        for (int s = 0; s < n; s++) {
            if (b->side_at[s] < 0)
                continue;
            uint8_t *cls = b->side_cls + (size_t)b->side_at[s] * (size_t)n;
            memset(cls, 0xFF, (size_t)n);
            box_at[s] = 0;
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[s][d];
                if (t == SQ_NONE || cls[t] != 0xFF)
                    continue;
                reach_flood_marks(b, box_at, mark, &ts, stack, t);
                for (int q = 0; q < n; q++)
                    if (mark[q] == ts)
                        cls[q] = comp[s * 4 + d];
            }
            box_at[s] = NO_BOX;
        }
        free(stack);
        free(box_at);
        free(mark);
    }
    free(kept);
    free(sc->sq);
    free(sc->cls);
    free(sc->d);
    memset(sc, 0, sizeof *sc);
}

int distance_analyze(board *b)
{
    int n = b->nsq, ng = b->nboxes;
    uint8_t *comp = distance_side_components(b);
    size_t cells = (size_t)ng * (size_t)n;
    b->goal_dist = malloc(sizeof(uint16_t) * cells);
    uint16_t *sd = malloc(sizeof(uint16_t) * (size_t)n * 4); /* state distances */
    int32_t *queue = malloc(sizeof(int32_t) * (size_t)n * 4);
    if (!b->goal_dist || !sd || !queue) {
        free(comp);
        free(sd);
        free(queue);
        free(b->goal_dist);
        b->goal_dist = NULL;
        return -1;
    }
    side_cands sc;
    side_cands_init(&sc, b, comp);
    for (int g = 0; g < ng; g++) {
        sq_t gs = b->goals[g];
        distance_pull(b, comp, gs, sd, queue);
        uint16_t *row = b->goal_dist + (size_t)g * (size_t)n;
        for (int s = 0; s < n; s++) {
            uint16_t m = DIST_INF;
            for (int c = 0; c < 4; c++)
                if (sd[s * 4 + c] < m)
                    m = sd[s * 4 + c];
            row[s] = m;
        }
        row[gs] = 0;
        for (int k = 0; k < sc.ncand; k++)
            sc.d[(size_t)g * (size_t)sc.ncand + (size_t)k] =
                sc.sq[k] == gs ? 0 : sd[sc.sq[k] * 4 + sc.cls[k]];
    }
    if (sc.ncand)
        side_finish(b, comp, &sc);
    free(sd);
    free(queue);
    free(comp);
    b->near_dist = xmalloc(sizeof(uint16_t) * (size_t)n);
    b->dead = xcalloc((size_t)n, 1);
    b->ndead = 0;
    for (int s = 0; s < n; s++) {
        uint16_t m = DIST_INF;
        for (int g = 0; g < ng; g++) {
            uint16_t v = b->goal_dist[(size_t)g * (size_t)n + (size_t)s];
            if (v < m)
                m = v;
        }
        b->near_dist[s] = m;
        if (m == DIST_INF) {
            b->dead[s] = 1;
            b->ndead++;
        }
    }
    return 0;
}
