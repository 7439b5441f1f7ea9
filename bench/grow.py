#!/usr/bin/env python3
"""Grow a harder level from a start level: mutate and keep the harder.

    bench/grow.py FILE LEVEL --out OUT.xsb [--target SECONDS] [--seed N]

Each step makes one random change to the board (a wall added or taken away
inside it, a box or a goal moved to another floor square, the player moved)
and asks keeper (one thread, so node counts are deterministic) to solve the
result. The change is kept when keeper still solves the level and needs more
nodes than before. The loop stops when keeper needs TARGET seconds (one
thread) or after --steps changes; the best level so far is written to OUT
after every kept change, with its node count and time in a comment.

This is how levels/demo-hard.xsb was made: a stronger keeper makes its levels
easy, and the tests that need a level taking seconds (interrupts, progress
reports, the status line) then grow new ones with this script.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEEPER = os.path.join(TOP, "build", "release", "keeper")


def read_level(path, index):
    """The rows of level INDEX (1-based) of an XSB file."""
    levels, cur = [], []
    for line in open(path):
        line = line.rstrip("\n")
        if line and set(line) <= set("#@+$*. _-") and "#" in line:
            cur.append(line.replace("-", " ").replace("_", " "))
        elif cur:
            levels.append(cur)
            cur = []
    if cur:
        levels.append(cur)
    return [list(r) for r in levels[index - 1]]


def inside(rows):
    """Squares the player can reach or that hold boxes/goals: the floor
    reachable from the player through non-wall squares."""
    h = len(rows)
    w = max(len(r) for r in rows)
    grid = [r + [" "] * (w - len(r)) for r in rows]
    start = next((x, y) for y in range(h) for x in range(w) if grid[y][x] in "@+")
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and grid[ny][nx] != "#":
                if nx in (0, w - 1) or ny in (0, h - 1):
                    return None  # leaks out of the board
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def mutate(rows, rng):
    """One random change, or None when the change breaks the board."""
    rows = [list(r) for r in rows]
    h, w = len(rows), max(len(r) for r in rows)
    for r in rows:
        r.extend(" " * (w - len(r)))
    floor = inside(rows)
    if floor is None:
        return None
    cells = sorted(floor)
    kind = rng.choice(["wall+", "wall-", "box", "goal", "player"])
    x, y = rng.choice(cells)
    c = rows[y][x]
    if kind == "wall+":
        if c != " ":
            return None
        rows[y][x] = "#"
    elif kind == "wall-":
        walls = [(i, j) for j in range(1, h - 1) for i in range(1, w - 1)
                 if rows[j][i] == "#" and any((i + dx, j + dy) in floor
                                              for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
        if not walls:
            return None
        i, j = rng.choice(walls)
        rows[j][i] = " "
    else:
        want = {"box": "$*", "goal": ".*+", "player": "@+"}[kind]
        src = [(i, j) for (i, j) in cells if rows[j][i] in want]
        if not src:
            return None
        i, j = rng.choice(src)
        s, d = rows[j][i], rows[y][x]
        # the destination must not hold what moves there (nor, for a box or
        # the player, the other of the two)
        if d in {"box": "$*@+", "goal": ".*+", "player": "$*@+"}[kind]:
            return None
        def compose(box, goal, player):
            if box:
                return "*" if goal else "$"
            if player:
                return "+" if goal else "@"
            return "." if goal else " "
        def parts(ch):
            return ch in "$*", ch in ".*+", ch in "@+"
        sb, sg, sp = parts(s)
        db, dg, dp = parts(d)
        if kind == "box":
            sb, db = False, True
        elif kind == "goal":
            sg, dg = False, True
        else:
            sp, dp = False, True
        rows[j][i] = compose(sb, sg, sp)
        rows[y][x] = compose(db, dg, dp)
    if inside(rows) is None:
        return None
    return ["".join(r).rstrip() for r in rows]


def solve(rows, limit):
    """(nodes, seconds) when keeper solves the level in LIMIT s, else None."""
    with tempfile.NamedTemporaryFile("w", suffix=".xsb", delete=False) as f:
        f.write("\n".join(rows) + "\n")
        path = f.name
    try:
        out = subprocess.run([KEEPER, "solve", path, "--time", str(limit), "--threads", "1",
                              "--format", "jsonl", "--no-progress"],
                             capture_output=True, text=True, timeout=limit + 30).stdout
    finally:
        os.unlink(path)
    for line in out.splitlines():
        r = json.loads(line)
        if r.get("status") == "solved":
            return r["nodes"], r["seconds"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("level", type=int)
    ap.add_argument("--out", required=True)
    ap.add_argument("--target", type=float, default=5.0)
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    best = ["".join(r).rstrip() for r in read_level(a.file, a.level)]
    got = solve(best, a.limit)
    if got is None:
        sys.exit("the start level is not solved in the limit")
    for step in range(a.steps):
        cand = mutate(best, rng)
        # every change keeps the counts of boxes and goals
        if cand is None or cand == best:
            continue
        r = solve(cand, a.limit)
        if r is None or r[0] <= got[0]:
            continue
        best, got = cand, r
        with open(a.out, "w") as f:
            f.write("; grown by bench/grow.py from %s level %d (seed %d, step %d): "
                    "%d nodes, %.2f s at one thread\n\n" % (os.path.basename(a.file), a.level,
                                                         a.seed, step, got[0], got[1]))
            f.write("\n".join(best) + "\n")
        print("step %d: %d nodes %.2f s" % (step, got[0], got[1]), flush=True)
        if got[1] >= a.target:
            break


if __name__ == "__main__":
    main()
