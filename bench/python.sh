#!/bin/sh
# bench/python.sh [SECONDS] [THREADS]: the Python package's throughput beside
# the command line's on the Boxoban hard levels (../shared/levels/boxoban/
# hard/*.txt, 3,332 levels, joined into one file in a scratch directory).
#
#   1. keeper solve FILE --threads THREADS --time SECONDS --format lurd -q
#   2. keeper.solve_many(levels, threads=THREADS, time=SECONDS) from Python,
#      every solution replayed by the script's own replay
#
# Prints (and appends to bench/results/boxoban-hard-python.txt) the solved
# counts, the wall times and the ratio of the throughputs (levels per second,
# Python / CLI). Defaults: 20 s per level, 2 threads. The package is built
# into the scratch directory from the tree (python/setup.py build).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-20} threads=${2:-2}
shared=${SHARED:-../shared}
hard="$shared/levels/boxoban/hard"
[ -d "$hard" ] || { echo "bench/python.sh: $hard not found" >&2; exit 2; }
make -s build/release/keeper
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$hard"/*.txt > "$tmp/hard.xsb"
cp build/release/keeper "$tmp/keeper"
python3 python/setup.py -q build --build-base "$tmp/b" --build-lib "$tmp/lib" -j 2 > "$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log" >&2; exit 1; }

t0=$(date +%s.%N)
"$tmp/keeper" solve "$tmp/hard.xsb" --threads "$threads" --time "$secs" --format lurd -q \
    > "$tmp/cli.lurd" || true
t1=$(date +%s.%N)
cli_wall=$(python3 -c "print('%.2f' % ($t1 - $t0))")
cli_solved=$(grep -c . "$tmp/cli.lurd" || true)
total=$(wc -l < "$tmp/cli.lurd")

PYTHONPATH="$tmp/lib" python3 - "$tmp/hard.xsb" "$secs" "$threads" > "$tmp/py.txt" << 'EOF'
import sys, time
import keeper

def replay(level, lurd):
    walls, goals, boxes, player = set(), set(), set(), None
    for y, row in enumerate(level.rows):
        for x, ch in enumerate(row):
            if ch == "#": walls.add((y, x))
            if ch in ".*+": goals.add((y, x))
            if ch in "$*": boxes.add((y, x))
            if ch in "@+": player = (y, x)
    d = {"l": (0, -1), "r": (0, 1), "u": (-1, 0), "d": (1, 0)}
    for ch in lurd:
        dy, dx = d[ch.lower()]
        n = (player[0] + dy, player[1] + dx)
        if n in walls: return False
        if n in boxes:
            b = (n[0] + dy, n[1] + dx)
            if b in walls or b in boxes: return False
            boxes.remove(n); boxes.add(b)
        player = n
    return boxes == goals

path, secs, threads = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
levels = keeper.load(path)
t = time.time()
results = list(keeper.solve_many(levels, threads=threads, time=secs))
wall = time.time() - t
solved = sum(r.solved for r in results)
valid = sum(1 for r in results if r.solved and replay(levels[r.level], r.lurd))
print(len(levels), solved, valid, "%.2f" % wall)
EOF
read -r py_total py_solved py_valid py_wall < "$tmp/py.txt"
ratio=$(python3 -c "print('%.3f' % (($py_solved / $py_wall) / ($cli_solved / $cli_wall)))")
rev=$(git rev-parse --short HEAD)
line="$(date -u +%Y-%m-%d) $rev boxoban hard ($total levels), ${secs} s, $threads threads: CLI $cli_solved solved in $cli_wall s; Python solve_many $py_solved solved ($py_valid replayed valid by the script) in $py_wall s; throughput Python/CLI $ratio"
echo "$line"
echo "$line" >> bench/results/boxoban-hard-python.txt
