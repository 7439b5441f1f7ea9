#!/bin/sh
# test_mpi.sh: keeper-mpi (make mpi) against keeper: with 3 ranks on this
# machine (--oversubscribe), stdout is byte for byte what keeper solve and
# keeper verify write, and stderr too once times are masked (SOK, LURD, JSON
# lines; several files in one run; -n 1; bad input), a rank that dies gives
# what the documentation says, SIGTERM (to mpirun, to rank 0 alone, to a
# worker alone) writes every level finished and the table, and --resume on
# that output solves the rest. Skipped, visibly, without mpirun and mpicc
# (make test builds keeper-mpi when they are present).
. tests/cli/lib.sh

MPI="${KEEPER}-mpi"
if ! command -v mpirun > /dev/null 2>&1 || ! command -v mpicc > /dev/null 2>&1; then
    skip "mpirun or mpicc not found (Debian: libopenmpi-dev openmpi-bin): keeper-mpi not tested"
    finish
    exit 0
fi
if [ ! -x "$MPI" ]; then
    skip "$MPI not built (make mpi): keeper-mpi not tested"
    finish
    exit 0
fi
# Under the sanitizer build (make test-asan): leaks that Open MPI's
# libraries keep at exit are suppressed (full stacks are needed to see
# whose they are); the release build ignores these variables.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(pwd)/tests/cli/lsan-openmpi.supp:print_suppressions=0"
export ASAN_OPTIONS LSAN_OPTIONS
ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
# mpirun -n N keeper-mpi ARGS...
mpi() {
    n=$1
    shift
    mpirun $ROOT --oversubscribe -n "$n" "$MPI" "$@"
}
# mask FILE: times out of the result table and the JSON lines; and the
# notice mpirun adds after keeper-mpi's stderr when the exit status is not
# 0 (a box of dashes, "Primary job terminated normally, but 1 process
# returned a non-zero exit code")
mask() {
    sed -e 's/"seconds":[0-9.]*/"seconds":T/' -e 's/  *[0-9][0-9]*\.[0-9][0-9]s  /  T  /' \
        -e 's/, [0-9][0-9]*\.[0-9][0-9] s, /, T s, /' -e '/^------------------*$/,$d' "$1"
}
# same DESC: $WORK/k.out/err (keeper) against $WORK/out/err (keeper-mpi);
# stdout is identical but for the "seconds" of JSON lines
same() {
    mask "$WORK/k.out" > "$WORK/k.mout"
    mask "$WORK/out" > "$WORK/mout"
    if cmp -s "$WORK/k.mout" "$WORK/mout"; then pass; else
        fail "$1: stdout differs: $(diff "$WORK/k.mout" "$WORK/mout" | head -n 6)"
    fi
    mask "$WORK/k.err" > "$WORK/k.merr"
    mask "$WORK/err" > "$WORK/merr"
    if cmp -s "$WORK/k.merr" "$WORK/merr"; then pass; else
        fail "$1: stderr differs (times masked): $(diff "$WORK/k.merr" "$WORK/merr" | head -n 6)"
    fi
}
# keeper_run ARGS...: keeper's output in k.out, k.err, its status in KRC
keeper_run() {
    "$KEEPER" "$@" > "$WORK/k.out" 2> "$WORK/k.err"
    KRC=$?
}
same_rc() {
    if [ "$RC" -eq "$KRC" ]; then pass; else fail "$1: exit $RC, keeper exits $KRC (stderr: $(head -c 300 "$WORK/err"))"; fi
}

DEMO=levels/demo.xsb
MB="$LEVELS/microban155.xsb"

# --- the demo collection in the three formats, 3 ranks
for fmt in sok lurd jsonl; do
    keeper_run solve "$DEMO" --search bfs --format "$fmt"
    run mpi 3 solve "$DEMO" --search bfs --format "$fmt"
    same_rc "demo --format $fmt"
    same "demo --format $fmt"
done

# --- a collection with a malformed level and an unsolvable one (exit 2)
keeper_run solve tests/data/cli_mixed.xsb --search bfs --max-nodes 50000
run mpi 3 solve tests/data/cli_mixed.xsb --search bfs --max-nodes 50000
same_rc "a malformed level"
same "a malformed level"

# --- one rank: rank 0 solves alone
keeper_run solve "$DEMO" --search bfs --format jsonl
run mpi 1 solve "$DEMO" --search bfs --format jsonl
same_rc "demo, -n 1"
same "demo, -n 1"

if have_shared; then
    # --- Microban 1-20 with the default search, a node limit for the same
    #     results on every run
    for fmt in sok jsonl; do
        keeper_run solve "$MB" --levels 1-20 --max-nodes 20000 --format "$fmt"
        run mpi 3 solve "$MB" --levels 1-20 --max-nodes 20000 --format "$fmt"
        same_rc "microban 1-20 --format $fmt"
        same "microban 1-20 --format $fmt"
    done
    # --- two threads per rank, the optimal mode
    keeper_run solve "$MB" --levels 1-8 --optimal --format lurd
    run mpi 3 solve "$MB" --levels 1-8 --optimal --format lurd --threads 2
    same_rc "microban 1-8 --optimal --threads 2"
    if cmp -s "$WORK/k.out" "$WORK/out"; then pass; else fail "microban 1-8 --optimal --threads 2: stdout differs"; fi

    # --- several files: what keeper solve writes for each in turn
    "$KEEPER" solve "$DEMO" --levels 1-3 --search bfs --format jsonl > "$WORK/k.out" 2> "$WORK/k.err"
    "$KEEPER" solve "$MB" --levels 1-3 --search bfs --format jsonl >> "$WORK/k.out" 2>> "$WORK/k.err"
    KRC=0
    run mpi 3 solve "$DEMO" "$MB" --levels 1-3 --search bfs --format jsonl
    same_rc "two files"
    same "two files"
    # ... and with --output, SOK (the notes of each file, then its levels)
    run mpi 3 solve "$DEMO" "$MB" --levels 1-3 --search bfs --output "$WORK/two.sok"
    "$KEEPER" solve "$DEMO" --levels 1-3 --search bfs --quiet > "$WORK/k.sok"
    "$KEEPER" solve "$MB" --levels 1-3 --search bfs --quiet >> "$WORK/k.sok"
    expect_rc 0 "two files --output"
    if cmp -s "$WORK/k.sok" "$WORK/two.sok"; then pass; else fail "two files --output: differs from keeper solve"; fi
else
    skip "$LEVELS not found: keeper-mpi on Microban not tested"
fi

# --- a job waiting on a rank behind a long one is recalled when another
#     rank has a free thread: Tangle (seconds) goes to rank 1 first,
#     Two Rooms to rank 0, Warm-up waits on rank 1; rank 0 finishes and
#     takes it back (KEEPER_MPI_TRACE tells where jobs go)
{ sed -n '/^; Tangle/,/^; Knot/p' levels/demo-hard.xsb | sed '$d'; cat "$DEMO"; } > "$WORK/recall.xsb"
keeper_run solve "$WORK/recall.xsb" --levels 1-3 --format lurd
KEEPER_MPI_TRACE=1 run mpirun $ROOT --oversubscribe -x KEEPER_MPI_TRACE -n 2 "$MPI" solve \
    "$WORK/recall.xsb" --levels 1-3 --format lurd
same_rc "a recalled job"
if cmp -s "$WORK/k.out" "$WORK/out"; then pass; else fail "a recalled job: stdout differs"; fi
expect_err "trace: job 0 to rank 1" "a recalled job: the long level goes first"
expect_err "trace: job 2 to rank 0" "a recalled job: Two Rooms to rank 0"
expect_err "trace: job 1 to rank 1" "a recalled job: Warm-up waits on rank 1"
expect_err "trace: recall from rank 1: job 1" "a recalled job: Warm-up comes back"
expect_err "trace: job 1 to rank 0" "a recalled job: and runs on rank 0"

# --- verify: the demo solutions, text and JSON lines, and a broken one
"$KEEPER" solve "$DEMO" --search bfs --quiet --output "$WORK/demo.sok"
sed '0,/^[lurdLURD]\{6,\}$/s//llllllllll/' "$WORK/demo.sok" > "$WORK/bad.sok"
# long solutions (level 1's with 6000 steps to and fro first): messages
# longer than MPI's eager limit both ways
"$KEEPER" solve "$DEMO" --search bfs --quiet --format lurd > "$WORK/demo.lurd"
lr=$(printf '%03000d' 0 | sed 's/0/lr/g')
sed "1s/^/$lr/; 3s/^/$lr/" "$WORK/demo.lurd" > "$WORK/long.lurd"
for args in "$WORK/demo.sok" "$DEMO $WORK/demo.sok --format jsonl" "$DEMO $WORK/bad.sok" \
    "$DEMO $WORK/bad.sok --format jsonl --quiet" "$WORK/demo.sok --levels 2-4 --audit" \
    "$DEMO $WORK/long.lurd --format jsonl"; do
    keeper_run verify $args
    run mpi 3 verify $args
    same_rc "verify $args"
    same "verify $args"
done

# --- bad input: the messages of keeper solve, from rank 0 alone
cp "$WORK/demo.sok" "$WORK/demo-copy.sok"
for args in "$WORK/none.xsb" "$DEMO --levels 9" "$DEMO --format xml" "$DEMO --bogus" "" \
    "$DEMO --resume $WORK/none.sok" "$DEMO --resume $WORK/demo.sok --output $WORK/demo.sok"; do
    keeper_run solve $args
    run mpi 3 solve $args
    same_rc "bad input: solve $args"
    mask "$WORK/err" > "$WORK/merr"
    if cmp -s "$WORK/k.err" "$WORK/merr"; then pass; else
        fail "bad input: solve $args: stderr differs: $(diff "$WORK/k.err" "$WORK/merr" | head -n 4)"
    fi
done
cmp -s "$WORK/demo.sok" "$WORK/demo-copy.sok" && pass || fail "--output onto the --resume file: the file changed"
run mpi 3 solve "$DEMO" "$WORK/none.xsb"
expect_rc 2 "a missing second file"
expect_err "none.xsb: error: cannot open" "a missing second file: the message"
run mpi 2 solve "$DEMO" levels/demo-hard.xsb --resume "$WORK/demo.sok"
expect_rc 2 "--resume with two files"
expect_err "error: --resume takes one input file" "--resume with two files: said so"
run mpi 2 solve "$DEMO" --optimal pushes --seed "$WORK/demo.sok"
expect_rc 2 "--seed is keeper solve's: a usage error here"
expect_err "error: --seed is keeper solve's" "--seed refused: said so"
run mpi 2 solve --help
expect_rc 0 "solve --help"
expect_out "keeper-mpi solve FILE" "solve --help: usage"

# --- --resume: the levels an earlier run's output solves are replayed and
#     skipped, as keeper solve skips them (the same bytes, the same line on
#     stderr); a solution there that does not replay is reported and its
#     level solved again. The earlier run: keeper-mpi on levels 2-5.
run mpi 3 solve "$DEMO" --levels 2-5 --search bfs --output "$WORK/part.sok"
expect_rc 0 "--levels 2-5 for --resume"
sed '0,/^[lurdLURD]\{6,\}$/s//llllllllll/' "$WORK/part.sok" > "$WORK/part-bad.sok"
for args in "part.sok --format sok" "part.sok --format jsonl --levels 1-6" \
    "part.sok --format lurd --levels 3-8" "part-bad.sok --format jsonl"; do
    keeper_run solve "$DEMO" --search bfs --resume "$WORK"/$args
    run mpi 3 solve "$DEMO" --search bfs --resume "$WORK"/$args
    same_rc "--resume $args"
    same "--resume $args"
done
expect_err "part-bad.sok:[0-9]*: error" "--resume: the broken solution is reported"
expect_err "^keeper: --resume .*part-bad.sok: 3 levels solved there \\(replayed\\), skipped" \
    "--resume: the broken solution's level is solved again"
run mpi 3 solve "$DEMO" --resume "$WORK/part.sok" --search bfs --output "$WORK/rest.sok"
expect_rc 0 "--resume --output"
expect_err "^keeper: --resume .*part.sok: 4 levels solved there \\(replayed\\), skipped" "--resume: said so"
expect_err '^ +total +solved 4/4, ' "--resume: the other 4 levels solved"
# the two outputs hold every level once, and every solution verifies
cat "$WORK/part.sok" "$WORK/rest.sok" > "$WORK/all.sok"
run "$KEEPER" verify "$DEMO" "$WORK/all.sok"
expect_rc 0 "--resume: the two outputs verify"
expect_err "8 solutions: 8 valid, 0 invalid, 0 saved games; 0 levels without" "--resume: 8 valid solutions"
ids=$(sed -n 's/.*: level \([0-9]*\) .*: valid: .*/\1/p' "$WORK/out" | sort -n | tr '\n' ' ')
[ "$ids" = "1 2 3 4 5 6 7 8 " ] && pass || fail "--resume: the two outputs solve levels '$ids', expected 1-8 once each"

# --- SIGTERM (Slurm at a job's time limit; mpirun passes it on to every
#     rank) ends a run as it ends keeper solve: the levels finished are
#     written in input order, the ones running as 'interrupted', then the
#     table; exit 1. Big Room (which breadth-first search does not solve)
#     comes first, the demo levels finish behind it. KEEPER_MPI_TRACE says
#     when the jobs are done (job 0 is Big Room).
cat tests/data/cli_big.xsb "$DEMO" > "$WORK/bd.xsb"
# start_mpi N ARGS...: keeper-mpi on N ranks in the background, traced,
# stdout and stderr to $WORK/out and $WORK/err; sets PID (mpirun's), and a
# watchdog ends it after 90 s
start_mpi() {
    n=$1
    shift
    : > "$WORK/out"
    : > "$WORK/err"
    KEEPER_MPI_TRACE=1 mpirun $ROOT --oversubscribe -x KEEPER_MPI_TRACE -n "$n" "$MPI" "$@" \
        > "$WORK/out" 2> "$WORK/err" &
    PID=$!
    ( sleep 90; kill -TERM $PID 2> /dev/null ) &
    WATCHDOG=$!
}
# wait_trace PATTERN N: waits (at most 60 s) for N trace lines matching PATTERN
wait_trace() {
    i=0
    while [ "$(grep -c -- "$1" "$WORK/err")" -lt "$2" ] && [ $i -lt 600 ] && kill -0 $PID 2> /dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
}
# rank_pid R: the pid of rank R of the run of start_mpi (a child of mpirun)
rank_pid() {
    for c in $(ps -o pid= --ppid $PID); do
        if tr '\0' '\n' < /proc/$c/environ 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
            echo $c
            return
        fi
    done
}
# stop_mpi SIGNAL PID: sends it, waits for mpirun; sets RC
stop_mpi() {
    kill -"$1" "$2"
    wait $PID
    RC=$?
    kill $WATCHDOG 2> /dev/null
}
start_mpi 2 solve "$WORK/bd.xsb" --search bfs --format jsonl
wait_trace "trace: job [1-8] done" 8
sleep 0.5
stop_mpi TERM $PID
expect_rc 1 "SIGTERM to mpirun"
n=$(wc -l < "$WORK/out")
[ "$n" -eq 9 ] && pass || fail "SIGTERM to mpirun: $n JSON lines, expected 9: $(head -c 300 "$WORK/err")"
[ "$(grep -c '"status":"solved"' "$WORK/out")" -eq 8 ] && pass || fail "SIGTERM to mpirun: the 8 demo levels are not all solved"
expect_out '^\{"index":1,"title":"Big Room","status":"unsolved","reason":"interrupted"' "SIGTERM to mpirun: Big Room interrupted"
rows=$(sed -n 's/^ *\([0-9][0-9]*\)  .*/\1/p' "$WORK/err" | tr '\n' ' ')
[ "$rows" = "1 2 3 4 5 6 7 8 9 " ] && pass || fail "SIGTERM to mpirun: table rows '$rows'"
expect_err '^ +1 +Big Room +unsolved .*interrupted$' "SIGTERM to mpirun: the table has the interrupted level"
expect_err '^ +total +solved 8/9, unsolved 1, .*\(interrupted\)$' "SIGTERM to mpirun: the total line"
cp "$WORK/out" "$WORK/term.jsonl"
# --resume on that output: the portfolio solves Big Room at once
run mpi 2 solve "$WORK/bd.xsb" --resume "$WORK/term.jsonl" --format jsonl
expect_rc 0 "--resume after SIGTERM"
expect_err "^keeper: --resume .*: 8 levels solved there \\(replayed\\), skipped" "--resume after SIGTERM: the levels skipped"
expect_err '^ +total +solved 1/1, ' "--resume after SIGTERM: the rest solved"
cat "$WORK/term.jsonl" "$WORK/out" > "$WORK/both.jsonl"
ids=$(grep '"status":"solved"' "$WORK/both.jsonl" | sed 's/^{"index":\([0-9]*\),.*/\1/' | sort -n | tr '\n' ' ')
[ "$ids" = "1 2 3 4 5 6 7 8 9 " ] && pass || fail "--resume after SIGTERM: the two outputs solve levels '$ids', expected 1-9 once each"
run "$KEEPER" verify "$WORK/bd.xsb" "$WORK/both.jsonl"
expect_rc 0 "--resume after SIGTERM: the solutions verify"
expect_err "9 solutions: 9 valid, 0 invalid, 0 saved games; 0 levels without" "--resume after SIGTERM: 9 valid solutions"

# A signal to one rank alone stops the whole run the same way: to rank 0
# (which tells the workers), or to a worker (which tells rank 0). Two Big
# Rooms run, one on each rank, a demo level waits on rank 1 behind one of
# them, the other 7 wait on rank 0: none of those 8 starts.
cat tests/data/cli_big.xsb "$DEMO" tests/data/cli_big.xsb > "$WORK/bdb.xsb"
for r in 0 1; do
    start_mpi 2 solve "$WORK/bdb.xsb" --search bfs --format jsonl
    wait_trace "trace: job [0-9]* to rank" 3
    sleep 0.5
    pid=$(rank_pid $r)
    if [ -z "$pid" ]; then
        stop_mpi TERM $PID
        skip "the process of rank $r not found (OMPI_COMM_WORLD_RANK): SIGTERM to one rank not tested"
        continue
    fi
    stop_mpi TERM "$pid"
    expect_rc 1 "SIGTERM to rank $r"
    n=$(grep -c '"reason":"interrupted"' "$WORK/out")
    [ "$n" -eq 2 ] && [ "$(wc -l < "$WORK/out")" -eq 2 ] && pass ||
        fail "SIGTERM to rank $r: $(wc -l < "$WORK/out") JSON lines, $n interrupted, expected the 2 Big Rooms"
    expect_err '^ +total +solved 0/10, unsolved 2, not started 8, .*\(interrupted\)$' "SIGTERM to rank $r: the total line"
    [ "$(grep -c 'trace: job [0-9]* not started' "$WORK/err")" -eq 8 ] && pass ||
        fail "SIGTERM to rank $r: $(grep -c 'not started' "$WORK/err") jobs not started, expected 8"
done

# --- threads on a rank bound to one core (mpirun's default binding with no
#     more ranks than cores): rank 0 warns; unbound, it does not (where the
#     machine has two CPUs for the two threads)
run mpirun $ROOT --bind-to core -n 1 "$MPI" solve "$DEMO" --threads 2 --quiet
expect_rc 0 "--threads 2 bound to a core"
expect_err "warning: 2 threads per rank, but a rank may run on only 1 CPU" "--threads 2 bound to a core: the warning"
if [ "$(nproc)" -ge 2 ]; then
    run mpirun $ROOT --bind-to none -n 1 "$MPI" solve "$DEMO" --threads 2 --quiet
    grep -q "warning" "$WORK/err" && fail "--threads 2 unbound: a warning: $(head -c 200 "$WORK/err")" || pass
else
    skip "one CPU: --threads 2 unbound not checked"
fi

# --- a rank that dies (KEEPER_MPI_TEST_LOSE_RANK: rank 1 exits on its first
#     level, the largest: Goal Room). Open MPI 4's mpirun, by default, ends
#     the whole job and exits non-zero saying which process exited: the
#     documented behaviour (docs/cluster.md, "A rank that dies").
KEEPER_MPI_TEST_LOSE_RANK=1 run mpirun $ROOT --oversubscribe -x KEEPER_MPI_TEST_LOSE_RANK -n 3 \
    "$MPI" solve "$DEMO" --search bfs --format jsonl
[ "$RC" -ne 0 ] && pass || fail "a lost rank, default mpirun: exit 0"
expect_err "exited|abort|terminat" "a lost rank, default mpirun: mpirun's notice"
# With --enable-recovery the job goes on: rank 0 counts a rank silent for
# KEEPER_MPI_LOST_AFTER seconds (heartbeats every second) as lost, its level
# comes out unsolved, 'worker lost', and the run completes.
KEEPER_MPI_TEST_LOSE_RANK=1 KEEPER_MPI_LOST_AFTER=2 run timeout 60 mpirun $ROOT --oversubscribe \
    --enable-recovery -x KEEPER_MPI_TEST_LOSE_RANK -x KEEPER_MPI_LOST_AFTER -n 3 \
    "$MPI" solve "$DEMO" --search bfs --format jsonl
[ "$RC" -ne 124 ] && pass || fail "a lost rank, --enable-recovery: the run did not end in 60 s"
n=$(wc -l < "$WORK/out")
[ "$n" -eq 8 ] && pass || fail "a lost rank, --enable-recovery: $n JSON lines, expected 8"
grep -q '"title":"Goal Room","status":"unsolved","reason":"worker lost"' "$WORK/out" && pass ||
    fail "a lost rank, --enable-recovery: Goal Room is not 'worker lost': $(grep Goal "$WORK/out" | head -c 200)"
[ "$(grep -c '"status":"solved"' "$WORK/out")" -eq 7 ] && pass || fail "a lost rank: the other 7 levels are not solved"
expect_err "rank 1 lost" "a lost rank, --enable-recovery: reported"
# the job waiting there behind the lost one went to another rank
expect_err "its 1 level marked 'worker lost'" "a lost rank, --enable-recovery: one level lost"
expect_err "total  solved 7/8, unsolved 1" "a lost rank, --enable-recovery: the totals"

finish
