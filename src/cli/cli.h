/* cli.h: pieces shared by the subcommands of the keeper program. */
#ifndef KEEPER_CLI_H
#define KEEPER_CLI_H

#include <signal.h>
#include <stdio.h>
#include "../core/level.h"

/* Exit statuses, the same for every subcommand. */
enum {
    EXIT_ALL_OK = 0,     /* all levels solved / all solutions valid */
    EXIT_SOME_FAILED = 1, /* some level unsolved / some solution invalid */
    EXIT_BAD_INPUT = 2,  /* unreadable or malformed input, bad usage */
};

/* A selection of levels: --level N, or --levels LIST where LIST is
 * numbers and ranges A-B separated by commas ("1-5,9,12-20"); 1-based,
 * inclusive. The last --level/--levels given wins. */
#define LEVEL_SEL_MAX 256
typedef struct level_sel {
    int from[LEVEL_SEL_MAX], to[LEVEL_SEL_MAX];
    int n;     /* ranges */
    int given; /* 0 = all levels */
} level_sel;

/* Parses --level / --levels. Returns 1 or 2 (arguments consumed), 0 when
 * arg is neither, -1 on a bad value (message printed). */
int cli_parse_level_sel(level_sel *sel, const char *arg, const char *next, const char *cmd);
/* The options the commands that read levels share, at argv[*i]: --help / -h
 * (CLI_ARG_HELP), --level / --levels (into sel) and --quiet / -q (sets
 * *quiet). Returns 1 when argv[*i] was one of
 * them (*i then indexes its last argument), 0 when not, CLI_ARG_HELP, or
 * CLI_ARG_BAD on a bad value (message printed). */
#define CLI_ARG_HELP (-1)
#define CLI_ARG_BAD (-2)
int cli_common_arg(level_sel *sel, int *quiet, int argc, char **argv, int *i, const char *cmd);
/* Checks the selection against the collection; prints an error (naming
 * cmd's help) and returns -1 when it is out of range. */
int cli_check_level_sel(const level_sel *sel, const collection *c, const char *cmd);
static inline int cli_selected(const level_sel *sel, int index)
{
    if (!sel->given)
        return 1;
    for (int i = 0; i < sel->n; i++)
        if (index >= sel->from[i] && index <= sel->to[i])
            return 1;
    return 0;
}
/* The selected levels of a collection of `nlevels`, in ascending order:
 * writes them to out (room for nlevels) and returns their count. */
int cli_selected_list(const level_sel *sel, int nlevels, int *out);

/* Prints "keeper: error: ..." and a hint to use --help; returns EXIT_BAD_INPUT. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether standard error is a terminal (for progress lines). */
int cli_stderr_tty(void);
/* Sets the process's allocator up for long searches: where the C library
 * would keep freed large blocks in its heap (glibc raises its mapping
 * threshold as blocks are freed), every block of 128 KiB or more is mapped
 * on its own and returned to the system when freed, so that resident memory
 * stays near what the searches hold. Called first by the programs' main. */
void cli_setup_allocator(void);
/* The signals that end a run cleanly: SIGINT (Ctrl-C), SIGTERM (kill, and
 * a batch system such as Slurm at the job's time limit) and SIGHUP (the
 * terminal closed). */
#ifdef _WIN32 /* Windows has SIGINT (Ctrl-C, Ctrl-Break) and SIGTERM */
#define CLI_STOP_SIGNALS 2
typedef struct cli_signals {
    void (*old[CLI_STOP_SIGNALS])(int);
} cli_signals;
#else
#define CLI_STOP_SIGNALS 3
typedef struct cli_signals {
    struct sigaction old[CLI_STOP_SIGNALS];
} cli_signals;
#endif
/* Installs handler for each of them (once: a second signal of the same
 * kind acts as if unhandled, for a run that does not stop), saving the
 * previous actions in saved; cli_restore_stop_signals puts them back. */
void cli_catch_stop_signals(void (*handler)(int), cli_signals *saved);
void cli_restore_stop_signals(const cli_signals *saved);

/* Writes level lv as SOK with the sections it already had (nothing is
 * lost); what follows the last section's moves stays in b (empty on entry)
 * for the caller to add to and write. */
struct strbuf;
void cli_write_level_sok(FILE *f, struct strbuf *b, const level *lv);

/* Writes LURD wrapped at `width` columns. */
void cli_write_wrapped(FILE *f, const char *s, int width);

int cmd_solve(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_optimize(int argc, char **argv);

#endif
