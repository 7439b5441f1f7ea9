#!/bin/sh
# test_html.sh: the solution player page (keeper show --html, keeper solve
# --html). The page itself is checked as a file (self-contained, every
# level in it, size); then, when a Chromium is installed, in the browser:
# the page replays the solution to the end (read back through the DOM:
# every box on a goal, the counters right), a solution that does not solve
# its level is flagged, and screenshots of the start and the end are
# checked pixel by pixel (the board drawn, boxes on goals at the end).
# Without a browser those checks are skipped, visibly.
. "$(dirname "$0")/lib.sh"
DEMO=levels/demo.xsb

# --- the page as a file
run "$KEEPER" solve "$DEMO" --format sok --quiet --html "$WORK/solve.html" --output "$WORK/demo.sok"
expect_rc 0 "solve --html: exit status"
[ -s "$WORK/solve.html" ] && pass || fail "solve --html: no page written"
run "$KEEPER" show "$DEMO" "$WORK/demo.sok" --html "$WORK/demo.html"
expect_rc 0 "show --html: exit status"
expect_err "wrote .*demo.html: 8 levels, 8 with a solution" "show --html: the summary line"
P="$WORK/demo.html"
grep -q '^<!DOCTYPE html>' "$P" && pass || fail "show --html: not an HTML page"
# self-contained: no address of any other file or site, no external script or style
if grep -Eiq '(src|href)=|https?://|@import|url\(' "$P"; then
    fail "show --html: the page refers to another file: $(grep -Eio '(src|href)=[^ >]*|https?://[^ "]*|@import|url\(' "$P" | head -3)"
else
    pass
fi
n=$(grep -c '^{n:' "$P")
[ "$n" -eq 8 ] && pass || fail "show --html: $n levels in the page, expected 8"
# the same page from the solutions saved in the file itself
run "$KEEPER" show "$WORK/demo.sok" --html "$WORK/own.html" --level 3
expect_rc 0 "show --html from the file's own sections"
expect_err "1 level, 1 with a solution" "show --html --level 3: one level"
# a level without a solution is still shown; an invalid solution is an error
printf '%s\n' "RRRR" > "$WORK/bad.lurd"
run "$KEEPER" show "$DEMO" "$WORK/bad.lurd" --html "$WORK/bad.html" --level 1
expect_rc 1 "show --html with an invalid solution: exit status 1"
expect_err "bad.lurd:1: error: level 1" "show --html: FILE:LINE: error for the invalid solution"
expect_err "1 level, 0 with a solution" "show --html: the level is written without the solution"
# usage errors
run "$KEEPER" show "$DEMO" "$WORK/demo.sok"
expect_rc 2 "show FILE SOLUTIONS without --html"
run "$KEEPER" show "$DEMO" --html
expect_rc 2 "show --html without a file name"
run "$KEEPER" show "$DEMO" --html "$WORK/no/such/dir/x.html"
expect_rc 2 "show --html: unwritable file"
expect_err "x.html: error: cannot write" "show --html: unwritable file, the message"

# --- a 90-level collection with solutions stays small
if have_shared && [ -f "$SHARED/peers/festival31-xsokoban90-2t-20s-solutions.csv" ]; then
    run "$KEEPER" show "$LEVELS/xsokoban90.xsb" "$SHARED/peers/festival31-xsokoban90-2t-20s-solutions.csv" \
        --html "$WORK/xs.html"
    expect_rc 0 "show --html XSokoban with Festival's solutions"
    expect_err "90 levels, 88 with a solution" "show --html XSokoban: 88 solutions"
    size=$(wc -c < "$WORK/xs.html")
    [ "$size" -lt 200000 ] && pass || fail "show --html XSokoban: $size bytes, at most 200,000 wanted"
else
    skip "show --html on XSokoban: shared levels or peers missing"
fi

# --- in the browser
BROWSER=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" > /dev/null 2>&1 && { BROWSER=$b; break; }
done
if [ -z "$BROWSER" ] || ! command -v python3 > /dev/null 2>&1; then
    skip "the page in a browser: no chromium (or python3) installed"
    finish
    exit 0
fi
browse() { # browse PAGE#FRAGMENT: the DOM after the page's script ran
    timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --dump-dom "file://$1" 2> /dev/null
}
shot() { # shot PAGE#FRAGMENT FILE.png
    timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1000,700 --screenshot="$2" "file://$1" > /dev/null 2>&1
}
status_attr() { # status_attr NAME: an attribute of #status in $WORK/dom
    sed -n 's/.*<div id="status"[^>]*data-'"$1"'="\([^"]*\)".*/\1/p' "$WORK/dom" | head -n 1
}
# XSokoban 1 (or, without the shared levels, demo level 8): solved by keeper,
# played to the end in the page
if have_shared; then
    "$KEEPER" solve "$LEVELS/xsokoban90.xsb" --level 1 --quiet --format lurd --html "$WORK/x1.html" > "$WORK/x1.lurd" 2> /dev/null
    LV=1
else
    skip "XSokoban 1 in the browser: shared levels missing (demo level 8 instead)"
    "$KEEPER" solve "$DEMO" --level 8 --quiet --format lurd --html "$WORK/x1.html" > "$WORK/x1.lurd" 2> /dev/null
    LV=8
fi
moves=$(tr -d '\n' < "$WORK/x1.lurd" | wc -c)
pushes=$(tr -d '\n' < "$WORK/x1.lurd" | tr -cd 'LURD' | wc -c)
browse "$WORK/x1.html#level=$LV&step=end" > "$WORK/dom"
[ "$(status_attr valid)" = 1 ] && pass || fail "browser: the page's replay does not accept the solution (valid=$(status_attr valid))"
[ "$(status_attr solved)" = 1 ] && pass || fail "browser: at the end not every box is on a goal"
[ "$(status_attr moves)" = "$moves" ] && pass || fail "browser: moves $(status_attr moves) at the end, expected $moves"
[ "$(status_attr pushes)" = "$pushes" ] && pass || fail "browser: pushes $(status_attr pushes) at the end, expected $pushes"
[ "$(status_attr total-moves)" = "$moves" ] && pass || fail "browser: total moves $(status_attr total-moves)"
browse "$WORK/x1.html#level=$LV&step=0" > "$WORK/dom"
[ "$(status_attr solved)" = 0 ] && [ "$(status_attr moves)" = 0 ] && pass ||
    fail "browser: at the start: solved=$(status_attr solved) moves=$(status_attr moves)"
browse "$WORK/x1.html#level=$LV&step=10" > "$WORK/dom"
[ "$(status_attr moves)" = 10 ] && pass || fail "browser: step=10 shows move $(status_attr moves)"
# the page checks the solution itself: a tampered one is flagged
sed 's/,s:"[^"]*"/,s:"llll"/' "$WORK/x1.html" > "$WORK/tampered.html"
browse "$WORK/tampered.html#level=$LV&step=end" > "$WORK/dom"
[ "$(status_attr valid)" = 0 ] && pass || fail "browser: a solution that does not solve is not flagged"
grep -q 'class="bad"' "$WORK/dom" && grep -q 'does not solve the level' "$WORK/dom" && pass ||
    fail "browser: no error shown for a solution that does not solve"
# a level without a solution
browse "$WORK/bad.html" > "$WORK/dom"
[ "$(status_attr valid)" = none ] && grep -q 'No solution for this level' "$WORK/dom" && pass ||
    fail "browser: a level without a solution is not noted"
# screenshots: the board drawn at the start, every box on a goal at the end
shot "$WORK/x1.html#level=$LV&step=0" "$WORK/start.png"
shot "$WORK/x1.html#level=$LV&step=end" "$WORK/end.png"
if [ -s "$WORK/start.png" ] && [ -s "$WORK/end.png" ]; then
    pass
    s=$(python3 tests/cli/png_colors.py "$WORK/start.png")
    e=$(python3 tests/cli/png_colors.py "$WORK/end.png")
    val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
    distinct=$(echo "$s" | cut -d' ' -f3)
    [ "$distinct" -gt 20 ] && pass || fail "screenshot of the start: $distinct colours, the page looks blank"
    [ "$(val "$s" wall)" -gt 5000 ] && [ "$(val "$s" floor)" -gt 5000 ] && [ "$(val "$s" player)" -gt 100 ] &&
        pass || fail "screenshot of the start: walls, floor or player missing ($s)"
    [ "$(val "$s" box)" -gt 500 ] && pass || fail "screenshot of the start: no box off goal drawn ($s)"
    [ "$(val "$e" box)" -eq 0 ] && [ "$(val "$e" boxgoal)" -gt 500 ] && pass ||
        fail "screenshot of the end: boxes off goal or none on goals ($e)"
    [ -n "$KEEPER_HTML_SHOTS" ] && cp "$WORK/start.png" "$WORK/end.png" "$KEEPER_HTML_SHOTS/"
else
    fail "browser: no screenshot written"
fi
finish
