"""python3 -m keeper solve FILE [options]: keeper's solve from Python.

Solves the levels of an XSB/SOK file on threads, prints a result line per
level on stderr as levels finish (in file order) and the solutions on
stdout, one LURD line per level (empty when unsolved) or JSON lines with
--format jsonl. Exit status: 0 when every level is solved, 1 when some is
not, 2 on bad input. Ctrl-C stops the run and prints what was found."""
import argparse
import json
import sys

import keeper


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m keeper",
                                 description="keeper: a Sokoban solver (Python front)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("solve", help="solve the levels of a file")
    sp.add_argument("file")
    sp.add_argument("--time", type=float, default=60, help="seconds per level (default 60)")
    sp.add_argument("--memory", type=int, default=None, help="MiB, shared by the threads")
    sp.add_argument("--threads", type=int, default=1, help="levels at a time (default 1)")
    sp.add_argument("--optimal", action="store_true", help="prove the push count optimal")
    sp.add_argument("--strategy", default=None,
                    help="portfolio (default), fess, astar, backward, opening, rev")
    sp.add_argument("--format", choices=["lurd", "jsonl"], default="lurd")
    sp.add_argument("--quiet", "-q", action="store_true", help="no result lines on stderr")
    a = ap.parse_args(argv)
    try:
        levels = keeper.load(a.file)
        results = keeper.solve_many(levels, threads=a.threads, time=a.time, memory=a.memory,
                                    optimal="pushes" if a.optimal else None,
                                    strategy=a.strategy)
        solved = total = 0
        for r in results:
            total += 1
            solved += r.solved
            if not a.quiet:
                what = ("solved %d moves %d pushes%s" % (r.moves, r.pushes,
                                                         " (optimal)" if r.optimal else "")
                        if r.solved else "%s: %s" % (r.status, r.reason))
                print("%5d  %-24s %s, %.2f s, %d positions" % (r.level + 1, r.title[:24], what,
                                                               r.seconds, r.positions),
                      file=sys.stderr)
            if a.format == "lurd":
                print(r.lurd or "")
            else:
                print(json.dumps({"index": r.level + 1, "title": r.title, "status": r.status,
                                  "reason": r.reason, "moves": r.moves, "pushes": r.pushes,
                                  "optimal": r.optimal, "seconds": round(r.seconds, 3),
                                  "positions": r.positions, "strategy": r.strategy,
                                  "solution": r.lurd}))
            sys.stdout.flush()
    except (keeper.KeeperError, ValueError, OSError) as e:
        print("python3 -m keeper: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    if not a.quiet:
        print("solved %d/%d" % (solved, total), file=sys.stderr)
    return 0 if solved == total else 1


if __name__ == "__main__":
    sys.exit(main())
