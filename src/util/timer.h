/* timer.h: monotonic wall-clock time, used only for the outer limits a user
 * asks for (--time) and for reporting; search effort is counted in nodes. */
#ifndef KEEPER_TIMER_H
#define KEEPER_TIMER_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds since an arbitrary origin, less the time
 * this thread has spent paused (timer_set_paused_ns): a level set aside (--defer)
 * keeps its own clock, so every deadline and elapsed time taken from it on
 * that thread skips the pause. Times compared between threads that may
 * have paused use timer_raw_ns. */
int64_t timer_now_ns(void);
/* Monotonic time, the same on every thread. */
int64_t timer_raw_ns(void);
/* The time this thread has spent paused (ns): timer_raw_ns() -
 * timer_now_ns(). */
int64_t timer_paused_ns(void);
/* Sets this thread's paused time: after a pause, the time before plus the
 * wait; a thread lent to a level takes the level's while it runs there. */
void timer_set_paused_ns(int64_t ns);
/* The wall-clock time (CLOCK_REALTIME) ns from now: the deadline of a
 * pthread_cond_timedwait. */
struct timespec timer_realtime_after(int64_t ns);
/* Seconds elapsed since `start_ns`. */
double timer_seconds_since(int64_t start_ns);
/* CPU time of this process in seconds. */
double timer_cpu_seconds(void);
/* Peak resident set size of this process in bytes (0 if unknown). */
uint64_t timer_peak_rss(void);

#endif
