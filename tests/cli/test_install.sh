#!/bin/sh
# test_install.sh: "make install" into a staging directory puts the binary,
# the header, the library, the pkg-config file and the manual page in place,
# and a program built with "pkg-config --cflags --libs keeper" against the
# installed library solves a level.
. tests/cli/lib.sh

if ! command -v make > /dev/null 2>&1; then
    skip "make not installed: make install not tested"
    finish
    exit 0
fi
# A make of its own, not a part of the make running the tests.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR="$WORK/stage" PREFIX=/opt/keeper \
    > "$WORK/install.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass || fail "make install failed ($rc): $(tail -n 5 "$WORK/install.log")"
root="$WORK/stage/opt/keeper"
for f in bin/keeper include/keeper.h lib/libkeeper.a lib/libkeeper.so lib/pkgconfig/keeper.pc \
    share/man/man1/keeper.1; do
    [ -s "$root/$f" ] && pass || fail "make install did not install $f"
done
[ -x "$root/bin/keeper" ] && pass || fail "the installed keeper is not executable"
# the shared library exports keeper.h's functions and nothing else
if command -v nm > /dev/null 2>&1; then
    nm -D --defined-only "$root/lib/libkeeper.so" | awk '{print $3}' > "$WORK/exports"
    [ "$(grep -c '^keeper_' "$WORK/exports")" -ge 15 ] && pass ||
        fail "libkeeper.so exports $(grep -c '^keeper_' "$WORK/exports") keeper_ functions"
    other=$(grep -v '^keeper_' "$WORK/exports" | grep -v '^_' | head -n 5 | tr '\n' ' ')
    [ -z "$other" ] && pass || fail "libkeeper.so exports more than keeper.h: $other"
    for fn in $(sed -n 's/^KEEPER_API .*[ *]\(keeper_[a-z_]*\)(.*/\1/p' include/keeper.h); do
        grep -qx "$fn" "$WORK/exports" && pass || fail "libkeeper.so does not export $fn"
    done
else
    skip "nm not installed: the exports of libkeeper.so"
fi
# keeper-mpi too, where Open MPI is there to build it (as the Makefile decides)
if command -v mpicc > /dev/null 2>&1 && command -v mpirun > /dev/null 2>&1; then
    [ -x "$root/bin/keeper-mpi" ] && pass || fail "make install did not install keeper-mpi (mpicc is present)"
else
    skip "mpicc or mpirun not found: keeper-mpi is not built, not installed"
fi
run "$root/bin/keeper" --version
expect_rc 0 "the installed keeper runs"
pc="$root/lib/pkgconfig/keeper.pc"
version=$(sed -n 's/^#define KEEPER_VERSION "\(.*\)"/\1/p' include/keeper.h)
grep -q '^prefix=/opt/keeper$' "$pc" && pass || fail "keeper.pc: prefix is not /opt/keeper: $(grep prefix= "$pc")"
grep -q "^Version: $version$" "$pc" && pass || fail "keeper.pc: version is not $version"
grep -q '@' "$pc" && fail "keeper.pc still has @...@ placeholders" || pass

if command -v pkg-config > /dev/null 2>&1 && command -v cc > /dev/null 2>&1; then
    # The .pc file names /opt/keeper; point pkg-config at the staged copy.
    sed "s|^prefix=.*|prefix=$root|" "$pc" > "$WORK/keeper.pc"
    flags=$(PKG_CONFIG_PATH="$WORK" pkg-config --cflags --libs keeper | sed 's/ *$//')
    [ "$flags" = "-I$root/include -L$root/lib -lkeeper -lpthread -lm" ] && pass ||
        fail "pkg-config --cflags --libs keeper: $flags"
    cat > "$WORK/prog.c" << 'EOF'
/* prog.c: solves level 1 of a file with the installed libkeeper. */
#include <keeper.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char *err = NULL;
    keeper_collection *c = argc < 2 ? NULL : keeper_load(argv[1], &err);
    if (!c)
        return 2;
    keeper_options *o = keeper_options_new();
    if (keeper_options_set(o, "search", "bfs") != 0 || keeper_options_set(o, "nosuch", "1") == 0)
        return 3;
    keeper_result r;
    keeper_status st = keeper_solve(c, 1, o, &r);
    keeper_metrics m = {0};
    char why[200];
    int ok = st == KEEPER_SOLVED && keeper_verify(c, 1, r.solution, &m, why, sizeof why);
    printf("%s %ld %ld %s\n", keeper_level_title(c, 1), m.moves, m.pushes, ok ? r.solution : "-");
    keeper_result_free(&r);
    keeper_options_free(o);
    keeper_free(c);
    return ok ? 0 : 1;
}
EOF
    if cc -std=c11 -o "$WORK/prog" "$WORK/prog.c" $flags > "$WORK/cc.log" 2>&1; then
        pass
        # -lkeeper finds libkeeper.so first: the program loads it
        run env LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/prog" levels/demo.xsb
        expect_rc 0 "a program linked with the installed libkeeper"
        expect_out '^Warm-up 14 5 llDurrdLdLUruL$' "the program solves and verifies Warm-up"
    else
        fail "compiling against the installed library: $(head -c 400 "$WORK/cc.log")"
    fi
else
    skip "pkg-config or cc not installed: linking against the installed library"
fi

finish
