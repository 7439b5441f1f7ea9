/* rle.h: run-length decoding shared by boards and solutions.
 *
 * Grammar:  seq   := item*
 *           item  := count? (char | '(' seq ')')
 *           count := digit+            (1 .. 2^31-1; 0 is rejected)
 * A count repeats the next character or parenthesized group, so
 * "2(3(#-)#)" is "#-#-#-##-#-#-#". Whitespace is skipped (except by
 * rle_expand_board). */
#ifndef KEEPER_RLE_H
#define KEEPER_RLE_H

#include <stddef.h>
#include "../util/str.h"

/* Expands s[0..n) into `out` (appending). Never produces more than `cap`
 * characters and never nests deeper than 64 groups, so hostile input cannot
 * exhaust memory or the stack. On error returns -1 and writes a message
 * (without file or line) into err; on success returns 0. The offset of the
 * offending character is stored in *err_at when err_at is not NULL. */
int rle_expand(const char *s, size_t n, strbuf *out, size_t cap, char *err, size_t errlen,
               size_t *err_at);

/* The same for a board row: spaces are floor squares, so they are kept and
 * can be repeated ("3 " is three floors) instead of being skipped; "# 2$ #"
 * is "# $$ #", not "#$$#". */
int rle_expand_board(const char *s, size_t n, strbuf *out, size_t cap, char *err, size_t errlen,
                     size_t *err_at);

/* Whether s[0..n) contains run-length syntax (a digit or a parenthesis). */
int rle_has_syntax(const char *s, size_t n);

#endif
