/* stats.c: printing and summing the counter table. */
#include "stats.h"

#include <string.h>

void stats_print(FILE *f, const char *prefix, const stats *s)
{
#define STATS_PRINT(name, desc)                                                         \
    if (s->name)                                                                        \
        fprintf(f, "%s%-18s %14llu  %s\n", prefix, #name, (unsigned long long)s->name, desc);
    KEEPER_STATS(STATS_PRINT)
#undef STATS_PRINT
}

void stats_add(stats *a, const stats *b)
{
#define STATS_ADD(name, desc)                                                           \
    if (strcmp(#name, "max_depth") == 0 || strcmp(#name, "best_packed") == 0 ||        \
        strcmp(#name, "best_lower_bound") == 0 || strcmp(#name, "mem_bytes") == 0) {   \
        if (b->name > a->name)                                                          \
            a->name = b->name;                                                          \
    } else {                                                                            \
        a->name += b->name;                                                             \
    }
    KEEPER_STATS(STATS_ADD)
#undef STATS_ADD
}
