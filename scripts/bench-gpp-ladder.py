#!/usr/bin/env python3
"""The GPP optimization ladder on this machine: every version's time, GFLOP/s and
fraction of its roof by the measured ceilings, and its speedup over the first version.

It characterizes the machine first (`rooftop measure`, unless --ceilings names a file)
and then runs `rooftop analyze --kernels gpp --size SIZE --json` once; every version of
the ladder runs in that one process, side by side, so the speedups are ratios measured
in one run. It checks the two targets of the analyzer: the fastest version at least
2.5x faster than the collapse-all version, and at least half of its attainable roof.

With --baseline, a second rooftop program (the same tree built another way, e.g. on an
older Kokkos) runs the same ladder on the same ceilings, the two alternating --rounds
times; each version gets its time ratio rooftop / baseline (below 1 is faster) three ways:
of the median times, of the fastest times (the least disturbed run of each on a shared
machine), and the median of the per-round ratios (each round runs both back to back,
so a neighbour's load that drifts over minutes cancels); and whether both programs'
answers passed their checks.

usage: scripts/bench-gpp-ladder.py [--rooftop build/app/rooftop] [--ceilings FILE.h5]
                                   [--size small] [--kernels gpp,...] [--markdown]
                                   [--baseline OTHER/rooftop [--rounds 3]]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooftop", default=os.path.join(os.path.dirname(__file__), "..", "build", "app", "rooftop"))
    ap.add_argument("--ceilings", help="ceilings file of this machine (default: measure now)")
    ap.add_argument("--size", default="small")
    ap.add_argument("--kernels", default="gpp")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--baseline", help="a second rooftop program run on the same ceilings")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds with --baseline")
    args = ap.parse_args()
    if args.baseline:
        return compare_programs(args)

    with tempfile.TemporaryDirectory() as tmp:
        ceilings = args.ceilings
        if not ceilings:
            ceilings = os.path.join(tmp, "ceilings.h5")
            subprocess.run([args.rooftop, "measure", "--out", ceilings], check=True, stdout=subprocess.DEVNULL)
        t0 = time.time()
        run = subprocess.run([args.rooftop, "analyze", "--ceilings", ceilings, "--kernels", args.kernels,
                              "--size", args.size, "--json"], capture_output=True, text=True)
        seconds = time.time() - t0
        if run.returncode != 0:
            sys.exit("analyze failed: " + run.stderr.strip())
        doc = json.loads(run.stdout)
        shown = json.loads(subprocess.run([args.rooftop, "show", ceilings, "--json"], check=True,
                                          capture_output=True, text=True).stdout)

    kernels = doc["kernels"]
    ladder = [k for k in kernels if k["group"] == "gpp"]
    base = ladder[0]["time_s"] if ladder else None
    roofs = {c["name"]: c["value"] for c in shown["ceilings"]}
    print(f"machine: {doc['machine']}; fp64_fma {roofs.get('fp64_fma', 0):.1f} GFLOP/s, "
          f"dram {roofs.get('dram', 0):.1f} GB/s; analyze --size {args.size} took {seconds:.1f} s")
    if args.markdown:
        print("\n| version | time (s) | GFLOP/s | AI (DRAM) | limiter | fraction of roof | speedup over v1 | samples | check |")
        print("|---|---:|---:|---:|---|---:|---:|---:|---|")
    for k in kernels:
        ai = k["ai"].get("dram")
        speedup = base / k["time_s"] if k["group"] == "gpp" and base else None
        cells = [k["id"], f"{k['time_s']:.3g}", f"{k['gflop_per_s']:.1f}", f"{ai:.3g}" if ai else "-",
                 k["limiter"] or "-", f"{k['fraction_of_roof']:.3f}", f"{speedup:.2f}" if speedup else "-",
                 str(k["samples"]), k["check"] or "-"]
        if args.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("  ".join(c.rjust(9) for c in cells))

    if ladder:
        fastest = min(ladder, key=lambda k: k["time_s"])
        speedup = base / fastest["time_s"]
        print(f"\nfastest: {fastest['id']}, {speedup:.2f}x faster than {ladder[0]['id']} (target >= 2.5), "
              f"{fastest['fraction_of_roof']:.3f} of its roof (target >= 0.5)")
        return 0 if speedup >= 2.5 and fastest["fraction_of_roof"] >= 0.5 else 1
    return 0


def analyze(program, ceilings, args):
    run = subprocess.run([program, "analyze", "--ceilings", ceilings, "--kernels", args.kernels,
                          "--size", args.size, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{program} analyze failed: " + run.stderr.strip())
    return {k["id"]: k for k in json.loads(run.stdout)["kernels"]}


def compare_programs(args):
    """The ladder of two programs on one ceilings file, alternating, as time ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        ceilings = args.ceilings
        if not ceilings:
            ceilings = os.path.join(tmp, "ceilings.h5")
            subprocess.run([args.rooftop, "measure", "--out", ceilings], check=True,
                           stdout=subprocess.DEVNULL)
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(analyze(args.rooftop, ceilings, args))
            theirs.append(analyze(args.baseline, ceilings, args))

    def median(xs):
        xs = sorted(xs)
        n = len(xs)
        return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])

    if args.markdown:
        print("| version | rooftop time (s) | baseline time (s) | ratio of medians | ratio of fastest "
              "| median round ratio | rooftop spread | baseline spread | checks |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    worst = 0.0
    for kid in ours[0]:
        pairs = [(a[kid]["time_s"], b[kid]["time_s"]) for a, b in zip(ours, theirs) if kid in b]
        if not pairs:
            continue
        a = [p[0] for p in pairs]
        b = [p[1] for p in pairs]
        checks = {r[kid]["check"] for r in ours} | {r[kid]["check"] for r in theirs if kid in r}
        ratio = median(a) / median(b)
        worst = max(worst, ratio)
        cells = [kid, f"{median(a):.4g}", f"{median(b):.4g}", f"{ratio:.3f}", f"{min(a) / min(b):.3f}",
                 f"{median([x / y for x, y in pairs]):.3f}", f"{max(a) / min(a) - 1:.1%}",
                 f"{max(b) / min(b) - 1:.1%}", ",".join(sorted(map(str, checks)))]
        print("| " + " | ".join(cells) + " |" if args.markdown else "  ".join(c.rjust(10) for c in cells))
    print(f"\n{args.rounds} alternating rounds, --size {args.size}; "
          f"slowest ratio of medians {worst:.3f} (rooftop / baseline time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
