#!/usr/bin/env python3
"""scripts/bench-llm.py end to end with Debian's PyTorch (/usr/bin/python3): a small
Llama-architecture decoder (the dimensions of a config written here, one layer) run under
this build's `rooftop profile --torch`, its operators joined by `rooftop llm --trace` to
the predicted ones on data/'s Zen 4 ceilings: every GEMM class of both phases present,
its FLOPs equal to PyTorch's own count, and its layer joined in each phase. Skipped where /usr/bin/python3 cannot import torch,
unless ROOFTOP_REQUIRE_TORCH is set.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench-llm.py"
CEILINGS = ROOT / "data" / "epyc-zen4-2026-11-29-ceilings.h5"
EXE = os.environ.get("ROOFTOP_EXE", "")
PYTHON = "/usr/bin/python3"


def torch_importable():
    return subprocess.run([PYTHON, "-c", "import torch"], capture_output=True).returncode == 0


class BenchLlm(unittest.TestCase):
    def setUp(self):
        if not EXE:
            self.skipTest("needs ROOFTOP_EXE (ctest sets it)")
        if not torch_importable():
            if os.environ.get("ROOFTOP_REQUIRE_TORCH"):
                self.fail(PYTHON + " cannot import torch (install-deps.sh --tests installs it)")
            self.skipTest(PYTHON + " cannot import torch")

    def test_every_gemm_class_is_joined_and_its_flops_are_pytorchs(self):
        config = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 1,
                  "num_attention_heads": 8, "num_key_value_heads": 2,
                  "intermediate_size": 1536, "vocab_size": 4096}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "config.json")
            with open(path, "w") as f:
                json.dump(config, f)
            kept = os.path.join(tmp, "kept")
            run = subprocess.run([sys.executable, str(SCRIPT), "--rooftop", EXE, "--ceilings",
                                  str(CEILINGS), "--config", path, "--layers", "1", "--prompts",
                                  "32", "--generate", "4", "--keep", kept, "--python", PYTHON],
                                 capture_output=True, text=True, timeout=300,
                                 env=dict(os.environ, OMP_NUM_THREADS="1"))
            # --keep: the trace llm joined and the timed run's times, kept.
            self.assertEqual(sorted(os.listdir(kept)), ["times-32.json", "trace-32.json"])
            self.assertIn("prefill_s", json.load(open(os.path.join(kept, "times-32.json"))))
        # 3: an operator faster than its bound; a tiny one may be, by the trace's whole
        # microseconds. The FLOPs are what this checks.
        self.assertIn(run.returncode, (0, 3), run.stdout + run.stderr)
        self.assertIn("every GEMM's FLOPs equal PyTorch's own count", run.stdout)
        rows = {tuple(line.split()[:2]) for line in run.stdout.splitlines() if line.split()}
        for phase in ("prefill", "decode"):
            for name in ("q_proj+o_proj", "k_proj+v_proj", "gate_proj+up_proj", "down_proj",
                         "attention"):
                self.assertIn((name, phase), rows, run.stdout)
        self.assertIn(("lm_head", "both"), rows, run.stdout)
        # The decoder's record_function range names its one layer in each phase: one
        # prefill step and the four decode steps.
        self.assertIn("layers measured, prefill: 1 layer(s), 1 step(s) each", run.stdout)
        self.assertIn("layers measured, decode: 1 layer(s), 4 step(s) each", run.stdout)


if __name__ == "__main__":
    unittest.main()
