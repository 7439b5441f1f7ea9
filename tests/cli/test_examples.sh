#!/bin/sh
# test_examples.sh: the examples of README.md and docs/library.md work as
# written.
#
# README.md: every line of its ```sh blocks that starts with "keeper " (lines
# ending in a backslash joined) runs, with keeper replaced by $KEEPER, in one
# scratch directory that holds a copy of levels/, in order, so that an example
# reads the files the ones before it wrote. Each must exit with 0, or with the
# status a trailing "# exit status N" names, and print no "error". A --time
# above 10 s is cut to 10 (the examples use the demo levels, solved in well
# under a second each). Lines of other programs (make, apt-get) are listed as
# skipped.
#
# docs/library.md: its example program (the ```c block with main) is
# compiled with the in-tree command the page gives, run on levels/demo.xsb
# (every level solved, the solutions it prints replay), on a missing file
# and with a bad time limit (an error message, a non-zero exit).
. tests/cli/lib.sh

MAX_TIME=10
TOP=$(pwd)
case "$KEEPER" in
/*) keeper_bin=$KEEPER ;;
*) keeper_bin="$TOP/$KEEPER" ;;
esac
# a command that hangs fails instead of stopping the test run
limit=""
command -v timeout > /dev/null 2>&1 && limit="timeout 120"

# blocks FILE LANG: the lines of FILE's ```LANG blocks; a line ending in a
# backslash is joined with the next one.
blocks() {
    awk -v lang="$2" '
        !on && $0 == "```" lang { on = 1; next }
        on && /^```/ { on = 0; next }
        !on { next }
        { line = held $0; held = "" }
        line ~ /\\$/ { held = substr(line, 1, length(line) - 1); next }
        { print line }' "$1"
}

# --- README.md
ex="$WORK/ex"
mkdir -p "$ex"
cp -R levels "$ex/levels"
blocks README.md sh > "$WORK/readme.sh"
n=0
while IFS= read -r line; do
    line=$(printf '%s' "$line" | sed 's/^[[:space:]]*//')
    case "$line" in
    '' | '#'*) continue ;;
    'keeper '*) ;;
    *)
        skip "README.md: not run here (not a keeper command): $line"
        continue
        ;;
    esac
    n=$((n + 1))
    want=$(printf '%s' "$line" | sed -n 's/.*# *exit status \([0-9]\).*/\1/p')
    [ -n "$want" ] || want=0
    # --time N with N above MAX_TIME becomes --time MAX_TIME
    cmd=$(printf '%s' "$line" | awk -v max=$MAX_TIME '{
        for (i = 1; i < NF; i++)
            if ($i == "--time" && $(i + 1) + 0 > max) $(i + 1) = max
        print }')
    cmd="\"\$keeper_bin\" ${cmd#keeper }"
    (cd "$ex" && eval "$limit $cmd") < /dev/null > "$WORK/out" 2> "$WORK/err"
    RC=$?
    expect_rc "$want" "README.md: $line"
    if grep -qi 'error' "$WORK/out" "$WORK/err"; then
        fail "README.md: $line: prints an error: $(grep -hi error "$WORK/out" "$WORK/err" | head -n 3)"
    else
        pass
    fi
done < "$WORK/readme.sh"
[ "$n" -ge 10 ] && pass || fail "README.md: only $n keeper commands found in its sh blocks"
# the synopsis is not in an sh block: no placeholder reached the commands
grep -Eq '^keeper .*(FILE|SOLUTIONS|\.\.\.)' "$WORK/readme.sh" &&
    fail "README.md: an sh block holds a placeholder (FILE, SOLUTIONS, ...)" || pass

# --- docs/library.md
DOC=docs/library.md
# the example is the one ```c block that holds main()
awk '$0 == "```c" { on = 1; buf = ""; next }
     on && /^```/ { on = 0; if (buf ~ /int main\(/) { printf "%s", buf; found++ } next }
     on { buf = buf $0 "\n" }
     END { exit found == 1 ? 0 : 1 }' $DOC > "$WORK/prog.c"
[ $? -eq 0 ] && [ -s "$WORK/prog.c" ] && pass || fail "$DOC: not exactly one \`\`\`c block with main()"
build=$(grep -m 1 '^cc -Iinclude ' $DOC)
[ -n "$build" ] && pass || fail "$DOC: no in-tree build command (cc -Iinclude ...)"
lib=$(printf '%s' "$build" | sed -n 's/.* \([^ ]*libkeeper\.a\).*/\1/p')
if ! command -v cc > /dev/null 2>&1; then
    skip "no C compiler (cc): the example of $DOC is not compiled"
elif [ -z "$lib" ] || [ ! -f "$lib" ]; then
    skip "${lib:-libkeeper.a} not built: the example of $DOC is not compiled"
else
    # the page's command, with the program's path and an output name
    # (with warnings on: the example compiles without one)
    cc_cmd="$(printf '%s' "$build" | sed "s| prog\.c | \"\$WORK/prog.c\" |") -Wall -Wextra -o \"\$WORK/prog\""
    if eval "$cc_cmd" > "$WORK/cc.log" 2>&1; then
        pass
    else
        fail "$DOC: '$build' fails: $(head -c 400 "$WORK/cc.log")"
    fi
    [ -s "$WORK/cc.log" ] && fail "$DOC: the example compiles with warnings: $(head -c 400 "$WORK/cc.log")" || pass
    if [ -x "$WORK/prog" ]; then
        levels=$("$KEEPER" solve levels/demo.xsb --format lurd --quiet | wc -l)
        run "$WORK/prog" levels/demo.xsb
        expect_rc 0 "$DOC: the example on levels/demo.xsb"
        expect_out "^$levels of $levels levels solved$" "$DOC: the example solves every level"
        solved=$(grep -c '^[0-9]* ".*": solved' "$WORK/out")
        [ "$solved" -eq "$levels" ] && pass || fail "$DOC: the example prints $solved solved levels of $levels"
        # the solutions it prints replay
        sed -n 's/^[0-9]* ".*": solved .*: \([LURDlurd]*\)$/\1/p' "$WORK/out" > "$WORK/prog.lurd"
        run "$KEEPER" verify levels/demo.xsb "$WORK/prog.lurd" --quiet
        expect_rc 0 "$DOC: the example's solutions verify"
        run "$WORK/prog" "$WORK/missing.xsb"
        [ "$RC" -ne 0 ] && pass || fail "$DOC: the example on a missing file exits 0"
        expect_err "missing\.xsb: error: cannot open" "$DOC: the example on a missing file says why"
        run "$WORK/prog" levels/demo.xsb soon
        expect_rc 2 "$DOC: the example with a bad time limit"
        expect_err "'soon' is not a time limit" "$DOC: the example with a bad time limit says why"
        [ -s "$WORK/out" ] && fail "$DOC: the example solves with a bad time limit" || pass
    fi
fi

finish
