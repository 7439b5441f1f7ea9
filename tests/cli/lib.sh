# lib.sh: helpers for the end-to-end CLI tests (sourced, not run).
# Each test script calls check/skip and ends with `finish`, which prints
# "NAME: P passed, F failed, S skipped".
: "${KEEPER:?KEEPER must name the keeper binary}"
SHARED=${KEEPER_SHARED:-../shared}
LEVELS="$SHARED/levels"
T_PASS=0 T_FAIL=0 T_SKIP=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

pass() { T_PASS=$((T_PASS + 1)); }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL: $*"; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP: $*"; }

# run CMD...: runs a command, capturing stdout in $WORK/out, stderr in
# $WORK/err and the exit status in $RC.
run() {
    "$@" > "$WORK/out" 2> "$WORK/err"
    RC=$?
}

# expect_rc N DESCRIPTION
expect_rc() {
    if [ "$RC" -eq "$1" ]; then pass; else fail "$2: exit $RC, expected $1 (stderr: $(head -c 300 "$WORK/err"))"; fi
}
# expect_err PATTERN DESCRIPTION  (grep -E on stderr)
expect_err() {
    if grep -Eq -- "$1" "$WORK/err"; then pass; else fail "$2: stderr lacks /$1/: $(head -c 300 "$WORK/err")"; fi
}
# expect_out PATTERN DESCRIPTION  (grep -E on stdout)
expect_out() {
    if grep -Eq -- "$1" "$WORK/out"; then pass; else fail "$2: stdout lacks /$1/: $(head -c 300 "$WORK/out")"; fi
}
# expect_no_out PATTERN DESCRIPTION  (stdout must not match)
expect_no_out() {
    if grep -Eq -- "$1" "$WORK/out"; then fail "$2: stdout matches /$1/"; else pass; fi
}
# expect_no_crash DESCRIPTION: exit status is one of keeper's (0, 1, 2)
expect_no_crash() {
    if [ "$RC" -le 2 ]; then pass; else fail "$1: exit $RC (crash or signal)"; fi
}
have_shared() { [ -d "$LEVELS" ]; }

finish() {
    echo "$(basename "$0" .sh): $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
}
