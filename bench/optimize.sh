#!/bin/sh
# bench/optimize.sh COLLECTION SOLUTIONS SECONDS [LABEL] [keeper optimize options...]
#
# Optimizes the solutions in SOLUTIONS (any file keeper verify reads; a
# name such as festival31-xsokoban90 means ../shared/peers/NAME-2t-20s-
# solutions.csv) of COLLECTION (a path, or a name in ../shared/levels) with
# SECONDS per level and records in bench/results/:
#   NAME-opt-SECONDSs-LABEL.jsonl  keeper's jsonl (before and after metrics)
#   NAME-opt-SECONDSs-LABEL.txt    the result table, the totals, the peak
#                                  memory and the comparison with the best
#                                  known solutions (bench/opt_compare.py)
# LABEL defaults to "default"; further arguments go to keeper optimize
# (e.g. --metric pushes, --threads 2).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: bench/optimize.sh COLLECTION SOLUTIONS SECONDS [LABEL] [options...]" >&2; exit 2; }
coll=$1 sols=$2 secs=$3
shift 3
label=default
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then label=$1; shift; fi
shared=${SHARED:-../shared}
case "$coll" in
    */*|*.xsb|*.sok|*.txt) file=$coll ;;
    *) file="$shared/levels/$coll.xsb" ;;
esac
case "$sols" in
    */*|*.csv|*.sok|*.lurd|*.txt) ;;
    *) sols="$shared/peers/$sols-2t-20s-solutions.csv" ;;
esac
[ -f "$file" ] || { echo "bench/optimize.sh: $file not found" >&2; exit 2; }
[ -f "$sols" ] || { echo "bench/optimize.sh: $sols not found" >&2; exit 2; }
name=$(basename "$file"); name=${name%.*}
make -s build/release/keeper
out="bench/results/$name-opt-${secs}s-$label"
keeper=$(mktemp /tmp/keeper-bench.XXXXXX)
cp build/release/keeper "$keeper" && chmod 755 "$keeper"
trap 'rm -f "$keeper"' EXIT
timecmd=""
[ -x /usr/bin/time ] && timecmd="/usr/bin/time -f %M -o $out.rss"
start=$(date +%s)
set +e
$timecmd "$keeper" optimize "$file" "$sols" --time "$secs" --format jsonl "$@" > "$out.jsonl" 2> "$out.table"
rc=$?
set -e
end=$(date +%s)
best="$shared/levels/solutions/$name.best_known.csv"
{
    echo "# keeper $($keeper --version | cut -d' ' -f2) optimize $name from $(basename "$sols"), $secs s per level, options: ${*:-(none)}"
    echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores; keeper exit status $rc; wall $((end - start)) s"
    kb=$(grep -E '^[0-9]+$' "$out.rss" 2> /dev/null | tail -n 1)
    [ -n "$kb" ] && echo "# peak resident memory: $((kb / 1024)) MiB"
    cat "$out.table"
    [ -f "$best" ] && python3 bench/opt_compare.py "$out.jsonl" "$best"
} > "$out.txt"
rm -f "$out.table" "$out.rss"
tail -n 6 "$out.txt"
