#!/usr/bin/env python3
"""bench/seeds.py FILE... > seeds.csv

Merges solution files into one seed file for `keeper solve --optimal pushes
--seed`: for each level, the solution with the fewest pushes (then fewest
moves) among the inputs, written as `level,lurd` lines.

Inputs: CSV files with `level` and `lurd` columns (keeper's own, and the
known-solution files in ../shared/levels/solutions/), and keeper's JSON
lines (`index` and `solution`, solved levels only). Pushes are counted from
the LURD string (uppercase letters); nothing is replayed here: keeper replays
every seed when it reads the file and reports one that does not solve its
level (FILE:LINE), so a wrong input costs a seed, never a wrong proof.

--levels LIST keeps only those levels (e.g. 45,62 or 8-12).
"""
import csv
import json
import sys


def parse_levels(spec):
    keep = set()
    for part in spec.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            keep.update(range(int(lo), int(hi) + 1))
        elif part:
            keep.add(int(part))
    return keep


def read(path):
    """Yields (level, lurd) pairs of one input file."""
    with open(path, newline="") as f:
        first = f.readline()
        f.seek(0)
        if first.lstrip().startswith("{"):
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                if r.get("solution") and "index" in r:
                    yield int(r["index"]), r["solution"]
            return
        for r in csv.DictReader(f):
            if r.get("level") and r.get("lurd"):
                yield int(r["level"]), r["lurd"].strip()


def main(argv):
    keep = None
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == "--levels" and i + 1 < len(argv):
            keep = parse_levels(argv[i + 1])
            i += 2
            continue
        files.append(argv[i])
        i += 1
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    best = {}
    for path in files:
        for level, lurd in read(path):
            if keep is not None and level not in keep:
                continue
            key = (sum(c.isupper() for c in lurd), len(lurd))
            if level not in best or key < best[level][0]:
                best[level] = (key, lurd, path)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["level", "lurd"])
    for level in sorted(best):
        w.writerow([level, best[level][1]])
    for level in sorted(best):
        (pushes, moves), _, path = best[level]
        print("level %d: %d pushes, %d moves (%s)" % (level, pushes, moves, path), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
