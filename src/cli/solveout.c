/* solveout.c: the command line and the output of "keeper solve", shared by
 * keeper solve and keeper-mpi (solveout.h). */
#include "solveout.h"
#include "html.h"
#include "solread.h"
#include "../../include/keeper.h"
#include "../optimize/vicinity.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------- command line */

void solve_usage_options(FILE *f)
{
    fprintf(f,
            "  --level N            solve level N only (1-based position in the file)\n"
            "  --levels LIST        solve these levels: 1-5,9,12-20\n"
            "  --output FILE, -o FILE  write solutions to FILE instead of stdout ('-': stdout)\n"
            "  --resume FILE        skip the levels an earlier run's output FILE (sok, lurd\n"
            "                       or jsonl) holds a valid solution of; solve the rest\n"
            "  --format F           sok (default: levels with a Solution section),\n"
            "                       lurd (one line per level, empty when unsolved),\n"
            "                       jsonl (one JSON object per level)\n"
            "  --html FILE          also write a page that plays the solutions (see\n"
            "                       keeper show --html)\n"
            "  --optimal pushes     prove the push count optimal (same as --optimal)\n"
            "  --optimal moves      prove the moves optimal, then the pushes (small levels)\n"
            "  --seed FILE          with --optimal pushes: the fewest-push valid solution of\n"
            "                       each level in FILE (sok, lurd, csv or jsonl; FILE itself\n"
            "                       for its stored solutions) seeds the proof at once,\n"
            "                       instead of a fast search's: a proof ends as soon as the\n"
            "                       lower bound reaches its pushes\n"
            "  --quiet, -q          no result table, no status line\n"
            "  --verbose, -v        statistics per level, progress every 5 s\n"
            "  --progress, --no-progress  a status line while levels run (level, time,\n"
            "                       positions, rate, memory, strategy; the bound with\n"
            "                       --optimal), on by default when stderr is a terminal\n"
            "\n"
            "search options:\n");
    options_usage(f);
}

/* "NAME FILE" or "NAME=FILE" in s (and next): sets *val and returns the
 * arguments used (1 or 2); 0 when s is another argument; -1 after an error
 * for a missing name. */
static int file_option(const char *s, const char *name, const char *next, const char **val,
                       const char *cmd)
{
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0 || (s[n] != '\0' && s[n] != '='))
        return 0;
    *val = s[n] == '=' ? s + n + 1 : next;
    if (!*val || !**val) {
        cli_usage_error(cmd, "%s needs a file name", name);
        return -1;
    }
    return s[n] == '=' ? 1 : 2;
}

int solve_parse_args(solve_args *a, int argc, char **argv, const char *cmd, int many_files)
{
    memset(a, 0, sizeof *a);
    options_init(&a->o);
    a->fmt = FMT_SOK;
    a->live = -1;
    a->files = xcalloc((size_t)argc + 1, sizeof(char *));
    int fmt_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int c = cli_common_arg(&a->sel, &a->quiet, argc, argv, &i, cmd);
        if (c < 0)
            return c == CLI_ARG_HELP ? -1 : EXIT_BAD_INPUT;
        if (c)
            continue;
        if (!strcmp(s, "--verbose") || !strcmp(s, "-v")) {
            a->verbose = 1;
            continue;
        }
        if (!strcmp(s, "--progress") || !strcmp(s, "--no-progress")) {
            a->live = s[2] != 'n';
            continue;
        }
        int fu = file_option(s, "--resume", next, &a->resume, cmd);
        if (!fu)
            fu = file_option(s, "--seed", next, &a->seeds, cmd);
        if (!fu)
            fu = file_option(s, "--html", next, &a->html, cmd);
        if (fu < 0)
            return EXIT_BAD_INPUT;
        if (fu) {
            i += fu - 1;
            continue;
        }
        if (!strcmp(s, "--output") || !strcmp(s, "-o") || !strncmp(s, "--output=", 9)) {
            if (!strncmp(s, "--output=", 9)) {
                a->output = s + 9;
            } else {
                if (!next)
                    return cli_usage_error(cmd, "%s needs a file name", s);
                a->output = next;
                i++;
            }
            continue;
        }
        if (!strcmp(s, "--format") || !strncmp(s, "--format=", 9)) {
            const char *v = s[8] == '=' ? s + 9 : next;
            if (!v)
                return cli_usage_error(cmd, "--format needs a value");
            if (s[8] != '=')
                i++;
            if (!strcmp(v, "sok"))
                a->fmt = FMT_SOK;
            else if (!strcmp(v, "lurd"))
                a->fmt = FMT_LURD;
            else if (!strcmp(v, "jsonl"))
                a->fmt = FMT_JSONL;
            else
                return cli_usage_error(cmd, "--format: '%s' is not sok, lurd or jsonl", v);
            fmt_given = 1;
            continue;
        }
        char err[256];
        int used = options_parse(&a->o, s, next, err, sizeof err);
        if (used < 0)
            return cli_usage_error(cmd, "%s", err);
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (s[0] == '-' && s[1] != '\0')
            return cli_usage_error(cmd, "unknown option '%s'", s);
        if (a->nfiles && !many_files)
            return cli_usage_error(cmd, "more than one input file ('%s' and '%s')", a->files[0],
                                   s);
        a->files[a->nfiles++] = s;
    }
    if (!a->nfiles)
        return cli_usage_error(cmd, "no input file");
    if (a->output && !strcmp(a->output, "-"))
        a->output = NULL; /* --output - is standard output */
    if (a->o.optimal == 2 && a->o.search == 1)
        return cli_usage_error(cmd, "--optimal moves does not go with --search bfs (the "
                                    "breadth-first search counts pushes)");
    if (a->seeds && a->o.optimal != 1)
        return cli_usage_error(cmd, "--seed seeds a push-optimal proof: it needs --optimal "
                                    "pushes");
    if (a->output && !fmt_given) {
        size_t n = strlen(a->output);
        if (n >= 6 && !strcmp(a->output + n - 6, ".jsonl"))
            a->fmt = FMT_JSONL;
        else if (n >= 5 && !strcmp(a->output + n - 5, ".lurd"))
            a->fmt = FMT_LURD;
    }
    return 0;
}

void solve_args_free(solve_args *a)
{
    free(a->files);
    a->files = NULL;
}

static int same_file(const char *x, const char *y)
{
    struct stat sa, sb;
    return x && y && stat(x, &sa) == 0 && stat(y, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
}

int solve_output_is_input(const solve_args *a, const char *file)
{
    if (same_file(a->output, file)) {
        cli_usage_error("solve", "--output %s would overwrite the input file", a->output);
        return 1;
    }
    if (same_file(a->output, a->resume)) {
        cli_usage_error("solve", "--output %s would overwrite the --resume file", a->output);
        return 1;
    }
    return 0;
}

FILE *solve_open_output(const solve_args *a)
{
    if (!a->output)
        return stdout;
    FILE *out = fopen(a->output, "w");
    if (!out)
        fprintf(stderr, "%s: error: cannot write: %s\n", a->output, strerror(errno));
    return out;
}

/* The best valid solution of each selected level of c in `file` (metric's
 * order, sol_best: replayed; invalid ones reported), in *best (allocated,
 * c->nlevels entries; NULL where none). Returns 0, or sol_read's error. */
static int best_in_file(const solve_args *a, const collection *c, const char *file, int metric,
                        char ***best)
{
    vlist items = {0};
    *best = NULL;
    int rc = sol_read(&items, c, &a->sel, file);
    if (!rc) {
        size_t nl = (size_t)MAX(c->nlevels, 1);
        *best = xcalloc(nl, sizeof **best);
        sol_metrics *m = xcalloc(nl, sizeof *m);
        sol_best(&items, c, &a->sel, metric, *best, m);
        free(m);
    }
    sol_list_free(&items);
    return rc;
}

int solve_resume_read(const solve_args *a, const collection *c, char **skip, int *n)
{
    char **best;
    *skip = NULL;
    *n = 0;
    int rc = best_in_file(a, c, a->resume, OPT_MOVES, &best);
    if (rc)
        return rc;
    *skip = xcalloc((size_t)MAX(c->nlevels, 1), 1);
    for (int k = 0; k < c->nlevels; k++)
        if (best[k]) {
            (*skip)[k] = 1;
            (*n)++;
            free(best[k]);
        }
    free(best);
    return 0;
}

int solve_seeds_read(const solve_args *a, collection *c, int *n)
{
    char **best;
    *n = 0;
    int rc = best_in_file(a, c, a->seeds, OPT_PUSHES, &best);
    if (rc)
        return rc;
    for (int k = 0; k < c->nlevels; k++)
        if (best[k]) {
            free(c->levels[k].seed);
            c->levels[k].seed = best[k];
            (*n)++;
        }
    free(best);
    return 0;
}

/* ------------------------------------------------------------- output */

void solveout_counters(FILE *f, const char *prefix, const stats *st, double seconds)
{
    fprintf(f, "%s%.1f s, %.0f positions/s, %.0f expanded/s, %.1f MiB, %.1f bytes/position\n",
            prefix, seconds, seconds > 0 ? (double)st->nodes / seconds : 0.0,
            seconds > 0 ? (double)st->expanded / seconds : 0.0,
            (double)st->mem_bytes / (1024.0 * 1024.0),
            st->nodes ? (double)st->mem_bytes / (double)st->nodes : 0.0);
    stats_print(f, prefix, st);
}

/* Prints title t cut or padded to `width` characters (UTF-8 aware: a
 * character is never cut in half). */
static void print_title(FILE *f, const char *t, int width)
{
    int n = 0;
    const unsigned char *p = (const unsigned char *)t;
    while (*p && n < width) {
        int len = 1;
        while ((p[len] & 0xC0) == 0x80)
            len++;
        fwrite(p, 1, (size_t)len, f);
        p += len;
        n++;
    }
    for (; n < width; n++)
        fputc(' ', f);
}

void solveout_header(FILE *f, const char *name, int njobs, const options *o, int threads)
{
    fprintf(f, "keeper %s: %s: %d level%s", KEEPER_VERSION, name, njobs, njobs == 1 ? "" : "s");
    if (o->time > 0)
        fprintf(f, ", %g s per level", o->time);
    static const char *const strategy_name[] = {"A*", "feature-space search",
                                                "portfolio (feature-space, A*, backward and opening searches)",
                                                "backward search", "opening search",
                                                "reverse search (open forwards, pull to it)"};
    _Static_assert(sizeof strategy_name / sizeof strategy_name[0] == 6,
                   "a name for every --strategy value (options.h)");
    fprintf(f, ", %lld MiB, %d thread%s, %s%s\n", o->memory, threads, threads == 1 ? "" : "s",
            o->search == 1 ? "breadth-first"
            : o->optimal == 2 ? "A* over moves"
            : o->optimal      ? "A*"
                              : strategy_name[o->strategy],
            o->optimal == 2 ? ", move-optimal" : o->optimal ? ", push-optimal" : "");
    fprintf(f, "%6s  %-20s  %-8s  %9s  %12s  %7s  %6s  %s\n", "level", "title", "result", "time",
            "nodes", "moves", "pushes", "note");
}

void solveout_resumed(FILE *f, const char *file, int n)
{
    fprintf(f, "keeper: --resume %s: %d level%s solved there (replayed), skipped\n", file, n,
            n == 1 ? "" : "s");
}

void solveout_notes(FILE *out, out_format fmt, const collection *c)
{
    if (fmt == FMT_SOK && c->nnotes) {
        for (int i = 0; i < c->nnotes; i++)
            fprintf(out, "%s\n", c->notes[i].text);
        fputc('\n', out);
    }
}

void solveout_row(FILE *f, const level *lv, const solve_result *r, int quiet, int verbose,
                  solve_tally *t)
{
    if (r->status == RESULT_SOLVED)
        t->solved++;
    else if (r->status == RESULT_INVALID)
        t->invalid++;
    else
        t->unsolved++;
    stats_add(&t->total, &r->st);
    if (r->status == RESULT_SOLVED) {
        t->moves += r->metrics.moves;
        t->pushes += r->metrics.pushes;
    }
    if (r->status == RESULT_INVALID)
        fprintf(f, "%s\n", r->reason);
    if (quiet)
        return;
    fprintf(f, "%6d  ", lv->index);
    print_title(f, lv->title, 20);
    fprintf(f, "  %-8s  %8.2fs  %12llu  ", result_status_text(r->status), r->seconds,
            (unsigned long long)r->st.nodes);
    if (r->status == RESULT_SOLVED) {
        fprintf(f, "%7ld  %6ld  ", r->metrics.moves, r->metrics.pushes);
        if (r->optimal)
            fputs("optimal", f);
        else if (r->lower_bound >= 0) /* an optimal mode, the proof unfinished */
            fprintf(f, "%s, at least %ld %s", r->reason, r->lower_bound,
                    r->by_moves ? "moves" : "pushes");
        fputc('\n', f);
    } else {
        fprintf(f, "%7s  %6s  %s", "-", "-",
                r->status == RESULT_INVALID ? "invalid level" : r->reason);
        if (r->lower_bound >= 0)
            fprintf(f, ", at least %ld %s", r->lower_bound, r->by_moves ? "moves" : "pushes");
        fputc('\n', f);
    }
    if (verbose) {
        solveout_counters(f, "        ", &r->st, r->seconds);
        for (int i = 0; i < r->nmembers; i++) {
            const member_report *mr = &r->members[i];
            fprintf(f, "        member %-10s %6.2f s  %10llu positions  %9llu expanded", mr->name,
                    mr->seconds, (unsigned long long)mr->st.nodes,
                    (unsigned long long)mr->st.expanded);
            if (mr->st.cells)
                fprintf(f, "  %5llu cells", (unsigned long long)mr->st.cells);
            if (mr->st.meetings)
                fprintf(f, "  %llu meeting%s", (unsigned long long)mr->st.meetings,
                        mr->st.meetings == 1 ? "" : "s");
            fputc('\n', f);
        }
    }
}

static void write_json(FILE *f, const level *lv, const solve_result *r)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "{\"index\":%d,\"title\":", lv->index);
    sb_json_string(&b, lv->title);
    sb_puts(&b, ",\"status\":");
    sb_json_string(&b, result_status_text(r->status));
    sb_puts(&b, ",\"reason\":");
    sb_json_string(&b, r->reason);
    sb_printf(&b, ",\"seconds\":%.3f,\"nodes\":%llu,\"expanded\":%llu", r->seconds,
              (unsigned long long)r->st.nodes, (unsigned long long)r->st.expanded);
    if (r->lower_bound >= 0)
        sb_printf(&b, ",\"lower_bound\":%ld", r->lower_bound);
    if (r->strategy && r->strategy[0]) {
        sb_puts(&b, ",\"strategy\":");
        sb_json_string(&b, r->strategy);
    }
    if (r->status == RESULT_SOLVED) {
        sb_printf(&b,
                  ",\"moves\":%ld,\"pushes\":%ld,\"box_lines\":%ld,\"box_changes\":%ld,"
                  "\"pushing_sessions\":%ld,\"player_lines\":%ld,\"optimal\":%s,\"solution\":",
                  r->metrics.moves, r->metrics.pushes, r->metrics.box_lines,
                  r->metrics.box_changes, r->metrics.pushing_sessions, r->metrics.player_lines,
                  r->optimal ? "true" : "false");
        sb_json_string(&b, r->lurd);
        if (r->optimized)
            sb_printf(&b, ",\"found\":{\"moves\":%ld,\"pushes\":%ld}", r->found.moves,
                      r->found.pushes);
    } else {
        sb_puts(&b, ",\"moves\":null,\"pushes\":null,\"optimal\":false,\"solution\":null");
    }
    sb_puts(&b, "}\n");
    fputs(b.s, f);
    sb_free(&b);
}

static void write_sok(FILE *f, const level *lv, const solve_result *r)
{
    strbuf b;
    sb_init(&b);
    cli_write_level_sok(f, &b, lv);
    if (r->status == RESULT_SOLVED) {
        sb_printf(&b, "\nSolution %ld/%ld\n", r->metrics.moves, r->metrics.pushes);
        fputs(b.s, f);
        sb_clear(&b);
        cli_write_wrapped(f, r->lurd, 70);
        sb_printf(&b, "Solver: keeper %s%s\n", KEEPER_VERSION,
                  !r->optimal ? "" : r->by_moves ? " (move-optimal)" : " (push-optimal)");
        if (r->optimized)
            sb_printf(&b, "Optimizer: keeper %s, %s first, from %ld/%ld\n", KEEPER_VERSION,
                      r->optimal && !r->by_moves ? "pushes" : "moves", r->found.moves,
                      r->found.pushes);
    }
    sb_putc(&b, '\n');
    fputs(b.s, f);
    sb_free(&b);
}

void solveout_level(FILE *out, out_format fmt, const level *lv, const solve_result *r)
{
    if (fmt == FMT_JSONL)
        write_json(out, lv, r);
    else if (fmt == FMT_LURD)
        fprintf(out, "%s\n", r->lurd ? r->lurd : "");
    else
        write_sok(out, lv, r);
}

void solveout_total(FILE *f, const solve_tally *t, int njobs, double elapsed, int interrupted)
{
    fprintf(f, "%6s  solved %d/%d", "total", t->solved, njobs);
    if (t->unsolved)
        fprintf(f, ", unsolved %d", t->unsolved);
    if (t->invalid)
        fprintf(f, ", invalid %d", t->invalid);
    if (t->skipped)
        fprintf(f, ", not started %d", t->skipped);
    fprintf(f, ", %.2f s, %llu nodes, %ld moves, %ld pushes%s\n", elapsed,
            (unsigned long long)t->total.nodes, t->moves, t->pushes,
            interrupted ? " (interrupted)" : "");
}

int solveout_close(FILE *out, const char *output, int write_errno)
{
    /* A failed write may have happened at any earlier fflush; the stream's
     * error flag remembers it, fclose alone would not report it. */
    if (fflush(out) != 0 && !write_errno)
        write_errno = errno;
    int bad = ferror(out) || write_errno;
    if (output && fclose(out) != 0 && !bad) {
        bad = 1;
        write_errno = errno;
    }
    if (bad)
        fprintf(stderr, "%s: error: write failed: %s\n", output ? output : "(standard output)",
                write_errno ? strerror(write_errno) : "I/O error");
    return bad ? -1 : 0;
}

int solveout_html(const char *path, const char *name, const level *const *lv,
                  const solve_result *const *r, int n, int quiet)
{
    /* the levels that ran, with the solutions found (replayed) */
    html_level *hl = xcalloc((size_t)n + 1, sizeof(html_level));
    int m = 0;
    for (int k = 0; k < n; k++)
        if (!lv[k]->error) {
            hl[m].lv = lv[k];
            hl[m++].lurd = r[k]->status == RESULT_SOLVED ? r[k]->lurd : NULL;
        }
    int rc = html_write_file(path, name, hl, m, quiet);
    free(hl);
    return rc != 0 ? -1 : 0;
}

int solveout_exit(const solve_tally *t, int bad_out)
{
    if (t->invalid || bad_out)
        return EXIT_BAD_INPUT;
    if (t->unsolved || t->skipped)
        return EXIT_SOME_FAILED;
    return EXIT_ALL_OK;
}
