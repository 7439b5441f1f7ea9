#!/bin/sh
# test_errors.sh: exit statuses and error messages of "keeper solve": a
# malformed level in a collection (the others are still solved, exit 2), an
# unsolvable level (exit 1, "no solution"), bad usage, unreadable files,
# selections out of range, and output that cannot be written.
. tests/cli/lib.sh

DEMO=levels/demo.xsb
MIXED=tests/data/cli_mixed.xsb

# --- a collection with one malformed level
run "$KEEPER" solve "$MIXED" --search bfs --format jsonl
expect_rc 2 "collection with a malformed level"
[ "$(wc -l < "$WORK/out")" -eq 3 ] && pass || fail "malformed collection: $(wc -l < "$WORK/out") JSON lines, expected 3"
expect_out '^\{"index":1,"title":"First","status":"solved",.*"solution":"R"' "level 1 is still solved"
expect_out '^\{"index":2,"title":"Broken","status":"invalid","reason":"tests/data/cli_mixed.xsb:14: error: [^"]*player' \
    "level 2: status invalid, reason FILE:LINE: error: ..."
expect_out '^\{"index":2,.*"solution":null' "level 2 has no solution"
expect_out '^\{"index":3,"title":"Third","status":"solved",.*"solution":"rR"' "level 3 after the malformed one is still solved"
expect_err '^tests/data/cli_mixed.xsb:14: error: .*player' "the malformed level is reported as FILE:LINE: error: on stderr"
expect_err '^ +2 +Broken +invalid' "table row of the malformed level"
expect_err '^ +total +solved 2/3, invalid 1' "table total with the malformed level"
n=$(grep -c 'cli_mixed.xsb:14: error:' "$WORK/err")
[ "$n" -eq 1 ] && pass || fail "the parse error is printed $n times, expected once"

run "$KEEPER" solve "$MIXED" --search bfs --format lurd --quiet
expect_rc 2 "malformed collection, LURD"
[ "$(tr '\n' ' ' < "$WORK/out")" = "R  rR " ] && pass || fail "LURD lines keep the level order (empty line for level 2): $(tr '\n' ' ' < "$WORK/out")"
expect_err '^tests/data/cli_mixed.xsb:14: error:' "--quiet still reports the malformed level"

run "$KEEPER" solve "$MIXED" --search bfs --level 3 --format lurd
expect_rc 0 "selecting only the valid level 3"
run "$KEEPER" solve "$MIXED" --search bfs --level 2 --format lurd
expect_rc 2 "selecting only the malformed level 2"

# --- an unsolvable level
run "$KEEPER" solve tests/data/cli_unsolvable.xsb --search bfs --format jsonl
expect_rc 1 "unsolvable level"
expect_out '"status":"unsolved","reason":"no solution"' "unsolvable: status unsolved, reason no solution"
expect_out '"solution":null' "unsolvable: no solution"
expect_err '^ +1 +Jammed +unsolved .* no solution$' "unsolvable: table row says no solution"
expect_err '^ +total +solved 0/1, unsolved 1' "unsolvable: total line"
# An unsolved level next to a malformed one: bad input wins (exit 2).
cat tests/data/cli_unsolvable.xsb "$MIXED" > "$WORK/both.xsb"
run "$KEEPER" solve "$WORK/both.xsb" --search bfs --quiet --format lurd
expect_rc 2 "unsolvable and malformed levels together"
# Unsolved next to solved: exit 1.
cat "$DEMO" tests/data/cli_unsolvable.xsb > "$WORK/some.xsb"
run "$KEEPER" solve "$WORK/some.xsb" --search bfs --levels 1-2 --format lurd
expect_rc 0 "solved levels only"
run "$KEEPER" solve "$WORK/some.xsb" --search bfs --levels 8-9 --format jsonl
expect_rc 1 "one of two levels unsolvable"
expect_out '"index":8,"title":"Goal Room","status":"solved"' "the solvable level of the two is solved"
expect_out '"index":9,"title":"Jammed","status":"unsolved","reason":"no solution"' "the other: no solution"

# --- bad usage: exit 2, a message, nothing on stdout
usage_case() { # DESCRIPTION PATTERN ARGS...
    d=$1 p=$2
    shift 2
    run "$KEEPER" "$@"
    expect_rc 2 "$d"
    expect_err "$p" "$d: message"
    [ -s "$WORK/out" ] && fail "$d: wrote to stdout" || pass
}
usage_case "unknown option" "unknown option '--frobnicate'" solve "$DEMO" --frobnicate
usage_case "unknown short option" "unknown option '-x'" solve "$DEMO" -x
usage_case "unknown verify option" "unknown option '--frobnicate'" verify "$DEMO" --frobnicate
usage_case "unknown show option" "unknown option '--frobnicate'" show "$DEMO" --frobnicate
usage_case "unknown command" "unknown command 'frobnicate'" frobnicate
usage_case "solve without a file" "no input file" solve
usage_case "solve --search bfs without a file" "no input file" solve --search bfs
usage_case "verify without a file" "no input file" verify
usage_case "show without a file" "no input file" show
usage_case "two input files" "more than one input file" solve "$DEMO" "$DEMO"
usage_case "verify with three files" "too many files" verify "$DEMO" "$DEMO" "$DEMO"
usage_case "--level 0" "--level: '0'" solve "$DEMO" --level 0
usage_case "--level x" "--level: 'x'" solve "$DEMO" --level x
usage_case "--level without a value" "--level needs a value" solve "$DEMO" --level
usage_case "--levels 3-" "--levels: '3-'" solve "$DEMO" --levels 3-
usage_case "--levels 1,,2" "--levels: '1,,2'" solve "$DEMO" --levels 1,,2
usage_case "--levels 1,x" "'x' is not a level" solve "$DEMO" --levels 1,x
usage_case "--levels list beyond the end" "has 8 levels; level 9 does not exist" solve "$DEMO" --levels 1,9
usage_case "--levels 4-2" "--levels: '4-2'" solve "$DEMO" --levels 4-2
usage_case "--level out of range" "has 8 levels; level 9 does not exist" solve "$DEMO" --level 9
expect_err "see 'keeper solve --help'" "--level out of range: the hint names solve's help"
usage_case "--levels beyond the end" "has 8 levels; level 12 does not exist" solve "$DEMO" --levels 5-12
usage_case "--levels all out of range" "level 10 does not exist" solve "$DEMO" --levels 10-12
usage_case "verify --level out of range" "level 9 does not exist" verify "$DEMO" --level 9
usage_case "show --level out of range" "level 99 does not exist" show "$DEMO" --level 99
usage_case "--format bogus" "--format: 'bogus'" solve "$DEMO" --format bogus
usage_case "--format without a value" "--format needs a value" solve "$DEMO" --format
usage_case "verify --format sok" "--format: 'sok'" verify "$DEMO" --format sok
usage_case "--output without a value" "--output needs a file name" solve "$DEMO" --output
usage_case "-o without a value" "-o needs a file name" solve "$DEMO" -o
usage_case "--time -1" "--time: -1 is out of range" solve "$DEMO" --time -1
usage_case "--time abc" "--time: 'abc' is not a number" solve "$DEMO" --time abc
usage_case "--time without a value" "--time needs a value" solve "$DEMO" --time
usage_case "--memory 1" "--memory: 1 is out of range \\(16 to 1048576\\)" solve "$DEMO" --memory 1
usage_case "--memory 1.5" "--memory: '1.5' is not a whole number" solve "$DEMO" --memory 1.5
usage_case "--threads 0" "--threads: 0 is out of range" solve "$DEMO" --threads 0
usage_case "--threads 65" "--threads: 65 is out of range" solve "$DEMO" --threads 65
# a name with dashes is named as it is spelt, not as the table holds it
usage_case "--rev-tracks 9" "option --rev-tracks: 9 is out of range .1 to 7." solve "$DEMO" --rev-tracks 9
usage_case "--max-nodes x" "option --max-nodes: 'x' is not a number" solve "$DEMO" --max-nodes x
usage_case "--lend-after without a value" "option --lend-after needs a value" solve "$DEMO" --lend-after
usage_case "--search dfs" "--search: 'dfs' is not astar or bfs" solve "$DEMO" --search dfs
usage_case "--strategy foo" "--strategy: 'foo' is not astar, fess, portfolio, backward, opening or rev" solve "$DEMO" --strategy foo
usage_case "--strategy 6" "--strategy: 6 is out of range \\(0 to 5\\)" solve "$DEMO" --strategy 6
usage_case "--optimal maybe" "--optimal: 'maybe' is not pushes or moves \\(nor a file\\)" solve "$DEMO" --optimal maybe
usage_case "--optimal moves --search bfs" "--optimal moves does not go with --search bfs" solve "$DEMO" --optimal moves --search bfs
usage_case "--output onto the input file" "would overwrite the input" solve "$WORK/some.xsb" --output "$WORK/some.xsb"
# The input survived the refused --output.
grep -q Jammed "$WORK/some.xsb" && pass || fail "the refused --output truncated the input file"

# --- unreadable input
usage_case "missing file" "^$WORK/missing.xsb: error: cannot open" solve "$WORK/missing.xsb"
usage_case "verify missing file" "^$WORK/missing.xsb: error:" verify "$WORK/missing.xsb"
usage_case "show missing file" "^$WORK/missing.xsb: error:" show "$WORK/missing.xsb"
usage_case "a directory" "^$WORK: error:" solve "$WORK"
: > "$WORK/empty.xsb"
usage_case "an empty file" "^$WORK/empty.xsb:1: error: no level" solve "$WORK/empty.xsb"
printf 'just some text\nand no board\n' > "$WORK/text.xsb"
usage_case "a file without levels" "^$WORK/text.xsb:[0-9]+: error: no level" solve "$WORK/text.xsb"
head -c 4096 /dev/urandom > "$WORK/random.bin" 2> /dev/null
run "$KEEPER" solve "$WORK/random.bin" --search bfs --time 2 --quiet
expect_rc 2 "random bytes"
expect_err ': error: ' "random bytes: an error message"
if [ "$(id -u)" -ne 0 ]; then
    cp "$DEMO" "$WORK/noperm.xsb"
    chmod 000 "$WORK/noperm.xsb"
    usage_case "a file without read permission" "noperm.xsb: error: cannot open" solve "$WORK/noperm.xsb"
else
    skip "running as root: a file without read permission is still readable"
fi

# --- output that cannot be written: exit 2
run "$KEEPER" solve "$DEMO" --search bfs --level 1 --output "$WORK/no/such/dir.sok"
expect_rc 2 "--output into a missing directory"
expect_err "no/such/dir.sok: error: cannot write" "--output into a missing directory: message"
if [ -w /dev/full ]; then
    run "$KEEPER" solve "$DEMO" --search bfs --level 1 --output /dev/full --quiet
    expect_rc 2 "--output /dev/full"
    expect_err "/dev/full: error: write failed" "--output /dev/full: message"
    run sh -c "\"$KEEPER\" solve $DEMO --search bfs --level 1 --quiet > /dev/full"
    expect_rc 2 "standard output on /dev/full"
    expect_err "standard output.*error: write failed" "standard output on /dev/full: message"
else
    skip "/dev/full not available: write errors"
fi

finish
