#!/usr/bin/env bash
# Reads the PTX of the device-ceiling kernels of a CUDA build and fails when the code is
# not what the ceilings need: an FMA in an unfused compute kernel (or none in a fused
# one), an l1/shared/l2/dram kernel without 16-byte loads and stores, an l1 or shared
# loop that computes an index per load (and, rem, mul, mad: its loads must sit at fixed
# offsets from one base), an l2 read that can hit in L1 (anything but ld.global.cg), a
# dram-256b read without its L1::no_allocate.L2::256B loads, or a shared kernel whose
# launch bounds (.maxntid, .minnctapersm) are not the ones its team shapes are sized for
# (kSharedBoundThreads, kSharedBoundBlocks in microbench/src/device/kernels.hpp).
# The access-pattern kernels (microbench/src/costs/access_kernels.hpp): strided and matrix reads
# must stay scalar 4-byte loads (no .v2/.v4: merged loads would hide the coalescing cost),
# the occupancy kernel must keep 16-byte loads and its launch bounds, and the divergence
# kernel must branch around its FMA loop (a select would run the FMAs on every lane).
# The PTX comes from compiling the kernel sources once more with the build's own command
# and nvcc's --keep (no cuobjdump needed).
#   scripts/check-ptx.sh [BUILD_DIR]     (default: build-cuda)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build-cuda}" && pwd)"  # absolute: the compile commands run elsewhere
[[ -f "$build/compile_commands.json" ]] ||
  { echo "check-ptx: no $build/compile_commands.json (configure the CUDA build first)" >&2; exit 1; }
# Kept in the build tree for a reader: BUILD_DIR/ptx-check/<unit>.ptx.
work="$build/ptx-check"
rm -rf "$work"
mkdir -p "$work"

units=(device/compute_fma device/compute_nofma device/bandwidth costs/access_costs)
# The build's command for each source, its object and intermediates in $work/$unit: all
# at once (one nvcc each, minutes one after another).
pids=()
for unit in "${units[@]}"; do
  python3 "$root/scripts/lib/compile_kept.py" --tool check-ptx "$build" \
          "microbench/src/$unit.cpp" "$work/$unit/unit.o" "$work/$unit" "$work/$unit.log" \
          > /dev/null &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done  # set -e: the first failed compile fails
for unit in "${units[@]}"; do
  ptx=("$work/$unit"/*.ptx)
  [[ -f "${ptx[0]}" ]] || { echo "check-ptx: no PTX kept for $unit" >&2; exit 1; }
  cat "${ptx[@]}" > "$work/$unit.ptx"
done

# One verdict per kernel entry: the kernels are recognized by their mangled names.
python3 - "$work" "$root/microbench/src/device/kernels.hpp" "$root/microbench/src/costs/access_kernels.hpp" <<'PY'
import re, sys
work, kernels_hpp, access_hpp = sys.argv[1:4]
def constant(name, path=kernels_hpp):
    m = re.search(r"\b" + name + r"\s*=\s*(\d+)\s*;", open(path).read())
    if not m:
        sys.exit(f"check-ptx: no {name} in {path}")
    return int(m.group(1))
bound_threads, bound_blocks = constant("kSharedBoundThreads"), constant("kSharedBoundBlocks")
occupancy_threads = constant("kOccupancyBoundThreads", access_hpp)
occupancy_blocks = constant("kOccupancyBoundBlocks", access_hpp)
stride_unroll = constant("kStrideUnroll", access_hpp)
fma_body = constant("kComputeChains") * constant("kComputeSteps")

def entries(unit):
    text = open(f"{work}/{unit}.ptx").read()
    # Template kernels are ".weak .entry", others ".visible .entry".
    parts = re.split(r"^[ \t]*(?:\.\w+[ \t]+)*\.entry[ \t]+", text, flags=re.M)[1:]
    return [(p.split("(", 1)[0].strip(), p) for p in parts]

failures, checked = [], 0
def need(name, body, what, pattern):
    global checked
    checked += 1
    if not re.search(pattern, body):
        failures.append(f"{what}: no {pattern} in {name[:120]}")

def forbid(name, body, what, pattern):
    global checked
    checked += 1
    if re.search(pattern, body):
        failures.append(f"{what}: {pattern} found in {name[:120]}")

found = {}
for unit, fused in (("device/compute_fma", True), ("device/compute_nofma", False)):
    for name, body in entries(unit):
        if "DeviceComputeKernel" in name:
            found[unit] = True
            if fused:
                need(name, body, "fused compute kernel", r"\bfma\.rn\.f(32|64)")
            else:
                forbid(name, body, "unfused compute kernel", r"\bfma\.")
                need(name, body, "unfused compute kernel", r"\bmul\.rn\.f(32|64)")
                need(name, body, "unfused compute kernel", r"\badd\.rn\.f(32|64)")
        if "FusionProbe" in name and not fused:
            forbid(name, body, "unfused fusion probe", r"\bfma\.")

def inner_loops(body):
    """The text of every innermost loop: from a label to the first branch back to it, with
    no label inside (Kokkos's loop over a thread's items holds the kernel's own loops)."""
    out = []
    for m in re.finditer(r"^(\$\w+):", body, flags=re.M):
        back = re.search(r"\bbra(\.uni)?\s+" + re.escape(m.group(1)) + r";", body[m.end():])
        if back and not re.search(r"^\$\w+:", body[m.end():m.end() + back.start()], flags=re.M):
            out.append(body[m.end():m.end() + back.start()])
    return out

def fixed_offsets(name, body, what, load, n):
    """An innermost loop with at least n of `load`, and no index arithmetic (and, rem, mul,
    mad) in any such loop: every address one base plus a constant."""
    global checked
    checked += 1
    hot = [l for l in inner_loops(body) if len(re.findall(load, l)) >= n]
    if not hot:
        failures.append(f"{what}: no loop with {n} of {load} in {name[:120]}")
    for l in hot:
        arithmetic = re.findall(r"\b(and|rem|mul|mad)\.\w+", l)
        if arithmetic:
            failures.append(f"{what}: index arithmetic ({', '.join(sorted(set(arithmetic)))}) "
                            f"in the load loop of {name[:120]}")

v4_load = r"\bld\.global(\.nc|\.cg)?(\.L1::no_allocate)?\.v4\.(u32|b32)"
l1_loads, shared_loads = constant("kL1Loads"), constant("kSharedLoads")
# Access in kernels.hpp: l2_only (ld.global.cg), readonly, prefetch_256.
access = {"0": "l2", "1": "readonly", "2": "prefetch"}
for name, body in entries("device/bandwidth"):
    if "DeviceL1Kernel" in name:
        found["l1"] = True
        fixed_offsets(name, body, "l1 kernel", r"\bld\.global\.nc\.v4\.(u32|b32)", l1_loads)
    elif "DeviceSharedKernel" in name:
        found["shared"] = True
        fixed_offsets(name, body, "shared kernel", r"\bld\.shared\.v4\.(u32|b32)", shared_loads)
        need(name, body, "shared kernel launch bounds", rf"\.maxntid\s+{bound_threads},\s*1,\s*1\b")
        need(name, body, "shared kernel launch bounds", rf"\.minnctapersm\s+{bound_blocks}\b")
    elif "DeviceStreamKernel" in name:
        m = re.search(r"PatternE([0-3])EL\w*?6AccessE([0-2])E", name)
        if not m:
            failures.append("stream kernel with an unrecognized name: " + name[:120])
            continue
        pattern, how = int(m.group(1)), access[m.group(2)]
        found[f"stream{pattern}{how}"] = True
        if pattern == 0 and how == "l2":
            # Only L2-cached loads: a load that may hit in L1 would make the rate L1's.
            need(name, body, "l2 read kernel", r"\bld\.global\.cg\.v4\.(u32|b32)")
            forbid(name, body, "l2 read kernel", r"\bld\.global(\.nc|\.ca)?(\.L1::\w+)?\.v4\.")
        elif pattern == 0 and how == "prefetch":
            need(name, body, "dram-256b read kernel",
                 r"\bld\.global\.nc\.L1::no_allocate\.L2::256B\.v4\.(u32|b32)")
        elif pattern == 0:
            need(name, body, "dram read kernel", r"\bld\.global\.nc\.v4\.(u32|b32)")
        elif pattern == 1:
            need(name, body, "dram write kernel", r"\bst\.global\.v4\.(u32|b32)")
        elif pattern == 2:
            need(name, body, "dram copy kernel", v4_load)
            need(name, body, "dram copy kernel", r"\bst\.global\.v4\.(u32|b32)")
        else:
            need(name, body, "dram triad kernel", r"\bld\.global(\.nc)?\.v2\.f64")
            need(name, body, "dram triad kernel", r"\bst\.global\.v2\.f64")

def at_least(name, body, what, pattern, n):
    global checked
    checked += 1
    found_n = len(re.findall(pattern, body))
    if found_n < n:
        failures.append(f"{what}: {found_n} of {pattern} (at least {n}) in {name[:120]}")

vector_load = r"\bld\.global(\.nc|\.cg)?(\.L1::\w+)?\.v[24]\."
for name, body in entries("costs/access_costs"):
    if re.search(r"\d+StrideKernelI", name):
        found["stride"] = True
        # One scalar L2-only load per word, a group of them in flight, the runtime stride
        # multiplied into every address.
        at_least(name, body, "strided read kernel", r"\bld\.global\.cg\.u32\b", stride_unroll)
        forbid(name, body, "strided read kernel", vector_load)
        need(name, body, "strided read kernel", r"\b(mul|mad)\.lo\.s64\b")
    elif re.search(r"\d+MatrixKernelI", name):
        m = re.search(r"MatrixKernelI.*?Lb([01])E", name)
        found["matrix" + (m.group(1) if m else "?")] = True
        at_least(name, body, "matrix read kernel", r"\bld\.global\.nc\.u32\b", stride_unroll)
        forbid(name, body, "matrix read kernel", vector_load)
    elif "OccupancyKernel" in name:
        found["occupancy"] = True
        need(name, body, "occupancy kernel", r"\bld\.global\.nc\.v4\.(u32|b32)")
        need(name, body, "occupancy kernel launch bounds",
             rf"\.maxntid\s+{occupancy_threads},\s*1,\s*1\b")
        need(name, body, "occupancy kernel launch bounds", rf"\.minnctapersm\s+{occupancy_blocks}\b")
    elif "DivergenceKernel" in name:
        found["divergence"] = True
        # A branch on a 32-bit comparison (the lane against `active`; Kokkos's own range
        # check compares 64-bit indices) before the first FMA, so that the inactive lanes
        # jump past the chains, and the whole unrolled body of FMAs behind it.
        first_fma = re.search(r"\bfma\.rn\.f32\b", body)
        branch = re.search(r"setp\.\w+\.[su]32\s+(%p\d+)[^;]*;\s*@!?\1\s+bra", body)
        checked += 1
        if not first_fma or not branch or branch.start() > first_fma.start():
            failures.append("divergence kernel: no predicated branch before its fma.rn.f32 in "
                            + name[:120])
        at_least(name, body, "divergence kernel", r"\bfma\.rn\.f32\b", fma_body)
        forbid(name, body, "divergence kernel", r"\bselp\.f32\b")

expected = {"device/compute_fma", "device/compute_nofma", "l1", "shared", "stream0l2",
            "stream0readonly", "stream0prefetch", "stream1readonly", "stream2readonly",
            "stream3readonly", "stride", "matrix0", "matrix1", "occupancy", "divergence"}
for missing in sorted(expected - set(found)):
    failures.append(f"no PTX entry found for {missing}")
for f in failures:
    print("check-ptx: " + f, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"check-ptx: {checked} checks passed on the device kernels' PTX")
PY
