/* fuzz_parser.c: libFuzzer target for the level parser. Parses arbitrary
 * bytes as a level file, checks the invariants every parse must keep, writes
 * each valid level back as XSB and as SOK, reparses the text and checks that
 * grid, size and title survive. Any broken invariant aborts.
 *
 * The check itself is fuzz_parser_check(), which returns NULL or a message;
 * tests/unit/test_fuzz_corpus.c includes this file (with FUZZ_PARSER_NO_MAIN
 * defined) to replay tests/fuzz/corpus through the same check under gcc. */
#include "../../src/core/level.h"
#include "../../src/util/str.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name the parser puts in front of messages. */
#define FUZZ_NAME "in.sok"

/* Whether msg reads "NAME:LINE: error: ..." with LINE in 1..maxline. */
static int fuzz_error_format_ok(const char *msg, int maxline)
{
    size_t nl = strlen(FUZZ_NAME);
    if (strncmp(msg, FUZZ_NAME ":", nl + 1) != 0)
        return 0;
    const char *p = msg + nl + 1;
    long line = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 10) {
        line = line * 10 + (*p++ - '0');
        digits++;
    }
    if (digits == 0 || line < 1 || line > maxline)
        return 0;
    return strncmp(p, ": error: ", 9) == 0 && p[9] != '\0';
}

/* Invariants of one parsed level; writes a message into err on failure. */
static int fuzz_level_ok(const level *lv, int maxline, char *err, size_t errlen)
{
    if (!lv->title) {
        snprintf(err, errlen, "level %d: title is NULL", lv->index);
        return 0;
    }
    for (const char *p = lv->title; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            snprintf(err, errlen, "level %d: control character in title", lv->index);
            return 0;
        }
    if (lv->line < 1 || lv->line > maxline) {
        snprintf(err, errlen, "level %d: line %d out of range", lv->index, lv->line);
        return 0;
    }
    if (lv->error) {
        if (!fuzz_error_format_ok(lv->error, maxline)) {
            snprintf(err, errlen, "level %d: badly formed error \"%.200s\"", lv->index, lv->error);
            return 0;
        }
        return 1;
    }
    if (lv->width < 1 || lv->width > LEVEL_MAX_WIDTH || lv->height < 1 ||
        lv->height > LEVEL_MAX_HEIGHT || !lv->grid || !lv->inside || !lv->row_line) {
        snprintf(err, errlen, "level %d: valid level with size %dx%d", lv->index, lv->width,
                 lv->height);
        return 0;
    }
    if ((int)strlen(lv->grid) != lv->width * lv->height) {
        snprintf(err, errlen, "level %d: grid length differs from its size", lv->index);
        return 0;
    }
    int players = 0;
    for (int k = 0; k < lv->width * lv->height; k++) {
        char g = lv->grid[k];
        if (!strchr("# $.*@+", g)) {
            snprintf(err, errlen, "level %d: grid holds '%c'", lv->index, g);
            return 0;
        }
        if (g == '@' || g == '+')
            players++;
        if (lv->inside[k] && g == '#') {
            snprintf(err, errlen, "level %d: wall marked inside", lv->index);
            return 0;
        }
    }
    int boxes = level_count(lv, '$'), goals = level_count(lv, '.');
    if (players != 1 || boxes < 1 || boxes != goals || boxes > LEVEL_MAX_BOXES) {
        snprintf(err, errlen, "level %d: valid level with %d players, %d boxes, %d goals",
                 lv->index, players, boxes, goals);
        return 0;
    }
    for (int s = 0; s < lv->nsections; s++)
        if (!lv->sections[s].moves) {
            snprintf(err, errlen, "level %d: section %d without moves", lv->index, s + 1);
            return 0;
        }
    return 1;
}

typedef void (*fuzz_writer)(strbuf *, const level *);

/* Writes lv with `write`, reparses, and compares. */
static int fuzz_roundtrip(const level *lv, fuzz_writer write, const char *how, char *err,
                          size_t errlen)
{
    strbuf out;
    sb_init(&out);
    write(&out, lv);
    collection c2;
    collection_parse(&c2, FUZZ_NAME, out.s ? out.s : "", out.len);
    int ok = 0;
    if (c2.error)
        snprintf(err, errlen, "level %d as %s: reparse failed: %.200s", lv->index, how, c2.error);
    else if (c2.nlevels != 1)
        snprintf(err, errlen, "level %d as %s: reparse gave %d levels", lv->index, how,
                 c2.nlevels);
    else if (c2.levels[0].error)
        snprintf(err, errlen, "level %d as %s: reparse: %.200s", lv->index, how,
                 c2.levels[0].error);
    else if (c2.levels[0].width != lv->width || c2.levels[0].height != lv->height)
        snprintf(err, errlen, "level %d as %s: size %dx%d became %dx%d", lv->index, how,
                 lv->width, lv->height, c2.levels[0].width, c2.levels[0].height);
    else if (memcmp(c2.levels[0].grid, lv->grid, (size_t)(lv->width * lv->height)) != 0)
        snprintf(err, errlen, "level %d as %s: grid differs", lv->index, how);
    else if (memcmp(c2.levels[0].inside, lv->inside, (size_t)(lv->width * lv->height)) != 0)
        snprintf(err, errlen, "level %d as %s: player's region differs", lv->index, how);
    else if (strcmp(c2.levels[0].title, lv->title) != 0)
        snprintf(err, errlen, "level %d as %s: title \"%.100s\" became \"%.100s\"", lv->index,
                 how, lv->title, c2.levels[0].title);
    else
        ok = 1;
    collection_free(&c2);
    sb_free(&out);
    return ok;
}

/* Writes every valid level of c as XSB into one text, blank lines between,
 * and checks that it reads back as the same levels in the same order: the
 * levels must not run into each other (a title taken for the one above, a
 * board row joining another board). */
static int fuzz_collection_roundtrip(const collection *c, char *err, size_t errlen)
{
    strbuf out;
    sb_init(&out);
    int nvalid = 0;
    for (int k = 0; k < c->nlevels; k++) {
        if (c->levels[k].error)
            continue;
        if (nvalid++)
            sb_putc(&out, '\n');
        level_write_xsb(&out, &c->levels[k]);
    }
    if (nvalid == 0) {
        sb_free(&out);
        return 1;
    }
    collection c2;
    collection_parse(&c2, FUZZ_NAME, out.s, out.len);
    int ok = 1;
    if (c2.nlevels != nvalid) {
        snprintf(err, errlen, "collection as XSB: %d levels came back, expected %d", c2.nlevels,
                 nvalid);
        ok = 0;
    }
    for (int k = 0, j = 0; ok && k < c->nlevels; k++) {
        const level *a = &c->levels[k];
        if (a->error)
            continue;
        const level *b = &c2.levels[j++];
        if (b->error || b->width != a->width || b->height != a->height ||
            memcmp(b->grid, a->grid, (size_t)(a->width * a->height)) != 0 ||
            strcmp(b->title, a->title) != 0) {
            snprintf(err, errlen, "collection as XSB: level %d came back as level %d differently",
                     k + 1, j);
            ok = 0;
        }
    }
    collection_free(&c2);
    sb_free(&out);
    return ok;
}

/* Runs every check on one input. Returns NULL when all hold, else a message
 * (in a static buffer). */
static const char *fuzz_parser_check(const uint8_t *data, size_t size)
{
    static char err[512];
    collection c;
    collection_parse(&c, FUZZ_NAME, (const char *)data, size);
    int maxline = 1;
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n' || (data[i] == '\r' && (i + 1 == size || data[i + 1] != '\n')))
            maxline++;
    int ok = 1;
    if (c.error && !fuzz_error_format_ok(c.error, maxline)) {
        snprintf(err, sizeof err, "badly formed file error \"%.200s\"", c.error);
        ok = 0;
    }
    if (ok && !c.error && c.nlevels < 1) {
        snprintf(err, sizeof err, "no levels and no error");
        ok = 0;
    }
    for (int k = 0; ok && k < c.nlevels; k++) {
        const level *lv = &c.levels[k];
        if (lv->index != k + 1) {
            snprintf(err, sizeof err, "level %d has index %d", k + 1, lv->index);
            ok = 0;
            break;
        }
        if (!fuzz_level_ok(lv, maxline, err, sizeof err)) {
            ok = 0;
            break;
        }
        /* Exercise the accessors (the answers are not checked here). */
        (void)level_meta(lv, "Author");
        for (int s = 0; s < lv->nsections; s++)
            (void)section_is_saved_game(&lv->sections[s]);
        if (lv->error)
            continue;
        if (!fuzz_roundtrip(lv, level_write_xsb, "XSB", err, sizeof err) ||
            !fuzz_roundtrip(lv, level_write_sok, "SOK", err, sizeof err))
            ok = 0;
    }
    if (ok && !fuzz_collection_roundtrip(&c, err, sizeof err))
        ok = 0;
    collection_free(&c);
    return ok ? NULL : err;
}

#ifndef FUZZ_PARSER_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *msg = fuzz_parser_check(data, size);
    if (msg) {
        fprintf(stderr, "fuzz_parser: %s\n", msg);
        abort();
    }
    return 0;
}
#endif
