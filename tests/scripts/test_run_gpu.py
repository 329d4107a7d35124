#!/usr/bin/env python3
"""scripts/run-gpu.sh, the one call a GPU machine gets, rehearsed on a stand-in bundle.

The bundle is laid out as make-gpu-bundle.sh packs it, with the real run-gpu.sh and
peers-table.py. Its `rooftop` does the GPU's part with real files of an H200 run
(tests/fixtures/h5: `measure` writes the ceilings `measure --space device` wrote there,
`analyze` and `profile` the kernels files of that run) and hands every other command
(`show`, `compare`, `compare-counts`, `--help`) to the real rooftop of this build
(ROOFTOP_EXE). The peers print their real logs of that run (tests/fixtures/peers). Where a
test asks for them, a stand-in `ncu` writes ncu's real logs of that run, and a stand-in
`torch` module says a GPU is there, so that the PyTorch steps run; otherwise the script
finds no ncu and no torch and skips those steps, as a GPU machine without them would;
no ncu whether this machine has one or not: the script runs on this machine's PATH less
ncu, and looks for it nowhere else (ROOFTOP_NCU_PLACES empty). No nvidia-smi is needed.

What is checked is the script's own part: the order of the steps, what a budget too short
for a step does, the GPP ladder beside the V100's after analyze, the peers in the same
call as everything else, the peers table, the PyTorch program under rooftop and under
ncu, and the verdicts of compare-counts.
"""

import atexit
import functools
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


# The stand-in Nsight Compute: writes, where it is told to log, real output ncu gave on the
# H200 (the raw CSV of the GPP and reference kernels for the Kokkos kernels' steps, the
# text log of the PyTorch program for its step), and records its arguments.
STAND_IN_NCU = '''#!/usr/bin/env python3
import os, shutil, sys
args = sys.argv[1:]
with open(os.environ["CALLS"], "a") as f:
    f.write("ncu " + " ".join(args) + "\\n")
if "--help" in args:
    print("  --rename-kernels arg (=on)   ...")
elif "--version" in args:
    print("NVIDIA (R) Nsight Compute Command Line Profiler\\nVersion 2025.3.1.0 (stand-in)")
elif "--log-file" in args:
    real = "import/ncu-raw-h200-gpp-small.csv" if "--csv" in args else "import/ncu-text-h200-torch.txt"
    shutil.copy(os.path.join(os.environ["FIXTURES"], real), args[args.index("--log-file") + 1])
'''

# A torch module whose GPU is there, for `python3 -c 'import torch'`.
STAND_IN_TORCH = "class cuda:\n    is_available = staticmethod(lambda: True)\n"


def executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def make_bundle(top, peers=True, ncu=False, torch=False):
    """The bundle in top/rooftop-gpu; with ncu, a stand-in ncu in top/tools; with torch, a
    stand-in torch module in top/python, the injection library, and the PyTorch program's
    files."""
    bundle = top / "rooftop-gpu"
    (bundle / "share").mkdir(parents=True)
    for script in ["run-gpu.sh", "peers-table.py", "bench-gpp-ladder.py", "check-ncu-sections.py"]:
        shutil.copy(ROOT / "scripts" / script, bundle / script)
    (bundle / "VERSION").write_text("rooftop 0.1.0 stand-in\ncuda_toolkit 13.0.88\ncuda_arch 90\n")
    shutil.copy(FIXTURES / "h5" / "h200-ceilings.h5", bundle / "share" / "reference-ceilings.h5")
    executable(bundle / "bin" / "rooftop", STAND_IN)
    for program in ["test_device", "connector_app"]:
        executable(bundle / "bin" / program, "#!/bin/sh\nexit 0\n")
    if ncu:
        executable(top / "tools" / "ncu", STAND_IN_NCU)
    if torch:
        (top / "python" / "torch").mkdir(parents=True)
        (top / "python" / "torch" / "__init__.py").write_text(STAND_IN_TORCH)
        (bundle / "lib").mkdir()
        (bundle / "lib" / "librooftop_cuda_injection.so").write_bytes(b"")
        shutil.copy(ROOT / "scripts" / "torch_model.py", bundle / "share" / "torch_model.py")
        shutil.copy(FIXTURES / "import" / "pytorch-h200-torch-model.json.gz",
                    bundle / "share" / "torch-trace.json.gz")
        shutil.copy(FIXTURES / "import" / "ncu-text-h200-torch.txt", bundle / "share" / "ncu-torch.txt")
    if peers:
        for name in PEERS:
            log = FIXTURES / "peers" / f"peer-{name}.log"
            executable(bundle / "peers" / name, f"#!/bin/sh\ncat '{log}'\n")
    return bundle


@functools.lru_cache(maxsize=None)
def path_without(hidden):
    """This PATH less the programs named in hidden (a tuple): each of its folders that holds
    one is replaced, in its place, by a folder of links to everything else in it. Made once
    per run of the tests (a /usr/bin holds thousands of programs), removed at exit."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="run-gpu-path-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    places = []
    for i, place in enumerate(filter(None, os.environ.get("PATH", "").split(os.pathsep))):
        if any(os.path.lexists(os.path.join(place, name)) for name in hidden):
            links = folder / str(i)
            links.mkdir(parents=True)
            for name in set(os.listdir(place)) - set(hidden):
                (links / name).symlink_to(os.path.join(place, name))
            place = str(links)
        places.append(place)
    return os.pathsep.join(places)


def run_gpu(bundle, *args, **more):
    """run-gpu.sh of the bundle with ARGS, MORE added to its environment. Its PATH: the
    stand-ins of top/tools, then this machine's PATH less ncu; it looks for ncu on that
    PATH alone (ROOFTOP_NCU_PLACES empty) unless MORE says otherwise."""
    out = bundle.parent / "results"
    top = bundle.parent
    path = f"{top / 'tools'}{os.pathsep}{path_without(('ncu',))}"
    env = dict(os.environ, OUT=str(out), CALLS=str(top / "calls.txt"), FIXTURES=str(FIXTURES),
               CUDA_HOME=str(top / "no-cuda"), PATH=path, ROOFTOP_NCU_PLACES="",
               PYTHONPATH=str(top / "python"))
    env.update(more)
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
        expected = ["device-tests", "measure-1", "analyze-cupti", "gpp-ladder", "profile", "profile-cuda",
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

    def test_the_pytorch_program_under_rooftop_then_ncu_in_the_same_call(self):
        done, summary, out = run_gpu(make_bundle(self.top, ncu=True, torch=True))
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        expected = ["probe-ncu-triad", "measure-1", "analyze-cupti", "ncu", "ncu-import", "counts",
                    "profile", "profile-cuda", "ncu-torch", "counts-torch", "peer-gpu-l2-cache"]
        self.assertEqual([s for s in order if s in expected], expected, summary)
        for name in ["profile-cuda", "ncu-torch"]:
            self.assertNotRegex(steps(summary)[name], "FAILED|TIMED OUT|SKIPPED", summary)
        calls = (self.top / "calls.txt").read_text().splitlines()
        profile = next(c for c in calls if c.startswith("profile --cuda --launch-count 40"))
        self.assertTrue(profile.endswith(f"-- python3 {self.top}/rooftop-gpu/share/torch_model.py"))
        ncu_torch = next(c for c in calls if c.startswith("ncu ") and "torch_model.py" in c)
        for flag in ["--clock-control none", "--cache-control none", "--launch-count 40",
                     f"--log-file {out}/ncu-torch.txt"]:
            self.assertIn(flag, ncu_torch)
        metrics = ncu_torch.split("--metrics ")[1].split()[0].split(",")
        for metric in ["sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_src_fp16.sum",
                       "sm__ops_path_tensor_src_tf32_dst_fp32.sum", "dram__bytes.sum",
                       "sm__sass_thread_inst_executed_op_hfma_pred_on.sum"]:
            self.assertIn(metric, metrics)
        # rooftop's counts are set beside this call's ncu log, not the H200's.
        self.assertIn(f"compare-counts {out}/profile-torch.h5 {out}/ncu-torch.txt", calls)
        # The Kokkos kernels' ncu step counted the launches of its CSV (the H200's: 12), and
        # the verdicts of compare-counts (the H200's CUPTI file beside it) follow its step.
        self.assertIn("(ncu profiled 12 launches of 12 kernels)", summary)
        after_counts = summary[summary.index("\ncounts "):summary.index("\nprofile ")]
        self.assertRegex(after_counts, r"\n +l2 bytes +within 2% in all 9 pairs")
        after_torch = summary[summary.index("\ncounts-torch "):summary.index("\npeer-")]
        self.assertRegex(after_torch, r"\n +fp64 FLOPs +equal in")

    def test_the_sections_of_this_calls_ceilings_are_profiled_and_their_roofs_checked(self):
        done, summary, out = run_gpu(make_bundle(self.top, ncu=True, peers=False))
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        self.assertEqual(order[order.index("profile") + 1:order.index("profile") + 4],
                         ["ncu-sections-export", "ncu-sections", "ncu-sections-check"], summary)
        self.assertNotRegex(steps(summary)["ncu-sections-export"], "FAILED|TIMED OUT|SKIPPED")
        calls = (self.top / "calls.txt").read_text()
        self.assertIn(f"export {out}/gpu-1.h5 --format ncu-sections --out {out}/ncu-sections", calls)
        sections = sorted(p.name for p in (out / "ncu-sections").iterdir())
        self.assertIn("Rooftop_HierarchicalRoofline_FP64.section", sections)
        under_ncu = next(c for c in calls.splitlines() if c.startswith("ncu ") and "--section-folder" in c)
        for flag in [f"--section-folder {out}/ncu-sections", "--section regex:Rooftop_",
                     "--print-units base", "--clock-control none", "--launch-count 1",
                     f"--log-file {out}/ncu-sections.csv", "--kernels triad --size tiny"]:
            self.assertIn(flag, under_ncu)
        # The stand-in ncu writes the H200's raw page of the GPP run, which has no
        # rooftop__ roof: the check says so under its step, and fails.
        self.assertIn("FAILED", steps(summary)["ncu-sections-check"])
        self.assertRegex(summary, r"\n +ncu's raw page names no rooftop__ roof .*were the sections collected\?")

    def test_without_ncu_the_pytorch_counts_are_set_beside_the_bundles_log(self):
        done, summary, out = run_gpu(make_bundle(self.top, torch=True))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(summary, r"\nncu: +not found")
        self.assertIn("SKIPPED: no ncu: counts-torch reads the H200's log", steps(summary)["ncu-torch"])
        calls = (self.top / "calls.txt").read_text()
        self.assertIn(f"compare-counts {out}/profile-torch.h5 "
                      f"{self.top}/rooftop-gpu/share/ncu-torch.txt", calls)

    def test_an_ncu_off_the_path_is_found_where_its_installer_puts_it(self):
        bundle = make_bundle(self.top, peers=False)
        installed = self.top / "nsight-compute" / "2025.3.1" / "ncu"
        executable(installed, STAND_IN_NCU)
        done, summary, _ = run_gpu(bundle, ROOFTOP_NCU_PLACES=f"{self.top}/nsight-compute/*/ncu")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(summary, rf"\nncu: +{re.escape(str(installed))}, Version 2025.3.1.0")
        self.assertNotRegex(steps(summary)["ncu"], "FAILED|TIMED OUT|SKIPPED", summary)

    def test_the_gpp_ladder_of_analyze_is_set_beside_the_v100s(self):
        done, summary, out = run_gpu(make_bundle(self.top, peers=False))
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        self.assertEqual(order[order.index("analyze-cupti") + 1], "gpp-ladder", summary)
        self.assertNotRegex(steps(summary)["gpp-ladder"], "FAILED|TIMED OUT|SKIPPED", summary)
        calls = (self.top / "calls.txt").read_text()
        self.assertIn(f"show {out}/analyze-cupti.h5 --json", calls)
        # analyze-cupti.h5, here the H200's file: its nine versions beside the V100's, then
        # the three targets; printed under the step's line.
        table = (out / "gpp-ladder.txt").read_text()
        self.assertEqual(re.findall(r"^(v\d) ", table, re.M), [f"v{n}" for n in range(1, 10)], table)
        self.assertIn("V100 time (s)", table)
        self.assertEqual(len(re.findall(r"^GPU target, ", table, re.M)), 3, table)
        self.assertIn("GPU target, v1 -> v9 at least 2.9x: MISSED: 2.29x", table)
        under = "\n".join(" " * 19 + line for line in table.splitlines() if line)
        self.assertIn(steps(summary)["gpp-ladder"] + "\n" + under + "\n", summary)
        self.assertIn(under, done.stdout)
        self.assertFalse((out / "gpp-ladder.log").exists())

    def test_a_bundle_without_the_ladders_script_skips_its_step(self):
        bundle = make_bundle(self.top, peers=False)
        (bundle / "bench-gpp-ladder.py").unlink()
        done, summary, out = run_gpu(bundle)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("SKIPPED: this bundle has no bench-gpp-ladder.py", steps(summary)["gpp-ladder"])
        self.assertFalse((out / "gpp-ladder.txt").exists())

    def test_peers_alone_measure_once_then_the_peers(self):
        bundle = make_bundle(self.top)
        executable(bundle / "peers" / "another", "#!/bin/sh\necho another peer\n")
        done, summary, out = run_gpu(bundle, "--peers")
        self.assertEqual(done.returncode, 0, done.stderr)
        order = list(steps(summary))
        self.assertEqual(order[:2], ["measure-1", "peer-gpu-l2-cache"], summary)
        # Each peer under the limit its entry of run-gpu.sh's `peers` table gives; a
        # program in peers/ of no known name last, under other_peer_limit.
        script = (ROOT / "scripts" / "run-gpu.sh").read_text()
        table = re.findall(r"^  ([\w-]+):(\d+) ", script, re.M)
        self.assertEqual(sorted(name for name, _ in table), PEERS)
        for name, secs in table:
            self.assertRegex(steps(summary)[f"peer-{name}"], rf" {secs} *$")
        self.assertEqual(order[order.index("peer-gpu-stream") + 1], "peer-another", summary)
        self.assertRegex(steps(summary)["peer-another"], r" 90 *$")
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
        self.assertNotIn("gpp-ladder", found)  # no analyze-cupti.h5 to read

    @unittest.skipUnless(shutil.which("cc"), "needs a C compiler")
    def test_without_the_drivers_libcuda_it_says_so_once_and_stops(self):
        # bin/rooftop as the CUDA build links it: against libcuda.so.1, here a stub that
        # is removed once linked, as on a machine without the NVIDIA driver.
        bundle = make_bundle(self.top)
        stub = self.top / "stub"
        stub.mkdir()
        library = "int cuInit(unsigned flags) { return (int)flags; }\n"
        program = "int cuInit(unsigned);\nint main(void) { return cuInit(0); }\n"
        for source, command in (
                (library, ["-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", "-o", "libcuda.so.1"]),
                (program, ["-o", str(bundle / "bin" / "rooftop"), "-L.", "-l:libcuda.so.1"])):
            subprocess.run(["cc", "-x", "c", "-", *command], cwd=stub, input=source, text=True,
                           check=True, capture_output=True)
        (stub / "libcuda.so.1").unlink()
        done, summary, out = run_gpu(bundle)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("no NVIDIA driver (libcuda.so.1 not found)", done.stderr)
        self.assertIn("bin/rooftop: libcuda.so.1 => not found", summary)
        self.assertFalse(steps(summary), summary)
        self.assertFalse((self.top / "calls.txt").exists())

    def test_a_bad_budget_is_one_line_and_exit_2(self):
        done, _, _ = run_gpu(make_bundle(self.top), "--budget", "soon")
        self.assertEqual(done.returncode, 2)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn("--budget needs seconds", done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
