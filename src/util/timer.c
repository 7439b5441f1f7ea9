/* timer.c: clocks and resource readings. */
#define _POSIX_C_SOURCE 200809L
#include "timer.h"

#ifdef _WIN32
/* Windows (the plugin DLL, make windows): the performance counter, the
 * process's times and its peak working set. */
#include <string.h>
#include <windows.h>

int64_t timer_raw_ns(void)
{
    static LARGE_INTEGER freq; /* constant while the system runs */
    LARGE_INTEGER now;
    if (freq.QuadPart == 0)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (int64_t)((double)now.QuadPart * 1e9 / (double)freq.QuadPart);
}

double timer_cpu_seconds(void)
{
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    uint64_t k = (uint64_t)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime;
    uint64_t u = (uint64_t)user.dwHighDateTime << 32 | user.dwLowDateTime;
    return (double)(k + u) / 1e7; /* 100 ns units */
}

typedef struct {
    DWORD cb, PageFaultCount;
    SIZE_T PeakWorkingSetSize, WorkingSetSize, QuotaPeakPagedPoolUsage, QuotaPagedPoolUsage,
        QuotaPeakNonPagedPoolUsage, QuotaNonPagedPoolUsage, PagefileUsage, PeakPagefileUsage;
} keeper_pmc; /* PROCESS_MEMORY_COUNTERS, without psapi.h */
BOOL WINAPI K32GetProcessMemoryInfo(HANDLE process, keeper_pmc *pmc, DWORD cb);

uint64_t timer_peak_rss(void)
{
    keeper_pmc pmc;
    memset(&pmc, 0, sizeof pmc);
    pmc.cb = sizeof pmc;
    if (!K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc))
        return 0;
    return (uint64_t)pmc.PeakWorkingSetSize;
}

#else
#include <sys/resource.h>
#include <time.h>

int64_t timer_raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
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
#endif

/* This thread's paused time (timer.h): written and read by its own thread
 * only. */
static _Thread_local int64_t paused_ns;

int64_t timer_now_ns(void)
{
    return timer_raw_ns() - paused_ns;
}

int64_t timer_paused_ns(void)
{
    return paused_ns;
}

void timer_set_paused_ns(int64_t ns)
{
    paused_ns = ns;
}

struct timespec timer_realtime_after(int64_t ns)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    int64_t n = t.tv_nsec + ns;
    t.tv_sec += (time_t)(n / 1000000000);
    t.tv_nsec = (long)(n % 1000000000);
    return t;
}

double timer_seconds_since(int64_t start_ns)
{
    return (double)(timer_now_ns() - start_ns) / 1e9;
}
