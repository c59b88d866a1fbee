"""Tests of spsa.py's rules, locks and time limit, against stand-ins for the engine and fastchess
written here (tests/spsa.rs runs the driver's whole loop against those of tests/clients).

    python3 -m unittest discover -s tools/tune/spsa -p 'test_*.py'
"""
import copy
import fcntl
import glob
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPSA = os.path.join(HERE, "spsa.py")
_spec = importlib.util.spec_from_file_location("spsa", SPSA)
spsa = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spsa)

# The engine stand-in of tests/spsa.rs: two spin options, two openings, a bench signature.
with open(os.path.join(HERE, "..", "..", "..", "tests", "clients", "spsa_fake_engine.py")) as _f:
    ENGINE = _f.read()

# FAKE_MODE: ok (a result from the arguments), hang (an engine that never answers: a child in
# fastchess's group, its pid in FAKE_PIDS, then a wait for ever), fail (exit 1, no result).
FASTCHESS = """\
#!/usr/bin/env python3
import os, subprocess, sys, time, zlib
args = sys.argv[1:]
mode = os.environ.get("FAKE_MODE", "ok")
pgn = next(a[5:] for a in args if a.startswith("file=") and a.endswith(".pgn"))
rounds = int(args[args.index("-rounds") + 1])
with open(pgn, "a") as f:  # fastchess appends
    f.write("[Event \\"fake\\"]\\n")
if mode == "hang":
    child = subprocess.Popen(["sleep", "1000"])
    with open(os.environ["FAKE_PIDS"], "w") as f:
        f.write(f"{os.getpid()} {child.pid}\\n")
    time.sleep(1000)
if mode == "fail":
    sys.exit(1)
h = zlib.crc32(" ".join(args).encode())
w = h % (rounds + 1)
l = (h // 7) % (2 * rounds - w + 1)
print("Results of plus vs minus (fake):")
print(f"Games: {2 * rounds}, Wins: {w}, Losses: {l}, Draws: {2 * rounds - w - l}, Points: 0")
"""


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


class Dir(unittest.TestCase):
    """A fresh folder with the stand-ins, a params file and TMPDIR inside it."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        self.engine = os.path.join(self.dir, "engine.py")
        self.fastchess = os.path.join(self.dir, "fastchess.py")
        write_exe(self.engine, ENGINE)
        write_exe(self.fastchess, FASTCHESS)
        self.params("ALPHA\t-\t4\t0.02\nBETA\t-\t0.4\t0.02\n")
        self.env = dict(os.environ, TMPDIR=os.path.join(self.dir, "tmp"), FAKE_MODE="ok")
        os.makedirs(self.env["TMPDIR"])

    def tearDown(self):
        self._tmp.cleanup()

    def params(self, text, name="p.tsv"):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write("# name\tstart\tc_end\tr_end\n" + text)

    def spsa(self, *args, env=None):
        return subprocess.run(
            [sys.executable, SPSA, *args], cwd=self.dir, capture_output=True, text=True,
            env=env or self.env, timeout=120,
        )

    def init(self, state="st.json", iterations=6, params="p.tsv"):
        return self.spsa("init", state, "--params", params, "--iterations", str(iterations),
                         "--seed", "3", "--pairs", "4")

    def run_(self, state="st.json", *more, env=None):
        return self.spsa("run", state, "--engine", self.engine, "--fastchess", self.fastchess,
                         *more, env=env)

    def state(self, name="st.json"):
        with open(os.path.join(self.dir, name)) as f:
            return json.load(f)

    def assertFails(self, out, code, *words):
        self.assertEqual(out.returncode, code, out.stderr)
        err = out.stderr
        self.assertEqual(err.count("\n"), 1, f"one line: {err!r}")
        self.assertTrue(err.startswith("spsa: "), err)
        for w in words:
            self.assertIn(w, err)


class CommittedStates(unittest.TestCase):
    """The committed states are version 1: they load, and are played by the rules they were."""

    def test_they_load_with_the_old_rules(self):
        files = sorted(glob.glob(os.path.join(HERE, "state*.json")))
        self.assertTrue(files)
        for path in files:
            st = spsa.load(path)
            self.assertEqual(st["version"], 1, path)
            self.assertNotIn("rules", st, path)
            self.assertEqual(spsa.rules(st), spsa.OLD_RULES, path)

    def test_old_points_and_updates_as_before(self):
        # The rules of the driver that played them, written out: random.Random(str).choice for
        # the signs, round() for both sides, every number moved.
        for path in sorted(glob.glob(os.path.join(HERE, "state*.json"))):
            st = spsa.load(path)
            ref = copy.deepcopy(st)
            for k, wins, losses, _ in st["history"][:60]:
                rng = random.Random(f"spsa:{ref['seed']}:{k}")
                flips = [rng.choice((-1, 1)) for _ in ref["params"]]
                plus, minus, got = spsa.points(st, k)
                self.assertEqual(got, flips, (path, k))
                for p, f in zip(ref["params"], flips):
                    c_k, r_k = spsa.schedule(p, k, ref["iterations"], ref["A"])
                    lo, hi = p["min"], p["max"]
                    self.assertEqual(plus[p["name"]], spsa.clamp(round(p["value"] + c_k * f), lo, hi))
                    self.assertEqual(minus[p["name"]], spsa.clamp(round(p["value"] - c_k * f), lo, hi))
                    p["value"] = spsa.clamp(p["value"] + r_k * c_k * (wins - losses) * f, lo, hi)
                spsa.update(st, k, got, wins, losses, plus, minus)
                self.assertEqual(st, ref, (path, k))
                self.assertNotIn("rules", st)

    def test_old_signs_pinned(self):
        # What the first run's iteration 1 and the fifth's last were played with; a Python whose
        # random.Random(str).choice changed would fail here rather than resume a run askew.
        self.assertEqual(
            spsa.direction(27, 1, 18),
            [-1, 1, -1, 1, 1, -1, -1, 1, -1, -1, 1, -1, -1, 1, 1, 1, -1, -1],
        )
        self.assertEqual(
            spsa.direction(31, 400, 18),
            [1, 1, 1, -1, 1, -1, -1, 1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 1],
        )


class NewRules(Dir):
    def test_init_records_the_rules(self):
        self.assertEqual(self.init().returncode, 0)
        st = self.state()
        self.assertEqual(st["version"], 2)
        self.assertEqual(st["rules"], {"sign": "sha256", "round": "random", "equal": "skip"})

    def test_a_state_with_unknown_rules_is_refused(self):
        self.init()
        st = self.state()
        st["rules"]["round"] = "dice"
        with open(os.path.join(self.dir, "st.json"), "w") as f:
            json.dump(st, f)
        self.assertFails(self.run_("st.json"), 1, "round=dice")
        del st["rules"]
        with open(os.path.join(self.dir, "st.json"), "w") as f:
            json.dump(st, f)
        self.assertFails(self.run_("st.json"), 1, "without its rules")

    def test_signs_from_sha256(self):
        got = spsa.direction(3, 7, 64, "sha256")
        self.assertEqual(got, spsa.direction(3, 7, 64, "sha256"))
        self.assertEqual(set(got), {-1, 1})
        self.assertNotEqual(got, spsa.direction(3, 8, 64, "sha256"))
        # Pinned: the rule is SHA-256, not whatever this Python's random module does.
        self.assertEqual(spsa.direction(3, 1, 8, "sha256"), [
            1 if spsa.hashed("sign", 3, 1, i) >= 0.5 else -1 for i in range(8)])
        self.assertAlmostEqual(spsa.hashed("sign", 0, 0, 0),
                               int("a36ae44da432dc91", 16) / 2**64, places=15)

    def state_of(self, value, c_end):
        return {
            "version": 2, "rules": dict(spsa.NEW_RULES), "seed": 5, "iterations": 400, "A": 40.0,
            "params": [{"name": "X", "value": value, "c_end": c_end, "r_end": 0.002,
                        "min": -1000, "max": 1000}],
        }

    def test_random_rounding_moves_a_step_under_half(self):
        st = self.state_of(10.3, 0.4)
        differ, plus_sum = 0, 0.0
        for k in range(1, 401):
            plus, minus, flips = spsa.points(st, k)
            c_k, _ = spsa.schedule(st["params"][0], k, 400, 40.0)
            d = (plus["X"] - minus["X"]) * flips[0]
            self.assertIn(d, (0, 1, 2))  # floor(2 c_k) or one more: c_k is under 1 here
            differ += d != 0
            plus_sum += plus["X"] - (10.3 + c_k * flips[0])
            self.assertEqual((plus, minus, flips), spsa.points(st, k))  # the same when replayed
        # 2 c_k is 0.8 to 1.5 over the run: the sides differ in most iterations, not in none
        # (rounding to the nearest gave 279 of 400 alike for this c_end), and plus sits where
        # SPSA puts it on average.
        self.assertGreater(differ, 300)
        self.assertLess(abs(plus_sum / 400), 0.06)

    def test_a_number_played_alike_is_not_moved(self):
        st = self.state_of(10.0, 0.4)
        flips = [1]
        spsa.update(st, 400, flips, 9, 1, {"X": 10}, {"X": 10})
        self.assertEqual(st["params"][0]["value"], 10.0)
        spsa.update(st, 400, flips, 9, 1, {"X": 11}, {"X": 10})
        self.assertGreater(st["params"][0]["value"], 10.0)
        # Under the old rules it moves either way.
        old = self.state_of(10.0, 0.4)
        del old["rules"]
        spsa.update(old, 400, flips, 9, 1, {"X": 10}, {"X": 10})
        self.assertGreater(old["params"][0]["value"], 10.0)

    def test_a_run_resumed_ends_where_one_run_does(self):
        # One work folder for both: the stand-in's results hang on its whole command line.
        self.init(iterations=6)
        self.init("whole.json", iterations=6)
        self.assertEqual(self.run_("st.json", "--workdir", "w", "--iterations", "2").returncode, 0)
        self.assertEqual(self.run_("st.json", "--workdir", "w").returncode, 0)
        out = self.run_("whole.json", "--workdir", "w")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(self.state("st.json")["done"], 6)
        with open(os.path.join(self.dir, "st.json")) as a, open(os.path.join(self.dir, "whole.json")) as b:
            self.assertEqual(a.read(), b.read())

    def test_a_version_1_state_resumes_by_its_own_rules(self):
        self.init(iterations=4)
        st = self.state()
        st["version"] = 1
        del st["rules"]
        with open(os.path.join(self.dir, "st.json"), "w") as f:
            json.dump(st, f)
        self.assertEqual(self.run_("st.json").returncode, 0)
        st = self.state()
        self.assertEqual((st["version"], st["done"]), (1, 4))
        self.assertNotIn("rules", st)


class Params(Dir):
    def test_a_name_twice_is_refused(self):
        self.params("ALPHA\t-\t4\t0.02\nBETA\t-\t8\t0.02\nALPHA\t30\t4\t0.02\n", "twice.tsv")
        out = self.init(params="twice.tsv")
        self.assertFails(out, 2, "ALPHA is listed twice", "twice.tsv:4", "line 2")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "st.json")))

    def test_a_start_outside_the_range_is_refused(self):
        self.params("ALPHA\t150\t4\t0.02\nBETA\t-\t8\t0.02\n", "far.tsv")
        self.assertEqual(self.init(params="far.tsv").returncode, 0)
        out = self.run_("st.json")
        self.assertFails(out, 1, "ALPHA", "start 150", "0..100")
        self.assertEqual(self.state()["done"], 0)
        self.assertNotIn("value", self.state()["params"][0])

    def test_a_small_c_end_is_accepted(self):
        # Random rounding makes a step under 0.5 work; see cmd_init.
        self.params("ALPHA\t-\t0.2\t0.02\n", "small.tsv")
        self.assertEqual(self.init(params="small.tsv").returncode, 0)


class WorkAndLocks(Dir):
    def test_the_default_work_folder_is_the_state_files_own(self):
        a, b = spsa.default_workdir("a/st.json"), spsa.default_workdir("b/st.json")
        self.assertNotEqual(a, b)
        self.assertEqual(a, spsa.default_workdir("./a/../a/st.json"))
        self.init()
        out = self.run_("st.json", "--iterations", "1")
        self.assertEqual(out.returncode, 0, out.stderr)
        made = glob.glob(os.path.join(self.env["TMPDIR"], "chess960-spsa-st-*", "iter-1", "games.pgn"))
        self.assertEqual(len(made), 1, out.stderr)
        self.assertIn(f"work folder {os.path.dirname(os.path.dirname(made[0]))}\n", out.stdout)

    def test_a_second_run_of_a_state_is_refused(self):
        self.init()
        with open(os.path.join(self.dir, ".st.json.lock"), "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            out = self.run_("st.json", "--workdir", "w")
        self.assertFails(out, 1, "st.json is in use by another run")
        self.assertEqual(self.state()["done"], 0)

    def test_a_second_run_in_a_work_folder_is_refused(self):
        self.init()
        os.makedirs(os.path.join(self.dir, "w"))
        with open(os.path.join(self.dir, "w", ".lock"), "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            out = self.run_("st.json", "--workdir", "w")
        self.assertFails(out, 1, "work folder w is in use by another run")

    def test_an_iteration_played_again_starts_an_empty_pgn(self):
        self.init()
        os.makedirs(os.path.join(self.dir, "w", "iter-1"))
        with open(os.path.join(self.dir, "w", "iter-1", "games.pgn"), "w") as f:
            f.write("[Event \"an earlier try\"]\n")
        self.assertEqual(self.run_("st.json", "--workdir", "w", "--iterations", "1").returncode, 0)
        with open(os.path.join(self.dir, "w", "iter-1", "games.pgn")) as f:
            self.assertEqual(f.read(), "[Event \"fake\"]\n")


def alive(pid):
    """Whether pid runs (a zombie, killed and not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class TimeLimit(Dir):
    def test_the_formula(self):
        class A:
            timeout, concurrency = None, 1
        st = {"limit": "nodes=10000", "pairs": 8}
        self.assertAlmostEqual(spsa.match_timeout(st, A), 120 + 16 * 600 * 0.15)
        A.concurrency = 2
        self.assertAlmostEqual(spsa.match_timeout(st, A), 120 + 8 * 600 * 0.15)
        self.assertAlmostEqual(spsa.limit_seconds("tc=5+0.05"), 2 * (5 + 0.05 * 300) + 30)
        self.assertAlmostEqual(spsa.limit_seconds("tc=40/1:00"), 2 * 60 * 8 + 30)
        self.assertAlmostEqual(spsa.limit_seconds("st=0.1"), 600 * 0.15)
        self.assertIsNone(spsa.limit_seconds("tc=inf"))
        self.assertIsNone(spsa.limit_seconds("plies=8"))
        A.timeout = 9.0
        self.assertEqual(spsa.match_timeout(st, A), 9.0)

    def test_an_unsized_limit_wants_timeout(self):
        self.spsa("init", "st.json", "--params", "p.tsv", "--iterations", "3", "--seed", "1",
                  "--limit", "plies=8")
        self.assertFails(self.run_("st.json", "--workdir", "w"), 2, "--timeout", "plies=8")
        self.assertEqual(self.run_("st.json", "--workdir", "w", "--timeout", "60").returncode, 0)

    def hang(self):
        env = dict(self.env, FAKE_MODE="hang", FAKE_PIDS=os.path.join(self.dir, "pids"))
        self.init()
        self.assertEqual(self.run_("st.json", "--workdir", "w", "--iterations", "1").returncode, 0)
        return env

    def pids(self):
        with open(os.path.join(self.dir, "pids")) as f:
            return [int(x) for x in f.read().split()]

    def test_a_hung_match_is_killed_and_the_state_kept(self):
        env = self.hang()
        before = self.state()
        t = time.monotonic()
        out = self.run_("st.json", "--workdir", "w", "--timeout", "2", env=env)
        self.assertLess(time.monotonic() - t, 60)
        self.assertFails(out, 1, "iteration 2: fastchess ran past its time limit of 2 s",
                         "stays at iteration 1")
        self.assertEqual(self.state(), before)
        for pid in self.pids():  # fastchess and its "engine" both
            for _ in range(50):
                if not alive(pid):
                    break
                time.sleep(0.1)
            self.assertFalse(alive(pid), pid)

    def test_a_stopped_driver_takes_the_match_with_it(self):
        env = self.hang()
        before = self.state()
        proc = subprocess.Popen(
            [sys.executable, SPSA, "run", "st.json", "--engine", self.engine, "--fastchess",
             self.fastchess, "--workdir", "w"], cwd=self.dir, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(os.path.join(self.dir, "pids")):
                break
            time.sleep(0.05)
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        self.assertEqual(proc.wait(timeout=30), 128 + signal.SIGTERM)
        self.assertEqual(self.state(), before)
        for pid in self.pids():
            for _ in range(50):
                if not alive(pid):
                    break
                time.sleep(0.1)
            self.assertFalse(alive(pid), pid)

    def test_a_failed_match_keeps_the_state(self):
        self.init()
        out = self.run_("st.json", "--workdir", "w", env=dict(self.env, FAKE_MODE="fail"))
        self.assertFails(out, 1, "iteration 1: fastchess gave no result (exit 1)")
        self.assertEqual(self.state()["done"], 0)


if __name__ == "__main__":
    unittest.main()
