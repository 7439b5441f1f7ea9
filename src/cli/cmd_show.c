/* cmd_show.c: "keeper show": print levels and what the board analysis
 * knows about them. */
#include "cli.h"
#include "html.h"
#include "solread.h"
#include "../analysis/distance.h"
#include "../analysis/packing.h"
#include "../search/basesearch.h"
#include "../analysis/rooms.h"
#include "../analysis/zones.h"
#include "../deadlock/capsets.h"
#include "../core/board.h"
#include "../optimize/optimize.h"
#include "../util/str.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The zones (analysis/zones.h), where the level splits into two or more
 * that keeper solve takes one at a time. */
static void show_zones(const board *b)
{
    zones z;
    if (zones_find(b, &z) != 0)
        return;
    if (z.active >= 2 && z.balanced) {
        printf("  zones: %d that boxes never leave, solved one at a time first; boxes per zone:",
               z.n);
        for (int k = 0; k < z.n; k++)
            printf(" %d", z.boxes[k]);
        printf("\n");
    }
    zones_free(&z);
}

static void show_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper show FILE [--level N | --levels LIST] [--rooms] [--packing]\n"
            "                  [--deadlocks]\n"
            "       keeper show FILE [SOLUTIONS] --html OUT.html [--level N | --levels LIST]\n"
            "\n"
            "Prints each level with its size, boxes, inner squares, notes and saved\n"
            "solutions, and the board analysis: dead squares (a box there can never\n"
            "reach a goal, marked x), the nearest-goal push lower bound and, where\n"
            "the boxes fall into zones they never leave, the zones.\n"
            "\n"
            "  --rooms   also print the rooms of the board (groups of 2x2 floor blocks),\n"
            "            drawn as letters a, b, c ... (uppercase for a room that holds\n"
            "            a goal; after the 26th room, ~ and numbers; corridor squares\n"
            "            unchanged), each room's size, goals and entrances, and the\n"
            "            links: pairs of rooms the player can walk between through\n"
            "            corridor squares without crossing a third room.\n"
            "  --packing also print the packing plan of the base search (a backward\n"
            "            search from the solved position that pulls boxes back to\n"
            "            the squares where boxes start): its steps in the order the\n"
            "            forward search should reach them, each a square (row,col)\n"
            "            that a box must stand on, parking squares (no goal) marked\n"
            "            with the step that moves the box on; the board shows the\n"
            "            goal each step fills (1-9, a-z, A-Z) and parking squares (P).\n"
            "  --deadlocks  also print the capacity-counted deadlock sets: the\n"
            "            reversible regions of the one-box maze (squares a lone box\n"
            "            can push back and forth between), drawn as letters, and\n"
            "            each set with its bound: a trap (the regions a box there\n"
            "            can never leave) holds at most as many boxes as goals; a\n"
            "            source set (every region that can reach it) at least as\n"
            "            many as its goals.\n"
            "  --html OUT.html  instead, write one self-contained page (no network, no\n"
            "            other file) that plays the levels' solutions on the board:\n"
            "            play/pause, step, start/end, speed, moves and pushes, keys, a\n"
            "            level list. Solutions come from SOLUTIONS or from FILE's own\n"
            "            sections (anything verify reads); the fewest moves of a level\n"
            "            is shown, every one replayed first. A level without a valid\n"
            "            solution is drawn with a note.\n");
}

/* Prints the level's board, square s drawn as over[s] where that is not 0
 * (over NULL: as it is). */
static void print_drawn(const board *b, const level *lv, const char *over)
{
    strbuf s;
    sb_init(&s);
    char *row = xmalloc((size_t)lv->width + 1);
    for (int r = 0; r < lv->height; r++) {
        int len = 0;
        for (int c = 0; c < lv->width; c++) {
            int k = r * lv->width + c;
            char g = lv->grid[k];
            sq_t sq = b->sq_of_cell[k];
            if (sq != SQ_NONE && over && over[sq])
                g = over[sq];
            row[c] = g;
            if (g != ' ')
                len = c + 1;
        }
        sb_printf(&s, "  %.*s\n", len, row);
    }
    free(row);
    fputs(s.s ? s.s : "", stdout);
    sb_free(&s);
}

/* Prints the board with `mark` drawn on the empty squares where flag[s] is
 * set. */
static void print_marked(const board *b, const level *lv, const uint8_t *flag, char mark)
{
    char *over = xcalloc((size_t)b->nsq, 1);
    for (int sq = 0; sq < b->nsq; sq++)
        if (flag && flag[sq] && lv->grid[b->cell[sq]] == ' ')
            over[sq] = mark;
    print_drawn(b, lv, over);
    free(over);
}

/* The character of the k-th step of an order or a plan: 1-9, a-z, A-Z,
 * then +. */
static char step_char(int v)
{
    return v < 9 ? (char)('1' + v) : v < 35 ? (char)('a' + v - 9) : v < 61 ? (char)('A' + v - 35) : '+';
}

/* The letter of room x as drawn: a-z in order, uppercase for a room that
 * holds a goal; '~' for rooms after the 26th. */
static char room_char(const rooms *rm, int x)
{
    if (x >= 26)
        return '~';
    return (char)((rm->goal_room[x] ? 'A' : 'a') + x);
}

/* Writes the name of room x into buf (its letter, or its number from 27
 * on, where letters run out). */
static const char *room_name(const rooms *rm, int x, char buf[16])
{
    if (x < 26)
        snprintf(buf, 16, "%c", room_char(rm, x));
    else
        snprintf(buf, 16, "%d", x + 1);
    return buf;
}

/* The "--rooms" section of a level: counts, the board with each room's
 * squares drawn as its letter, one line per room and per link. */
static void print_rooms(const board *b, const level *lv)
{
    rooms rm;
    if (rooms_build(&rm, b) != 0) {
        printf("  rooms: not computed (out of memory)\n");
        return;
    }
    if (rm.nfound > ROOMS_MAX) {
        printf("  rooms: %d found, more than %d: the room feature is off\n", rm.nfound,
               ROOMS_MAX);
        rooms_free(&rm);
        return;
    }
    printf("  rooms: %d room%s, %d link%s\n", rm.nrooms, rm.nrooms == 1 ? "" : "s", rm.nlinks,
           rm.nlinks == 1 ? "" : "s");
    if (rm.nrooms == 0) {
        rooms_free(&rm);
        return;
    }
    printf("  board, rooms drawn as letters (uppercase: the room holds a goal):\n");
    char *over = xcalloc((size_t)b->nsq, 1);
    for (int sq = 0; sq < b->nsq; sq++)
        if (rm.room_of[sq] >= 0)
            over[sq] = room_char(&rm, rm.room_of[sq]);
    print_drawn(b, lv, over);
    free(over);
    char n1[16], n2[16];
    for (int x = 0; x < rm.nrooms; x++) {
        int nsq = rm.sq_first[x + 1] - rm.sq_first[x];
        int nent = rm.ent_first[x + 1] - rm.ent_first[x];
        printf("  room %s: %d squares, %d goal%s, %d entrance%s\n", room_name(&rm, x, n1), nsq,
               rm.ngoals[x], rm.ngoals[x] == 1 ? "" : "s", nent, nent == 1 ? "" : "s");
    }
    for (int k = 0; k < rm.nlinks; k++)
        printf("  link %s-%s\n", room_name(&rm, rm.link[k][0], n1),
               room_name(&rm, rm.link[k][1], n2));
    rooms_free(&rm);
}

/* The "--deadlocks" section: the reversible regions drawn as letters (a-z,
 * A-Z, then ~), and each capacity-counted set with its bound. */
static void print_capsets(const board *b, const level *lv)
{
    capsets cs;
    if (capsets_build(&cs, b) != 0) {
        printf("  deadlock sets: not computed (out of memory)\n");
        return;
    }
    int traps = 0;
    for (int k = 0; k < cs.nsets; k++)
        traps += cs.set[k].trap;
    printf("  reversible regions: %d; deadlock sets: %d trap%s, %d source set%s\n", cs.nregions,
           traps, traps == 1 ? "" : "s", cs.nsets - traps, cs.nsets - traps == 1 ? "" : "s");
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char *over = xcalloc((size_t)b->nsq, 1);
    if (cs.nregions > 1) {
        printf("  board, regions drawn as letters (dead squares x):\n");
        for (int sq = 0; sq < b->nsq; sq++)
            over[sq] = cs.region_of[sq] < 0 ? 'x'
                       : cs.region_of[sq] < 52 ? letters[cs.region_of[sq]]
                                               : '~';
        print_drawn(b, lv, over);
    }
    for (int k = 0; k < cs.nsets; k++) {
        const capset *c = &cs.set[k];
        int r = c->region;
        printf("  %s of region %c: %u square%s, %s %d box%s\n",
               c->trap ? "trap" : "source set", r < 52 ? letters[r] : '~', c->n,
               c->n == 1 ? "" : "s", c->trap ? "at most" : "at least", c->trap ? c->hi : c->lo,
               (c->trap ? c->hi : c->lo) == 1 ? "" : "es");
        memset(over, 0, (size_t)b->nsq);
        for (uint32_t i = 0; i < c->n; i++)
            over[cs.sq[c->start + i]] = '%';
        print_drawn(b, lv, over);
    }
    free(over);
    capsets_free(&cs);
}

static const char *const plan_order_name[] = {"by boxes done", "by feature cells"};

static void print_plan_line(const char *what, const plan *pl, double secs)
{
    printf("  %s: %d step%s, %d parking, %s (%d box%s left off a base); "
           "base search %s, %llu positions",
           what, pl->n, pl->n == 1 ? "" : "s", pl->parked, pl->complete ? "complete" : "partial",
           pl->left, pl->left == 1 ? "" : "es", plan_order_name[pl->order],
           (unsigned long long)pl->nodes);
    if (secs >= 0)
        printf(", %.2f s", secs);
    printf("\n");
}

/* The "--packing" section: the plan the feature-space search follows by
 * default (the simpler of the two base searches' plans), and a line on
 * the other one. */
static void print_plan(const board *b, const level *lv)
{
    plan pl, other;
    int64_t t0 = timer_now_ns();
    if (plan_pick(&pl, b, NULL, PLAN_PICK_SIMPLER, 0) != 0) {
        printf("  packing plan: not computed (out of memory)\n");
        return;
    }
    double secs = timer_seconds_since(t0);
    print_plan_line("packing plan", &pl, secs);
    int oo = pl.order == PLAN_BY_DONE ? PLAN_BY_CELLS : PLAN_BY_DONE;
    if (b->nboxes > 0 && plan_compute(&other, b, NULL, 0, 0, oo) == 0) {
        print_plan_line("  passed over", &other, -1);
        plan_free(&other);
    }
    if (pl.n == 0) {
        plan_free(&pl);
        return;
    }
    /* the board: the step that last puts a box on each goal, P for parking */
    char *over = xcalloc((size_t)b->nsq, 1);
    for (int k = 0; k < pl.n; k++) {
        sq_t sq = pl.step[k].sq;
        if (b->is_goal[sq])
            over[sq] = step_char(k);
        else if (pl.step[k].from != SQ_NONE)
            over[sq] = 'P';
    }
    print_drawn(b, lv, over);
    free(over);
    strbuf s;
    sb_init(&s);
    for (int k = 0; k < pl.n; k++) {
        const plan_step *st = &pl.step[k];
        sb_printf(&s, "  %3d. (%d,%d)", k + 1, board_row(b, st->sq) + 1, board_col(b, st->sq) + 1);
        if (st->from != SQ_NONE)
            sb_printf(&s, " from (%d,%d)", board_row(b, st->from) + 1,
                      board_col(b, st->from) + 1);
        else
            sb_printf(&s, " already there");
        if (!b->is_goal[st->sq] && st->from != SQ_NONE)
            sb_printf(&s, ", parked until step %d", st->until + 1);
        else if (st->until >= 0)
            sb_printf(&s, ", moves on at step %d", st->until + 1);
        sb_printf(&s, "\n");
    }
    fputs(s.s ? s.s : "", stdout);
    sb_free(&s);
    plan_free(&pl);
}

/* "--html OUT": the page of the selected levels with the best valid
 * solution of each (fewest moves). Returns the exit status. */
static int write_html(const collection *c, const level_sel *sel, const char *solfile,
                      const char *out)
{
    vlist items = {0};
    int rc = 0;
    if (solfile)
        rc = sol_read(&items, c, sel, solfile);
    else
        for (int k = 0; k < c->nlevels; k++)
            sol_add_sections(&items, &c->levels[k], &c->levels[k], c->name);
    char **best = xcalloc((size_t)c->nlevels, sizeof(char *));
    sol_metrics *m = xcalloc((size_t)c->nlevels, sizeof(sol_metrics));
    int ninvalid = sol_best(&items, c, sel, OPT_MOVES, best, m);
    sol_list_free(&items);
    html_level *hl = xcalloc((size_t)c->nlevels + 1, sizeof(html_level));
    int n = 0, nbad = 0;
    for (int k = 0; k < c->nlevels; k++) {
        const level *lv = &c->levels[k];
        if (!cli_selected(sel, lv->index))
            continue;
        if (lv->error) {
            fprintf(stderr, "%s\n", lv->error);
            nbad++;
            continue;
        }
        hl[n].lv = lv;
        hl[n++].lurd = best[k]; /* replayed by sol_best */
    }
    if (html_write_file(out, c->name, hl, n, 0) != 0)
        rc = EXIT_BAD_INPUT;
    for (int k = 0; k < c->nlevels; k++)
        free(best[k]);
    free(best);
    free(m);
    free(hl);
    if (rc)
        return rc;
    return nbad ? EXIT_BAD_INPUT : ninvalid ? EXIT_SOME_FAILED : 0;
}

/* An invalid level: its error, and its board as far as it was read,
 * indented like the boards of valid levels. */
static void show_invalid(const level *lv)
{
    printf("  invalid: %s\n", lv->error);
    fprintf(stderr, "%s\n", lv->error);
    if (!lv->grid)
        return;
    strbuf s;
    sb_init(&s);
    level_write_board(&s, lv);
    for (const char *p = s.s ? s.s : ""; *p;) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        printf("  %.*s\n", len, p);
        p += len + (e != NULL);
    }
    sb_free(&s);
}

/* The packing order of b, goals numbered in the order they are filled. */
static void show_packing_order(const board *b, const level *lv)
{
    packing pk;
    packing_compute(&pk, b, 0);
    if (pk.n) {
        printf("  packing order (goals numbered 1-9, a-z, A-Z in the order they are filled):\n");
        char *over = xcalloc((size_t)b->nsq, 1);
        for (int j = 0; j < b->nboxes; j++)
            over[b->goals[j]] = '?'; /* a goal the order leaves out */
        for (int i = 0; i < pk.n; i++)
            over[pk.order[i]] = step_char(i);
        print_drawn(b, lv, over);
        free(over);
    } else {
        printf("  packing order: none found\n");
    }
    packing_free(&pk);
}

/* What keeper show prints of level lv of c. Returns 1 when it is invalid. */
static int show_level(const collection *c, const level *lv, int show_packing, int show_rooms,
                      int show_deadlocks)
{
    printf("\nlevel %d \"%s\" (%s:%d)\n", lv->index, lv->title, c->name, lv->line);
    if (lv->error) {
        show_invalid(lv);
        return 1;
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
           lv->width, lv->height, b.nboxes, b.nboxes == 1 ? "" : "es", on_goal, b.nsq, b.ndead,
           b.ndead == 1 ? "" : "s");
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
    show_zones(&b);
    printf("  board, dead squares marked x:\n");
    print_marked(&b, lv, b.dead, 'x');
    show_packing_order(&b, lv);
    if (show_packing)
        print_plan(&b, lv);
    if (show_rooms)
        print_rooms(&b, lv);
    if (show_deadlocks)
        print_capsets(&b, lv);
    board_free(&b);
    return 0;
}

int cmd_show(int argc, char **argv)
{
    const char *file = NULL, *solfile = NULL, *html = NULL;
    int show_rooms = 0, show_packing = 0, show_deadlocks = 0;
    level_sel sel = {.given = 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            show_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--rooms")) {
            show_rooms = 1;
            continue;
        }
        if (!strcmp(a, "--packing")) {
            show_packing = 1;
            continue;
        }
        if (!strcmp(a, "--deadlocks")) {
            show_deadlocks = 1;
            continue;
        }
        if (!strcmp(a, "--html") || !strncmp(a, "--html=", 7)) {
            html = a[6] == '=' ? a + 7 : next;
            if (!html || !*html)
                return cli_usage_error("show", "--html needs a file name");
            if (a[6] != '=')
                i++;
            continue;
        }
        int used = cli_parse_level_sel(&sel, a, next, "show");
        if (used < 0)
            return EXIT_BAD_INPUT;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return cli_usage_error("show", "unknown option '%s'", a);
        if (file && solfile)
            return cli_usage_error("show", "more than two input files");
        if (file)
            solfile = a;
        else
            file = a;
    }
    if (!file)
        return cli_usage_error("show", "no input file");
    if (solfile && !html)
        return cli_usage_error("show", "a SOLUTIONS file goes with --html only");
    if (html && (show_rooms || show_packing || show_deadlocks))
        return cli_usage_error("show", "--html does not go with --rooms, --packing or --deadlocks");
    collection c;
    if (collection_load(&c, file) != 0) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (cli_check_level_sel(&sel, &c, "show") != 0) {
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    if (html) {
        int rc = write_html(&c, &sel, solfile, html);
        collection_free(&c);
        return rc;
    }
    int bad = 0;
    /* File notes as written (a "; comment" keeps its ';'). */
    for (int i = 0; i < c.nnotes && !sel.given; i++)
        printf("%s\n", c.notes[i].text);
    for (int k = 0; k < c.nlevels; k++)
        if (cli_selected(&sel, c.levels[k].index))
            bad |= show_level(&c, &c.levels[k], show_packing, show_rooms, show_deadlocks);
    collection_free(&c);
    return bad ? EXIT_BAD_INPUT : 0;
}
