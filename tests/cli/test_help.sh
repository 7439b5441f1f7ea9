#!/bin/sh
# test_help.sh: --help on every subcommand, "keeper help", the version, and
# that every solver option of src/util/options.h appears in "solve --help".
. tests/cli/lib.sh

run "$KEEPER" --help
expect_rc 0 "keeper --help"
expect_out "^usage: keeper COMMAND" "keeper --help shows the usage"
for c in solve verify show bench; do
    expect_out "^  $c" "keeper --help lists $c"
done
expect_out "exit status" "keeper --help explains the exit status"

run "$KEEPER" -h
expect_rc 0 "keeper -h"
expect_out "^usage: keeper" "keeper -h shows the usage"

run "$KEEPER" help
expect_rc 0 "keeper help"
expect_out "^usage: keeper" "keeper help shows the usage"
# every command the usage lists has help, "help" itself included
for c in help version; do
    run "$KEEPER" help $c
    expect_rc 0 "keeper help $c"
    expect_out "^usage: keeper" "keeper help $c shows the usage"
done
# the enumerated options list their names, not numbers
run "$KEEPER" solve --help
expect_out "^  --strategy=NAME .*astar.*fess.*portfolio.*backward.*opening.*(default portfolio)" "solve --help: --strategy's names"
expect_out "^  --search=NAME .*astar.*bfs.*(default astar)" "solve --help: --search's names"

run "$KEEPER"
expect_rc 2 "keeper without arguments"
expect_err "^usage: keeper" "keeper without arguments shows the usage on stderr"

run "$KEEPER" --version
expect_rc 0 "keeper --version"
expect_out "^keeper [0-9]+\.[0-9]+\.[0-9]+$" "keeper --version prints the version"
version=$(sed -n 's/^#define KEEPER_VERSION "\(.*\)"/\1/p' include/keeper.h)
expect_out "^keeper $version$" "the version is KEEPER_VERSION of keeper.h"
run "$KEEPER" version
expect_rc 0 "keeper version"

# --help, -h and "keeper help COMMAND" for the subcommands.
for c in solve verify show; do
    run "$KEEPER" "$c" --help
    expect_rc 0 "keeper $c --help"
    expect_out "^usage: keeper $c FILE" "keeper $c --help shows the usage"
    if [ -s "$WORK/err" ]; then fail "keeper $c --help writes to stderr: $(head -c 200 "$WORK/err")"; else pass; fi
    run "$KEEPER" "$c" -h
    expect_rc 0 "keeper $c -h"
    expect_out "^usage: keeper $c" "keeper $c -h shows the usage"
    run "$KEEPER" help "$c"
    expect_rc 0 "keeper help $c"
    expect_out "^usage: keeper $c" "keeper help $c shows the usage"
    # --help wins over everything else on the line, even a missing file.
    run "$KEEPER" "$c" /nonexistent/file.xsb --help
    expect_rc 0 "keeper $c FILE --help"
done

# bench is being written; its help must at least not fail.
run "$KEEPER" bench --help
expect_rc 0 "keeper bench --help"
if [ -s "$WORK/out" ]; then
    expect_out "usage: keeper bench" "keeper bench --help shows the usage"
else
    skip "keeper bench --help prints nothing yet (bench is a placeholder)"
fi
run "$KEEPER" help bench
expect_rc 0 "keeper help bench"

run "$KEEPER" help frobnicate
expect_rc 2 "keeper help UNKNOWN"
expect_err "unknown command 'frobnicate'" "keeper help UNKNOWN names the command"

# The solve options: --level, --levels, --output, --format, --quiet,
# --verbose, and every entry of the option table.
run "$KEEPER" solve --help
for o in --level --levels --output --format --quiet --verbose sok lurd jsonl; do
    expect_out "$o" "solve --help mentions $o"
done
opts=$(sed -n 's/^ *X(\([a-z_]*\),.*/\1/p' src/util/options.h | tr _ -)
[ -n "$opts" ] || fail "no options found in src/util/options.h"
for o in $opts; do
    expect_out "^  --(\[no-\])?${o}[= ]" "solve --help lists --$o"
done

run "$KEEPER" verify --help
for o in --level --levels --format --quiet text jsonl SaveGame Snapshot CSV; do
    expect_out "$o" "verify --help mentions $o"
done
run "$KEEPER" show --help
expect_out "--level" "show --help mentions --level"

finish
