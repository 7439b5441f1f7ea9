/* test_fuzz_corpus.c: replays every file in tests/fuzz/corpus (the fuzzer's
 * seeds and the inputs that once broke the parser) through the fuzz
 * target's own check: parse, invariants, write as XSB and SOK, reparse,
 * compare. Built with the normal unit tests, so regressions are caught
 * without clang. */
#include "test.h"

#define FUZZ_PARSER_NO_MAIN
#include "../fuzz/fuzz_parser.c"

#include <dirent.h>

#define CORPUS_DIR "tests/fuzz/corpus"

TEST(fuzz_corpus_replays_cleanly)
{
    DIR *d = opendir(CORPUS_DIR);
    if (!d)
        SKIP(CORPUS_DIR " not found (run the unit tests from the repository root)");
    int files = 0, regressions = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", CORPUS_DIR, e->d_name);
        size_t n = 0;
        char *data = test_read_file(path, &n);
        if (!data) {
            test_fail(__FILE__, __LINE__, "%s: cannot read", path);
            continue;
        }
        files++;
        if (strncmp(e->d_name, "regress_", 8) == 0)
            regressions++;
        /* small inputs only: the corpus is replayed on every test run */
        if (n >= 4096)
            test_fail(__FILE__, __LINE__, "%s: %zu bytes; corpus files stay under 4 KB", path, n);
        const char *msg = fuzz_parser_check((const uint8_t *)data, n);
        if (msg)
            test_fail(__FILE__, __LINE__, "%s: %s", path, msg);
        free(data);
    }
    closedir(d);
    /* An empty or missing folder would make this test pass vacuously. */
    if (files < 5)
        test_fail(__FILE__, __LINE__, "only %d corpus files found", files);
    if (regressions < 1)
        test_fail(__FILE__, __LINE__, "no regress_* files in the corpus");
}

TEST(fuzz_check_accepts_the_demo_collection)
{
    size_t n = 0;
    char *data = test_read_file("levels/demo.xsb", &n);
    if (!data)
        SKIP("levels/demo.xsb not found (run from the repository root)");
    const char *msg = fuzz_parser_check((const uint8_t *)data, n);
    if (msg)
        test_fail(__FILE__, __LINE__, "levels/demo.xsb: %s", msg);
    free(data);
}

TEST(fuzz_check_catches_a_broken_round_trip)
{
    /* The check itself must be able to fail: a level whose error message
     * is not "NAME:LINE: error: ..." is reported. */
    CHECK(fuzz_error_format_ok(FUZZ_NAME ":3: error: no player in board", 10));
    CHECK(!fuzz_error_format_ok(FUZZ_NAME ":0: error: x", 10));
    CHECK(!fuzz_error_format_ok(FUZZ_NAME ":11: error: x", 10));
    CHECK(!fuzz_error_format_ok(FUZZ_NAME ":3: warning: x", 10));
    CHECK(!fuzz_error_format_ok("other:3: error: x", 10));
    CHECK(!fuzz_error_format_ok(FUZZ_NAME ":3: error: ", 10));
    /* and a level that does not survive the writer is caught */
    collection c;
    const char *text = "#####\n#@$.#\n#####\n";
    collection_parse(&c, FUZZ_NAME, text, strlen(text));
    char err[256] = "";
    CHECK(fuzz_roundtrip(&c.levels[0], level_write_xsb, "XSB", err, sizeof err));
    c.levels[0].grid[6] = ' '; /* the player gone: the written level is invalid */
    CHECK(!fuzz_roundtrip(&c.levels[0], level_write_xsb, "XSB", err, sizeof err));
    CHECK_CONTAINS(err, "no player");
    collection_free(&c);
}
