/* rooms.c: rooms from 2x2 blocks, links, entrances, and the room score
 * (see rooms.h for the definitions). */
#include "rooms.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define CORRIDOR_SEEN (-2) /* label of a corridor square already flooded */

/* malloc that never asks for zero bytes (so NULL always means failure). */
static void *alloc_bytes(size_t n)
{
    return malloc(n ? n : 1);
}

static inline void mask_set(uint64_t m[2], int i)
{
    m[i >> 6] |= 1ULL << (i & 63);
}

static inline int mask_has(const uint64_t m[2], int i)
{
    return (int)((m[i >> 6] >> (i & 63)) & 1);
}

static inline int has_box(const uint16_t *box_at, sq_t s)
{
    return box_at && box_at[s] != NO_BOX;
}

/* Whether a 2x2 block of inner squares has s as its top-left square. */
static int block_at(const board *b, sq_t s)
{
    sq_t right = b->nb[s][DIR_RIGHT], down = b->nb[s][DIR_DOWN];
    return right != SQ_NONE && down != SQ_NONE && b->nb[right][DIR_DOWN] != SQ_NONE;
}

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(int32_t *parent, int32_t a, int32_t b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

/* Allocates the scratch for rooms with nrooms rooms and nlinks links on
 * nsq squares. Returns 0, or -1 (w then holds what was had; free it). */
static int work_alloc(rooms_work *w, int nsq, int nrooms, int nlinks)
{
    memset(w, 0, sizeof *w);
    w->nsq = nsq;
    w->nrooms = nrooms;
    w->nlinks = nlinks;
    if (nrooms == 0)
        return 0; /* rooms_score never looks at the scratch */
    size_t n = (size_t)nsq, nr = (size_t)nrooms;
    w->label = alloc_bytes(sizeof *w->label * n);
    w->queue = alloc_bytes(sizeof *w->queue * n);
    w->parent = alloc_bytes(sizeof *w->parent * n);
    w->part_room = alloc_bytes(n);
    w->mask = alloc_bytes(sizeof *w->mask * n);
    w->keep = alloc_bytes(sizeof *w->keep * nr);
    w->has_part = alloc_bytes(nr);
    w->seen_in = alloc_bytes(sizeof *w->seen_in * nr);
    w->rep = alloc_bytes(sizeof *w->rep * nr);
    w->cut = alloc_bytes((size_t)nlinks);
    w->wit = alloc_bytes(sizeof *w->wit * nr);
    w->corr = alloc_bytes(sizeof *w->corr * n);
    if (!w->corr || !w->wit || !w->label || !w->queue || !w->parent || !w->part_room || !w->mask || !w->keep ||
        !w->has_part || !w->seen_in || !w->rep || !w->cut)
        return -1;
    return 0;
}

/* w->corr: the corridor squares of r (after work_alloc, with rooms). */
static void work_corridors(rooms_work *w, const rooms *r)
{
    w->ncorr = 0;
    if (!w->corr)
        return;
    for (int s = 0; s < w->nsq; s++)
        if (r->room_of[s] < 0)
            w->corr[w->ncorr++] = (sq_t)s;
}

void rooms_work_free(rooms_work *w)
{
    free(w->label);
    free(w->queue);
    free(w->parent);
    free(w->part_room);
    free(w->mask);
    free(w->keep);
    free(w->has_part);
    free(w->seen_in);
    free(w->rep);
    free(w->cut);
    free(w->wit);
    free(w->corr);
    memset(w, 0, sizeof *w);
}

void rooms_work_init(rooms_work *w, const rooms *r, const board *b)
{
    if (work_alloc(w, b->nsq, r->nrooms, r->nlinks) != 0)
        die("out of memory allocating the rooms scratch (%d squares)", b->nsq);
    work_corridors(w, r);
}

/* Step 1 of compute_keep: labels the free parts of all rooms (w->label of
 * their squares, w->part_room), each part noting in w->mask the other rooms
 * it touches directly. w->label is -1 on every square before. Returns the
 * number of parts. */
static inline int label_parts(const rooms *r, rooms_work *w, const board *b,
                              const uint16_t *box_at)
{
    const int16_t *room_of = r->room_of;
    int nparts = 0;
    /* the rooms' squares, room by room (sq_first[0] is 0) */
    for (int x = 0; x < r->nrooms; x++)
        for (int i = r->sq_first[x]; i < r->sq_first[x + 1]; i++) {
            sq_t s = r->squares[i];
            if (w->label[s] >= 0 || has_box(box_at, s))
                continue;
            int32_t part = nparts++;
            w->parent[part] = part;
            w->part_room[part] = (uint8_t)x;
            w->mask[part][0] = w->mask[part][1] = 0;
            int head = 0, tail = 0;
            w->label[s] = part;
            w->queue[tail++] = s;
            while (head < tail) {
                sq_t q = w->queue[head++];
                for (int d = 0; d < 4; d++) {
                    sq_t t = b->nb[q][d];
                    if (t == SQ_NONE || has_box(box_at, t))
                        continue;
                    int y = room_of[t];
                    if (y == x) {
                        if (w->label[t] < 0) {
                            w->label[t] = part;
                            w->queue[tail++] = t;
                        }
                    } else if (y >= 0) {
                        mask_set(w->mask[part], y);
                    }
                }
            }
        }
    return nparts;
}

/* Step 2 of compute_keep: floods each component of box-free corridor
 * squares once, joins (w->parent) the free parts of one room that it
 * touches, and adds the rooms it touches to those parts' masks. */
static inline void join_by_corridors(const rooms *r, rooms_work *w, const board *b,
                                     const uint16_t *box_at)
{
    int nr = r->nrooms;
    const int16_t *room_of = r->room_of;
    for (int x = 0; x < nr; x++)
        w->seen_in[x] = -1;
    int32_t comp = 0;
    for (int c = 0; c < w->ncorr; c++) {
        sq_t s = w->corr[c];
        if (w->label[s] != -1 || has_box(box_at, s))
            continue;
        int head = 0, tail = 0;
        w->label[s] = CORRIDOR_SEEN;
        w->queue[tail++] = (sq_t)s;
        uint64_t met[2] = {0, 0};
        while (head < tail) {
            sq_t q = w->queue[head++];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t == SQ_NONE || has_box(box_at, t))
                    continue;
                int y = room_of[t];
                if (y < 0) {
                    if (w->label[t] == -1) {
                        w->label[t] = CORRIDOR_SEEN;
                        w->queue[tail++] = t;
                    }
                    continue;
                }
                int32_t part = w->label[t];
                mask_set(met, y);
                if (w->seen_in[y] != comp) {
                    w->seen_in[y] = comp;
                    w->rep[y] = part;
                } else {
                    uf_union(w->parent, w->rep[y], part);
                }
            }
        }
        /* Every part met is joined with its room's representative, so
           adding to the representative adds to the whole joined set. */
        for (int k = 0; k < 2; k++)
            for (uint64_t bits = met[k]; bits; bits &= bits - 1) {
                int y = k * 64 + __builtin_ctzll(bits);
                int32_t rp = w->rep[y];
                w->mask[rp][0] |= met[0];
                w->mask[rp][1] |= met[1];
            }
        comp++;
    }
}

/* Step 3 of compute_keep: the joined parts pool what they reach; a room
 * keeps the rooms that all its parts reach (w->keep, w->has_part). */
static inline void pool_parts(const rooms *r, rooms_work *w, int nparts)
{
    int nr = r->nrooms;
    for (int32_t part = 0; part < nparts; part++) {
        int32_t root = uf_find(w->parent, part);
        if (root != part) {
            w->mask[root][0] |= w->mask[part][0];
            w->mask[root][1] |= w->mask[part][1];
        }
    }
    for (int x = 0; x < nr; x++) {
        w->has_part[x] = 0;
        w->keep[x][0] = w->keep[x][1] = 0;
    }
    for (int32_t part = 0; part < nparts; part++) {
        int x = w->part_room[part];
        const uint64_t *m = w->mask[uf_find(w->parent, part)];
        if (!w->has_part[x]) {
            w->has_part[x] = 1;
            w->keep[x][0] = m[0];
            w->keep[x][1] = m[1];
        } else {
            w->keep[x][0] &= m[0];
            w->keep[x][1] &= m[1];
        }
    }
    for (int x = 0; x < nr; x++)
        w->keep[x][x >> 6] &= ~(1ULL << (x & 63));
}

/* Fills w->keep[X] with the rooms that room X keeps its link to when boxes
 * stand where box_at says (box_at NULL: the empty board), and
 * w->has_part[X]. Contract: r->nrooms > 0; w was allocated for r.
 *
 * Instead of one flood per free part, which could cross the same corridor
 * many times, every square is visited a bounded number of times:
 *   1. the free parts of all rooms are labelled, each part noting the other
 *      rooms it touches directly;
 *   2. each component of box-free corridor squares is flooded once; the
 *      free parts of one room that it touches are joined (union-find: a
 *      flood from one of them reaches the others through the component),
 *      and the rooms it touches are added to those parts;
 *   3. the parts joined in step 2 pool what they reach; a room keeps the
 *      rooms that all its parts reach. */
static void compute_keep(const rooms *r, rooms_work *w, const board *b, const uint16_t *box_at)
{
    memset(w->label, 0xFF, sizeof *w->label * (size_t)b->nsq); /* every label -1 */
    int nparts = label_parts(r, w, b, box_at);
    join_by_corridors(r, w, b, box_at);
    pool_parts(r, w, nparts);
}

int rooms_score(const rooms *r, rooms_work *w, const position *p)
{
    /* the score counts links cut: with none (a board of one room, as on
       half of Sasquatch VII's levels) it is 0 whatever the boxes, and the
       flood, a fifth of the opening search's time on VII 41, is spared */
    if (r->nrooms == 0 || r->nlinks == 0)
        return 0;
    compute_keep(r, w, p->b, p->box_at);
    int cut = 0;
    for (int k = 0; k < r->nlinks; k++) {
        int a = r->link[k][0], c = r->link[k][1];
        int keep = mask_has(w->keep[a], c) && mask_has(w->keep[c], a);
        w->cut[k] = (uint8_t)!keep;
        cut += !keep;
    }
    return cut;
}

/* The eight squares around s in order round it (corners and sides
 * alternating, the sides at odd indices; consecutive entries are
 * neighbours), SQ_NONE where no inner square is. */
static void ring_of(const board *b, sq_t s, sq_t ring[8])
{
    static const int dr[8] = {-1, -1, -1, 0, 1, 1, 1, 0}, dc[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
    int r0 = board_row(b, s), c0 = board_col(b, s);
    for (int i = 0; i < 8; i++) {
        int r = r0 + dr[i], c = c0 + dc[i];
        ring[i] = r < 0 || c < 0 || r >= b->height || c >= b->width ? SQ_NONE
                                                                    : b->sq_of_cell[r * b->width + c];
    }
}

/* Whether square s turning box-free or blocked leaves the components of
 * its class and their touches as they were (rooms_move_keeps), the free
 * squares being those of p less `blocked`: s has a free side, every free
 * side is of s's class, and the free sides lie on one run of free squares
 * of that class round s (so they are joined without s). */
static int local_same(const rooms *r, const board *b, const position *p, sq_t s, sq_t blocked)
{
    sq_t ring[8];
    ring_of(b, s, ring);
    int cls = r->room_of[s], use[8], sides = 0, start = -1;
    for (int i = 0; i < 8; i++) {
        sq_t q = ring[i];
        int free = q != SQ_NONE && q != blocked && p->box_at[q] == NO_BOX;
        use[i] = free && r->room_of[q] == cls;
        if (free && (i & 1)) {
            if (!use[i])
                return 0; /* a touch with another component is made or lost */
            sides++;
        }
        if (!use[i] && start < 0)
            start = i;
    }
    if (sides == 0)
        return 0; /* s alone is a component: it appears or goes */
    if (start < 0)
        return 1; /* all eight free: one run */
    int run = 0, side_run = -1;
    for (int k = 1; k <= 8; k++) {
        int i = (start + k) % 8;
        if (!use[i])
            run++;
        else if ((i & 1) && side_run < 0)
            side_run = run;
        else if ((i & 1) && side_run != run)
            return 0; /* two sides joined only through s, as far as seen */
    }
    return 1;
}

int rooms_move_keeps(const rooms *r, const board *b, const position *p, sq_t from, sq_t to)
{
    if (r->nrooms == 0 || r->nlinks == 0)
        return 1; /* the score is 0 whatever the boxes */
    return local_same(r, b, p, to, from) && local_same(r, b, p, from, SQ_NONE);
}

void rooms_witness(const rooms *r, rooms_work *w, const board *b, const position *p)
{
    w->all_shut = 0;
    if (r->nrooms == 0 || r->nlinks == 0)
        return;
    for (int x = 0; x < r->nrooms; x++)
        for (int k = 0; k < ROOMS_WITNESSES; k++)
            w->wit[x][k] = SQ_NONE;
    for (int x = 0; x < r->nrooms; x++) {
        int k = 0;
        for (int i = r->sq_first[x]; i < r->sq_first[x + 1] && k < ROOMS_WITNESSES; i++) {
            sq_t q = r->squares[i];
            if (p->box_at[q] != NO_BOX)
                continue;
            int shut = 1;
            for (int d = 0; d < 4 && shut; d++)
                shut = b->nb[q][d] == SQ_NONE || p->box_at[b->nb[q][d]] != NO_BOX;
            if (shut)
                w->wit[x][k++] = q;
        }
    }
    /* every link has a room with a shut square (else no move can show all cut) */
    w->all_shut = 1;
    for (int k = 0; k < r->nlinks && w->all_shut; k++)
        w->all_shut = w->wit[r->link[k][0]][0] != SQ_NONE || w->wit[r->link[k][1]][0] != SQ_NONE;
}

int rooms_all_cut(const rooms *r, const rooms_work *w, const board *b, sq_t from, sq_t to)
{
    if (r->nrooms == 0 || r->nlinks == 0 || !w->all_shut)
        return 0;
    uint64_t shut[2] = {0, 0}; /* rooms with a witness left */
    for (int x = 0; x < r->nrooms; x++)
        for (int k = 0; k < ROOMS_WITNESSES; k++) {
            sq_t q = w->wit[x][k];
            if (q == SQ_NONE)
                break;
            int left = q != to;
            for (int d = 0; d < 4 && left; d++)
                left = b->nb[q][d] != from;
            if (left) {
                mask_set(shut, x);
                break;
            }
        }
    for (int k = 0; k < r->nlinks; k++)
        if (!mask_has(shut, r->link[k][0]) && !mask_has(shut, r->link[k][1]))
            return 0;
    return 1;
}

int rooms_link_find(const rooms *r, int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    /* links are sorted by (first, second): binary search */
    int lo = 0, hi = r->nlinks;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int ma = r->link[mid][0], mb = r->link[mid][1];
        if (ma < a || (ma == a && mb < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->nlinks && r->link[lo][0] == a && r->link[lo][1] == b ? lo : -1;
}

void rooms_free(rooms *r)
{
    free(r->room_of);
    free(r->link);
    free(r->goal_room);
    free(r->ngoals);
    free(r->sq_first);
    free(r->squares);
    free(r->ent_first);
    free(r->entrances);
    memset(r, 0, sizeof *r);
}

/* Numbers the groups of kept blocks and gives each square its room (see
 * rooms.h). group[s] receives the group of the block whose top-left square
 * is s (-1: no kept block there); queue is scratch of nsq squares. Returns
 * the number of groups; room_of is filled only when it is at most
 * ROOMS_MAX (else it stays all -1). */
static int find_rooms(const board *b, int16_t *room_of, int32_t *group, sq_t *queue)
{
    int n = b->nsq;
    /* group[] first holds block flags: 1 a block, 2 a kept block. A block
       is kept when a neighbour block exists; since a dropped block has no
       neighbour, dropping it changes no other block's fate. */
    for (int s = 0; s < n; s++)
        group[s] = block_at(b, (sq_t)s);
    for (int s = 0; s < n; s++) {
        if (!group[s])
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t != SQ_NONE && group[t])
                group[s] = 2;
        }
    }
    for (int s = 0; s < n; s++)
        group[s] = group[s] == 2 ? -2 : -1; /* -2: kept, not yet numbered */
    int ngroups = 0;
    for (int s = 0; s < n; s++) {
        if (group[s] != -2)
            continue;
        int g = ngroups++;
        int head = 0, tail = 0;
        group[s] = g;
        queue[tail++] = (sq_t)s;
        while (head < tail) {
            sq_t q = queue[head++];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t != SQ_NONE && group[t] == -2) {
                    group[t] = g;
                    queue[tail++] = t;
                }
            }
        }
    }
    for (int s = 0; s < n; s++)
        room_of[s] = -1;
    if (ngroups > ROOMS_MAX)
        return ngroups;
    /* -1 uncovered, -2 covered by two groups, else the covering group */
    for (int s = 0; s < n; s++) {
        if (group[s] < 0)
            continue;
        sq_t right = b->nb[s][DIR_RIGHT], down = b->nb[s][DIR_DOWN];
        sq_t corner[4] = {(sq_t)s, right, down, b->nb[right][DIR_DOWN]};
        for (int i = 0; i < 4; i++) {
            int16_t *ro = &room_of[corner[i]];
            if (*ro == -1)
                *ro = (int16_t)group[s];
            else if (*ro != group[s])
                *ro = -2;
        }
    }
    for (int s = 0; s < n; s++)
        if (room_of[s] == -2)
            room_of[s] = -1;
    return ngroups;
}

/* Fills the per-room tables of r (room_of and nrooms set): goals, squares,
 * entrances. Returns 0 or -1 on allocation trouble. */
static int fill_tables(rooms *r, const board *b)
{
    int n = b->nsq, nr = r->nrooms;
    r->goal_room = calloc((size_t)nr + 1, 1);
    r->ngoals = calloc((size_t)nr + 1, sizeof *r->ngoals);
    r->sq_first = calloc((size_t)nr + 1, sizeof *r->sq_first);
    r->ent_first = calloc((size_t)nr + 1, sizeof *r->ent_first);
    if (!r->goal_room || !r->ngoals || !r->sq_first || !r->ent_first)
        return -1;
    /* squares, counted then placed in ascending order */
    for (int s = 0; s < n; s++)
        if (r->room_of[s] >= 0) {
            r->sq_first[r->room_of[s] + 1]++;
            if (b->is_goal[s]) {
                r->ngoals[r->room_of[s]]++;
                r->goal_room[r->room_of[s]] = 1;
            }
        }
    for (int x = 0; x < nr; x++)
        r->sq_first[x + 1] += r->sq_first[x];
    r->squares = alloc_bytes(sizeof *r->squares * (size_t)r->sq_first[nr]);
    if (!r->squares)
        return -1;
    for (int x = 0, k = 0; x < nr; x++)
        for (int s = 0; s < n; s++)
            if (r->room_of[s] == x)
                r->squares[k++] = (sq_t)s;
    /* entrances: square t enters room x when t is outside x and a neighbour
       of t is in x. Scanning t in ascending order lists them ascending. */
    for (int pass = 0; pass < 2; pass++) {
        int *fill = NULL;
        if (pass == 1) {
            for (int x = 0; x < nr; x++)
                r->ent_first[x + 1] += r->ent_first[x];
            r->entrances = alloc_bytes(sizeof *r->entrances * (size_t)r->ent_first[nr]);
            fill = alloc_bytes(sizeof *fill * (size_t)nr);
            if (!r->entrances || !fill) {
                free(fill);
                return -1;
            }
            memcpy(fill, r->ent_first, sizeof *fill * (size_t)nr);
        }
        for (int t = 0; t < n; t++) {
            int done[4], ndone = 0;
            for (int d = 0; d < 4; d++) {
                sq_t q = b->nb[t][d];
                int x = q == SQ_NONE ? -1 : r->room_of[q];
                if (x < 0 || x == r->room_of[t])
                    continue;
                int dup = 0;
                for (int i = 0; i < ndone; i++)
                    dup |= done[i] == x;
                if (dup)
                    continue;
                done[ndone++] = x;
                if (pass == 0)
                    r->ent_first[x + 1]++;
                else
                    r->entrances[fill[x]++] = (sq_t)t;
            }
        }
        free(fill);
    }
    return 0;
}

int rooms_build(rooms *r, const board *b)
{
    memset(r, 0, sizeof *r);
    int n = b->nsq;
    r->nsq = n;
    rooms_work w;
    memset(&w, 0, sizeof w);
    int32_t *group = alloc_bytes(sizeof *group * (size_t)n);
    sq_t *queue = alloc_bytes(sizeof *queue * (size_t)n);
    r->room_of = alloc_bytes(sizeof *r->room_of * (size_t)n);
    if (!group || !queue || !r->room_of)
        goto fail;
    r->nfound = find_rooms(b, r->room_of, group, queue);
    r->nrooms = r->nfound > ROOMS_MAX ? 0 : r->nfound;
    free(group);
    free(queue);
    group = NULL;
    queue = NULL;
    if (fill_tables(r, b) != 0)
        goto fail;

    /* base links: the empty board, where both sides always agree */
    r->link = alloc_bytes(sizeof *r->link * ((size_t)r->nrooms * (size_t)r->nrooms / 2 + 1));
    if (!r->link)
        goto fail;
    if (r->nrooms > 0) {
        if (work_alloc(&w, n, r->nrooms, 0) != 0)
            goto fail;
        work_corridors(&w, r);
        compute_keep(r, &w, b, NULL);
        for (int x = 0; x < r->nrooms; x++)
            for (int y = x + 1; y < r->nrooms; y++)
                if (mask_has(w.keep[x], y) && mask_has(w.keep[y], x)) {
                    r->link[r->nlinks][0] = (uint8_t)x;
                    r->link[r->nlinks][1] = (uint8_t)y;
                    r->nlinks++;
                }
        rooms_work_free(&w);
    }
    return 0;
fail:
    free(group);
    free(queue);
    rooms_work_free(&w);
    rooms_free(r);
    return -1;
}
