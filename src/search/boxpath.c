/* boxpath.c: single-box push paths (see boxpath.h). */
#include "boxpath.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define BOXPATH_FLOOD_BUDGET 48 /* see boxpath.flood_budget */

void boxpath_init(boxpath *bp, int nsq)
{
    bp->nsq = nsq;
    bp->parent = xmalloc(sizeof(int32_t) * (size_t)nsq * 4);
    bp->depth = xmalloc(sizeof(int32_t) * (size_t)nsq * 4);
    bp->mark = xcalloc((size_t)nsq * 4, sizeof(uint32_t));
    bp->stamp = 0;
    bp->refused = 0;
    bp->queue = xmalloc(sizeof(int32_t) * ((size_t)nsq * 4 + 1));
    bp->side_stamp = xcalloc((size_t)nsq * 4, sizeof(uint32_t));
    bp->side_mask = xmalloc((size_t)nsq * 4);
    reach_init(&bp->r, nsq);
    bp->flood_budget = BOXPATH_FLOOD_BUDGET;
    bp->bk_ready = 0;
    blocks_init(&bp->bk, nsq);
    bp->blocked = xmalloc((size_t)(nsq > 0 ? nsq : 1));
    bp->forest_ok = 0;
    bp->forest_boxes = xmalloc(sizeof(sq_t) * (size_t)(nsq > 0 ? nsq : 1));
}

void boxpath_free(boxpath *bp)
{
    free(bp->parent);
    free(bp->depth);
    free(bp->mark);
    free(bp->queue);
    free(bp->side_stamp);
    free(bp->side_mask);
    reach_free(&bp->r);
    blocks_free(&bp->bk);
    free(bp->blocked);
    free(bp->forest_boxes);
    memset(bp, 0, sizeof *bp);
}

/* The sides of the box on `box` that the player on `pl` can reach, as a
 * mask of directions (bit d: the neighbour in direction d). A breadth-first
 * walk that stops as soon as every free side is found, so in open areas it
 * looks only around the box. */
static int sides_reached(boxpath *bp, const position *p, sq_t box, sq_t pl, int budget)
{
    const board *b = p->b;
    int want = 0, got = 0;
    for (int d = 0; d < 4; d++) {
        sq_t t = b->nb[box][d];
        if (t != SQ_NONE && p->box_at[t] == NO_BOX)
            want |= 1 << d;
        if (t == pl)
            got |= 1 << d;
    }
    if (got == want)
        return got;
    reach *r = &bp->r;
    uint32_t ts = reach_new_stamp(r);
    sq_t *queue = r->stack;
    int head = 0, tail = 0;
    r->stamp[pl] = ts;
    queue[tail++] = pl;
    const sq_t *side = b->nb[box];
    while (head < tail) {
        if (budget && tail > budget)
            return -1;
        sq_t s = queue[head++];
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d];
            if (t == SQ_NONE || r->stamp[t] == ts || p->box_at[t] != NO_BOX)
                continue;
            r->stamp[t] = ts;
            queue[tail++] = t;
            for (int e = 0; e < 4; e++)
                if (side[e] == t)
                    got |= 1 << e;
            if (got == want)
                return got;
        }
    }
    return got;
}

static int walk_sides(boxpath *bp, const position *p, sq_t box, int dpl);

/* The start of a walk of the box on `from` in p (as it stands, before
 * the walk moves the box): bp->bk_ready when the forest kept is of p's
 * box set (its hash, then each square, so that a hash collision cannot
 * pass). */
static void walk_setup(boxpath *bp, const position *p, sq_t from)
{
    bp->walk_from = from;
    bp->walk_hash = p->hash;
    int ok = bp->forest_ok && bp->forest_hash == p->hash && bp->forest_n == p->b->nboxes;
    for (int i = 0; ok && i < bp->forest_n; i++)
        ok = p->box_at[bp->forest_boxes[i]] != NO_BOX;
    bp->bk_ready = ok;
}

/* A necessary condition, cheap to test: the box can go from `from` to `to`
 * in at most max_pushes pushes (0 = no cap) when the player could always
 * stand behind it wherever that square is free. A breadth-first search
 * over box squares only; most failing macro searches fail here already. */
static int relaxed_reachable(boxpath *bp, const position *p, sq_t from, sq_t to, int max_pushes)
{
    const board *b = p->b;
    reach *r = &bp->r;
    uint32_t ts = reach_new_stamp(r);
    sq_t *queue = r->stack;
    sq_t *depth = r->parent; /* scratch: pushes to each square */
    int head = 0, tail = 0;
    r->stamp[from] = ts;
    depth[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        sq_t s = queue[head++];
        if (max_pushes > 0 && depth[s] >= max_pushes)
            continue;
        for (int d = 0; d < 4; d++) {
            sq_t t = b->nb[s][d], behind = b->nb[s][DIR_OPP(d)];
            if (t == SQ_NONE || behind == SQ_NONE || r->stamp[t] == ts || (b->dead && b->dead[t]) ||
                (p->box_at[t] != NO_BOX && t != from) ||
                (p->box_at[behind] != NO_BOX && behind != from))
                continue;
            if (t == to)
                return 1;
            r->stamp[t] = ts;
            depth[t] = (sq_t)(depth[s] + 1);
            queue[tail++] = t;
        }
    }
    return 0;
}

/* A state is box * 4 + d: the box on `box`, the player on its neighbour in
 * direction d. The start state uses the player's real square instead, kept
 * apart as START. */
#define START (-1)

int boxpath_search(boxpath *bp, position *p, sq_t from, sq_t to, uint8_t *dirs, int max_pushes)
{
    return boxpath_search_dir(bp, p, from, to, -1, dirs, max_pushes);
}

int boxpath_search_dir(boxpath *bp, position *p, sq_t from, sq_t to, int last_dir, uint8_t *dirs,
                       int max_pushes)
{
    const board *b = p->b;
    if (from == to && last_dir < 0)
        return 0;
    if (from != to && !relaxed_reachable(bp, p, from, to, max_pushes))
        return -1;
    if (++bp->stamp == 0) {
        memset(bp->mark, 0, sizeof(uint32_t) * (size_t)bp->nsq * 4);
        memset(bp->side_stamp, 0, sizeof(uint32_t) * (size_t)bp->nsq * 4);
        bp->stamp = 1;
    }
    sq_t player0 = p->player;
    int head = 0, tail = 0, found = -1;
    walk_setup(bp, p, from);
    bp->queue[tail++] = START;
    sq_t cur_box = from;
    while (head < tail && found < 0) {
        int st = bp->queue[head++];
        sq_t box = st == START ? from : (sq_t)(st / 4);
        sq_t pl = st == START ? player0 : b->nb[box][st % 4];
        /* place the box */
        if (box != cur_box) {
            undo_rec u;
            pos_relocate(p, cur_box, box, pl, &u);
            cur_box = box;
        }
        p->player = pl;
        int depth = st == START ? 0 : bp->depth[st];
        if (max_pushes > 0 && depth >= max_pushes)
            continue;
        /* The sides the player reaches are the same from each of them:
         * one walk serves every state of this box square it finds. */
        int sides;
        if (st != START && bp->side_stamp[st] == bp->stamp) {
            sides = bp->side_mask[st];
        } else {
            sides = st == START ? sides_reached(bp, p, box, pl, 0) : walk_sides(bp, p, box, st % 4);
            for (int d = 0; d < 4; d++)
                if (sides & (1 << d)) {
                    bp->side_stamp[box * 4 + d] = bp->stamp;
                    bp->side_mask[box * 4 + d] = (uint8_t)sides;
                }
        }
        for (int d = 0; d < 4; d++) {
            sq_t ahead = b->nb[box][d];
            if (!(sides & (1 << DIR_OPP(d))) || ahead == SQ_NONE || p->box_at[ahead] != NO_BOX)
                continue;
            int ns = ahead * 4 + DIR_OPP(d); /* the player ends on the box's old square */
            if (bp->mark[ns] == bp->stamp)
                continue;
            bp->mark[ns] = bp->stamp;
            bp->parent[ns] = st;
            bp->depth[ns] = depth + 1;
            if (ahead == to && (last_dir < 0 || d == last_dir)) {
                found = ns;
                break;
            }
            bp->queue[tail++] = ns;
        }
    }
    /* restore the box and the player */
    if (cur_box != from) {
        undo_rec u;
        pos_relocate(p, cur_box, from, player0, &u);
    }
    p->player = player0;
    if (found < 0)
        return -1;
    int n = 0;
    for (int x = found; x != START; x = bp->parent[x])
        n++;
    int i = n;
    for (int x = found; x != START; x = bp->parent[x])
        dirs[--i] = (uint8_t)DIR_OPP(x % 4); /* push direction: away from the player */
    return n;
}

/* The start of a walk of boxpath_moves or boxpath_pulls: a fresh stamp,
 * and the sides of the box on `from` that the player reaches now (r), one
 * region, marked served and seen. Returns them as a mask. */
static int walk_begin(boxpath *bp, const position *p, const reach *r, sq_t from)
{
    const board *b = p->b;
    if (++bp->stamp == 0) {
        memset(bp->mark, 0, sizeof(uint32_t) * (size_t)bp->nsq * 4);
        memset(bp->side_stamp, 0, sizeof(uint32_t) * (size_t)bp->nsq * 4);
        bp->stamp = 1;
    }
    walk_setup(bp, p, from);
    bp->walks++;
    int sides0 = 0;
    for (int d = 0; d < 4; d++) {
        sq_t t = b->nb[from][d];
        if (t != SQ_NONE && p->box_at[t] == NO_BOX && reach_floor(r, t))
            sides0 |= 1 << d;
    }
    for (int d = 0; d < 4; d++)
        if (sides0 & (1 << d)) {
            bp->side_stamp[from * 4 + d] = bp->stamp;
            bp->side_mask[from * 4 + d] = (uint8_t)sides0;
            bp->mark[from * 4 + d] = bp->stamp;
        }
    return sides0;
}

/* The class of square x in the free floor of the walk's position with the
 * walking box lifted from q and standing on s (s != q; x != s free there:
 * x == q or x in the forest's graph): two squares are joined exactly when
 * their classes are equal. The pieces of the graph without s (blocks_piece)
 * that q touches are joined through q: their class is LIFTED, as q's. */
#define LIFTED UINT32_MAX
static inline uint32_t lifted_class(const blocks *bk, const board *b, sq_t q, sq_t s, sq_t x,
                                    const uint32_t *qp, int nqp)
{
    if (x == q)
        return LIFTED;
    uint32_t c = blocks_piece(bk, b, x, s);
    for (int i = 0; i < nqp; i++)
        if (qp[i] == c)
            return LIFTED;
    return c;
}

/* The pieces of the graph without s that q's free neighbours lie in, into
 * qp (at most 4); returns their count. */
static inline int lifted_pieces_of_q(const blocks *bk, const board *b, sq_t q, sq_t s,
                                     uint32_t qp[4])
{
    int n = 0;
    for (int e = 0; e < 4; e++) {
        sq_t a = b->nb[q][e];
        if (a != SQ_NONE && a != s && blocks_has(bk, a))
            qp[n++] = blocks_piece(bk, b, a, s);
    }
    return n;
}

/* Whether a free neighbour of q (the walking box's own square) other than
 * `except` lies in component c of the forest's graph. */
static inline int q_meets(const blocks *bk, const board *b, sq_t q, uint32_t c, sq_t except)
{
    for (int e = 0; e < 4; e++) {
        sq_t a = b->nb[q][e];
        if (a != SQ_NONE && a != except && blocks_has(bk, a) && bk->comp[a] == c)
            return 1;
    }
    return 0;
}

/* The free neighbours of square s in the walk's floor with s taken out
 * (the walking box lifted from q; s itself on q or in the forest's
 * graph), as a mask of directions, and in cls[d] a class per free
 * neighbour: two are joined without s exactly when their classes are
 * equal. */
static int lifted_classes(const blocks *bk, const board *b, sq_t q, sq_t s, uint32_t cls[4])
{
    int free_side = 0;
    if (s == q) { /* the box on its own square: the forest's graph itself */
        for (int d = 0; d < 4; d++) {
            sq_t y = b->nb[s][d];
            if (y != SQ_NONE && blocks_has(bk, y)) {
                free_side |= 1 << d;
                cls[d] = bk->comp[y];
            }
        }
        return free_side;
    }
    /* s cuts nothing off: its free neighbours in the forest's graph are
       one piece without it, and q is in it or alone; else the pieces q
       touches are joined through it */
    int whole = bk->cuts[s] == 0;
    uint32_t qp[4];
    int nqp = whole ? 0 : lifted_pieces_of_q(bk, b, q, s, qp);
    for (int d = 0; d < 4; d++) {
        sq_t y = b->nb[s][d];
        if (y == SQ_NONE || (y != q && !blocks_has(bk, y)))
            continue;
        free_side |= 1 << d;
        if (whole)
            cls[d] = y == q && !q_meets(bk, b, q, bk->comp[s], s) ? 1 : 0;
        else
            cls[d] = lifted_class(bk, b, q, s, y, qp, nqp);
    }
    return free_side;
}

/* The sides of the walking box, lifted from q and standing on s, that a
 * player on its neighbour in direction dpl reaches, from the forest. */
static int forest_sides(const boxpath *bp, const board *b, sq_t s, int dpl)
{
    uint32_t cls[4];
    int free_side = lifted_classes(&bp->bk, b, bp->walk_from, s, cls), got = 0;
    for (int d = 0; d < 4; d++)
        if ((free_side & (1 << d)) && cls[d] == cls[dpl])
            got |= 1 << d;
    return got;
}

int boxpath_lifted_has(const boxpath *bp, const board *b, sq_t x)
{
    const blocks *bk = &bp->bk;
    sq_t q = bp->walk_from;
    return x == q || (blocks_has(bk, x) && q_meets(bk, b, q, bk->comp[x], SQ_NONE));
}

int boxpath_lifted_pieces(const boxpath *bp, const board *b, sq_t x)
{
    uint32_t cls[4], seen[4];
    int free_side = lifted_classes(&bp->bk, b, bp->walk_from, x, cls), n = 0;
    for (int d = 0; d < 4; d++) {
        if (!(free_side & (1 << d)))
            continue;
        int k = 0;
        while (k < n && seen[k] != cls[d])
            k++;
        if (k == n)
            seen[n++] = cls[d];
    }
    return n;
}

/* sides_reached for a state of a walk: the box on `box`, the player on
 * its neighbour in direction dpl. Floods while they stay small; then the
 * forest of the walk's position (built once per position: bp->bk_ready is
 * set at a walk's start when the forest kept is that position's). */
static int walk_sides(boxpath *bp, const position *p, sq_t box, int dpl)
{
    const board *b = p->b;
    if (!bp->bk_ready) {
        if (!bp->bk_last || (bp->walks & 15) == 0) {
            int got = sides_reached(bp, p, box, b->nb[box][dpl], bp->flood_budget);
            if (got >= 0) {
                bp->bk_last = 0;
                return got;
            }
        }
        /* the walk's position: p with the walking box back on walk_from */
        sq_t q = bp->walk_from;
        for (int s = 0; s < b->nsq; s++)
            bp->blocked[s] = p->box_at[s] != NO_BOX;
        bp->blocked[box] = 0;
        bp->blocked[q] = 1;
        blocks_build_forest(&bp->bk, b, bp->blocked);
        for (int i = 0; i < b->nboxes; i++)
            bp->forest_boxes[i] = p->boxes[i];
        bp->forest_boxes[p->box_at[box]] = q;
        bp->forest_n = b->nboxes;
        bp->forest_hash = bp->walk_hash;
        bp->forest_ok = 1;
        bp->bk_ready = 1;
        bp->bk_last = 1;
    }
    int got = forest_sides(bp, b, box, dpl);
    DEBUG_CHECK(got == sides_reached(bp, p, box, b->nb[box][dpl], 0));
    return got;
}

/* Serves state st of a walk: puts the box (now on *cur_box) and the player
 * where st says, and returns the sides of the box the player reaches,
 * marking every state of that region served. */
static int walk_serve(boxpath *bp, position *p, int st, sq_t *cur_box)
{
    const board *b = p->b;
    sq_t box = (sq_t)(st / 4);
    sq_t pl = b->nb[box][st % 4];
    if (box != *cur_box) {
        undo_rec u;
        pos_relocate(p, *cur_box, box, pl, &u);
        *cur_box = box;
    }
    p->player = pl;
    int sides = walk_sides(bp, p, box, st % 4);
    for (int d = 0; d < 4; d++)
        if (sides & (1 << d)) {
            bp->side_stamp[box * 4 + d] = bp->stamp;
            bp->side_mask[box * 4 + d] = (uint8_t)sides;
        }
    return sides;
}

/* The state a box on `box` enters by one move in direction d from a side
 * the player reaches (sides), or -1: a push (the player behind, on side
 * DIR_OPP(d); the square ahead free and live) enters ahead * 4 + DIR_OPP(d),
 * a pull (the player on side d steps on beyond it) q * 4 + d. */
static inline int step_state(const board *b, const position *p, sq_t box, int d, int sides,
                             int pull)
{
    if (pull) {
        if (!(sides & (1 << d)))
            return -1;
        sq_t q = b->nb[box][d], beyond = b->nb[q][d];
        return beyond == SQ_NONE || p->box_at[beyond] != NO_BOX ? -1 : q * 4 + d;
    }
    sq_t ahead = b->nb[box][d];
    if (!(sides & (1 << DIR_OPP(d))) || ahead == SQ_NONE || p->box_at[ahead] != NO_BOX ||
        b->dead[ahead])
        return -1;
    return ahead * 4 + DIR_OPP(d);
}

/* The breadth-first walk of boxpath_moves (pull 0) and boxpath_pulls (pull
 * 1): first_allow filters the first move's direction, ok the states entered
 * (a refused state counts once, in bp->refused). */
static inline int walk(boxpath *bp, position *p, const reach *r, sq_t from, int pull,
                       unsigned first_allow, const uint8_t *ok, box_move *out)
{
    const board *b = p->b;
    sq_t player0 = p->player;
    int head = 0, tail = 0, nout = 0;
    int sides0 = walk_begin(bp, p, r, from);
    for (int d = 0; d < 4; d++) {
        int ns = first_allow & (1u << d) ? step_state(b, p, from, d, sides0, pull) : -1;
        if (ns < 0)
            continue;
        if (ok && !ok[ns]) {
            bp->refused++;
            continue;
        }
        bp->mark[ns] = bp->stamp;
        bp->depth[ns] = 1;
        bp->parent[ns] = d; /* scratch: the first move's direction */
        bp->queue[tail++] = ns;
    }
    sq_t cur_box = from;
    while (head < tail) {
        int st = bp->queue[head++];
        if (bp->side_stamp[st] == bp->stamp)
            continue; /* a side of a region already served at this square */
        sq_t box = (sq_t)(st / 4);
        int sides = walk_serve(bp, p, st, &cur_box);
        out[nout].to = box;
        out[nout].dir = (uint8_t)(pull ? st % 4 : DIR_OPP(st % 4));
        out[nout].first = (uint8_t)bp->parent[st];
        out[nout].pushes = (uint16_t)MIN(bp->depth[st], 0xFFFF);
        nout++;
        for (int d = 0; d < 4; d++) {
            int ns = step_state(b, p, box, d, sides, pull);
            if (ns < 0 || bp->mark[ns] == bp->stamp)
                continue;
            bp->mark[ns] = bp->stamp;
            if (ok && !ok[ns]) {
                bp->refused++; /* counted once */
                continue;
            }
            bp->depth[ns] = bp->depth[st] + 1;
            bp->parent[ns] = bp->parent[st];
            bp->queue[tail++] = ns;
        }
    }
    if (cur_box != from) {
        undo_rec u;
        pos_relocate(p, cur_box, from, player0, &u);
    }
    p->player = player0;
    return nout;
}

int boxpath_moves(boxpath *bp, position *p, const reach *r, sq_t from, unsigned first_allow,
                  box_move *out)
{
    return walk(bp, p, r, from, 0, first_allow, NULL, out);
}

/* The pull search mirrors boxpath_moves: a state is box * 4 + d, the box
 * on `box` and the player on its neighbour in direction d, which after a
 * pull in direction d is where the player stands; walking round the box
 * (one flood per box square and region) costs nothing, a pull costs one. */
int boxpath_pulls(boxpath *bp, position *p, const reach *r, sq_t from, const uint8_t *ok,
                  box_move *out)
{
    return walk(bp, p, r, from, 1, 0xFu, ok, out);
}
