#!/bin/sh
# test_verify.sh: "keeper verify": solutions stored in a SOK file, or given
# in a separate SOK, LURD or CSV file; valid and invalid solutions (the
# failing step and its reason), saved games (legal moves only), CSV claims
# that disagree with the replay, the metrics, and the exit statuses.
. tests/cli/lib.sh

DEMO=levels/demo.xsb
OK=tests/data/cli_verify_ok.sok
BAD=tests/data/cli_verify_bad.sok

# --- stored solutions, all valid, with saved games
run "$KEEPER" verify "$OK"
expect_rc 0 "verify: valid solutions and saved games"
expect_out "^$OK:13: level 1 \"Warm-up\", section 1 \"Solution 14/5\": valid: 14 moves, 5 pushes, 5 box lines, 4 box changes, 4 pushing sessions, 12 player lines$" \
    "verify: a valid solution with all its metrics"
expect_out "^$OK:28: level 2 \"Two Rooms\", section 1 \"Solution\": valid: 8 moves, 4 pushes, 2 box lines, 2 box changes, 2 pushing sessions, 5 player lines$" \
    "verify: the metrics of Two Rooms"
expect_out "^$OK:16: level 1 \"Warm-up\", section 2 \"SaveGame\": saved game: .*4 moves, 1 pushes" "verify: a SaveGame section is a saved game"
expect_out "^$OK:31: level 2 \"Two Rooms\", section 2 \"Snapshot\": saved game: " "verify: a Snapshot section is a saved game"
expect_err "4 solutions: 2 valid, 0 invalid, 2 saved games; 0 levels without a valid solution" "verify: summary"
[ -s "$WORK/err" ] && ! grep -q 'error' "$WORK/err" && pass || fail "verify of valid solutions reports an error"

# --- invalid solutions: the step and the reason, as FILE:LINE: error:
run "$KEEPER" verify "$BAD"
expect_rc 1 "verify: some solutions invalid"
expect_out ': valid: 14 moves' "verify: the valid one is still listed"
expect_err "^$BAD:16: error: level 1 \"Warm-up\", section 2 \"Wall at step 10\": invalid: step 10 \(d\): the player walks into a wall; 9 moves, 1 pushes" \
    "verify: a wall at step 10"
expect_err "^$BAD:19: error: level 1 \"Warm-up\", section 3 \"Unfinished\": invalid: does not solve the level: the moves end with 1 of 2 boxes on goals; 13 moves, 4 pushes" \
    "verify: legal moves that do not solve the level"
expect_err "^$BAD:31: error: level 2 \"Two Rooms\", section 1 \"Snapshot\": invalid: step 4 \(L\): the box cannot be pushed left" \
    "verify: a saved game with an illegal move is invalid"
expect_err "4 solutions: 1 valid, 3 invalid, 0 saved games; 1 level without a valid solution" "verify invalid: summary"
run "$KEEPER" verify "$BAD" --quiet
expect_rc 1 "verify --quiet"
[ -s "$WORK/out" ] && fail "verify --quiet lists valid solutions: $(head -c 200 "$WORK/out")" || pass
expect_err "step 10 \(d\)" "verify --quiet still reports the invalid ones"
run "$KEEPER" verify "$BAD" --level 2
expect_rc 1 "verify --level 2: only the invalid snapshot"
expect_err "1 solution: 0 valid, 1 invalid" "verify --level 2: summary"
run "$KEEPER" verify "$BAD" --level 1 --format jsonl
expect_rc 1 "verify --format jsonl"
n=$(wc -l < "$WORK/out")
[ "$n" -eq 3 ] && pass || fail "verify --format jsonl: $n lines, expected 3"
expect_out '^\{"index":1,"title":"Warm-up","section":1,"section_title":"Solution","file":"[^"]*","line":13,"status":"valid","reason":"","moves":14,"pushes":5,"box_lines":5,"box_changes":4,"pushing_sessions":4,"player_lines":12\}$' \
    "verify jsonl: a valid solution"
expect_out '"section":2,.*"status":"invalid","reason":"step 10 \(d\): the player walks into a wall",.*"fail_step":10\}$' \
    "verify jsonl: the failing step"
expect_err "$BAD:16: error: .*step 10" "verify jsonl: invalid solutions also reported on stderr"

# --- --audit: every detector on every position of the valid solutions, and
# the packing plan followed along them
run "$KEEPER" verify "$OK" --audit
expect_rc 0 "verify --audit: no detector calls a solution's position dead"
expect_out "^$OK:13: level 1 \"Warm-up\", section 1 \"Solution 14/5\": audit: 5 pushes, 0 false deadlock verdicts; packed \(plan of [0-9]+ steps\) [0-9]+ at the start, at most ([0-9]+) \(first after push [0-9]+\), [0-9]+ at the end" \
    "verify --audit: the audit line of a valid solution"
expect_err "audit: 9 pushes, 0 solutions with a false deadlock verdict" "verify --audit: summary"
grep -q 'SaveGame.*audit' "$WORK/out" && fail "verify --audit audits a saved game" || pass
run "$KEEPER" verify "$OK" --audit --level 2 --format jsonl
expect_out '"section":1,.*"status":"valid",.*"audit":\{"false_verdicts":0,"plan_steps":[0-9]+,.*"packed_final":([0-9]+),.*"packed_first":\[0(,[0-9]+)*\]\}\}$' \
    "verify --audit jsonl: the audit object"
run "$KEEPER" verify "$BAD" --audit --quiet
expect_rc 1 "verify --audit: invalid solutions are still invalid"
expect_err "audit: 5 pushes, 0 solutions" "verify --audit: only the valid solution is audited"

# --- a separate solutions file: LURD lines
printf 'llDurrdLdLUruL\nuLLrrdLL\n' > "$WORK/two.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/two.lurd"
expect_rc 0 "verify LURD lines"
expect_out "two.lurd:2: level 2 \"Two Rooms\", section 1: valid: 8 moves, 4 pushes" "verify LURD: line 2 is level 2"
expect_err "2 solutions: 2 valid, 0 invalid, 0 saved games; 6 levels without a valid solution" "verify LURD: summary"
# Comments, an empty line skipping a level, CRLF line ends, RLE, spaces.
printf '; solutions\r\nllDurrdLdLUruL\r\n\r\nluLulD4ru2rd 2Ld2l2d2lu2Ru 2rdRdrU\r\n' > "$WORK/crlf.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/crlf.lurd"
expect_rc 0 "verify LURD with comments, CRLF, an empty line and run lengths"
expect_out 'crlf.lurd:4: level 3 "Pillars", section 1: valid: 34 moves, 8 pushes' "verify LURD: run-length moves"
printf 'llDurrdLdLUruL\nuLLrrdLLL\n' > "$WORK/bad.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/bad.lurd"
expect_rc 1 "verify LURD with an invalid line"
expect_err "bad.lurd:2: error: level 2 \"Two Rooms\", section 1: invalid: step 9 \(L\): the box cannot be pushed left \(wall behind it\); 8 moves, 4 pushes" \
    "verify LURD: the invalid line and step"
printf 'llDurrdLdLUruX\n' > "$WORK/junk.lurd"
run "$KEEPER" verify "$DEMO" "$WORK/junk.lurd"
expect_rc 1 "verify LURD with a bad character"
expect_err "junk.lurd:1: error: .*invalid: .*'X'" "verify LURD: the bad character"
i=0
: > "$WORK/long.lurd"
while [ $i -lt 9 ]; do echo llDurrdLdLUruL >> "$WORK/long.lurd"; i=$((i + 1)); done
run "$KEEPER" verify "$DEMO" "$WORK/long.lurd"
expect_rc 2 "verify LURD with more lines than levels"
expect_err "long.lurd:9: error: solution 9 but .* has 8 levels" "verify LURD: the extra line"

# Solutions on standard input, from a solve of a selection.
run sh -c "\"$KEEPER\" solve $DEMO --search bfs --levels 2-3 --format lurd --quiet | \"$KEEPER\" verify $DEMO - --levels 2-3"
expect_rc 0 "verify solutions read from standard input"
expect_out '^<stdin>:2: level 3 "Pillars", section 1: valid' "verify -: messages name <stdin>"
run "$KEEPER" verify - -
expect_rc 2 "verify - -"
expect_err "cannot both be standard input" "verify - -: message"

# --- a separate solutions file: SOK, matched by board
run "$KEEPER" verify "$DEMO" "$OK"
expect_rc 0 "verify demo.xsb against a SOK file"
expect_out "level 2 \"Two Rooms\", section 1 \"Solution\": valid" "verify against SOK: level 2 matched by its board"
expect_err "2 valid, 0 invalid, 2 saved games; 6 levels without" "verify against SOK: summary"
run "$KEEPER" verify "$DEMO" "$BAD"
expect_rc 1 "verify demo.xsb against a SOK file with invalid solutions"

# --- a separate solutions file: CSV with level and lurd columns
printf 'level,title,moves,pushes,lurd\n1,Warm-up,14,5,llDurrdLdLUruL\n2,"Two Rooms, again",8,4,uLLrrdLL\n' > "$WORK/ok.csv"
run "$KEEPER" verify "$DEMO" "$WORK/ok.csv"
expect_rc 0 "verify CSV"
expect_out 'ok.csv:3: level 2 "Two Rooms", section 1 "Two Rooms, again": valid' "verify CSV: quoted field, row 3 is level 2"
printf 'level,lurd,moves,pushes\n1,llDurrdLdLUruL,14,6\n2,uLLrrdLL,9,4\n3,luLulDrrrrurrdLLdllddlluRRurrdRdrU,,\n' > "$WORK/claims.csv"
run "$KEEPER" verify "$DEMO" "$WORK/claims.csv"
expect_rc 1 "verify CSV with claims that disagree"
expect_err "claims.csv:2: error: level 1 \"Warm-up\", section 1: invalid: claims 14 moves and 6 pushes; the replay gives 14 and 5" \
    "verify CSV: wrong pushes claimed"
expect_err "claims.csv:3: error: level 2 .*claims 9 moves and 4 pushes; the replay gives 8 and 4" "verify CSV: wrong moves claimed"
expect_out "claims.csv:4: level 3 \"Pillars\", section 1: valid" "verify CSV: empty claims are not checked"
printf 'level,moves,pushes\n1,14,5\n' > "$WORK/nolurd.csv"
run "$KEEPER" verify "$DEMO" "$WORK/nolurd.csv"
expect_rc 2 "verify CSV without a lurd column"
expect_err "nolurd.csv:1: error: the CSV header has no 'lurd' column" "verify CSV without a lurd column: message"
printf 'level,lurd_moves\n1,llDurrdLdLUruL\n' > "$WORK/lurdx.csv"
run "$KEEPER" verify "$DEMO" "$WORK/lurdx.csv"
expect_rc 2 "verify CSV whose header only contains 'lurd' inside a name"
printf 'level,lurd\n1,llDurrdLdLUruL\n12,llDurrdLdLUruL\nx,uLLrrdLL\n' > "$WORK/range.csv"
run "$KEEPER" verify "$DEMO" "$WORK/range.csv"
expect_rc 2 "verify CSV with rows for missing levels"
expect_err "range.csv:3: error: level number missing or beyond" "verify CSV: level 12 of 8"
expect_err "range.csv:4: error: level number missing or beyond" "verify CSV: level x"
expect_out "range.csv:2: level 1 .*: valid" "verify CSV: the good row is still checked"

# --- bad input: exit 2
run "$KEEPER" verify "$DEMO" "$WORK/missing.lurd"
expect_rc 2 "verify with a missing solutions file"
expect_err "missing.lurd: error: cannot read" "verify with a missing solutions file: message"
run "$KEEPER" verify "$DEMO" "$WORK"
expect_rc 2 "verify with a directory as solutions file"
expect_err "^$WORK: error: cannot read" "verify with a directory as solutions file: message"
run "$KEEPER" verify tests/data/cli_mixed.xsb
expect_rc 2 "verify a file with a malformed level"
expect_err "^tests/data/cli_mixed.xsb:14: error: " "verify reports the malformed level as FILE:LINE: error:"
printf 'R\n\nrR\n' > "$WORK/mixed.lurd"
run "$KEEPER" verify tests/data/cli_mixed.xsb "$WORK/mixed.lurd"
expect_rc 2 "verify solutions of a file with a malformed level"
n=$(grep -c ': valid: ' "$WORK/out")
[ "$n" -eq 2 ] && pass || fail "verify with a malformed level: $n valid, expected 2 (the others are still checked)"
run "$KEEPER" verify tests/data/cli_mixed.xsb "$WORK/mixed.lurd" --level 3
expect_rc 0 "verify only the valid level of a file with a malformed level"
run "$KEEPER" verify "$DEMO"
expect_rc 1 "verify a file without solutions (nothing verified is not success)"
expect_err "0 solutions: .* 8 levels without a valid solution" "verify a file without solutions: summary"

# --- the shared collections and their known solutions
if have_shared && [ -f "$LEVELS/solutions/microban155.ksokoban-online.csv" ]; then
    run "$KEEPER" verify "$LEVELS/microban155.xsb" "$LEVELS/solutions/microban155.ksokoban-online.csv" --quiet
    expect_rc 0 "verify Microban against its known solutions"
    expect_err "155 solutions: 155 valid, 0 invalid" "verify Microban: 155 valid"
    run "$KEEPER" verify "$LEVELS/xsokoban90.xsb" "$LEVELS/solutions/xsokoban90.ksokoban-online.csv" --quiet
    expect_rc 0 "verify XSokoban against its known solutions"
    expect_err " 0 invalid" "verify XSokoban: none invalid"
    # --audit: no deadlock detector may call a position of a known solution
    # dead (Microban I: 5,474 positions; XSokoban 1-4: about 800).
    run "$KEEPER" verify "$LEVELS/microban155.xsb" "$LEVELS/solutions/microban155.ksokoban-online.csv" --quiet --audit
    expect_rc 0 "verify --audit: Microban's known solutions"
    expect_err "audit: [0-9]+ pushes, 0 solutions with a false deadlock verdict" "verify --audit Microban: no false verdict"
    run "$KEEPER" verify "$LEVELS/xsokoban90.xsb" "$LEVELS/solutions/xsokoban90.ksokoban-online.csv" --audit --levels 1-4 --format jsonl
    expect_rc 0 "verify --audit: XSokoban 1-4"
    n=$(grep -c '"audit":{"false_verdicts":0,' "$WORK/out")
    [ "$n" -eq 4 ] && pass || fail "verify --audit XSokoban 1-4: $n of 4 audited clean"
    # Corrupt one known solution: the claims no longer hold.
    sed '2s/,\([lurdLURD]*\)$/,\1l/' "$LEVELS/solutions/microban155.ksokoban-online.csv" > "$WORK/mb.csv"
    run "$KEEPER" verify "$LEVELS/microban155.xsb" "$WORK/mb.csv" --quiet
    expect_rc 1 "verify Microban with one corrupted solution"
    expect_err "mb.csv:2: error: level 1 .*(claims|invalid)" "verify Microban: the corrupted row"
else
    skip "$LEVELS/solutions not found: known solutions of Microban and XSokoban"
fi

# keeper's own JSON lines are a solutions file too (index and solution)
"$KEEPER" solve "$DEMO" --levels 2-4 --search bfs --format jsonl 2> /dev/null > "$WORK/sol.jsonl"
run "$KEEPER" verify "$DEMO" "$WORK/sol.jsonl"
expect_rc 0 "verify JSON lines"
expect_err "3 solutions: 3 valid" "verify JSON lines: the three solutions"
sed 's/"solution":"\([lurdLURD]\)/"solution":"\1\1/' "$WORK/sol.jsonl" > "$WORK/bad.jsonl"
run "$KEEPER" verify "$DEMO" "$WORK/bad.jsonl"
expect_rc 1 "verify JSON lines with broken solutions"
printf '{"title":"no index"}\n' > "$WORK/noindex.jsonl"
run "$KEEPER" verify "$DEMO" "$WORK/noindex.jsonl"
expect_rc 2 "verify JSON lines without an index"
expect_err "noindex.jsonl:1: error: not a level's JSON object" "verify JSON lines without an index: the message"

# A solutions file with none for the levels selected: nothing was
# verified, which is not success.
run "$KEEPER" verify levels/demo.xsb levels/demo.xsb
expect_rc 1 "verify: no solutions to check"
expect_err "no solution to check: levels/demo.xsb holds none" "verify: no solutions, said so"

finish
