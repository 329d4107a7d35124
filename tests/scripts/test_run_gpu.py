#!/usr/bin/env python3
"""scripts/run-gpu.sh, the one call a GPU machine gets, rehearsed on a stand-in bundle.

The bundle is laid out as make-gpu-bundle.sh packs it, with the real run-gpu.sh and
peers-table.py. Its `rooftop` does the GPU's part with real files of an H200 run
(tests/fixtures/h5: `measure` writes the ceilings `measure --space device` wrote there,
`analyze` and `profile` the kernels files of that run) and hands every other command
(`show`, `compare`, `compare-counts`, `--help`) to the real rooftop of this build
(ROOFTOP_EXE). The peers print their real logs of that run (tests/fixtures/peers). No
nvidia-smi or ncu is needed: where the machine has neither, the script says so and
skips the ncu steps, as a GPU machine without Nsight Compute would.

What is checked is the script's own part: the order of the steps, what a budget too short
for a step does, the peers in the same call as everything else, and the peers table.
"""

import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
PEERS = ["babelstream", "gpu-cache", "gpu-l2-cache", "gpu-stream", "mixbench"]

# The stand-in rooftop. Arguments it does not act on go to the real one.
STAND_IN = '''#!/usr/bin/env python3
import os, shutil, sys
args = sys.argv[1:]
with open(os.environ["CALLS"], "a") as f:
    f.write(" ".join(args) + "\\n")
written = {"measure": "h5/h200-ceilings.h5", "analyze": "h5/h200-gpp-small-cupti.h5",
           "profile": "h5/h200-profile-connector-app.h5"}
if args and args[0] in written and "--help" not in args:
    if "--out" in args:
        shutil.copy(os.path.join(os.environ["FIXTURES"], written[args[0]]),
                    args[args.index("--out") + 1])
    sys.exit(0)
os.execv(os.environ["ROOFTOP_EXE"], [os.environ["ROOFTOP_EXE"]] + args)
'''


def executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def make_bundle(top, peers=True):
    bundle = top / "rooftop-gpu"
    (bundle / "share").mkdir(parents=True)
    for script in ["run-gpu.sh", "peers-table.py"]:
        shutil.copy(ROOT / "scripts" / script, bundle / script)
    (bundle / "VERSION").write_text("rooftop 0.1.0 stand-in\ncuda_toolkit 13.0.88\ncuda_arch 90\n")
    shutil.copy(FIXTURES / "h5" / "h200-ceilings.h5", bundle / "share" / "reference-ceilings.h5")
    executable(bundle / "bin" / "rooftop", STAND_IN)
    for program in ["test_device", "connector_app"]:
        executable(bundle / "bin" / program, "#!/bin/sh\nexit 0\n")
    if peers:
        for name in PEERS:
            log = FIXTURES / "peers" / f"peer-{name}.log"
            executable(bundle / "peers" / name, f"#!/bin/sh\ncat '{log}'\n")
    return bundle


def run_gpu(bundle, *args):
    out = bundle.parent / "results"
    env = dict(os.environ, OUT=str(out), CALLS=str(bundle.parent / "calls.txt"),
               FIXTURES=str(FIXTURES), CUDA_HOME=str(bundle.parent / "no-cuda"))
    done = subprocess.run(["bash", str(bundle / "run-gpu.sh"), *args], capture_output=True,
                          text=True, timeout=240, env=env)
    summary = out / "summary.txt"
    return done, (summary.read_text() if summary.exists() else ""), out


def steps(summary):
    """The step lines of a summary: {name: the rest of its line}, in order."""
    found = {}
    for line in summary.splitlines():
        m = re.match(r"^([a-z0-9-]+) +(-|\d+) +(-|\d+) +(\d+)(.*)$", line)
        if m:
            found[m.group(1)] = m.group(0)
    return found


@unittest.skipUnless(os.environ.get("ROOFTOP_EXE"), "needs ROOFTOP_EXE (ctest sets it)")
class RunGpu(unittest.TestCase):
    def setUp(self):
        self.top = pathlib.Path(tempfile.mkdtemp(prefix="run-gpu-"))
        self.addCleanup(shutil.rmtree, self.top, ignore_errors=True)

    def test_one_call_runs_the_peers_after_the_profiles_and_before_the_repeats(self):
        done, summary, out = run_gpu(make_bundle(self.top))
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        peers = ["peer-gpu-l2-cache", "peer-mixbench", "peer-babelstream", "peer-gpu-cache",
                 "peer-gpu-stream"]
        expected = ["device-tests", "measure-1", "analyze-cupti", "profile", "profile-cuda",
                    *peers, "counts-peer-l2", "measure-2", "measure-3", "compare", "show"]
        self.assertEqual([s for s in order if s in expected], expected, summary)
        self.assertTrue(order[0].startswith("probe-"), order)
        for name in expected:
            self.assertNotRegex(steps(summary)[name], "FAILED|TIMED OUT", summary)
        self.assertIn("SKIPPED: this bundle has no CUDA injection library",
                      steps(summary)["profile-cuda"])
        for name in PEERS:
            self.assertEqual((out / f"peer-{name}.log").read_text(),
                             (FIXTURES / "peers" / f"peer-{name}.log").read_text())
        # The profile of gpu-l2-cache's first launch, on this call's first ceilings.
        calls = (self.top / "calls.txt").read_text()
        self.assertIn(f"profile --cuda --ceilings {out}/gpu-1.h5 --kernel-regex sumKernel "
                      f"--launch-count 1 --out {out}/peer-l2-counts.h5 --", calls)
        # The table, from the first measure's ceilings (the H200's) and the peers' logs.
        table = (out / "peers-table.txt").read_text()
        self.assertIn(table, summary)
        l2 = [line for line in table.splitlines() if line.startswith("l2 ")]
        self.assertTrue(any("gpu-l2-cache" in line and "0.759" in line for line in l2), table)
        # Then that profile's kernel rows, and the step table is not broken by them.
        counted = summary[summary.index("gpu-l2-cache's first launch, counted"):]
        self.assertRegex(counted, r"\nkernels on the ceilings of NVIDIA H200\n")
        self.assertLess(summary.index("counts-peer-l2"), summary.index("measure-2"))
        self.assertNotIn("rooftop ceilings (schema", summary[:summary.index("total ")])

    def test_peers_alone_measure_once_then_the_peers(self):
        done, summary, out = run_gpu(make_bundle(self.top), "--peers")
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        self.assertEqual(order[:2], ["measure-1", "peer-gpu-l2-cache"], summary)
        self.assertIn("counts-peer-l2", order)
        self.assertFalse([s for s in order if s.startswith("probe-") or s == "analyze-cupti"])
        self.assertTrue((out / "peers-table.txt").exists())

    def test_a_bundle_without_peers_runs_no_peer_and_prints_no_table(self):
        done, summary, out = run_gpu(make_bundle(self.top, peers=False))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertFalse([s for s in steps(summary) if "peer" in s], summary)
        self.assertFalse((out / "peers-table.txt").exists())
        self.assertNotIn("peers table", summary)
        done, summary, out = run_gpu(make_bundle(self.top / "alone", peers=False), "--peers")
        self.assertIn("no peers in", summary)

    def test_a_step_whose_limit_does_not_fit_is_skipped_and_says_why(self):
        done, summary, _ = run_gpu(make_bundle(self.top), "--budget", "100")
        self.assertEqual(done.returncode, 0, done.stderr)
        found = steps(summary)
        self.assertNotRegex(found["device-tests"], "SKIPPED")
        self.assertRegex(found["measure-1"], r"SKIPPED: \d+s of the 100s budget left")
        self.assertIn("no device ceilings were written", summary)
        self.assertFalse([s for s in found if s.startswith("peer-")], summary)

    def test_a_bad_budget_is_one_line_and_exit_2(self):
        done, _, _ = run_gpu(make_bundle(self.top), "--budget", "soon")
        self.assertEqual(done.returncode, 2)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn("--budget needs seconds", done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
