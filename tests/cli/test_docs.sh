#!/bin/sh
# test_docs.sh: the documentation keeps up with the program: the manual page
# documents every solver option of src/util/options.h, every command and
# every JSON field keeper writes, and renders without warnings; README,
# LICENSE and the pkg-config template have what they must.
. tests/cli/lib.sh

MAN=docs/keeper.1
FORMATS=docs/formats.md

for f in README.md LICENSE $MAN docs/keeper.pc.in $FORMATS; do
    [ -s "$f" ] && pass || fail "$f is missing"
done

# --- manual page
version=$(sed -n 's/^#define KEEPER_VERSION "\(.*\)"/\1/p' include/keeper.h)
grep -q "^\.TH KEEPER 1 .*\"keeper $version\"" $MAN && pass || fail "$MAN: .TH does not name keeper $version"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS '"FILE FORMATS"' METRICS '"EXIT STATUS"' EXAMPLES; do
    grep -q "^\.SH $s" $MAN && pass || fail "$MAN has no section $s"
done
for c in solve verify show bench help; do
    grep -Eq "^\.B(I)? \"?$c" $MAN && pass || fail "$MAN does not describe the command $c"
done
# Every option of the table, written with roff hyphens: \-\-dead\-squares.
opts=$(sed -n 's/^ *X(\([a-z_]*\),.*/\1/p' src/util/options.h)
[ -n "$opts" ] || fail "no options found in src/util/options.h"
for o in $opts; do
    roff=$(printf '%s' "$o" | sed 's/_/\\\\-/g')
    grep -q -- "\\\\-\\\\-$roff" $MAN && pass || fail "$MAN does not document --$(echo $o | tr _ -)"
done
for o in level levels output format quiet verbose audit resume; do
    grep -q -- "\\\\-\\\\-$o" $MAN && pass || fail "$MAN does not document --$o"
done
# Every JSON field of solve and verify, in the manual and in formats.md.
run "$KEEPER" solve levels/demo.xsb --search bfs --level 1 --format jsonl
keys=$(sed 's/"[^"]*":/\n&\n/g' "$WORK/out" | sed -n 's/^"\([a-z_]*\)":$/\1/p')
run "$KEEPER" verify tests/data/cli_verify_bad.sok --format jsonl --audit
keys="$keys $(sed 's/"[^"]*":/\n&\n/g' "$WORK/out" | sed -n 's/^"\([a-z_]*\)":$/\1/p')"
for k in $(echo $keys | tr ' ' '\n' | sort -u); do
    grep -q "$k" $MAN && pass || fail "$MAN does not document the JSON field $k"
    grep -q "\`$k\`" $FORMATS && pass || fail "$FORMATS does not document the JSON field $k"
done
for m in "box lines" "box changes" "pushing sessions" "player lines"; do
    grep -q "$m" $MAN && pass || fail "$MAN does not define the metric $m"
    grep -q "| $m |" $FORMATS && pass || fail "$FORMATS does not define the metric $m"
done
if command -v groff > /dev/null 2>&1; then
    warnings=$(groff -man -ww -z $MAN 2>&1)
    [ -z "$warnings" ] && pass || fail "groff warns about $MAN: $warnings"
else
    skip "groff not installed: rendering of $MAN not checked"
fi

# Every reason a level can end with (search.c's names; "stopped" is a
# member halted by another inside the portfolio, never a level's), and
# keeper-mpi's "worker lost", in formats.md, the manual and README.
reasons=$(sed -n 's/^ *case STOP_[A-Z_]*: return "\([a-z ]\+\)";/\1/p' src/search/search.c | grep -v '^stopped$')
[ "$(echo "$reasons" | wc -l)" -ge 6 ] && pass || fail "no stop reasons found in src/search/search.c"
for r in $(echo "$reasons" | tr ' ' '_') worker_lost; do
    r=$(echo "$r" | tr _ ' ')
    grep -q "\`$r\`" $FORMATS && pass || fail "$FORMATS does not list the reason '$r'"
    grep -q "\`$r\`" README.md && pass || fail "README.md does not list the reason '$r'"
    grep -q "$r" $MAN && pass || fail "$MAN does not list the reason '$r'"
done

# --- README, LICENSE, pkg-config template
for p in "make demo" "make test" "keeper solve" "keeper verify" "keeper show" "--format jsonl" \
    "Exit status" "XSB" "SOK" "LURD" "CSV"; do
    grep -q -- "$p" README.md && pass || fail "README.md does not mention '$p'"
done
grep -Eq '^\| 0 \|' README.md && grep -Eq '^\| 1 \|' README.md && grep -Eq '^\| 2 \|' README.md && pass ||
    fail "README.md has no exit status table"
# README's sample run is what the program prints now: every line of the
# sample (but the "..." row) is a line of `keeper solve levels/demo.xsb`'s
# table, times aside (they vary).
untime() { sed -E 's/[0-9]+\.[0-9]+ ?s/T/g; s/ +$//'; }
awk '/^A run of `keeper solve` prints/ { on = 1; next } on && /^```/ { if (++f == 2) exit; next } on && f == 1' README.md |
    grep -v '^ *\.\.\.$' | untime > "$WORK/sample"
[ "$(wc -l < "$WORK/sample")" -ge 4 ] && pass || fail "README.md: the sample run was not found"
"$KEEPER" solve levels/demo.xsb 2>&1 > /dev/null | untime > "$WORK/actual"
while IFS= read -r line; do
    grep -qxF -- "$line" "$WORK/actual" && pass || fail "README.md's sample run: '$line' is not what keeper prints"
done < "$WORK/sample"
# ... and the sample JSON line is level 1's object, the time aside
awk '/^With `--format jsonl`, each level is one JSON object/ { on = 1; next } on && /^```/ { if (++f == 2) exit; next } on && f == 1' README.md |
    sed 's/"seconds":[0-9.]*/"seconds":T/' > "$WORK/jsample"
"$KEEPER" solve levels/demo.xsb --level 1 --format jsonl 2> /dev/null | sed 's/"seconds":[0-9.]*/"seconds":T/' > "$WORK/jactual"
[ -s "$WORK/jsample" ] && cmp -s "$WORK/jsample" "$WORK/jactual" && pass ||
    fail "README.md's sample JSON line is not what keeper prints for level 1"
head -n 1 LICENSE | grep -q "MIT License" && pass || fail "LICENSE is not the MIT license"
grep -q "^Copyright (c) [0-9]* the keeper authors$" LICENSE && pass || fail "LICENSE: copyright line"
for p in '^prefix=@PREFIX@$' '^Name: keeper$' '^Description: ' '^Version: @VERSION@$' \
    '^Libs: -L\${libdir} -lkeeper -lpthread -lm$' '^Cflags: -I\${includedir}$'; do
    grep -q "$p" docs/keeper.pc.in && pass || fail "docs/keeper.pc.in lacks /$p/"
done

finish
