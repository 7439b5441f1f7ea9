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
 * Every solution returned has been replayed and verified.
 *
 * Threads: the functions may be called from any thread. A collection and
 * an options object are read-only while a call uses them (several calls
 * may share them); keeper_options_set and keeper_options_set_progress
 * must not run while a call uses the object. keeper_interrupt may be
 * called at any time, from any thread or from a signal handler. Progress
 * callbacks run on keeper's worker threads, possibly several at once
 * (keeper_solve_many). */
#ifndef KEEPER_H
#define KEEPER_H

#ifdef __cplusplus
extern "C" {
#endif

#define KEEPER_VERSION "0.1.0"

/* The functions below are the library's whole interface: the shared
 * library (libkeeper.so) exports them and nothing else. */
#if defined(KEEPER_BUILD_SHARED) && defined(__GNUC__)
#define KEEPER_API __attribute__((visibility("default")))
#else
#define KEEPER_API
#endif

typedef struct keeper_collection keeper_collection;
typedef struct keeper_options keeper_options;

typedef enum { KEEPER_SOLVED = 0, KEEPER_UNSOLVED = 1, KEEPER_INVALID = 2 } keeper_status;

typedef struct keeper_metrics {
    long moves, pushes, box_lines, box_changes, pushing_sessions, player_lines;
} keeper_metrics;

typedef struct keeper_result {
    keeper_status status;
    char reason[512];       /* why unsolved or invalid ("time limit", "no solution", ...) */
    int optimal;            /* proven optimal: the push count ("optimal" = pushes), or
                               the moves, then the pushes ("optimal" = moves) */
    double seconds;
    unsigned long long nodes;    /* positions stored */
    unsigned long long expanded; /* positions expanded */
    keeper_metrics metrics;
    char *solution;         /* LURD, NULL unless solved; freed by keeper_result_free */
    const char *strategy;   /* the search that found the solution, or that ran ("" when
                               none); a static string */
    long lower_bound;       /* optimal modes: every solution has at least this many
                               pushes (moves with "optimal" = moves), proven; -1 when
                               not known */
    keeper_metrics found;   /* the solution as the search found it, before the
                               "optimize" option shortened it (= metrics without it) */
} keeper_result;

/* What a running solve reports (keeper_options_set_progress). */
typedef struct keeper_progress {
    int level;                 /* the level (1-based index) */
    double seconds;            /* since the level started */
    unsigned long long nodes;  /* positions stored so far */
    unsigned long long memory; /* bytes of the search's memory budget in use */
    long lower_bound;          /* optimal modes: the proven bound so far (pushes, or
                               moves), else -1 */
    const char *status;        /* the same as one line of text */
} keeper_progress;

/* Returns non-zero to cancel the call it reports on (that call returns
 * what it has, reason "interrupted"). */
typedef int (*keeper_progress_fn)(void *arg, const keeper_progress *p);

/* Loads an XSB/SOK file ("-" = stdin). Returns NULL and sets *error (a
 * message to free()) when the file cannot be read or holds no level. */
KEEPER_API keeper_collection *keeper_load(const char *path, char **error);
/* Parses levels from memory. `name` is used in messages. */
KEEPER_API keeper_collection *keeper_parse(const char *name, const char *text, unsigned long length,
                                char **error);
KEEPER_API void keeper_free(keeper_collection *c);

KEEPER_API int keeper_level_count(const keeper_collection *c);
/* Title of level `index` (1-based); "" when untitled, NULL when out of range. */
KEEPER_API const char *keeper_level_title(const keeper_collection *c, int index);
/* "FILE:LINE: error: ..." for an invalid level, NULL for a valid one. */
KEEPER_API const char *keeper_level_error(const keeper_collection *c, int index);

KEEPER_API keeper_options *keeper_options_new(void);
/* Sets an option by its command-line name ("time", "memory", "optimal",
 * "dead-squares", ...; keeper_option_names lists them) to a value as the
 * command line writes it ("10", "fess", "on"). Returns 0, or -1 for an
 * unknown name or a bad value (keeper_options_error says which). */
KEEPER_API int keeper_options_set(keeper_options *o, const char *name, const char *value);
/* The message of the last failed keeper_options_set ("" when none). */
KEEPER_API const char *keeper_options_error(const keeper_options *o);
/* Every option name keeper_options_set accepts, comma-separated. */
KEEPER_API const char *keeper_option_names(void);
/* Calls fn(arg, ...) about every `every` seconds while a level of a call
 * with these options runs (fn NULL: no progress). */
KEEPER_API void keeper_options_set_progress(keeper_options *o, keeper_progress_fn fn, void *arg,
                                 double every);
/* Stops every call running with o: each returns what it has found, its
 * levels unsolved with reason "interrupted"; and every later call with o
 * returns at once, until keeper_options_resume(o). */
KEEPER_API void keeper_interrupt(keeper_options *o);
KEEPER_API void keeper_options_resume(keeper_options *o);
KEEPER_API void keeper_options_free(keeper_options *o);

/* Solves level `index` (1-based). Returns r->status. */
KEEPER_API keeper_status keeper_solve(const keeper_collection *c, int index, const keeper_options *o,
                           keeper_result *r);
KEEPER_API void keeper_result_free(keeper_result *r);

/* Solves levels indices[0..n-1] (1-based; indices NULL: every level, n
 * ignored) on the option "threads" worker threads (levels at a time; a
 * thread with no level left helps a level still running). done(arg, i, r)
 * is called on the calling thread for each, in the order given, as soon as
 * it and those before it are done; keeper frees r after the call (set
 * r->solution to NULL to keep it; free it with free()). A level an
 * interrupt kept from starting comes back unsolved, reason
 * "interrupted". Returns how many were solved. */
KEEPER_API int keeper_solve_many(const keeper_collection *c, const int *indices, int n,
                      const keeper_options *o,
                      void (*done)(void *arg, int i, keeper_result *r), void *arg);

/* Optimizes `lurd`, a solution of level `index`, for at most `seconds`
 * (0: until no method improves it) within the option "memory", fewest
 * moves first (metric "moves") or fewest pushes first ("pushes");
 * keeper_interrupt(o) stops it with the best found. Returns 0 with
 * *out the result (a verified solution, never worse than lurd in that
 * order; free it with free()) and *m its metrics (m may be NULL); or -1
 * with the reason in `why`: no such level, an invalid level, lurd does not
 * solve it, an unknown metric. */
KEEPER_API int keeper_optimize(const keeper_collection *c, int index, const char *lurd,
                    const char *metric, double seconds, const keeper_options *o, char **out,
                    keeper_metrics *m,
                    char *why, unsigned long why_len);

/* Gives level `index` a seed for push-optimal proofs (option "optimal"
 * "pushes"; keeper solve --seed): `lurd`, a solution of the level, takes the
 * place of the fast search and optimizer that otherwise find the seed, and
 * the proof ends as soon as its lower bound reaches the seed's pushes. What
 * is proven does not depend on the seed. lurd NULL removes the seed. Not
 * while a call is solving c. Returns 0, or -1 with the reason in `why` (no
 * such level, an invalid level, lurd does not solve it). */
KEEPER_API int keeper_seed(keeper_collection *c, int index, const char *lurd, char *why,
                           unsigned long why_len);

/* Replays `lurd` on level `index`. Returns 1 when it solves the level (and
 * fills *m), 0 otherwise with the reason in `why`. */
KEEPER_API int keeper_verify(const keeper_collection *c, int index, const char *lurd, keeper_metrics *m,
                  char *why, unsigned long why_len);

#ifdef __cplusplus
}
#endif

#endif
