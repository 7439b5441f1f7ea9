/* level.c: level file parser and writer (see level.h for the format rules).
 *
 * Parsing runs in three steps:
 *   1. split the input into lines (LF, CRLF or CR) and classify each one as
 *      blank, board row, moves or text;
 *   2. group consecutive board rows into boards, and split the text between
 *      two boards into the previous level's notes and sections and the next
 *      level's title;
 *   3. decode each board (run-length rows, SOK letters) into a grid and
 *      validate it. */
#include "level.h"
#include "rle.h"
#include "../util/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- lines */

typedef enum { LK_BLANK, LK_BOARD, LK_FLOORONLY, LK_MOVES, LK_TEXT } line_kind;

typedef struct src_line {
    const char *s; /* start, leading whitespace kept, trailing removed */
    size_t n;
    int lineno;
    line_kind kind;
} src_line;

static int is_board_char(unsigned char c)
{
    return strchr("#@+$*.-_ pPbB", c) != NULL && c != '\0';
}

static int is_rle_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '(' || c == ')' || c == '|';
}

static int is_moves_char(unsigned char c)
{
    return strchr("lurdLURD0123456789() ", c) != NULL && c != '\0';
}

static line_kind classify(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return LK_BLANK;
    if (s[i] == ';') {
        /* A bare ";" is an empty comment: blank for the title rule. */
        size_t j = i + 1;
        while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == ';'))
            j++;
        return j == n ? LK_BLANK : LK_TEXT;
    }
    if (n - i >= 2 && s[i] == ':' && s[i + 1] == ':')
        return LK_BLANK; /* raw file comment, never displayed */
    int walls = 0, floors_only = 1, all_board = 1, all_moves = 1, letters = 0;
    for (size_t k = i; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '#')
            walls++;
        if (!(c == '-' || c == '_' || c == ' '))
            floors_only = 0;
        if (!is_board_char(c) && !is_rle_char(c))
            all_board = 0;
        if (!is_moves_char(c))
            all_moves = 0;
        if (strchr("lurdLURD", c) && c)
            letters++;
    }
    /* The indentation skipped above may hold tabs: such a line is still a
     * board row, and build_board() reports the tab. */
    if (all_board && walls > 0)
        return LK_BOARD;
    if (all_board && floors_only)
        return LK_FLOORONLY;
    if (all_moves && letters > 0)
        return LK_MOVES;
    return LK_TEXT;
}

/* Splits data into lines. Trailing spaces, tabs and CRs are trimmed. */
static src_line *split_lines(const char *data, size_t n, int *nlines)
{
    int cap = 64, cnt = 0;
    src_line *v = xmalloc(sizeof(src_line) * (size_t)cap);
    size_t i = 0;
    int lineno = 1;
    while (i < n) {
        size_t start = i;
        while (i < n && data[i] != '\n' && data[i] != '\r')
            i++;
        size_t end = i;
        if (i < n) {
            if (data[i] == '\r' && i + 1 < n && data[i + 1] == '\n')
                i += 2;
            else
                i += 1;
        }
        while (end > start && (data[end - 1] == ' ' || data[end - 1] == '\t'))
            end--;
        if (cnt == cap) {
            cap *= 2;
            v = xrealloc(v, sizeof(src_line) * (size_t)cap);
        }
        v[cnt].s = data + start;
        v[cnt].n = end - start;
        v[cnt].lineno = lineno++;
        v[cnt].kind = classify(data + start, end - start);
        cnt++;
    }
    *nlines = cnt;
    return v;
}

/* Copies a line into a fresh string, replacing control bytes and NULs. */
static char *sanitize(const char *s, size_t n)
{
    char *r = xstrndup(s, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)r[i];
        if (c < 0x20 || c == 0x7f)
            r[i] = c == '\t' ? ' ' : '?';
    }
    return r;
}

/* Title text of a line: a "; comment" loses its ';' and surrounding spaces. */
static char *title_text(const src_line *l)
{
    const char *s = l->s;
    size_t n = l->n;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    if (n && *s == ';') {
        s++;
        n--;
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
    }
    return sanitize(s, n);
}

/* ---------------------------------------------------------------- helpers */

static void add_note(note_line **v, int *n, int *cap, const src_line *l)
{
    note_line *nl = vec_push(v, n, cap, sizeof(note_line));
    nl->text = sanitize(l->s, l->n);
    nl->line = l->lineno;
}

static void set_error(level *lv, const char *name, int line, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

static void set_error(level *lv, const char *name, int line, const char *fmt, ...)
{
    if (lv->error)
        return; /* keep the first problem */
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lv->error = xasprintf("%s:%d: error: %s", name, line, msg);
}

static int ci_prefix(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return 0;
    return 1;
}

static int is_ascii_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether a line is a "Key: Value" note: optional indentation, a key of one
 * word (a letter, then letters, digits, '-' or '_'; at most 32 characters)
 * and a colon. "Author: X", "e-mail:x" and "Title: X" are; "Level 3: Easy"
 * (two words) and "12:30" are not. */
static int is_meta_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n || !is_ascii_alpha(s[i]))
        return 0;
    size_t k = i;
    while (k < n && k - i < 32 &&
           (is_ascii_alpha(s[k]) || (s[k] >= '0' && s[k] <= '9') || s[k] == '-' || s[k] == '_'))
        k++;
    return k < n && s[k] == ':';
}

/* The value of a "Title: X" note (indentation and spaces around X
 * skipped), or NULL when `text` is not one. */
static const char *title_value(const char *text)
{
    while (*text == ' ')
        text++;
    if (!ci_prefix(text, "title:"))
        return NULL;
    text += 6;
    while (*text == ' ')
        text++;
    return text;
}

/* Whether a line is a "Title: X" note. */
static int is_title_note(const src_line *l)
{
    char *t = sanitize(l->s, l->n);
    int r = title_value(t) != NULL;
    free(t);
    return r;
}

/* The X of a "Title: X" line, sanitized like any note. */
static char *title_note_value(const src_line *l)
{
    char *line = sanitize(l->s, l->n);
    char *r = xstrdup(title_value(line));
    free(line);
    return r;
}

/* Whether a text line names a section: "Solution", "Best Solution 230/97",
 * "Solution/Moves", "SaveGame", "Save Game", "Snapshot". */
static int is_section_keyword(const src_line *l)
{
    const char *s = l->s;
    size_t n = l->n;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    char buf[32];
    size_t m = MIN(n, sizeof buf - 1);
    memcpy(buf, s, m);
    buf[m] = '\0';
    return ci_prefix(buf, "solution") || ci_prefix(buf, "best solution") ||
           ci_prefix(buf, "savegame") || ci_prefix(buf, "save game") ||
           ci_prefix(buf, "saved game") || ci_prefix(buf, "snapshot");
}

/* ---------------------------------------------------------------- notes */

/* Distributes lines [a, b) that follow level lv's board: moves runs become
 * sections (with their titles), text before the first section becomes level
 * notes, text after a section becomes that section's notes. */
static void parse_notes(level *lv, const src_line *L, int a, int b)
{
    level_section *cur = NULL;
    int i = a;
    while (i < b) {
        const src_line *l = &L[i];
        if (l->kind == LK_BLANK) {
            i++;
            continue;
        }
        if (l->kind == LK_TEXT || l->kind == LK_BOARD || l->kind == LK_FLOORONLY) {
            /* Is this line the title of a moves run that follows? */
            int j = i + 1;
            while (j < b && L[j].kind == LK_BLANK)
                j++;
            int before_ok = (i == a) || L[i - 1].kind == LK_BLANK || L[i - 1].kind == LK_MOVES;
            if (l->kind == LK_TEXT && j < b && L[j].kind == LK_MOVES &&
                (before_ok || is_section_keyword(l))) {
                cur = vec_push(&lv->sections, &lv->nsections, &lv->capsections,
                               sizeof(level_section));
                cur->title = title_text(l);
                cur->title_line = l->lineno;
                i = j; /* the moves run is handled below */
                continue;
            }
            if (cur)
                add_note(&cur->notes, &cur->nnotes, &cur->capnotes, l);
            else
                add_note(&lv->notes, &lv->nnotes, &lv->capnotes, l);
            i++;
            continue;
        }
        /* A moves run. Attach to the section just opened by a title, or open
         * an untitled one. */
        if (!cur || cur->moves) {
            cur = vec_push(&lv->sections, &lv->nsections, &lv->capsections,
                           sizeof(level_section));
        }
        strbuf mb;
        sb_init(&mb);
        cur->line = l->lineno;
        while (i < b && L[i].kind == LK_MOVES) {
            for (size_t k = 0; k < L[i].n; k++)
                if (L[i].s[k] != ' ')
                    sb_putc(&mb, L[i].s[k]);
            i++;
        }
        cur->moves = sb_take(&mb);
    }
    /* A title with no moves after it never happens (checked above). */
}

/* ---------------------------------------------------------------- boards */

/* A board's rows as read, before decoding: each row's text, length and
 * source line (for messages); width is the longest row. */
typedef struct board_rows {
    char **s;
    int *len;
    int *line;
    int n, cap;
    int width;
} board_rows;

static void rows_init(board_rows *br)
{
    br->n = 0;
    br->cap = 16;
    br->width = 0;
    br->s = xmalloc(sizeof(char *) * (size_t)br->cap);
    br->len = xmalloc(sizeof(int) * (size_t)br->cap);
    br->line = xmalloc(sizeof(int) * (size_t)br->cap);
}

static void rows_free(board_rows *br)
{
    for (int r = 0; r < br->n; r++)
        free(br->s[r]);
    free(br->s);
    free(br->len);
    free(br->line);
}

/* Appends a row of len bytes at s (len 0: an empty row) read from line. */
static void rows_push(board_rows *br, const char *s, int len, int line)
{
    if (br->n == br->cap) {
        br->cap *= 2;
        br->s = xrealloc(br->s, sizeof(char *) * (size_t)br->cap);
        br->len = xrealloc(br->len, sizeof(int) * (size_t)br->cap);
        br->line = xrealloc(br->line, sizeof(int) * (size_t)br->cap);
    }
    br->s[br->n] = xstrndup(s, (size_t)len);
    br->len[br->n] = len;
    br->line[br->n] = line;
    br->n++;
    if (len > br->width)
        br->width = len;
}

/* Expands board lines [a, b) into rows ('|' splits rows inside a line);
 * sets lv->error on a row too wide, too many rows or bad run-length syntax.
 *
 * Floor marks (' ', '-', '_') at the end of a row are dropped, and rows
 * left empty by that are dropped at the top and the bottom of the board
 * ("|#@$.#|" or "#####--" add nothing): the squares they stand for are
 * exterior anyway (floor at the end of a row in the player's region
 * would be open), and keeping them made the size depend on how the
 * board was written, so a board written back out (which never has such
 * rows or columns) came back with another width or height. */
static void read_rows(level *lv, const char *name, const src_line *L, int a, int b,
                      board_rows *br)
{
    /* empty rows since the last non-empty one, kept only when another
     * non-empty row follows; their lines (for messages) */
    int pending = 0;
    int *pending_line = xmalloc(sizeof(int) * LEVEL_MAX_HEIGHT);
    strbuf ex;
    sb_init(&ex);
    for (int i = a; i < b && !lv->error; i++) {
        const src_line *l = &L[i];
        sb_clear(&ex);
        char err[128];
        size_t at = 0;
        /* cap: a full board plus row separators; anything longer is an error */
        size_t cap = (size_t)LEVEL_MAX_WIDTH * (LEVEL_MAX_HEIGHT + 1) + LEVEL_MAX_HEIGHT;
        if (rle_has_syntax(l->s, l->n) || memchr(l->s, '|', l->n)) {
            if (rle_expand_board(l->s, l->n, &ex, cap, err, sizeof err, &at) != 0) {
                set_error(lv, name, l->lineno, "%s (column %zu)", err, at + 1);
                break;
            }
        } else {
            sb_putn(&ex, l->s, l->n);
        }
        /* split into rows at '|' */
        size_t start = 0;
        for (size_t k = 0; k <= ex.len; k++) {
            if (k < ex.len && ex.s[k] != '|')
                continue;
            size_t len = k - start;
            while (len > 0 && strchr(" -_", ex.s[start + len - 1]))
                len--;
            if (len == 0) {
                if (br->n > 0 && pending < LEVEL_MAX_HEIGHT)
                    pending_line[pending++] = l->lineno;
                else if (br->n > 0)
                    pending = LEVEL_MAX_HEIGHT + 1; /* too many: an error if a row follows */
                start = k + 1;
                continue;
            }
            if (len > LEVEL_MAX_WIDTH) {
                set_error(lv, name, l->lineno, "board row is %zu squares wide; the limit is %d",
                          len, LEVEL_MAX_WIDTH);
                break;
            }
            if (br->n + pending >= LEVEL_MAX_HEIGHT) {
                set_error(lv, name, l->lineno, "board has more than %d rows", LEVEL_MAX_HEIGHT);
                break;
            }
            for (int e = 0; e < pending; e++)
                rows_push(br, "", 0, pending_line[e]);
            rows_push(br, ex.s + start, (int)len, l->lineno);
            pending = 0;
            start = k + 1;
        }
    }
    sb_free(&ex);
    free(pending_line);
}

/* The grid square for a board byte (SOK letters to their symbols), or
 * '\0' for a byte that has no place in a board. */
static char square_of(char ch)
{
    switch (ch) {
    case '#': return '#';
    case '@': case 'p': return '@';
    case '+': case 'P': return '+';
    case '$': case 'b': return '$';
    case '*': case 'B': return '*';
    case '.': return '.';
    case ' ': case '-': case '_': return ' ';
    default: return '\0';
    }
}

/* Fills lv->grid, lv->width, lv->height and lv->row_line from the rows;
 * short rows are padded with floor. Sets lv->error on a byte that is not
 * a board square. */
static void decode_rows(level *lv, const char *name, const board_rows *br)
{
    int width = br->width, nrows = br->n;
    lv->width = width;
    lv->height = nrows;
    lv->grid = xmalloc((size_t)(width * nrows) + 1);
    memset(lv->grid, ' ', (size_t)(width * nrows));
    lv->grid[width * nrows] = '\0';
    lv->row_line = xmalloc(sizeof(int) * (size_t)(nrows ? nrows : 1));
    for (int r = 0; r < nrows; r++) {
        lv->row_line[r] = br->line[r];
        for (int c = 0; c < br->len[r]; c++) {
            char ch = br->s[r][c];
            char g = square_of(ch);
            if (ch == '\t') {
                /* Only indentation can hold a tab (classify() allows it
                 * there); how many squares it stands for is unknown. */
                set_error(lv, name, br->line[r],
                          "tab in board row (indent boards with spaces or '-')");
                g = ' ';
            } else if (g == '\0') {
                /* never printed raw: the message stays printable */
                set_error(lv, name, br->line[r], "unexpected byte 0x%02x in board",
                          (unsigned char)ch);
                g = ' ';
            }
            lv->grid[r * width + c] = g;
        }
    }
}

/* The square of the one player on the grid, or -1 with lv->error set when
 * there is none or more than one. */
static int find_player(level *lv, const char *name)
{
    int W = lv->width, H = lv->height;
    int player = -1;
    for (int k = 0; k < W * H; k++) {
        char g = lv->grid[k];
        if (g == '@' || g == '+') {
            if (player >= 0) {
                set_error(lv, name, lv->row_line[k / W],
                          "more than one player (second at column %d)", k % W + 1);
                return -1;
            }
            player = k;
        }
    }
    if (player < 0)
        set_error(lv, name, lv->line, "no player in board");
    return player;
}

/* Fills lv->inside with the player's region: everything but walls the
 * player reaches, breadth first. Sets lv->error when the region reaches
 * the edge of the board; the message names the edge square nearest to the
 * player (the first one the fill reaches), which is where the gap is. A
 * depth-first fill named whichever edge square it happened to pop first,
 * often far from the gap. */
static void fill_region(level *lv, const char *name, int player)
{
    int W = lv->width, H = lv->height;
    lv->inside = xcalloc((size_t)(W * H), 1);
    int *queue = xmalloc(sizeof(int) * (size_t)(W * H));
    int head = 0, tail = 0;
    queue[tail++] = player;
    lv->inside[player] = 1;
    int open_at = -1;
    while (head < tail) {
        int k = queue[head++];
        int r = k / W, c = k % W;
        if (open_at < 0 && (r == 0 || r == H - 1 || c == 0 || c == W - 1))
            open_at = k;
        const int dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0};
        for (int d = 0; d < 4; d++) {
            int rr = r + dr[d], cc = c + dc[d];
            if (rr < 0 || rr >= H || cc < 0 || cc >= W)
                continue;
            int kk = rr * W + cc;
            if (lv->inside[kk] || lv->grid[kk] == '#')
                continue;
            lv->inside[kk] = 1;
            queue[tail++] = kk;
        }
    }
    free(queue);
    if (open_at >= 0)
        set_error(lv, name, lv->row_line[open_at / W],
                  "board is not closed: the player can walk off the board at column %d",
                  open_at % W + 1);
}

/* Checks the boxes and goals against the player's region: none outside it,
 * at least one box, as many goals as boxes, no more than the limit. Turns
 * boxes on goals outside the region into walls. Sets lv->error on the
 * first problem. */
static void check_boxes(level *lv, const char *name)
{
    int W = lv->width, H = lv->height;
    int boxes = 0, goals = 0;
    for (int k = 0; k < W * H; k++) {
        char g = lv->grid[k];
        if (!lv->inside[k]) {
            /* A box on a goal outside the region can never move: it is a
             * wall, and the grid says so. Kept as '*', a row made of such
             * squares alone ("#####|#@$.#|#####|2-*") has no '#' and so
             * was not read back as a board row when written out. */
            if (g == '*')
                lv->grid[k] = '#';
            if (g == '$' || g == '.') {
                set_error(lv, name, lv->row_line[k / W],
                          "%s at column %d is outside the player's region",
                          g == '$' ? "box" : "goal", k % W + 1);
                return;
            }
            continue;
        }
        if (g == '$' || g == '*')
            boxes++;
        if (g == '.' || g == '*' || g == '+')
            goals++;
    }
    if (boxes == 0)
        set_error(lv, name, lv->line, "no boxes in board");
    else if (boxes != goals)
        set_error(lv, name, lv->line, "%d box%s but %d goal%s", boxes, boxes == 1 ? "" : "es",
                  goals, goals == 1 ? "" : "s");
    else if (boxes > LEVEL_MAX_BOXES)
        set_error(lv, name, lv->line, "%d boxes; the limit is %d", boxes, LEVEL_MAX_BOXES);
}

/* Decodes board lines [a, b) into lv->grid and validates the level. */
static void build_board(level *lv, const char *name, const src_line *L, int a, int b)
{
    board_rows br;
    rows_init(&br);
    read_rows(lv, name, L, a, b, &br);
    if (!lv->error)
        decode_rows(lv, name, &br);
    rows_free(&br);
    if (lv->error)
        return;
    if (lv->height == 0 || lv->width == 0) {
        set_error(lv, name, lv->line, "empty board");
        return;
    }
    int player = find_player(lv, name);
    if (player < 0)
        return;
    fill_region(lv, name, player);
    if (lv->error)
        return;
    check_boxes(lv, name);
}

/* ---------------------------------------------------------------- driver */

/* Finds the boards among the nl lines: maximal runs of board rows; an
 * exterior-only row ("----") continues a board but never starts one.
 * Returns their number; board i is lines [(*bstart)[i], (*bend)[i]). */
static int find_boards(const src_line *L, int nl, int **bstart_out, int **bend_out)
{
    int nb = 0, capb = 16;
    int *bstart = xmalloc(sizeof(int) * (size_t)capb);
    int *bend = xmalloc(sizeof(int) * (size_t)capb);
    for (int i = 0; i < nl;) {
        if (L[i].kind != LK_BOARD) {
            i++;
            continue;
        }
        int j = i;
        while (j < nl && (L[j].kind == LK_BOARD || L[j].kind == LK_FLOORONLY))
            j++;
        while (j > i && L[j - 1].kind == LK_FLOORONLY)
            j--; /* trailing exterior-only rows are not part of the board */
        if (nb == capb) {
            capb *= 2;
            bstart = xrealloc(bstart, sizeof(int) * (size_t)capb);
            bend = xrealloc(bend, sizeof(int) * (size_t)capb);
        }
        bstart[nb] = i;
        bend[nb] = j;
        nb++;
        i = j;
    }
    *bstart_out = bstart;
    *bend_out = bend;
    return nb;
}

/* The line in [from, board) that titles the board starting at line board,
 * or -1: the last non-blank line there if it is text and is preceded by a
 * blank line or is alone at this place. *is_meta is set when it is a
 * "Title: X" line (its value is the title). first: the collection's first
 * board (no previous board's notes before it). */
static int find_title(const src_line *L, int from, int board, int first, int *is_meta)
{
    int t = board - 1;
    while (t >= from && L[t].kind == LK_BLANK)
        t--;
    *is_meta = 0;
    if (t >= from && L[t].kind == LK_TEXT &&
        (t == from || L[t - 1].kind == LK_BLANK || L[t - 1].kind == LK_MOVES)) {
        /* A "Key: Value" line is metadata, not a title ("Author: X" just
         * before a board used to become its title). "Title: X" there
         * names the board that follows, unless it directly follows the
         * previous board: notes come after their board, so there it is
         * the previous level's "Title:" note. */
        if (!is_meta_line(L[t].s, L[t].n))
            return t;
        if (is_title_note(&L[t]) && (first || t != from)) {
            *is_meta = 1;
            return t;
        }
    }
    return -1;
}

void collection_parse(collection *c, const char *name, const char *data, size_t n)
{
    memset(c, 0, sizeof *c);
    c->name = xstrdup(name);
    int nl = 0;
    src_line *L = split_lines(data, n, &nl);

    int *bstart, *bend;
    int nb = find_boards(L, nl, &bstart, &bend);

    if (nb == 0) {
        c->error = xasprintf("%s:%d: error: no level found (no board rows)", name, nl > 0 ? 1 : 1);
        for (int i = 0; i < nl; i++)
            if (L[i].kind != LK_BLANK)
                add_note(&c->notes, &c->nnotes, &c->capnotes, &L[i]);
        free(bstart);
        free(bend);
        free(L);
        return;
    }

    c->levels = xcalloc((size_t)nb, sizeof(level));
    c->nlevels = c->caplevels = nb;
    int prev_end = 0; /* first line after the previous board */
    for (int k = 0; k < nb; k++) {
        level *lv = &c->levels[k];
        lv->index = k + 1;
        lv->line = L[bstart[k]].lineno;
        int title_is_meta = 0;
        int title_idx = find_title(L, prev_end, bstart[k], k == 0, &title_is_meta);
        int notes_end = title_idx >= 0 ? title_idx : bstart[k];
        /* Lines before the title belong to the previous level or the file. */
        if (k == 0) {
            for (int i = 0; i < notes_end; i++)
                if (L[i].kind != LK_BLANK)
                    add_note(&c->notes, &c->nnotes, &c->capnotes, &L[i]);
        } else {
            parse_notes(&c->levels[k - 1], L, prev_end, notes_end);
        }
        if (title_idx >= 0 && title_is_meta) {
            lv->title = title_note_value(&L[title_idx]);
            lv->title_line = L[title_idx].lineno;
        } else if (title_idx >= 0) {
            lv->title = title_text(&L[title_idx]);
            lv->title_line = L[title_idx].lineno;
        } else {
            lv->title = xstrdup("");
        }
        build_board(lv, name, L, bstart[k], bend[k]);
        prev_end = bend[k];
    }
    parse_notes(&c->levels[nb - 1], L, prev_end, nl);

    /* "Title: X" notes override title lines. */
    for (int k = 0; k < nb; k++) {
        level *lv = &c->levels[k];
        for (int i = 0; i < lv->nnotes; i++) {
            const char *v = title_value(lv->notes[i].text);
            if (v) {
                free(lv->title);
                lv->title = xstrdup(v);
                lv->title_line = lv->notes[i].line;
                break;
            }
        }
    }
    free(bstart);
    free(bend);
    free(L);
}

int collection_read(const char *path, char **data_out, size_t *n_out, char **error)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    *data_out = NULL;
    *n_out = 0;
    *error = NULL;
    if (!f) {
        *error = xasprintf("%s: error: cannot open: %s", name, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *data = xmalloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap >= ((size_t)1 << 30)) {
                if (f != stdin)
                    fclose(f);
                free(data);
                *error = xasprintf("%s: error: file larger than 1 GiB", name);
                return -1;
            }
            cap *= 2;
            data = xrealloc(data, cap);
        }
        size_t r = fread(data + n, 1, cap - n, f);
        if (r == 0)
            break;
        n += r;
    }
    int bad = ferror(f);
    if (f != stdin)
        fclose(f);
    if (bad) {
        free(data);
        *error = xasprintf("%s: error: read error", name);
        return -1;
    }
    *data_out = data;
    *n_out = n;
    return 0;
}

int collection_load(collection *c, const char *path)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    char *data, *error;
    size_t n;
    if (collection_read(path, &data, &n, &error) != 0) {
        memset(c, 0, sizeof *c);
        c->name = xstrdup(name);
        c->error = error;
        return -1;
    }
    collection_parse(c, name, data, n);
    free(data);
    return c->error ? -1 : 0;
}

static void free_notes(note_line *v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i].text);
    free(v);
}

void collection_free(collection *c)
{
    for (int k = 0; k < c->nlevels; k++) {
        level *lv = &c->levels[k];
        free(lv->title);
        free(lv->grid);
        free(lv->inside);
        free(lv->row_line);
        free(lv->error);
        free_notes(lv->notes, lv->nnotes);
        for (int s = 0; s < lv->nsections; s++) {
            free(lv->sections[s].title);
            free(lv->sections[s].moves);
            free_notes(lv->sections[s].notes, lv->sections[s].nnotes);
        }
        free(lv->sections);
        free(lv->seed);
    }
    free(c->levels);
    free_notes(c->notes, c->nnotes);
    free(c->name);
    free(c->error);
    memset(c, 0, sizeof *c);
}

const char *level_meta(const level *lv, const char *key)
{
    size_t kl = strlen(key);
    for (int i = 0; i < lv->nnotes; i++) {
        const char *s = lv->notes[i].text;
        if (strlen(s) > kl && s[kl] == ':' && ci_prefix(s, key)) {
            s += kl + 1;
            while (*s == ' ')
                s++;
            return s;
        }
    }
    return NULL;
}

int section_is_saved_game(const level_section *s)
{
    if (!s->title)
        return 0;
    /* look for the words anywhere in the title, case-insensitively */
    const char *words[] = {"savegame", "save game", "saved game", "snapshot"};
    for (const char *p = s->title; *p; p++)
        for (size_t w = 0; w < ARRAY_LEN(words); w++)
            if (ci_prefix(p, words[w]))
                return 1;
    return 0;
}

int level_count(const level *lv, char what)
{
    int n = 0;
    for (int k = 0; k < lv->width * lv->height; k++) {
        if (lv->inside && !lv->inside[k])
            continue;
        char g = lv->grid[k];
        if (what == '$' && (g == '$' || g == '*'))
            n++;
        if (what == '.' && (g == '.' || g == '*' || g == '+'))
            n++;
    }
    return n;
}

/* ---------------------------------------------------------------- writers */

void level_write_board(strbuf *out, const level *lv)
{
    for (int r = 0; r < lv->height; r++) {
        const char *row = lv->grid + r * lv->width;
        int len = lv->width;
        while (len > 0 && row[len - 1] == ' ')
            len--;
        if (len == 0)
            sb_putc(out, '-');
        else
            sb_putn(out, row, (size_t)len);
        sb_putc(out, '\n');
    }
}

/* How a title is written so that the parser reads the same title back. */
typedef enum { TITLE_BARE, TITLE_COMMENT, TITLE_NOTE } title_form;

/* A bare line ("Tiny") is the SOK style, but it only reads back as the
 * title when it classifies as text, is not a "Key: Value" line and does not
 * start with ';' (which the reader strips): titles such as "UR" (moves),
 * "#1" (a board row) or "Author: X" need the "; " form. A title made only
 * of ';' and spaces (possible through "Title: ;") reads back as a blank
 * comment in both forms, so it is written as a "Title:" note. */
static title_form title_form_of(const char *t, int allow_bare)
{
    size_t n = strlen(t);
    if (n && (t[0] == ' ' || t[n - 1] == ' '))
        return TITLE_NOTE; /* spaces would be trimmed: never produced */
    if (allow_bare && t[0] != ';' && classify(t, n) == LK_TEXT && !is_meta_line(t, n))
        return TITLE_BARE;
    int blank = 1;
    for (size_t i = 0; i < n; i++)
        if (t[i] != ';' && t[i] != ' ')
            blank = 0;
    return blank ? TITLE_NOTE : TITLE_COMMENT;
}

static int has_title_note(const level *lv)
{
    for (int i = 0; i < lv->nnotes; i++)
        if (title_value(lv->notes[i].text))
            return 1;
    return 0;
}

/* Writes one note line. A note that would read back as a board row or a
 * moves line (possible after sanitizing turned a tab into a space, as in
 * "#<TAB>#") is written as a "; " comment so that it stays a note. */
static void write_note(strbuf *out, const char *text)
{
    line_kind k = classify(text, strlen(text));
    if (k == LK_BOARD || k == LK_MOVES || k == LK_BLANK)
        sb_puts(out, "; ");
    sb_puts(out, text);
    sb_putc(out, '\n');
}

void level_write_sok(strbuf *out, const level *lv)
{
    const char *t = lv->title ? lv->title : "";
    title_form form = t[0] ? title_form_of(t, 1) : TITLE_BARE;
    if (t[0] && form != TITLE_NOTE) {
        if (form == TITLE_COMMENT)
            sb_puts(out, "; ");
        sb_puts(out, t);
        sb_puts(out, "\n\n");
    }
    level_write_board(out, lv);
    int title_note = t[0] && form == TITLE_NOTE && !has_title_note(lv);
    if (lv->nnotes || title_note) {
        sb_putc(out, '\n');
        if (title_note)
            sb_printf(out, "Title: %s\n", t);
        for (int i = 0; i < lv->nnotes; i++)
            write_note(out, lv->notes[i].text);
    }
}

void level_write_xsb(strbuf *out, const level *lv)
{
    const char *t = lv->title ? lv->title : "";
    title_form form = t[0] ? title_form_of(t, 0) : TITLE_BARE;
    if (t[0] && form == TITLE_COMMENT) {
        sb_puts(out, "; ");
        sb_puts(out, t);
        sb_puts(out, "\n\n");
    }
    level_write_board(out, lv);
    if (t[0] && form == TITLE_NOTE)
        sb_printf(out, "Title: %s\n", t);
}
