#!/usr/bin/env python3
"""bench/opt_compare.py RESULT.jsonl BEST_KNOWN.csv

Compares keeper optimize's results (jsonl) with the best known solutions
(a *.best_known.csv of ../shared/levels/solutions: min_moves with its
pushes, min_pushes with its moves, per level): totals before and after, the
levels at or below the best known moves and pushes, and any solution
shorter than the best known (a find: it must replay with keeper verify).
"""
import csv
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    res = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    best = {int(r["level"]): r for r in csv.DictReader(open(sys.argv[2]))}
    n = 0
    tb = {"moves": 0, "pushes": 0}
    ta = {"moves": 0, "pushes": 0}
    tk = {"moves": 0, "pushes": 0}
    at = {"moves": 0, "pushes": 0}
    finds = []
    for r in res:
        if not r.get("solution") or r["index"] not in best:
            continue
        bk = best[r["index"]]
        n += 1
        kmin = {"moves": int(bk["min_moves"]), "pushes": int(bk["min_pushes"])}
        for m in ("moves", "pushes"):
            tb[m] += r["before"][m]
            ta[m] += r["after"][m]
            tk[m] += kmin[m]
            if r["after"][m] <= kmin[m]:
                at[m] += 1
            if r["after"][m] < kmin[m]:
                finds.append((r["index"], m, r["after"]["moves"], r["after"]["pushes"], kmin[m]))
    print(f"# compared with {sys.argv[2].split('/')[-1]} on {n} levels")
    for m in ("moves", "pushes"):
        print(f"# {m}: before {tb[m]}, after {ta[m]}, best known {tk[m]} "
              f"(after is {100.0 * (ta[m] - tk[m]) / max(tk[m], 1):+.1f} %); "
              f"levels at or below the best known {m}: {at[m]}")
    methods = {}
    for r in res:
        for name, st in (r.get("methods") or {}).items():
            t = methods.setdefault(name, [0, 0, 0.0, 0])
            t[0] += st["improvements"]
            t[1] += st["runs"]
            t[2] += st["seconds"]
            t[3] += 1 if st["improvements"] else 0
    for name, (imp, runs, secs, lv) in methods.items():
        print(f"# method {name}: {imp} improvements on {lv} levels, {runs} searches, {secs:.1f} s")
    for lv, m, mo, pu, k in finds:
        print(f"# find: level {lv}: {mo}/{pu} moves/pushes, fewer {m} than the best known {k}")


if __name__ == "__main__":
    main()
