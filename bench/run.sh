#!/bin/sh
# bench/run.sh COLLECTION SECONDS [LABEL] [keeper options...]
#
# Solves every level of COLLECTION (a path, or a name in ../shared/levels
# such as xsokoban90) with SECONDS per level and records the results in
# bench/results/:
#   NAME-SECONDSs-LABEL.jsonl  one JSON object per level (keeper's jsonl)
#   NAME-SECONDSs-LABEL.txt    the result table, the totals and the run's
#                              peak memory
# LABEL defaults to "default"; further arguments go to keeper solve
# (e.g. --optimal pushes, --threads 2, --no-corrals). KEEPER_BIN runs that
# binary instead of build/release/keeper (an experiment's build).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bench/run.sh COLLECTION SECONDS [LABEL] [keeper options...]" >&2; exit 2; }
coll=$1 secs=$2
shift 2
label=default
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then label=$1; shift; fi
shared=${SHARED:-../shared}
case "$coll" in
    */*|*.xsb|*.sok|*.txt) file=$coll ;;
    *) file="$shared/levels/$coll.xsb" ;;
esac
[ -f "$file" ] || { echo "bench/run.sh: $file not found" >&2; exit 2; }
name=$(basename "$file"); name=${name%.*}
[ -n "${KEEPER_BIN:-}" ] || make -s build/release/keeper
out="bench/results/$name-${secs}s-$label"
# Run a copy, so that rebuilding during a long run does not change it.
keeper=$(mktemp /tmp/keeper-bench.XXXXXX)
cp "${KEEPER_BIN:-build/release/keeper}" "$keeper" && chmod 755 "$keeper"
trap 'rm -f "$keeper"' EXIT
timecmd=""
[ -x /usr/bin/time ] && timecmd="/usr/bin/time -f %M -o $out.rss"
start=$(date +%s)
set +e
$timecmd "$keeper" solve "$file" --time "$secs" --format jsonl "$@" > "$out.jsonl" 2> "$out.table"
rc=$?
set -e
end=$(date +%s)
{
    echo "# keeper $($keeper --version | cut -d' ' -f2) on $name, $secs s per level, options: ${*:-(none)}"
    echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores; keeper exit status $rc; wall $((end - start)) s"
    kb=$(grep -E '^[0-9]+$' "$out.rss" 2> /dev/null | tail -n 1)
    [ -n "$kb" ] && echo "# peak resident memory: $((kb / 1024)) MiB"
    cat "$out.table"
} > "$out.txt"
rm -f "$out.table" "$out.rss"
tail -n 1 "$out.txt"
