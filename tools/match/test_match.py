"""Tests of sprt.py's refusal of a log given twice and its --planned (and a stop at fastchess's own
SPRT bound), of gate.sh's handling of a match cut short, and of ethereal.sh's status, all
against a stand-in for fastchess written here (tests/sprt.rs tests the
verdict's figures).

    python3 -m unittest discover -s tools/match -p 'test_*.py'
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPRT = os.path.join(HERE, "sprt.py")
GATE = os.path.join(HERE, "gate.sh")

# 55% over 400 games: the LLR inside its bounds (0.85), the interval's lower end above zero.
INTERVAL = [5, 35, 90, 55, 15]
# 70% over 800 games: past the SPRT's upper bound.
STRONG = [0, 20, 120, 180, 80]
# 1460 games, LLR 2.89 and -2.88: just inside the bounds (+/- 2.94), where fastchess's own LLR
# may already have stopped the match.
NEAR_UPPER = [23, 116, 348, 186, 57]
NEAR_LOWER = [49, 186, 348, 116, 23]


def stopped(counts, hypothesis):
    return log_text(counts) + f"SPRT (normalized, elo0: 0, elo1: 5) completed - {hypothesis} was accepted\n"


def log_text(counts):
    a, b, c, d, e = counts
    return (
        "Started game 1 of 2 (new vs base)\n"
        "Results of new vs base (5+0.05, 1t, 16MB, c960.epd):\n"
        f"Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], WL/DD Ratio: 0.27\n"
        "--------------------------------------------------\n"
    )


# Prints the counts of FAKE_COUNTS, then: exits with FAKE_RC, or (FAKE_RC=sleep) waits to be
# stopped, as a match stopped by TIME_LIMIT is.
FASTCHESS = """\
#!/usr/bin/env python3
import os, sys, time
a, b, c, d, e = os.environ["FAKE_COUNTS"].split(",")
if "FAKE_ARGS" in os.environ:
    with open(os.environ["FAKE_ARGS"], "w") as f:
        f.write("\\n".join(sys.argv[1:]) + "\\n")
print("Results of new vs base (fake):")
print(f"Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], WL/DD Ratio: 0.27", flush=True)
print("--------------------------------------------------", flush=True)
rc = os.environ.get("FAKE_RC", "0")
if rc == "sleep":
    try:
        time.sleep(60)
    except KeyboardInterrupt:
        sys.exit(130)
sys.exit(int(rc))
"""


class Tmp(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def sprt(self, *args):
        return subprocess.run([sys.executable, SPRT, *args], cwd=self.dir, capture_output=True,
                              text=True, timeout=60)


class Sprt(Tmp):
    def test_one_file_twice_is_refused(self):
        self.write("one.log", log_text(INTERVAL))
        os.mkdir(os.path.join(self.dir, "sub"))
        os.symlink("../one.log", os.path.join(self.dir, "sub", "link.log"))
        os.link(os.path.join(self.dir, "one.log"), os.path.join(self.dir, "hard.log"))
        for other in ("one.log", "./one.log", "sub/../one.log", "sub/link.log", "hard.log"):
            out = self.sprt("one.log", other)
            self.assertEqual(out.returncode, 2, other)
            self.assertEqual(out.stdout, "", other)
            self.assertEqual(out.stderr, f"sprt: {other} is the same file as one.log: its game "
                             "pairs would count twice\n")

    def test_a_copy_is_warned_of(self):
        # Not refused: tests/sprt.rs adds a log to a copy of itself on purpose.
        self.write("one.log", log_text(INTERVAL))
        self.write("two.log", log_text(INTERVAL))
        out = self.sprt("one.log", "two.log")
        self.assertEqual(out.returncode, 3)
        self.assertEqual(out.stderr, "sprt: warning: two.log has the same content as one.log (a copy?)\n")
        self.assertIn("logs 2, pairs 400", out.stdout)

    def test_planned_games(self):
        self.write("one.log", log_text(INTERVAL))  # 400 games
        out = self.sprt("one.log", "--planned", "400")
        self.assertEqual((out.returncode, out.stdout.splitlines()[-1]), (0, "PASS"))
        out = self.sprt("one.log", "--planned", "2000")
        self.assertEqual(out.returncode, 2)
        self.assertNotIn("PASS", out.stdout)
        self.assertEqual(out.stderr, "sprt: one.log: 400 of 2000 planned games, the LLR inside its "
                         "bounds: the match was cut short (an engine crash?), no verdict\n")
        # Short of its games because its SPRT decided: a verdict.
        self.write("strong.log", log_text(STRONG))
        out = self.sprt("strong.log", "--planned", "2000")
        self.assertEqual((out.returncode, out.stdout.splitlines()[-1]), (0, "PASS"))
        self.write("two.log", log_text(STRONG[::-1]))
        out = self.sprt("one.log", "two.log", "--planned", "800")
        self.assertEqual(out.returncode, 2)
        self.assertIn("one LOG", out.stderr)

    def test_a_stop_at_fastchess_s_own_bound(self):
        # fastchess stopped the match on its LLR; this one is a little short of the bound.
        self.write("up.log", stopped(NEAR_UPPER, "H1"))
        out = self.sprt("up.log", "--planned", "2000")
        self.assertEqual((out.returncode, out.stdout.splitlines()[-1]), (0, "PASS"), out.stderr)
        self.assertIn("fastchess's own LLR reached 2.94 and stopped the match (H1 accepted; 2.89 here)",
                      out.stdout)
        self.write("low.log", stopped(NEAR_LOWER, "H0"))
        out = self.sprt("low.log", "--planned", "2000")
        self.assertEqual((out.returncode, out.stdout.splitlines()[-1]), (1, "FAIL"), out.stderr)
        # Without the closing line, or at the planned games (where fastchess names H1 for any
        # undecided test), the same counts are no SPRT stop.
        self.write("bare.log", log_text(NEAR_UPPER))
        out = self.sprt("bare.log", "--planned", "2000")
        self.assertEqual(out.returncode, 2)
        self.assertIn("cut short", out.stderr)
        self.write("limit.log", stopped(NEAR_UPPER, "H1"))
        out = self.sprt("limit.log", "--planned", "1460")
        self.assertNotIn("fastchess's own", out.stdout)
        self.assertEqual(out.returncode, 0)  # by the interval, the rule of a match of fixed length
        # An SPRT stop far from this LLR: the match had other hypotheses than the ones given here.
        self.write("far.log", stopped(INTERVAL, "H1"))
        out = self.sprt("far.log", "--planned", "2000")
        self.assertEqual(out.returncode, 2)
        self.assertNotIn("PASS", out.stdout)
        self.assertIn("fastchess's SPRT accepted H1 after 400 of 2000 planned games, but the LLR "
                      "here is 0.85, far from 2.94", out.stderr)
        # Over several logs there is no --planned, and only this LLR decides.
        out = self.sprt("up.log", "low.log")
        self.assertEqual(out.returncode, 3)


class Gate(Tmp):
    def gate(self, counts, rc, max_games, **env):
        fastchess = self.write("fastchess.py", FASTCHESS, 0o755)
        engine = self.write("engine.sh", "#!/bin/sh\nexit 0\n", 0o755)
        openings = self.write("open.epd", "start\n")
        out_dir = os.path.join(self.dir, "out")
        env = dict(os.environ, FASTCHESS=fastchess, OPENINGS=openings, OUT=out_dir,
                   FAKE_COUNTS=",".join(map(str, counts)), FAKE_RC=str(rc), **env)
        return subprocess.run(["bash", GATE, engine, engine, str(max_games)], cwd=self.dir,
                              env=env, capture_output=True, text=True, timeout=60)

    def test_a_full_match_gets_its_verdict(self):
        out = self.gate(INTERVAL, 0, 400)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.endswith("\nPASS\n"), out.stdout)

    def test_a_crashed_fastchess_gets_none(self):
        # The same counts, which would pass by the interval, but fastchess exited with 1.
        out = self.gate(INTERVAL, 1, 400)
        self.assertEqual(out.returncode, 2)
        self.assertNotIn("PASS", out.stdout)
        err = out.stderr.splitlines()[-1]
        self.assertTrue(err.startswith("gate: fastchess exited with status 1"), out.stderr)
        self.assertIn("no verdict", err)

    def test_a_match_short_of_its_games_gets_none(self):
        out = self.gate(INTERVAL, 0, 2000)
        self.assertEqual(out.returncode, 2)
        self.assertNotIn("PASS", out.stdout)
        self.assertIn("400 of 2000 planned games", out.stderr)

    def test_a_match_its_sprt_ended_gets_its_verdict(self):
        out = self.gate(STRONG, 0, 2000)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.endswith("\nPASS\n"), out.stdout)

    def test_a_match_stopped_by_time_limit_gets_its_verdict(self):
        # As before: TIME_LIMIT's stop (status 124) is the shorter match asked for.
        out = self.gate(INTERVAL, "sleep", 2000, TIME_LIMIT="1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.endswith("\nPASS\n"), out.stdout)

    def test_the_limit_is_a_clock_or_a_time_a_move(self):
        args = os.path.join(self.dir, "args")
        for tc, each in [(None, "tc=5+0.05"), ("10+0.1", "tc=10+0.1"), ("st=0.1", "st=0.1")]:
            env = {"FAKE_ARGS": args} if tc is None else {"FAKE_ARGS": args, "TC": tc}
            out = self.gate(INTERVAL, 0, 400, **env)
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(args) as f:
                argv = f.read().splitlines()
            i = argv.index("-each")
            self.assertEqual(argv[i + 1], each, argv)
            # A time a move comes with a margin for a late answer; a clock needs none.
            self.assertEqual(argv[i + 2], "timemargin=50" if each.startswith("st=") else
                             "option.Hash=16", argv)

    def test_a_crash_under_time_limit_gets_none(self):
        out = self.gate(INTERVAL, 3, 2000, TIME_LIMIT="30")
        self.assertEqual(out.returncode, 2)
        self.assertIn("status 3", out.stderr)


class Ethereal(Tmp):
    def ethereal(self, rc, **env):
        fastchess = self.write("fastchess.py", FASTCHESS, 0o755)
        engine = self.write("engine.sh", "#!/bin/sh\nexit 0\n", 0o755)
        epd = self.write("open.epd", "start\n")
        env = dict(os.environ, FASTCHESS=fastchess, ETHEREAL=engine, EPD=epd, SEED="1",
                   OUTDIR=os.path.join(self.dir, "out"), FAKE_COUNTS="5,35,90,55,15",
                   FAKE_RC=str(rc), **env)
        return subprocess.run(["bash", os.path.join(HERE, "ethereal.sh"), engine, "400"],
                              cwd=self.dir, env=env, capture_output=True, text=True, timeout=60)

    def test_a_whole_match(self):
        out = self.ethereal(0)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("Ptnml(0-2): [5, 35, 90, 55, 15]", out.stdout)
        self.assertEqual(out.stderr, "")

    def test_a_crashed_fastchess_is_said_and_kept(self):
        out = self.ethereal(1)
        self.assertEqual(out.returncode, 1)
        self.assertIn("Ptnml(0-2): [5, 35, 90, 55, 15]", out.stdout)  # the results so far
        self.assertTrue(out.stderr.startswith("ethereal: fastchess exited with status 1"), out.stderr)

    def test_a_match_stopped_by_time_limit(self):
        out = self.ethereal("sleep", TIME_LIMIT="1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("stopped by TIME_LIMIT (1 s)", out.stdout)


if __name__ == "__main__":
    unittest.main()
