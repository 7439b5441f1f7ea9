/* patterns.c: the small-pattern deadlock table (patterns.h). */
#include "patterns.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* Cell kinds in a signature (2 bits each). */
enum { K_WALL = 0, K_FLOOR = 1, K_GOAL = 2, K_DEAD = 3 };

/* The largest window: 12 cells, a ring of 14. */
#define MAX_CELLS 12
#define MAX_RING 14

/* Kind of the grid cell (r, c); anything off the board or outside the
 * player's region is a wall. */
static int kind_at(const board *b, int r, int c)
{
    if (r < 0 || c < 0 || r >= b->height || c >= b->width)
        return K_WALL;
    sq_t s = b->sq_of_cell[r * b->width + c];
    if (s == SQ_NONE)
        return K_WALL;
    if (b->is_goal[s])
        return K_GOAL;
    return b->dead[s] ? K_DEAD : K_FLOOR;
}

/* A window placement, its cells' kinds and the kinds of the ring beside it:
 * ring[d][i] is the cell beyond cell i of the side facing direction d
 * (LURD; i counts along that side: rows for left/right, columns for
 * up/down). */
typedef struct window {
    int w, h;
    uint8_t cell[MAX_CELLS];
    uint8_t ring[4][4];
} window;

static void window_read(window *wn, const board *b, int r0, int c0, int w, int h)
{
    wn->w = w;
    wn->h = h;
    for (int i = 0; i < w * h; i++)
        wn->cell[i] = (uint8_t)kind_at(b, r0 + i / w, c0 + i % w);
    for (int i = 0; i < h; i++) {
        wn->ring[DIR_LEFT][i] = (uint8_t)kind_at(b, r0 + i, c0 - 1);
        wn->ring[DIR_RIGHT][i] = (uint8_t)kind_at(b, r0 + i, c0 + w);
    }
    for (int i = 0; i < w; i++) {
        wn->ring[DIR_UP][i] = (uint8_t)kind_at(b, r0 - 1, c0 + i);
        wn->ring[DIR_DOWN][i] = (uint8_t)kind_at(b, r0 + h, c0 + i);
    }
}

static uint64_t window_signature(const window *wn)
{
    uint64_t sig = 0;
    for (int i = 0; i < wn->w * wn->h; i++)
        sig = sig << 2 | wn->cell[i];
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < ((d & 1) ? wn->w : wn->h); i++)
            sig = sig << 2 | wn->ring[d][i];
    return sig;
}

static const int dr[4] = {0, -1, 0, 1}, dc[4] = {-1, 0, 1, 0};

/* The neighbour of window cell i in direction d: its index (>= 0), or
 * -1 - kind when it lies in the ring. */
static int step(const window *wn, int i, int d)
{
    int r = i / wn->w + dr[d], c = i % wn->w + dc[d];
    if (r >= 0 && r < wn->h && c >= 0 && c < wn->w)
        return r * wn->w + c;
    int along = (d & 1) ? c : r;
    return -1 - wn->ring[d][along];
}

/* Decides every box subset of the window: sets the bit of each dead subset
 * (of floor cells) in dead[]; returns the number of dead subsets with no
 * box on a dead square (those the dead squares do not prune already). queue has
 * room for 2^cells entries. Backward search: the won subsets (every box on
 * a goal) are alive; a subset from which some push reaches an alive subset
 * is alive. A push is found from its result by a pull:
 *  - box on a+d inside W (a+d not dead), a free: the box came from a;
 *  - a+d in the ring, no wall, not dead, a free: the box left W from a;
 * and the player's square a-d must be no wall and hold no box before the
 * push. */
static int decide(const window *wn, uint64_t *dead, uint16_t *queue)
{
    int n = wn->w * wn->h;
    uint32_t nstates = 1u << n;
    uint32_t floor = 0, goal = 0, deadsq = 0;
    for (int i = 0; i < n; i++) {
        if (wn->cell[i] != K_WALL)
            floor |= 1u << i;
        if (wn->cell[i] == K_GOAL)
            goal |= 1u << i;
        if (wn->cell[i] == K_DEAD)
            deadsq |= 1u << i;
    }
    uint32_t words = (nstates + 63) / 64;
    /* alive bits, kept in dead[] and inverted at the end */
    memset(dead, 0, sizeof(uint64_t) * words);
    /* each cell's neighbours, as step() gives them */
    int ahead_of[MAX_CELLS][4];
    for (int a = 0; a < n; a++)
        for (int d = 0; d < 4; d++)
            ahead_of[a][d] = step(wn, a, d);
    uint32_t head = 0, tail = 0;
    /* the won subsets: every subset of the goal cells */
    for (uint32_t s = goal;; s = (s - 1) & goal) {
        dead[s >> 6] |= 1ULL << (s & 63);
        queue[tail++] = (uint16_t)s;
        if (s == 0)
            break;
    }
    while (head < tail) {
        uint32_t S = queue[head++];
        for (int a = 0; a < n; a++) {
            if (!(floor >> a & 1) || (S >> a & 1))
                continue;
            for (int d = 0; d < 4; d++) {
                int ahead = ahead_of[a][d], behind = ahead_of[a][DIR_OPP(d)];
                uint32_t T;
                if (ahead >= 0) {
                    if (!(S >> ahead & 1) || wn->cell[ahead] == K_DEAD)
                        continue;
                    T = (S & ~(1u << ahead)) | 1u << a;
                } else {
                    int k = -1 - ahead;
                    if (k == K_WALL || k == K_DEAD)
                        continue;
                    T = S | 1u << a;
                }
                if (behind >= 0) {
                    if (!(floor >> behind & 1) || (T >> behind & 1))
                        continue;
                } else if (-1 - behind == K_WALL) {
                    continue;
                }
                if (!(dead[T >> 6] >> (T & 63) & 1)) {
                    dead[T >> 6] |= 1ULL << (T & 63);
                    queue[tail++] = (uint16_t)T;
                }
            }
        }
    }
    /* dead = floor subsets not alive */
    int ndead = 0;
    for (uint32_t s = 0; s < nstates; s++) {
        uint64_t bit = 1ULL << (s & 63);
        if ((s & ~floor) == 0 && !(dead[s >> 6] & bit)) {
            dead[s >> 6] |= bit;
            ndead += (s & deadsq) == 0;
        } else {
            dead[s >> 6] &= ~bit;
        }
    }
    return ndead;
}

/* Open-addressing map from signatures to table numbers (build only). */
typedef struct sigmap {
    uint64_t *key;
    uint32_t *val;
    uint32_t mask;
} sigmap;

static uint32_t *sigmap_slot(sigmap *m, uint64_t key, int *found)
{
    uint32_t i = (uint32_t)board_mix64(key) & m->mask;
    while (m->val[i] != UINT32_MAX - 1) {
        if (m->key[i] == key) {
            *found = 1;
            return &m->val[i];
        }
        i = (i + 1) & m->mask;
    }
    *found = 0;
    m->key[i] = key;
    return &m->val[i];
}

void patterns_init(patterns *pt, const board *b, int large)
{
    memset(pt, 0, sizeof *pt);
    pt->b = b;
    if (large) {
        pt->shape[0].w = 4, pt->shape[0].h = 3;
        pt->shape[1].w = 3, pt->shape[1].h = 4;
        pt->nshape = 2;
        pt->half = 3;
    } else {
        pt->half = 2;
        pt->shape[0].w = 3, pt->shape[0].h = 3;
        pt->nshape = 1;
    }
    /* placements overall, for the map's size */
    uint32_t nplace = 0;
    for (int k = 0; k < pt->nshape; k++) {
        pat_shape *sh = &pt->shape[k];
        sh->pw = b->width + sh->w - 1;
        sh->ph = b->height + sh->h - 1;
        sh->words = ((1u << (sh->w * sh->h)) + 63) / 64;
        nplace += (uint32_t)(sh->pw * sh->ph);
    }
    sigmap m;
    m.mask = 1;
    while (m.mask < 2 * nplace)
        m.mask <<= 1;
    m.key = xmalloc(sizeof(uint64_t) * m.mask);
    m.val = xmalloc(sizeof(uint32_t) * m.mask);
    for (uint32_t i = 0; i < m.mask; i++)
        m.val[i] = UINT32_MAX - 1; /* empty slot */
    m.mask--;
    uint16_t *queue = xmalloc(sizeof(uint16_t) << MAX_CELLS);
    uint64_t *scratch = xmalloc(sizeof(uint64_t) << (MAX_CELLS - 6));
    uint32_t cap = 0;
    pt->bits = NULL;
    for (int k = 0; k < pt->nshape; k++) {
        pat_shape *sh = &pt->shape[k];
        sh->place = xmalloc_held(&pt->held, sizeof(uint32_t) * (size_t)(sh->pw * sh->ph));
        for (int pr = 0; pr < sh->ph; pr++)
            for (int pc = 0; pc < sh->pw; pc++) {
                uint32_t *out = &sh->place[pr * sh->pw + pc];
                *out = PAT_NONE;
                int r0 = pr - (sh->h - 1), c0 = pc - (sh->w - 1);
                window wn;
                window_read(&wn, b, r0, c0, sh->w, sh->h);
                int boxes = 0; /* floor cells a box may stand on */
                for (int i = 0; i < sh->w * sh->h; i++)
                    boxes += wn.cell[i] != K_WALL;
                if (boxes < 2)
                    continue; /* a lone box: the dead squares say it all */
                /* the shape's index keeps equal signatures of different
                 * shapes apart (same code length, other geometry) */
                uint64_t sig = window_signature(&wn) * 4 + (uint64_t)k;
                int found;
                uint32_t *slot = sigmap_slot(&m, sig, &found);
                if (found) {
                    *out = *slot;
                    continue;
                }
                pt->nsignatures++;
                int ndead = decide(&wn, scratch, queue);
                if (ndead == 0) {
                    *slot = PAT_NONE;
                    continue;
                }
                if (pt->nbits_words + sh->words > cap) {
                    uint32_t old = cap;
                    cap = cap ? 2 * cap : 1024;
                    while (pt->nbits_words + sh->words > cap)
                        cap *= 2;
                    pt->bits = xrealloc_held(&pt->held, pt->bits, sizeof(uint64_t) * old,
                                             sizeof(uint64_t) * cap);
                }
                memcpy(pt->bits + pt->nbits_words, scratch, sizeof(uint64_t) * sh->words);
                *slot = *out = pt->nbits_words;
                pt->nbits_words += sh->words;
                pt->ntables++;
            }
    }
    free(queue);
    free(scratch);
    free(m.key);
    free(m.val);
}

void patterns_free(patterns *pt)
{
    for (int k = 0; k < pt->nshape; k++)
        free(pt->shape[k].place);
    free(pt->bits);
    memset(pt, 0, sizeof *pt);
}

/* Neighbourhood of a square: the cells within 3 rows and columns of it,
 * 7 bits a row (bit 7 * (dr + 3) + (dc + 3)), set where a box stands. */
#define NB_SPAN 7
#define NB_HALF 3

static inline int lookup(const patterns *pt, uint64_t nbh, int r, int c)
{
    for (int k = 0; k < pt->nshape; k++) {
        const pat_shape *sh = &pt->shape[k];
        uint32_t rowmask = (1u << sh->w) - 1;
        /* windows with top-left (r - i, c - j), i < h, j < w */
        for (int i = 0; i < sh->h; i++)
            for (int j = 0; j < sh->w; j++) {
                uint32_t t = sh->place[(r - i + sh->h - 1) * sh->pw + (c - j + sh->w - 1)];
                if (t == PAT_NONE)
                    continue;
                uint32_t set = 0;
                for (int y = 0; y < sh->h; y++) {
                    int shift = NB_SPAN * (y - i + NB_HALF) + (NB_HALF - j);
                    set |= (uint32_t)(nbh >> shift & rowmask) << (y * sh->w);
                }
                if (pt->bits[t + (set >> 6)] >> (set & 63) & 1)
                    return 1;
            }
    }
    return 0;
}

int patterns_dead(const patterns *pt, const position *p, sq_t s)
{
    const board *b = pt->b;
    int r = board_row(b, s), c = board_col(b, s), half = pt->half;
    /* read only the rows and columns the windows reach: within half of s */
    int y0 = MAX(-half, -r), y1 = MIN(half, b->height - 1 - r);
    int x0 = MAX(-half, -c), x1 = MIN(half, b->width - 1 - c);
    uint64_t nbh = 0;
    for (int y = y0; y <= y1; y++) {
        const sq_t *row = &b->sq_of_cell[(r + y) * b->width + c];
        for (int x = x0; x <= x1; x++) {
            sq_t q = row[x];
            if (q != SQ_NONE && p->box_at[q] != NO_BOX)
                nbh |= 1ULL << (NB_SPAN * (y + NB_HALF) + (x + NB_HALF));
        }
    }
    /* a lone box: the dead squares decide it */
    if (nbh == 1ULL << (NB_SPAN * NB_HALF + NB_HALF))
        return 0;
    return lookup(pt, nbh, r, c);
}

int patterns_dead_set(const patterns *pt, const sq_t *sq, int n)
{
    const board *b = pt->b;
    for (int k = 0; k < n; k++) {
        int r = board_row(b, sq[k]), c = board_col(b, sq[k]);
        uint64_t nbh = 0;
        for (int m = 0; m < n; m++) {
            int y = board_row(b, sq[m]) - r, x = board_col(b, sq[m]) - c;
            if (y >= -NB_HALF && y <= NB_HALF && x >= -NB_HALF && x <= NB_HALF)
                nbh |= 1ULL << (NB_SPAN * (y + NB_HALF) + (x + NB_HALF));
        }
        if (lookup(pt, nbh, r, c))
            return 1;
    }
    return 0;
}
