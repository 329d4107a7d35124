#!/usr/bin/env python3
"""Side-by-side: rooftop's CPU ceilings against likwid-bench, in one run on one machine.

Each round runs `rooftop measure` (default settings) and then the matching likwid-bench
kernels with the same thread count: the peakflops kernels on an L1-resident array, and
the load and copy kernels (the better of the two) at the working set of rooftop's best
point of each level. The likwid-bench kernels match the vector width rooftop was built
for (AVX-512 or AVX). It prints
one ratio per ceiling (median of rooftop / median of likwid-bench over the rounds) and
the run-to-run spread of both tools. Absolute numbers drift on shared machines; the
ratios are what this script is for.

With --baseline, a second rooftop program (the same tree built another way, e.g. on an
older Kokkos) is measured in every round too, right after the first, and each ceiling
gets the ratio rooftop / baseline beside the likwid ratio. The fraction of the
theoretical peak each rooftop program reached is printed for the compute ceilings.

usage: scripts/bench-vs-likwid.py [--rooftop build/app/rooftop] [--baseline OTHER/rooftop]
                                  [--markdown] [--runs N] [--quick]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def likwid(test, size_bytes, threads):
    """Runs one likwid-bench test; returns (MFlops/s, MByte/s)."""
    kb = max(4, size_bytes // 1000)  # likwid-bench's kB is 1000 bytes
    cmd = ["likwid-bench", "-t", test, "-W", f"N:{kb}kB:{threads}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    flops = re.search(r"MFlops/s:\s+([\d.]+)", out)
    bytes_ = re.search(r"MByte/s:\s+([\d.]+)", out)
    return (float(flops.group(1)) if flops else 0.0, float(bytes_.group(1)) if bytes_ else 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooftop", default=os.path.join(os.path.dirname(__file__), "..", "build", "app", "rooftop"))
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--runs", type=int, default=1, help="rooftop measure runs (checks run-to-run agreement)")
    ap.add_argument("--quick", action="store_true", help="pass --quick to rooftop measure")
    ap.add_argument("--baseline", help="a second rooftop program measured in the same rounds")
    args = ap.parse_args()

    # likwid-bench's kernels for the vector width rooftop's kernels were built for (a
    # -march=x86-64-v3 build on an AVX-512 machine is compared with the AVX kernels), and
    # never wider than the CPU has.
    flags = open("/proc/cpuinfo").read()
    avx512 = " avx512f" in flags
    v = None

    def rooftop_run(program, tmp, i):
        path = os.path.join(tmp, f"r{i}.h5")
        cmd = [program, "measure", "--out", path] + (["--quick"] if args.quick else [])
        t0 = time.time()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        seconds = time.time() - t0
        shown = subprocess.run([program, "show", path, "--json"], check=True,
                               capture_output=True, text=True).stdout
        doc = json.loads(shown)
        doc["_seconds"] = seconds
        return doc

    # Each round runs rooftop, then every likwid-bench test; ratios compare medians over
    # rounds, so slow drift of a shared machine hits both tools alike.
    compute = []
    runs, base, peer = [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            doc = rooftop_run(args.rooftop, tmp, i)
            runs.append(doc)
            if args.baseline:
                base.append(rooftop_run(args.baseline, tmp, f"b{i}"))
            threads = doc["machine"]["threads"]
            if v is None:
                v = "avx512" if avx512 and doc["machine"].get("simd_bits", 512) >= 512 else "avx"
                compute = [("fp64_fma", f"peakflops_{v}_fma"), ("fp32_fma", f"peakflops_sp_{v}_fma"),
                           ("fp64_nofma", f"peakflops_{v}"), ("fp32_nofma", f"peakflops_sp_{v}")]
            ceilings = {c["name"]: c for c in doc["ceilings"]}
            for name, test in compute:
                mflops, _ = likwid(test, 32 * 1000, threads)  # L1-resident: compute-bound
                peer.setdefault(name, []).append((mflops / 1000.0, test, 32000))
            # likwid-bench's load and copy kernels at the working set of rooftop's best
            # point; the better of the two is the peer.
            for level in ("l1", "l2", "l3", "dram"):
                if level not in ceilings:
                    continue
                size = ceilings[level]["working_set_bytes"]
                best = max((likwid(f"{kind}_{v}", size, threads)[1], f"{kind}_{v}")
                           for kind in ("load", "copy"))
                peer.setdefault(level, []).append((best[0] / 1000.0, best[1], size))

    def median(xs):
        xs = sorted(xs)
        n = len(xs)
        return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])

    def values(docs, name, key="value"):
        return [next((c[key] for c in r["ceilings"] if c["name"] == name), None) for r in docs]

    doc = runs[-1]
    threads = doc["machine"]["threads"]
    rows = []
    for name, results in peer.items():
        ours = median(values(runs, name))
        units = next(c["units"] for c in doc["ceilings"] if c["name"] == name)
        pattern = next(c["pattern"] for c in doc["ceilings"] if c["name"] == name)
        theirs = median([x for x, _, _ in results])
        rows.append((name, ours, theirs, units, results[-1][1], results[-1][2], pattern))

    def fmt_size(b):
        for unit in ["B", "KiB", "MiB", "GiB"]:
            if b < 1024:
                return f"{b:.0f} {unit}"
            b /= 1024
        return f"{b:.0f} TiB"

    if args.markdown:
        print("| ceiling | rooftop (pattern) | likwid-bench | units | ratio | likwid test, working set |")
        print("|---|---:|---:|---|---:|---|")
        for name, r, l, units, test, size, pattern in rows:
            print(f"| {name} | {r:.1f} ({pattern}) | {l:.1f} | {units} | {r / l:.3f} | {test}, {fmt_size(size)} |")
    else:
        print(f"{'ceiling':<11} {'rooftop':>10} {'likwid':>10} {'units':<8} {'ratio':>6}  likwid test")
        for name, r, l, units, test, size, pattern in rows:
            print(f"{name:<11} {r:>10.1f} {l:>10.1f} {units:<8} {r / l:>6.3f}  {test} ({fmt_size(size)}); rooftop {pattern}")
    print(f"\nmedians over {len(runs)} rounds; {doc['machine']['cpu_model']}, {threads} threads, measure took "
          + ", ".join(f"{r['_seconds']:.1f} s" for r in runs))
    print(f"rooftop: Kokkos {doc['machine']['kokkos_version']}, {args.rooftop}")
    if base:
        print(f"baseline: Kokkos {base[-1]['machine']['kokkos_version']}, {args.baseline}")
        spread = lambda xs: max(xs) / min(xs) - 1
        if args.markdown:
            print("\n| ceiling | rooftop | baseline | ratio | rooftop spread | baseline spread |")
            print("|---|---:|---:|---:|---:|---:|")
        for c in doc["ceilings"]:
            name = c["name"]
            ours, theirs = values(runs, name), values(base, name)
            if None in ours or None in theirs:
                continue
            r, b = median(ours), median(theirs)
            if args.markdown:
                print(f"| {name} | {r:.1f} | {b:.1f} | {r / b:.3f} | {spread(ours):.1%} | {spread(theirs):.1%} |")
            else:
                print(f"  {name:<11} rooftop {r:8.1f}  baseline {b:8.1f}  ratio {r / b:6.3f}"
                      f"  spreads {spread(ours):6.1%} / {spread(theirs):6.1%}")
    for label, docs in (("rooftop", runs), ("baseline", base)):
        for name in ("fp64_fma", "fp32_fma", "fp64_nofma", "fp32_nofma"):
            fractions = [f for f in values(docs, name, "fraction_of_theoretical") if f is not None]
            if fractions:
                print(f"{label} {name}: fraction of the theoretical peak, per round: "
                      + " ".join(f"{f:.3f}" for f in fractions))
    if len(runs) > 1:
        print("run-to-run spread (max/min - 1) over", len(runs), "runs:")
        for name in ceilings:
            vals = [next(c["value"] for c in r["ceilings"] if c["name"] == name) for r in runs]
            line = f"  rooftop {name:<11} {max(vals) / min(vals) - 1:6.1%}   " + " ".join(f"{x:.1f}" for x in vals)
            if name in peer:
                theirs = [x for x, _, _ in peer[name]]
                line += f"   | likwid-bench {max(theirs) / min(theirs) - 1:6.1%}   " + " ".join(f"{x:.1f}" for x in theirs)
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
