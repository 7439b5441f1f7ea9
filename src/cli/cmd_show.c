/* cmd_show.c: "keeper show": print levels and what the board analysis
 * knows about them. */
#include "cli.h"
#include "../analysis/distance.h"
#include "../analysis/packing.h"
#include "../core/board.h"
#include "../util/str.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

static void show_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper show FILE [--level N | --levels LIST]\n"
            "\n"
            "Prints each level with its size, boxes, inner squares, notes and saved\n"
            "solutions, and the board analysis: dead squares (a box there can never\n"
            "reach a goal, marked x) and the nearest-goal push lower bound.\n");
}

/* Prints the board with `mark` drawn on the squares where flag[s] is set. */
static void print_marked(const board *b, const level *lv, const uint8_t *flag, char mark)
{
    strbuf s;
    sb_init(&s);
    for (int r = 0; r < lv->height; r++) {
        int len = 0;
        char *row = xmalloc((size_t)lv->width + 1);
        for (int c = 0; c < lv->width; c++) {
            int k = r * lv->width + c;
            char g = lv->grid[k];
            sq_t sq = b->sq_of_cell[k];
            if (sq != SQ_NONE && flag && flag[sq] && g == ' ')
                g = mark;
            row[c] = g;
            if (g != ' ')
                len = c + 1;
        }
        sb_printf(&s, "  %.*s\n", len, row);
        free(row);
    }
    fputs(s.s ? s.s : "", stdout);
    sb_free(&s);
}

int cmd_show(int argc, char **argv)
{
    const char *file = NULL;
    level_sel sel = {.given = 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            show_usage(stdout);
            return 0;
        }
        int used = cli_parse_level_sel(&sel, a, next);
        if (used < 0)
            return EXIT_BAD_INPUT;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return cli_usage_error("show", "unknown option '%s'", a);
        if (file)
            return cli_usage_error("show", "more than one input file");
        file = a;
    }
    if (!file)
        return cli_usage_error("show", "no input file");
    collection c;
    if (collection_load(&c, file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (cli_check_level_sel(&sel, &c) != 0) {
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    int bad = 0;
    /* File notes as written (a "; comment" keeps its ';'). */
    for (int i = 0; i < c.nnotes && !sel.given; i++)
        printf("%s\n", c.notes[i].text);
    for (int k = 0; k < c.nlevels; k++) {
        const level *lv = &c.levels[k];
        if (!cli_selected(&sel, lv->index))
            continue;
        printf("\nlevel %d \"%s\" (%s:%d)\n", lv->index, lv->title, c.name, lv->line);
        if (lv->error) {
            printf("  invalid: %s\n", lv->error);
            fprintf(stderr, "%s\n", lv->error);
            bad = 1;
            if (lv->grid) {
                strbuf s;
                sb_init(&s);
                level_write_board(&s, lv);
                /* Indented like the boards of valid levels. */
                for (const char *p = s.s ? s.s : ""; *p;) {
                    const char *e = strchr(p, '\n');
                    int len = e ? (int)(e - p) : (int)strlen(p);
                    printf("  %.*s\n", len, p);
                    p += len + (e != NULL);
                }
                sb_free(&s);
            }
            continue;
        }
        board b;
        board_build(&b, lv);
        distance_analyze(&b);
        long lb = 0;
        int on_goal = 0;
        for (int i = 0; i < b.nboxes; i++) {
            uint16_t d = b.near_dist[b.start_boxes[i]];
            lb = d == DIST_INF || lb < 0 ? -1 : lb + d;
            on_goal += b.is_goal[b.start_boxes[i]];
        }
        printf("  size %dx%d, %d box%s (%d on goals), %d inner squares, %d dead square%s\n",
               lv->width, lv->height, b.nboxes, b.nboxes == 1 ? "" : "es", on_goal, b.nsq,
               b.ndead, b.ndead == 1 ? "" : "s");
        for (int i = 0; i < lv->nnotes; i++)
            printf("  note: %s\n", lv->notes[i].text);
        for (int s = 0; s < lv->nsections; s++)
            printf("  section %d%s%s%s (line %d): %zu move characters\n", s + 1,
                   lv->sections[s].title ? " \"" : "",
                   lv->sections[s].title ? lv->sections[s].title : "",
                   lv->sections[s].title ? "\"" : "", lv->sections[s].line,
                   strlen(lv->sections[s].moves ? lv->sections[s].moves : ""));
        if (lb < 0)
            printf("  lower bound: a box starts on a dead square (unsolvable)\n");
        else
            printf("  lower bound (nearest goal): %ld pushes\n", lb);
        printf("  board, dead squares marked x:\n");
        print_marked(&b, lv, b.dead, 'x');
        packing pk;
        packing_compute(&pk, &b, 0);
        if (pk.n) {
            printf("  packing order (goals numbered 1-9, a-z, A-Z in the order they are filled):\n");
            uint8_t *rank = calloc((size_t)b.nsq, 1);
            for (int i = 0; i < pk.n; i++)
                rank[pk.order[i]] = (uint8_t)(i + 1);
            for (int r = 0; r < lv->height; r++) {
                char *row = malloc((size_t)lv->width + 1);
                int len = 0;
                for (int c2 = 0; c2 < lv->width; c2++) {
                    int k2 = r * lv->width + c2;
                    sq_t sq = b.sq_of_cell[k2];
                    char g = lv->grid[k2];
                    if (sq != SQ_NONE && rank[sq]) {
                        int v = rank[sq] - 1;
                        g = v < 9 ? (char)('1' + v) : v < 35 ? (char)('a' + v - 9)
                                                             : v < 61 ? (char)('A' + v - 35) : '+';
                    } else if (g == '.' || g == '*' || g == '+') {
                        g = '?';
                    }
                    row[c2] = g;
                    if (g != ' ')
                        len = c2 + 1;
                }
                printf("  %.*s\n", len, row);
                free(row);
            }
            free(rank);
        } else {
            printf("  packing order: none found\n");
        }
        packing_free(&pk);
        board_free(&b);
    }
    collection_free(&c);
    return bad ? EXIT_BAD_INPUT : 0;
}
