#!/usr/bin/env python3
"""bench/opt_finds.py BEST_KNOWN.csv OUT.csv RESULT.jsonl...

Collects the optimizer's "finds": for each level, the solution with the
fewest moves (then pushes) among the RESULT files when it has fewer moves
than the best known, and the one with the fewest pushes (then moves) when
it has fewer pushes than the best known. Writes them to OUT.csv (columns
level, moves, pushes, metric, lurd: a file `keeper verify` reads, which
checks the claimed moves and pushes) and prints a Markdown table."""
import csv
import json
import sys


def main():
    best_file, out_file, results = sys.argv[1], sys.argv[2], sys.argv[3:]
    best = {}
    with open(best_file, newline="") as f:
        for row in csv.DictReader(f):
            best[int(row["level"])] = row
    cand = {}  # level -> list of (moves, pushes, lurd)
    for r in results:
        for line in open(r):
            o = json.loads(line)
            if not o.get("solution"):
                continue
            a = o["after"]
            cand.setdefault(o["index"], []).append((a["moves"], a["pushes"], o["solution"]))
    rows = []
    for lv in sorted(cand):
        if lv not in best:
            continue
        b = best[lv]
        bm, bmp = int(b["min_moves"]), int(b["pushes_at_min_moves"])
        bp, bpm = int(b["min_pushes"]), int(b["moves_at_min_pushes"])
        m = min(cand[lv], key=lambda t: (t[0], t[1]))
        p = min(cand[lv], key=lambda t: (t[1], t[0]))
        if m[0] < bm:
            rows.append((lv, "moves", m, "%d/%d" % (bm, bmp)))
        if p[1] < bp and not (m[0] < bm and p == m):
            rows.append((lv, "pushes", p, "%d/%d" % (bpm, bp)))
        elif p[1] < bp:
            rows[-1] = (lv, "moves and pushes", m, "%d/%d, %d/%d" % (bm, bmp, bpm, bp))
    with open(out_file, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["level", "moves", "pushes", "metric", "lurd"])
        for lv, metric, (mv, pu, lurd), _ in rows:
            w.writerow([lv, mv, pu, metric, lurd])
    print("| level | fewer | keeper moves/pushes | best known moves/pushes |")
    print("|---|---|---|---|")
    for lv, metric, (mv, pu, _), bk in rows:
        print("| %d | %s | %d/%d | %s |" % (lv, metric, mv, pu, bk))
    nm = sum(1 for r in rows if "moves" in r[1])
    np_ = sum(1 for r in rows if "pushes" in r[1])
    print("\n%d finds on %d levels: %d in moves, %d in pushes" %
          (len(rows), len({r[0] for r in rows}), nm, np_))


if __name__ == "__main__":
    main()
