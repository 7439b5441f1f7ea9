/* main.c: the unit-test runner. Runs every registered test (or those whose
 * name contains argv[1]), prints failures and skips, and ends with the line
 * "unit: P passed, F failed, S skipped". */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

typedef struct test_entry {
    const char *name, *file;
    test_fn fn;
} test_entry;

static test_entry tests[1024];
static int ntests;
static int cur_failed, cur_skipped;
static const char *cur_name;

void test_register(const char *name, const char *file, test_fn fn)
{
    if (ntests < (int)(sizeof tests / sizeof tests[0]))
        tests[ntests++] = (test_entry){name, file, fn};
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    if (cur_failed < 10) {
        va_list ap;
        fprintf(stderr, "%s:%d: %s: ", file, line, cur_name);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    cur_failed++;
}

void test_skip(const char *why)
{
    fprintf(stderr, "SKIP %s: %s\n", cur_name, why);
    cur_skipped = 1;
}

int test_skipped(void)
{
    return cur_skipped;
}

const char *test_shared(void)
{
    const char *s = getenv("KEEPER_SHARED");
    if (!s || !*s)
        s = "../shared";
    struct stat st;
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/levels", s);
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return s;
}

const char *test_shared_level(const char *name)
{
    const char *s = test_shared();
    if (!s)
        return NULL;
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/levels/%s", s, name);
    struct stat st;
    if (stat(buf, &st) != 0)
        return NULL;
    return buf;
}

int test_quick(void)
{
    const char *q = getenv("KEEPER_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

char *test_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *d = malloc((size_t)len + 1);
    size_t r = fread(d, 1, (size_t)len, f);
    fclose(f);
    d[r] = '\0';
    if (n)
        *n = r;
    return d;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        if (filter && !strstr(tests[i].name, filter))
            continue;
        cur_name = tests[i].name;
        cur_failed = 0;
        cur_skipped = 0;
        tests[i].fn();
        if (cur_failed) {
            fprintf(stderr, "FAIL %s (%s): %d check%s failed\n", cur_name, tests[i].file,
                    cur_failed, cur_failed == 1 ? "" : "s");
            failed++;
        } else if (cur_skipped) {
            skipped++;
        } else {
            passed++;
        }
    }
    printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
