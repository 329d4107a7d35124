#!/usr/bin/env python3
"""rooftop import of Nsight's own report files, through the ncu and nsys on PATH.

The reports are real public ones (tests/fixtures/README.md): MiniWeather on a V100 from a
2022 GPU workshop, an Nsight Compute report of `--set full` (its roofline sections record
FLOPs only as rates per cycle) and Nsight Systems reports of the same program, in the
.nsys-rep and the older .qdrep container; and reports newer than Debian's tools.

Where ncu or nsys is not on PATH, the tests that need it skip and say why, unless
ROOFTOP_REQUIRE_NSIGHT is set (scripts/test.sh sets it where install-deps.sh installed
them): then they fail. The tests of a missing tool run on a PATH without it, whatever
this machine has.
"""

import atexit
import csv
import io
import json
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "import"
CEILINGS = ROOT / "data" / "v100-ert.h5"
NCU_REP = FIXTURES / "ncu-rep-miniweather-v100-2022.2.ncu-rep"
NSYS_REP = FIXTURES / "nsys-rep-miniweather-v100-2021.5.nsys-rep"
QDREP = FIXTURES / "nsys-rep-miniweather-v100-2021.2.qdrep"
NEWER_NCU = FIXTURES / "ncu-rep-2024.3-hyperspec.ncu-rep"
NEWER_NSYS = FIXTURES / "nsys-rep-2026.1-jacc.nsys-rep"


# ncu deploys its stock sections under $HOME/Documents on first use: the tests' tools run
# with a HOME of their own.
HOME = tempfile.mkdtemp(prefix="nsight-home-")
atexit.register(shutil.rmtree, HOME, ignore_errors=True)


def rooftop(*args, path=None):
    env = dict(os.environ, HOME=HOME)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([os.environ["ROOFTOP_EXE"], *map(str, args)], capture_output=True,
                          text=True, timeout=300, env=env)


def need(test, tool):
    """The tool's path on PATH; the test skips (or fails, where required) without it."""
    found = shutil.which(tool)
    if found:
        return found
    why = f"no {tool} on PATH (Debian's non-free {'nsight-compute' if tool == 'ncu' else 'nsight-systems'})"
    if os.environ.get("ROOFTOP_REQUIRE_NSIGHT"):
        test.fail(why + ", and ROOFTOP_REQUIRE_NSIGHT is set")
    test.skipTest(why)


def ncu_page(ncu, report, *page):
    done = subprocess.run([ncu, "--import", str(report), "--csv", *page], capture_output=True,
                          text=True, timeout=300, check=True, env=dict(os.environ, HOME=HOME))
    return list(csv.DictReader(io.StringIO(done.stdout)))


def imported(test, report, *more):
    done = rooftop("import", report, "--ceilings", CEILINGS, "--json", *more)
    test.assertEqual(done.returncode, 0, done.stderr)
    return json.loads(done.stdout)


def one_error_line(test, done):
    test.assertEqual(done.returncode, 1, done.stderr)
    test.assertEqual(done.stdout, "")
    errors = [line for line in done.stderr.splitlines() if line.startswith("rooftop: error:")]
    test.assertEqual(len(errors), 1, done.stderr)
    return errors[0]


class Temporary(unittest.TestCase):
    def setUp(self):
        self.top = pathlib.Path(tempfile.mkdtemp(prefix="nsight-reports-"))

    def tearDown(self):
        shutil.rmtree(self.top, ignore_errors=True)


class WithoutTheTools(Temporary):
    """On a PATH that holds neither ncu nor nsys."""

    def test_a_compute_report_without_ncu_says_how_to_export_it(self):
        line = one_error_line(self, rooftop("import", NCU_REP, "--ceilings", CEILINGS,
                                            path=str(self.top)))
        self.assertIn("no ncu is on PATH", line)
        self.assertIn(f"ncu --import {NCU_REP} --csv --page raw", line)

    def test_a_systems_report_without_nsys_says_how_to_export_it(self):
        for report in [NSYS_REP, QDREP]:
            line = one_error_line(self, rooftop("import", report, "--ceilings", CEILINGS,
                                                path=str(self.top)))
            self.assertIn("no nsys is on PATH", line)
            self.assertIn(f"nsys export --type sqlite --output report.sqlite {report}", line)


class ComputeReports(Temporary):
    def setUp(self):
        super().setUp()
        self.ncu = need(self, "ncu")

    def test_the_roofline_sections_rates_place_every_kernel_as_ncu_places_it(self):
        result = imported(self, NCU_REP)
        kernels = result["kernels"]
        self.assertEqual([k["name"] for k in kernels],
                         ["set_halo_values_x_396_gpu", "set_halo_values_x_419_gpu",
                          "compute_tendencies_x_279_gpu", "compute_tendencies_x_309_gpu",
                          "semi_discrete_step_232_gpu"])
        self.assertTrue(any("an Nsight Compute report written by Nsight Compute 2022.2.0.0, exported by "
                            f"{self.ncu} 20" in n for n in result["notes"]), result["notes"])
        raw = ncu_page(self.ncu, NCU_REP, "--page", "raw", "--print-units", "base")[1:]  # less units
        details = ncu_page(self.ncu, NCU_REP, "--page", "details")
        # ncu's own roofline verdict of each kernel: its share of the FP32 and FP64 peaks, as
        # SpeedOfLight_RooflineChart's rule words it ("achieved 2% of this device's fp32 peak
        # performance and 52% of its fp64 peak performance").
        verdicts = {}
        for row in details:
            m = re.search(r"achieved (\s*close to )?(\d+)% of this device's fp32 peak performance "
                          r"and (\s*close to )?(\d+)% of its fp64", row.get("Rule Description") or "")
            if m:
                verdicts[row["ID"]] = {"fp32": (bool(m.group(1)), int(m.group(2))),
                                       "fp64": (bool(m.group(3)), int(m.group(4)))}
        self.assertEqual(len(verdicts), 5)
        for k, row in zip(kernels, raw):
            self.assertEqual(k["name"], row["Kernel Name"])
            clock = float(row["smsp__cycles_elapsed.avg.per_second"])
            for precision, op in [("fp32", "ffma"), ("fp64", "dfma")]:
                peak = 2 * float(row[f"sm__sass_thread_inst_executed_op_{op}_pred_on.sum.peak_sustained"])
                share = 100 * k["flops_by_precision"][precision] / k["time_s"] / (peak * clock)
                close_to, percent = verdicts[row["ID"]][precision]
                if close_to:
                    self.assertTrue(0 < share < 1, (k["name"], precision, share))
                else:
                    self.assertEqual(f"{share:.0f}", str(percent), (k["name"], precision, share))
            # The DRAM point: the rate ncu's chart draws, over the kernel's duration.
            self.assertAlmostEqual(k["bytes"]["dram"] / k["time_s"] / float(row["dram__bytes.sum.per_second"]),
                                   1.0, places=9)
            self.assertIsNone(k["flops_by_precision"]["fp16"], "no FP16 metric: unknown, not 0")
        self.assertEqual(kernels[2]["limiter"], "fp64_fma_mix")

    def test_a_truncated_report_is_one_line_and_nothing_is_written(self):
        half = self.top / "half.ncu-rep"
        data = NCU_REP.read_bytes()
        half.write_bytes(data[: len(data) // 2])
        out = self.top / "kernels.h5"
        out.write_bytes(b"kept")
        line = one_error_line(self, rooftop("import", half, "--ceilings", CEILINGS, "--out", out))
        self.assertIn("ncu could not read this Nsight Compute report", line)
        self.assertEqual(out.read_bytes(), b"kept")

    def test_a_report_newer_than_ncu_names_both_versions(self):
        line = one_error_line(self, rooftop("import", NEWER_NCU, "--ceilings", CEILINGS))
        self.assertRegex(line, r"written by Nsight Compute 2024\.3\.2\.0, newer than the ncu on "
                               r"PATH \(20\d\d\.\d+\.\d+\.\d+\)")


class SystemsReports(Temporary):
    def setUp(self):
        super().setUp()
        self.nsys = need(self, "nsys")

    def test_the_launches_and_their_time_are_those_of_nsys_own_export(self):
        kernels = imported(self, NSYS_REP)["kernels"]
        database = self.top / "own.sqlite"
        subprocess.run([self.nsys, "export", "--type", "sqlite", "--output", str(database),
                        str(NSYS_REP)], capture_output=True, timeout=300, check=True,
                       env=dict(os.environ, HOME=HOME))
        with sqlite3.connect(database) as db:
            launches, nanoseconds = db.execute(
                "SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
        self.assertEqual(launches, 4162)
        self.assertEqual(sum(k["invocations"] for k in kernels), launches)
        self.assertAlmostEqual(sum(k["time_s"] for k in kernels) / (nanoseconds * 1e-9), 1.0, places=9)

    def test_both_containers_give_the_runs_kernels_and_nothing_beside_them(self):
        for fixture in [NSYS_REP, QDREP]:
            report = self.top / fixture.name
            shutil.copy(fixture, report)
            result = imported(self, report)
            kernels = result["kernels"]
            self.assertEqual(len(kernels), 10, fixture.name)
            self.assertIn("semi_discrete_step_257_gpu", [k["name"] for k in kernels])
            self.assertTrue(all(k["time_s"] > 0 and k["flops"] is None for k in kernels),
                            "times, and FLOPs unknown (nsys counts none), not 0")
            self.assertEqual(sorted(p.name for p in self.top.iterdir()), [report.name],
                             "nsys wrote nothing beside the report")
            report.unlink()

    def test_a_report_newer_than_nsys_names_both_versions(self):
        line = one_error_line(self, rooftop("import", NEWER_NSYS, "--ceilings", CEILINGS))
        self.assertRegex(line, r"written by Nsight Systems 2026\.1\.1\.204, newer than the nsys on "
                               r"PATH \(20\d\d\.\d+\.\d+\.\d+\)")

    def test_a_truncated_report_is_one_line(self):
        half = self.top / "half.nsys-rep"
        data = NSYS_REP.read_bytes()
        half.write_bytes(data[: len(data) // 2])
        line = one_error_line(self, rooftop("import", half, "--ceilings", CEILINGS))
        self.assertIn("nsys could not read this Nsight Systems report", line)


if __name__ == "__main__":
    unittest.main()
