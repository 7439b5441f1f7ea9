/* util.h: small helpers shared by every module: checked allocation, fatal
 * errors, min/max, and the assertion macro used for invariants. */
#ifndef KEEPER_UTIL_H
#define KEEPER_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <assert.h>

#define KEEPER_NAME "keeper"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#ifdef __MINGW32__ /* the C99 printf of __USE_MINGW_ANSI_STDIO, not msvcrt's */
#define PRINTF_LIKE(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#endif
#define NORETURN __attribute__((noreturn))
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* Prints "keeper: fatal: ..." to stderr and exits with status 2. Used only for
 * resource failures outside a search budget (the search itself never calls
 * it: it ends the level cleanly instead). */
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* DEBUG_CHECK(cond): an invariant of the code, checked in builds with
 * KEEPER_CHECKS (make debug only; the sanitizer builds, which define
 * KEEPER_DEBUG, leave them out to keep their speed): a violation dies naming the file, line and
 * condition. In other builds the condition is not evaluated, so it may be
 * costly (a fresh hash of the whole position). */
#ifdef KEEPER_CHECKS
#define DEBUG_CHECK(cond)                                                              \
    ((cond) ? (void)0                                                                  \
            : die("internal error: %s:%d: the invariant %s does not hold", __FILE__, \
                  __LINE__, #cond))
#else
#define DEBUG_CHECK(cond) ((void)0)
#endif

/* Allocation that never returns NULL (dies instead). For small, bounded
 * structures: parser output, board tables, option strings. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* The same, adding the bytes to *held: the count of what a module's context
 * holds, which the search owning it charges to its memory budget (mem.h;
 * the deadlock layer's dl_charge). xrealloc_held adds new_n - old_n. */
void *xmalloc_held(size_t *held, size_t n);
void *xcalloc_held(size_t *held, size_t n, size_t size);
void *xrealloc_held(size_t *held, void *p, size_t old_n, size_t new_n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* printf into a freshly allocated string. */
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Appends an element to a growable array: *arr has *n elements and room
 * for *cap; grows geometrically. Returns a pointer to the new slot. */
void *vec_push(void *arrp, int *n, int *cap, size_t elem);

#endif
