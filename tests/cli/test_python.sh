#!/bin/sh
# test_python.sh: the Python package (python/): built from the tree's own
# sources with the machine's Python (headers and setuptools, nothing
# downloaded), then its unittest suite (python/tests) run against it, each
# test counted here; then the README's install command (pip install
# --no-build-isolation ./python, in a virtual environment) where venv and
# pip are there. Skips visibly when no Python can build C extensions.
. tests/cli/lib.sh

# a python3 with its headers and setuptools: the one on PATH, else Debian's
can_build() {
    "$1" -c 'import os, sys, sysconfig, setuptools
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' \
        > /dev/null 2>&1
}
PY=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" > /dev/null 2>&1 && can_build "$p"; then
        PY=$p
        break
    fi
done
if [ -z "$PY" ]; then
    skip "no python3 with its headers and setuptools (Debian: python3-dev python3-setuptools): the Python package is not tested"
    finish
    exit 0
fi

if "$PY" python/setup.py -q build --build-base "$WORK/b" --build-lib "$WORK/lib" -j 2 \
    > "$WORK/build.log" 2>&1; then
    pass
else
    fail "building the Python package with $PY: $(tail -n 5 "$WORK/build.log")"
    finish
    exit 0
fi
grep -i 'warning' "$WORK/build.log" | grep -v byte-compil > "$WORK/warn"
[ -s "$WORK/warn" ] && fail "the extension builds with warnings: $(head -n 3 "$WORK/warn")" || pass

# the suite, one line per test (-v): ok, FAIL, ERROR, skipped
case "$KEEPER" in
/*) exe=$KEEPER ;;
*) exe="$(pwd)/$KEEPER" ;;
esac
KEEPER="$exe" PYTHONPATH="$WORK/lib" "$PY" -m unittest discover -s python/tests -v \
    > "$WORK/ut.log" 2>&1
rc=$?
n_ok=$(grep -c '\.\.\. ok$' "$WORK/ut.log")
n_bad=$(grep -Ec '\.\.\. (FAIL|ERROR)$' "$WORK/ut.log")
i=0
while [ "$i" -lt "$n_ok" ]; do pass; i=$((i + 1)); done
grep -E '\.\.\. (FAIL|ERROR)$' "$WORK/ut.log" | while read -r line; do echo "FAIL: $line"; done
T_FAIL=$((T_FAIL + n_bad))
grep -E "\.\.\. skipped" "$WORK/ut.log" | while read -r line; do echo "SKIP: $line"; done
T_SKIP=$((T_SKIP + $(grep -c '\.\.\. skipped' "$WORK/ut.log")))
if [ "$n_bad" -gt 0 ]; then
    sed -n '/^=\{20,\}/,$p' "$WORK/ut.log" | head -n 40
fi
[ "$rc" -eq 0 ] && pass || fail "python -m unittest exited with $rc: $(tail -n 5 "$WORK/ut.log")"
[ "$n_ok" -ge 10 ] && pass || fail "only $n_ok Python tests passed: $(tail -n 5 "$WORK/ut.log")"

# README: pip install --no-build-isolation ./python, in a virtual
# environment (offline: the machine's setuptools and wheel), with the first
# Python that has venv, pip and wheel
VPY=""
for p in "$PY" /usr/bin/python3; do
    command -v "$p" > /dev/null 2>&1 || continue
    rm -rf "$WORK/venv"
    if "$p" -m venv --system-site-packages "$WORK/venv" > /dev/null 2>&1 &&
        "$WORK/venv/bin/python" -m pip --version > /dev/null 2>&1 &&
        "$WORK/venv/bin/python" -c 'import wheel, setuptools' > /dev/null 2>&1; then
        VPY=$p
        break
    fi
done
if [ -n "$VPY" ]; then
    if "$WORK/venv/bin/python" -m pip install -q --no-build-isolation --no-index ./python \
        > "$WORK/pip.log" 2>&1; then
        pass
        top=$(pwd)
        out=$(cd "$WORK" && "$WORK/venv/bin/python" -c 'import keeper, sys
lv = keeper.load(sys.argv[1])[0]
r = keeper.solve(lv, time=10)
print(r.status, keeper.verify(lv, r.lurd).pushes)' "$top/levels/demo.xsb" 2>&1)
        [ "$out" = "solved 5" ] && pass || fail "the package pip installed ($VPY): $out"
    else
        fail "pip install --no-build-isolation ./python ($VPY): $(tail -n 5 "$WORK/pip.log")"
    fi
    rm -rf python/build python/*.egg-info
else
    skip "no python3 with venv, pip and wheel (Debian: python3-venv python3-pip python3-wheel): the README's pip install is not tested"
fi

finish
