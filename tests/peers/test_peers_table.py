#!/usr/bin/env python3
"""scripts/peers-table.py on the real logs of the peers run on an H200 beside rooftop
(tests/fixtures/peers: their outputs and rooftop's ceilings of the same call), and
scripts/build-gpu-peers.sh's argument errors. The expected figures were read from the logs
by hand. With ROOFTOP_EXE set (ctest sets it), the ceilings fixture is also checked
against `rooftop show --json` of the same run's file in data/.
"""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "peers"
SCRIPT = ROOT / "scripts" / "peers-table.py"
CEILINGS = FIXTURES / "h200-ceilings-1.json"

spec = importlib.util.spec_from_file_location("peers_table", SCRIPT)
peers_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peers_table)


def log(name):
    return (FIXTURES / f"peer-{name}.log").read_text()


def run(*args, **kwargs):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=60, **kwargs)


def rows_of(table):
    """{peer column: (peer's figure, at, ratio)} of the printed table, by column offsets."""
    lines = table.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("ceiling"))
    starts = [k for k, ch in enumerate(lines[header + 1]) if ch == "-" and
              (k == 0 or lines[header + 1][k - 1] == " ")]

    def cells(line):
        bounds = starts + [None]
        return [line[bounds[i]:bounds[i + 1]].strip() for i in range(len(starts))]

    return {c[2]: (c[3], c[4], c[5]) for c in map(cells, lines[header + 2:])}


class Parsers(unittest.TestCase):
    def test_mixbench_peaks_of_each_precision(self):
        best = peers_table.parse_mixbench(log("mixbench"))
        self.assertAlmostEqual(best["dp"].value, 31202.36)
        self.assertAlmostEqual(best["sp"].value, 59701.35)
        self.assertAlmostEqual(best["hp"].value, 94615.65)
        self.assertAlmostEqual(best["int"].value, 27662.32)
        self.assertEqual(best["dp"].at, "1024 iterations, 256.125 FLOP/B")

    def test_babelstream_best_kernel_in_gb_per_s(self):
        found = peers_table.parse_babelstream(log("babelstream"))
        self.assertEqual(found["best"].at, "Triad")
        self.assertAlmostEqual(found["best"].value, 4191.684197)
        self.assertEqual(sorted(found["kernels"]), ["Add", "Copy", "Dot", "Mul", "Triad"])
        self.assertAlmostEqual(found["kernels"]["Copy"], 3837.862519)

    def test_gpu_cache_best_is_an_l1_row(self):
        found = peers_table.parse_gpu_cache(log("gpu-cache"))
        self.assertEqual(len(found["rows"]), 50)
        self.assertAlmostEqual(found["best"].value, 33299.3)
        self.assertEqual(found["best"].at, "204 KiB per thread block")
        self.assertEqual(found["best"].note, "")

    def test_gpu_l2_cache_rows_by_working_set(self):
        rows = peers_table.parse_gpu_l2_cache(log("gpu-l2-cache"))["rows"]
        self.assertEqual(len(rows), 85)
        self.assertEqual(max(rows, key=lambda r: r[1]), (1536 * 1024, 12803.3))
        by_size = dict(rows)
        self.assertAlmostEqual(by_size[3072 * 1024], 11008.6)
        self.assertAlmostEqual(by_size[15360 * 1024], 9720.7)
        self.assertAlmostEqual(by_size[2071552 * 1024], 4446.7)
        self.assertEqual(rows[-1], (4881920 * 1024, 4225.2))

    def test_gpu_stream_cut_in_mid_row(self):
        # The H200 run stopped it 25 s in, while it printed its fourth row.
        best = peers_table.parse_gpu_stream(log("gpu-stream"))["best"]
        self.assertEqual(best.value, 305)
        self.assertEqual(best.at, "triad; block 48, smBlocks 6336, threads 1, occ% 2.3%")
        self.assertEqual(best.note, "cut in mid-row, 3 rows")

    def test_each_log_is_known_by_its_content(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("mixbench", "babelstream", "gpu-cache", "gpu-l2-cache", "gpu-stream"):
                # Named otherwise: the content says which peer wrote it.
                (pathlib.Path(tmp) / f"peer-{name.upper()}-x.log").write_text(log(name))
            found = peers_table.read_logs([tmp])
        self.assertEqual(sorted(found),
                         ["babelstream", "gpu-cache", "gpu-l2-cache", "gpu-stream", "mixbench"])


class Table(unittest.TestCase):
    def test_h200_run(self):
        result = run(CEILINGS, FIXTURES)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        self.assertIn("on NVIDIA H200", result.stdout.splitlines()[0])
        rows = rows_of(result.stdout)
        expected = {
            "mixbench-cuda DP": ("31,202 GFLOP/s", "1.060"),
            "mixbench-cuda SP": ("59,701 GFLOP/s", "1.093"),
            "gpu-cache": ("33,299 GB/s", "0.978"),
            "gpu-l2-cache best": ("12,803 GB/s", "0.759"),
            "gpu-l2-cache >= 3 L2s": ("4,613 GB/s", "0.950"),
            "BabelStream best kernel": ("4,192 GB/s", "1.045"),
            "gpu-stream best": ("305 GB/s", "14.362"),
        }
        for peer, (figure, ratio) in expected.items():
            self.assertEqual((rows[peer][0], rows[peer][2]), (figure, ratio), peer)
        self.assertEqual(rows["gpu-l2-cache best"][1], "1.5 MiB")
        self.assertEqual(rows["gpu-l2-cache at the L2 size"],
                         ("5,670 GB/s", "56.5 MiB (the largest set within the 60 MiB L2)",
                          "1.715"))
        self.assertEqual(rows["gpu-l2-cache >= 3 L2s"][1],
                         "188 MiB (best of the sets of 180 MiB and more)")
        # At rooftop's own working sets: 15 MiB for L2, 2 GiB for DRAM.
        lines = result.stdout.splitlines()
        l2 = next(i for i, line in enumerate(lines) if line.startswith("l2 "))
        dram = next(i for i, line in enumerate(lines) if line.startswith("dram "))
        self.assertIn("9,722 GB/s at 15 MiB", lines[l2])
        self.assertIn("gpu-l2-cache at rooftop's set  9,721 GB/s      15 MiB", lines[l2 + 1])
        self.assertIn("4,381 GB/s at 2 GiB", lines[dram])
        self.assertIn("4,447 GB/s      1.98 GiB", lines[dram + 1])

    def test_ceilings_from_standard_input_and_a_missing_peer(self):
        result = run("-", FIXTURES / "peer-babelstream.log", input=CEILINGS.read_text())
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = rows_of(result.stdout)
        self.assertEqual(rows["mixbench-cuda DP"], ("no log", "", ""))
        self.assertEqual(rows["gpu-l2-cache at the L2 size"], ("no log", "", ""))
        self.assertEqual(rows["BabelStream best kernel"][2], "1.045")

    def test_unknown_log_is_named_and_left_out(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as other:
            other.write("nothing a peer prints\n")
            other.flush()
            result = run(CEILINGS, other.name)
        self.assertEqual(result.returncode, 0)
        self.assertIn("not the output of a known peer", result.stderr)

    def test_bad_ceilings_say_so_in_one_line(self):
        result = run(FIXTURES / "no-such.json", FIXTURES)
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(result.stderr.strip().count("\n"), 0)
        self.assertIn("peers-table:", result.stderr)
        result = run(FIXTURES / "peer-mixbench.log", FIXTURES)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("not the output of `rooftop show --json`", result.stderr)
        result = run(CEILINGS, FIXTURES / "no-such.log")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("no such file or folder", result.stderr)

    @unittest.skipUnless(os.environ.get("ROOFTOP_EXE"), "ROOFTOP_EXE not set")
    def test_fixture_is_rooftop_show_of_the_runs_file(self):
        shown = subprocess.run([os.environ["ROOFTOP_EXE"], "show", "--json",
                                str(ROOT / "data" / "h200-2026-11-27-ceilings-1.h5")],
                               capture_output=True, text=True, timeout=60, check=True)
        ceilings = {c["name"]: c["value"] for c in json.loads(shown.stdout)["ceilings"]}
        fixture = {c["name"]: c["value"] for c in json.loads(CEILINGS.read_text())["ceilings"]}
        self.assertEqual(ceilings, fixture)


class BuildScriptArguments(unittest.TestCase):
    """build-gpu-peers.sh refuses bad arguments in one line, before it looks for nvcc."""

    def build(self, *args):
        return subprocess.run(["bash", str(ROOT / "scripts" / "build-gpu-peers.sh"), *args],
                              capture_output=True, text=True, timeout=60)

    def assert_refused(self, result, words):
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertIn(words, result.stderr)

    def test_no_source(self):
        self.assert_refused(self.build(), "no source folder given")

    def test_missing_folder(self):
        self.assert_refused(self.build("--mixbench", "/nonexistent/mixbench"), "no such folder")

    def test_folder_of_another_project(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assert_refused(self.build("--gpu-benches", tmp), "not a checkout of gpu-benches?")

    def test_bad_arch(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assert_refused(self.build("--cuda-arch", "hopper", "--mixbench", tmp),
                                "is not an arch like 90 or sm_90")

    def test_unknown_option(self):
        self.assert_refused(self.build("--fast"), "unknown argument '--fast'")


if __name__ == "__main__":
    unittest.main()
