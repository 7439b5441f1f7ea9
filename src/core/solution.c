/* solution.c: LURD decoding and encoding, replay and metrics. */
#include "solution.h"
#include "level.h"
#include "position.h"
#include "rle.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void moves_init(movelist *mv)
{
    mv->m = NULL;
    mv->n = mv->cap = 0;
}

void moves_free(movelist *mv)
{
    free(mv->m);
    moves_init(mv);
}

void moves_add(movelist *mv, int dir, int push)
{
    if (mv->n == mv->cap) {
        mv->cap = mv->cap ? mv->cap * 2 : 256;
        mv->m = xrealloc(mv->m, (size_t)mv->cap);
    }
    mv->m[mv->n++] = (uint8_t)(dir | (push ? MOVE_PUSH : 0));
}

void moves_copy(movelist *dst, const movelist *src)
{
    dst->n = 0;
    for (int i = 0; i < src->n; i++)
        moves_add(dst, src->m[i] & 3, (src->m[i] & MOVE_PUSH) != 0);
}

static int dir_of(char c, int *push)
{
    switch (c) {
    case 'l': *push = 0; return DIR_LEFT;
    case 'u': *push = 0; return DIR_UP;
    case 'r': *push = 0; return DIR_RIGHT;
    case 'd': *push = 0; return DIR_DOWN;
    case 'L': *push = 1; return DIR_LEFT;
    case 'U': *push = 1; return DIR_UP;
    case 'R': *push = 1; return DIR_RIGHT;
    case 'D': *push = 1; return DIR_DOWN;
    default: return -1;
    }
}

int lurd_decode(const char *text, movelist *out, char *err, size_t errlen)
{
    size_t n = strlen(text);
    /* Drop whitespace first so wrapped lines decode as one string. */
    char *clean = xmalloc(n + 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
            clean[m++] = text[i];
    clean[m] = '\0';
    strbuf ex;
    sb_init(&ex);
    const char *s = clean;
    size_t len = m;
    if (rle_has_syntax(clean, m)) {
        size_t at = 0;
        char e[128];
        if (rle_expand(clean, m, &ex, LEVEL_MAX_MOVES, e, sizeof e, &at) != 0) {
            snprintf(err, errlen, "%s at character %zu", e, at + 1);
            free(clean);
            sb_free(&ex);
            return -1;
        }
        s = ex.s ? ex.s : "";
        len = ex.len;
    } else if (m > LEVEL_MAX_MOVES) {
        snprintf(err, errlen, "more than %d moves", LEVEL_MAX_MOVES);
        free(clean);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < len; i++) {
        int push;
        int d = dir_of(s[i], &push);
        if (d < 0) {
            unsigned char c = (unsigned char)s[i];
            if (c >= 0x20 && c < 0x7f)
                snprintf(err, errlen, "unexpected character '%c' in moves", c);
            else
                snprintf(err, errlen, "unexpected byte 0x%02x in moves", c);
            rc = -1;
            break;
        }
        moves_add(out, d, push);
    }
    free(clean);
    sb_free(&ex);
    return rc;
}

void lurd_encode(strbuf *out, const movelist *mv)
{
    for (int i = 0; i < mv->n; i++) {
        char c = dir_char[mv->m[i] & 3];
        if (mv->m[i] & MOVE_PUSH)
            c = (char)(c - 'a' + 'A');
        sb_putc(out, c);
    }
}

static const char *dir_name(int d)
{
    static const char *names[4] = {"left", "up", "right", "down"};
    return names[d & 3];
}

int solution_replay(const board *b, movelist *mv, replay_result *r)
{
    memset(r, 0, sizeof *r);
    position p;
    pos_init(&p, b);
    r->legal = 1;
    int last_box = -1, last_push_dir = -1, prev_dir = -1, prev_push = 0;
    for (int i = 0; i < mv->n; i++) {
        int d = mv->m[i] & 3;
        sq_t t = b->nb[p.player][d];
        if (t == SQ_NONE) {
            r->legal = 0;
            r->fail_step = i + 1;
            snprintf(r->reason, sizeof r->reason, "step %d (%c): the player walks into a wall",
                     i + 1, dir_char[d]);
            break;
        }
        int push = p.box_at[t] != NO_BOX;
        if (push) {
            sq_t beyond = b->nb[t][d];
            if (beyond == SQ_NONE || p.box_at[beyond] != NO_BOX) {
                r->legal = 0;
                r->fail_step = i + 1;
                snprintf(r->reason, sizeof r->reason,
                         "step %d (%c): the box cannot be pushed %s (%s behind it)", i + 1,
                         dir_char[d] - 'a' + 'A', dir_name(d),
                         beyond == SQ_NONE ? "wall" : "another box");
                break;
            }
            int box = p.box_at[t];
            undo_rec u;
            pos_push(&p, t, d, 1, &u);
            r->m.pushes++;
            if (box != last_box)
                r->m.box_changes++;
            if (box != last_box || d != last_push_dir)
                r->m.box_lines++;
            if (!prev_push)
                r->m.pushing_sessions++;
            last_box = box;
            last_push_dir = d;
        } else {
            p.player = t;
        }
        r->m.moves++;
        if (d != prev_dir)
            r->m.player_lines++;
        prev_dir = d;
        prev_push = push;
        mv->m[i] = (uint8_t)(d | (push ? MOVE_PUSH : 0));
    }
    r->solved = r->legal && pos_solved(&p);
    if (r->legal && !r->solved)
        snprintf(r->reason, sizeof r->reason, "the moves end with %d of %d boxes on goals",
                 p.on_goal, b->nboxes);
    pos_free(&p);
    return r->solved;
}
