#!/usr/bin/env python3
"""bench/detectors.py COLLECTION SECONDS [keeper options...]

Solves COLLECTION (a path, or a name in ../shared/levels) once with every
deadlock detector on and once with each switched off in turn, with
--verbose, and prints a table: levels solved, the seconds summed over the
levels, positions stored, and what each detector pruned (the statistics
summed over the levels). Writes the table to
bench/results/NAME-SECONDSs-detectors.txt. Further options go to every run
(e.g. --threads 2: levels two at a time; the counts stay the same, as each
level but the last runs on one thread)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

RUNS = [
    ("all on", []),
    ("--no-stuck", ["--no-stuck"]),
    ("--no-local", ["--no-local"]),
    ("--deadlock-search 0", ["--deadlock-search", "0"]),
    ("--no-corrals", ["--no-corrals"]),
    ("--no-fixed", ["--no-fixed"]),
    ("--no-capsets", ["--no-capsets"]),
    ("--no-freeze", ["--no-freeze"]),
    ("--patterns", ["--patterns"]),
    ("--patterns --pattern-size 4", ["--patterns", "--pattern-size", "4"]),
]
COUNTERS = [
    ("freeze", "cut_freeze"),
    ("small patterns", "cut_patterns"),
    ("matching", "cut_bipartite"),
    ("fixed", "cut_fixed"),
    ("capsets", "cut_capsets"),
    ("PI-corral", "corral_deadlocks"),
    ("corral search", "subset_deadlocks"),
    ("local", "cut_local"),
    ("patterns", "cut_stuck"),
    ("below dead", "cut_ancestor"),
    ("learned", "stuck_learned"),
]
SKIP = {"max_depth", "best_packed", "mem_bytes", "best_lower_bound"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    coll, secs, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    shared = os.environ.get("SHARED", "../shared")
    path = coll if ("/" in coll or "." in coll) else f"{shared}/levels/{coll}.xsb"
    if not os.path.isfile(path):
        sys.exit(f"bench/detectors.py: {path} not found")
    name = os.path.splitext(os.path.basename(path))[0]
    subprocess.run(["make", "-s", "build/release/keeper"], check=True)
    tmp = tempfile.mkdtemp()
    keeper = os.path.join(tmp, "keeper")
    shutil.copy("build/release/keeper", keeper)  # a rebuild does not change the runs
    lines = [f"# {name}, {secs} s per level, options: {' '.join(extra) or '(none)'}",
             "# " + time.strftime("%Y-%m-%d", time.gmtime()) + f" {os.uname().machine}, {os.cpu_count()} cores",
             "| run | solved | seconds | wall | positions | " + " | ".join(c for c, _ in COUNTERS) + " |",
             "|---" * (5 + len(COUNTERS)) + "|"]
    for label, opts in RUNS:
        start = time.time()
        r = subprocess.run([keeper, "solve", path, "--time", secs, "--verbose", "--format", "jsonl"]
                           + extra + opts, capture_output=True, text=True)
        wall = time.time() - start
        st = Counter()
        total = ""
        for ln in r.stderr.splitlines():
            if ln.startswith(" total"):
                total = ln
            m = re.match(r"^\s{8}([a-z_]+)\s+(\d+)\s", ln)
            if m and m.group(1) not in SKIP:
                st[m.group(1)] += int(m.group(2))
        m = re.search(r"solved (\d+)/(\d+).*?, ([\d.]+) s, (\d+) nodes", total)
        if not m:
            sys.exit(f"bench/detectors.py: no totals from keeper ({label}):\n{r.stderr[-2000:]}")
        lines.append(f"| {label} | {m.group(1)}/{m.group(2)} | {m.group(3)} | {wall:.1f} | "
                     f"{int(m.group(4)):,} | " + " | ".join(f"{st[k]:,}" for _, k in COUNTERS) + " |")
        print(lines[-1], flush=True)
    shutil.rmtree(tmp)
    out = f"bench/results/{name}-{secs}s-detectors.txt"
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
