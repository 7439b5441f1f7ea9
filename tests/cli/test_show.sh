#!/bin/sh
# test_show.sh: "keeper show": every level with its size, boxes, sections,
# lower bound and dead squares; selections; malformed levels (exit 2,
# FILE:LINE: error: on stderr, the other levels still shown).
. tests/cli/lib.sh

DEMO=levels/demo.xsb

run "$KEEPER" show "$DEMO"
expect_rc 0 "show demo"
n=$(grep -c '^level [0-9]* "' "$WORK/out")
[ "$n" -eq 8 ] && pass || fail "show demo: $n levels, expected 8"
expect_out '^; keeper demo collection$' "show prints the file notes once, as written"
expect_out '^level 8 "Goal Room" \(levels/demo.xsb:[0-9]+\)$' "show: level header with FILE:LINE"
[ -s "$WORK/err" ] && fail "show demo wrote to stderr" || pass

run "$KEEPER" show "$DEMO" --level 1
expect_rc 0 "show --level 1"
expect_out '^level 1 "Warm-up" \(levels/demo.xsb:7\)$' "show --level 1: header"
expect_out '^  size 7x5, 2 boxes \(0 on goals\), 14 inner squares, 4 dead squares$' "show --level 1: counts"
expect_out '^  lower bound \(nearest goal\): 5 pushes$' "show --level 1: lower bound"
# The board with its dead squares: the right column and the corner by the
# pillar.
sed -n '/board, dead squares/,$p' "$WORK/out" | tail -n +2 | grep -v '^  packing order' > "$WORK/board"
printf '  #######\n  #.  @x#\n  # $$ x#\n  #. x#x#\n  #######\n' > "$WORK/want"
cmp -s "$WORK/board" "$WORK/want" && pass || fail "show --level 1: board $(cat "$WORK/board")"
grep -q '^; keeper demo' "$WORK/out" && fail "show --level 1 prints the file notes" || pass

# The packing order of the goal room: each of the six goals numbered once,
# 1 to 6, and nothing else numbered.
run "$KEEPER" show "$DEMO" --level 8
expect_rc 0 "show --level 8"
expect_out '^  packing order \(goals numbered' "show --level 8: a packing order"
sed -n '/packing order/,$p' "$WORK/out" | tail -n +2 > "$WORK/order"
digits=$(tr -cd '0-9' < "$WORK/order" | fold -w1 | sort | tr -d '\n')
[ "$digits" = "123456" ] && pass || fail "show --level 8: packing order numbers '$digits'"
# The numbers stand where the goals are.
sed -n '/board, dead squares/,/packing order/p' "$WORK/out" | sed '1d;$d' | tr -c '.*+\n' ' ' > "$WORK/goals"
tr -c '0-9\n' ' ' < "$WORK/order" | tr '0-9' '.' > "$WORK/numbered"
cmp -s "$WORK/goals" "$WORK/numbered" && pass || fail "show --level 8: the numbers are not on the goals"

run "$KEEPER" show "$DEMO" --levels 2-3
expect_rc 0 "show --levels 2-3"
[ "$(grep -c '^level ' "$WORK/out")" -eq 2 ] && pass || fail "show --levels 2-3: not 2 levels"

run "$KEEPER" show tests/data/cli_verify_ok.sok --level 1
expect_rc 0 "show a level with sections"
expect_out '^  section 1 "Solution 14/5" \(line 13\): 14 move characters$' "show: a solution section"
expect_out '^  section 2 "SaveGame" \(line 16\): 4 move characters$' "show: a saved game section"

run "$KEEPER" show tests/data/cli_unsolvable.xsb
expect_rc 0 "show an unsolvable level"
expect_out '^  size 8x3, 2 boxes \(0 on goals\), 6 inner squares, 0 dead squares$' "show unsolvable: no dead square"

run "$KEEPER" show tests/data/cli_mixed.xsb
expect_rc 2 "show a file with a malformed level"
expect_err '^tests/data/cli_mixed.xsb:14: error: more than one player' "show: the malformed level on stderr"
expect_out '^  invalid: tests/data/cli_mixed.xsb:14: error: ' "show: the malformed level is marked invalid"
expect_out '^level 3 "Third"' "show: the level after the malformed one is shown"
expect_out '^  size 5x3, 1 box \(0 on goals\), 3 inner squares, 1 dead square$' "show: singular box and dead square"
expect_out '^  #\$ \.@#$' "show: the malformed board is printed, indented"

run sh -c "\"$KEEPER\" show - --level 2 < $DEMO"
expect_rc 0 "show - (standard input)"
expect_out '^level 2 "Two Rooms" \(<stdin>:15\)$' "show -: standard input is named <stdin>"

finish
