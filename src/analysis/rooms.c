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
    size_t n = (size_t)nsq, nr = (size_t)nrooms, np = n + nr;
    w->label = alloc_bytes(sizeof *w->label * n);
    w->queue = alloc_bytes(sizeof *w->queue * n);
    w->parent = alloc_bytes(sizeof *w->parent * np);
    w->part_room = alloc_bytes(np);
    w->mask = alloc_bytes(sizeof *w->mask * np);
    w->keep = alloc_bytes(sizeof *w->keep * nr);
    w->has_part = alloc_bytes(nr);
    w->seen_in = alloc_bytes(sizeof *w->seen_in * nr);
    w->rep = alloc_bytes(sizeof *w->rep * nr);
    w->cut = alloc_bytes((size_t)nlinks);
    w->wit = alloc_bytes(sizeof *w->wit * nr);
    w->corr = alloc_bytes(sizeof *w->corr * n);
    w->xfirst = alloc_bytes(sizeof *w->xfirst * nr);
    w->xend = alloc_bytes(sizeof *w->xend * nr);
    w->chk_keep = alloc_bytes(sizeof *w->chk_keep * nr);
    w->chk_has = alloc_bytes(nr);
    w->chk_cut = alloc_bytes((size_t)nlinks);
    if (!w->corr || !w->wit || !w->label || !w->queue || !w->parent || !w->part_room || !w->mask || !w->keep ||
        !w->has_part || !w->seen_in || !w->rep || !w->cut || !w->xfirst || !w->xend || !w->chk_keep ||
        !w->chk_has || !w->chk_cut)
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

/* The tables of the fast room score, part 1 (work_tables): the cells and
 * their squares. Returns 0 or -1 (out of memory). */
static int tables_cells(rooms_work *w, const rooms *r, const board *b)
{
    int n = b->nsq, nr = r->nrooms;
    w->cell_of = alloc_bytes(sizeof *w->cell_of * (size_t)n);
    w->cell_sq = alloc_bytes(sizeof *w->cell_sq * (size_t)n);
    if (!w->cell_of || !w->cell_sq)
        return -1;
    /* corridor cells: flood the corridor squares on the empty board, in
       ascending order of their first square (cell_sq as the queue) */
    for (int s = 0; s < n; s++)
        w->cell_of[s] = r->room_of[s];
    int ncc = 0, filled = 0;
    for (int c = 0; c < w->ncorr; c++) {
        sq_t s0 = w->corr[c];
        if (w->cell_of[s0] != -1)
            continue;
        int16_t k = (int16_t)(nr + ncc++);
        int head = filled;
        w->cell_of[s0] = k;
        w->cell_sq[filled++] = s0;
        while (head < filled) {
            sq_t q = w->cell_sq[head++];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t != SQ_NONE && w->cell_of[t] == -1) {
                    w->cell_of[t] = k;
                    w->cell_sq[filled++] = t;
                }
            }
        }
    }
    w->ncc = ncc;
    w->ncells = nr + ncc;
    w->cell_first = alloc_bytes(sizeof *w->cell_first * ((size_t)w->ncells + 1));
    int *fill = alloc_bytes(sizeof *fill * (size_t)w->ncells);
    if (!w->cell_first || !fill) {
        free(fill);
        return -1;
    }
    /* cell_first by counting; cell_sq ascending within each cell */
    memset(w->cell_first, 0, sizeof *w->cell_first * ((size_t)w->ncells + 1));
    for (int s = 0; s < n; s++)
        w->cell_first[w->cell_of[s] + 1]++;
    for (int k = 0; k < w->ncells; k++)
        w->cell_first[k + 1] += w->cell_first[k];
    memcpy(fill, w->cell_first, sizeof *fill * (size_t)w->ncells);
    for (int s = 0; s < n; s++)
        w->cell_sq[fill[w->cell_of[s]]++] = (sq_t)s;
    free(fill);
    return 0;
}

/* Part 2: the sides of the rooms (edge[]) and the side squares of the
 * cells. Returns 0 or -1. */
static int tables_sides(rooms_work *w, const rooms *r, const board *b)
{
    int n = b->nsq, nr = r->nrooms;
    w->edge_first = alloc_bytes(sizeof *w->edge_first * ((size_t)nr + 1));
    w->edge_mid = alloc_bytes(sizeof *w->edge_mid * (size_t)nr);
    w->side_first = alloc_bytes(sizeof *w->side_first * ((size_t)w->ncells + 1));
    uint8_t *is_side = alloc_bytes((size_t)n);
    int nedges = 0;
    for (int i = 0; i < r->sq_first[nr]; i++)
        for (int d = 0; d < 4; d++) {
            sq_t s = r->squares[i], t = b->nb[s][d];
            nedges += t != SQ_NONE && r->room_of[t] != r->room_of[s];
        }
    w->edge = alloc_bytes(sizeof *w->edge * (size_t)nedges);
    if (!w->edge_first || !w->edge_mid || !w->side_first || !is_side || !w->edge) {
        free(is_side);
        return -1;
    }
    memset(is_side, 0, (size_t)n);
    int e = 0;
    for (int x = 0; x < nr; x++) {
        w->edge_first[x] = e;
        for (int pass = 0; pass < 2; pass++) { /* to rooms, then to corridors */
            if (pass == 1)
                w->edge_mid[x] = e;
            for (int i = r->sq_first[x]; i < r->sq_first[x + 1]; i++)
                for (int d = 0; d < 4; d++) {
                    sq_t s = r->squares[i], t = b->nb[s][d];
                    if (t == SQ_NONE || r->room_of[t] == x || (r->room_of[t] < 0) != pass)
                        continue;
                    w->edge[e].s = s;
                    w->edge[e].t = t;
                    w->edge[e].other = (int16_t)(pass == 0 ? r->room_of[t] : w->cell_of[t] - nr);
                    is_side[s] = is_side[t] = 1;
                    e++;
                }
        }
    }
    w->edge_first[nr] = e;
    /* side squares, cell by cell, ascending (cell_sq is) */
    int nside = 0;
    for (int s = 0; s < n; s++)
        nside += is_side[s];
    w->side_sq = alloc_bytes(sizeof *w->side_sq * (size_t)nside);
    if (!w->side_sq) {
        free(is_side);
        return -1;
    }
    nside = 0;
    for (int k = 0; k < w->ncells; k++) {
        w->side_first[k] = nside;
        for (int i = w->cell_first[k]; i < w->cell_first[k + 1]; i++)
            if (is_side[w->cell_sq[i]])
                w->side_sq[nside++] = w->cell_sq[i];
    }
    w->side_first[w->ncells] = nside;
    free(is_side);
    return 0;
}

/* Part 3: the layouts of the cells (word, rows) and flood[]. Returns 0 or
 * -1. */
static int tables_layouts(rooms_work *w, const board *b)
{
    int n = b->nsq, nc = w->ncells;
    w->flood = alloc_bytes((size_t)nc);
    w->wbit = alloc_bytes((size_t)n);
    w->wstride = alloc_bytes((size_t)nc);
    w->wmask = alloc_bytes(sizeof *w->wmask * (size_t)nc);
    w->wside = alloc_bytes(sizeof *w->wside * (size_t)nc);
    w->cwidth = alloc_bytes(sizeof *w->cwidth * (size_t)nc);
    w->sq_row = alloc_bytes((size_t)n);
    w->sq_col = alloc_bytes((size_t)n);
    if (!w->flood || !w->wbit || !w->wstride || !w->wmask || !w->wside || !w->cwidth || !w->sq_row ||
        !w->sq_col)
        return -1;
    w->width = b->width;
    w->height = b->height;
    w->rows = b->width <= 64;
    for (int s = 0; s < n; s++) { /* LEVEL_MAX_WIDTH, _HEIGHT: a byte holds them */
        w->sq_row[s] = (uint8_t)board_row(b, (sq_t)s);
        w->sq_col[s] = (uint8_t)board_col(b, (sq_t)s);
        w->wbit[s] = 0;
    }
    for (int k = 0; k < nc; k++) {
        /* the bounding box: cell_sq is ascending, so row-major */
        const sq_t *sq = w->cell_sq + w->cell_first[k];
        int cnt = w->cell_first[k + 1] - w->cell_first[k];
        int r0 = w->sq_row[sq[0]], h = w->sq_row[sq[cnt - 1]] - r0 + 1, c0 = w->sq_col[sq[0]], c1 = c0;
        for (int i = 1; i < cnt; i++) {
            c0 = w->sq_col[sq[i]] < c0 ? w->sq_col[sq[i]] : c0;
            c1 = w->sq_col[sq[i]] > c1 ? w->sq_col[sq[i]] : c1;
        }
        w->cwidth[k] = (uint16_t)(c1 - c0 + 1);
        /* a stride under 64 (shifts by it are defined), every bit in the word */
        int stride = c1 - c0 + 2;
        w->flood[k] = w->rows ? ROOMS_FLOOD_ROWS : ROOMS_FLOOD_SQUARES;
        w->wstride[k] = 0;
        w->wmask[k] = w->wside[k] = 0;
        if (stride >= 64 || (h - 1) * stride + stride - 1 > 64)
            continue;
        w->flood[k] = ROOMS_FLOOD_WORD;
        w->wstride[k] = (uint8_t)stride;
        for (int i = 0; i < cnt; i++) {
            w->wbit[sq[i]] = (uint8_t)((w->sq_row[sq[i]] - r0) * stride + w->sq_col[sq[i]] - c0);
            w->wmask[k] |= 1ULL << w->wbit[sq[i]];
        }
        for (int i = w->side_first[k]; i < w->side_first[k + 1]; i++)
            w->wside[k] |= 1ULL << w->wbit[w->side_sq[i]];
    }
    if (!w->rows)
        return 0;
    /* the row layout of every cell (also of the packed ones, for tests) */
    w->row_first = alloc_bytes(sizeof *w->row_first * ((size_t)nc + 1));
    w->row0 = alloc_bytes(sizeof *w->row0 * (size_t)nc);
    w->boxrow = alloc_bytes(sizeof *w->boxrow * (size_t)b->height);
    w->rem = alloc_bytes(sizeof *w->rem * (size_t)b->height);
    w->fill = alloc_bytes(sizeof *w->fill * (size_t)b->height);
    if (!w->row_first || !w->row0 || !w->boxrow || !w->rem || !w->fill)
        return -1;
    w->row_first[0] = 0;
    for (int k = 0; k < nc; k++) {
        const sq_t *sq = w->cell_sq + w->cell_first[k];
        int lo = w->sq_row[sq[0]], hi = w->sq_row[sq[w->cell_first[k + 1] - w->cell_first[k] - 1]];
        w->row0[k] = lo;
        w->row_first[k + 1] = w->row_first[k] + hi - lo + 1;
    }
    size_t nrow = (size_t)w->row_first[nc];
    w->cmask = alloc_bytes(sizeof *w->cmask * nrow);
    w->cside = alloc_bytes(sizeof *w->cside * nrow);
    if (!w->cmask || !w->cside)
        return -1;
    memset(w->cmask, 0, sizeof *w->cmask * nrow);
    memset(w->cside, 0, sizeof *w->cside * nrow);
    for (int k = 0; k < nc; k++) {
        for (int i = w->cell_first[k]; i < w->cell_first[k + 1]; i++) {
            sq_t s = w->cell_sq[i];
            w->cmask[w->row_first[k] + w->sq_row[s] - w->row0[k]] |= 1ULL << w->sq_col[s];
        }
        for (int i = w->side_first[k]; i < w->side_first[k + 1]; i++) {
            sq_t s = w->side_sq[i];
            w->cside[w->row_first[k] + w->sq_row[s] - w->row0[k]] |= 1ULL << w->sq_col[s];
        }
    }
    return 0;
}

/* The tables of the fast room score (rooms_work: cells, sides, layouts)
 * and the scratch sized by them, for rooms r of board b (after work_alloc
 * and work_corridors, with rooms). Returns 0, or -1 when memory cannot be
 * had (w then holds what was had; free it). */
static int work_tables(rooms_work *w, const rooms *r, const board *b)
{
    if (tables_cells(w, r, b) != 0 || tables_sides(w, r, b) != 0 || tables_layouts(w, b) != 0)
        return -1;
    size_t nc = (size_t)w->ncorr + (size_t)w->ncc;
    w->cbox = alloc_bytes(sizeof *w->cbox * (size_t)w->ncells);
    w->state = alloc_bytes((size_t)w->ncells);
    w->met = alloc_bytes(sizeof *w->met * nc);
    w->cstamp = alloc_bytes(sizeof *w->cstamp * nc);
    w->cfirst = alloc_bytes(sizeof *w->cfirst * nc);
    if (!w->cbox || !w->state || !w->met || !w->cstamp || !w->cfirst)
        return -1;
    return 0;
}

void rooms_work_free(rooms_work *w)
{
    free(w->xfirst);
    free(w->xend);
    free(w->chk_keep);
    free(w->chk_has);
    free(w->chk_cut);
    free(w->cell_of);
    free(w->cell_first);
    free(w->cell_sq);
    free(w->side_first);
    free(w->side_sq);
    free(w->edge);
    free(w->edge_first);
    free(w->edge_mid);
    free(w->flood);
    free(w->wbit);
    free(w->wstride);
    free(w->wmask);
    free(w->wside);
    free(w->cwidth);
    free(w->sq_row);
    free(w->sq_col);
    free(w->row_first);
    free(w->row0);
    free(w->cmask);
    free(w->cside);
    free(w->cbox);
    free(w->boxrow);
    free(w->rem);
    free(w->fill);
    free(w->state);
    free(w->met);
    free(w->cstamp);
    free(w->cfirst);
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
    if (r->nrooms > 0 && work_tables(w, r, b) != 0)
        die("out of memory allocating the rooms scratch (%d squares)", b->nsq);
}

/* The reference flood (compute_keep_ref), the former compute_keep, kept
 * for rooms_score_check only.
 *
 * Step 1 of compute_keep_ref: labels the free parts of all rooms (w->label of
 * their squares, w->part_room), each part noting in w->mask the other rooms
 * it touches directly. w->label is -1 on every square before. Returns the
 * number of parts. */
static int label_parts_ref(const rooms *r, rooms_work *w, const board *b, const uint16_t *box_at)
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

/* Step 2 of compute_keep_ref: floods each component of box-free corridor
 * squares once, joins (w->parent) the free parts of one room that it
 * touches, and adds the rooms it touches to those parts' masks. */
static void join_by_corridors_ref(const rooms *r, rooms_work *w, const board *b, const uint16_t *box_at)
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

/* Step 3 of compute_keep_ref: the joined parts pool what they reach; a room
 * keeps the rooms that all its parts reach (w->keep, w->has_part). */
static void pool_parts_ref(const rooms *r, rooms_work *w, int nparts)
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

/* The reference: fills w->keep[X] with the rooms that room X keeps its
 * link to when boxes stand where box_at says (box_at NULL: the empty
 * board), and w->has_part[X]. Contract: r->nrooms > 0; w was allocated
 * for r.
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
static void compute_keep_ref(const rooms *r, rooms_work *w, const board *b, const uint16_t *box_at)
{
    memset(w->label, 0xFF, sizeof *w->label * (size_t)b->nsq); /* every label -1 */
    int nparts = label_parts_ref(r, w, b, box_at);
    join_by_corridors_ref(r, w, b, box_at);
    pool_parts_ref(r, w, nparts);
}

/* The fast room score.
 *
 * The keep relation in other words: the free parts of room X joined by the
 * corridor components that touch two of them (transitively) form X's
 * groups; what a group reaches is the rooms other than X that touch one of
 * its parts or one of its corridor components (a room Y touches a set of
 * squares when a box-free square of Y is next to one of them); X keeps
 * the rooms that every group reaches. compute_keep_ref floods every square
 * of every room and corridor for it; compute_keep looks at the squares
 * where the answer can differ from the empty board's only:
 *   - a cell (a room, or a corridor cell: a component of corridor squares
 *     on the empty board) without a box is one component, all its squares
 *     free: it needs no flood, its component's id is the cell's own (room
 *     x: part x; corridor cell c: component c);
 *   - a cell with a box is flooded alone (flood_cell_word: its bounding
 *     box packed in one word; flood_cell_rows: a word a row; flood_cell:
 *     square by square); its first component keeps the cell's id, the
 *     others get new ids;
 *   - touches between components of different cells happen across room
 *     sides only (a corridor square never touches a corridor square of
 *     another cell), which are listed once (work_tables): one pass over
 *     the sides to corridors gives each corridor component the rooms it
 *     touches, a second one gives each part the rooms it touches directly
 *     and those of its corridor components, and joins the parts of one
 *     room that share a corridor component (union-find, w->parent);
 *   - each room pools the masks of its joined parts and intersects them.
 * The word and row floods tell apart only the components with a side
 * square (the others touch nothing): a corridor component without one is
 * never looked at, and a free part of room X without one reaches no room,
 * so X keeps nothing (CELL_SHUT) whatever its other parts reach.
 * The result is a function of the components and their touches only, so
 * it is the reference's exactly (rooms_score_check, the unit tests). */

/* w->state of a cell after compute_keep's floods */
enum {
    CELL_ONE = 0,   /* its free squares with a side square are one component, the cell's id */
    CELL_SPLIT = 1, /* several: w->label of a free side square tells its component */
    CELL_SHUT = 2   /* a room with a free part without a side square: it keeps nothing */
};

/* Floods cell k of the fast room score (a cell holding a box), square by
 * square: labels every component of its box-free squares, the first one
 * `first`, the others *next, *next + 1, ... (advancing *next), in w->label
 * of each of their squares (w->label of the cell's boxed squares: -1).
 * Returns the number of components (0: every square of the cell holds a
 * box). */
static int flood_cell(rooms_work *w, const board *b, const uint16_t *box_at, int k, int32_t first,
                      int32_t *next)
{
    const sq_t *sq = w->cell_sq + w->cell_first[k];
    int n = w->cell_first[k + 1] - w->cell_first[k];
    int32_t *label = w->label;
    const int16_t *cell_of = w->cell_of;
    for (int i = 0; i < n; i++)
        label[sq[i]] = -1;
    int ncomp = 0;
    for (int i = 0; i < n; i++) {
        sq_t s = sq[i];
        if (label[s] >= 0 || box_at[s] != NO_BOX)
            continue;
        int32_t id = ncomp++ == 0 ? first : (*next)++;
        int head = 0, tail = 0;
        label[s] = id;
        w->queue[tail++] = s;
        while (head < tail) {
            sq_t q = w->queue[head++];
            for (int d = 0; d < 4; d++) {
                sq_t t = b->nb[q][d];
                if (t != SQ_NONE && cell_of[t] == k && label[t] < 0 && box_at[t] == NO_BOX) {
                    label[t] = id;
                    w->queue[tail++] = t;
                }
            }
        }
    }
    return ncomp;
}

/* The runs of free squares f (a row bitboard, or rows packed in a word
 * with a 0 bit between them) that hold a square of v (v within f): v grown
 * left and right within f. Contract: no run of f is longer than `wide`. */
static inline uint64_t row_fill(uint64_t v, uint64_t f, int wide)
{
    /* toward higher bits: adding v carries from the lowest square of v in
       each run of f to the run's end (and one past it, which f drops) */
    uint64_t x = (((f + v) ^ f) | v) & f;
    /* toward lower bits, by doubling steps: after the step by sh, x holds
       the squares up to 2 sh - 1 below those of before the first step
       (g: the squares whose next sh squares below are free) */
    uint64_t g = f;
    for (int sh = 1; sh < wide; sh <<= 1) {
        x |= g & (x >> sh);
        g &= g >> sh;
    }
    return x;
}

/* One pass of flood_cell_rows over the rows of the component fill[]
 * (within free squares rem[], rows 0 .. n-1; fill[] is 0 outside rows
 * *lo .. *hi, which grow as the component does), downward (step 1) or
 * upward (step -1): each row takes the free squares next to the rows
 * above and below it, grown along the row (runs up to `wide` squares).
 * Returns 1 when a row changed. */
static int fill_pass(uint64_t *fill, const uint64_t *rem, int n, int *lo, int *hi, int step, int wide)
{
    int changed = 0;
    for (int i = step > 0 ? *lo : *hi; i >= 0 && i < n; i += step) {
        if (i < *lo || i > *hi) { /* the row past the component's end */
            uint64_t add = fill[i - step] & rem[i];
            if (!add)
                break;
            fill[i] = row_fill(add, rem[i], wide);
            if (step > 0)
                *hi = i;
            else
                *lo = i;
            changed = 1;
            continue;
        }
        uint64_t near = (i > *lo ? fill[i - 1] : 0) | (i < *hi ? fill[i + 1] : 0);
        uint64_t add = near & rem[i] & ~fill[i];
        if (add) {
            fill[i] = row_fill(fill[i] | add, rem[i], wide);
            changed = 1;
        }
    }
    return changed;
}

/* Floods cell k in the row layout (w->rows; w->boxrow holds the boxes):
 * the components of its box-free squares that hold a side square, ids as
 * flood_cell gives them, w->label written for their side squares only
 * (the only squares compute_keep looks up). Returns their number; *left
 * is set to 1 when the cell has a box-free square in none of them (a
 * component without a side square), else 0. For a room (`room` 1) the
 * flood stops as soon as such a square is known: the return value is then
 * meaningless (the room keeps nothing). */
static int flood_cell_rows(rooms_work *w, const board *b, int k, int room, int32_t first, int32_t *next,
                           int *left)
{
    int r0 = w->row0[k], n = w->row_first[k + 1] - w->row_first[k], wide = w->cwidth[k];
    const uint64_t *cm = w->cmask + w->row_first[k], *side = w->cside + w->row_first[k];
    uint64_t *rem = w->rem, *fill = w->fill;
    for (int i = 0; i < n; i++)
        rem[i] = cm[i] & ~w->boxrow[r0 + i];
    *left = 0;
    if (room) {
        /* quick proof of a part without a side square: a free square that
           is no side square, with no free square of the room beside it */
        for (int i = 0; i < n; i++) {
            uint64_t f = rem[i], near = f << 1 | f >> 1;
            near |= (i > 0 ? rem[i - 1] : 0) | (i + 1 < n ? rem[i + 1] : 0);
            if (f & ~near & ~side[i]) {
                *left = 1;
                return 0;
            }
        }
    }
    int ncomp = 0, top = 0;
    for (;;) {
        /* a free side square not yet in a component seeds the next one;
           rows above `top` have none left */
        while (top < n && !(rem[top] & side[top]))
            top++;
        if (top == n)
            break;
        int32_t id = ncomp++ == 0 ? first : (*next)++;
        int lo = top, hi = top;
        uint64_t seeds = rem[top] & side[top];
        fill[top] = row_fill(seeds & -seeds, rem[top], wide);
        /* until a pass changes nothing: that proves the component whole,
           but for the rows above the seed row, which the first (downward)
           pass does not try; the second (upward) always runs */
        for (int step = 1, npass = 0; fill_pass(fill, rem, n, &lo, &hi, step, wide) || npass == 0; npass++)
            step = -step;
        for (int i = lo; i <= hi; i++) {
            rem[i] &= ~fill[i];
            for (uint64_t bits = fill[i] & side[i]; bits; bits &= bits - 1) {
                sq_t s = b->sq_of_cell[(r0 + i) * w->width + __builtin_ctzll(bits)];
                w->label[s] = id;
            }
        }
    }
    for (int i = 0; i < n && !*left; i++)
        *left = rem[i] != 0;
    return ncomp;
}

/* Floods cell k in its word layout (ROOMS_FLOOD_WORD; w->cbox[k] holds its
 * boxes), as flood_cell_rows does. */
static int flood_cell_word(rooms_work *w, int k, int room, int32_t first, int32_t *next, int *left)
{
    uint64_t rem = w->wmask[k] & ~w->cbox[k], side = w->wside[k];
    int stride = w->wstride[k], wide = w->cwidth[k];
    *left = 0;
    if (room && (rem & ~(rem << 1 | rem >> 1 | rem << stride | rem >> stride) & ~side)) {
        *left = 1; /* as in flood_cell_rows */
        return 0;
    }
    int ncomp = 0;
    for (uint64_t seeds = rem & side; seeds; seeds = rem & side) {
        int32_t id = ncomp++ == 0 ? first : (*next)++;
        /* grown along the rows, then a row up and down, until it stays */
        uint64_t x = row_fill(seeds & -seeds, rem, wide), y;
        while ((y = row_fill(x | ((x << stride | x >> stride) & rem), rem, wide)) != x)
            x = y;
        rem &= ~x;
        for (int i = w->side_first[k]; i < w->side_first[k + 1]; i++) {
            sq_t s = w->side_sq[i];
            if (x >> w->wbit[s] & 1)
                w->label[s] = id;
        }
    }
    *left = rem != 0;
    return ncomp;
}

/* Fills w->keep[X] and w->has_part[X] as compute_keep_ref does, boxes
 * standing where box_at says (never NULL). Contract: r->nrooms > 0; w was
 * set up for r by rooms_work_init (or work_alloc, work_corridors and
 * work_tables); boxes[0 .. nboxes-1] are exactly the squares with a box in
 * box_at. Allocation-free. */
static void compute_keep(const rooms *r, rooms_work *w, const board *b, const uint16_t *box_at,
                         const sq_t *boxes, int nboxes)
{
    int nr = r->nrooms, ncc = w->ncc;
    uint8_t *state = w->state;
    /* the boxes of each cell, and as row bitboards */
    uint64_t *cbox = w->cbox;
    const int16_t *cell_of = w->cell_of;
    const uint8_t *wbit = w->wbit;
    memset(cbox, 0, sizeof *cbox * (size_t)w->ncells);
    if (w->rows) {
        uint64_t *boxrow = w->boxrow;
        const uint8_t *sq_row = w->sq_row, *sq_col = w->sq_col;
        memset(boxrow, 0, sizeof *boxrow * (size_t)w->height);
        for (int i = 0; i < nboxes; i++) {
            sq_t s = boxes[i];
            cbox[cell_of[s]] |= 1ULL << wbit[s];
            boxrow[sq_row[s]] |= 1ULL << sq_col[s];
        }
    } else {
        for (int i = 0; i < nboxes; i++)
            cbox[cell_of[boxes[i]]] |= 1ULL << wbit[boxes[i]];
    }
    /* the rooms' free parts: part x, and more when boxes split room x */
    int32_t next = nr;
    for (int x = 0; x < nr; x++) {
        w->parent[x] = x;
        w->mask[x][0] = w->mask[x][1] = 0;
        w->xfirst[x] = next;
        w->has_part[x] = 1;
        state[x] = CELL_ONE;
        if (cbox[x]) {
            int n, left = 0;
            if (w->flood[x] == ROOMS_FLOOD_WORD)
                n = flood_cell_word(w, x, 1, x, &next, &left);
            else if (w->flood[x] == ROOMS_FLOOD_ROWS)
                n = flood_cell_rows(w, b, x, 1, x, &next, &left);
            else
                n = flood_cell(w, b, box_at, x, x, &next);
            w->has_part[x] = n > 0 || left;
            state[x] = left ? CELL_SHUT : n > 1 ? CELL_SPLIT : CELL_ONE;
            for (int32_t id = w->xfirst[x]; id < next; id++) {
                w->parent[id] = id;
                w->mask[id][0] = w->mask[id][1] = 0;
            }
        }
        w->xend[x] = next;
    }
    /* the corridor components: component c of each corridor cell c, and
       more when boxes split it */
    int32_t cnext = ncc;
    for (int c = 0; c < ncc; c++) {
        int k = nr + c;
        w->met[c][0] = w->met[c][1] = 0;
        w->cstamp[c] = -1;
        state[k] = CELL_ONE;
        if (cbox[k]) {
            int32_t from = cnext;
            int n, left;
            if (w->flood[k] == ROOMS_FLOOD_WORD)
                n = flood_cell_word(w, k, 0, c, &cnext, &left);
            else if (w->flood[k] == ROOMS_FLOOD_ROWS)
                n = flood_cell_rows(w, b, k, 0, c, &cnext, &left);
            else
                n = flood_cell(w, b, box_at, k, c, &cnext);
            state[k] = n > 1 ? CELL_SPLIT : CELL_ONE;
            for (int32_t id = from; id < cnext; id++) {
                w->met[id][0] = w->met[id][1] = 0;
                w->cstamp[id] = -1;
            }
        }
    }
    /* The passes over the sides skip a side with a box on either square
       (box_at is NO_BOX, all ones, on a free square and less on the
       others), before any look at w->label, which only the free squares
       of a split cell have right. */
    const struct rooms_edge *edge = w->edge;
    /* the rooms each corridor component touches */
    for (int x = 0; x < nr; x++) {
        if (!w->has_part[x])
            continue;
        for (int e = w->edge_mid[x]; e < w->edge_first[x + 1]; e++) {
            sq_t t = edge[e].t;
            if ((box_at[edge[e].s] & box_at[t]) != NO_BOX)
                continue;
            int c = edge[e].other;
            mask_set(w->met[state[nr + c] == CELL_SPLIT ? w->label[t] : c], x);
        }
    }
    /* each room: its parts' masks, joined, pooled and intersected */
    for (int x = 0; x < nr; x++) {
        w->keep[x][0] = w->keep[x][1] = 0;
        if (!w->has_part[x] || state[x] == CELL_SHUT)
            continue;
        if (state[x] == CELL_ONE) { /* one part: no label, no join */
            uint64_t m0 = 0, m1 = 0;
            for (int e = w->edge_first[x]; e < w->edge_mid[x]; e++) {
                /* without a branch: `open` is all ones when both squares are free */
                uint64_t open = -(uint64_t)((box_at[edge[e].s] & box_at[edge[e].t]) == NO_BOX);
                int y = edge[e].other;
                uint64_t bit = open & 1ULL << (y & 63);
                m0 |= y < 64 ? bit : 0;
                m1 |= y < 64 ? 0 : bit;
            }
            for (int e = w->edge_mid[x]; e < w->edge_first[x + 1]; e++) {
                sq_t t = edge[e].t;
                if ((box_at[edge[e].s] & box_at[t]) != NO_BOX)
                    continue;
                int c = edge[e].other;
                const uint64_t *m = w->met[state[nr + c] == CELL_SPLIT ? w->label[t] : c];
                m0 |= m[0];
                m1 |= m[1];
            }
            w->keep[x][0] = m0;
            w->keep[x][1] = m1;
        } else {
            for (int e = w->edge_first[x]; e < w->edge_mid[x]; e++) {
                sq_t s = edge[e].s;
                if ((box_at[s] & box_at[edge[e].t]) == NO_BOX)
                    mask_set(w->mask[w->label[s]], edge[e].other);
            }
            for (int e = w->edge_mid[x]; e < w->edge_first[x + 1]; e++) {
                sq_t s = edge[e].s, t = edge[e].t;
                if ((box_at[s] & box_at[t]) != NO_BOX)
                    continue;
                int c = edge[e].other;
                int32_t comp = state[nr + c] == CELL_SPLIT ? w->label[t] : c, part = w->label[s];
                w->mask[part][0] |= w->met[comp][0];
                w->mask[part][1] |= w->met[comp][1];
                if (w->cstamp[comp] != x) {
                    w->cstamp[comp] = x;
                    w->cfirst[comp] = part;
                } else {
                    uf_union(w->parent, w->cfirst[comp], part);
                }
            }
            /* the parts of x: x, then xfirst[x] .. xend[x]-1 */
            for (int32_t part = x; part < w->xend[x]; part = part == x ? w->xfirst[x] : part + 1) {
                int32_t root = uf_find(w->parent, part);
                if (root != part) {
                    w->mask[root][0] |= w->mask[part][0];
                    w->mask[root][1] |= w->mask[part][1];
                }
            }
            w->keep[x][0] = w->keep[x][1] = ~0ULL;
            for (int32_t part = x; part < w->xend[x]; part = part == x ? w->xfirst[x] : part + 1) {
                const uint64_t *m = w->mask[uf_find(w->parent, part)];
                w->keep[x][0] &= m[0];
                w->keep[x][1] &= m[1];
            }
        }
        w->keep[x][x >> 6] &= ~(1ULL << (x & 63));
    }
}

/* w->cut[] from w->keep[]; returns the links cut. */
static int count_cuts(const rooms *r, rooms_work *w)
{
    int cut = 0;
    for (int k = 0; k < r->nlinks; k++) {
        int a = r->link[k][0], c = r->link[k][1];
        int keep = mask_has(w->keep[a], c) && mask_has(w->keep[c], a);
        w->cut[k] = (uint8_t)!keep;
        cut += !keep;
    }
    return cut;
}

int rooms_score(const rooms *r, rooms_work *w, const position *p)
{
    /* the score counts links cut: with none (a board of one room, as on
       half of Sasquatch VII's levels) it is 0 whatever the boxes, and the
       flood, a fifth of the opening search's time on VII 41, is spared */
    if (r->nrooms == 0 || r->nlinks == 0)
        return 0;
    compute_keep(r, w, p->b, p->box_at, p->boxes, p->b->nboxes);
    return count_cuts(r, w);
}

int rooms_score_check(const rooms *r, rooms_work *w, const position *p)
{
    if (r->nrooms == 0 || r->nlinks == 0)
        return rooms_score(r, w, p) == 0; /* nothing is computed */
    int score = rooms_score(r, w, p);
    size_t nr = (size_t)r->nrooms, nl = (size_t)r->nlinks;
    memcpy(w->chk_keep, w->keep, sizeof *w->keep * nr);
    memcpy(w->chk_has, w->has_part, nr);
    memcpy(w->chk_cut, w->cut, nl);
    compute_keep_ref(r, w, p->b, p->box_at);
    int ref = count_cuts(r, w);
    int same = score == ref && memcmp(w->chk_keep, w->keep, sizeof *w->keep * nr) == 0 &&
               memcmp(w->chk_has, w->has_part, nr) == 0 && memcmp(w->chk_cut, w->cut, nl) == 0;
    memcpy(w->keep, w->chk_keep, sizeof *w->keep * nr);
    memcpy(w->has_part, w->chk_has, nr);
    memcpy(w->cut, w->chk_cut, nl);
    return same;
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
    uint16_t *no_box = NULL; /* the empty board's box_at */
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
        no_box = alloc_bytes(sizeof *no_box * (size_t)n);
        if (!no_box || work_alloc(&w, n, r->nrooms, 0) != 0)
            goto fail;
        work_corridors(&w, r);
        if (work_tables(&w, r, b) != 0)
            goto fail;
        for (int s = 0; s < n; s++)
            no_box[s] = NO_BOX;
        compute_keep(r, &w, b, no_box, NULL, 0);
        for (int x = 0; x < r->nrooms; x++)
            for (int y = x + 1; y < r->nrooms; y++)
                if (mask_has(w.keep[x], y) && mask_has(w.keep[y], x)) {
                    r->link[r->nlinks][0] = (uint8_t)x;
                    r->link[r->nlinks][1] = (uint8_t)y;
                    r->nlinks++;
                }
        rooms_work_free(&w);
        free(no_box);
    }
    return 0;
fail:
    free(group);
    free(queue);
    free(no_box);
    rooms_work_free(&w);
    rooms_free(r);
    return -1;
}
