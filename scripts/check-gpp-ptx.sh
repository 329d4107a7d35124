#!/usr/bin/env bash
# Reads the PTX of the GPP ladder (kernels/src/gpp/gpp.cpp) in a CUDA build and fails
# when a version's code is not its step of the case study's ladder:
#   v1 ... v6   divide (div.rn.f64), v7 ... v9 do not and take one reciprocal instead;
#   v1 ... v7   take square roots (abs), v8 and v9 compare squared magnitudes (none);
#   v3 ... v8   are launched in thread blocks of 512 (.maxntid 512), v9 of 128.
#   v3 ... v9   keep each thread's partial sums in registers in the band loop: no
#               st.shared there (v1 and v2, Kokkos's range reductions, keep them in
#               shared memory; the line says so).
# It prints each version's registers and spills as ptxas reports them, since those are
# what v3 (at most 128 registers for 512 threads) and v4 (fewer live accumulators) trade,
# and where its partial sums live in the band loop: the innermost loop (a backward
# branch) that holds the term's division or reciprocal and the most FP64 instructions.
# The PTX comes from compiling gpp.cpp once more with the build's own command and nvcc's
# --keep, as check-ptx.sh does for the ceiling kernels.
#   scripts/check-gpp-ptx.sh [BUILD_DIR]     (default: build-cuda)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build-cuda}" && pwd)"
[[ -f "$build/compile_commands.json" ]] ||
  { echo "check-gpp-ptx: no $build/compile_commands.json (configure the CUDA build first)" >&2; exit 1; }
work="$build/ptx-check/gpp"
rm -rf "$work"
mkdir -p "$work"

python3 "$root/scripts/lib/compile_kept.py" --tool check-gpp-ptx "$build" \
        kernels/src/gpp/gpp.cpp "$work/gpp.o" "$work" "$work/compile.log" > /dev/null
ptx=("$work"/*.ptx)
[[ -f "${ptx[0]}" ]] || { echo "check-gpp-ptx: no PTX kept for gpp.cpp" >&2; exit 1; }

python3 - "$work/compile.log" "${ptx[@]}" <<'PY'
import re, sys
log, ptx_files = sys.argv[1], sys.argv[2:]
text = "".join(open(p).read() for p in ptx_files)
parts = re.split(r"^[ \t]*(?:\.\w+[ \t]+)*\.entry[ \t]+", text, flags=re.M)[1:]
entries = [(p.split("(", 1)[0].strip(), p) for p in parts]
tags = {1: "v1_collapse_all", 2: "v2_collapse_two", 3: "v3_thread_block",
        4: "v4_frequency_outside", 5: "v5_index_swap", 6: "v6_simplified_body",
        7: "v7_reciprocal", 8: "v8_squared_magnitudes", 9: "v9_cache_blocking"}
# ptxas -v: "Compiling entry function 'NAME' ..." then "Used N registers, ... spill ...".
usage, current = {}, None
for line in open(log):
    m = re.search(r"Compiling entry function '([^']+)'", line)
    if m:
        current = m.group(1)
    m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m and current:
        usage.setdefault(current, {})["spills"] = (int(m.group(1)), int(m.group(2)))
    m = re.search(r"Used (\d+) registers", line)
    if m and current:
        usage.setdefault(current, {})["registers"] = int(m.group(1))

failures, checked = [], 0
def check(ok, what):
    global checked
    checked += 1
    if not ok:
        failures.append(what)

def band_loop(body):
    """The lines of the hot loop: of the loops holding a division or reciprocal, the
    innermost ones (no such loop inside), the one with the most FP64 instructions."""
    lines = body.splitlines()
    labels = {m.group(1): i for i, l in enumerate(lines)
              for m in [re.match(r"^\s*(\$L__BB\w+):", l)] if m}
    loops = [(labels[m.group(1)], i) for i, l in enumerate(lines)
             for m in [re.search(r"\bbra(?:\.uni)?\s+(\$L__BB\w+);", l)]
             if m and m.group(1) in labels and labels[m.group(1)] < i]
    term = re.compile(r"\b(div|rcp)\.rn\.f64\b")
    hot = [(a, b) for a, b in loops if any(term.search(x) for x in lines[a:b + 1])]
    inner = [(a, b) for a, b in hot
             if not any((c, d) != (a, b) and a <= c and d <= b for c, d in hot)]
    if not inner:
        return []
    a, b = max(inner, key=lambda r: sum(".f64" in x for x in lines[r[0]:r[1] + 1]))
    return lines[a:b + 1]

for v, tag in tags.items():
    # The version's own kernel: the reduction over its functor (Kokkos also launches
    # helpers, e.g. its final-value copy, that carry the functor's name; the body is
    # the one with the most FP64 instructions).
    mine = [(n, b) for n, b in entries if tag in n]
    check(bool(mine), f"v{v}: no kernel entry named with {tag}")
    if not mine:
        continue
    name, body = max(mine, key=lambda e: len(re.findall(r"\.f64\b", e[1])))
    divides = bool(re.search(r"\bdiv\.rn\.f64\b", body))
    reciprocal = bool(re.search(r"\brcp\.rn\.f64\b", body))
    roots = bool(re.search(r"\bsqrt\.rn\.f64\b", body))
    threads = re.search(r"\.maxntid\s+(\d+)", body)
    if v <= 6:
        check(divides, f"v{v}: no div.rn.f64 (the complex division of its step)")
    else:
        check(not divides and reciprocal, f"v{v}: divides={divides}, reciprocal={reciprocal}")
    check(roots == (v <= 7), f"v{v}: square roots {'missing' if v <= 7 else 'left'}")
    if v >= 3:
        want = 128 if v == 9 else 512
        got = int(threads.group(1)) if threads else None
        check(got == want, f"v{v}: .maxntid {got}, want {want}")
    loop = band_loop(body)
    check(bool(loop), f"v{v}: no band loop found (a loop holding the term's division)")
    shared_stores = sum("st.shared" in x for x in loop)
    sums = "shared memory" if shared_stores else "registers"
    if v >= 3:
        check(not shared_stores, f"v{v}: {shared_stores} st.shared in the band loop (partial sums not in registers)")
    u = usage.get(name, {})
    spills = u.get("spills", ("?", "?"))
    print(f"v{v} {tag:24} registers {u.get('registers', '?'):>4}  spill stores {spills[0]:>4} B"
          f"  loads {spills[1]:>4} B  maxntid {threads.group(1) if threads else '-':>4}"
          f"  div {int(divides)} rcp {int(reciprocal)} sqrt {int(roots)}  partial sums in {sums}")
for f in failures:
    print("check-gpp-ptx: " + f, file=sys.stderr)
print(f"check-gpp-ptx: {checked} checks, {len(failures)} failed", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
