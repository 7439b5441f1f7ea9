/* str.h: a growable byte buffer for building output text. */
#ifndef KEEPER_STR_H
#define KEEPER_STR_H

#include <stddef.h>
#include "util.h"

typedef struct strbuf {
    char *s;    /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_clear(strbuf *b);
void sb_putc(strbuf *b, char c);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends s as a JSON string literal, quotes included. */
void sb_json_string(strbuf *b, const char *s);
/* Returns the buffer's string and resets b (the caller owns the result). */
char *sb_take(strbuf *b);

#endif
