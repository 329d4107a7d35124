#!/usr/bin/env python3
"""The GPP optimization ladder on this machine: every version's time, GFLOP/s and
fraction of its roof by the measured ceilings, and its speedup over the first version.

It characterizes the machine first (`rooftop measure`, unless --ceilings names a file)
and then runs `rooftop analyze --kernels gpp --size SIZE --json` once; every version of
the ladder runs in that one process, side by side, so the speedups are ratios measured
in one run. It checks the two targets of the analyzer: the fastest version at least
2.5x faster than the collapse-all version, and at least half of its attainable roof.

With --from, it runs nothing and reads a result of rooftop's instead: the JSON that
`rooftop analyze --json` prints, or a kernels file analyze wrote (read through `rooftop
show --json`); the same table, the same targets. A file it cannot read is one line and
exit status 2.

With --beside-v100, the table gets each version's step gain over the one before, and the
V100's published figures beside it (the SC19 case study "Roofline Analysis on GPUs":
time, speedup over its v1, step gain); the GPU targets replace the host's, one line each:
every step from v3 on at least as fast as the one before within 5%, v1 -> v9 at least
2.9x, and v9 at 0.6 of its roof or more. A report: exit status 0 whether they are met or
not. run-gpu.sh runs it so on the GPU's analyze-cupti.h5 (its gpp-ladder.txt).

With --baseline, a second rooftop program (the same tree built another way, e.g. on an
older Kokkos) runs the same ladder on the same ceilings, the two alternating --rounds
times; each version gets its time ratio rooftop / baseline (below 1 is faster) three ways:
of the median times, of the fastest times (the least disturbed run of each on a shared
machine), and the median of the per-round ratios (each round runs both back to back,
so a neighbour's load that drifts over minutes cancels); and whether both programs'
answers passed their checks.

Python 3 standard library only: it runs on the GPU machine beside run-gpu.sh.

usage: scripts/bench-gpp-ladder.py [--rooftop build/app/rooftop] [--ceilings FILE.h5]
                                   [--size small] [--kernels gpp,...] [--markdown]
                                   [--from FILE.json|FILE.h5] [--beside-v100]
                                   [--baseline OTHER/rooftop [--rounds 3]]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# The GPP ladder on a V100 as published: Charlene Yang (NERSC), "Roofline Analysis on
# GPUs", the SC19 case study of GPP in OpenACC. Per version: time (s), TFLOPs counted,
# TFLOP/s.
V100 = {
    "v1": (1.63, 3.71, 2.27),
    "v2": (1.73, 3.71, 2.15),
    "v3": (1.40, 3.71, 2.65),
    "v4": (1.17, 3.52, 3.00),
    "v5": (1.16, 3.52, 3.03),
    "v6": (1.10, 3.30, 3.00),
    "v7": (0.66, 2.09, 3.18),
    "v8": (0.62, 1.99, 3.23),
    "v9": (0.57, 2.00, 3.50),
}

# The targets on a host (the fastest version against v1) and on a GPU (the case study's
# steps: from v3 on, each step's time at most this factor of the one before's).
HOST_SPEEDUP, HOST_ROOF = 2.5, 0.5
GPU_STEP_SLACK, GPU_SPEEDUP, GPU_ROOF = 1.05, 2.9, 0.6

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
# What the table reads of every kernel record.
KERNEL_FIELDS = ("id", "group", "time_s", "gflop_per_s", "ai", "limiter", "fraction_of_roof",
                 "samples", "check")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooftop", default=os.path.join(os.path.dirname(__file__), "..", "build", "app", "rooftop"))
    ap.add_argument("--ceilings", help="ceilings file of this machine (default: measure now)")
    ap.add_argument("--size", default="small")
    ap.add_argument("--kernels", default="gpp")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--from", dest="source", metavar="FILE",
                    help="read this result of rooftop's (analyze's JSON, or a kernels file) instead of running")
    ap.add_argument("--beside-v100", action="store_true",
                    help="the V100's published figures beside, and the GPU targets")
    ap.add_argument("--baseline", help="a second rooftop program run on the same ceilings")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds with --baseline")
    args = ap.parse_args()
    if args.baseline:
        if args.source or args.beside_v100:
            ap.error("--baseline runs two programs; --from and --beside-v100 are for one result")
        return compare_programs(args)
    if args.source:
        doc, roofs, origin = read_result(args.source, args.rooftop)
    else:
        doc, roofs, origin = run_ladder(args)
    return report(doc, roofs, origin, args)


def run_ladder(args):
    """`analyze --json` of the ladder on this machine: its document, the roofs of its
    ceilings ({name: value}) and where it came from."""
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
    return doc, roofs_of(shown["ceilings"]), f"analyze --size {args.size} took {seconds:.1f} s"


def read_result(path, rooftop):
    """A result of rooftop's read from a file: analyze's JSON, or a kernels file analyze
    wrote (HDF5) through `rooftop show --json`; as run_ladder's. What cannot be read ends
    the program with one line."""
    def unreadable(why):
        print(f"bench-gpp-ladder.py: cannot read {path}: {why}", file=sys.stderr)
        sys.exit(2)

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        unreadable(e.strerror or str(e))
    if data.startswith(HDF5_SIGNATURE):
        try:
            shown = subprocess.run([rooftop, "show", path, "--json"], capture_output=True, text=True,
                                   timeout=60)
        except OSError:
            unreadable(f"no rooftop program at {rooftop} to read it (--rooftop)")
        except subprocess.TimeoutExpired:
            unreadable("rooftop show took over 60 s")
        if shown.returncode != 0:
            said = shown.stderr.strip().splitlines()
            unreadable(said[-1] if said else f"rooftop show exited with {shown.returncode}")
        text = shown.stdout
    else:
        try:
            text = data.decode()
        except UnicodeDecodeError:
            unreadable("neither JSON nor an HDF5 file")
    try:
        doc = json.loads(text)
    except ValueError as e:
        unreadable(f"neither JSON nor an HDF5 file ({e})")
    kernels = doc.get("kernels") if isinstance(doc, dict) else None
    if not isinstance(kernels, list) or not kernels:
        unreadable("no kernels in it (a ceilings file, or not rooftop's?)")
    for k in kernels:
        lacks = [f for f in KERNEL_FIELDS if not isinstance(k, dict) or f not in k]
        if lacks:
            unreadable(f"a kernel record without {', '.join(lacks)}")
    machine = doc.get("machine")
    if isinstance(machine, dict):  # show's: the GPU's name first, as rooftop names a machine
        doc["machine"] = machine.get("gpu_name") or machine.get("cpu_model") or "unknown"
    # show's document holds the ceilings; analyze's names their file.
    ceilings = doc.get("ceilings")
    roofs = roofs_of(ceilings) if isinstance(ceilings, list) else {}
    origin = f"from {path}" + (f" (ceilings {ceilings})" if isinstance(ceilings, str) else "")
    return doc, roofs, origin


def roofs_of(ceilings):
    return {c["name"]: c["value"] for c in ceilings if "name" in c and "value" in c}


def ratio(a, b):
    return a / b if a and b else None


def version(kernel_id):
    """v7 -> 7; None for an id that is no version of the ladder."""
    return int(kernel_id[1:]) if kernel_id[:1] == "v" and kernel_id[1:].isdigit() else None


def cell(x, spec=".2f"):
    """x formatted, or "-" where there is none."""
    return "-" if x is None else format(x, spec)


def report(doc, roofs, origin, args):
    """The table of the ladder and the other kernels, then the targets: the host's, or
    with --beside-v100 the GPU's beside the V100's figures."""
    kernels = doc["kernels"]
    ladder = [k for k in kernels if k["group"] == "gpp"]
    by_version = {version(k["id"]): k for k in ladder if version(k["id"])}
    base = ladder[0]["time_s"] if ladder else None
    known = [f"fp64_fma {roofs['fp64_fma']:.1f} GFLOP/s" if "fp64_fma" in roofs else "",
             f"dram {roofs['dram']:.1f} GB/s" if "dram" in roofs else ""]
    known = ", ".join(k for k in known if k)
    print(f"machine: {doc.get('machine', 'unknown')}; {known + '; ' if known else ''}{origin}")

    # (header, right-aligned): the columns of every table, then the V100's.
    columns = [("version", False), ("time (s)", True), ("GFLOP/s", True), ("AI (DRAM)", True),
               ("limiter", False), ("fraction of roof", True), ("speedup over v1", True),
               ("samples", True), ("check", False)]
    if args.beside_v100:
        columns += [("step gain", True), ("V100 time (s)", True), ("V100 speedup", True),
                    ("V100 step gain", True)]
    rows = []
    for k in kernels:
        ai = k["ai"].get("dram")
        speedup = ratio(base, k["time_s"]) if k["group"] == "gpp" else None
        cells = [k["id"], cell(k["time_s"], ".3g"), cell(k["gflop_per_s"], ".1f"), cell(ai or None, ".3g"),
                 k["limiter"] or "-", cell(k["fraction_of_roof"], ".3f"), cell(speedup),
                 str(k["samples"]), k["check"] or "-"]
        if args.beside_v100:
            n = version(k["id"]) if k["group"] == "gpp" else None
            before = by_version.get(n - 1) if n else None
            theirs = V100.get(k["id"]) if n else None
            theirs_before = V100.get(f"v{n - 1}") if n else None
            cells += [cell(ratio(before["time_s"], k["time_s"]) if before else None),
                      cell(theirs[0] if theirs else None),
                      cell(ratio(V100["v1"][0], theirs[0]) if theirs else None),
                      cell(ratio(theirs_before[0], theirs[0]) if theirs and theirs_before else None)]
        rows.append(cells)
    print_table(columns, rows, args.markdown)
    if args.beside_v100:
        print("\nV100: Charlene Yang's SC19 case study \"Roofline Analysis on GPUs\" (NERSC; OpenACC), "
              "its own problem size: the speedups compare, the times do not")
        for line in gpu_verdicts(by_version):
            print(line)
        return 0

    if ladder:
        fastest = min(ladder, key=lambda k: k["time_s"])
        speedup = base / fastest["time_s"]
        print(f"\nfastest: {fastest['id']}, {speedup:.2f}x faster than {ladder[0]['id']} "
              f"(target >= {HOST_SPEEDUP}), {fastest['fraction_of_roof']:.3f} of its roof (target >= {HOST_ROOF})")
        return 0 if speedup >= HOST_SPEEDUP and fastest["fraction_of_roof"] >= HOST_ROOF else 1
    return 0


def print_table(columns, rows, markdown):
    if markdown:
        print("\n| " + " | ".join(h for h, _ in columns) + " |")
        print("|" + "|".join("---:" if right else "---" for _, right in columns) + "|")
        for cells in rows:
            print("| " + " | ".join(cells) + " |")
        return
    widths = [max(len(c) for c in column) for column in zip([h for h, _ in columns], *rows)]
    for cells in [[h for h, _ in columns]] + rows:
        print("  ".join(c.rjust(w) if right else c.ljust(w)
                        for c, w, (_, right) in zip(cells, widths, columns)).rstrip())


def gpu_verdicts(by_version):
    """The GPU targets on the ladder's versions ({n: kernel}), one line each."""
    def line(target, met, detail):
        state = "not judged" if met is None else "met" if met else "MISSED"
        return f"GPU target, {target}: {state}: {detail}"

    time_of = {n: k["time_s"] for n, k in by_version.items()}
    steps = range(3, 10)
    missing = [f"v{n}" for n in range(2, 10) if n not in time_of]
    if missing:
        a = line("every step from v3 on as fast as the one before within 5%", None,
                 f"no {', '.join(missing)} in this result")
    else:
        step = {n: ratio(time_of[n], time_of[n - 1]) for n in steps}
        slower = [f"v{n} takes {cell(step[n])}x v{n - 1}'s time" for n in steps
                  if step[n] is None or step[n] > GPU_STEP_SLACK]
        a = line("every step from v3 on as fast as the one before within 5%", not slower,
                 "; ".join(slower) if slower
                 else f"no step takes more than {max(step.values()):.2f}x the time of the one before")
    theirs = V100["v1"][0] / V100["v9"][0]
    if 1 in time_of and 9 in time_of:
        speedup = ratio(time_of[1], time_of[9])
        b = line(f"v1 -> v9 at least {GPU_SPEEDUP}x", speedup is not None and speedup >= GPU_SPEEDUP,
                 f"{cell(speedup)}x (the V100's {theirs:.2f}x)")
    else:
        b = line(f"v1 -> v9 at least {GPU_SPEEDUP}x", None, "no v1 and v9 in this result")
    if 9 in by_version:
        fraction = by_version[9]["fraction_of_roof"]
        c = line(f"v9 at {GPU_ROOF} of its roof or more", fraction is not None and fraction >= GPU_ROOF,
                 cell(fraction, ".3f"))
    else:
        c = line(f"v9 at {GPU_ROOF} of its roof or more", None, "no v9 in this result")
    return [a, b, c]


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
