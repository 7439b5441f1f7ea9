#!/usr/bin/env python3
"""bench/festival_targets.py: can keeper reach the position Festival's HF
forward phase aims at?

For each level given (COLLECTION:INDEX, from ../shared/levels), Festival 3.1
runs one strategy (`-alg 4`, BICON: a backward phase to an open position,
then an HF forward phase towards it) on that level alone; the last
backward board its log prints ("best so far (pull mode)", the imagined
board) becomes a level of its own: the level's start, with the imagined
board's box squares as goals. Solving it is the forward half of the job
Festival did. Then keeper (one thread, each search alone) and Festival
(strategies A = classic FESS and E) try those levels.

The derived levels live in a temporary directory and are never kept (they
are made from the shared levels). Needs ../shared/peers/festival.

usage: python3 bench/festival_targets.py [SECONDS] [COLLECTION:INDEX ...]
       (default 20 s and the four levels below; KEEPER_BIN: keeper binary)
"""
import os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("SHARED", os.path.join(HERE, "..", "..", "shared"))
RUNSH = os.path.join(SHARED, "peers", "festival", "run.sh")
FESTIVAL = os.path.join(SHARED, "peers", "festival", "festival")
KEEPER = os.environ.get("KEEPER_BIN", os.path.join(HERE, "..", "build", "release", "keeper"))
DEFAULT = ["sasquatch5_50:28", "sasquatch6_50:38", "sasquatch7_50:34", "sasquatch7_50:35"]


def boards(path):
    """The boards of a level file, each a list of rows."""
    out, cur = [], []
    for line in open(path).read().split("\n"):
        if re.fullmatch(r"[ #@$.*+\-_]*", line) and "#" in line:
            cur.append(line)
        else:
            if cur:
                out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def festival(level_file, alg, secs, outdir):
    """Runs Festival strategy `alg` on level_file (one core); returns its
    results.tsv rows and the directory."""
    wrap = os.path.join(outdir, "festival-alg.sh")
    with open(wrap, "w") as f:
        f.write('#!/bin/sh\nexec "%s" "$@" -alg %d\n' % (FESTIVAL, alg))
    os.chmod(wrap, 0o755)
    run = os.path.join(outdir, "alg%d-%s" % (alg, os.path.basename(level_file)))
    env = dict(os.environ, FESTIVAL_BIN=wrap)
    subprocess.run([RUNSH, level_file, str(secs), "1", run], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tsv = os.path.join(run, "results.tsv")
    if not os.path.exists(tsv):  # Festival did not run: reported as unsolved
        return [], run
    rows = [l.split("\t") for l in open(tsv).read().splitlines()]
    return rows, run


def imagined(logdir):
    """The squares of the boxes on the last pull-mode board of the log."""
    text = ""
    for root, _, files in os.walk(logdir):
        for f in files:
            if f == "festival.log":
                text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
    lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")
    marks = [i for i, l in enumerate(lines) if "pull mode" in l]
    if not marks:
        return None
    i, rows = marks[-1] + 2, []
    while i < len(lines) and lines[i].strip():
        rows.append(lines[i])
        i += 1
    return {(r, c) for r, l in enumerate(rows) for c, ch in enumerate(l[2:]) if ch == "\u25ae"}


def target_level(rows, squares):
    """rows with the goals moved to `squares` (None when they do not fit)."""
    boxes = sum(l.count("$") + l.count("*") for l in rows)
    if len(squares) != boxes:
        return None
    w = max(map(len, rows))
    g = [list(l.ljust(w)) for l in rows]
    for r in range(len(g)):
        for c in range(w):
            ch = g[r][c]
            if ch == "#":
                continue
            box, man, goal = ch in "$*", ch in "@+", (r, c) in squares
            g[r][c] = ("*" if goal else "$") if box else (("+" if goal else "@") if man else ("." if goal else " "))
    return ["".join(x).rstrip() for x in g]


def keeper(level_file, strategy, secs):
    """'-' or keeper's seconds on the one level of level_file."""
    out = subprocess.run([KEEPER, "solve", level_file, "--time", str(secs), "--threads", "1",
                          "--strategy", strategy], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr  # the table
    for line in out.splitlines():
        f = line.split()
        if len(f) > 4 and f[0] == "1" and "solved" in f:
            return f[f.index("solved") + 1]
    return "-"


def main():
    args = sys.argv[1:]
    secs = int(args.pop(0)) if args and args[0].isdigit() else 20
    levels = args or DEFAULT
    if not (os.path.exists(RUNSH) and os.path.exists(FESTIVAL)):
        sys.exit("festival_targets: %s not found" % RUNSH)
    strategies = ["fess", "astar", "backward", "opening", "rev", "portfolio"]
    print("# level: Festival E on the level; then, on the level start -> E's imagined board:")
    print("# keeper's searches alone (one thread) and Festival A and E, seconds or -")
    print("%-18s %6s | %s | %6s %6s" % ("level", "E", " ".join("%9s" % s for s in strategies),
                                           "A", "E"))
    with tempfile.TemporaryDirectory() as tmp:
        for spec in levels:
            coll, idx = spec.split(":")
            rows = boards(os.path.join(SHARED, "levels", coll + ".xsb"))[int(idx) - 1]
            lf = os.path.join(tmp, "%s-%s.xsb" % (coll, idx))
            open(lf, "w").write("; %s %s\n%s\n\n" % (coll, idx, "\n".join(rows)))
            res, run = festival(lf, 4, secs, tmp)
            e_on_level = res[0][2] if res and res[0][1] == "OK" else "-"
            sq = imagined(run)
            t = target_level(rows, sq) if sq else None
            if not t:
                print("%-18s %6s | no imagined board with one square per box" % (spec, e_on_level))
                continue
            tf = os.path.join(tmp, "%s-%s-target.xsb" % (coll, idx))
            open(tf, "w").write("; %s %s to Festival E's imagined board\n%s\n\n" % (coll, idx, "\n".join(t)))
            ks = [keeper(tf, s, secs) for s in strategies]
            fa = festival(tf, 0, secs, tmp)[0]
            fe = festival(tf, 4, secs, tmp)[0]
            fs = [r[0][2] if r and r[0][1] == "OK" else "-" for r in (fa, fe)]
            print("%-18s %6s | %s | %6s %6s" % (spec, e_on_level, " ".join("%9s" % k for k in ks),
                                                fs[0], fs[1]), flush=True)


if __name__ == "__main__":
    main()
