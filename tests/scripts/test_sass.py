#!/usr/bin/env python3
"""What scripts/check-sass.sh reads the SASS with (scripts/lib/disassemble.py and
scripts/lib/sass_common.py), on real disassembler output (tests/fixtures/sass, whose
README names its source): nvdisasm's layout turned into cuobjdump's, loops found from
backward branches, instructions a disassembler left out found from the address gaps, and
the ELF header rewrite that lets an older nvdisasm read a newer toolkit's cubin.
"""

import gzip
import importlib.util
import os
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIB = ROOT / "scripts" / "lib"
FIXTURES = ROOT / "tests" / "fixtures" / "sass"
sys.path.insert(0, str(LIB))
import sass_common  # noqa: E402

spec = importlib.util.spec_from_file_location("disassemble", LIB / "disassemble.py")
disassemble = importlib.util.module_from_spec(spec)
spec.loader.exec_module(disassemble)


# Each fixture by the source it disassembles, with the name nvcc --keep gave its cubin.
FIXTURE = {
    "tensor": ("nvdisasm-11.8-sm_90-tensor.txt.gz", "tensor.sm_90.cubin"),
    "wgmma": ("nvdisasm-11.8-sm_90a-wgmma.txt.gz", "wgmma.compute_90a.sm_90a.cubin"),
    "bandwidth": ("nvdisasm-11.8-sm_90-bandwidth.txt.gz", "bandwidth.sm_90.cubin"),
}


def functions(source):
    """(sm, the SASS in cuobjdump's layout, {function name: body}) of a fixture."""
    fixture, cubin_name = FIXTURE[source]
    text = gzip.open(FIXTURES / fixture, "rt").read()
    sm, sass = disassemble.cuobjdump_layout(text, cubin_name)
    return sm, sass, dict(sass_common.sass_functions(sass))


def only(blocks, pattern):
    names = [n for n in blocks if re.search(pattern, n)]
    assert len(names) == 1, (pattern, names)
    return blocks[names[0]]


class Layout(unittest.TestCase):
    def test_nvdisasm_output_reads_as_cuobjdump_s(self):
        sm, sass, blocks = functions("tensor")
        self.assertEqual(sm, "90")
        self.assertIn("\tcode for sm_90\n", sass)
        self.assertEqual(len(blocks), 2)
        body = only(blocks, r"6MmaF16ELi8E")
        self.assertNotIn("/* 0x", body)  # the encodings are dropped, the addresses kept
        code, labels = sass_common.instructions(body)
        self.assertGreater(len(code), 100)
        self.assertEqual(code[0], (0, "LDC R1, c[0x0][0x28] ;"))
        self.assertTrue(labels)
        self.assertEqual(sass_common.undecoded(body), 0)

    def test_an_sm_90a_cubin_is_named_so(self):
        sm, sass, _ = functions("wgmma")
        self.assertEqual(sm, "90a")
        self.assertIn("\tcode for sm_90a\n", sass)


class Loops(unittest.TestCase):
    def test_the_fp16_mma_runs_in_its_hot_loop(self):
        # 8 accumulators x 16 steps per pass of the loop.
        _, _, blocks = functions("tensor")
        hot = sass_common.hot_loop(only(blocks, r"6MmaF16ELi8E"))
        self.assertEqual(len(re.findall(r"\bHMMA\.16816\.F32\b", hot)), 8 * 16)

    def test_hoppers_fp8_mma_sync_leaves_its_loop_to_fadds(self):
        # Hopper's FP8 mma.sync: FP16 HMMA on converted operands with a zero accumulator,
        # plus FADDs into the accumulators.
        _, _, blocks = functions("tensor")
        body = only(blocks, r"7MmaE4m3ELi8E")
        self.assertRegex(body, r"\bHMMA\.16816\.F32\b")
        self.assertRegex(body, r"\bF2FP\.F16\.E4M3\.UNPACK_B\b")
        # A pass of the hot loop is 8 accumulators x 16 steps of mma in the source; the
        # SASS computes the two products once (6 HMMAs) and adds them with FADDs.
        hot = sass_common.hot_loop(body)
        self.assertEqual(len(re.findall(r"\bHMMA\b", hot)), 6)
        self.assertEqual(len(re.findall(r"\bFADD\b", hot)), 8 * 16 * 4)

    def test_a_branch_to_an_address_is_a_loop_too(self):
        body = ("        /*0000*/   MOV R1, RZ ;\n"
                "        /*0010*/   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
                "        /*0020*/   @P0 BRA 0x10 ;\n"
                "        /*0030*/   EXIT ;\n")
        self.assertEqual(sass_common.loops(body),
                         [(0x10, 0x20, "HMMA.16816.F32 R4, R8, R12, R4 ;\n@P0 BRA 0x10 ;")])
        self.assertEqual(sass_common.hot_loop(body), sass_common.loops(body)[0][2])
        self.assertEqual(sass_common.hot_loop("        /*0000*/   EXIT ;\n"), "")


class Undecoded(unittest.TestCase):
    def test_an_instruction_the_disassembler_does_not_know_leaves_a_gap(self):
        # CUDA 11.8's nvdisasm predates FP8 wgmma: it prints nothing for QGMMA.
        _, _, blocks = functions("wgmma")
        fp8 = only(blocks, r"9WgmmaE4m3ELi128E")
        self.assertNotRegex(fp8, r"\b[HQ]GMMA\b")
        self.assertGreater(sass_common.undecoded(fp8), 0)
        # It leaves out other sm_90a instructions too, but decodes HGMMA.
        fp16 = only(blocks, r"8WgmmaF16ELi128E")
        self.assertRegex(fp16, r"\bHGMMA\.64x128x16\.F32\b")

    def test_the_sm_90_tensor_code_is_decoded_whole(self):
        # The tensor kernels' whole (the bandwidth kernels' are not: a few instructions
        # of their set-up are left out, though every load is there).
        _, _, blocks = functions("tensor")
        for name, body in blocks.items():
            self.assertEqual(sass_common.undecoded(body), 0, name)


class BandwidthLoads(unittest.TestCase):
    def test_the_load_forms_check_sass_looks_for(self):
        _, _, blocks = functions("bandwidth")
        l2 = only(blocks, r"DeviceStreamKernel.*6AccessE0E")
        self.assertRegex(l2, r"LDG\.E\.128\.STRONG\.GPU R\d+, \[R\d+\.64\+0x1000\]")
        self.assertNotIn(".CONSTANT", l2)
        dram256 = only(blocks, r"DeviceStreamKernel.*6AccessE2E")
        self.assertRegex(dram256, r"LDG\.E\.NA\.LTC256B\.128\.CONSTANT")
        l1 = only(blocks, r"DeviceL1Kernel")
        offsets = set(re.findall(r"LDG\.E\.128\S* R\d+, \[R\d+\.64\+(0x[0-9a-f]+)\]", l1))
        self.assertGreaterEqual(len(offsets), 7)


class LegacyHeader(unittest.TestCase):
    # The ELF header fields of the sm_90 cubin nvcc 13.0.88 wrote for bandwidth.cpp
    # (readelf -h: OS/ABI 0x41, ABI version 8, flags 0x6005a04).
    def header(self, osabi=0x41, abi=8, flags=0x6005A04, machine=190):
        h = bytearray(64)
        h[:4] = b"\x7fELF"
        h[4], h[5], h[6], h[7], h[8] = 2, 1, 1, osabi, abi
        struct.pack_into("<H", h, 18, machine)
        struct.pack_into("<I", h, 48, flags)
        return h

    def rewrite(self, data):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.cubin")
            open(src, "wb").write(data)
            out = os.path.join(d, "copy")
            os.mkdir(out)
            copy = disassemble.legacy_header_copy(src, out)
            if not copy:
                return None
            with open(copy, "rb") as f:
                return f.read()

    def test_the_newer_layout_is_written_in_the_older(self):
        got = self.rewrite(self.header() + b"rest")
        self.assertEqual((got[7], got[8]), (0x33, 7))
        self.assertEqual(struct.unpack_from("<I", got, 48)[0], 0x5A055A)
        self.assertEqual(got[64:], b"rest")

    def test_other_files_are_left_alone(self):
        self.assertIsNone(self.rewrite(self.header(osabi=0x33, abi=7, flags=0x5A055A)))
        self.assertIsNone(self.rewrite(self.header(machine=62)))  # x86-64
        self.assertIsNone(self.rewrite(b"not an ELF file at all" * 4))


class Command(unittest.TestCase):
    def run_it(self, *args, path):
        env = dict(os.environ, PATH=path)
        return subprocess.run([sys.executable, str(LIB / "disassemble.py"), *args],
                              capture_output=True, text=True, timeout=60, env=env)

    def test_without_a_disassembler_it_says_so(self):
        with tempfile.TemporaryDirectory() as empty:
            done = self.run_it(os.path.join(empty, "out.sass"), os.path.join(empty, "x.o"),
                               path=empty)
        self.assertEqual(done.returncode, 3, done.stdout + done.stderr)
        self.assertIn("neither cuobjdump nor nvdisasm", done.stdout)

    def test_find_names_the_first_disassembler_or_says_there_is_none(self):
        with tempfile.TemporaryDirectory() as empty:
            self.assertEqual(self.run_it("--find", path=empty).returncode, 3)
            tool = os.path.join(empty, "nvdisasm")
            with open(tool, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(tool, 0o755)
            done = self.run_it("--find", "--nvdisasm", tool, path=empty)
            self.assertEqual((done.returncode, done.stdout.strip()), (0, tool))
            self.assertEqual(self.run_it("--find", "--nvdisasm", path=empty).returncode, 2)

    def test_bad_arguments(self):
        self.assertEqual(self.run_it("only-one", path=os.environ["PATH"]).returncode, 2)
        self.assertEqual(self.run_it("a", "b", "--nvdisasm", path=os.environ["PATH"]).returncode,
                         2)


if __name__ == "__main__":
    unittest.main()
