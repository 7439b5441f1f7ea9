"""keeper: a Sokoban solver and solution optimizer, from Python.

    import keeper
    levels = keeper.load("levels.xsb")              # XSB/SOK file or text
    r = keeper.solve(levels[0], time=10)
    if r.solved:
        print(r.moves, r.pushes, r.lurd)
    for r in keeper.solve_many(levels, threads=2, time=10, optimal="pushes"):
        print(r.level, r.pushes if r.solved else r.reason)

Every solution returned has been replayed and verified by keeper's C core.
Searches run in C with the GIL released; Ctrl-C stops a running solve and
raises KeyboardInterrupt once the search has stopped. Time and memory
limits hold as in the command-line program (`keeper solve`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Union

from . import _keeper
from ._keeper import KeeperError

__all__ = [
    "KeeperError", "InvalidSolution", "Level", "Metrics", "Result", "Progress",
    "load", "solve", "solve_many", "verify", "is_solution", "optimize",
    "option_names", "__version__",
]
__version__ = _keeper.VERSION


class InvalidSolution(KeeperError):
    """The moves do not solve the level; the message says why."""


@dataclass(frozen=True)
class Metrics:
    """A solution's counts: moves and pushes, and the YASC metrics."""
    moves: int = 0
    pushes: int = 0
    box_lines: int = 0
    box_changes: int = 0
    pushing_sessions: int = 0
    player_lines: int = 0


@dataclass(frozen=True)
class Progress:
    """What a running solve reports to a progress callback."""
    level: int           # index of the level in the call (0-based)
    seconds: float       # since the level started
    positions: int       # positions stored so far
    memory: int          # bytes of the search's memory budget in use
    lower_bound: int     # optimal modes: the proven bound so far (pushes, or moves), else -1
    status: str          # the same as one line of text


@dataclass(frozen=True)
class Result:
    """The outcome of solving one level."""
    level: int                  # index of the level in the call (0-based)
    title: str
    status: str                 # "solved", "unsolved" or "invalid"
    reason: str                 # why not solved ("time limit", "no solution", ...)
    lurd: Optional[str]         # the verified solution, None unless solved
    metrics: Metrics            # of the solution (zeros unless solved)
    found: Metrics              # as the search found it, before optimize=
    optimal: bool               # proven optimal: pushes, or moves then pushes (optimal="moves")
    lower_bound: int            # optimal modes: proven bound on pushes (moves), else -1
    positions: int              # positions stored
    expanded: int               # positions expanded
    seconds: float
    strategy: str               # the search that found it (or that ran)

    @property
    def solved(self) -> bool:
        return self.status == "solved"

    @property
    def moves(self) -> Optional[int]:
        return self.metrics.moves if self.solved else None

    @property
    def pushes(self) -> Optional[int]:
        return self.metrics.pushes if self.solved else None


_BOARD_CHARS = set("#@+$*.-_ ")


class Level:
    """One Sokoban level: its board rows (XSB: # wall, @ player, + player on
    goal, $ box, * box on goal, . goal, space or - floor) and a title.

    Made from XSB text, a list of rows, a file (keeper.load) or Boxoban's
    format (the same XSB with "; N" titles). A malformed level raises
    KeeperError with keeper's "NAME:LINE: error: ..." message.
    """

    __slots__ = ("rows", "title", "_source")

    def __init__(self, rows: Union[str, Sequence[str]], title: str = "",
                 source: str = "level"):
        if isinstance(rows, str):
            rows = rows.splitlines()
        rows = [r.rstrip("\r\n") for r in rows]
        while rows and not rows[0].strip():
            rows.pop(0)
        while rows and not rows[-1].strip():
            rows.pop()
        self.rows: List[str] = list(rows)
        self.title = title
        self._source = source
        coll = _keeper.parse(source, self.xsb())
        if coll.count() != 1:
            raise KeeperError("%s: error: %d levels in the text, expected one"
                              % (source, coll.count()))
        err = coll.error(1)
        if err:
            raise KeeperError(err)
        if not self.title:
            self.title = coll.title(1)

    @classmethod
    def _checked(cls, rows: List[str], title: str, source: str) -> "Level":
        """A level whose rows keeper has already read without error."""
        lv = cls.__new__(cls)
        lv.rows, lv.title, lv._source = rows, title, source
        return lv

    @classmethod
    def from_text(cls, text: str, title: str = "", source: str = "level") -> "Level":
        """One level from XSB text (title lines and notes allowed)."""
        found = _levels_of(text, source)
        if len(found) != 1:
            raise KeeperError("%s: error: %d levels in the text, expected one"
                              % (source, len(found)))
        return cls._checked(found[0].rows, title or found[0].title, source)

    def xsb(self) -> str:
        """The board as XSB text (rows only)."""
        return "\n".join(self.rows) + "\n"

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    @property
    def height(self) -> int:
        return len(self.rows)

    def to_numpy(self):
        """The board as a numpy array of shape (4, height, width), uint8:
        planes walls, goals, boxes, player (the layout gym-sokoban's
        observations are built from). Needs numpy."""
        import numpy as np  # optional dependency
        a = np.zeros((4, self.height, self.width), dtype=np.uint8)
        for y, row in enumerate(self.rows):
            for x, ch in enumerate(row):
                a[0, y, x] = ch == "#"
                a[1, y, x] = ch in ".*+"
                a[2, y, x] = ch in "$*"
                a[3, y, x] = ch in "@+"
        return a

    def __repr__(self) -> str:
        return "Level(%r, %dx%d)" % (self.title, self.width, self.height)

    def __str__(self) -> str:
        return self.xsb()


def _levels_of(text: str, name: str) -> List[Level]:
    """Every level of a collection's text, each checked by keeper."""
    coll = _keeper.parse(name, text)
    n = coll.count()
    for i in range(1, n + 1):
        err = coll.error(i)
        if err:
            raise KeeperError(err)
    # keeper found n levels; cut the text into the same boards
    boards: List[List[str]] = []
    cur: List[str] = []
    for line in text.splitlines():
        s = line.rstrip("\r\n")
        is_board = bool(s.strip()) and set(s) <= _BOARD_CHARS and "#" in s
        if is_board:
            cur.append(s)
        elif cur:
            boards.append(cur)
            cur = []
    if cur:
        boards.append(cur)
    if len(boards) != n:  # an unusual layout: fall back to keeper's count
        raise KeeperError("%s: error: found %d boards where keeper reads %d levels"
                          % (name, len(boards), n))
    # each board was checked as part of the text: not parsed again
    return [Level._checked(b, coll.title(i + 1), name) for i, b in enumerate(boards)]


def load(source: Union[str, os.PathLike], name: Optional[str] = None) -> List[Level]:
    """The levels of an XSB/SOK file (a path), or of XSB text when `source`
    holds a newline. Raises KeeperError with "FILE:LINE: error: ..." for a
    malformed level, OSError for a file that cannot be read."""
    src = os.fspath(source)
    if "\n" in src:
        return _levels_of(src, name or "text")
    with open(src, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return _levels_of(text, name or src)


def option_names() -> List[str]:
    """Every option name solve() takes as a keyword (with _ for -)."""
    return [n.replace("-", "_") for n in _keeper.option_names().split(", ")]


def _options(time, memory, optimal, strategy, threads, extra) -> list:
    opts = []
    if time is not None:
        opts.append(("time", repr(float(time))))
    if memory is not None:
        opts.append(("memory", str(int(memory))))
    if threads is not None:
        opts.append(("threads", str(int(threads))))
    if optimal is not None and optimal is not False:
        if optimal in (True, "pushes"):
            opts.append(("optimal", "1"))
        elif optimal == "moves":
            opts.append(("optimal", "moves"))
        else:
            raise ValueError("optimal must be None, 'pushes' or 'moves', not %r" % (optimal,))
    if strategy is not None:
        opts.append(("strategy", str(strategy)))
    for k, v in extra.items():
        if isinstance(v, bool):
            v = "1" if v else "0"
        opts.append((k.replace("_", "-"), str(v)))
    _keeper.options_check(opts)  # ValueError with keeper's message
    return opts


def _metrics(d) -> Metrics:
    return Metrics(**d)


def _result(d, title: str) -> Result:
    return Result(level=d["i"], title=title, status=d["status"], reason=d["reason"],
                  lurd=d["lurd"], metrics=_metrics(d["metrics"]), found=_metrics(d["found"]),
                  optimal=d["optimal"], lower_bound=d["lower_bound"], positions=d["nodes"],
                  expanded=d["expanded"], seconds=d["seconds"], strategy=d["strategy"])


def _as_levels(levels) -> List[Level]:
    if isinstance(levels, (str, os.PathLike)):
        return load(levels)
    out = []
    for lv in levels:
        out.append(lv if isinstance(lv, Level) else Level(lv))
    return out


def _wait_job(job) -> None:
    """Waits for a job with the GIL released in short steps, so that Ctrl-C
    is seen; on any exception the job is interrupted and waited for."""
    try:
        while not job.wait(0.1):
            pass
    except BaseException:
        job.interrupt()
        raise
    finally:
        job.wait()


def solve_many(levels: Union[Iterable[Union[Level, str]], str, os.PathLike], *,
               threads: int = 2, time: Optional[float] = 60, memory: Optional[int] = None,
               optimal: Optional[str] = None, strategy: Optional[str] = None,
               progress: Union[None, bool, Callable[[Progress], None]] = None,
               progress_every: float = 1.0,
               seeds: Optional[Sequence[Optional[str]]] = None,
               **options) -> Iterator[Result]:
    """Solves the levels on `threads` threads (levels at a time, as `keeper
    solve --threads N`) and yields each Result in the order given, as soon as
    it and those before it are done. `time` is per level, `memory` (MiB) is
    shared by the threads. `progress`: a callable given Progress reports
    about every `progress_every` seconds, or True for a tqdm bar (when tqdm
    is installed). `seeds` (with optimal="pushes"): per level a known
    solution (LURD) or None, that seeds the proof as `keeper solve --seed`
    does; InvalidSolution for one that does not solve its level. Other
    keyword options are keeper's (option_names()). Ctrl-C (or closing the
    generator) stops the searches; KeyboardInterrupt follows once they have
    stopped."""
    lv = _as_levels(levels)
    opts = _options(time, memory, optimal, strategy, threads, options)
    text = "\n".join(level.xsb() for level in lv)
    coll = _keeper.parse("levels", text)
    if coll.count() != len(lv):
        raise KeeperError("levels: error: %d levels joined into %d" % (len(lv), coll.count()))
    if seeds is not None:
        seeds = list(seeds)
        if optimal not in (True, "pushes"):
            raise ValueError("seeds seed push-optimal proofs: they need optimal=\"pushes\"")
        if len(seeds) != len(lv):
            raise ValueError("seeds: %d for %d levels" % (len(seeds), len(lv)))
        for i, sd in enumerate(seeds):
            if sd:
                ok, why = _keeper.seed(coll, i + 1, sd)
                if not ok:
                    raise InvalidSolution("level %d: %s" % (i, why))
    bar = None
    callback = progress if callable(progress) else None
    if progress is True:
        try:
            from tqdm import tqdm  # optional
            bar = tqdm(total=len(lv), unit="level")
        except ImportError:
            bar = None
    job = _keeper.solve_job(coll, list(range(1, len(lv) + 1)), opts,
                            progress_every if callback else 0.0)
    try:
        while job.remaining():
            d = job.next(0.1)
            if callback:
                p = job.progress()
                if p:
                    callback(Progress(level=p["level"] - 1, seconds=p["seconds"],
                                      positions=p["nodes"], memory=p["memory"],
                                      lower_bound=p["lower_bound"], status=p["status"]))
            if d is None:
                continue
            if bar is not None:
                bar.update(1)
            yield _result(d, lv[d["i"]].title)
    except BaseException:
        job.interrupt()
        raise
    finally:
        job.wait()
        if bar is not None:
            bar.close()


def solve(level: Union[Level, str], *, time: Optional[float] = 60,
          memory: Optional[int] = None, optimal: Optional[str] = None,
          strategy: Optional[str] = None, threads: int = 1,
          progress: Optional[Callable[[Progress], None]] = None,
          progress_every: float = 1.0, seed: Optional[str] = None,
          **options) -> Result:
    """Solves one level (a Level, or XSB text). `time` in seconds (None or 0:
    no limit), `memory` in MiB, optimal="pushes" proves the push count
    (`seed`: a known solution, LURD, to start the proof from, as `keeper
    solve --seed`), optimal="moves" the moves (then the pushes; small levels),
    `strategy` one of keeper's ("portfolio", "fess", "astar", "backward",
    "opening", "rev"), threads=2 runs the portfolio's searches side by side. Other
    keyword options are keeper's (option_names(); dead_squares=False is
    --no-dead-squares). Raises KeeperError for a malformed level, ValueError
    for a bad option."""
    lv = level if isinstance(level, Level) else Level(level)
    for r in solve_many([lv], threads=threads, time=time, memory=memory, optimal=optimal,
                        strategy=strategy, progress=progress, progress_every=progress_every,
                        seeds=None if seed is None else [seed], **options):
        return r
    raise RuntimeError("no result")  # cannot happen


def verify(level: Union[Level, str], lurd: str) -> Metrics:
    """Replays `lurd` (LURD moves, run-length encoding allowed) on the level.
    Returns the solution's Metrics, or raises InvalidSolution with the
    reason ("step 4 (l): the player walks into a wall", ...)."""
    lv = level if isinstance(level, Level) else Level(level)
    coll = _keeper.parse("level", lv.xsb())
    ok, what = _keeper.verify(coll, 1, lurd)
    if not ok:
        raise InvalidSolution(what)
    return _metrics(what)


def is_solution(level: Union[Level, str], lurd: str) -> bool:
    """Whether `lurd` solves the level."""
    try:
        verify(level, lurd)
        return True
    except InvalidSolution:
        return False


@dataclass(frozen=True)
class Optimized:
    """The outcome of optimize(): a verified solution never worse than the
    input in the chosen order."""
    lurd: str
    metrics: Metrics
    before: Metrics

    @property
    def moves(self) -> int:
        return self.metrics.moves

    @property
    def pushes(self) -> int:
        return self.metrics.pushes


def optimize(level: Union[Level, str], lurd: str, *, metric: str = "moves",
             time: float = 10, memory: Optional[int] = None) -> Optimized:
    """Makes a solution shorter, as `keeper optimize` does: fewest moves
    first (metric="moves") or fewest pushes first ("pushes"), for at most
    `time` seconds (0: until no method improves it). Raises InvalidSolution
    when `lurd` does not solve the level, ValueError for a bad metric."""
    lv = level if isinstance(level, Level) else Level(level)
    if metric not in ("moves", "pushes"):
        raise ValueError("metric must be 'moves' or 'pushes', not %r" % (metric,))
    before = verify(lv, lurd)
    opts = _options(None, memory, None, None, None, {})
    coll = _keeper.parse("level", lv.xsb())
    job = _keeper.optimize_job(coll, 1, lurd, metric, float(time or 0), opts)
    _wait_job(job)
    res = job.optimized()
    if not res[0]:
        raise InvalidSolution(res[1])
    return Optimized(lurd=res[1], metrics=_metrics(res[2]), before=before)
