/* search.h: what every search strategy shares: limits, the stop reasons,
 * the push sequence it returns, and the limit check. */
#ifndef KEEPER_SEARCH_H
#define KEEPER_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>
#include "../core/board.h"
#include "../util/mem.h"
#include "../util/spares.h"
#include "../util/stats.h"

typedef enum {
    STOP_NONE = 0,  /* still running, or solved */
    STOP_TIME,      /* time limit */
    STOP_MEMORY,    /* memory limit */
    STOP_NODES,     /* node limit (bench, --max-nodes) */
    STOP_INTERRUPT, /* Ctrl-C */
    STOP_EXHAUSTED, /* the whole search space was searched: no solution */
    STOP_HALTED,    /* another search of the same level ended it (portfolio) */
    STOP_GAVE_UP,   /* the strategy ended with neither a solution nor a proof
                       (search/opening.h) */
} stop_reason;

const char *stop_reason_text(stop_reason r);

typedef struct search_limits {
    int64_t deadline_ns;                    /* 0 = none */
    uint64_t max_nodes;                     /* 0 = none */
    atomic_int *interrupt;                  /* set by the SIGINT handler, or NULL */
    atomic_int *halt;                       /* nonzero: another search running on this
                                               level (another thread) has ended it; or NULL */
    spares *spares;                         /* idle threads a portfolio may borrow, or NULL */
    void (*progress)(void *arg, const stats *st, double seconds); /* or NULL */
    void *progress_arg;
    double progress_every;                  /* seconds between progress calls */
    /* --defer: once the level has run pause_after seconds, a portfolio on
     * its own thread (not lent one) calls pause once, at a turn boundary,
     * with the bytes its memory budget holds; pause may block while the
     * level is set aside (this thread's clock, timer_now_ns, then skips
     * the wait: every deadline holds on the level's own time). NULL: never. */
    void (*pause)(void *arg, uint64_t bytes);
    void *pause_arg;
    double pause_after;
    int64_t start_ns;
} search_limits;

/* Clears *lim and starts its clock now: deadline `seconds` from now (none
 * when seconds <= 0), no other limit. The one place seconds become a
 * deadline. */
void search_limits_start(search_limits *lim, double seconds);
/* The first progress report's time of a search starting under lim (0: no
 * progress callback). */
int64_t search_first_progress(const search_limits *lim);

/* One push or macro move: the box on `from` ends on `to` after `pushes`
 * pushes, the last one in direction `dir`. A straight move along `dir`
 * needs no more; other macros are replayed by a box-path search. */
typedef struct push_step {
    sq_t from, to;
    uint8_t dir;
    uint32_t pushes;
} push_step;

typedef struct push_seq {
    push_step *v;
    int n, cap;
} push_seq;

void push_seq_add(push_seq *ps, sq_t from, sq_t to, int dir, uint32_t pushes);
void push_seq_free(push_seq *ps);
/* Total pushes. */
long push_seq_pushes(const push_seq *ps);

/* For the searches' traces (KEEPER_TRACE_*): the position with boxes[nboxes]
 * and the player on `player` drawn on stderr in XSB, then a blank line. */
void search_trace_position(const board *b, const sq_t *boxes, sq_t player);

/* Outcome of a search strategy. */
/* What one member of a portfolio did (search_outcome.members). */
#define SEARCH_MAX_MEMBERS 7
typedef struct member_report {
    const char *name; /* "fess", "astar", "fess-order", "fess-plan2", "backward",
                         "opening", "rev" */
    double seconds;   /* time spent in its turns (wall clock: it varies from
                         run to run, unlike the counters) */
    stats st;
} member_report;

typedef struct search_outcome {
    int solved;
    int optimal;      /* the push count is proven optimal */
    stop_reason stop; /* why the search ended without a solution */
    push_seq pushes;  /* the solution, from the start position */
    const char *strategy; /* the search that found it: "astar", "fess",
                             "backward", "bfs" */
    stats st;
    int nmembers;     /* a portfolio's members (0 for a search run alone) */
    member_report members[SEARCH_MAX_MEMBERS];
} search_outcome;

/* Checks the interrupt, halt, node and time limits; call it every few hundred
 * expansions. Returns the reason to stop, or STOP_NONE. Also calls the
 * progress callback when it is due. */
stop_reason search_check_limits(search_limits *lim, const stats *st, int64_t *next_progress_ns);

/* The deadline alone, polled between the full checks of search_check_limits:
 * on boards of hundreds of boxes a few hundred expansions take seconds. The
 * clock is read every `every` calls, and `every` adapts so that readings
 * come about a millisecond apart however long an expansion takes (1 to
 * 4,096 calls). It only ever stops a search for time, so node counts and
 * solutions do not depend on it. Zero-initialize. */
typedef struct deadline_poll {
    uint32_t n, every;
    int64_t last_ns;
} deadline_poll;

/* Returns 1 when lim's deadline has passed. */
int search_deadline_passed(const search_limits *lim, deadline_poll *dp);

#endif
