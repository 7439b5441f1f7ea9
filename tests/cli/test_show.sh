#!/bin/sh
# test_show.sh: "keeper show": every level with its size, boxes, sections,
# lower bound and dead squares; rooms and links (--rooms); selections;
# malformed levels (exit 2, FILE:LINE: error: on stderr, the other levels
# still shown).
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

# --rooms: the Pillars level has five rooms: four corner rooms and the
# cross in the middle (which holds the two middle goals, so it is drawn
# uppercase). The squares where a corner room's blocks touch the cross's
# diagonally, and the goals by the side walls, are corridor squares.
run "$KEEPER" show "$DEMO" --level 3 --rooms
expect_rc 0 "show --rooms"
sed -n '/^  rooms: /,$p' "$WORK/out" > "$WORK/rooms"
cat > "$WORK/want" <<'END'
  rooms: 5 rooms, 6 links
  board, rooms drawn as letters (uppercase: the room holds a goal):
  #########
  #aaa#bbb#
  #aa C bb#
  #.#CCC#.#
  #dd C ee#
  #ddd#eee#
  #########
  room a: 5 squares, 0 goals, 2 entrances
  room b: 5 squares, 0 goals, 2 entrances
  room C: 5 squares, 2 goals, 4 entrances
  room d: 5 squares, 0 goals, 2 entrances
  room e: 5 squares, 0 goals, 2 entrances
  link a-C
  link a-d
  link b-C
  link b-e
  link C-d
  link C-e
END
cmp -s "$WORK/rooms" "$WORK/want" && pass || fail "show --rooms: $(diff "$WORK/want" "$WORK/rooms")"
expect_out '^  board, dead squares marked x:$' "show --rooms keeps the usual output"

# --deadlocks: on the demo's level 4 a box pushed onto the top row can only
# move along it (the player can never stand above it), so the row is a trap
# for its two goals; the rest of the room, which no box of the row can come
# back to, must hold at least as many boxes as its own two goals.
run "$KEEPER" show "$DEMO" --level 4 --deadlocks
expect_rc 0 "show --deadlocks"
sed -n '/^  reversible regions: /,$p' "$WORK/out" > "$WORK/sets"
cat > "$WORK/want" <<'END'
  reversible regions: 2; deadlock sets: 1 trap, 1 source set
  board, regions drawn as letters (dead squares x):
   ########
   #xaaaax#
   #b#bb#b#
  ##bbbbbb##
  #xbbbbbbx#
  #xxxxxxxx#
  ##########
  trap of region a: 4 squares, at most 2 boxes
   ########
   # %%%% #
   # #..# #
  ##  $$  ##
  #  $  $  #
  #   @    #
  ##########
  source set of region b: 16 squares, at least 2 boxes
   ########
   #  ..  #
   #%#%%#%#
  ##%%%%%%##
  # %%%%%% #
  #   @    #
  ##########
END
cmp -s "$WORK/sets" "$WORK/want" && pass || fail "show --deadlocks: $(diff "$WORK/want" "$WORK/sets")"
run "$KEEPER" show "$DEMO" --level 4 --deadlocks --html "$WORK/x.html"
expect_rc 2 "show --deadlocks with --html: usage error"

run "$KEEPER" show "$DEMO" --level 6 --rooms
expect_rc 0 "show --rooms, no room"
expect_out '^  rooms: 0 rooms, 0 links$' "show --rooms: a level without rooms"
expect_no_out '^  link ' "show --rooms: no links without rooms"

run "$KEEPER" show "$DEMO" --level 3
expect_no_out '^  rooms: ' "show without --rooms prints no rooms"

# 72 rooms of 2x3 squares (8 bands of 9, doors between them): more than
# the 70 the feature handles.
awk 'BEGIN {
    W = 9 * 4 + 1; H = 8 * 3 + 1
    for (r = 0; r < H; r++) {
        row = ""
        for (c = 0; c < W; c++) {
            ch = "#"; rr = r % 3; cc = c % 4
            if (r == H - 1 || c == W - 1) ch = "#"
            else if (rr != 0 && cc != 0) ch = " "
            else if (rr == 1 && cc == 0 && c > 0) ch = " "
            else if (rr == 0 && r > 0 && c == 1) ch = " "
            if (r == 1 && c == 1) ch = "@"
            if (r == 1 && c == 2) ch = "$"
            if (r == 1 && c == 3) ch = "."
            row = row ch
        }
        print row
    }
}' > "$WORK/many.xsb"
run "$KEEPER" show "$WORK/many.xsb" --rooms
expect_rc 0 "show --rooms, too many rooms"
expect_out '^  rooms: 72 found, more than 70: the room feature is off$' "show --rooms: the feature off past 70 rooms"

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

# --- zones: printed for levels whose boxes never leave their rooms only
run "$KEEPER" show tests/data/zones.xsb
expect_rc 0 "show zones.xsb"
n=$(grep -c '^  zones: 2 that boxes never leave, solved one at a time first; boxes per zone: 2 2$' "$WORK/out")
[ "$n" -eq 2 ] && pass || fail "show: $n levels with their zones, expected 2: $(grep zones "$WORK/out")"
expect_out '^  zones: 2 that boxes never leave, solved one at a time first; boxes per zone: 5 2$' "show: Shut In's zones"
run "$KEEPER" show levels/demo.xsb
expect_no_out '  zones:' "show demo: no level splits into zones"

finish
