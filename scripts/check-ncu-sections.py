#!/usr/bin/env python3
"""The roofs Nsight Compute evaluated from rooftop's section files, against the ceilings.

`rooftop export CEILINGS --format ncu-sections` writes each measured ceiling into its
sections as a derived metric, rooftop__NAME_{flop,op,byte}_per_second; a kernel profiled
with those sections has them in ncu's raw page. This reads that page (ncu --csv --page raw
--print-units base, or its --log-file) and the ceilings (through `rooftop export --format
json`), and says, for each roof, whether ncu's value equals the ceiling within 0.1%.
Exits 0 when every roof ncu evaluated matches and at least one was found, 1 otherwise.

    check-ncu-sections.py RAW.csv CEILINGS.h5 [--rooftop PATH]
"""

import argparse
import csv
import json
import re
import subprocess
import sys

# rooftop__fp64_fma_flop_per_second, rooftop__tc_int8_op_per_second, rooftop__dram_byte_per_second
ROOF = re.compile(r"^rooftop__(?P<name>[a-z0-9_]+?)_(flop|op|byte)_per_second$")
TOLERANCE = 1e-3


def ceilings_of(rooftop, path):
    """{name: value in base units (FLOP/s, OP/s, byte/s)} of the file's ceilings and figures."""
    done = subprocess.run([rooftop, "export", path, "--format", "json"], capture_output=True,
                          text=True, timeout=60)
    if done.returncode != 0:
        sys.exit(f"check-ncu-sections: {done.stderr.strip() or 'rooftop export failed'}")
    return {row["name"]: row["value"] * 1e9 for row in json.loads(done.stdout)["rows"]
            if row["units"] in ("GFLOP/s", "GOP/s", "GB/s") and row["value"] is not None}


def raw_rows(path):
    """The kernel rows of ncu's raw page: the header row, then (after a units row) one per
    launch, whose first field is the launch's number; ncu's own lines (==PROF==) skipped."""
    with open(path, newline="", errors="replace") as f:
        lines = [line for line in f if line.startswith('"')]
    rows = list(csv.DictReader(lines))
    return [r for r in rows if (r.get("ID") or "").strip().isdigit()]


def number(text):
    return float(text.replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("raw")
    parser.add_argument("ceilings")
    parser.add_argument("--rooftop", default="rooftop")
    args = parser.parse_args()
    try:
        rows = raw_rows(args.raw)
    except OSError as e:
        sys.exit(f"check-ncu-sections: {args.raw}: {e.strerror}")
    ceilings = ceilings_of(args.rooftop, args.ceilings)
    if not rows:
        print(f"no profiled launch in {args.raw}: no roof to check")
        return 1
    row = rows[0]
    checked, wrong = [], []
    for column, text in row.items():
        m = ROOF.match(column or "")
        if not m or not text or m.group("name") not in ceilings:
            continue
        measured, evaluated = ceilings[m.group("name")], number(text)
        ratio = evaluated / measured if measured else float("inf")
        checked.append(m.group("name"))
        if abs(ratio - 1) > TOLERANCE:
            wrong.append(f"{m.group('name')}: ncu {evaluated:.6g}, measured {measured:.6g} (x{ratio:.6f})")
    if not checked:
        print(f"ncu's raw page names no rooftop__ roof ({args.raw}): were the sections collected?")
        return 1
    for line in wrong:
        print("DIFFERS: " + line)
    share = f"all {len(checked)}" if not wrong else f"{len(checked) - len(wrong)} of {len(checked)}"
    print(f"{share} of the roofs ncu evaluated equal the measured ceilings within {TOLERANCE:.1%} "
          f"({', '.join(checked)})")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
