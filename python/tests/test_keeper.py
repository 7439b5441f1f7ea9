"""Tests of the keeper Python package (standard library unittest only).

Run from the top of the source tree with the package built, e.g.
    python3 python/setup.py build --build-lib /tmp/k && \
        PYTHONPATH=/tmp/k python3 -m unittest discover -s python/tests -v
(tests/cli/test_python.sh does this in `make test`). KEEPER names the
keeper binary for the comparison with the command line, KEEPER_SHARED the
shared data folder (../shared); tests that need either skip visibly when
it is missing. Every solution is replayed here by a replay of the test's
own, independent of keeper's."""
import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unittest

import keeper

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(TOP, "levels", "demo.xsb")
HARD = os.path.join(TOP, "levels", "demo-hard.xsb")
SHARED = os.environ.get("KEEPER_SHARED", os.path.join(TOP, "..", "shared"))
SLACK = float(os.environ.get("KEEPER_TEST_SLACK_MS", "0")) / 1000.0


def replay(level, lurd):
    """(moves, pushes) when lurd solves the level, else None: the test's own
    replay, sharing no code with keeper."""
    walls, goals, boxes, player = set(), set(), set(), None
    for y, row in enumerate(level.rows):
        for x, ch in enumerate(row):
            if ch == "#":
                walls.add((y, x))
            if ch in ".*+":
                goals.add((y, x))
            if ch in "$*":
                boxes.add((y, x))
            if ch in "@+":
                player = (y, x)
    step = {"l": (0, -1), "r": (0, 1), "u": (-1, 0), "d": (1, 0)}
    moves = pushes = 0
    for ch in lurd:
        if ch.lower() not in step:
            return None
        dy, dx = step[ch.lower()]
        nxt = (player[0] + dy, player[1] + dx)
        if nxt in walls:
            return None
        if nxt in boxes:
            beyond = (nxt[0] + dy, nxt[1] + dx)
            if beyond in walls or beyond in boxes:
                return None
            boxes.remove(nxt)
            boxes.add(beyond)
            pushes += 1
        player = nxt
        moves += 1
    return (moves, pushes) if boxes == goals else None


class LevelsAndErrors(unittest.TestCase):
    def test_load_file_and_text(self):
        levels = keeper.load(DEMO)
        self.assertEqual(len(levels), 8)
        self.assertEqual(levels[0].title, "Warm-up")
        again = keeper.load("".join(lv.xsb() + "\n" for lv in levels))
        self.assertEqual([lv.rows for lv in again], [lv.rows for lv in levels])
        one = keeper.Level(levels[2].rows, title="mine")
        self.assertEqual(one.title, "mine")
        self.assertEqual(keeper.Level.from_text(levels[3].xsb()).rows, levels[3].rows)

    def test_bad_input_raises_with_the_line(self):
        with self.assertRaises(keeper.KeeperError) as e:
            keeper.Level("#####\n#@$.\n####\n")
        self.assertIn("level:2: error:", str(e.exception))
        with self.assertRaises(keeper.KeeperError) as e:
            keeper.load("#####\n#@$.#\n#####\n\n#####\n#@$$.#\n######\n", name="two.xsb")
        self.assertIn("two.xsb:", str(e.exception))
        with self.assertRaises(OSError):
            keeper.load(os.path.join(TOP, "no-such-file.xsb"))

    def test_bad_options_raise_with_keeper_message(self):
        lv = keeper.load(DEMO)[0]
        with self.assertRaises(ValueError) as e:
            keeper.solve(lv, speed=3)
        self.assertIn("unknown option 'speed'", str(e.exception))
        with self.assertRaises(ValueError) as e:
            keeper.solve(lv, strategy="magic")
        self.assertIn("fess", str(e.exception))
        with self.assertRaises(ValueError):
            keeper.solve(lv, optimal="fewest")
        self.assertIn("dead_squares", keeper.option_names())

    def test_numpy_planes(self):
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.skipTest("numpy not installed: Level.to_numpy not tested")
        lv = keeper.load(DEMO)[0]
        a = lv.to_numpy()
        self.assertEqual(a.shape, (4, lv.height, lv.width))
        self.assertEqual(int(a[2].sum()), sum(r.count("$") + r.count("*") for r in lv.rows))


class Solving(unittest.TestCase):
    def setUp(self):
        # _thread.interrupt_main acts only when Python handles SIGINT; a
        # test run started in the background by a shell without job control
        # inherits SIGINT ignored, so the interrupt tests install Python's
        # default handler for their run (and put the old one back).
        old = signal.getsignal(signal.SIGINT)
        if old is not signal.default_int_handler:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self.addCleanup(signal.signal, signal.SIGINT, old)

    def test_demo_solved_and_replayed(self):
        for i, lv in enumerate(keeper.load(DEMO)):
            r = keeper.solve(lv, time=30)
            self.assertTrue(r.solved, "level %d: %s" % (i + 1, r.reason))
            self.assertEqual(replay(lv, r.lurd), (r.moves, r.pushes))
            self.assertEqual(keeper.verify(lv, r.lurd).moves, r.moves)
            self.assertTrue(r.strategy)

    def test_same_as_the_command_line(self):
        exe = os.environ.get("KEEPER")
        if not exe or not os.path.exists(exe):
            self.skipTest("KEEPER (the keeper binary) not set: no comparison with the CLI")
        out = subprocess.run([exe, "solve", DEMO, "--time", "30", "--format", "jsonl", "-q"],
                             capture_output=True, text=True, check=False).stdout
        cli = [json.loads(line) for line in out.splitlines() if line.strip()]
        py = list(keeper.solve_many(DEMO, threads=1, time=30))
        self.assertEqual(len(cli), len(py))
        for c, p in zip(cli, py):
            self.assertEqual(c["status"], p.status)
            self.assertEqual(c["solution"], p.lurd)  # one thread: the same search
            self.assertEqual(c["nodes"], p.positions)

    def test_optimal_moves_proven(self):
        lv = keeper.load(DEMO)[0]
        rm = keeper.solve(lv, optimal="moves", time=30)
        rp = keeper.solve(lv, optimal="pushes", time=30)
        self.assertTrue(rm.solved and rm.optimal and rp.solved and rp.optimal)
        self.assertLessEqual(rm.metrics.moves, rp.metrics.moves)
        self.assertGreaterEqual(rm.metrics.pushes, rp.metrics.pushes)
        self.assertEqual(rm.lower_bound, rm.metrics.moves)

    def test_optimal_pushes_proven(self):
        lv = keeper.load(DEMO)[3]
        r = keeper.solve(lv, optimal="pushes", time=30)
        self.assertTrue(r.solved and r.optimal)
        self.assertEqual(r.lower_bound, r.pushes)
        fast = keeper.solve(lv, time=30)
        self.assertLessEqual(r.pushes, fast.pushes)

    def test_optimal_pushes_from_a_seed(self):
        lv = keeper.load(DEMO)[3]
        r = keeper.solve(lv, optimal="pushes", time=30)
        self.assertTrue(r.solved and r.optimal)
        s = keeper.solve(lv, optimal="pushes", time=30, seed=r.lurd)
        self.assertTrue(s.solved and s.optimal)
        self.assertEqual(s.pushes, r.pushes)
        self.assertEqual(s.strategy, "astar (seed)")  # nothing shorter than the seed
        with self.assertRaises(keeper.InvalidSolution):
            keeper.solve(lv, optimal="pushes", time=30, seed="uuuu")
        with self.assertRaises(ValueError):
            keeper.solve(lv, time=30, seed=r.lurd)

    def test_solve_many_order_and_completeness(self):
        levels = keeper.load(DEMO)
        order = list(range(len(levels)))[::-1]
        chosen = [levels[i] for i in order]
        got = list(keeper.solve_many(chosen, threads=2, time=30))
        self.assertEqual([r.level for r in got], list(range(len(chosen))))
        self.assertEqual([r.title for r in got], [lv.title for lv in chosen])
        for r, lv in zip(got, chosen):
            self.assertTrue(r.solved)
            self.assertEqual(replay(lv, r.lurd), (r.moves, r.pushes))

    def test_tqdm_bar(self):
        try:
            import tqdm  # noqa: F401
        except ImportError:
            self.skipTest("tqdm not installed: the progress bar is not tested")
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            got = list(keeper.solve_many(DEMO, threads=2, time=30, progress=True))
        self.assertEqual(len(got), 8)
        self.assertIn("8/8", err.getvalue())

    def test_boxoban_sample(self):
        path = os.path.join(SHARED, "levels", "boxoban", "hard", "000.txt")
        if not os.path.exists(path):
            self.skipTest("%s not found: the Boxoban sample is not tested" % path)
        levels = keeper.load(path)[:30]
        solved = 0
        for r in keeper.solve_many(levels, threads=2, time=20):
            lv = levels[r.level]
            if r.solved:
                solved += 1
                self.assertEqual(replay(lv, r.lurd), (r.moves, r.pushes), lv.title)
        self.assertEqual(solved, len(levels))

    def test_time_limit_holds(self):
        lv = keeper.load(HARD)[0]
        t = time.time()
        r = keeper.solve(lv, time=0.5)
        took = time.time() - t
        self.assertFalse(r.solved)
        self.assertEqual(r.reason, "time limit")
        self.assertLess(took, 1.5 + SLACK)

    def test_progress_reports(self):
        lv = keeper.load(HARD)[0]
        seen = []
        r = keeper.solve(lv, time=1.0, progress=seen.append, progress_every=0.2)
        self.assertFalse(r.solved)
        self.assertGreaterEqual(len(seen), 2)
        self.assertTrue(all(isinstance(p, keeper.Progress) for p in seen))
        self.assertIn("positions", seen[-1].status)
        self.assertTrue(seen[-1].positions > 0)

    def test_ctrl_c_stops_the_search(self):
        lv = keeper.load(HARD)[0]
        timer = threading.Timer(0.3, _thread.interrupt_main)
        t = time.time()
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            keeper.solve(lv, time=60, threads=2)
        took = time.time() - t
        timer.cancel()
        self.assertLess(took, 3 + SLACK)
        # a solve after the interrupt runs normally
        r = keeper.solve(keeper.load(DEMO)[0], time=10)
        self.assertTrue(r.solved)

    def test_closing_solve_many_stops_it(self):
        gen = keeper.solve_many([keeper.load(HARD)[0]] * 4, threads=2, time=60)
        t = time.time()
        threading.Timer(0.3, _thread.interrupt_main).start()
        with self.assertRaises(KeyboardInterrupt):
            for _ in gen:
                pass
        self.assertLess(time.time() - t, 3 + SLACK)


class Optimizing(unittest.TestCase):
    def test_optimize_shortens_and_replays(self):
        lv = keeper.load(DEMO)[7]
        r = keeper.solve(lv, time=30)
        o = keeper.optimize(lv, r.lurd, metric="moves", time=10)
        self.assertEqual(replay(lv, o.lurd), (o.moves, o.pushes))
        self.assertLessEqual(o.moves, r.moves)
        self.assertEqual(o.before.moves, r.moves)
        p = keeper.optimize(lv, r.lurd, metric="pushes", time=10)
        self.assertLessEqual(p.pushes, r.pushes)

    def test_optimize_rejects_a_non_solution(self):
        lv = keeper.load(DEMO)[0]
        with self.assertRaises(keeper.InvalidSolution):
            keeper.optimize(lv, "l")
        self.assertFalse(keeper.is_solution(lv, "l"))
        with self.assertRaises(ValueError):
            keeper.optimize(lv, keeper.solve(lv).lurd, metric="speed")


class CommandLine(unittest.TestCase):
    def test_python_m_keeper_solve(self):
        env = dict(os.environ)
        p = subprocess.run([sys.executable, "-m", "keeper", "solve", DEMO, "--time", "10",
                            "--threads", "2"], capture_output=True, text=True, env=env,
                           check=False)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        levels = keeper.load(DEMO)
        self.assertEqual(len(lines), len(levels))
        for lv, lurd in zip(levels, lines):
            self.assertIsNotNone(replay(lv, lurd))
        self.assertIn("solved 8/8", p.stderr)
        bad = subprocess.run([sys.executable, "-m", "keeper", "solve", "/no/such.xsb"],
                             capture_output=True, text=True, env=env, check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("no/such.xsb", bad.stderr)


if __name__ == "__main__":
    unittest.main()
