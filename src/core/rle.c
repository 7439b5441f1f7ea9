/* rle.c: run-length decoding (see rle.h for the grammar). */
#include "rle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RLE_MAX_DEPTH 64

typedef struct rle_state {
    const char *s;
    size_t n, pos;
    strbuf *out;
    size_t cap;  /* max characters appended in total */
    size_t base; /* out->len at start */
    char *err;
    size_t errlen;
    size_t err_at;
    int keep_space; /* spaces are characters (board rows), not separators */
} rle_state;

static int fail(rle_state *st, size_t at, const char *msg)
{
    snprintf(st->err, st->errlen, "%s", msg);
    st->err_at = at;
    return -1;
}

static void skip_space(rle_state *st)
{
    if (st->keep_space)
        return;
    while (st->pos < st->n && (st->s[st->pos] == ' ' || st->s[st->pos] == '\t'))
        st->pos++;
}

/* Parses a sequence up to ')' (when depth > 0) or the end. */
static int parse_seq(rle_state *st, int depth)
{
    for (;;) {
        skip_space(st);
        if (st->pos >= st->n)
            return depth > 0 ? fail(st, st->n, "unbalanced parentheses: missing ')'") : 0;
        char c = st->s[st->pos];
        if (c == ')') {
            if (depth == 0)
                return fail(st, st->pos, "unbalanced parentheses: unexpected ')'");
            return 0;
        }
        /* optional count */
        unsigned long long count = 1;
        size_t count_at = st->pos;
        if (c >= '0' && c <= '9') {
            count = 0;
            while (st->pos < st->n && st->s[st->pos] >= '0' && st->s[st->pos] <= '9') {
                count = count * 10 + (unsigned)(st->s[st->pos] - '0');
                if (count > 0x7fffffffULL)
                    return fail(st, count_at, "run-length count too large");
                st->pos++;
            }
            if (count == 0)
                return fail(st, count_at, "run-length count of zero");
            skip_space(st);
            if (st->pos >= st->n)
                return fail(st, count_at, "run-length count with nothing to repeat");
            c = st->s[st->pos];
            if (c == ')')
                return fail(st, count_at, "run-length count with nothing to repeat");
        }
        if (c == '(') {
            if (depth + 1 > RLE_MAX_DEPTH)
                return fail(st, st->pos, "run-length groups nested too deeply");
            st->pos++;
            size_t start = st->out->len;
            if (parse_seq(st, depth + 1) != 0)
                return -1;
            st->pos++; /* the ')' */
            size_t glen = st->out->len - start;
            /* Repeat the group's expansion count-1 more times, within cap. */
            if (glen > 0 && count > 1) {
                size_t produced = st->out->len - st->base;
                if ((unsigned long long)glen * (count - 1) > (unsigned long long)(st->cap - produced))
                    return fail(st, count_at, "run-length expansion too long");
                /* Copy the group out first: appending from out->s itself
                 * would read freed memory once sb_putn grows the buffer. */
                char *group = xstrndup(st->out->s + start, glen);
                for (unsigned long long i = 1; i < count; i++)
                    sb_putn(st->out, group, glen);
                free(group);
            }
        } else {
            size_t produced = st->out->len - st->base;
            if (count > (unsigned long long)(st->cap - produced))
                return fail(st, count_at, "run-length expansion too long");
            for (unsigned long long i = 0; i < count; i++)
                sb_putc(st->out, c);
            st->pos++;
        }
    }
}

static int expand(const char *s, size_t n, strbuf *out, size_t cap, char *err, size_t errlen,
                  size_t *err_at, int keep_space)
{
    rle_state st = {s, n, 0, out, cap, out->len, err, errlen, 0, keep_space};
    if (errlen)
        err[0] = '\0';
    int r = parse_seq(&st, 0);
    if (r != 0) {
        out->len = st.base;
        if (out->s)
            out->s[out->len] = '\0';
        if (err_at)
            *err_at = st.err_at;
    }
    return r;
}

int rle_expand(const char *s, size_t n, strbuf *out, size_t cap, char *err, size_t errlen,
               size_t *err_at)
{
    return expand(s, n, out, cap, err, errlen, err_at, 0);
}

int rle_expand_board(const char *s, size_t n, strbuf *out, size_t cap, char *err, size_t errlen,
                     size_t *err_at)
{
    return expand(s, n, out, cap, err, errlen, err_at, 1);
}

int rle_has_syntax(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((s[i] >= '0' && s[i] <= '9') || s[i] == '(' || s[i] == ')')
            return 1;
    return 0;
}
