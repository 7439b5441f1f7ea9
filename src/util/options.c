/* options.c: option table parsing and help. */
#include "options.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef enum { T_INT, T_DBL } opt_type;

typedef struct opt_desc {
    const char *name;
    opt_type type;
    double def, lo, hi;
    const char *help;
    size_t offset;
} opt_desc;

#define T_TYPE_INT T_INT
#define T_TYPE_DBL T_DBL
static const opt_desc table[] = {
#define OPTIONS_DESC(name, type, def, lo, hi, help) \
    {#name, T_TYPE_##type, def, lo, hi, help, offsetof(options, name)},
    KEEPER_OPTIONS(OPTIONS_DESC)
#undef OPTIONS_DESC
};

/* The options whose values have names: value k is names[k] (the number k
 * is accepted too). */
typedef struct opt_enum {
    const char *option;
    const char *names[8];
} opt_enum;

static const opt_enum enums[] = {
    {"search", {"astar", "bfs", NULL}},
    {"strategy", {"astar", "fess", "portfolio", "backward", "opening", "rev", NULL}},
    {"lent", {"astar", "opening", "opening-alone", "rev", "astar-rev", NULL}},
};

static const opt_enum *enum_named(const char *option)
{
    for (size_t i = 0; i < ARRAY_LEN(enums); i++)
        if (!strcmp(enums[i].option, option))
            return &enums[i];
    return NULL;
}

static const opt_enum *enum_of(const opt_desc *d)
{
    return enum_named(d->name);
}

/* "a, b or c" into buf. */
static void enum_list(const opt_enum *e, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; e->names[k] && len < n; k++) {
        const char *sep = k == 0 ? "" : e->names[k + 1] ? ", " : " or ";
        len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, e->names[k]);
    }
}

const char *options_value_name(const char *option, long long v)
{
    const opt_enum *e = enum_named(option);
    for (long long k = 0; e && e->names[k]; k++)
        if (k == v)
            return e->names[k];
    return NULL;
}

/* A 0/1 option that may stand alone ("--freeze"); the named ones are not. */
static int is_switch(const opt_desc *d)
{
    /* --optimal alone means pushes; "--optimal moves" names the other */
    return (d->lo == 0 && d->hi == 1 && !enum_of(d)) || !strcmp(d->name, "optimal");
}

/* A bound as people write it: 1048576, not 1.04858e+06. */
static void fmt_number(char *buf, size_t n, const opt_desc *d, double x)
{
    if (d->type == T_INT)
        snprintf(buf, n, "%lld", (long long)x);
    else
        snprintf(buf, n, "%.10g", x);
}

static void set_value(options *o, const opt_desc *d, double v)
{
    char *base = (char *)o + d->offset;
    if (d->type == T_INT)
        *(long long *)(void *)base = (long long)v;
    else
        *(double *)(void *)base = v;
}

static double get_value(const options *o, const opt_desc *d)
{
    const char *base = (const char *)o + d->offset;
    if (d->type == T_INT)
        return (double)*(const long long *)(const void *)base;
    return *(const double *)(const void *)base;
}

void options_init(options *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < ARRAY_LEN(table); i++)
        set_value(o, &table[i], table[i].def);
}

/* Compares a CLI name ("dead-squares") with a table name ("dead_squares"). */
static int name_eq(const char *cli, size_t n, const char *name)
{
    if (strlen(name) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char a = cli[i] == '-' ? '_' : cli[i];
        if (a != name[i])
            return 0;
    }
    return 1;
}

static const opt_desc *lookup(const char *name, size_t n)
{
    for (size_t i = 0; i < ARRAY_LEN(table); i++)
        if (name_eq(name, n, table[i].name))
            return &table[i];
    return NULL;
}

/* d's name as the command line spells it (dashes for underscores). */
static const char *dashed(const opt_desc *d, char *buf, size_t n)
{
    snprintf(buf, n, "%s", d->name);
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = '-';
    return buf;
}

static int parse_value(const opt_desc *d, const char *s, double *v, char *err, size_t errlen)
{
    char dn[64];
    if (!strcasecmp(s, "true") || !strcasecmp(s, "on") || !strcasecmp(s, "yes")) {
        *v = 1;
    } else if (!strcasecmp(s, "false") || !strcasecmp(s, "off") || !strcasecmp(s, "no")) {
        *v = 0;
    } else if (!strcmp(d->name, "optimal") && !strcasecmp(s, "pushes")) {
        *v = 1;
    } else if (!strcmp(d->name, "optimal") && !strcasecmp(s, "moves")) {
        *v = 2;
    } else {
        const opt_enum *e = enum_of(d);
        for (int k = 0; e && e->names[k]; k++)
            if (!strcasecmp(s, e->names[k])) {
                *v = k;
                return 0;
            }
        char *end;
        errno = 0;
        double x = strtod(s, &end);
        if (end == s || *end != '\0' || errno == ERANGE || x != x) {
            if (e) {
                char names[160];
                enum_list(e, names, sizeof names);
                snprintf(err, errlen, "option --%s: '%s' is not %s", dashed(d, dn, sizeof dn), s, names);
            } else {
                snprintf(err, errlen, "option --%s: '%s' is not a number", dashed(d, dn, sizeof dn), s);
            }
            return -1;
        }
        if (d->type == T_INT && x != (double)(long long)x) {
            snprintf(err, errlen, "option --%s: '%s' is not a whole number", dashed(d, dn, sizeof dn), s);
            return -1;
        }
        *v = x;
    }
    if (*v < d->lo || *v > d->hi) {
        char lo[32], hi[32];
        fmt_number(lo, sizeof lo, d, d->lo);
        fmt_number(hi, sizeof hi, d, d->hi);
        snprintf(err, errlen, "option --%s: %s is out of range (%s to %s)", dashed(d, dn, sizeof dn), s, lo, hi);
        return -1;
    }
    return 0;
}

int options_parse(options *o, const char *arg, const char *next, char *err, size_t errlen)
{
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    const opt_desc *d = lookup(name, n);
    if (!d && !eq && n > 3 && !strncmp(name, "no-", 3)) {
        d = lookup(name + 3, n - 3);
        if (d && is_switch(d)) {
            set_value(o, d, 0);
            return 1;
        }
        return 0;
    }
    if (!d)
        return 0;
    double v;
    if (eq) {
        if (parse_value(d, eq + 1, &v, err, errlen) != 0)
            return -1;
        set_value(o, d, v);
        return 1;
    }
    if (is_switch(d)) {
        /* A switch: "--name" alone, or followed by an explicit value word. */
        static const char *words[] = {"0", "1", "true", "false", "on", "off", "yes", "no"};
        int takes = 0;
        for (size_t i = 0; next && i < ARRAY_LEN(words); i++)
            if (!strcasecmp(next, words[i]))
                takes = 1;
        if (next && !strcmp(d->name, "optimal")) {
            if (!strcasecmp(next, "pushes") || !strcasecmp(next, "moves") || !strcmp(next, "2"))
                takes = 1;
            else if (next[0] != '-' && access(next, F_OK) != 0) {
                /* not a file either: a value misspelt, not a second input */
                snprintf(err, errlen, "option --optimal: '%s' is not pushes or moves (nor a file)", next);
                return -1;
            }
        }
        if (takes) {
            if (parse_value(d, next, &v, err, errlen) != 0)
                return -1;
            set_value(o, d, v);
            return 2;
        }
        set_value(o, d, 1);
        return 1;
    }
    /* "--name value" */
    if (!next) {
        char dn[64];
        snprintf(err, errlen, "option --%s needs a value", dashed(d, dn, sizeof dn));
        return -1;
    }
    if (parse_value(d, next, &v, err, errlen) != 0)
        return -1;
    set_value(o, d, v);
    return 2;
}

void options_usage(FILE *f)
{
    for (size_t i = 0; i < ARRAY_LEN(table); i++) {
        const opt_desc *d = &table[i];
        char name[64];
        dashed(d, name, sizeof name);
        char left[96];
        const opt_enum *e = enum_of(d);
        if (is_switch(d))
            snprintf(left, sizeof left, "--[no-]%s", name);
        else
            snprintf(left, sizeof left, "--%s=%s", name,
                     e ? "NAME" : d->type == T_INT ? "N" : "X");
        if (e)
            fprintf(f, "  %-22s %s (default %s)\n", left, d->help, e->names[(int)d->def]);
        else
            fprintf(f, "  %-22s %s (default %g)\n", left, d->help, d->def);
    }
}

void options_names(char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < ARRAY_LEN(table) && len + 1 < n; i++) {
        for (const char *c = i ? ", " : ""; *c && len + 1 < n; c++)
            buf[len++] = *c;
        for (const char *c = table[i].name; *c && len + 1 < n; c++)
            buf[len++] = *c == '_' ? '-' : *c;
        buf[len] = '\0';
    }
}

void options_print_changed(FILE *f, const options *o, const char *prefix)
{
    for (size_t i = 0; i < ARRAY_LEN(table); i++) {
        double v = get_value(o, &table[i]);
        if (v == table[i].def)
            continue;
        const char *name = options_value_name(table[i].name, (long long)v);
        if (name)
            fprintf(f, "%s--%s=%s\n", prefix, table[i].name, name);
        else
            fprintf(f, "%s--%s=%g\n", prefix, table[i].name, v);
    }
}
