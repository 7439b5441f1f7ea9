/* solread.c: reading solutions for verify and optimize (see solread.h). */
#include "solread.h"
#include "../optimize/optimize.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void add_item(vlist *l, const level *lv, const char *src, int line, int section,
                     const char *title, const char *moves, int saved)
{
    vitem *it = vec_push(&l->v, &l->n, &l->cap, sizeof(vitem));
    it->lv = lv;
    it->src = xstrdup(src);
    it->line = line;
    it->section = section;
    it->title = title ? xstrdup(title) : NULL;
    it->moves = xstrdup(moves ? moves : "");
    it->saved_game = saved;
    it->claim_moves = it->claim_pushes = -1;
}

void sol_add_sections(vlist *l, const level *target, const level *from, const char *src)
{
    for (int s = 0; s < from->nsections; s++) {
        const level_section *sec = &from->sections[s];
        add_item(l, target, src, sec->line, s + 1, sec->title, sec->moves,
                 section_is_saved_game(sec));
    }
}

static int same_board(const level *a, const level *b)
{
    return !a->error && !b->error && a->width == b->width && a->height == b->height &&
           memcmp(a->grid, b->grid, (size_t)(a->width * a->height)) == 0;
}

/* ------------------------------------------------------------------ CSV */

/* Splits one CSV record (RFC 4180 quoting) starting at *p; advances *p past
 * the record's line end. Fields are returned as fresh strings. */
static int csv_record(const char **p, const char *end, char ***fields, int *nf)
{
    int cap = 0;
    *fields = NULL;
    *nf = 0;
    if (*p >= end)
        return 0;
    strbuf f;
    sb_init(&f);
    const char *s = *p;
    int inq = 0;
    for (;;) {
        if (s >= end || (!inq && (*s == '\n' || *s == '\r'))) {
            char **slot = vec_push(fields, nf, &cap, sizeof(char *));
            *slot = sb_take(&f);
            if (s < end && *s == '\r')
                s++;
            if (s < end && *s == '\n')
                s++;
            break;
        }
        char c = *s++;
        if (inq) {
            if (c == '"') {
                if (s < end && *s == '"') {
                    sb_putc(&f, '"');
                    s++;
                } else {
                    inq = 0;
                }
            } else {
                sb_putc(&f, c);
            }
        } else if (c == '"') {
            inq = 1;
        } else if (c == ',') {
            char **slot = vec_push(fields, nf, &cap, sizeof(char *));
            *slot = sb_take(&f);
        } else {
            sb_putc(&f, c);
        }
    }
    sb_free(&f);
    *p = s;
    return 1;
}

static void free_fields(char **f, int n)
{
    for (int i = 0; i < n; i++)
        free(f[i]);
    free(f);
}

/* A CSV file starts with a header whose first column is "level". */
static int is_csv(const char *data, size_t n)
{
    return n >= 6 && strncmp(data, "level,", 6) == 0;
}

static long to_long(const char *s)
{
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    return (e == s || *e || errno) ? -1 : v;
}

static int read_csv(vlist *l, const collection *c, const char *src, const char *data, size_t n)
{
    const char *p = data, *end = data + n;
    char **h;
    int nh;
    csv_record(&p, end, &h, &nh);
    int ci_level = -1, ci_lurd = -1, ci_moves = -1, ci_pushes = -1, ci_title = -1;
    for (int i = 0; i < nh; i++) {
        if (!strcmp(h[i], "level"))
            ci_level = i;
        else if (!strcmp(h[i], "lurd"))
            ci_lurd = i;
        else if (!strcmp(h[i], "moves"))
            ci_moves = i;
        else if (!strcmp(h[i], "pushes"))
            ci_pushes = i;
        else if (!strcmp(h[i], "title"))
            ci_title = i;
    }
    free_fields(h, nh);
    if (ci_level < 0 || ci_lurd < 0) {
        fprintf(stderr, "%s:1: error: the CSV header has no '%s' column\n", src,
                ci_level < 0 ? "level" : "lurd");
        return 1;
    }
    int line = 1, bad = 0;
    char **f;
    int nf;
    while (csv_record(&p, end, &f, &nf)) {
        line++;
        if (nf == 1 && f[0][0] == '\0') {
            free_fields(f, nf);
            continue;
        }
        long idx = ci_level < nf ? to_long(f[ci_level]) : -1;
        if (idx < 1 || idx > c->nlevels || ci_lurd >= nf) {
            fprintf(stderr, "%s:%d: error: %s\n", src, line,
                    ci_lurd >= nf ? "row has no lurd column"
                                  : "level number missing or beyond the levels of the file");
            bad = 1;
            free_fields(f, nf);
            continue;
        }
        const level *lv = &c->levels[idx - 1];
        int section = 1;
        for (int i = 0; i < l->n; i++)
            if (l->v[i].lv == lv)
                section++;
        add_item(l, lv, src, line, section, ci_title >= 0 && ci_title < nf ? f[ci_title] : NULL,
                 f[ci_lurd], 0);
        vitem *it = &l->v[l->n - 1];
        if (ci_moves >= 0 && ci_moves < nf)
            it->claim_moves = to_long(f[ci_moves]);
        if (ci_pushes >= 0 && ci_pushes < nf)
            it->claim_pushes = to_long(f[ci_pushes]);
        free_fields(f, nf);
    }
    return bad;
}

/* ------------------------------------------------------- solutions files */

/* Reads a whole file ("-" is standard input); NULL with errno set when it
 * cannot. */
static char *read_all(const char *path, size_t *n)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *d = xmalloc(cap);
    for (;;) {
        if (len == cap) {
            if (cap >= ((size_t)1 << 30)) {
                if (f != stdin)
                    fclose(f);
                free(d);
                errno = EFBIG;
                return NULL;
            }
            cap *= 2;
            d = xrealloc(d, cap);
        }
        size_t r = fread(d + len, 1, cap - len, f);
        if (r == 0)
            break;
        len += r;
    }
    if (ferror(f)) { /* a directory, an I/O error */
        int e = errno;
        if (f != stdin)
            fclose(f);
        free(d);
        errno = e;
        return NULL;
    }
    if (f != stdin)
        fclose(f);
    *n = len;
    return d;
}

/* The number of lines of a LURD-lines file that stand for a level (all
 * but comments and trailing blank lines). */
static int count_lurd_lines(const char *p, const char *end)
{
    int n = 0, blank_run = 0;
    while (p < end) {
        const char *e = p;
        while (e < end && *e != '\n')
            e++;
        const char *t = p;
        while (t < e && (*t == ' ' || *t == '\t' || *t == '\r'))
            t++;
        if (t == e) {
            blank_run++;
        } else if (*t != ';') {
            n += blank_run + 1;
            blank_run = 0;
        }
        p = e < end ? e + 1 : e;
    }
    return n;
}

/* keeper's JSON lines (solve --format jsonl): each object's "index" (the
 * level's position in c) and "solution" (a LURD string, or null when
 * unsolved). Returns -1 after an error message for a line that is not such
 * an object. */
static int read_jsonl(vlist *l, const collection *c, const char *src, const char *data, size_t n)
{
    const char *p = data, *end = data + n;
    int line = 0, bad = 0;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        line++;
        char *txt = xstrndup(p, (size_t)(e - p));
        p = e < end ? e + 1 : e;
        const char *t = txt;
        while (*t == ' ' || *t == '\t' || *t == '\r')
            t++;
        if (!*t) {
            free(txt);
            continue;
        }
        const char *ix = strstr(t, "\"index\":");
        int index = ix ? atoi(ix + 8) : 0;
        if (*t != '{' || index < 1 || index > c->nlevels) {
            fprintf(stderr, "%s:%d: error: not a level's JSON object with an index of %s\n", src,
                    line, c->name);
            bad = 1;
            free(txt);
            continue;
        }
        const char *so = strstr(t, "\"solution\":\"");
        if (so) {
            so += 12;
            size_t len = strspn(so, "lurdLURD");
            char *moves = xstrndup(so, len);
            if (so[len] != '"') {
                fprintf(stderr, "%s:%d: error: the solution is not LURD text\n", src, line);
                bad = 1;
            } else {
                add_item(l, &c->levels[index - 1], src, line, 1, NULL, moves, 0);
            }
            free(moves);
        }
        free(txt);
    }
    return bad ? -1 : 0;
}

/* Reads the solutions of SOLUTIONS into l. A LURD-lines file stands for the
 * levels of c in order; with a selection (--levels LIST) and a line count
 * different from c's level count, it stands for the selected levels (as
 * "keeper solve --levels LIST --format lurd" writes them).
 * Returns 0, or EXIT_BAD_INPUT on unreadable or malformed input. */
int sol_read(vlist *l, const collection *c, const level_sel *sel, const char *file)
{
    size_t n = 0;
    char *data = read_all(file, &n);
    const char *path = strcmp(file, "-") == 0 ? "<stdin>" : file; /* for messages */
    if (!data) {
        fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
    size_t lead = 0; /* (data is not NUL-terminated) */
    while (lead < n && (data[lead] == ' ' || data[lead] == '\t' || data[lead] == '\r' ||
                        data[lead] == '\n'))
        lead++;
    if (lead < n && data[lead] == '{') {
        rc = read_jsonl(l, c, path, data, n) ? EXIT_BAD_INPUT : 0;
        free(data);
        return rc;
    }
    if (is_csv(data, n)) {
        rc = read_csv(l, c, path, data, n) ? EXIT_BAD_INPUT : 0;
        free(data);
        return rc;
    }
    collection s;
    collection_parse(&s, path, data, n);
    if (s.nlevels > 0) {
        for (int k = 0; k < s.nlevels; k++) {
            const level *sl = &s.levels[k];
            const level *target = NULL;
            if (k < c->nlevels && same_board(sl, &c->levels[k]))
                target = &c->levels[k];
            for (int j = 0; !target && j < c->nlevels; j++)
                if (same_board(sl, &c->levels[j]))
                    target = &c->levels[j];
            for (int j = 0; !target && sl->title[0] && j < c->nlevels; j++)
                if (!strcmp(sl->title, c->levels[j].title))
                    target = &c->levels[j];
            if (!target && k < c->nlevels)
                target = &c->levels[k];
            if (!target) {
                fprintf(stderr, "%s:%d: error: level %d matches no level of %s\n", path,
                        sl->line, k + 1, c->name);
                rc = EXIT_BAD_INPUT;
                continue;
            }
            sol_add_sections(l, target, sl, path);
        }
    } else {
        /* One LURD line per level. */
        const char *p = data, *end = data + n;
        int line = 0, idx = 0;
        int *which = xmalloc(sizeof(int) * (size_t)(c->nlevels + 1)); /* line -> level */
        int nwhich = c->nlevels;
        for (int k = 0; k < c->nlevels; k++)
            which[k] = k + 1;
        if (sel->given && count_lurd_lines(p, end) != c->nlevels)
            nwhich = cli_selected_list(sel, c->nlevels, which);
        while (p < end) {
            const char *e = p;
            while (e < end && *e != '\n' && *e != '\r')
                e++;
            line++;
            char *txt = xstrndup(p, (size_t)(e - p));
            if (e < end && *e == '\r' && e + 1 < end && e[1] == '\n')
                e++;
            p = e < end ? e + 1 : e;
            const char *t = txt;
            while (*t == ' ' || *t == '\t')
                t++;
            if (*t == ';') {
                free(txt);
                continue;
            }
            idx++;
            if (*t) {
                if (idx > nwhich) {
                    fprintf(stderr, "%s:%d: error: solution %d but %s has %d level%s%s\n", path,
                            line, idx, c->name, nwhich, nwhich != 1 ? "s" : "",
                            nwhich != c->nlevels ? " selected" : "");
                    rc = EXIT_BAD_INPUT;
                } else {
                    add_item(l, &c->levels[which[idx - 1] - 1], path, line, 1, NULL, t, 0);
                }
            }
            free(txt);
        }
        free(which);
    }
    collection_free(&s);
    free(data);
    return rc;
}

void sol_list_free(vlist *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].src);
        free(l->v[i].title);
        free(l->v[i].moves);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

int sol_best(const vlist *items, const collection *c, const level_sel *sel, int metric,
             char **best, sol_metrics *m)
{
    int ninvalid = 0;
    for (int i = 0; i < items->n; i++) {
        const vitem *it = &items->v[i];
        int k = (int)(it->lv - c->levels);
        if (k < 0 || k >= c->nlevels || it->lv->error || !cli_selected(sel, it->lv->index))
            continue;
        board bd;
        board_build(&bd, it->lv);
        movelist mv;
        moves_init(&mv);
        char err[160] = "";
        replay_result rr;
        memset(&rr, 0, sizeof rr);
        const char *why = NULL;
        if (lurd_decode(it->moves, &mv, err, sizeof err) != 0)
            why = err;
        else if (!solution_replay(&bd, &mv, &rr))
            why = rr.reason;
        if (why) {
            if (!it->saved_game) {
                fprintf(stderr, "%s:%d: error: level %d, section %d: not a solution: %s%s\n",
                        it->src, it->line, it->lv->index, it->section,
                        rr.legal && !err[0] ? "does not solve the level: " : "", why);
                ninvalid++;
            }
        } else if (!best[k] || metrics_cmp(&rr.m, &m[k], metric) < 0) {
            free(best[k]);
            strbuf s;
            sb_init(&s);
            lurd_encode(&s, &mv);
            best[k] = xstrdup(s.s ? s.s : "");
            sb_free(&s);
            m[k] = rr.m;
        }
        moves_free(&mv);
        board_free(&bd);
    }
    return ninvalid;
}
