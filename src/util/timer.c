/* timer.c: clocks and resource readings. */
#define _POSIX_C_SOURCE 200809L
#include "timer.h"

#include <sys/resource.h>
#include <time.h>

int64_t timer_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double timer_seconds_since(int64_t start_ns)
{
    return (double)(timer_now_ns() - start_ns) / 1e9;
}

double timer_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t timer_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024u; /* Linux reports KiB */
}
