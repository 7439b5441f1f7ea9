#!/bin/sh
# run.sh BUILD_DIR [SHARED_DIR]: runs the unit tests and the end-to-end CLI
# tests against BUILD_DIR/keeper, then prints the totals as the last line:
# "N passed, N failed". Tests that need SHARED_DIR (../shared: levels and
# known solutions) skip visibly when it is missing. KEEPER_UNIT_FILTER runs
# only the unit tests whose name contains it; KEEPER_CLI_TESTS names the CLI
# test scripts to run (default: all of tests/cli/test_*.sh).
build=${1:?usage: tests/run.sh BUILD_DIR [SHARED_DIR]}
shared=${2:-../shared}
KEEPER="$build/keeper"
KEEPER_SHARED="$shared"
export KEEPER KEEPER_SHARED
[ -d "$shared/levels" ] || echo "SKIP: $shared/levels not found; tests that need the shared levels are skipped"

passed=0 failed=0 skipped=0
tmp=$(mktemp)
add_counts() { # reads "...: P passed, F failed, S skipped" from the file's last line
    line=$(tail -n 1 "$1")
    p=$(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
    f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
    if [ -z "$p" ] || [ -z "$f" ]; then
        echo "FAIL $2: did not report its counts"; failed=$((failed + 1)); return
    fi
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
}

echo "== unit tests ($build/unit_tests${KEEPER_UNIT_FILTER:+ $KEEPER_UNIT_FILTER})"
"$build/unit_tests" ${KEEPER_UNIT_FILTER:+"$KEEPER_UNIT_FILTER"} > "$tmp"
cat "$tmp"
add_counts "$tmp" unit_tests

for t in ${KEEPER_CLI_TESTS:-tests/cli/test_*.sh}; do
    [ -f "$t" ] || continue
    echo "== $t"
    sh "$t" > "$tmp" 2>&1
    cat "$tmp"
    add_counts "$tmp" "$t"
done
rm -f "$tmp"
[ "$skipped" -gt 0 ] && echo "($skipped skipped, listed above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
