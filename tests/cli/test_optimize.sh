#!/bin/sh
# test_optimize.sh: "keeper optimize": solutions read as verify reads them,
# the output formats (every written solution replays and is never worse
# than its input), invalid input solutions as FILE:LINE errors while the
# other levels go on, usage errors, --threads 2 giving what --threads 1
# gives, and the time limit and Ctrl-C on a large level (shared data).
. tests/cli/lib.sh

DEMO=levels/demo.xsb
OK=tests/data/cli_verify_ok.sok
BAD=tests/data/cli_verify_bad.sok

# --- demo solutions made long with detours, optimized back
"$KEEPER" solve "$DEMO" --format lurd --quiet > "$WORK/demo.lurd"
# Detours: after every third step that pushes nothing, the step back and the
# step again (always legal: the square it came from is free).
if command -v python3 > /dev/null 2>&1; then
    python3 - "$WORK/demo.lurd" > "$WORK/long.lurd" << 'PY'
import sys
for line in open(sys.argv[1]):
    s = line.strip()
    out = []
    for i, ch in enumerate(s):
        out.append(ch)
        if ch.islower() and i % 3 == 0:
            back = {'l': 'r', 'r': 'l', 'u': 'd', 'd': 'u'}[ch]
            out.append(back + ch)
    print(''.join(out))
PY
else
    cp "$WORK/demo.lurd" "$WORK/long.lurd"
fi
run "$KEEPER" verify "$DEMO" "$WORK/long.lurd" --quiet
expect_rc 0 "optimize: the long input solutions are valid"
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --format jsonl --time 0
expect_rc 0 "optimize: demo levels"
n=$(grep -c '"status":"optimized"' "$WORK/out")
[ "$n" -ge 6 ] && pass || fail "optimize: only $n of 8 demo levels optimized"
cp "$WORK/out" "$WORK/demo1.jsonl"
expect_err "^ +total +optimized [0-9]+, unchanged [0-9]+, without a solution 0" "optimize: the totals line"
# never worse, and the after metrics are what verify finds
if command -v python3 > /dev/null 2>&1; then
    python3 - "$WORK/demo1.jsonl" > "$WORK/check" << 'PY'
import json, sys
bad = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    b, a = r["before"], r["after"]
    kb = [b[k] for k in ("moves", "pushes", "box_lines", "box_changes", "pushing_sessions", "player_lines")]
    ka = [a[k] for k in ("moves", "pushes", "box_lines", "box_changes", "pushing_sessions", "player_lines")]
    if ka > kb:
        bad += 1
    print(r["solution"], file=open(sys.argv[1] + ".lurd", "a"))
    print(a["moves"], a["pushes"])
print("worse", bad)
PY
    grep -q "^worse 0$" "$WORK/check" && pass || fail "optimize: a result worse than its input"
    run "$KEEPER" verify "$DEMO" "$WORK/demo1.jsonl.lurd" --format jsonl
    expect_rc 0 "optimize: every jsonl solution replays"
    v=$(grep -o '"moves":[0-9]*,"pushes":[0-9]*' "$WORK/out" | tr -cd '0-9,\n' | tr ',' ' ')
    c=$(grep -v worse "$WORK/check")
    [ "$v" = "$c" ] && pass || fail "optimize: the jsonl metrics differ from verify's"
else
    skip "python3 not found: jsonl checks"
fi

# --- the same with two threads: the same results (no time limit: the
# passes run to their end, so the runs do not depend on the clock)
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --format lurd --time 0 --threads 2
expect_rc 0 "optimize --threads 2"
cp "$WORK/out" "$WORK/t2.lurd"
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --format lurd --time 0 --threads 1
cmp -s "$WORK/out" "$WORK/t2.lurd" && pass || fail "optimize: --threads 2 differs from --threads 1"

# --- SOK output keeps the level's sections and adds the optimized one
run "$KEEPER" optimize "$OK" --level 1
expect_rc 0 "optimize: stored solutions"
expect_out "^Solution 14/5$" "optimize sok: the stored solution is kept"
expect_out "^Optimizer: keeper .*, moves first, from 14/5$" "optimize sok: the optimizer's note"
run "$KEEPER" optimize "$OK" --level 1 --output "$WORK/ok.sok"
expect_rc 0 "optimize --output"
run "$KEEPER" verify "$WORK/ok.sok"
expect_rc 0 "optimize: the written SOK file verifies"

# --- invalid input solutions: reported, the others go on
run "$KEEPER" optimize "$BAD" --format lurd
expect_rc 1 "optimize: some input solution invalid"
expect_err "^$BAD:16: error: level 1, section 2: not a solution: step 10 \(d\): the player walks into a wall" \
    "optimize: an illegal step as FILE:LINE: error"
expect_err "^$BAD:19: error: level 1, section 3: not a solution: does not solve the level" \
    "optimize: an unfinished solution as FILE:LINE: error"
expect_err "^ +2 +none " "optimize: a level without a valid solution"
l1=$(sed -n 1p "$WORK/out")
[ -n "$l1" ] && pass || fail "optimize: the valid solution of level 1 was not written"

# --- --metric pushes
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --metric pushes --format jsonl --time 0 --level 8
expect_rc 0 "optimize --metric pushes"
expect_err "pushes first" "optimize --metric pushes: the header"

# --- progress: --verbose lines where stderr is no terminal, --progress
# forces the in-place line, --quiet says nothing
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --level 8 --verbose --time 0 --format lurd
expect_err "^keeper: level 8: [0-9.]+ s, vicinity 10/0, pushes 0-[0-9]+, best [0-9]+/[0-9]+$" \
    "optimize --verbose: progress lines"
expect_err "^keeper: level 8: [0-9.]+ s, rearrangements, pushes 0-[0-9]+, best [0-9]+/[0-9]+$" \
    "optimize --verbose: progress lines of the rearrangements"
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --level 8 --time 0 --format lurd
grep -q "vicinity 10/0" "$WORK/err" && fail "optimize: progress on a pipe without --verbose" || pass
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --level 8 --progress --time 0 --format lurd
expect_err "level 8: [0-9.]+ s, (rearrangements|vicinity|permutations|global)" "optimize --progress: the status line"
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --level 8 --progress --quiet --time 0 --format lurd
[ -s "$WORK/err" ] && fail "optimize --quiet --progress writes to stderr: $(head -c 200 "$WORK/err")" || pass

# --- help: every option the parser takes is listed
run "$KEEPER" optimize --help
expect_rc 0 "optimize --help"
expect_out "usage: keeper optimize FILE" "optimize --help: usage line"
for opt in --metric --time --memory --threads --vicinity --method --level --levels --output --format --quiet --verbose --progress; do
    expect_out "$opt" "optimize --help lists $opt"
done

# --- usage errors
run "$KEEPER" optimize "$DEMO" --metric speed
expect_rc 2 "optimize --metric speed"
expect_err "--metric: 'speed' is not moves or pushes" "optimize: bad metric message"
run "$KEEPER" optimize "$DEMO" --method vicinity,shuffle
expect_rc 2 "optimize --method shuffle"
expect_err "'shuffle' is not rearrangements, vicinity, permutations or global" "optimize: bad method message"
run "$KEEPER" optimize "$DEMO" "$WORK/long.lurd" --method permutations --format jsonl --time 0 --level 8
expect_rc 0 "optimize --method permutations"
expect_out '"vicinity":\{"improvements":0,"runs":0,' "optimize --method permutations: the vicinity search does not run"
expect_out '"permutations":\{"improvements":[1-9]' "optimize --method permutations: it improves level 8"
run "$KEEPER" optimize "$DEMO" --vicinity 20
expect_rc 2 "optimize --vicinity 20"
run "$KEEPER" optimize "$DEMO" --time -1
expect_rc 2 "optimize --time -1"
# --time, --memory, --threads: keeper solve's table entries, ranges and messages
for bad in "--time=soon" "--memory 8" "--threads 100"; do
    run "$KEEPER" optimize "$DEMO" $bad
    expect_rc 2 "optimize $bad"
    cp "$WORK/err" "$WORK/err.opt"
    run "$KEEPER" solve "$DEMO" $bad
    msg=$(head -n 1 "$WORK/err")
    [ -n "$msg" ] && [ "$(head -n 1 "$WORK/err.opt")" = "$msg" ] && pass ||
        fail "optimize $bad: '$(head -n 1 "$WORK/err.opt")', solve says '$msg'"
done
run "$KEEPER" optimize "$DEMO" "$WORK/none.lurd"
expect_rc 2 "optimize: missing solutions file"
expect_err "none.lurd: error: cannot read" "optimize: missing solutions file message"
run "$KEEPER" optimize
expect_rc 2 "optimize without a file"
run "$KEEPER" optimize "$DEMO"
expect_rc 1 "optimize: levels without any solution"
expect_err "without a solution 8" "optimize: 8 levels without a solution"

# --- limits on a large level (shared data)
FEST="$SHARED/peers/festival31-xsokoban90-2t-20s-solutions.csv"
if have_shared && [ -f "$FEST" ]; then
    start=$(date +%s)
    run "$KEEPER" optimize "$LEVELS/xsokoban90.xsb" "$FEST" --level 20 --time 2 --format lurd
    end=$(date +%s)
    expect_rc 0 "optimize --time 2 on XSokoban 20"
    [ $((end - start)) -le 5 ] && pass || fail "optimize --time 2 took $((end - start)) s"
    expect_err "time limit" "optimize: the time limit is reported"
    # (a copy: run truncates $WORK/out before verify reads it)
    cp "$WORK/out" "$WORK/opt20.lurd"
    run "$KEEPER" verify "$LEVELS/xsokoban90.xsb" "$WORK/opt20.lurd" --level 20 --quiet
    expect_rc 0 "optimize: the time-limited result replays"
    expect_err "1 solution: 1 valid" "optimize: the time-limited result was checked"
    # Ctrl-C (and SIGTERM, a batch system's time limit): the best so far is
    # written
    for sig in INT TERM; do
        "$KEEPER" optimize "$LEVELS/xsokoban90.xsb" "$FEST" --level 20 --time 0 --format jsonl \
            > "$WORK/int.jsonl" 2> "$WORK/int.err" &
        pid=$!
        sleep 2
        kill -$sig $pid
        wait $pid
        RC=$?
        expect_rc 0 "optimize: SIG$sig"
        # (a sanitizer build may not have improved anything in 2 s: the best
        # so far is then the input, still written)
        grep -q '"status":"\(optimized\|unchanged\)",.*"solution":"[lurdLURD]' "$WORK/int.jsonl" && pass ||
            fail "optimize: nothing written after SIG$sig: $(head -c 300 "$WORK/int.err")"
        grep -q 'interrupted' "$WORK/int.err" && pass || fail "optimize: SIG$sig not reported"
    done
else
    skip "shared levels or Festival's solutions not found: limits on XSokoban 20"
fi
finish
