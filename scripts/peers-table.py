#!/usr/bin/env python3
"""rooftop's GPU ceilings beside the best figure of each peer run on the same GPU.

    peers-table.py CEILINGS.json LOG_OR_FOLDER...

CEILINGS.json is the output of `rooftop show --json FILE` ('-' reads it from standard
input); each LOG is a peer's output as run-gpu.sh --peers writes it (peer-NAME.log), and a
folder stands for the peer-*.log files in it. Which peer wrote a log is read from the log
itself: mixbench-cuda, BabelStream, and gpu-benches' gpu-cache, gpu-l2-cache and
gpu-stream. One table, one row per comparison, each with the ratio rooftop/peer: FP64 and
FP32 FMA against mixbench's double and single precision peaks; L1 against gpu-cache; L2
against gpu-l2-cache's best, its rate at rooftop's L2 working set and at the L2's size;
DRAM against gpu-l2-cache's best of working sets of three L2s and more and its rate at
rooftop's DRAM working set, BabelStream's best kernel and gpu-stream's best. A peer
without a log or a figure keeps its rows, saying so.
Python 3 standard library only: it runs on the GPU machine beside run-gpu.sh.
"""

import argparse
import json
import math
import pathlib
import re
import sys

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# Working sets of at least this many L2s stand for DRAM in gpu-l2-cache's sweep: below it
# part of the data still hits in the L2 (on an H200 the rate levels off from about two).
DRAM_L2_MULTIPLE = 3

# BabelStream's rate units, in GB/s (decimal by default; --mibibytes and the like switch).
RATE_UNITS = {"MB/s": 1e-3, "GB/s": 1.0, "TB/s": 1e3,
              "MiB/s": MIB / 1e9, "GiB/s": GIB / 1e9, "TiB/s": 1024 * GIB / 1e9}

# A line written by build-gpu-peers.sh's wrapper when it stopped a long sweep.
BOUNDED = re.compile(r"\[bounded: stopped after (\d+) s\]")


class Figure:
    """One figure of a peer: its value (GB/s or GFLOP/s), where in its sweep, a note."""

    def __init__(self, value, at, note=""):
        self.value = value
        self.at = at
        self.note = note


def fmt_bytes(n):
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} B"


def fmt_value(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def complete_lines(text):
    """The lines of a log that end in a newline: a peer stopped in mid-row left the last
    one unfinished, and its numbers are not trusted."""
    lines = text.splitlines(keepends=True)
    cut = bool(lines) and not lines[-1].endswith("\n")
    return [line.rstrip("\n") for line in (lines[:-1] if cut else lines)], cut


def stop_note(text, cut):
    bounded = BOUNDED.search(text)
    if bounded:
        return f"sweep stopped after {bounded.group(1)} s"
    return "cut in mid-row" if cut else ""


# --- The peers' outputs ---------------------------------------------------------------

def parse_mixbench(text):
    """mixbench-cuda's CSV block: a row of groups (single, double, half precision,
    integer), a row of column names, one row per compute-iterations count. The best GFLOPS
    of each group, with the iterations and the FLOP/byte where it was reached."""
    lines, _ = complete_lines(text)
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("Experiment ID")),
                 None)
    if start is None or start + 1 >= len(lines):
        return {}
    groups = [(col, cell.strip()) for col, cell in enumerate(lines[start].split(","))
              if col > 0 and cell.strip()]
    names = [cell.strip() for cell in lines[start + 1].split(",")]
    best = {}
    for g, (first, group) in enumerate(groups):
        last = groups[g + 1][0] if g + 1 < len(groups) else len(names)
        cols = {names[c]: c for c in range(first, min(last, len(names)))}
        rate = cols.get("GFLOPS", cols.get("GIOPS"))
        intensity = cols.get("Flops/byte", cols.get("Iops/byte"))
        if rate is None:
            continue
        key = ("sp" if group.lower().startswith("single") else
               "dp" if group.lower().startswith("double") else
               "hp" if group.lower().startswith("half") else
               "int" if group.lower().startswith("integer") else group)
        for line in lines[start + 2:]:
            cells = [c.strip() for c in line.split(",")]
            if not cells[0].isdigit():
                continue
            try:
                value = float(cells[rate])
                flop_per_byte = float(cells[intensity]) if intensity is not None else None
            except (IndexError, ValueError):
                continue
            if key not in best or value > best[key].value:
                at = f"{cells[0]} iterations"
                if flop_per_byte is not None:
                    at += f", {flop_per_byte:g} FLOP/B"
                best[key] = Figure(value, at)
    return best


def parse_babelstream(text):
    """BabelStream's table: Function, the rate in the unit its header names, Min, Max,
    Average. The best kernel's rate in GB/s."""
    lines, _ = complete_lines(text)
    unit = None
    rates = {}
    for line in lines:
        cells = line.split()
        if len(cells) >= 2 and cells[0] == "Function":
            unit = RATE_UNITS.get(cells[1])
            continue
        if unit is None or len(cells) < 2:
            continue
        try:
            rates[cells[0]] = float(cells[1]) * unit
        except ValueError:
            continue
    if not rates:
        return {}
    name = max(rates, key=rates.get)
    return {"best": Figure(rates[name], name), "kernels": rates}


GPU_CACHE_ROW = re.compile(r"^\s*(\d+) kB\s+\d+ms\s+[\d.]+%\s+([\d.]+) GB/s")
GPU_L2_ROW = re.compile(r"^\s*(\d+) kB\s+(\d+) kB\s+\d+ms\s+[\d.]+%\s+([\d.]+) GB/s")


def parse_gpu_cache(text):
    """gpu-cache: one row per data set of each thread block ("kB" is KiB there), the
    effective bandwidth of the blocks re-reading it; the small ones live in L1."""
    lines, cut = complete_lines(text)
    rows = [(int(m.group(1)) * KIB, float(m.group(2)))
            for m in map(GPU_CACHE_ROW.match, lines) if m]
    if not rows:
        return {}
    size, value = max(rows, key=lambda r: r[1])
    return {"best": Figure(value, f"{fmt_bytes(size)} per thread block", stop_note(text, cut)),
            "rows": rows}


def parse_gpu_l2_cache(text):
    """gpu-l2-cache: one row per working set (the second size; "kB" is KiB), from L2-sized
    to DRAM-sized, the bandwidth of reading it over and over."""
    lines, cut = complete_lines(text)
    rows = [(int(m.group(2)) * KIB, float(m.group(3)))
            for m in map(GPU_L2_ROW.match, lines) if m]
    return {"rows": rows, "note": stop_note(text, cut)} if rows else {}


def parse_gpu_stream(text):
    """gpu-stream: a header naming the row's settings, then '|' and the kernels; one row per
    setting of block size and occupancy, 'GB/s:' and one rate per kernel. The best rate."""
    lines, cut = complete_lines(text)
    settings, kernels = [], []
    best = None
    rows = 0
    for line in lines:
        if "|" not in line:
            continue
        left, right = line.split("|", 1)
        if "GB/s:" not in right:
            settings, kernels = left.split(), right.split()
            continue
        # A lone '%' belongs to the number before it ("3 %").
        tokens = re.sub(r"\s+%", "%", left).split()
        try:
            values = [float(v) for v in right.split("GB/s:", 1)[1].split()]
        except ValueError:
            continue
        rows += 1
        for k, value in enumerate(values):
            if best is None or value > best[0]:
                best = (value, kernels[k] if k < len(kernels) else f"kernel {k + 1}", tokens)
    if best is None:
        return {}
    value, kernel, tokens = best
    if len(tokens) == len(settings):
        where = ", ".join(f"{name} {token}" for name, token in zip(settings, tokens))
    else:
        where = " ".join(tokens)
    note = stop_note(text, cut)
    note = f"{note}, {rows} rows" if note else ""
    return {"best": Figure(value, f"{kernel}; {where}", note)}


# Which peer wrote a log, from its content; the first that matches.
PEERS = (
    ("mixbench", lambda t: "Experiment ID" in t or t.startswith("mixbench"), parse_mixbench),
    ("babelstream", lambda t: "BabelStream" in t, parse_babelstream),
    ("gpu-l2-cache", lambda t: any(map(GPU_L2_ROW.match, t.splitlines())), parse_gpu_l2_cache),
    ("gpu-cache", lambda t: any(map(GPU_CACHE_ROW.match, t.splitlines())), parse_gpu_cache),
    ("gpu-stream", lambda t: "GB/s:" in t, parse_gpu_stream),
)


def read_logs(paths):
    """{peer: parsed figures} from the logs and folders given; unknown logs are named on
    standard error and left out."""
    files = []
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            files += sorted(path.glob("peer-*.log"))
        elif path.is_file():
            files.append(path)
        else:
            raise SystemExit(f"peers-table: {path}: no such file or folder")
    found = {}
    for path in files:
        text = path.read_text(errors="replace")
        peer = next((name for name, looks, _ in PEERS if looks(text)), None)
        if peer is None:
            print(f"peers-table: {path}: not the output of a known peer", file=sys.stderr)
            continue
        if peer in found:
            print(f"peers-table: {path}: a second {peer} log, left out", file=sys.stderr)
            continue
        parse = next(p for name, _, p in PEERS if name == peer)
        found[peer] = parse(text)
    return found


# --- rooftop's side -------------------------------------------------------------------

def read_ceilings(path):
    try:
        text = sys.stdin.read() if path == "-" else pathlib.Path(path).read_text()
        data = json.loads(text)
        ceilings = {c["name"]: c for c in data["ceilings"]}
    except OSError as e:
        raise SystemExit(f"peers-table: {path}: {e.strerror}")
    except (ValueError, KeyError, TypeError):
        raise SystemExit(f"peers-table: {path}: not the output of `rooftop show --json`")
    l2 = next((c.get("bytes") for c in data.get("machine", {}).get("caches", [])
               if c.get("level") == "l2"), None)
    return data, ceilings, l2


# --- The table ------------------------------------------------------------------------

def nearest(rows, size):
    """The row of rows (working set, rate) whose working set is nearest to size."""
    return min(rows, key=lambda r: abs(math.log(r[0] / size))) if rows and size else None


def build_rows(ceilings, l2_bytes, peers):
    """One row per comparison: (ceiling, rooftop's figure, peer, peer's figure, where,
    ratio rooftop/peer), the last four '' or a reason where the peer gave nothing."""
    table = []

    def add(name, peer, figure, missing):
        c = ceilings.get(name)
        mine = f"{fmt_value(c['value'])} {c['units']}" if c else "none"
        if c and c.get("kind") == "bandwidth" and c.get("working_set_bytes"):
            mine += f" at {fmt_bytes(c['working_set_bytes'])}"
        if figure is None:
            table.append((name, mine, peer, missing, "", ""))
            return
        units = c["units"] if c else ""
        ratio = f"{c['value'] / figure.value:.3f}" if c and figure.value > 0 else ""
        at = figure.at + (f" ({figure.note})" if figure.note else "")
        table.append((name, mine, peer, f"{fmt_value(figure.value)} {units}".strip(), at, ratio))

    def no_log(peer):
        return "no log" if peer not in peers else "no figure in its log"

    mix = peers.get("mixbench", {})
    add("fp64_fma", "mixbench-cuda DP", mix.get("dp"), no_log("mixbench"))
    add("fp32_fma", "mixbench-cuda SP", mix.get("sp"), no_log("mixbench"))
    add("l1", "gpu-cache", peers.get("gpu-cache", {}).get("best"), no_log("gpu-cache"))

    l2 = peers.get("gpu-l2-cache", {})
    rows, note = l2.get("rows", []), l2.get("note", "")
    missing = no_log("gpu-l2-cache")

    def l2_figure(row, what=""):
        """The figure of one row of gpu-l2-cache's sweep, its working set as where."""
        if row is None:
            return None
        return Figure(row[1], fmt_bytes(row[0]), "; ".join(n for n in (what, note) if n))

    def unknown(what):
        return missing if not rows else f"{what} unknown"

    add("l2", "gpu-l2-cache best", l2_figure(max(rows, key=lambda r: r[1]) if rows else None),
        missing)
    add("l2", "gpu-l2-cache at rooftop's set",
        l2_figure(nearest(rows, ceilings.get("l2", {}).get("working_set_bytes"))),
        unknown("rooftop's L2 working set"))
    fits = [r for r in rows if l2_bytes and r[0] <= l2_bytes]
    add("l2", "gpu-l2-cache at the L2 size",
        l2_figure(max(fits) if fits else None,
                  f"the largest set within the {fmt_bytes(l2_bytes or 0)} L2"),
        unknown("the L2's size"))
    big = [r for r in rows if l2_bytes and r[0] >= DRAM_L2_MULTIPLE * l2_bytes]
    add("dram", f"gpu-l2-cache >= {DRAM_L2_MULTIPLE} L2s",
        l2_figure(max(big, key=lambda r: r[1]) if big else None,
                  f"best of the sets of {fmt_bytes(DRAM_L2_MULTIPLE * (l2_bytes or 0))} and more"),
        missing if not rows else "no set that large, or the L2's size unknown")
    add("dram", "gpu-l2-cache at rooftop's set",
        l2_figure(nearest(rows, ceilings.get("dram", {}).get("working_set_bytes"))),
        unknown("rooftop's DRAM working set"))
    add("dram", "BabelStream best kernel", peers.get("babelstream", {}).get("best"),
        no_log("babelstream"))
    add("dram", "gpu-stream best", peers.get("gpu-stream", {}).get("best"), no_log("gpu-stream"))
    return table


def render(data, table):
    machine = data.get("machine", {})
    title = (f"rooftop beside its peers on {machine.get('gpu_name') or 'this GPU'}"
             f" (rooftop's ceilings of {data.get('created_utc', 'unknown time')})")
    header = ("ceiling", "rooftop", "peer", "peer's figure", "at", "rooftop/peer")
    # A ceiling's name and figure only on its first row.
    table = [("", "", *row[2:]) if k and row[0] == table[k - 1][0] else row
             for k, row in enumerate(table)]
    widths = [max(len(row[i]) for row in (header, *table)) for i in range(len(header))]
    out = [title, ""]
    for row in (header, tuple("-" * w for w in widths), *table):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="rooftop's GPU ceilings beside its peers' best figures, with the ratio.")
    parser.add_argument("ceilings", help="`rooftop show --json FILE` output ('-': standard input)")
    parser.add_argument("logs", nargs="+", help="the peers' logs, or folders of them")
    args = parser.parse_args(argv)
    data, ceilings, l2_bytes = read_ceilings(args.ceilings)
    sys.stdout.write(render(data, build_rows(ceilings, l2_bytes, read_logs(args.logs))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
