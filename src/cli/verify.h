/* verify.h: one solution checked as "keeper verify" reports it, shared by
 * keeper verify and keeper-mpi. */
#ifndef KEEPER_VERIFY_H
#define KEEPER_VERIFY_H

#include "solread.h"
#include "../util/str.h"

typedef struct verify_flags {
    int jsonl, quiet, audit;
} verify_flags;

/* The command line of verify. */
typedef struct verify_args {
    const char *file, *solfile; /* solfile NULL: the solutions stored in file */
    level_sel sel;
    verify_flags f;
} verify_args;

/* Parses argv[1..argc-1] of verify: 0 when parsed, -1 for --help (the
 * caller prints verify_usage and exits 0), EXIT_BAD_INPUT after printing
 * an error. */
int verify_parse_args(verify_args *a, int argc, char **argv);
void verify_usage(FILE *f);

/* What one solution came to. */
typedef struct verify_outcome {
    int kind;          /* 0 valid, 1 saved game, 2 invalid */
    long audit_pushes; /* with --audit: pushes audited */
    int audit_failed;  /* with --audit: some detector called a position dead */
} verify_outcome;

typedef struct verify_tally {
    int nvalid, ninvalid, nsaved, naudit_failed;
    long naudit_pushes;
} verify_tally;

/* Replays `it` against its level: what verify writes on stdout is appended
 * to out, what it writes on stderr to err; the outcome goes to vo. */
void verify_item(const vitem *it, const verify_flags *f, strbuf *out, strbuf *err,
                 verify_outcome *vo);
/* Counts an outcome; has_solution[index] is set for a valid solution. */
void verify_count(verify_tally *t, const vitem *it, const verify_outcome *vo, int *has_solution);
/* The summary lines. */
void verify_summary(FILE *f, const verify_tally *t, const collection *c, const level_sel *sel,
                    const int *has_solution, int audit);
/* The exit status of a check that read its input well: EXIT_SOME_FAILED
 * when a solution is invalid, an audit failed, or there was no solution to
 * check (said on stderr, naming `from`, the file the solutions came from),
 * else EXIT_ALL_OK. */
int verify_status(const verify_tally *t, const char *from);

#endif
