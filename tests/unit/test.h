/* test.h: a small unit-test harness. Each test file defines tests with
 * TEST(name) { ... CHECK(...); ... }; tests register themselves at start-up,
 * so adding a file adds its tests. A test passes when none of its checks
 * fails. SKIP("why") ends a test as skipped, printed visibly. */
#ifndef KEEPER_TEST_H
#define KEEPER_TEST_H

#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, const char *file, test_fn fn);
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void test_skip(const char *why);
int test_skipped(void);
/* Path of the shared data folder (../shared by default; KEEPER_SHARED), or
 * NULL when it does not exist. */
const char *test_shared(void);
/* Path of a file in the shared levels folder, or NULL when absent. The
 * result lives in a static buffer. */
const char *test_shared_level(const char *name);
/* Whether KEEPER_TEST_QUICK is set (sanitizer runs use smaller samples). */
int test_quick(void);
/* Reads a whole file; returns NULL when it cannot. *n gets the size. */
char *test_read_file(const char *path, size_t *n);

#define TEST(name)                                                        \
    static void name(void);                                               \
    __attribute__((constructor)) static void name##_register(void)        \
    {                                                                     \
        test_register(#name, __FILE__, name);                             \
    }                                                                     \
    static void name(void)

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond))                                                      \
            test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);            \
    } while (0)

/* Like CHECK, but ends the test when the condition fails. */
#define REQUIRE(cond)                                                     \
    do {                                                                  \
        if (!(cond)) {                                                    \
            test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);          \
            return;                                                       \
        }                                                                 \
    } while (0)

#define CHECK_INT(a, b)                                                   \
    do {                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);               \
        if (a_ != b_)                                                     \
            test_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
    } while (0)

#define CHECK_STR(a, b)                                                   \
    do {                                                                  \
        const char *a_ = (a), *b_ = (b);                                  \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                            \
            test_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", \
                      b_ ? b_ : "(null)");                                \
    } while (0)

/* The message contains `needle`. */
#define CHECK_CONTAINS(hay, needle)                                       \
    do {                                                                  \
        const char *h_ = (hay), *n_ = (needle);                           \
        if (!h_ || !strstr(h_, n_))                                       \
            test_fail(__FILE__, __LINE__, "%s == \"%s\" does not contain \"%s\"", #hay, \
                      h_ ? h_ : "(null)", n_);                            \
    } while (0)

#define SKIP(why)                                                         \
    do {                                                                  \
        test_skip(why);                                                   \
        return;                                                           \
    } while (0)

#endif
