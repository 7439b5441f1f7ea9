#!/bin/sh
# test_bench.sh: `keeper bench` is deterministic: two runs print the same
# signature, and a debug-checked run (every push verified) agrees too; the
# signature is the one recorded here.
. tests/cli/lib.sh

# The recorded signature (the positions of the bench levels' searches). A
# change of any search default changes it: update it here, and say in the
# commit which change moved it and why.
SIGNATURE=839696

run "$KEEPER" bench
expect_rc 0 "bench runs"
sig1=$(sed -n 's/^signature *//p' "$WORK/out")
run "$KEEPER" bench
sig2=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig1" ] && [ "$sig1" = "$sig2" ] && [ "$sig1" -gt 1000 ]; then pass; else fail "bench signature differs or is empty: '$sig1' vs '$sig2'"; fi
if [ "$sig1" = "$SIGNATURE" ]; then pass; else fail "bench signature $sig1, recorded $SIGNATURE: a search default changed (update SIGNATURE in tests/cli/test_bench.sh and say why in the commit)"; fi
run "$KEEPER" bench --check
sig3=$(sed -n 's/^signature *//p' "$WORK/out")
if [ "$sig1" = "$sig3" ]; then pass; else fail "bench with --check gives '$sig3', not '$sig1'"; fi
expect_out "solved" "bench reports solved runs"
run "$KEEPER" bench --no-corrals
sig4=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig4" ] && [ "$sig4" != "$sig1" ]; then pass; else fail "--no-corrals should change the signature ($sig4)"; fi
# push-optimal mode's search without corrals first is an option too
run "$KEEPER" bench --optimal-plain 0
sig5=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig5" ] && [ "$sig5" != "$sig1" ]; then pass; else fail "--optimal-plain 0 should change the signature ($sig5)"; fi
# and so are the goal sets (on by default, three boxes)
run "$KEEPER" bench --goal-sets 0
sig5=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig5" ] && [ "$sig5" != "$sig1" ]; then pass; else fail "--goal-sets 0 should change the signature ($sig5)"; fi
# the goal pairs' tables (on by default) are a switch too
run "$KEEPER" bench --no-pair-db
sig5=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig5" ] && [ "$sig5" != "$sig1" ]; then pass; else fail "--no-pair-db should change the signature ($sig5)"; fi
# the start's clusters raise the push-optimal bench levels' bounds
run "$KEEPER" bench --clusters 0
sig6=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig6" ] && [ "$sig6" != "$sig1" ]; then pass; else fail "--clusters 0 should change the signature ($sig6)"; fi
# the goal sets' deferral past the layer (on by default) is a switch too
run "$KEEPER" bench --goal-layers 0
sig5=$(sed -n 's/^signature *//p' "$WORK/out")
if [ -n "$sig5" ] && [ "$sig5" != "$sig1" ]; then pass; else fail "--goal-layers 0 should change the signature ($sig5)"; fi
# the player's sides are switches: --no-sides (push-optimal runs) and
# --fast-sides (fast runs) each parse and move the signature
for o in --no-sides --fast-sides; do
    run "$KEEPER" bench $o
    expect_rc 0 "bench $o runs"
    sig5=$(sed -n 's/^signature *//p' "$WORK/out")
    if [ -n "$sig5" ] && [ "$sig5" != "$sig1" ]; then pass; else fail "$o should change the signature ($sig5)"; fi
done
finish
