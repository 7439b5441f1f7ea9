/* cmd_bench.c: "keeper bench": solve the built-in benchmark set in each
 * mode (push-optimal, fast and move-optimal), single-threaded, each run under a fixed
 * node budget, and print the total number of stored positions (the bench
 * signature) and the throughput. The signature depends only on the search,
 * never on the machine or the clock: a change that alters it says so in its
 * commit message. */
#include "cli.h"
#include "bench_levels.h"
#include "../../include/keeper.h"
#include "../driver/run.h"
#include "../util/options.h"
#include "../util/timer.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define BENCH_NODE_BUDGET 1000000
/* move-optimal mode stores whole states and takes a tenth */
#define BENCH_MOVES_BUDGET 100000
#define BENCH_MEMORY_MB 1024

static void bench_usage(FILE *f)
{
    fprintf(f,
            "usage: keeper bench [--verbose]\n"
            "\n"
            "Solves the built-in benchmark set (%s)\n"
            "in push-optimal, fast and move-optimal mode, one thread, at most %d\n"
            "positions per run (a tenth in move-optimal mode), and prints the total\n"
            "positions stored (the signature: the same on every machine and every\n"
            "run) and the positions per second. Search options (see 'keeper solve\n"
            "--help') apply, so 'keeper bench --no-corrals' shows a technique's effect.\n"
            "  --verbose   one line per level and mode\n",
            "the demo levels and eight more", BENCH_NODE_BUDGET);
}

int cmd_bench(int argc, char **argv)
{
    int verbose = 0;
    options base;
    options_init(&base);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            bench_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            verbose = 1;
            continue;
        }
        char err[256];
        int used = options_parse(&base, a, i + 1 < argc ? argv[i + 1] : NULL, err, sizeof err);
        if (used < 0)
            return cli_usage_error("bench", "%s", err);
        if (used == 0)
            return cli_usage_error("bench", "unknown argument '%s'", a);
        i += used - 1;
    }
    collection c;
    collection_parse(&c, "<bench>", bench_levels, strlen(bench_levels));
    if (c.error) {
        fprintf(stderr, "%s\n", c.error);
        collection_free(&c);
        return EXIT_BAD_INPUT;
    }
    uint64_t total_nodes = 0, total_expanded = 0;
    int solved = 0, runs = 0;
    double cpu0 = timer_cpu_seconds();
    int64_t t0 = timer_now_ns();
    static const char *const mode_name[] = {"optimal", "fast", "moves"};
    for (int mode = 0; mode < 3; mode++) {
        options o = base;
        o.optimal = mode == 0 ? 1 : mode == 2 ? 2 : 0;
        o.time = 0;
        o.threads = 1;
        o.memory = BENCH_MEMORY_MB;
        o.max_nodes = mode == 2 ? BENCH_MOVES_BUDGET : BENCH_NODE_BUDGET;
        for (int k = 0; k < c.nlevels; k++) {
            search_limits lim;
            driver_limits(&lim, &o, NULL);
            solve_result r;
            solve_level(&c.levels[k], &o, &lim, driver_memory_share(&o, 1), &r);
            total_nodes += r.st.nodes;
            total_expanded += r.st.expanded;
            runs++;
            solved += r.status == RESULT_SOLVED;
            if (verbose)
                fprintf(stderr, "  %-8s %-22s %-9s %10llu nodes %8.3f s %s\n",
                        mode_name[mode], c.levels[k].title,
                        result_status_text(r.status), (unsigned long long)r.st.nodes, r.seconds,
                        r.status == RESULT_SOLVED ? "" : r.reason);
            solve_result_free(&r);
        }
    }
    double wall = timer_seconds_since(t0), cpu = timer_cpu_seconds() - cpu0;
    printf("keeper %s bench: %d runs, %d solved\n", KEEPER_VERSION, runs, solved);
    printf("positions  %llu\n", (unsigned long long)total_nodes);
    printf("expanded   %llu\n", (unsigned long long)total_expanded);
    printf("time       %.3f s (cpu %.3f s)\n", wall, cpu);
    printf("nodes/s    %.0f\n", wall > 0 ? (double)total_nodes / wall : 0.0);
    printf("signature  %llu\n", (unsigned long long)total_nodes);
    collection_free(&c);
    return 0;
}
