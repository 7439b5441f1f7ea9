/* board.c: compact board construction and Zobrist keys. */
#include "board.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

const char dir_char[4] = {'l', 'u', 'r', 'd'};

uint64_t board_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

int board_build(board *b, const level *lv)
{
    memset(b, 0, sizeof *b);
    if (lv->error || !lv->grid || !lv->inside)
        return -1;
    int W = lv->width, H = lv->height;
    b->width = W;
    b->height = H;
    b->sq_of_cell = xmalloc(sizeof(sq_t) * (size_t)(W * H));
    int nsq = 0;
    for (int k = 0; k < W * H; k++) {
        if (lv->inside[k] && lv->grid[k] != '#')
            b->sq_of_cell[k] = (sq_t)nsq++;
        else
            b->sq_of_cell[k] = SQ_NONE;
    }
    b->nsq = nsq;
    b->cell = xmalloc(sizeof(int32_t) * (size_t)nsq);
    b->nb = xmalloc(sizeof(*b->nb) * (size_t)nsq);
    b->is_goal = xcalloc((size_t)nsq, 1);
    b->zbox = xmalloc(sizeof(uint64_t) * (size_t)nsq);
    b->zplayer = xmalloc(sizeof(uint64_t) * (size_t)nsq);
    int nboxes = 0, ngoals = 0;
    for (int k = 0; k < W * H; k++) {
        sq_t s = b->sq_of_cell[k];
        if (s == SQ_NONE)
            continue;
        b->cell[s] = k;
        int r = k / W, c = k % W;
        const int dr[4] = {0, -1, 0, 1}, dc[4] = {-1, 0, 1, 0};
        for (int d = 0; d < 4; d++) {
            int rr = r + dr[d], cc = c + dc[d];
            b->nb[s][d] = (rr < 0 || rr >= H || cc < 0 || cc >= W) ? SQ_NONE
                                                                  : b->sq_of_cell[rr * W + cc];
        }
        char g = lv->grid[k];
        if (g == '.' || g == '*' || g == '+') {
            b->is_goal[s] = 1;
            ngoals++;
        }
        if (g == '$' || g == '*')
            nboxes++;
        if (g == '@' || g == '+')
            b->start_player = s;
        /* Keys from a fixed seed: deterministic across runs and builds. */
        b->zbox[s] = board_mix64(0x6b656570657231ULL ^ ((uint64_t)s * 0x100000001B3ULL));
        b->zplayer[s] = board_mix64(0x706c61796572ULL ^ ((uint64_t)s * 0xC2B2AE3D27D4EB4FULL));
    }
    for (int i = 0; i < LEVEL_END_MAX; i++) {
        int c = lv->end_cell1[i] - 1;
        if (c >= 0 && c < W * H && b->sq_of_cell[c] != SQ_NONE)
            b->end_sq[b->nend++] = b->sq_of_cell[c];
    }
    if (nboxes != ngoals || nboxes == 0) {
        board_free(b);
        return -1;
    }
    b->nboxes = nboxes;
    b->goals = xmalloc(sizeof(sq_t) * (size_t)nboxes);
    b->start_boxes = xmalloc(sizeof(sq_t) * (size_t)nboxes);
    int gi = 0, bi = 0;
    for (int s = 0; s < nsq; s++) {
        char g = lv->grid[b->cell[s]];
        if (b->is_goal[s])
            b->goals[gi++] = (sq_t)s;
        if (g == '$' || g == '*')
            b->start_boxes[bi++] = (sq_t)s;
    }
    return 0;
}

void board_free(board *b)
{
    free(b->cell);
    free(b->sq_of_cell);
    free(b->nb);
    free(b->is_goal);
    free(b->goals);
    free(b->start_boxes);
    free(b->zbox);
    free(b->zplayer);
    free(b->goal_dist);
    free(b->near_dist);
    free(b->dead);
    free(b->side_at);
    free(b->side_cls);
    free(b->side_row);
    free(b->side_dist);
    memset(b, 0, sizeof *b);
}

int board_variant(const board *b, const sq_t *goals, const sq_t *boxes, sq_t player, board *v)
{
    if (!goals)
        goals = b->goals;
    if (!boxes) {
        boxes = b->start_boxes;
        player = b->start_player;
    }
    size_t cells = (size_t)b->width * (size_t)b->height;
    level lv;
    memset(&lv, 0, sizeof lv);
    lv.width = b->width;
    lv.height = b->height;
    lv.title = "";
    lv.grid = xmalloc(cells + 1);
    lv.inside = xcalloc(cells + 1, 1);
    for (size_t c = 0; c < cells; c++) {
        lv.grid[c] = '#';
        lv.inside[c] = b->sq_of_cell[c] != SQ_NONE;
        if (lv.inside[c])
            lv.grid[c] = ' ';
    }
    for (int i = 0; i < b->nboxes; i++)
        lv.grid[b->cell[goals[i]]] = '.';
    for (int i = 0; i < b->nboxes; i++) {
        char *g = &lv.grid[b->cell[boxes[i]]];
        *g = *g == '.' ? '*' : '$';
    }
    char *pg = &lv.grid[b->cell[player]];
    *pg = *pg == '.' ? '+' : '@';
    int rc = board_build(v, &lv);
    free(lv.grid);
    free(lv.inside);
    if (rc != 0)
        return -1;
    if (v->nsq != b->nsq || v->nboxes != b->nboxes ||
        memcmp(v->sq_of_cell, b->sq_of_cell, sizeof(sq_t) * cells) != 0) {
        board_free(v);
        return -1;
    }
    v->nend = b->nend;
    memcpy(v->end_sq, b->end_sq, sizeof v->end_sq);
    return 0;
}
