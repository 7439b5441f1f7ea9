/* main.c: the keeper program: subcommand dispatch (the shared helpers are
 * in common.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "../../include/keeper.h"
#include "../util/str.h"
#include "../util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "keeper %s: a Sokoban solver and solution optimizer\n"
            "\n"
            "usage: keeper COMMAND [ARGS]   (keeper FILE is short for keeper solve FILE)\n"
            "\n"
            "commands:\n"
            "  solve FILE     solve the levels of an XSB or SOK file\n"
            "  verify FILE [SOLUTIONS]\n"
            "                 check solutions: those stored in FILE, or in SOLUTIONS\n"
            "                 (SOK, one LURD line per level, or CSV with a lurd column)\n"
            "  optimize FILE [SOLUTIONS]\n"
            "                 make solutions shorter in moves or pushes\n"
            "  show FILE      print levels and what the board analysis knows\n"
            "  bench          solve the built-in benchmark set; print the node signature\n"
            "  help [COMMAND] help on a command\n"
            "  version        print the version\n"
            "\n"
            "exit status: 0 all levels solved (all solutions valid), 1 some level unsolved\n"
            "(some solution invalid), 2 bad input or usage.\n"
            "'keeper COMMAND --help' describes a command; 'man keeper' has the details.\n",
            KEEPER_VERSION);
}

int main(int argc, char **argv)
{
    cli_setup_allocator();
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        if (argc >= 3) {
            char *sub[] = {argv[2], "--help", NULL};
            if (!strcmp(argv[2], "solve"))
                return cmd_solve(2, sub);
            if (!strcmp(argv[2], "verify"))
                return cmd_verify(2, sub);
            if (!strcmp(argv[2], "show"))
                return cmd_show(2, sub);
            if (!strcmp(argv[2], "optimize"))
                return cmd_optimize(2, sub);
            if (!strcmp(argv[2], "bench"))
                return cmd_bench(2, sub);
            if (!strcmp(argv[2], "help") || !strcmp(argv[2], "version")) {
                usage(stdout); /* the commands' list says what these do */
                return 0;
            }
            return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        }
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("keeper %s\n", KEEPER_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "solve"))
        return cmd_solve(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify"))
        return cmd_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "show"))
        return cmd_show(argc - 1, argv + 1);
    if (!strcmp(cmd, "optimize"))
        return cmd_optimize(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 1, argv + 1);
    /* keeper FILE ...: a name that exists or looks like a path (so that a
     * missing file is reported as such, not as an unknown command). */
    if (!strcmp(cmd, "-") ||
        (cmd[0] != '-' && (access(cmd, F_OK) == 0 || strchr(cmd, '/') || strchr(cmd, '.'))))
        return cmd_solve(argc, argv);
    return cli_usage_error(NULL, "unknown command '%s'", cmd);
}
