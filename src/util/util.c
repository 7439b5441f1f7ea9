/* util.c: checked allocation and fatal errors. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, KEEPER_NAME ": fatal: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory allocating %zu bytes", n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory reallocating %zu bytes", n);
    return q;
}

void *xmalloc_held(size_t *held, size_t n)
{
    *held += n;
    return xmalloc(n);
}

void *xcalloc_held(size_t *held, size_t n, size_t size)
{
    *held += n * size;
    return xcalloc(n, size);
}

void *xrealloc_held(size_t *held, void *p, size_t old_n, size_t new_n)
{
    *held += new_n - old_n;
    return xrealloc(p, new_n);
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        die("bad format string");
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return s;
}

void *vec_push(void *arrp, int *n, int *cap, size_t elem)
{
    void **arr = arrp;
    if (*n >= *cap) {
        int nc = *cap ? *cap * 2 : 8;
        *arr = xrealloc(*arr, (size_t)nc * elem);
        *cap = nc;
    }
    char *slot = (char *)*arr + (size_t)(*n) * elem;
    memset(slot, 0, elem);
    (*n)++;
    return slot;
}
