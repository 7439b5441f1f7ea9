#!/bin/sh
# test_bench.sh: `keeper bench` is deterministic: two runs print the same
# signature, and a debug-checked run (every push verified) agrees too.
. tests/cli/lib.sh

run "$KEEPER" bench
expect_rc 0 "bench runs"
sig1=$(sed -n 's/^signature *//p' "$WORK/out")
run "$KEEPER" bench
sig2=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig1" ] && [ "$sig1" = "$sig2" ] && [ "$sig1" -gt 1000 ]; then pass; else fail "bench signature differs or is empty: '$sig1' vs '$sig2'"; fi
run "$KEEPER" bench --check
sig3=$(sed -n 's/^signature *//p' "$WORK/out")
if [ "$sig1" = "$sig3" ]; then pass; else fail "bench with --check gives '$sig3', not '$sig1'"; fi
expect_out "solved" "bench reports solved runs"
run "$KEEPER" bench --no-corrals
sig4=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig4" ] && [ "$sig4" != "$sig1" ]; then pass; else fail "--no-corrals should change the signature ($sig4)"; fi
finish
