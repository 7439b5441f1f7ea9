/* timer.h: monotonic wall-clock time, used only for the outer limits a user
 * asks for (--time) and for reporting; search effort is counted in nodes. */
#ifndef KEEPER_TIMER_H
#define KEEPER_TIMER_H

#include <stdint.h>

/* Monotonic time in nanoseconds since an arbitrary origin. */
int64_t timer_now_ns(void);
/* Seconds elapsed since `start_ns`. */
double timer_seconds_since(int64_t start_ns);
/* CPU time of this process in seconds. */
double timer_cpu_seconds(void);
/* Peak resident set size of this process in bytes (0 if unknown). */
uint64_t timer_peak_rss(void);

#endif
