#!/usr/bin/env python3
"""bench/bounds.py RESULTS.jsonl... [--best-known CSV] [--markdown] [--solutions OUT.csv]

The push-optimal table over several runs of `keeper solve --optimal pushes
--format jsonl` on one collection: per level the best proven lower bound,
the fewest pushes of a solution found, whether that count is proven optimal
(and by which run, in how many seconds; or over runs, where one run's
proven lower bound meets another's solution), and the shared best-known
pushes.
Runs of `keeper optimize --metric pushes --format jsonl` count too (their
"after" pushes, solutions without a bound). --solutions writes, for the
levels not proven, the fewest-push solution of every run (solve and
optimize) as a CSV (level, lurd) that `keeper optimize` and `keeper solve
--seed` read.

A proven optimum must never exceed the pushes of any valid solution: the
script checks every proven count against every solution of every run and
against the best-known table, and exits non-zero on a contradiction (that
would betray a bug). Levels with no lower bound in any run (proven runs
before the lower bound was recorded give their optimum as the bound).
"""
import csv
import json
import os
import re
import sys


def main(argv):
    files, best_csv, markdown, sol_out = [], None, False, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--best-known":
            best_csv = argv[i + 1]
            i += 2
            continue
        if a == "--solutions":
            sol_out = argv[i + 1]
            i += 2
            continue
        if a == "--markdown":
            markdown = True
        else:
            files.append(a)
        i += 1
    if not files:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    best = {}
    if best_csv and os.path.exists(best_csv):
        for r in csv.DictReader(open(best_csv)):
            try:
                best[int(r["level"])] = int(r["min_pushes"])
            except (KeyError, ValueError):
                pass
    lv = {}  # index -> dict
    for f in files:
        run = os.path.basename(f).replace(".jsonl", "")
        # a run labelled seed...: solve --seed, the proof started from a
        # known solution (of another run): counted apart from the one-run
        # proofs
        seeded = re.search(r"-[0-9]+s-seed(-|$)", run) is not None
        for line in open(f):
            d = json.loads(line)
            k = d["index"]
            e = lv.setdefault(k, {"lb": None, "sol": None, "proven": None, "by": None, "secs": None,
                                  "lurd": None, "lurd_p": None})
            if "after" in d:  # keeper optimize: a solution, no bound
                p = d["after"].get("pushes")
                if d.get("status") in ("optimized", "unchanged") and p and (e["sol"] is None or p < e["sol"]):
                    e["sol"] = p
                if d.get("status") in ("optimized", "unchanged") and p and d.get("solution") and \
                        (e["lurd_p"] is None or p < e["lurd_p"]):
                    e["lurd"], e["lurd_p"] = d["solution"], p
                continue
            lb = d.get("lower_bound")
            if d.get("optimal") and d.get("pushes") and seeded:
                lb = d["pushes"]
                if e.get("seeded") is None or d["seconds"] < e["seeded"][2]:
                    e["seeded"] = (d["pushes"], run, d["seconds"])
            elif d.get("optimal") and d.get("pushes"):
                lb = d["pushes"]
                if e["proven"] is None or d["seconds"] < e["secs"]:
                    if e["proven"] is not None and e["proven"] != d["pushes"]:
                        print("level %d: proven %d in one run, %d in another" %
                              (k, e["proven"], d["pushes"]), file=sys.stderr)
                        return 1
                    e["proven"], e["by"], e["secs"] = d["pushes"], run, d["seconds"]
            if lb is not None and lb >= 0 and (e["lb"] is None or lb > e["lb"]):
                e["lb"] = lb
            p = d.get("pushes")
            if d.get("status") == "solved" and p and (e["sol"] is None or p < e["sol"]):
                e["sol"] = p
            if d.get("status") == "solved" and p and d.get("solution") and \
                    (e["lurd_p"] is None or p < e["lurd_p"]):
                e["lurd"], e["lurd_p"] = d["solution"], p
    bad = 0
    for k, e in sorted(lv.items()):
        for ub, what in ((e["sol"], "a solution"), (best.get(k), "the best known")):
            if ub is not None and e["lb"] is not None and e["lb"] > ub:
                print("level %d: lower bound %d above %s (%d pushes)" % (k, e["lb"], what, ub),
                      file=sys.stderr)
                bad = 1
    proven = sorted(k for k, e in lv.items() if e["proven"] is not None)
    if sol_out:
        with open(sol_out, "w", newline="") as fo:
            w = csv.writer(fo)
            w.writerow(["level", "lurd"])
            for k, e in sorted(lv.items()):
                if e["proven"] is None and e["lurd"]:
                    w.writerow([k, e["lurd"]])
    if markdown:
        print("| level | lower bound | our fewest pushes | proven | best known |")
        print("|---:|---:|---:|---|---:|")
    for k, e in sorted(lv.items()):
        pr = ("**optimal** (%s, %.0f s)" % (e["by"], e["secs"])) if e["proven"] is not None else ""
        if not pr and e.get("seeded"):
            pr = "**optimal** (from a known solution: %s, %.0f s)" % (e["seeded"][1], e["seeded"][2])
        if not pr and e["lb"] is not None and e["sol"] == e["lb"]:
            pr = "**optimal** (over runs: the bound of one, a solution of another)"
        cells = [str(k), str(e["lb"] if e["lb"] is not None else "-"),
                 str(e["sol"] if e["sol"] is not None else "-"), pr,
                 str(best.get(k, "-"))]
        if markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("%5s  %6s  %6s  %-40s  %6s" % tuple(cells))
    print("%sproven: %d (%s)" % ("\n" if markdown else "", len(proven),
                                 ", ".join(str(k) for k in proven)))
    seeded = sorted(k for k, e in lv.items() if e["proven"] is None and e.get("seeded"))
    if seeded:
        print("%sproven from a known solution (solve --seed, the solution of another run): "
              "%d (%s)" % ("\n" if markdown else "", len(seeded),
                           ", ".join(str(k) for k in seeded)))
    over = sorted(k for k, e in lv.items()
                  if e["proven"] is None and not e.get("seeded") and e["lb"] is not None
                  and e["sol"] == e["lb"])
    if over:
        print("%soptimal over runs (a proven lower bound of one run, a solution with as many "
              "pushes of another): %d (%s)" % ("\n" if markdown else "", len(over),
                                              ", ".join(str(k) for k in over)))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
