/* position.c: make/unmake of pushes with incremental hash and goal count. */
#include "position.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void pos_init(position *p, const board *b)
{
    p->b = b;
    p->box_at = xmalloc(sizeof(uint16_t) * (size_t)b->nsq);
    p->boxes = xmalloc(sizeof(sq_t) * (size_t)b->nboxes);
    pos_set(p, b->start_boxes, b->start_player);
}

void pos_free(position *p)
{
    free(p->box_at);
    free(p->boxes);
    p->box_at = NULL;
    p->boxes = NULL;
}

void pos_set(position *p, const sq_t *squares, sq_t player)
{
    const board *b = p->b;
    for (int s = 0; s < b->nsq; s++)
        p->box_at[s] = NO_BOX;
    p->hash = 0;
    p->on_goal = 0;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t s = squares[i];
        p->boxes[i] = s;
        p->box_at[s] = (uint16_t)i;
        p->hash ^= b->zbox[s];
        p->on_goal += b->is_goal[s];
    }
    p->player = player;
}

void pos_copy(position *dst, const position *src)
{
    const board *b = src->b;
    memcpy(dst->box_at, src->box_at, sizeof(uint16_t) * (size_t)b->nsq);
    memcpy(dst->boxes, src->boxes, sizeof(sq_t) * (size_t)b->nboxes);
    dst->player = src->player;
    dst->hash = src->hash;
    dst->on_goal = src->on_goal;
}

/* Moves the box on `from` to `to` (free, or `from` itself) and the player
 * to `player`, recording the undo in u: the one step pos_push and
 * pos_relocate share. */
static inline void move_box(position *p, uint16_t box, sq_t from, sq_t to, sq_t player,
                            undo_rec *u)
{
    const board *b = p->b;
    u->box = box;
    u->from = from;
    u->to = to;
    u->player = p->player;
    p->box_at[from] = NO_BOX;
    p->box_at[to] = box;
    p->boxes[box] = to;
    p->hash ^= b->zbox[from] ^ b->zbox[to];
    p->on_goal += b->is_goal[to] - b->is_goal[from];
    p->player = player;
}

void pos_push(position *p, sq_t from, int dir, int len, undo_rec *u)
{
    const board *b = p->b;
    uint16_t box = p->box_at[from];
    assert(box != NO_BOX && len >= 1);
    sq_t to = from, behind = from;
    for (int i = 0; i < len; i++) {
        behind = to;
        to = b->nb[to][dir];
        assert(to != SQ_NONE && p->box_at[to] == NO_BOX);
    }
    move_box(p, box, from, to, behind, u);
    DEBUG_CHECK(pos_check(p) == 0);
}

void pos_relocate(position *p, sq_t from, sq_t to, sq_t player, undo_rec *u)
{
    uint16_t box = p->box_at[from];
    assert(box != NO_BOX && (to == from || p->box_at[to] == NO_BOX));
    move_box(p, box, from, to, player, u);
}

void pos_undo(position *p, const undo_rec *u)
{
    const board *b = p->b;
    p->box_at[u->to] = NO_BOX;
    p->box_at[u->from] = u->box;
    p->boxes[u->box] = u->from;
    p->hash ^= b->zbox[u->from] ^ b->zbox[u->to];
    p->on_goal += b->is_goal[u->from] - b->is_goal[u->to];
    p->player = u->player;
    DEBUG_CHECK(pos_check(p) == 0);
}

int pos_check(const position *p)
{
    const board *b = p->b;
    uint64_t h = 0;
    int on = 0, count = 0;
    for (int i = 0; i < b->nboxes; i++) {
        sq_t s = p->boxes[i];
        if (s >= b->nsq)
            return 1;
        if (p->box_at[s] != i)
            return 2;
        h ^= b->zbox[s];
        on += b->is_goal[s];
    }
    for (int s = 0; s < b->nsq; s++)
        if (p->box_at[s] != NO_BOX)
            count++;
    if (count != b->nboxes)
        return 3;
    if (h != p->hash)
        return 4;
    if (on != p->on_goal)
        return 5;
    if (p->player >= b->nsq || p->box_at[p->player] != NO_BOX)
        return 6;
    return 0;
}
