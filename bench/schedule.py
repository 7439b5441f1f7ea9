#!/usr/bin/env python3
"""Estimates what a portfolio schedule would solve, from each member's time alone.

usage: bench/schedule.py [TABLE] [--limit S] [--join S] [--share NAME=X ...]

TABLE (default bench/results/members-alone-10s.tsv) holds, per level of each
set, the seconds each member needs alone ('-': not solved within the run's
limit). A schedule gives the members shares of the level's time: before the
join time (--join, seconds) the members other than opening-hf share it in
proportion to their shares; from then on all do (the members that join late:
opening-hf and rev). A member whose alone time is
t solves the level once the time it has been given reaches t; the level is
solved at the first such moment within --limit. What it leaves out: the
meetings of the forward and backward searches (a level neither solves alone),
learned patterns shared between members, and levels a member needs more than
the table's limit for. So it ranks schedules; the benchmarks decide.

Example: the measured shares of the default on the levels it loses, against
the opening search (HF order) with half the time from the start:
  bench/schedule.py --share fess=.27 astar=.38 backward=.21 opening-hf=.14 --join 4
  bench/schedule.py --share fess=.24 astar=.1 backward=.16 opening-hf=.5 --join 0
"""
import sys


def load(path):
    table, members = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            cols = line.rstrip('\n').split('\t')
            if cols[0] == 'set':
                members = cols[2:]
                continue
            table[(cols[0], int(cols[1]))] = {
                m: (None if v == '-' else float(v)) for m, v in zip(members, cols[2:])}
    return table, members


LATE = ('opening-hf', 'rev')  # the members that join at --join


def solved_at(times, shares, join, limit):
    """The time the level is solved under the schedule, or None."""
    early = {m: s for m, s in shares.items() if m not in LATE}
    total_early = sum(early.values()) or 1.0
    best = None
    for m, share in shares.items():
        t = times.get(m)
        if t is None or share <= 0:
            continue
        a = early.get(m, 0.0) / total_early  # share before the join
        done_early = a * min(join, limit)
        if a > 0 and done_early >= t:
            at = t / a
        else:
            at = join + (t - done_early) / share
        if at <= limit and (best is None or at < best):
            best = at
    return best


def main(argv):
    path, limit, join, shares = 'bench/results/members-alone-10s.tsv', 20.0, 0.0, {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--limit':
            limit = float(argv[i + 1]); i += 2
        elif a == '--join':
            join = float(argv[i + 1]); i += 2
        elif a == '--share':
            i += 1
            while i < len(argv) and '=' in argv[i]:
                k, v = argv[i].split('=')
                shares[k] = float(v)
                i += 1
        elif a.startswith('-'):
            sys.exit(__doc__)
        else:
            path = a; i += 1
    table, members = load(path)
    if not shares:
        shares = {m: 1.0 / len(members) for m in members}
    unknown = set(shares) - set(members)
    if unknown:
        sys.exit(f'no such member in {path}: {", ".join(sorted(unknown))}')
    sets = []
    for (s, _) in table:
        if s not in sets:
            sets.append(s)
    total = 0
    for s in sets:
        levels = sorted(l for (t, l) in table if t == s)
        n = sum(1 for l in levels if solved_at(table[(s, l)], shares, join, limit) is not None)
        total += n
        print(f'{s:16s} {n:3d}/{len(levels)}')
    print(f'{"total":16s} {total:3d}')


if __name__ == '__main__':
    main(sys.argv[1:])
