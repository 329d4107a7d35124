#!/usr/bin/env python3
"""scripts/bench-gpp-ladder.py on results of rooftop's it reads (--from): the JSON of a
real `rooftop analyze --json` of this build's rooftop (ROOFTOP_EXE) at the tiny size, and
the kernels file of a real H200 run (tests/fixtures/h5/h200-gpp-small-cupti.h5, read
through `rooftop show --json`). With --beside-v100, every version beside the V100's
published figures and one line per GPU target; without it, the host's targets as
before; a file it cannot read is one line and a non-zero exit status.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench-gpp-ladder.py"
H200 = ROOT / "tests" / "fixtures" / "h5" / "h200-gpp-small-cupti.h5"
EXE = os.environ.get("ROOFTOP_EXE", "")
VERSIONS = [f"v{n}" for n in range(1, 10)]
# The case study's V100 times, as the table prints them.
V100_TIMES = ["1.63", "1.73", "1.40", "1.17", "1.16", "1.10", "0.66", "0.62", "0.57"]


def ladder(*args):
    return subprocess.run([sys.executable, str(SCRIPT), "--rooftop", EXE, *args], capture_output=True,
                          text=True, timeout=120)


def rows(stdout):
    """The table's rows of the ladder: {version: its cells}."""
    return {line.split()[0]: line.split() for line in stdout.splitlines()
            if re.match(r"^v\d ", line)}


@unittest.skipUnless(EXE, "needs ROOFTOP_EXE (ctest sets it)")
class BenchGppLadder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="gpp-ladder-"))
        cls.analyzed = cls.tmp / "analyze.json"
        run = subprocess.run([EXE, "analyze", "--ceilings", str(ROOT / "data" / "epyc-zen4-ceilings.h5"),
                              "--kernels", "gpp", "--size", "tiny", "--json"],
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            raise unittest.SkipTest("rooftop analyze failed here: " + run.stderr.strip()[-300:])
        cls.analyzed.write_text(run.stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def assert_beside_the_v100(self, done):
        self.assertEqual(done.returncode, 0, done.stderr)
        found = rows(done.stdout)
        self.assertEqual(list(found), VERSIONS, done.stdout)
        header = next(line for line in done.stdout.splitlines() if line.startswith("version "))
        for column in ["step gain", "V100 time (s)", "V100 speedup", "V100 step gain"]:
            self.assertIn(column, header)
        # The last four cells: our step gain, the V100's time, speedup and step gain.
        self.assertEqual([found[v][-3] for v in VERSIONS], V100_TIMES)
        self.assertEqual(found["v1"][-4:], ["-", "1.63", "1.00", "-"])
        self.assertEqual(found["v9"][-2:], ["2.86", "1.09"])
        verdicts = re.findall(r"^GPU target, .*$", done.stdout, re.M)
        self.assertEqual(len(verdicts), 3, done.stdout)
        for verdict in verdicts:
            self.assertRegex(verdict, r": (met|MISSED): ")
        self.assertNotIn("fastest:", done.stdout)

    def test_analyzes_json_beside_the_v100(self):
        done = ladder("--from", str(self.analyzed), "--beside-v100")
        self.assert_beside_the_v100(done)
        doc = json.loads(self.analyzed.read_text())
        self.assertIn(f"machine: {doc['machine']}; from {self.analyzed}", done.stdout)

    def test_an_h200_kernels_file_beside_the_v100(self):
        done = ladder("--from", str(H200), "--beside-v100")
        self.assert_beside_the_v100(done)
        self.assertIn("machine: NVIDIA H200; fp64_fma 33086.4 GFLOP/s", done.stdout)
        self.assertIn("GPU target, every step from v3 on as fast as the one before within 5%: MISSED: "
                      "v3 takes 1.55x v2's time; v4 takes 1.18x v3's time", done.stdout)
        self.assertIn("GPU target, v1 -> v9 at least 2.9x: MISSED: 2.29x (the V100's 2.86x)", done.stdout)
        self.assertIn("GPU target, v9 at 0.6 of its roof or more: MISSED: 0.374", done.stdout)

    def test_without_the_v100_the_host_targets_as_before(self):
        done = ladder("--from", str(H200))
        self.assertEqual(done.returncode, 1, done.stderr)  # the host's targets missed
        self.assertEqual(list(rows(done.stdout)), VERSIONS)
        self.assertNotIn("V100", done.stdout)
        self.assertIn("fastest: v9, 2.29x faster than v1 (target >= 2.5), 0.374 of its roof (target >= 0.5)",
                      done.stdout)

    def test_markdown_has_the_same_cells(self):
        plain = ladder("--from", str(H200), "--beside-v100")
        markdown = ladder("--from", str(H200), "--beside-v100", "--markdown")
        cells = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ")
                 for line in markdown.stdout.splitlines() if re.match(r"^\| v\d ", line)}
        self.assertEqual(cells, rows(plain.stdout))

    def test_what_cannot_be_read_is_one_line_and_a_failure(self):
        no_kernels = self.tmp / "no-kernels.json"
        no_kernels.write_text('{"machine": "x", "kernels": []}')
        for path, why in [(self.tmp / "absent.json", "No such file"),
                          (ROOT / "README.md", "neither JSON nor an HDF5 file"),
                          (no_kernels, "no kernels in it"),
                          (ROOT / "tests" / "fixtures" / "h5" / "h200-ceilings.h5", "no kernels in it"),
                          (ROOT / "tests" / "fixtures" / "h5" / "object-header-segv-1.h5", "rooftop")]:
            done = ladder("--from", str(path), "--beside-v100")
            self.assertNotEqual(done.returncode, 0, path)
            self.assertEqual(done.stdout, "", path)
            self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
            self.assertTrue(done.stderr.startswith(f"bench-gpp-ladder.py: cannot read {path}: "), done.stderr)
            self.assertIn(why, done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
