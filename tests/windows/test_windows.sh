#!/bin/sh
# test_windows.sh (make test-windows, run by .ci/run; not part of make
# test): the Windows builds (make windows): keeper.exe, the same
# solutions and positions as the Linux build; and the solver plugin DLL, loaded as YASC and
# Sokoban++ load it (LoadLibrary, GetProcAddress by plain name) by a test
# host cross-built beside it (tests/plugin/plugin_host.c), run under Wine:
# the plugin's name, constraints and exports; SolveEx on the demo levels and
# a Microban sample, every solution replayed here by keeper verify; the
# settings file beside the DLL (a time limit of 1 s gives TIMEOUT); the
# host's callback stopping a search and Terminate() from another thread
# (TERMINATED_BY_USER); Optimize (shorter, verified); bad boards; the old
# Solve call. The 64-bit DLL needs wine64, the 32-bit one wine32 as well;
# what the machine lacks (mingw-w64, Wine) is skipped visibly.
. tests/cli/lib.sh
SLACK_MS=${KEEPER_TEST_SLACK_MS:-0}

if ! command -v x86_64-w64-mingw32-gcc > /dev/null 2>&1 ||
    ! command -v i686-w64-mingw32-gcc > /dev/null 2>&1; then
    skip "mingw-w64 not installed (Debian: gcc-mingw-w64-x86-64 gcc-mingw-w64-i686): the plugin DLL is not built"
    finish
    exit 0
fi
# A make of its own, not a part of the make running the tests.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s windows > "$WORK/make.log" 2>&1; then
    pass
else
    fail "make windows: $(tail -n 5 "$WORK/make.log")"
    finish
    exit 0
fi
grep -E 'warning|error' "$WORK/make.log" > "$WORK/warn"
[ -s "$WORK/warn" ] && fail "make windows warns: $(head -n 3 "$WORK/warn")" || pass

# make dist: the Windows zip holds both widths' DLL and keeper.exe, the
# readme and the licence; the source tarball holds the tree
if command -v python3 > /dev/null 2>&1 && command -v git > /dev/null 2>&1 &&
    git rev-parse HEAD > /dev/null 2>&1; then
    if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s dist > "$WORK/dist.log" 2>&1; then
        python3 -m zipfile -l build/dist/keeper-*-windows.zip > "$WORK/zip" 2>&1
        for f in 32-bit/keeper.dll 32-bit/keeper.exe 64-bit/keeper.dll 64-bit/keeper.exe README.txt \
            LICENSE.txt; do
            grep -q "windows/$f " "$WORK/zip" && pass || fail "make dist: the zip lacks $f"
        done
        tar tzf build/dist/keeper-*[0-9].tar.gz 2> /dev/null | grep -q '/src/driver/run.c$' && pass ||
            fail "make dist: the source tarball lacks src/driver/run.c"
    else
        fail "make dist: $(tail -n 3 "$WORK/dist.log")"
    fi
else
    skip "python3 or git missing: make dist not tested"
fi

# the exports: plain names, no @N decoration
for bits in 64 32; do
    od=x86_64-w64-mingw32-objdump
    [ $bits = 32 ] && od=i686-w64-mingw32-objdump
    "$od" -p "build/win$bits/keeper.dll" > "$WORK/exports" 2>&1
    for fn in GetPluginName GetConstraints SolveEx Solve Optimize IsSupportedOptimization \
        Configure ShowAbout Terminate; do
        grep -Eq "[[:space:]]$fn\$" "$WORK/exports" && pass ||
            fail "win$bits/keeper.dll does not export $fn by its plain name"
    done
    grep -q '@[0-9]' "$WORK/exports" && fail "win$bits/keeper.dll exports decorated names" || pass
done

if ! command -v wine > /dev/null 2>&1; then
    skip "wine not installed (Debian: wine64, and wine32 for the 32-bit DLL): the DLLs are built, not run"
    finish
    exit 0
fi
export WINEDEBUG=-all
export WINEPREFIX="${KEEPER_WINEPREFIX:-$HOME/.wine-keeper-tests}"

# The loader of each width. Debian's `wine` runs the 32-bit loader whenever
# wine32 is installed (it hands 64-bit programs on to wine64), so on a
# kernel that cannot run 32-bit programs (no IA32 emulation: "Exec format
# error") it fails for both widths: the 64-bit programs go to wine64
# directly where it is found.
WINE64=wine
if [ -x /usr/lib/wine/wine64 ]; then
    WINE64=/usr/lib/wine/wine64
    export WINELOADER=/usr/lib/wine/wine64
fi

# wrun ARGS...: runs a Windows program under the loader of $bits
wrun() {
    if [ "$bits" = 64 ]; then
        "$WINE64" "$@"
    else
        env -u WINELOADER wine "$@"
    fi
}

# w FILE ARGS...: wrun, its output (without the console's carriage
# returns) in FILE
w() {
    out=$1
    shift
    wrun "$@" 2>&1 | tr -d '\r' > "$out"
}

# stopped KIND WHAT: the host's KIND run on demo-hard's level 1 ends
# TERMINATED_BY_USER (9) within 0.5 s of the request (WHAT, for messages);
# $host, $dir and $bits name the build under test
stopped() {
    w "$WORK/$1" "$host" "$dir/keeper.dll" "$1" levels/demo-hard.xsb
    grep -q '^level 1 rc 9 ' "$WORK/$1" && pass ||
        fail "win$bits: $2 did not stop the search: $(head -n 1 "$WORK/$1")"
    ms=$(sed -n 's/^time 1: .*, stopped \([0-9]*\) ms after the request/\1/p' "$WORK/$1")
    [ -n "$ms" ] && [ "$ms" -le $((500 + SLACK_MS)) ] && pass ||
        fail "win$bits: the search stopped ${ms:-?} ms after $2 (limit 500)"
}

# solutions: the LURD lines of "level N rc 0 ..." lines, one per level
lurds() { sed -n 's/^level [0-9]* rc 0 flags [0-9]* moves [0-9]* pushes [0-9]* callbacks [0-9]* //p' "$1"; }

for bits in 64 32; do
    dir="$WORK/win$bits"
    mkdir -p "$dir"
    cp "build/win$bits/keeper.dll" "build/win$bits/plugin_host.exe" "build/win$bits/keeper.exe" "$dir/"
    printf '[keeper]\ntime=30\nmemory=512\nthreads=2\noptimize_time=5\n' > "$dir/keeper.ini"
    host="$dir/plugin_host.exe"
    w "$WORK/names" "$host" "$dir/keeper.dll" names
    if ! grep -q '^exports ok' "$WORK/names"; then
        if [ $bits = 32 ]; then
            if grep -q 'Exec format error' "$WORK/names"; then
                skip "this kernel cannot run 32-bit programs (no IA32 emulation: wine32's loader gives 'Exec format error'): the 32-bit DLL is built, not run"
            else
                skip "wine cannot run 32-bit programs here (Debian: wine32 through the i386 architecture): the 32-bit DLL is built, not run"
            fi
            continue
        fi
        fail "win$bits: the host cannot load the DLL: $(head -c 300 "$WORK/names")"
        continue
    fi
    grep -q "^name keeper " "$WORK/names" && pass || fail "win$bits: GetPluginName: $(cat "$WORK/names")"
    grep -q "^constraints 256 256 1024" "$WORK/names" && pass || fail "win$bits: GetConstraints"
    grep -q "^optimizations moves/pushes 1 pushes/moves 1 boxlines 0" "$WORK/names" && pass ||
        fail "win$bits: IsSupportedOptimization: $(grep optim "$WORK/names")"
    grep -q "^yasc optimizations moves/pushes 1 pushes/moves 1 playerlines 0" "$WORK/names" && pass ||
        fail "win$bits: IsSupportedOptimization with YASC's flag table: $(grep yasc "$WORK/names")"
    grep -q "^exports ok" "$WORK/names" && pass || fail "win$bits: exports"

    # the demo levels, replayed here
    w "$WORK/demo" "$host" "$dir/keeper.dll" solve levels/demo.xsb
    [ "$(grep -c '^level [0-9]* rc 0 flags 1 ' "$WORK/demo")" -eq 8 ] && pass ||
        fail "win$bits: SolveEx on the demo: $(grep -v '^level .* rc 0 ' "$WORK/demo" | head -n 3)"
    lurds "$WORK/demo" > "$WORK/demo.lurd"
    run "$KEEPER" verify levels/demo.xsb "$WORK/demo.lurd"
    expect_rc 0 "win$bits: the demo solutions replay"
    # the status record's moves and pushes are the solution's (its length,
    # its capitals), on every level
    bad=$(awk '/^level [0-9]* rc 0 / { l = $NF; p = l; gsub(/[^A-Z]/, "", p);
                 if ($8 != length(l) || $10 != length(p)) print $2 }' "$WORK/demo")
    [ -z "$bad" ] && pass || fail "win$bits: the status record's moves or pushes are wrong on levels $bad"

    # a Microban sample
    if have_shared; then
        # the first 20 levels: lines up to the 21st board
        awk '/^[-_ #@+$*.]*#[-_ #@+$*.]*$/ { if (!inb) n++; inb = 1 } !/^[-_ #@+$*.]*#[-_ #@+$*.]*$/ { inb = 0 }
             n <= 20' "$LEVELS/microban155.xsb" > "$WORK/mb.xsb"
        w "$WORK/mb" "$host" "$dir/keeper.dll" solve "$WORK/mb.xsb"
        nmb=$(grep -c '^level ' "$WORK/mb")
        [ "$nmb" -ge 15 ] && [ "$(grep -c '^level [0-9]* rc 0 ' "$WORK/mb")" -eq "$nmb" ] && pass ||
            fail "win$bits: SolveEx on $nmb Microban levels: $(grep -v ' rc 0 ' "$WORK/mb" | head -n 2)"
        lurds "$WORK/mb" > "$WORK/mb.lurd"
        run "$KEEPER" verify "$WORK/mb.xsb" "$WORK/mb.lurd"
        expect_rc 0 "win$bits: the Microban solutions replay"
    else
        skip "win$bits: $LEVELS not found: the Microban sample is not run"
    fi

    # the host's callback stops the search; Terminate() from another thread
    stopped cancel "a callback returning 1"
    grep -q '^level 1 rc 9 .* callbacks 3 ' "$WORK/cancel" && pass ||
        fail "win$bits: the callback was not asked 3 times: $(head -n 1 "$WORK/cancel")"
    stopped terminate "Terminate()"

    # the settings file: time=1 gives TIMEOUT on a level that takes longer
    printf '[keeper]\ntime=1\nthreads=1\n' > "$dir/keeper.ini"
    w "$WORK/timeout" "$host" "$dir/keeper.dll" solve levels/demo-hard.xsb
    grep -q '^level 1 rc 8 ' "$WORK/timeout" && pass ||
        fail "win$bits: keeper.ini's time=1 did not give TIMEOUT: $(head -n 1 "$WORK/timeout")"
    ms=$(sed -n 's/^time 1: \([0-9]*\) ms.*/\1/p' "$WORK/timeout")
    [ -n "$ms" ] && [ "$ms" -le $((1500 + SLACK_MS)) ] && pass ||
        fail "win$bits: a 1 s limit returned after ${ms:-?} ms (limit 1500)"
    printf '[keeper]\ntime=30\noptimize_time=5\n' > "$dir/keeper.ini"

    # Optimize: level 8's solution gets shorter and still replays
    slow=$(sed -n 8p "$WORK/demo.lurd")
    w "$WORK/opt" "$host" "$dir/keeper.dll" optimize levels/demo.xsb 8 "$slow"
    moves=$(sed -n 's/^optimize rc 0 moves \([0-9]*\) .*/\1/p' "$WORK/opt")
    [ -n "$moves" ] && [ "$moves" -lt "$(printf %s "$slow" | wc -c)" ] && pass ||
        fail "win$bits: Optimize: $(head -n 2 "$WORK/opt")"
    { printf '\n\n\n\n\n\n\n'; sed -n 's/^optimize rc 0 moves [0-9]* pushes [0-9]* //p' "$WORK/opt"; } \
        > "$WORK/opt.lurd"
    run "$KEEPER" verify levels/demo.xsb "$WORK/opt.lurd" --level 8
    expect_rc 0 "win$bits: the optimized solution replays"
    w "$WORK/optp" "$host" "$dir/keeper.dll" optimize levels/demo.xsb 8 "$slow" pushes
    grep -q '^optimize rc 0 ' "$WORK/optp" && pass || fail "win$bits: Optimize pushes first: $(head -n 1 "$WORK/optp")"

    # keeper.exe: the command line, the same solutions and positions as the
    # Linux build's on one thread; a bad file's error and exit status
    w "$WORK/exe.lurd" "$dir/keeper.exe" solve levels/demo.xsb --format lurd -q
    "$KEEPER" solve levels/demo.xsb --format lurd -q > "$WORK/linux.lurd" 2> /dev/null
    cmp -s "$WORK/exe.lurd" "$WORK/linux.lurd" && pass ||
        fail "win$bits: keeper.exe's solutions differ from the Linux build's: $(head -n 2 "$WORK/exe.lurd")"
    w "$WORK/exe.jsonl" "$dir/keeper.exe" solve levels/demo.xsb --format jsonl -q
    "$KEEPER" solve levels/demo.xsb --format jsonl -q 2> /dev/null > "$WORK/linux.jsonl"
    sed 's/"seconds":[0-9.]*//' "$WORK/exe.jsonl" > "$WORK/a"
    sed 's/"seconds":[0-9.]*//' "$WORK/linux.jsonl" > "$WORK/b"
    cmp -s "$WORK/a" "$WORK/b" && pass || fail "win$bits: keeper.exe's JSON lines differ (but the time)"
    w "$WORK/exe.verify" "$dir/keeper.exe" verify levels/demo.xsb "$WORK/linux.lurd"
    grep -q '8 valid' "$WORK/exe.verify" && pass ||
        fail "win$bits: keeper.exe verify: $(tail -n 2 "$WORK/exe.verify")"
    wrun "$dir/keeper.exe" solve no-such-file.xsb > "$WORK/exe.err" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q 'no-such-file.xsb.*error' "$WORK/exe.err" && pass ||
        fail "win$bits: keeper.exe on a missing file: exit $rc, $(head -c 200 "$WORK/exe.err")"

    # bad boards and the old Solve
    w "$WORK/bad" "$host" "$dir/keeper.dll" bad
    grep -q '^too small rc 1$' "$WORK/bad" && pass || fail "win$bits: a 2x2 board: $(cat "$WORK/bad")"
    grep -q '^not closed rc 2$' "$WORK/bad" && pass || fail "win$bits: an open board"
    grep -q '^buffer too small rc 5$' "$WORK/bad" && pass || fail "win$bits: a short solution buffer"
    grep -q '^unsolvable rc 3$' "$WORK/bad" && pass || fail "win$bits: an unsolvable board: $(grep unsolvable "$WORK/bad")"
    w "$WORK/old" "$host" "$dir/keeper.dll" old levels/demo.xsb
    sed -n 's/^old rc 0 //p' "$WORK/old" > "$WORK/old.lurd"
    run "$KEEPER" verify levels/demo.xsb "$WORK/old.lurd" --level 1
    expect_rc 0 "win$bits: the old Solve's solution replays"
done

finish
