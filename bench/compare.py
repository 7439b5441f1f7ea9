#!/usr/bin/env python3
"""bench/compare.py RESULTS.jsonl [PEER.txt | PEER.tsv]

Summarizes a keeper run recorded by bench/run.sh (one JSON object per level)
and, given a peer's result table (../shared/peers/*.txt, Festival's format:
task number, time, ..., OK/Failed, moves, pushes; or *.tsv as the peer's
run.sh writes it: level, status, seconds, moves, pushes), compares them
level by level: solved counts, the levels only one of the two solved (with
the peer's time), and the time and pushes on the levels both solved.
"""
import json
import re
import sys


def load_keeper(path):
    runs = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                r = json.loads(line)
                runs[r["index"]] = r
    return runs


def load_peer(path):
    peer = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if path.endswith(".tsv"):
                if len(t) >= 3 and t[0].isdigit():
                    ok = t[1] == "OK"
                    peer[int(t[0])] = {"solved": ok, "seconds": float(t[2]) if ok else 20.0,
                                       "pushes": int(t[4]) if ok and len(t) > 4 else None}
                continue
            if len(t) < 3 or not t[0].isdigit() or not re.fullmatch(r"\d+:\d+:\d+", t[1]):
                continue
            h, m, s = (int(x) for x in t[1].split(":"))
            ok = "OK" in t
            nums = [int(x) for x in t[t.index("OK") + 1:] if x.isdigit()] if ok else []
            pushes = nums[1] if len(nums) >= 2 else None
            peer[int(t[0])] = {"solved": ok, "seconds": h * 3600 + m * 60 + s, "pushes": pushes}
    return peer


def ranges(ids):
    """1,2,3,5 -> '1-3,5' (the form keeper's --levels accepts)."""
    out, ids = [], sorted(ids)
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(out) or "-"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = load_keeper(sys.argv[1])
    solved = sorted(i for i, r in runs.items() if r["status"] == "solved")
    total = sum(r["seconds"] for r in runs.values())
    nodes = sum(r["nodes"] for r in runs.values())
    print(f"keeper: {len(solved)}/{len(runs)} solved, {total:.1f} s, {nodes} positions stored")
    print(f"  solved: {ranges(solved)}")
    opt = sorted(i for i, r in runs.items() if r.get("optimal"))
    if opt:
        print(f"  proven push-optimal: {len(opt)}: {ranges(opt)}")
    lbs = [(i, r["lower_bound"]) for i, r in sorted(runs.items())
           if r["status"] != "solved" and r.get("lower_bound") is not None]
    if lbs:
        print("  unsolved, proven lower bound (pushes): " +
              ", ".join(f"{i}: {lb}" for i, lb in lbs))
    if len(sys.argv) < 3:
        return
    peer = load_peer(sys.argv[2])
    psolved = sorted(i for i, p in peer.items() if p["solved"])
    print(f"peer:   {len(psolved)}/{len(peer)} solved, {sum(p['seconds'] for p in peer.values())} s")
    only_k = [i for i in solved if i in peer and not peer[i]["solved"]]
    only_p = [i for i in psolved if i in runs and runs[i]["status"] != "solved"]
    print(f"  solved by keeper only: {ranges(only_k)}")
    print(f"  solved by the peer only: {ranges(only_p)}" +
          ("  (peer's seconds: " + ", ".join(f"{i}: {peer[i]['seconds']:g}" for i in only_p) + ")"
           if only_p else ""))
    both_t = [i for i in solved if i in peer and peer[i]["solved"]]
    if both_t:
        kt = sum(runs[i]["seconds"] for i in both_t)
        pt = sum(peer[i]["seconds"] for i in both_t)
        print(f"  time on the {len(both_t)} levels both solved: keeper {kt:.1f} s, peer {pt:g} s")
    both = [i for i in solved if i in peer and peer[i]["solved"] and peer[i]["pushes"]]
    if both:
        kp = sum(runs[i]["pushes"] for i in both)
        pp = sum(peer[i]["pushes"] for i in both)
        print(f"  pushes on the {len(both)} levels both solved: keeper {kp}, peer {pp}")


if __name__ == "__main__":
    main()
