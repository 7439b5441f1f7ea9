#!/bin/sh
# test_solve.sh: "keeper solve" on the bundled demo collection: exit status,
# the result table, the JSON lines fields and their types, LURD and SOK
# output read back by "keeper verify", --output, --level/--levels, standard
# input, and the "keeper FILE" shorthand. The breadth-first search
# (--search bfs) is used where a result must be guaranteed.
. tests/cli/lib.sh

DEMO=levels/demo.xsb
TITLES="Warm-up|Two Rooms|Pillars|Storeroom|Zigzag|Crossing|Cellar|Goal Room"

# jfield FILE LINE NAME: the raw JSON value of field NAME on line LINE.
jfield() {
    sed -n "$2p" "$1" | sed -n "s/.*\"$3\":\(\"\([^\"\\\\]\|\\\\.\)*\"\|[^,}]*\).*/\1/p"
}
# check_jsonl_line FILE LINE: every field of a solve result has its type.
check_jsonl_line() {
    l=$(sed -n "$2p" "$1")
    for spec in 'index:[1-9][0-9]*' 'title:"([^"\\]|\\.)*"' 'status:"(solved|unsolved|invalid)"' \
        'reason:"([^"\\]|\\.)*"' 'seconds:[0-9]+(\.[0-9]+)?' 'nodes:[0-9]+' \
        'moves:([0-9]+|null)' 'pushes:([0-9]+|null)' 'solution:("[lurdLURD]*"|null)'; do
        name=${spec%%:*} re=${spec#*:}
        if printf '%s\n' "$l" | grep -Eq "[{,]\"$name\":${re}[,}]"; then pass; else
            fail "$1 line $2: field $name missing or not /$re/: $l"
        fi
    done
    case $l in '{'*'}') pass ;; *) fail "$1 line $2 is not one JSON object: $l" ;; esac
}

# --- JSON lines on the whole demo collection
run "$KEEPER" solve "$DEMO" --search bfs --time 60 --format jsonl
expect_rc 0 "solve demo: all solved"
cp "$WORK/out" "$WORK/demo.jsonl"
cp "$WORK/err" "$WORK/demo.table"
n=$(wc -l < "$WORK/demo.jsonl")
[ "$n" -eq 8 ] && pass || fail "solve demo --format jsonl: $n lines, expected 8"
i=1
while [ $i -le 8 ]; do
    check_jsonl_line "$WORK/demo.jsonl" $i
    [ "$(jfield "$WORK/demo.jsonl" $i index)" = "$i" ] && pass || fail "jsonl line $i: index $(jfield "$WORK/demo.jsonl" $i index)"
    [ "$(jfield "$WORK/demo.jsonl" $i status)" = '"solved"' ] && pass || fail "jsonl line $i: not solved"
    [ "$(jfield "$WORK/demo.jsonl" $i reason)" = '""' ] && pass || fail "jsonl line $i: reason of a solved level is not empty"
    # moves = length of the solution, pushes = its upper-case letters
    sol=$(jfield "$WORK/demo.jsonl" $i solution | tr -d '"')
    moves=$(jfield "$WORK/demo.jsonl" $i moves)
    pushes=$(jfield "$WORK/demo.jsonl" $i pushes)
    [ "${#sol}" = "$moves" ] && pass || fail "jsonl line $i: moves $moves, solution has ${#sol} steps"
    up=$(printf '%s' "$sol" | tr -cd 'LURD' | wc -c)
    [ "$up" -eq "$pushes" ] && pass || fail "jsonl line $i: pushes $pushes, solution has $up pushes"
    i=$((i + 1))
done
title1=$(jfield "$WORK/demo.jsonl" 1 title)
title8=$(jfield "$WORK/demo.jsonl" 8 title)
[ "$title1" = '"Warm-up"' ] && [ "$title8" = '"Goal Room"' ] && pass || fail "jsonl titles: $title1 .. $title8"
# A strict parse, when a JSON parser is at hand.
if command -v python3 > /dev/null 2>&1; then
    if python3 - "$WORK/demo.jsonl" << 'EOF'
import json, sys
want = {"index": int, "title": str, "status": str, "reason": str, "seconds": (int, float),
        "nodes": int, "moves": int, "pushes": int, "solution": str}
for n, line in enumerate(open(sys.argv[1]), 1):
    o = json.loads(line)
    for k, t in want.items():
        if not isinstance(o.get(k), t) or isinstance(o.get(k), bool):
            sys.exit("line %d: %s is %r" % (n, k, o.get(k)))
EOF
    then pass; else fail "python3 json check of the jsonl output"; fi
else
    skip "python3 not installed: strict JSON parse of the jsonl output"
fi

# The result table on stderr: a header, one row per level, the total.
mv "$WORK/demo.table" "$WORK/err"
expect_err "^ *level +title +result +time +nodes +moves +pushes" "solve table header"
expect_err "^ +1 +Warm-up +solved +[0-9.]+s +[0-9]+ +14 +5" "solve table row of level 1"
expect_err "^ +8 +Goal Room +solved " "solve table row of level 8"
rows=$(grep -Ec "^ +[0-9]+ +($TITLES) +solved" "$WORK/err")
[ "$rows" -eq 8 ] && pass || fail "solve table: $rows solved rows, expected 8"
expect_err "^ +total +solved 8/8, [0-9.]+ s" "solve table total line"

# --- LURD: one line per level, checked again by keeper verify
run "$KEEPER" solve "$DEMO" --search bfs --time 60 --format lurd
expect_rc 0 "solve demo --format lurd"
cp "$WORK/out" "$WORK/demo.lurd"
n=$(grep -Ec '^[lurdLURD]+$' "$WORK/demo.lurd")
[ "$n" -eq 8 ] && pass || fail "solve --format lurd: $n LURD lines, expected 8"
sed -n 's/.*"solution":"\([^"]*\)".*/\1/p' "$WORK/demo.jsonl" > "$WORK/from-json.lurd"
cmp -s "$WORK/from-json.lurd" "$WORK/demo.lurd" && pass || fail "lurd and jsonl solutions differ"
run "$KEEPER" verify "$DEMO" "$WORK/demo.lurd"
expect_rc 0 "verify the LURD output"
n=$(grep -c ': valid: ' "$WORK/out")
[ "$n" -eq 8 ] && pass || fail "verify LURD output: $n valid, expected 8"
expect_err "8 solutions: 8 valid, 0 invalid" "verify LURD output summary"

# The metrics verify reports equal those solve reported.
run "$KEEPER" verify "$DEMO" "$WORK/demo.lurd" --format jsonl
i=1
while [ $i -le 8 ]; do
    for f in moves pushes box_lines box_changes pushing_sessions player_lines; do
        a=$(jfield "$WORK/demo.jsonl" $i $f)
        b=$(jfield "$WORK/out" $i $f)
        [ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "level $i: $f is $a in solve, $b in verify"
    done
    i=$((i + 1))
done

# --- SOK: the levels with a Solution section, read back by verify
run "$KEEPER" solve "$DEMO" --search bfs --time 60 --format sok --output "$WORK/demo.sok"
expect_rc 0 "solve --format sok --output"
[ -s "$WORK/out" ] && fail "solve --output FILE also wrote to stdout" || pass
n=$(grep -c '^Solution ' "$WORK/demo.sok")
[ "$n" -eq 8 ] && pass || fail "SOK output: $n Solution sections, expected 8"
grep -q '^Solution 14/5$' "$WORK/demo.sok" && pass || fail "SOK output: no 'Solution 14/5' for Warm-up"
grep -q '^; keeper demo collection' "$WORK/demo.sok" && pass || fail "SOK output lost the file notes"
run "$KEEPER" verify "$WORK/demo.sok"
expect_rc 0 "verify the SOK output on its own"
expect_err "8 solutions: 8 valid, 0 invalid, 0 saved games; 0 levels without" "verify SOK output summary"
run "$KEEPER" verify "$DEMO" "$WORK/demo.sok"
expect_rc 0 "verify demo.xsb against the SOK output"
expect_err "8 valid, 0 invalid" "verify demo.xsb against the SOK output: summary"
# The SOK output is itself a level file keeper reads.
run "$KEEPER" show "$WORK/demo.sok"
expect_rc 0 "show the SOK output"
n=$(grep -c '^level [0-9]' "$WORK/out")
[ "$n" -eq 8 ] && pass || fail "show SOK output: $n levels, expected 8"
# SOK is also the default format.
run "$KEEPER" solve "$DEMO" --search bfs --level 1 --quiet
expect_out '^Solution 14/5$' "default output format is SOK"

# --- --output: the format follows the extension unless --format is given
run "$KEEPER" solve "$DEMO" --search bfs --levels 1-3 --quiet --output "$WORK/x.jsonl"
expect_rc 0 "--output x.jsonl"
n=$(grep -c '^{"index":' "$WORK/x.jsonl")
[ "$n" -eq 3 ] && pass || fail "--output x.jsonl: $n JSON lines, expected 3"
run "$KEEPER" solve "$DEMO" --search bfs --levels 1-3 --quiet --output="$WORK/x.lurd"
expect_rc 0 "--output=x.lurd"
n=$(grep -Ec '^[lurdLURD]+$' "$WORK/x.lurd")
[ "$n" -eq 3 ] && pass || fail "--output=x.lurd: $n LURD lines, expected 3"
run "$KEEPER" solve "$DEMO" --search bfs --level 1 --quiet -o "$WORK/x.jsonl" --format lurd
expect_rc 0 "-o x.jsonl --format lurd"
[ "$(cat "$WORK/x.jsonl")" = "llDurrdLdLUruL" ] && pass || fail "--format lurd beats the .jsonl extension: $(cat "$WORK/x.jsonl")"
run "$KEEPER" solve "$DEMO" --search bfs --level 1 --quiet --format lurd --output -
[ "$(cat "$WORK/out")" = "llDurrdLdLUruL" ] && pass || fail "--output - writes to standard output"
[ -e ./- ] && fail "--output - created a file named '-'" || pass
run "$KEEPER" solve "$DEMO" --search bfs --level 1 --quiet -o "$WORK/x.txt"
grep -q '^Solution 14/5$' "$WORK/x.txt" && pass || fail "-o x.txt writes SOK"

# --- --level / --levels select levels; results keep their index
run "$KEEPER" solve "$DEMO" --search bfs --levels 2-4 --format jsonl
expect_rc 0 "--levels 2-4"
idx=$(sed -n 's/^{"index":\([0-9]*\),.*/\1/p' "$WORK/out" | tr '\n' ' ')
[ "$idx" = "2 3 4 " ] && pass || fail "--levels 2-4 gives indices '$idx'"
expect_err "^ +total +solved 3/3" "--levels 2-4 total line"
# a list of levels and ranges, in file order whatever the list's order
run "$KEEPER" solve "$DEMO" --search bfs --levels 7,1-2,5 --format jsonl
expect_rc 0 "--levels 7,1-2,5"
idx=$(sed -n 's/^{"index":\([0-9]*\),.*/\1/p' "$WORK/out" | tr '\n' ' ')
[ "$idx" = "1 2 5 7 " ] && pass || fail "--levels 7,1-2,5 gives indices '$idx'"
expect_err "^ +total +solved 4/4" "--levels 7,1-2,5 total line"
# its LURD lines stand for the same selection in verify
run "$KEEPER" solve "$DEMO" --search bfs --levels 2,4,6 --format lurd --quiet
cp "$WORK/out" "$WORK/list.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/list.lurd" --levels 2,4,6
expect_rc 0 "verify --levels 2,4,6 the LURD of solve --levels 2,4,6"
expect_out '^[^ ]*list.lurd:2: level 4 "Storeroom", section 1: valid' "LURD line 2 of a list is level 4"
expect_out '^[^ ]*list.lurd:3: level 6 "Crossing", section 1: valid' "LURD line 3 of a list is level 6"
run "$KEEPER" solve "$DEMO" --search bfs --level=6 --format=lurd
expect_rc 0 "--level=6 --format=lurd"
[ "$(wc -l < "$WORK/out")" -eq 1 ] && pass || fail "--level=6 printed $(wc -l < "$WORK/out") lines"
run "$KEEPER" solve "$DEMO" --search bfs --levels=6-6 --format lurd
expect_rc 0 "--levels=6-6"
# A LURD file of a selection is verified against the same selection.
run "$KEEPER" solve "$DEMO" --search bfs --levels 5-7 --format lurd --quiet
cp "$WORK/out" "$WORK/sel.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/sel.lurd" --levels 5-7
expect_rc 0 "verify --levels 5-7 the LURD of solve --levels 5-7"
expect_out '^[^ ]*sel.lurd:1: level 5 "Zigzag", section 1: valid' "LURD line 1 of a selection is level 5"

# --- --quiet and --verbose
run "$KEEPER" solve "$DEMO" --search bfs --levels 1-2 --quiet --format lurd
expect_rc 0 "--quiet"
[ -s "$WORK/err" ] && fail "--quiet still wrote to stderr: $(head -c 200 "$WORK/err")" || pass
run "$KEEPER" solve "$DEMO" --search bfs --level 1 -q --format lurd
[ -s "$WORK/err" ] && fail "-q still wrote to stderr" || pass
run "$KEEPER" solve "$DEMO" --search bfs --level 3 --verbose --format lurd
expect_rc 0 "--verbose"
expect_err "^ +3 +Pillars +solved" "--verbose keeps the table"
lines=$(wc -l < "$WORK/err")
[ "$lines" -gt 4 ] && pass || fail "--verbose prints no statistics ($lines lines on stderr)"

# --- standard input, and the keeper FILE shorthand
run sh -c "\"$KEEPER\" solve - --search bfs --level 2 --format lurd < $DEMO"
expect_rc 0 "solve - (standard input)"
[ "$(cat "$WORK/out")" = "$(sed -n 2p "$WORK/demo.lurd")" ] && pass || fail "solve - gives $(cat "$WORK/out")"
run "$KEEPER" "$DEMO" --search bfs --level 2 --format lurd
expect_rc 0 "keeper FILE shorthand"
[ "$(cat "$WORK/out")" = "$(sed -n 2p "$WORK/demo.lurd")" ] && pass || fail "keeper FILE gives $(cat "$WORK/out")"
expect_err "^ +2 +Two Rooms +solved" "keeper FILE shorthand prints the table"
run "$KEEPER" "$WORK/missing.xsb"
expect_rc 2 "keeper MISSING-FILE shorthand"
expect_err "missing.xsb: error: " "keeper MISSING-FILE reports the file, not an unknown command"

# --- a long UTF-8 title is cut to 20 characters in the table, never
# inside a character; JSON keeps it whole.
printf '; \303\211t\303\251 \303\240 la plage, tr\303\250s tr\303\250s long\n\n#####\n#@$.#\n#####\n' > "$WORK/utf8.xsb"
run "$KEEPER" solve "$WORK/utf8.xsb" --search bfs --format jsonl
expect_rc 0 "a level with a UTF-8 title"
expect_err "^ +1  $(printf '\303\211t\303\251 \303\240 la plage, tr\303\250s')  solved" "the table cuts the title after 20 characters"
expect_out "\"title\":\"$(printf '\303\211t\303\251 \303\240 la plage, tr\303\250s tr\303\250s long')\"" "jsonl keeps the whole title"
if command -v iconv > /dev/null 2>&1; then
    iconv -f UTF-8 -t UTF-8 "$WORK/err" > /dev/null 2>&1 && pass || fail "the table is not valid UTF-8"
fi

# --- a shared collection: Microban 1-20, SOK round trip, and the push
# counts of breadth-first search (push-optimal) against the best known.
if have_shared && [ -f "$LEVELS/solutions/microban155.best_known.csv" ]; then
    run "$KEEPER" solve "$LEVELS/microban155.xsb" --levels 1-20 --search bfs --time 10 --format jsonl
    expect_rc 0 "solve Microban 1-20"
    cp "$WORK/out" "$WORK/mb.jsonl"
    sed -n 's/^{"index":\([0-9]*\),.*"pushes":\([0-9]*\),.*/\1 \2/p' "$WORK/mb.jsonl" > "$WORK/mb.pushes"
    [ "$(wc -l < "$WORK/mb.pushes")" -eq 20 ] && pass || fail "Microban 1-20: $(wc -l < "$WORK/mb.pushes") solved"
    worse=$(awk -F, 'NR == FNR { best[$1] = $6; next } $2 > best[$1] { print "level " $1 ": " $2 " > " best[$1] }' \
        "$LEVELS/solutions/microban155.best_known.csv" FS=" " "$WORK/mb.pushes" | head -3)
    [ -z "$worse" ] && pass || fail "Microban: breadth-first search needs more pushes than the best known: $worse"
    run "$KEEPER" solve "$LEVELS/microban155.xsb" --levels 1-20 --search bfs --time 10 --quiet --output "$WORK/mb.sok"
    run "$KEEPER" verify "$WORK/mb.sok" --quiet
    expect_rc 0 "verify the SOK output of Microban 1-20"
    expect_err "20 solutions: 20 valid" "verify Microban SOK output: 20 valid"
    run "$KEEPER" verify "$LEVELS/microban155.xsb" "$WORK/mb.sok" --levels 1-20 --quiet
    expect_rc 0 "verify Microban 1-20 against the SOK output"
else
    skip "$LEVELS not found: Microban 1-20 round trip"
fi

# --- lower_bound: push-optimal mode reports the proven lower bound, equal
# to the pushes when solved, at most the best known when stopped early;
# fast mode reports none.
run "$KEEPER" solve "$DEMO" --optimal pushes --format jsonl
n=$(grep -c '"lower_bound"' "$WORK/out")
[ "$n" -eq "$(grep -c '"status":"solved"' "$WORK/out")" ] && [ "$n" -gt 0 ] && pass ||
    fail "optimal mode: $n lower bounds for $(grep -c '"status":"solved"' "$WORK/out") solved levels"
bad=$(sed -n 's/.*"lower_bound":\([0-9]*\),.*"pushes":\([0-9]*\),.*/\1 \2/p' "$WORK/out" | awk '$1 != $2')
[ -z "$bad" ] && pass || fail "optimal mode: lower bound differs from the proven pushes: $bad"
run "$KEEPER" solve "$DEMO" --format jsonl
expect_no_out '"lower_bound"' "fast mode reports no lower bound"
# --optimal moves: every demo level proven, the bound is the moves, never
# more moves than push-optimal mode's solution; the SOK output says so.
run "$KEEPER" solve "$DEMO" --optimal moves --format jsonl
cp "$WORK/out" "$WORK/moves.jsonl"
n=$(grep -c '"optimal":true' "$WORK/moves.jsonl")
[ "$n" -eq "$(grep -c '"index"' "$WORK/moves.jsonl")" ] && [ "$n" -gt 0 ] && pass ||
    fail "--optimal moves: $n of $(grep -c '"index"' "$WORK/moves.jsonl") demo levels proven"
bad=$(sed -n 's/.*"lower_bound":\([0-9]*\),.*"moves":\([0-9]*\),.*/\1 \2/p' "$WORK/moves.jsonl" | awk '$1 != $2')
[ -z "$bad" ] && pass || fail "--optimal moves: lower bound differs from the proven moves: $bad"
run "$KEEPER" solve "$DEMO" --optimal pushes --format jsonl
worse=$(paste -d' ' "$WORK/moves.jsonl" "$WORK/out" |
    sed -n 's/.*"moves":\([0-9]*\),"pushes":\([0-9]*\),.*"moves":\([0-9]*\),"pushes":\([0-9]*\),.*/\1 \2 \3 \4/p' |
    awk '$1 > $3 || $2 < $4')
[ -z "$worse" ] && pass || fail "--optimal moves against --optimal pushes (moves pushes moves pushes): $worse"
run "$KEEPER" solve "$DEMO" --level 3 --optimal moves
expect_out 'Solver: keeper .* \(move-optimal\)' "--optimal moves: the SOK output says move-optimal"
expect_err 'A\* over moves, move-optimal' "--optimal moves: the table's header"
if have_shared && [ -f "$LEVELS/solutions/xsokoban90.best_known.csv" ]; then
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 4 --optimal pushes --time 1 --format jsonl
    lb=$(sed -n 's/.*"lower_bound":\([0-9]*\).*/\1/p' "$WORK/out")
    best=$(awk -F, '$1 == 4 { print $6 }' "$LEVELS/solutions/xsokoban90.best_known.csv")
    [ -n "$lb" ] && [ -n "$best" ] && [ "$lb" -gt 0 ] && [ "$lb" -le "$best" ] && pass ||
        fail "XSokoban 4, optimal, 1 s: lower bound '$lb', best known '$best'"
    expect_err 'time limit, at least [0-9]+ pushes' "the table gives the lower bound of an unsolved level"
    # -v's counter is the same bound (the seed's weighted f once showed 1065)
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 4 --optimal pushes --time 1 --format jsonl -v
    lb=$(sed -n 's/.*"lower_bound":\([0-9]*\).*/\1/p' "$WORK/out")
    vb=$(sed -n 's/^ *best_lower_bound *\([0-9]*\) .*/\1/p' "$WORK/err" | tail -1)
    [ -n "$lb" ] && [ "$vb" = "$lb" ] && pass ||
        fail "XSokoban 4, optimal, 1 s, -v: best_lower_bound '$vb', the result's lower bound '$lb'"
else
    skip "$LEVELS/solutions/xsokoban90.best_known.csv not found: the lower bound of XSokoban 4"
fi

# --- every strategy solves every demo level, and the solutions verify;
# jsonl names the strategy that found each solution (the opening search's
# backward half reaches the start by itself on most of them)
# (60 s a level: the debug build checks every push and may share the
# machine; each level takes a few seconds at most in a release build)
for st in astar fess portfolio backward opening rev; do
    run "$KEEPER" solve "$DEMO" --strategy $st --time 60 --format sok --output "$WORK/$st.sok"
    expect_rc 0 "--strategy $st solves the demo levels"
    run "$KEEPER" verify "$WORK/$st.sok"
    expect_rc 0 "--strategy $st: the demo solutions verify"
    run "$KEEPER" solve "$DEMO" --strategy $st --time 60 --format jsonl
    n=$(grep -c '"status":"solved"' "$WORK/out")
    [ "$n" -eq 8 ] && pass || fail "--strategy $st: $n demo levels solved in jsonl"
    case $st in
        portfolio) expect_out '"strategy":"(fess|astar)"' "--strategy portfolio: jsonl names the strategy" ;;
        rev) n=$(grep -cE '"strategy":"rev(-meet)?"' "$WORK/out")
           [ "$n" -eq 8 ] && pass || fail "--strategy rev: jsonl names it on $n levels" ;;
        *) n=$(grep -c "\"strategy\":\"$st\"" "$WORK/out")
           [ "$n" -eq 8 ] && pass || fail "--strategy $st: jsonl names it on $n levels" ;;
    esac
done
run "$KEEPER" solve "$DEMO" --level 1 --format jsonl --search bfs
expect_out '"strategy":"bfs"' "--search bfs: jsonl says bfs"
run "$KEEPER" solve "$DEMO" --level 1 --format jsonl --strategy fess --optimal pushes
expect_out '"strategy":"astar( \((seed|no corrals)\))?"' "--optimal pushes uses A* whatever the strategy"
# --optimal-plain (A* without corrals first, a share of the time): the same
# proven push counts as without it, on every demo level
run "$KEEPER" solve "$DEMO" --optimal pushes --optimal-plain 0 --format jsonl
cp "$WORK/out" "$WORK/noplain.jsonl"
run "$KEEPER" solve "$DEMO" --optimal pushes --optimal-plain 0.5 --time 20 --format jsonl
a=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/noplain.jsonl" | tr '\n' ' ')
b=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out" | tr '\n' ' ')
[ -n "$a" ] && [ "$a" = "$b" ] && ! echo "$b" | grep -q false && pass ||
    fail "--optimal-plain 0.5 against 0 (pushes, proven): '$b' / '$a'"
# --optimal-refine (the optimizer shortening the seed while A* proves):
# off and at its largest share, the same proven push counts
run "$KEEPER" solve "$DEMO" --optimal pushes --optimal-refine 0 --time 20 --format jsonl
c=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out" | tr '\n' ' ')
run "$KEEPER" solve "$DEMO" --optimal pushes --optimal-refine 0.9 --time 20 --format jsonl
d=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out" | tr '\n' ' ')
[ -n "$c" ] && [ "$c" = "$a" ] && [ "$d" = "$a" ] && pass ||
    fail "--optimal-refine 0 and 0.9 against the default (pushes, proven): '$c' / '$d' / '$a'"
run "$KEEPER" solve "$DEMO" --optimal pushes --optimal-refine 1.5
expect_rc 2 "--optimal-refine 1.5 is a usage error"
# --seed: the proven solutions as seeds give the same proven counts, each
# the seed itself (nothing shorter exists); the fast mode's solutions as
# seeds (more pushes on some levels) are shortened by the proof to the same
# counts; a seed that is not a solution is reported (FILE:LINE) and its
# level proven from its own fast search; --seed needs --optimal pushes.
cp "$WORK/noplain.jsonl" "$WORK/seeds.jsonl"
run "$KEEPER" solve "$DEMO" --optimal pushes --seed "$WORK/seeds.jsonl" --time 20 --format jsonl
expect_err 'seed .*: 8 levels seeded' "--seed: every demo level seeded"
e=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out" | tr '\n' ' ')
[ "$e" = "$a" ] && pass || fail "--seed with the proven solutions: '$e' against '$a'"
n=$(grep -c '"strategy":"astar (seed)"' "$WORK/out")
[ "$n" -eq 8 ] && pass || fail "--seed with the proven solutions: $n of 8 levels end on the seed"
run "$KEEPER" solve "$DEMO" --format jsonl
cp "$WORK/out" "$WORK/fast.jsonl"
fp=$(sed -n 's/.*"pushes":\([0-9]*\),.*/\1/p' "$WORK/fast.jsonl" | tr '\n' ' ')
run "$KEEPER" solve "$DEMO" --optimal pushes --seed "$WORK/fast.jsonl" --time 20 --format jsonl
e=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out" | tr '\n' ' ')
[ "$e" = "$a" ] && pass || fail "--seed with the fast solutions ($fp): '$e' against '$a'"
{ echo "level,lurd"; echo "1,uuuu"; } > "$WORK/badseed.csv"
run "$KEEPER" solve "$DEMO" --level 1 --optimal pushes --seed "$WORK/badseed.csv" --time 20 --format jsonl
expect_err 'badseed.csv:2: error: level 1' "--seed: a seed that is not a solution is reported with its line"
expect_err 'seed .*: 0 levels seeded' "--seed: the bad seed is not used"
e=$(sed -n 's/.*"pushes":\([0-9]*\),.*"optimal":\(true\|false\).*/\1 \2/p' "$WORK/out")
a1=$(echo "$a" | cut -d' ' -f1-2)
[ "$e" = "$a1" ] && pass || fail "--seed with a bad seed: level 1 '$e' against '$a1'"
run "$KEEPER" solve "$DEMO" --seed "$WORK/seeds.jsonl"
expect_rc 2 "--seed without --optimal pushes is a usage error"
run "$KEEPER" solve "$DEMO" --optimal pushes --seed "$WORK/missing.csv"
expect_rc 2 "--seed with a missing file"
run "$KEEPER" solve "$DEMO" --strategy bogus
expect_rc 2 "--strategy bogus is a usage error"

# --- one thread: the same run twice gives the same nodes and solutions
for st in fess portfolio backward opening rev; do
    run "$KEEPER" solve "$DEMO" --strategy $st --format jsonl --quiet
    sed 's/"seconds":[0-9.]*,//' "$WORK/out" > "$WORK/first"
    run "$KEEPER" solve "$DEMO" --strategy $st --format jsonl --quiet
    sed 's/"seconds":[0-9.]*,//' "$WORK/out" > "$WORK/second"
    cmp -s "$WORK/first" "$WORK/second" && pass || fail "--strategy $st: two runs differ"
done
# --strategy rev ends as soon as its backward half reaches the target or
# meets the forward half (XSokoban 22: 114,107 positions; a version that let
# the forward half run on reported it only at the node limit)
if [ -f "$LEVELS/xsokoban90.xsb" ]; then
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 22 --strategy rev --max-nodes 3000000 --format jsonl
    expect_out '"status":"solved".*"strategy":"rev-meet"' "--strategy rev: XSokoban 22 solved by the backward half"
    nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$WORK/out")
    [ -n "$nodes" ] && [ "$nodes" -lt 1000000 ] && pass ||
        fail "--strategy rev: XSokoban 22 took $nodes positions (it should end at the meeting)"
else
    skip "$LEVELS/xsokoban90.xsb not found: --strategy rev on XSokoban 22"
fi
# --rev (the default): the reverse search joins the portfolio with the
# opening search (XSokoban 29: its first turn comes within 700,000
# positions); --no-rev leaves it out.
if [ -f "$LEVELS/xsokoban90.xsb" ]; then
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 29 --max-nodes 700000 --verbose
    n=$(awk '$1 == "member" && $2 == "rev" { print $5 }' "$WORK/err")
    [ -n "$n" ] && [ "$n" -gt 0 ] && pass || fail "--rev: the reverse member stored '$n' positions"
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 29 --time 1 --verbose --no-rev
    grep -q 'member rev' "$WORK/err" && fail "--no-rev: a reverse member ran" || pass
else
    skip "$LEVELS/xsokoban90.xsb not found: --rev on XSokoban 29"
fi
# ... and on a level where the portfolio's searches take turns for a second
# (XSokoban 40: A* finds the solution in the fifth round).
if [ -f "$LEVELS/xsokoban90.xsb" ]; then
    for k in first second; do
        run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 40 --threads 1 --format jsonl --quiet
        sed 's/"seconds":[0-9.]*,//' "$WORK/out" > "$WORK/$k"
    done
    expect_out '"status":"solved"' "portfolio, XSokoban 40, one thread: solved"
    cmp -s "$WORK/first" "$WORK/second" && pass || fail "portfolio, XSokoban 40, --threads 1: two runs differ"
else
    skip "$LEVELS/xsokoban90.xsb not found: two portfolio runs of XSokoban 40"
fi
# ... and the backward search on a level of some thousands of positions
if [ -f "$LEVELS/xsokoban90.xsb" ]; then
    for k in first second; do
        run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 6 --strategy backward --threads 1 \
            --format jsonl --quiet
        sed 's/"seconds":[0-9.]*,//' "$WORK/out" > "$WORK/$k"
    done
    expect_out '"status":"solved"' "backward, XSokoban 6, one thread: solved"
    expect_out '"nodes":[0-9]{4,}' "backward, XSokoban 6: thousands of positions"
    expect_out '"strategy":"backward"' "backward, XSokoban 6: jsonl says backward"
    cmp -s "$WORK/first" "$WORK/second" && pass || fail "backward, XSokoban 6, --threads 1: two runs differ"
else
    skip "$LEVELS/xsokoban90.xsb not found: two backward runs of XSokoban 6"
fi

# --- --rearrange: Sasquatch VII 3 starts with 12 of its 13 boxes on goals,
# a rearrangement; once the opening search has joined it takes A*'s and the
# reverse search's turns (the default, 50 %), so within 300,000 positions A*
# stores fewer positions and the opening search more than with --rearrange
# 0, and within 600,000 (not under the sanitizers: 4.5 s in the release
# build) the reverse search stores none where it stores some with
# --rearrange 0. XSokoban 29 (5 of 16 boxes on goals) runs the same either
# way.
if [ -f "$LEVELS/sasquatch7_50.xsb" ] && [ -f "$LEVELS/xsokoban90.xsb" ]; then
    for r in 50 0; do
        run "$KEEPER" solve "$LEVELS/sasquatch7_50.xsb" --level 3 --threads 1 --max-nodes 300000 \
            --rearrange $r -v
        awk '$1 == "member" { print $2, $5 }' "$WORK/err" > "$WORK/rearr$r"
    done
    a50=$(awk '$1 == "astar" { print $2 }' "$WORK/rearr50")
    a0=$(awk '$1 == "astar" { print $2 }' "$WORK/rearr0")
    o50=$(awk '$1 == "opening" { print $2 }' "$WORK/rearr50")
    o0=$(awk '$1 == "opening" { print $2 }' "$WORK/rearr0")
    [ -n "$a50" ] && [ -n "$a0" ] && [ "$a50" -lt "$a0" ] && pass ||
        fail "--rearrange: A* stored '$a50' positions on Sasquatch VII 3, with --rearrange 0 '$a0'"
    [ -n "$o50" ] && [ -n "$o0" ] && [ "$o50" -gt "$o0" ] && pass ||
        fail "--rearrange: the opening search stored '$o50' positions, with --rearrange 0 '$o0'"
    if [ -z "$KEEPER_TEST_QUICK" ]; then
        for r in 50 0; do
            run "$KEEPER" solve "$LEVELS/sasquatch7_50.xsb" --level 3 --threads 1 \
                --max-nodes 600000 --rearrange $r -v
            awk '$1 == "member" && $2 == "rev" { print $5 }' "$WORK/err" > "$WORK/rev$r"
        done
        r50=$(cat "$WORK/rev50") r0=$(cat "$WORK/rev0")
        [ "$r50" = 0 ] && [ -n "$r0" ] && [ "$r0" -gt 0 ] && pass ||
            fail "--rearrange: the reverse search stored '$r50' positions on Sasquatch VII 3, with --rearrange 0 '$r0'"
    else
        skip "KEEPER_TEST_QUICK: the reverse search's turns on Sasquatch VII 3 (600,000 positions)"
    fi
    for r in 50 0; do
        run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 29 --threads 1 --max-nodes 200000 \
            --rearrange $r -v
        awk '$1 == "member" { print $2, $5, $7 }' "$WORK/err" > "$WORK/x29r$r"
    done
    [ -s "$WORK/x29r50" ] && cmp -s "$WORK/x29r50" "$WORK/x29r0" && pass ||
        fail "--rearrange changed XSokoban 29, not a rearrangement: $(cat "$WORK/x29r50") / $(cat "$WORK/x29r0")"
    # alone on two threads, the lent thread runs the opening search alone
    # on a rearrangement (A* and the reverse search with --rearrange 0):
    # it solves VII 3 by itself (370,969 positions either way), so the
    # level ends sooner, its members storing fewer positions in all, and
    # the opening search runs nearly all of the level's time
    if [ -z "$KEEPER_TEST_QUICK" ]; then
        for r in 50 0; do
            run "$KEEPER" solve "$LEVELS/sasquatch7_50.xsb" --level 3 --threads 2 --time 60 \
                --rearrange $r --format jsonl -v
            sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$WORK/out" > "$WORK/lent$r"
            awk '$1 == "member" && $2 == "opening" { print $3 }' "$WORK/err" >> "$WORK/lent$r"
            sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p' "$WORK/out" >> "$WORK/lent$r"
        done
        n50=$(sed -n 1p "$WORK/lent50") n0=$(sed -n 1p "$WORK/lent0")
        [ -n "$n50" ] && [ -n "$n0" ] && [ "$n50" -lt "$n0" ] && pass ||
            fail "--rearrange, two threads on Sasquatch VII 3: '$n50' positions, with --rearrange 0 '$n0'"
        awk 'NR == 2 { o = $1 } NR == 3 { t = $1 } END { exit !(t > 0 && o >= 0.7 * t) }' \
            "$WORK/lent50" && pass ||
            fail "--rearrange, two threads on Sasquatch VII 3: the opening search ran $(sed -n 2p "$WORK/lent50") s of $(sed -n 3p "$WORK/lent50") s"
    else
        skip "KEEPER_TEST_QUICK: the lent thread's member on Sasquatch VII 3"
    fi
else
    skip "$LEVELS/sasquatch7_50.xsb or xsokoban90.xsb not found: --rearrange on Sasquatch VII 3"
fi

# --- fess-plan2: Sasquatch IV 43 has no greedy packing order, and both base
# searches give a complete plan; the first FESS follows the simpler, and the
# second FESS, following the other, finishes the level (through a meeting).
# One thread: the slices count positions, so the run is the same in every
# build (928,385 positions); the time limit only caps it: 10 s in the release
# build, about 150 s in the debug build (-O0 with every consistency check)
if [ -f "$LEVELS/sasquatch4_50.xsb" ]; then
    run "$KEEPER" solve "$LEVELS/sasquatch4_50.xsb" --level 43 --threads 1 --time 600 \
        --format jsonl -v
    expect_out '"status":"solved"' "portfolio, Sasquatch IV 43: solved"
    expect_err 'member fess-plan2 .* 1 meeting' "portfolio, Sasquatch IV 43: fess-plan2 meets"
else
    skip "$LEVELS/sasquatch4_50.xsb not found: the portfolio's fess-plan2 on Sasquatch IV 43"
fi

# --- zones: levels whose boxes never leave their rooms are solved room by
# room (in Order Matters the right room first: filling the left room shuts
# its door; in Shut In the upper room's boxes move aside before the lower
# room can be reached), and the joined solutions verify on the whole level; with
# --no-zones the portfolio solves them on the whole board
ZONES=tests/data/zones.xsb
run "$KEEPER" solve "$ZONES" --time 30 --format jsonl
expect_rc 0 "zones: the three levels solved"
n=$(grep -c '"status":"solved","reason":"","seconds":[0-9.]*,"nodes":[0-9]*,"expanded":[0-9]*,"strategy":"zones"' "$WORK/out")
[ "$n" -eq 3 ] && pass || fail "zones: $n levels solved zone by zone, expected 3: $(cat "$WORK/out")"
cp "$WORK/out" "$WORK/zones.jsonl"
run "$KEEPER" verify "$ZONES" "$WORK/zones.jsonl"
expect_rc 0 "zones: the joined solutions verify"
run "$KEEPER" solve "$ZONES" --time 30 --format jsonl --no-zones
expect_rc 0 "--no-zones: the three levels solved"
expect_no_out '"strategy":"zones"' "--no-zones: no level solved zone by zone"
# no time limit: nothing to share out, the portfolio runs on the whole board
run "$KEEPER" solve "$ZONES" --time 0 --format jsonl
expect_rc 0 "zones, --time 0: the three levels solved"
expect_no_out '"strategy":"zones"' "zones, --time 0: the whole board"
if [ -f "$LEVELS/sasquatch6_50.xsb" ]; then
    # two rooms of 7 and 8 boxes, solved on the whole board by neither the
    # portfolio nor Festival 3.1 in 20 s; room by room in about 5 s (the
    # 8-box room alone takes 14 s in the debug build, whose first zone's
    # share of --time 60 is 15 s: 120 gives it room)
    run "$KEEPER" solve "$LEVELS/sasquatch6_50.xsb" --level 17 --time 120 --format jsonl
    expect_out '"index":17,.*"status":"solved".*"strategy":"zones"' "Sasquatch VI 17: solved zone by zone"
else
    skip "$LEVELS/sasquatch6_50.xsb not found: zones on Sasquatch VI 17"
fi
if [ -f "$LEVELS/sasquatch7_50.xsb" ]; then
    # three zones; the player must end each where it can go on to the
    # others (the right zone's last box, pushed in from inside, would shut
    # it in): solved in about a second, by neither whole-board search in 20 s
    run "$KEEPER" solve "$LEVELS/sasquatch7_50.xsb" --level 30 --time 60 --format jsonl
    expect_out '"index":30,.*"status":"solved".*"strategy":"zones"' "Sasquatch VII 30: solved zone by zone"
else
    skip "$LEVELS/sasquatch7_50.xsb not found: zones on Sasquatch VII 30"
fi

# --- two threads: the levels run side by side, and the last one gets the
# spare thread (the portfolio's searches side by side); every solution
# still verifies
run "$KEEPER" solve "$DEMO" --threads 2 --time 10 --format sok --output "$WORK/t2.sok"
expect_rc 0 "--threads 2 solves the demo levels"
expect_err "8 levels, 10 s per level, 4096 MiB, 2 threads" "--threads 2: the header"
run "$KEEPER" verify "$WORK/t2.sok"
expect_rc 0 "--threads 2: the demo solutions verify"
run "$KEEPER" solve "$DEMO" --level 5 --threads 2 --format jsonl
expect_rc 0 "--threads 2 on one demo level"
expect_err "1 level, 600 s per level, 4096 MiB, 2 threads" "--threads 2 on one level: two threads"
run "$KEEPER" solve "$DEMO" --level 5 --threads 2 --strategy fess --format jsonl
expect_err "1 level, 600 s per level, 4096 MiB, 1 thread" "--threads 2 on one level, one strategy: one thread"

# --- the portfolio's node limit counts both searches
if [ -f "$LEVELS/xsokoban90.xsb" ]; then
    run "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 29 --max-nodes 300000 --format jsonl
    expect_out '"reason":"node limit"' "portfolio, XSokoban 29: node limit"
    nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$WORK/out")
    [ -n "$nodes" ] && [ "$nodes" -ge 300000 ] && [ "$nodes" -le 301000 ] && pass ||
        fail "portfolio, --max-nodes 300000: $nodes positions stored"
else
    skip "$LEVELS/xsokoban90.xsb not found: the portfolio's node limit"
fi

finish
