/* cmd_verify.c: "keeper verify": replay solutions and report their metrics.
 *
 * Solutions come from the sections stored in FILE (as YASC and JSoko save
 * them), or from a separate SOLUTIONS file: a SOK/XSB file (each of its
 * levels is matched to FILE's level with the same board, else the same
 * title, else the same position), a CSV file with a header naming the
 * columns level and lurd (and optionally moves and pushes, which are then
 * checked), or plain text with one LURD line per level, in order (an empty
 * line skips a level; lines starting with ';' are comments). */
#include "cli.h"
#include "../core/board.h"
#include "../core/solution.h"
#include "../analysis/distance.h"
#include "../search/audit.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct vitem {
    const level *lv;     /* level of FILE the moves are checked against */
    char *src;           /* file the moves come from */
    int line;            /* line of the moves in src (0 if unknown) */
    int section;         /* 1-based section number within the level */
    char *title;         /* section title or NULL */
    char *moves;         /* moves text */
    int saved_game;      /* title says saved game */
    long claim_moves, claim_pushes; /* from CSV, -1 when not claimed */
} vitem;

typedef struct vlist {
    vitem *v;
    int n, cap;
} vlist;

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

static void add_sections(vlist *l, const level *target, const level *from, const char *src)
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

/* Reads the solutions of SOLUTIONS into l. A LURD-lines file stands for the
 * levels of c in order; with a selection (--levels LIST) and a line count
 * different from c's level count, it stands for the selected levels (as
 * "keeper solve --levels LIST --format lurd" writes them).
 * Returns 0, or EXIT_BAD_INPUT on unreadable or malformed input. */
static int read_solutions(vlist *l, const collection *c, const level_sel *sel, const char *file)
{
    size_t n = 0;
    char *data = read_all(file, &n);
    const char *path = strcmp(file, "-") == 0 ? "<stdin>" : file; /* for messages */
    if (!data) {
        fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
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
            add_sections(l, target, sl, path);
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

/* ------------------------------------------------------------- command */

static void verify_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper verify FILE [SOLUTIONS] [OPTIONS]\n"
            "\n"
            "Replays solutions and reports, for each: valid or invalid (with the step and\n"
            "the reason), moves, pushes, box lines, box changes, pushing sessions and player\n"
            "lines. Without SOLUTIONS the solutions stored in FILE's levels are checked.\n"
            "SOLUTIONS may be a SOK/XSB file, a CSV file with 'level' and 'lurd' columns\n"
            "(claimed 'moves' and 'pushes' are checked too), or one LURD line per level;\n"
            "'-' reads standard input.\n"
            "A section titled as a saved game (SaveGame, Snapshot) that does not solve its\n"
            "level is checked for legal moves only.\n"
            "\n"
            "  --level N | --levels LIST  check these levels only (LIST: 1-5,9,12-20)\n"
            "  --format text|jsonl        report format (default text)\n"
            "  --quiet                    print invalid solutions and the summary only\n"
            "  --audit                    also run every deadlock detector on every position\n"
            "                             of each valid solution (none may call one dead)\n"
            "                             and follow the packing plan along it\n"
            "\n"
            "exit status: 0 all solutions valid, 1 some solution invalid (or, with --audit,\n"
            "some detector called a solution's position dead), 2 bad input.\n");
}

int cmd_verify(int argc, char **argv)
{
    const char *file = NULL, *solfile = NULL;
    level_sel sel = {.given = 0};
    int jsonl = 0, quiet = 0, audit = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            verify_usage(stdout);
            return 0;
        }
        int used = cli_parse_level_sel(&sel, a, next);
        if (used < 0)
            return EXIT_BAD_INPUT;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = 1;
            continue;
        }
        if (!strcmp(a, "--audit")) {
            audit = 1;
            continue;
        }
        if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : next;
            if (!v)
                return cli_usage_error("verify", "--format needs a value");
            if (a[8] != '=')
                i++;
            if (!strcmp(v, "jsonl"))
                jsonl = 1;
            else if (!strcmp(v, "text"))
                jsonl = 0;
            else
                return cli_usage_error("verify", "--format: '%s' is not text or jsonl", v);
            continue;
        }
        if (a[0] == '-' && a[1] != '\0')
            return cli_usage_error("verify", "unknown option '%s'", a);
        if (!file)
            file = a;
        else if (!solfile)
            solfile = a;
        else
            return cli_usage_error("verify", "too many files ('%s')", a);
    }
    if (!file)
        return cli_usage_error("verify", "no input file");
    if (solfile && !strcmp(file, "-") && !strcmp(solfile, "-"))
        return cli_usage_error("verify", "FILE and SOLUTIONS cannot both be standard input");

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
    int rc = 0;
    vlist items = {0};
    if (solfile) {
        rc = read_solutions(&items, &c, &sel, solfile);
        if (rc && items.n == 0) {
            free(items.v);
            collection_free(&c);
            return rc;
        }
    } else {
        for (int k = 0; k < c.nlevels; k++)
            add_sections(&items, &c.levels[k], &c.levels[k], c.name);
    }

    /* A malformed level is bad input even when no solution refers to it. */
    int nvalid = 0, ninvalid = 0, nsaved = 0, nbadlevel = 0, naudit_failed = 0;
    long naudit_pushes = 0;
    for (int k = 0; k < c.nlevels; k++) {
        if (c.levels[k].error && cli_selected(&sel, c.levels[k].index)) {
            fprintf(stderr, "%s\n", c.levels[k].error);
            nbadlevel++;
        }
    }
    int *has_solution = xcalloc((size_t)c.nlevels + 1, sizeof(int));
    strbuf b;
    sb_init(&b);
    for (int i = 0; i < items.n; i++) {
        vitem *it = &items.v[i];
        const level *lv = it->lv;
        if (!cli_selected(&sel, lv->index))
            continue;
        sb_clear(&b);
        const char *status;
        char reason[320] = "";
        replay_result rr;
        memset(&rr, 0, sizeof rr);
        int have_metrics = 0, audited = 0;
        audit_report ar;
        memset(&ar, 0, sizeof ar);
        if (lv->error) {
            /* The level's own error is already reported above. */
            status = "invalid";
            snprintf(reason, sizeof reason, "the level is invalid: %s", lv->error);
        } else {
            board bd;
            board_build(&bd, lv);
            movelist mv;
            moves_init(&mv);
            char err[160];
            if (lurd_decode(it->moves, &mv, err, sizeof err) != 0) {
                status = "invalid";
                snprintf(reason, sizeof reason, "%s", err);
            } else {
                solution_replay(&bd, &mv, &rr);
                have_metrics = 1;
                if (rr.solved) {
                    status = "valid";
                    if ((it->claim_moves >= 0 && it->claim_moves != rr.m.moves) ||
                        (it->claim_pushes >= 0 && it->claim_pushes != rr.m.pushes)) {
                        status = "invalid";
                        snprintf(reason, sizeof reason,
                                 "claims %ld moves and %ld pushes; the replay gives %ld and %ld",
                                 it->claim_moves, it->claim_pushes, rr.m.moves, rr.m.pushes);
                    }
                    if (audit && !strcmp(status, "valid") && distance_analyze(&bd) == 0 &&
                        audit_solution(&bd, &mv, &ar) == 0) {
                        audited = 1;
                        naudit_pushes += ar.pushes;
                    }
                } else if (rr.legal && it->saved_game) {
                    status = "saved game";
                    snprintf(reason, sizeof reason, "%s", rr.reason);
                } else {
                    status = "invalid";
                    snprintf(reason, sizeof reason, "%s%s",
                             rr.legal ? "does not solve the level: " : "", rr.reason);
                }
            }
            moves_free(&mv);
            board_free(&bd);
        }
        int invalid = 0;
        if (!strcmp(status, "valid")) {
            nvalid++;
            has_solution[lv->index] = 1;
        } else if (!strcmp(status, "saved game")) {
            nsaved++;
        } else {
            ninvalid++;
            invalid = 1;
        }
        /* "SRC:LINE: level N "title", section S "title"" */
        strbuf where;
        sb_init(&where);
        sb_printf(&where, "%s:%d: ", it->src, it->line);
        if (invalid)
            sb_puts(&where, "error: ");
        sb_printf(&where, "level %d", lv->index);
        if (lv->title[0])
            sb_printf(&where, " \"%s\"", lv->title);
        sb_printf(&where, ", section %d", it->section);
        if (it->title)
            sb_printf(&where, " \"%s\"", it->title);
        if (jsonl) {
            sb_printf(&b, "{\"index\":%d,\"title\":", lv->index);
            sb_json_string(&b, lv->title);
            sb_printf(&b, ",\"section\":%d,\"section_title\":", it->section);
            if (it->title)
                sb_json_string(&b, it->title);
            else
                sb_puts(&b, "null");
            sb_puts(&b, ",\"file\":");
            sb_json_string(&b, it->src);
            sb_printf(&b, ",\"line\":%d,\"status\":", it->line);
            sb_json_string(&b, status);
            sb_puts(&b, ",\"reason\":");
            sb_json_string(&b, reason);
            if (have_metrics)
                sb_printf(&b,
                          ",\"moves\":%ld,\"pushes\":%ld,\"box_lines\":%ld,\"box_changes\":%ld,"
                          "\"pushing_sessions\":%ld,\"player_lines\":%ld",
                          rr.m.moves, rr.m.pushes, rr.m.box_lines, rr.m.box_changes,
                          rr.m.pushing_sessions, rr.m.player_lines);
            if (have_metrics && !rr.legal)
                sb_printf(&b, ",\"fail_step\":%ld", rr.fail_step);
            if (audited) {
                sb_printf(&b, ",\"audit\":{\"false_verdicts\":%ld", audit_false_verdicts(&ar));
                for (int d = 0; d < AUDIT_N; d++)
                    if (ar.dead[d])
                        sb_printf(&b, ",\"%s\":{\"dead\":%ld,\"first_push\":%ld}", audit_name[d],
                                  ar.dead[d], ar.first[d]);
                sb_printf(&b,
                          ",\"plan_steps\":%d,\"packed_start\":%d,\"packed_best\":%d,"
                          "\"packed_best_push\":%ld,\"packed_final\":%d,\"packed_low_longest\":%ld,"
                          "\"packed_low_from\":%ld",
                          ar.plan_steps, ar.packed_start, ar.packed_best, ar.packed_best_push,
                          ar.packed_final, ar.packed_low_longest, ar.packed_low_from);
                sb_puts(&b, ",\"packed_first\":[");
                for (int k = 0; k <= ar.packed_best && k <= AUDIT_MAX_PACKED; k++)
                    sb_printf(&b, "%s%ld", k ? "," : "", ar.packed_first[k]);
                sb_puts(&b, "]}");
            }
            sb_puts(&b, "}\n");
            fputs(b.s, stdout);
        }
        /* Text: valid solutions and saved games on stdout, invalid ones on
         * stderr as errors. JSON lines: every solution on stdout, and the
         * invalid ones also on stderr. */
        if ((!jsonl && (!quiet || invalid)) || (jsonl && invalid && !lv->error)) {
            sb_clear(&b);
            sb_puts(&b, where.s);
            sb_printf(&b, ": %s", status);
            if (reason[0])
                sb_printf(&b, ": %s", reason);
            if (have_metrics && (rr.legal || rr.m.moves))
                sb_printf(&b,
                          "%s%ld moves, %ld pushes, %ld box lines, %ld box changes, "
                          "%ld pushing sessions, %ld player lines",
                          reason[0] ? "; " : ": ", rr.m.moves, rr.m.pushes, rr.m.box_lines,
                          rr.m.box_changes, rr.m.pushing_sessions, rr.m.player_lines);
            sb_putc(&b, '\n');
            fputs(b.s, invalid ? stderr : stdout);
        }
        if (audited) {
            long nf = audit_false_verdicts(&ar);
            if (nf) {
                naudit_failed++;
                for (int d = 0; d < AUDIT_N; d++)
                    if (ar.dead[d])
                        fprintf(stderr,
                                "%s: error: audit: %s (%s) calls %ld of the solution's positions "
                                "dead, the first after push %ld\n",
                                where.s, audit_name[d], audit_desc[d], ar.dead[d], ar.first[d]);
            }
            if (!jsonl && !quiet) {
                char plan[64];
                if (ar.plan_steps)
                    snprintf(plan, sizeof plan, "plan of %d steps", ar.plan_steps);
                else
                    snprintf(plan, sizeof plan, "no plan");
                printf("%s: audit: %ld pushes, %ld false deadlock verdicts; packed (%s) %d at "
                       "the start, at most %d (first after push %ld), %d at the end; longest "
                       "fall below the best so far: %ld pushes from push %ld\n",
                       where.s, ar.pushes, nf, plan, ar.packed_start, ar.packed_best,
                       ar.packed_best_push, ar.packed_final, ar.packed_low_longest,
                       ar.packed_low_from);
            }
        }
        sb_free(&where);
    }
    int without = 0;
    for (int k = 0; k < c.nlevels; k++)
        if (cli_selected(&sel, c.levels[k].index) && !has_solution[c.levels[k].index])
            without++;
    fprintf(stderr, "keeper: %d solution%s: %d valid, %d invalid, %d saved game%s; %d level%s "
                    "without a valid solution\n",
            nvalid + ninvalid + nsaved, nvalid + ninvalid + nsaved == 1 ? "" : "s", nvalid,
            ninvalid, nsaved, nsaved == 1 ? "" : "s", without, without == 1 ? "" : "s");
    if (audit)
        fprintf(stderr, "keeper: audit: %ld pushes, %d solution%s with a false deadlock verdict\n",
                naudit_pushes, naudit_failed, naudit_failed == 1 ? "" : "s");
    sb_free(&b);
    free(has_solution);
    for (int i = 0; i < items.n; i++) {
        free(items.v[i].src);
        free(items.v[i].title);
        free(items.v[i].moves);
    }
    free(items.v);
    collection_free(&c);
    if (rc || nbadlevel)
        return EXIT_BAD_INPUT;
    return ninvalid || naudit_failed ? EXIT_SOME_FAILED : EXIT_ALL_OK;
}
