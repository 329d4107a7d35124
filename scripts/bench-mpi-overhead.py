#!/usr/bin/env python3
"""What the MPI layer of `rooftop measure` costs: `mpirun -n N rooftop measure --quick`
against the same work run as N separate `rooftop measure --quick` processes started at
the same time (or without --quick: --full), with the same binding (rank i, or process i, on core i; threads sized to
the one core), for several rounds in alternating order. Prints each round's wall times,
the ratio of the medians, and the MPI layer's own account (MPI start, the one gather,
decode and write) from rank 0's output.

The gather time rank 0 reports includes waiting for the slowest rank to finish
measuring; "gather beyond the wait" subtracts that wait (slowest rank's measuring time
minus rank 0's, from the fleet file), which leaves the transfer itself, approximately.

usage: scripts/bench-mpi-overhead.py [--rooftop build/app/rooftop] [--mpirun mpirun]
                                     [--ranks 2] [--rounds 5] [--full] [--markdown]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def mpi_env():
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)
    if os.geteuid() == 0:  # Open MPI refuses root unless told
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def run_mpi(args, tmp):
    out = os.path.join(tmp, "fleet.h5")
    cmd = [args.mpirun, "-n", str(args.ranks), "--bind-to", "core", "--map-by", "core",
           args.rooftop, "measure", "--out", out] + args.size
    t0 = time.monotonic()
    run = subprocess.run(cmd, env=mpi_env(), capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    if run.returncode != 0:
        sys.exit("mpirun failed: " + run.stderr.strip())
    m = re.search(r"MPI: start ([\d.]+) s; one gather of ([\d.]+) KiB ([\d.]+) s .*; decode and write ([\d.]+) s",
                  run.stdout)
    if not m:
        sys.exit("no MPI timing line in rank 0's output:\n" + run.stdout)
    fleet = json.loads(subprocess.run([args.rooftop, "compare", out, "--json", "--threshold", "1"],
                                      capture_output=True, text=True).stdout)
    seconds = [r["seconds"] for r in fleet["ranks"]]
    gather = float(m.group(3))
    return {"wall": wall, "start": float(m.group(1)), "kib": float(m.group(2)), "gather": gather,
            "write": float(m.group(4)), "transfer": max(0.0, gather - (max(seconds) - seconds[0]))}


def run_separate(args, tmp):
    env = mpi_env()
    env["ROOFTOP_MPI"] = "0"
    t0 = time.monotonic()
    procs = [subprocess.Popen(["taskset", "-c", str(i), args.rooftop, "measure", "--out",
                               os.path.join(tmp, f"rank{i}.h5")] + args.size,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in range(args.ranks)]
    for p in procs:
        _, err = p.communicate(timeout=600)
        if p.returncode != 0:
            sys.exit("rooftop measure failed: " + err.strip())
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooftop", default=os.path.join(os.path.dirname(__file__), "..", "build", "app", "rooftop"))
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--full", action="store_true", help="full measurements instead of --quick")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    args.size = [] if args.full else ["--quick"]
    if args.ranks > (os.cpu_count() or 1):
        sys.exit(f"--ranks {args.ranks}: this machine has {os.cpu_count()} CPUs (one core per rank)")

    mpi, separate = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            # Alternate the order, so that a slow minute of a shared machine hits both.
            if r % 2 == 0:
                mpi.append(run_mpi(args, tmp))
                separate.append(run_separate(args, tmp))
            else:
                separate.append(run_separate(args, tmp))
                mpi.append(run_mpi(args, tmp))
            print(f"round {r + 1}: mpirun {mpi[-1]['wall']:.2f} s, separate {separate[-1]:.2f} s",
                  file=sys.stderr)

    med_mpi = statistics.median(m["wall"] for m in mpi)
    med_sep = statistics.median(separate)
    layer = {k: statistics.median(m[k] for m in mpi) for k in ("start", "kib", "gather", "transfer", "write")}
    what = "measure" if args.full else "measure --quick"
    if args.markdown:
        print(f"| round | mpirun -n {args.ranks} {what} (s) | {args.ranks} separate {what} (s) | ratio |")
        print("|---|---|---|---|")
        for i, (m, s) in enumerate(zip(mpi, separate)):
            print(f"| {i + 1} | {m['wall']:.2f} | {s:.2f} | {m['wall'] / s:.3f} |")
        print(f"| median | {med_mpi:.2f} | {med_sep:.2f} | {med_mpi / med_sep:.3f} |")
        print()
    else:
        for i, (m, s) in enumerate(zip(mpi, separate)):
            print(f"round {i + 1}: mpirun {m['wall']:.2f} s, separate {s:.2f} s, ratio {m['wall'] / s:.3f}")
    print(f"wall-time ratio (medians): {med_mpi / med_sep:.3f} ({med_mpi:.2f} s / {med_sep:.2f} s)")
    print(f"MPI layer (rank 0, medians): start {layer['start']:.3f} s; one gather of {layer['kib']:.1f} KiB "
          f"{layer['gather']:.3f} s, {layer['transfer']:.3f} s beyond waiting for the slowest rank; "
          f"decode and write {layer['write']:.3f} s")


if __name__ == "__main__":
    main()
