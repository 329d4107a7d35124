#!/usr/bin/env python3
"""Does `rooftop measure` notice when the machine is not its own? Rounds, one run each:

  quiet     rooftop measure, nothing else started;
  busy      rooftop measure while a busy loop (a second process spinning on one CPU,
            pinned there) competes with one of its threads for the whole run;
  baseline  (with --baseline) another rooftop program, quiet: the tree before, for the
            time a quiet run takes.

For each run it prints the ceilings `show --json` calls disturbed and the largest share
of a ceiling's samples' time lost to others, then: in how many busy runs every ceiling
was flagged, in how many quiet runs anything was, and the median quiet time against the
baseline's. The kinds alternate inside every round, so a slow drift of the machine
touches them alike.

usage: scripts/bench-contention.py [--rooftop build/app/rooftop] [--baseline OTHER/rooftop]
                                   [--runs 5] [--quick] [--cpu 0]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass\n"


def measure(program, path, quick):
    """Runs one measure; returns (seconds, ceilings of `show --json`)."""
    cmd = [program, "measure", "--out", path] + (["--quick"] if quick else [])
    t0 = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.time() - t0
    shown = subprocess.run([program, "show", path, "--json"], check=True,
                           capture_output=True, text=True).stdout
    return seconds, json.loads(shown)["ceilings"]


def describe(ceilings):
    flagged = [c["name"] for c in ceilings if c.get("disturbed")]
    lost = [c["disturbance"] for c in ceilings if c.get("disturbance") is not None]
    return flagged, (max(lost) if lost else float("nan"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rooftop", default=os.path.join(here, "..", "build", "app", "rooftop"))
    ap.add_argument("--baseline", help="another rooftop program, timed quiet in every round")
    ap.add_argument("--runs", type=int, default=5, help="rounds (one run of each kind)")
    ap.add_argument("--quick", action="store_true", help="pass --quick to rooftop measure")
    ap.add_argument("--cpu", type=int, default=0, help="the CPU the busy loop spins on")
    args = ap.parse_args()
    if args.cpu not in os.sched_getaffinity(0):
        sys.exit(f"bench-contention: CPU {args.cpu} is not one this process may use")

    quiet_times, base_times, busy_all, quiet_any = [], [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "c.h5")
        for i in range(args.runs):
            seconds, ceilings = measure(args.rooftop, path, args.quick)
            flagged, lost = describe(ceilings)
            quiet_times.append(seconds)
            quiet_any += bool(flagged)
            print(f"round {i + 1} quiet: {seconds:6.1f} s, {len(flagged)}/{len(ceilings)} "
                  f"disturbed {flagged}, most lost {lost:.3f}", flush=True)

            spin = subprocess.Popen([sys.executable, "-c", SPIN, str(args.cpu)])
            try:
                time.sleep(0.5)  # the loop is running before the measurement starts
                seconds, ceilings = measure(args.rooftop, path, args.quick)
            finally:
                spin.kill()
                spin.wait()
            flagged, lost = describe(ceilings)
            busy_all += len(flagged) == len(ceilings)
            print(f"round {i + 1} busy:  {seconds:6.1f} s, {len(flagged)}/{len(ceilings)} "
                  f"disturbed, most lost {lost:.3f}", flush=True)

            if args.baseline:
                seconds, _ = measure(args.baseline, path, args.quick)
                base_times.append(seconds)
                print(f"round {i + 1} baseline quiet: {seconds:6.1f} s", flush=True)

    print(f"\nbusy runs with every ceiling disturbed: {busy_all} of {args.runs}")
    print(f"quiet runs with any ceiling disturbed: {quiet_any} of {args.runs}")
    line = f"quiet measure: median {statistics.median(quiet_times):.1f} s"
    if base_times:
        ratio = statistics.median(quiet_times) / statistics.median(base_times)
        line += (f", baseline median {statistics.median(base_times):.1f} s, "
                 f"ratio {ratio:.3f}")
    print(line)


if __name__ == "__main__":
    main()
