/* stats.c: printing and summing the counter table. */
#include "stats.h"

void stats_print(FILE *f, const char *prefix, const stats *s)
{
#define STATS_PRINT(name, how, desc)                                                    \
    if (s->name)                                                                        \
        fprintf(f, "%s%-18s %14llu  %s\n", prefix, #name, (unsigned long long)s->name, desc);
    KEEPER_STATS(STATS_PRINT)
#undef STATS_PRINT
}

void stats_add(stats *a, const stats *b)
{
#define STATS_COMBINE_SUM(x, y) ((x) + (y))
#define STATS_COMBINE_MAX(x, y) ((x) > (y) ? (x) : (y))
#define STATS_ADD(name, how, desc) a->name = STATS_COMBINE_##how(a->name, b->name);
    KEEPER_STATS(STATS_ADD)
#undef STATS_ADD
#undef STATS_COMBINE_SUM
#undef STATS_COMBINE_MAX
}
