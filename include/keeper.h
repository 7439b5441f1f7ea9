/* keeper.h: the public interface of libkeeper, a Sokoban solver.
 *
 *   keeper_collection *c = keeper_load("levels.sok", &err);
 *   keeper_options *o = keeper_options_new();
 *   keeper_options_set(o, "time", "10");
 *   keeper_result r;
 *   keeper_solve(c, 1, o, &r);        // level 1 (1-based)
 *   if (r.status == KEEPER_SOLVED) puts(r.solution);
 *   keeper_result_free(&r);
 *   keeper_options_free(o);
 *   keeper_free(c);
 *
 * Every solution returned has been replayed and verified. */
#ifndef KEEPER_H
#define KEEPER_H

#ifdef __cplusplus
extern "C" {
#endif

#define KEEPER_VERSION "0.1.0"

typedef struct keeper_collection keeper_collection;
typedef struct keeper_options keeper_options;

typedef enum { KEEPER_SOLVED = 0, KEEPER_UNSOLVED = 1, KEEPER_INVALID = 2 } keeper_status;

typedef struct keeper_metrics {
    long moves, pushes, box_lines, box_changes, pushing_sessions, player_lines;
} keeper_metrics;

typedef struct keeper_result {
    keeper_status status;
    char reason[512];       /* why unsolved or invalid ("time limit", "no solution", ...) */
    int optimal;            /* the push count is proven optimal */
    double seconds;
    unsigned long long nodes;    /* positions stored */
    unsigned long long expanded; /* positions expanded */
    keeper_metrics metrics;
    char *solution;         /* LURD, NULL unless solved; freed by keeper_result_free */
} keeper_result;

/* Loads an XSB/SOK file ("-" = stdin). Returns NULL and sets *error (a
 * message to free()) when the file cannot be read or holds no level. */
keeper_collection *keeper_load(const char *path, char **error);
/* Parses levels from memory. `name` is used in messages. */
keeper_collection *keeper_parse(const char *name, const char *text, unsigned long length,
                                char **error);
void keeper_free(keeper_collection *c);

int keeper_level_count(const keeper_collection *c);
/* Title of level `index` (1-based); "" when untitled, NULL when out of range. */
const char *keeper_level_title(const keeper_collection *c, int index);
/* "FILE:LINE: error: ..." for an invalid level, NULL for a valid one. */
const char *keeper_level_error(const keeper_collection *c, int index);

keeper_options *keeper_options_new(void);
/* Sets an option by its command-line name ("time", "memory", "optimal",
 * "dead-squares", ...). Returns 0, or -1 for an unknown name or bad value. */
int keeper_options_set(keeper_options *o, const char *name, const char *value);
void keeper_options_free(keeper_options *o);

/* Solves level `index` (1-based). Returns r->status. */
keeper_status keeper_solve(const keeper_collection *c, int index, const keeper_options *o,
                           keeper_result *r);
void keeper_result_free(keeper_result *r);

/* Replays `lurd` on level `index`. Returns 1 when it solves the level (and
 * fills *m), 0 otherwise with the reason in `why`. */
int keeper_verify(const keeper_collection *c, int index, const char *lurd, keeper_metrics *m,
                  char *why, unsigned long why_len);

#ifdef __cplusplus
}
#endif

#endif
