/* test_rle.c: unit tests for run-length decoding (src/core/rle.c). */
#include "test.h"
#include "../../src/core/rle.h"

#include <stdlib.h>

/* Expands s with rle_expand (board = 0) or rle_expand_board (board = 1)
 * into a fresh string; NULL on error, with the message in err and the
 * offset in *at. The caller frees the result. */
static char *expand(const char *s, int board, size_t cap, char *err, size_t errlen, size_t *at)
{
    strbuf out;
    sb_init(&out);
    int r = board ? rle_expand_board(s, strlen(s), &out, cap, err, errlen, at)
                  : rle_expand(s, strlen(s), &out, cap, err, errlen, at);
    if (r != 0) {
        sb_free(&out);
        return NULL;
    }
    return out.s ? sb_take(&out) : strdup("");
}

/* Checks that s expands to want. */
#define CHECK_RLE(s, board, want)                                         \
    do {                                                                  \
        char e_[128] = "";                                                \
        size_t at_ = 0;                                                   \
        char *got_ = expand((s), (board), 100000, e_, sizeof e_, &at_);   \
        if (!got_)                                                        \
            test_fail(__FILE__, __LINE__, "\"%s\" failed: %s", (s), e_);  \
        else                                                              \
            CHECK_STR(got_, (want));                                      \
        free(got_);                                                       \
    } while (0)

/* Checks that s fails with a message containing msg at offset `at`. */
#define CHECK_RLE_ERR(s, board, cap, msg, want_at)                        \
    do {                                                                  \
        char e_[128] = "";                                                \
        size_t at_ = 9999;                                                \
        char *got_ = expand((s), (board), (cap), e_, sizeof e_, &at_);    \
        if (got_)                                                         \
            test_fail(__FILE__, __LINE__, "\"%s\" expanded to \"%s\", expected an error", (s), got_); \
        CHECK_CONTAINS(e_, (msg));                                        \
        CHECK_INT(at_, (want_at));                                        \
        free(got_);                                                       \
    } while (0)

TEST(rle_plain_text_is_copied)
{
    CHECK_RLE("#@$.#", 0, "#@$.#");
    CHECK_RLE("", 0, "");
}

TEST(rle_counts_repeat_the_next_character)
{
    CHECK_RLE("4#", 0, "####");
    CHECK_RLE("#3-#", 0, "#---#");
    CHECK_RLE("12$", 0, "$$$$$$$$$$$$");
    CHECK_RLE("1#", 0, "#");
    CHECK_RLE("3l2u", 0, "llluu");
}

TEST(rle_groups_and_nesting)
{
    CHECK_RLE("2(#-)", 0, "#-#-");
    CHECK_RLE("2(3(#-)#)", 0, "#-#-#-##-#-#-#");
    CHECK_RLE("(ab)c", 0, "abc");
    CHECK_RLE("3()x", 0, "x");
    CHECK_RLE("2(2(2(a)))", 0, "aaaaaaaa");
    CHECK_RLE("r2(3(lu)d)", 0, "rlululudlululud");
}

TEST(rle_row_separator_is_an_ordinary_character)
{
    /* '|' splits board rows, but that is the board reader's business. */
    CHECK_RLE("3#|#@#|3#", 0, "###|#@#|###");
    CHECK_RLE("2|", 0, "||");
}

TEST(rle_whitespace_is_skipped_in_moves_and_kept_in_boards)
{
    CHECK_RLE("3 l u", 0, "lllu");
    CHECK_RLE("2 (l u)", 0, "lulu");
    /* In a board row a space is a floor square: it is kept and can be
     * repeated. Before rle_expand_board, "# 2$ #" lost its floors. */
    CHECK_RLE("# 2$ #", 1, "# $$ #");
    CHECK_RLE("  4#", 1, "  ####");
    CHECK_RLE("#3 #", 1, "#   #");
    CHECK_RLE("2(# )", 1, "# # ");
}

TEST(rle_appends_to_existing_content)
{
    strbuf out;
    sb_init(&out);
    sb_puts(&out, "ab");
    char err[64];
    CHECK_INT(rle_expand("2c", 2, &out, 100, err, sizeof err, NULL), 0);
    CHECK_STR(out.s, "abcc");
    /* On error the buffer is restored to what it held. */
    CHECK_INT(rle_expand("2(c", 3, &out, 100, err, sizeof err, NULL), -1);
    CHECK_STR(out.s, "abcc");
    CHECK_INT(out.len, 4);
    sb_free(&out);
}

TEST(rle_input_need_not_be_nul_terminated)
{
    const char buf[] = {'3', '#', '9', '9'};
    strbuf out;
    sb_init(&out);
    char err[64];
    CHECK_INT(rle_expand(buf, 2, &out, 100, err, sizeof err, NULL), 0);
    CHECK_STR(out.s, "###");
    sb_free(&out);
}

TEST(rle_errors_name_the_problem_and_its_offset)
{
    CHECK_RLE_ERR("2(#", 0, 1000, "missing ')'", 3);
    CHECK_RLE_ERR("#)#", 0, 1000, "unexpected ')'", 1);
    CHECK_RLE_ERR("(#))", 0, 1000, "unexpected ')'", 3);
    CHECK_RLE_ERR("#0#", 0, 1000, "count of zero", 1);
    CHECK_RLE_ERR("##3", 0, 1000, "nothing to repeat", 2);
    CHECK_RLE_ERR("(3)", 0, 1000, "nothing to repeat", 1);
    CHECK_RLE_ERR("#99999999999#", 0, 1000, "count too large", 1);
    CHECK_RLE_ERR("#2147483648#", 0, 1000, "count too large", 1);
}

TEST(rle_expansion_is_capped)
{
    /* A huge count is refused at once instead of allocating gigabytes. */
    CHECK_RLE_ERR("999999999#", 1, 66048, "expansion too long", 0);
    CHECK_RLE_ERR("2147483647(#)", 1, 66048, "expansion too long", 0);
    CHECK_RLE_ERR("#1000(1000(1000(#)))", 0, 66048, "expansion too long", 6);
    /* The cap counts everything produced, exactly. */
    CHECK_RLE_ERR("3#3#", 0, 5, "expansion too long", 2);
    char err[64] = "";
    size_t at = 0;
    char *s = expand("2#3#", 0, 5, err, sizeof err, &at);
    CHECK_STR(s, "#####");
    free(s);
    s = expand("2(2#)2(#)", 0, 6, err, sizeof err, &at);
    CHECK_STR(s, "######");
    free(s);
}

TEST(rle_nesting_is_limited)
{
    char deep[200];
    /* 64 groups are fine ... */
    int n = 0;
    for (int i = 0; i < 64; i++)
        deep[n++] = '(';
    deep[n++] = '#';
    for (int i = 0; i < 64; i++)
        deep[n++] = ')';
    deep[n] = '\0';
    CHECK_RLE(deep, 0, "#");
    /* ... 65 are refused, at the 65th '('. */
    n = 0;
    for (int i = 0; i < 65; i++)
        deep[n++] = '(';
    deep[n++] = '#';
    for (int i = 0; i < 65; i++)
        deep[n++] = ')';
    deep[n] = '\0';
    CHECK_RLE_ERR(deep, 0, 1000, "nested too deeply", 64);
}

TEST(rle_repeating_a_group_that_grows_the_buffer)
{
    /* The group's text used to be copied from the output buffer while
     * sb_putn reallocated it (a use after free the fuzzer found; visible
     * under the sanitizer build). Long groups repeated many times make the
     * buffer grow several times. */
    CHECK_RLE("40(#-)", 0,
              "#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-#-");
    char err[64];
    strbuf out;
    sb_init(&out);
    CHECK_INT(rle_expand("3(5(abcdefghij)7(k))", 20, &out, 100000, err, sizeof err, NULL), 0);
    CHECK_INT(out.len, 3 * (50 + 7));
    CHECK(strncmp(out.s, "abcdefghijabcdefghij", 20) == 0);
    CHECK(strcmp(out.s + out.len - 8, "jkkkkkkk") == 0);
    sb_free(&out);
}

TEST(rle_has_syntax_detects_counts_and_groups)
{
    CHECK(rle_has_syntax("4#", 2));
    CHECK(rle_has_syntax("(#)", 3));
    CHECK(rle_has_syntax("#)", 2));
    CHECK(!rle_has_syntax("#@$.#", 5));
    CHECK(!rle_has_syntax("#|#", 3));
    /* Only the first n bytes count. */
    CHECK(!rle_has_syntax("##3", 2));
}
