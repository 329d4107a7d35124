#!/usr/bin/env python3
"""analyze's estimate against the real time, on this machine, in one run.

Runs `rooftop analyze` for each kernel set and size given, reads the range it prints
before it starts ("rooftop: estimate: 9 kernels, about 20 to 167 s: ..."), times the
whole command, and prints one row each: the range, the real seconds, and whether the
range holds them. Exits 1 when a range misses.

    scripts/bench-estimate.py --ceilings C.h5 [--rooftop build/app/rooftop] \
        [--case gpp:tiny --case triad,polynomial,stencil:small ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ESTIMATE = re.compile(r"estimate: (\d+) kernels?, about (\d+) to (\d+) s")


def run_case(rooftop, ceilings, kernels, size, extra):
    with tempfile.TemporaryDirectory() as scratch:
        cmd = [rooftop, "analyze", "--ceilings", ceilings, "--kernels", kernels, "--size", size,
               "--out", os.path.join(scratch, "k.h5")] + extra
        start = time.monotonic()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench-estimate: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    m = ESTIMATE.search(done.stderr)
    if not m:
        sys.exit(f"bench-estimate: no estimate line in the output of {' '.join(cmd)}")
    return int(m.group(2)), int(m.group(3)), seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ceilings", required=True)
    p.add_argument("--rooftop", default=os.path.join(ROOT, "build", "app", "rooftop"))
    p.add_argument("--case", action="append", metavar="KERNELS:SIZE",
                   help="kernels and size (default: gpp and the reference kernels, tiny and small)")
    p.add_argument("extra", nargs="*", help="more analyze arguments (after --)")
    a = p.parse_args()
    cases = a.case or ["gpp:tiny", "triad,polynomial,stencil:tiny", "gpp:small",
                       "triad,polynomial,stencil:small"]
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    print(f"# {model}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d', time.gmtime())}")
    print("| kernels | size | estimate s | real s | inside |")
    print("|---|---|---|---|---|")
    missed = 0
    for case in cases:
        kernels, _, size = case.rpartition(":")
        low, high, real = run_case(a.rooftop, a.ceilings, kernels, size, a.extra)
        # The printed range is rounded to whole seconds (and at least 1).
        inside = low - 0.5 <= real <= high + 0.5
        missed += not inside
        print(f"| {kernels} | {size} | {low} to {high} | {real:.1f} | {'yes' if inside else 'NO'} |",
              flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
