#!/usr/bin/env python3
"""bench/limits.py SECONDS [COLLECTION ...] [-- keeper options...]

Checks that --time holds on every board: solves each COLLECTION (a path,
or a name in ../shared/levels; default: the training sets Sasquatch IV-VII
and Grigr 2001) with --time SECONDS, one level per process so that each
level's whole run (parsing, analysis, every member's setup, the search and
the exit) is timed from outside, and reports per collection the longest
level and every level that ran more than 0.2 s past the limit.

Levels are run two at a time (the machine's two cores), each keeper on one
thread. Writes the table to bench/results/limits-SECONDSs.txt. KEEPER_BIN
runs that binary (a copy, so that a rebuild does not disturb the run)
instead of building build/release/keeper.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import time

SLACK = 0.2
DEFAULT = ["sasquatch4_50", "sasquatch5_50", "sasquatch6_50", "sasquatch7_50", "grigr2001_100"]


def count_levels(path):
    """Levels in an XSB file: blocks of board lines."""
    n, inboard = 0, False
    with open(path, errors="replace") as f:
        for line in f:
            s = line.rstrip("\r\n")
            board = bool(s.strip()) and "#" in s and set(s) <= set(" #$.*@+-_")
            if board and not inboard:
                n += 1
            inboard = board
    return n


def run_one(keeper, path, level, secs, extra):
    t0 = time.monotonic()
    p = subprocess.run([keeper, "solve", path, "--level", str(level), "--time", str(secs),
                        "--format", "jsonl", "--quiet"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wall = time.monotonic() - t0
    status = "?"
    m = re.search(r'"status":"(\w+)"', p.stdout)
    if m:
        status = m.group(1)
    return level, wall, status, p.returncode


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    if not args:
        sys.exit(__doc__)
    secs = float(args[0])
    colls = args[1:] or DEFAULT
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    shared = os.environ.get("SHARED", os.path.join(root, "..", "shared"))
    keeper = os.environ.get("KEEPER_BIN")  # a copy, so that rebuilding does not disturb the run
    if not keeper:
        subprocess.run(["make", "-s", "-C", root, "build/release/keeper"], check=True)
        keeper = os.path.join(root, "build/release/keeper")
    lines = [f"# keeper --time {secs:g} on every level, one level per process, two at a time;"
             f" options: {' '.join(extra) or '(none)'}",
             f"# {time.strftime('%Y-%m-%d', time.gmtime())}; a level is late when its process"
             f" runs more than {SLACK} s past the limit",
             f"{'collection':<16} {'levels':>6} {'longest':>8} {'level':>5}  late"]
    worst_all = 0.0
    for c in colls:
        path = c if ("/" in c or c.endswith(".xsb")) else os.path.join(shared, "levels", c + ".xsb")
        if not os.path.exists(path):
            print(f"SKIP {c}: {path} not found", file=sys.stderr)
            continue
        n = count_levels(path)
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            res = list(ex.map(lambda l: run_one(keeper, path, l, secs, extra), range(1, n + 1)))
        worst = max(res, key=lambda r: r[1])
        late = [r for r in res if r[1] > secs + SLACK]
        worst_all = max(worst_all, worst[1])
        name = os.path.splitext(os.path.basename(path))[0]
        lines.append(f"{name:<16} {n:>6} {worst[1]:>7.2f}s {worst[0]:>5}  " +
                     (", ".join(f"{r[0]} ({r[1]:.2f} s)" for r in late) or "none"))
        print(lines[-1], flush=True)
    lines.append(f"# longest of all: {worst_all:.2f} s")
    out = os.path.join(root, "bench", "results", f"limits-{secs:g}s.txt")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"written {out}")


if __name__ == "__main__":
    main()
