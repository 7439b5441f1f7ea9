/* solveout.h: what "keeper solve" reads on its command line and writes, one
 * source for keeper solve and keeper-mpi: the argument parsing, the result
 * table on stderr (header, one row per level, totals), the solutions on
 * stdout (SOK, LURD, JSON lines) and the HTML page. The same results give
 * the same bytes, whichever program solved them. */
#ifndef KEEPER_SOLVEOUT_H
#define KEEPER_SOLVEOUT_H

#include <stdio.h>
#include "cli.h"
#include "../driver/solve.h"
#include "../util/options.h"

typedef enum { FMT_SOK, FMT_LURD, FMT_JSONL } out_format;

/* The command line of solve. */
typedef struct solve_args {
    options o;
    level_sel sel;
    const char **files; /* the input files, in order (argv strings) */
    int nfiles;
    const char *output; /* NULL: standard output */
    const char *html;   /* NULL: no page */
    const char *resume; /* --resume: an earlier run's output, or NULL */
    const char *seeds;  /* --seed: solutions that seed push-optimal proofs, or NULL */
    out_format fmt;
    int quiet, verbose;
    int live; /* --progress 1, --no-progress 0, not given -1 */
} solve_args;

/* Parses argv[1..argc-1] of `cmd` ("solve"). With many_files, several input
 * files are taken in order, else a second one is an error. Returns 0 when
 * parsed, -1 after --help (usage printed on stdout: the caller exits 0),
 * EXIT_BAD_INPUT after printing an error. Free with solve_args_free. */
int solve_parse_args(solve_args *a, int argc, char **argv, const char *cmd, int many_files);
void solve_args_free(solve_args *a);
/* The options part of solve's usage (from --level to the search options). */
void solve_usage_options(FILE *f);
/* Opens --output for writing (stdout without it); prints the error and
 * returns NULL on failure. */
FILE *solve_open_output(const solve_args *a);
/* Whether --output names the same existing file as `file` or as --resume
 * (error printed). */
int solve_output_is_input(const solve_args *a, const char *file);
/* --resume: marks in skip[k] (allocated, c->nlevels entries) the levels of
 * c that a->resume (an earlier run's output: SOK, LURD lines or JSON lines,
 * read as keeper verify reads solutions) holds a valid solution of,
 * replayed here; *n counts them. An invalid solution there is reported on
 * stderr and its level is not marked (it is solved again). Returns 0, or
 * EXIT_BAD_INPUT when the file cannot be read (error printed; *skip NULL). */
int solve_resume_read(const solve_args *a, const collection *c, char **skip, int *n);

/* --seed: for each selected level of c that a->seeds (read as keeper verify
 * reads solutions; it may be FILE itself, for the solutions stored there)
 * holds a valid solution of, the one with the fewest pushes (then moves),
 * replayed here, becomes the level's seed (level.seed). An invalid solution
 * is reported on stderr ("FILE:LINE: error: ...") and not used. *n counts
 * the levels seeded. Returns 0, or EXIT_BAD_INPUT when the file cannot be
 * read (error printed). */
int solve_seeds_read(const solve_args *a, collection *c, int *n);

/* Counts of a run, added to as rows are printed. */
typedef struct solve_tally {
    int solved, unsolved, invalid, skipped;
    stats total;
    long moves, pushes;
} solve_tally;

/* One line of rates, then the counters table, each line after `prefix`. */
void solveout_counters(FILE *f, const char *prefix, const stats *st, double seconds);
/* The table's header: the collection, levels, limits, threads, search. */
void solveout_header(FILE *f, const char *name, int njobs, const options *o, int threads);
/* The line on stderr that says what --resume FILE skipped (n levels). */
void solveout_resumed(FILE *f, const char *file, int n);
/* The SOK output's first lines: the collection's notes. */
void solveout_notes(FILE *out, out_format fmt, const collection *c);
/* A finished level on stderr: its error when invalid (also with quiet),
 * then unless quiet its table row (and the counters with verbose); counts
 * it in t. */
void solveout_row(FILE *f, const level *lv, const solve_result *r, int quiet, int verbose,
                  solve_tally *t);
/* A finished level's solution (or its absence) in format fmt. */
void solveout_level(FILE *out, out_format fmt, const level *lv, const solve_result *r);
/* The table's last line. */
void solveout_total(FILE *f, const solve_tally *t, int njobs, double elapsed, int interrupted);
/* Flushes and (for --output) closes out; prints an error and returns -1
 * when some write failed. `write_errno` is an errno seen earlier, or 0. */
int solveout_close(FILE *out, const char *output, int write_errno);
/* The page of --html: levels lv[0..n-1] (those that ran) with their
 * results. Returns -1 when it cannot be written (error printed). */
int solveout_html(const char *path, const char *name, const level *const *lv,
                  const solve_result *const *r, int n, int quiet);
/* The exit status of a run. */
int solveout_exit(const solve_tally *t, int bad_out);

#endif
