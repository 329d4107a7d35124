#!/usr/bin/env python3
"""Clean host build time of revisions of this repository, side by side.

Each revision is checked out into its own scratch folder (git worktree), then configured
and built from nothing the way scripts/test.sh builds (Release, tests and MPI on, the
Kokkos that scripts/install-deps.sh provides, ninja when present, all cores), the
revisions alternating --rounds times so that a busy spell of a shared machine hits all.
It prints each revision's median wall time and its ratio to BASE (above 1: slower).

usage: scripts/bench-build-time.py BASE NEW [NEW...] [--rounds 2] [--markdown]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def kokkos_root():
    out = subprocess.run([os.path.join(ROOT, "scripts", "install-deps.sh")], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return out.strip().splitlines()[-1]


def clean_build(source, build, kokkos):
    shutil.rmtree(build, ignore_errors=True)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    start = time.monotonic()
    subprocess.run(["cmake", "-S", source, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                    f"-DKokkos_ROOT={kokkos}", "-DROOFTOP_BUILD_TESTS=ON", "-DROOFTOP_WITH_MPI=ON"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--parallel", str(os.cpu_count())], check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="git revision measured first in each round")
    ap.add_argument("new", nargs="+", help="git revisions compared with it")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    kokkos = kokkos_root()
    scratch = tempfile.mkdtemp(prefix="rooftop-build-time-")
    revisions = [args.base] + args.new
    trees = []
    try:
        for i, rev in enumerate(revisions):
            tree = os.path.join(scratch, f"tree{i}")
            subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", tree, rev], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            trees.append(tree)
        times = [[] for _ in revisions]
        for r in range(args.rounds):
            for i, tree in enumerate(trees):
                seconds = clean_build(tree, os.path.join(tree, "build"), kokkos)
                times[i].append(seconds)
                print(f"round {r + 1}: {revisions[i]} {seconds:.0f} s", file=sys.stderr, flush=True)
        base = statistics.median(times[0])
        if args.markdown:
            print("| revision | clean build, median of %d (s) | rounds (s) | ratio to %s |"
                  % (args.rounds, args.base))
            print("|---|---:|---|---:|")
        for rev, t in zip(revisions, times):
            median = statistics.median(t)
            rounds = ", ".join(f"{x:.0f}" for x in t)
            if args.markdown:
                print(f"| {rev} | {median:.0f} | {rounds} | {median / base:.3f} |")
            else:
                print(f"{rev}: median {median:.0f} s ({rounds}), ratio to {args.base} {median / base:.3f}")
    finally:
        for tree in trees:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
