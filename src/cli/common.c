/* common.c: the helpers shared by the subcommands (cli.h): errors, level
 * selections, writing levels and LURD. keeper-mpi links them too. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "../../include/keeper.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "keeper: error: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'keeper %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
    return EXIT_BAD_INPUT;
}

/* The budget's own blocks are mapped by util/mem.c whatever the host; this
 * covers the rest (analysis tables, per-search scratch) in keeper's programs. */
void cli_setup_allocator(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* fixed: no longer raised on frees */
#endif
}

#ifdef _WIN32
static const int stop_signals[CLI_STOP_SIGNALS] = {SIGINT, SIGTERM};

/* The C runtime resets a handler before calling it, as SA_RESETHAND. */
void cli_catch_stop_signals(void (*handler)(int), cli_signals *saved)
{
    for (int i = 0; i < CLI_STOP_SIGNALS; i++)
        saved->old[i] = signal(stop_signals[i], handler);
}

void cli_restore_stop_signals(const cli_signals *saved)
{
    for (int i = 0; i < CLI_STOP_SIGNALS; i++)
        signal(stop_signals[i], saved->old[i] == SIG_ERR ? SIG_DFL : saved->old[i]);
}
#else
static const int stop_signals[CLI_STOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

void cli_catch_stop_signals(void (*handler)(int), cli_signals *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < CLI_STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, &saved->old[i]);
}

void cli_restore_stop_signals(const cli_signals *saved)
{
    for (int i = 0; i < CLI_STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &saved->old[i], NULL);
}
#endif

int cli_stderr_tty(void)
{
    return isatty(2);
}

static int parse_int(const char *s, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end || errno || x < 1 || x > 100000000)
        return -1;
    *v = (int)x;
    return 0;
}

int cli_parse_level_sel(level_sel *sel, const char *arg, const char *next, const char *cmd)
{
    int single = !strcmp(arg, "--level") || !strncmp(arg, "--level=", 8);
    int range = !strcmp(arg, "--levels") || !strncmp(arg, "--levels=", 9);
    if (!single && !range)
        return 0;
    const char *v = strchr(arg, '=');
    int used = 1;
    if (v) {
        v++;
    } else {
        if (!next) {
            cli_usage_error(cmd, "%s needs a value", arg);
            return -1;
        }
        v = next;
        used = 2;
    }
    sel->n = 0;
    if (single) {
        if (parse_int(v, &sel->from[0]) != 0) {
            if (strpbrk(v, ",-"))
                cli_usage_error(cmd, "--level: '%s' is not a level number (several levels: --levels %s)",
                                v, v);
            else
                cli_usage_error(cmd, "--level: '%s' is not a level number (1, 2, ...)", v);
            return -1;
        }
        sel->to[0] = sel->from[0];
        sel->n = 1;
    } else {
        /* items separated by commas: N or A-B */
        const char *p = v;
        for (;;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            char item[32], a[32], b[32];
            if (len == 0 || len >= sizeof item) {
                cli_usage_error(cmd, "--levels: '%s' is not a list of levels such as 1-5,9,12-20",
                                v);
                return -1;
            }
            memcpy(item, p, len);
            item[len] = '\0';
            char *dash = strchr(item, '-');
            if (dash) {
                memcpy(a, item, (size_t)(dash - item));
                a[dash - item] = '\0';
                strcpy(b, dash + 1);
            } else {
                strcpy(a, item);
                strcpy(b, item);
            }
            int from, to;
            if (parse_int(a, &from) != 0 || parse_int(b, &to) != 0 || from > to) {
                cli_usage_error(cmd,
                                "--levels: '%s': '%s' is not a level N or a range A-B with "
                                "1 <= A <= B",
                                v, item);
                return -1;
            }
            if (sel->n == LEVEL_SEL_MAX) {
                cli_usage_error(cmd, "--levels: '%s' has more than %d items", v, LEVEL_SEL_MAX);
                return -1;
            }
            sel->from[sel->n] = from;
            sel->to[sel->n] = to;
            sel->n++;
            if (!e)
                break;
            p = e + 1;
        }
    }
    sel->given = 1;
    return used;
}

int cli_selected_list(const level_sel *sel, int nlevels, int *out)
{
    int n = 0;
    for (int k = 1; k <= nlevels; k++)
        if (cli_selected(sel, k))
            out[n++] = k;
    return n;
}

int cli_check_level_sel(const level_sel *sel, const collection *c, const char *cmd)
{
    /* Every selected level must exist: "--levels 5-12" on 8 levels is as
     * much a mistake as "--level 12". */
    int missing = 0;
    for (int i = 0; sel->given && i < sel->n && !missing; i++)
        if (sel->to[i] > c->nlevels)
            missing = sel->from[i] > c->nlevels ? sel->from[i] : sel->to[i];
    if (missing) {
        cli_usage_error(cmd, "%s has %d level%s; level %d does not exist", c->name, c->nlevels,
                        c->nlevels == 1 ? "" : "s", missing);
        return -1;
    }
    return 0;
}

void cli_write_level_sok(FILE *f, strbuf *b, const level *lv)
{
    level_write_sok(b, lv);
    for (int s = 0; s < lv->nsections; s++) {
        const level_section *sec = &lv->sections[s];
        sb_putc(b, '\n');
        if (sec->title)
            sb_printf(b, "%s\n", sec->title);
        fputs(b->s, f);
        sb_clear(b);
        cli_write_wrapped(f, sec->moves ? sec->moves : "", 70);
        for (int k = 0; k < sec->nnotes; k++)
            sb_printf(b, "%s\n", sec->notes[k].text);
    }
}

void cli_write_wrapped(FILE *f, const char *s, int width)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i += (size_t)width) {
        size_t k = MIN((size_t)width, n - i);
        fwrite(s + i, 1, k, f);
        fputc('\n', f);
    }
}

int cli_common_arg(level_sel *sel, int *quiet, int argc, char **argv, int *i, const char *cmd)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h"))
        return CLI_ARG_HELP;
    if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
        *quiet = 1;
        return 1;
    }
    int used = cli_parse_level_sel(sel, a, *i + 1 < argc ? argv[*i + 1] : NULL, cmd);
    if (used < 0)
        return CLI_ARG_BAD;
    *i += used > 0 ? used - 1 : 0;
    return used > 0;
}
