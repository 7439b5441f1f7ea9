/* optimize.h: making a solution shorter (seed 002, YASO): the methods in a
 * schedule, each improvement replayed and compared in the chosen metric
 * order before it is kept.
 *
 * Metric orders (sol_metrics): OPT_MOVES compares moves, pushes, box lines,
 * box changes, pushing sessions, player lines; OPT_PUSHES compares pushes
 * first, then moves and the rest. The result is never worse than the input
 * in that order, and it always solves the level (every candidate is
 * replayed from the start). */
#ifndef KEEPER_OPTIMIZE_H
#define KEEPER_OPTIMIZE_H

#include "rearrange.h"
#include "vicinity.h"

/* The methods, in the order the report lists them: name, description. */
#define OPT_METHODS(X)                                                                \
    X(rearrangements, "rearrangements: the solution's own pushes in another order (a box's "   \
                      "sessions joined, neighbouring sessions swapped) or with a loop cut out") \
    X(vicinity, "vicinity search: cheapest path through box configurations near the "  \
                "solution's")                                                          \
    X(permutations, "N-box permutations: a cheapest path between two positions of the " \
                    "solution moving only the N boxes the solution moves between them")  \
    X(global, "global search: cheapest path through every box configuration within D "   \
              "pushes of the solution's")

typedef enum {
#define X(n, d) OPT_M_##n,
    OPT_METHODS(X)
#undef X
    OPT_NMETHODS
} opt_method;

extern const char *const opt_method_name[OPT_NMETHODS];
extern const char *const opt_method_desc[OPT_NMETHODS];

typedef struct opt_config {
    int metric;           /* OPT_MOVES or OPT_PUSHES */
    int near1, near2;     /* the vicinity's widest setting (20/10 by default);
                             quick settings 10/0, 20/0 and 999/0 run first */
    uint32_t max_configs; /* largest cloud of one vicinity search */
    unsigned methods;     /* the methods that run: bit 1 << opt_method */
    int global_depth;     /* the global search's deepest setting (3) */
    /* Called at the start of each search and after each improvement (or
     * NULL): the method, its setting ("20/10"), the pushes window searched,
     * the best metrics so far and the seconds since the start. */
    void (*progress)(void *arg, const char *method, const char *setting, int from, int to,
                     const sol_metrics *best, double seconds);
    void *progress_arg;
} opt_config;

void opt_config_default(opt_config *c);

typedef struct opt_method_report {
    long improvements; /* candidates kept */
    long runs;         /* searches run */
    double seconds;
} opt_method_report;

typedef struct opt_report {
    sol_metrics before, after;
    long improvements;
    stop_reason stop; /* STOP_NONE: every method ran to its end */
    vicinity_stats vic;
    opt_method_report method[OPT_NMETHODS];
} opt_report;

/* Negative when a is better than b in the metric order, 0 when equal. */
int metrics_cmp(const sol_metrics *a, const sol_metrics *b, int metric);

/* Optimizes `mv`, a solution of b (b analysed: dead squares), in place,
 * within lim (time, interrupt) and mem. Returns 0, or -1 when mv does not
 * solve the level (mv is left as it was). */
int optimize_solution(const board *b, movelist *mv, const opt_config *cfg, search_limits *lim,
                      membudget *mem, opt_report *rep);

#endif
