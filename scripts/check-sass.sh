#!/usr/bin/env bash
# Checks the machine code of the tensor-core kernels (microbench/src/matrix/tensor.cpp)
# of a CUDA build: compiles that source once more with the build's own command plus
# --keep and ptxas's report (-Xptxas=-v), then fails when
#   - a TensorKernel<Space, Unit, accumulators> lacks its unit's mma.sync in the PTX (units
#     newer than the build's GPU arch excepted: FP64 m16n8k16 needs sm_90, FP8 sm_89, the
#     others sm_80), or one of the 9 units x {1, 2, 4, 8} accumulators has no kernel; or
#     a unit the build leaves out (those, and FP8 for sm_90, whose FP8 mma.sync is
#     emulated) has an mma in its kernels;
#   - ptxas reports spill stores or loads for any of them;
#   - with the SASS (below): a kernel's hot loop (its longest innermost) holds fewer of
#     its tensor-core instruction (DMMA for FP64's two, HMMA for TF32, BF16 and FP16, IMMA
#     for INT8, HMMA or QMMA for FP8) than the kTensorSteps x accumulators mma a pass
#     issues in the source (products computed once leave the loop timing others), or
#     it holds local loads or stores (LDL, STL), or the object holds no device code.
# In a build for sm_90 it then compiles microbench/src/matrix/wgmma.cpp the same way, with
# the sm_90a code its build adds (NVCC_APPEND_FLAGS on the rooftop_wgmma rule), and fails
# when
#   - the build's rule lacks that flag, or a wgmma_kernel<Unit, N> (7 units x N = 128, 256)
#     lacks its wgmma.mma_async.sync.aligned.m64nNk... in the sm_90a PTX, or the generic
#     sm_90 PTX holds any wgmma;
#   - ptxas reports spills in one, or wgmma instructions serialized ("Potential
#     Performance Loss");
#   - with the SASS: the sm_90a code of one lacks its GMMA instruction (HGMMA, IGMMA for
#     INT8, HGMMA or QGMMA for FP8) or holds local loads or stores.
# The compute kernels too (microbench/src/device/compute_fma.cpp, compute_nofma.cpp),
# failing when ptxas reports spills in one, or, with the SASS, when a hot loop is not
# its kComputeChains x kComputeSteps DFMA/FFMA (fused) or DMUL and DADD / FMUL and FADD
# each (unfused, no FMA) with at most 8 loop instructions.
# Then the bandwidth kernels (microbench/src/device/bandwidth.cpp), failing when ptxas
# reports spills in one, or, with the SASS, when the l2 read's loads are not L2-only
# (LDG.E.128.STRONG.GPU, what ld.global.cg becomes; none through the read-only path,
# .CONSTANT), the dram-256b read lacks its 256-byte L2 fetches (LTC256B), or the l1 and
# shared loops' loads are not at fixed offsets from one base register ([R+0x...]).
# The SASS comes from cuobjdump, else from nvdisasm on the cubins nvcc kept: the toolkit's,
# or BUILD_DIR/tools/nvdisasm (scripts/fetch-nvdisasm.sh); with neither, those checks are
# skipped with a note. An instruction the disassembler does not know (CUDA 11.8's nvdisasm
# knows no QGMMA) is reported as not checked, not as missing.
#   scripts/check-sass.sh [BUILD_DIR]     (default: build-cuda)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build-cuda}" && pwd)"  # absolute: the compile command runs elsewhere
[[ -f "$build/compile_commands.json" ]] ||
  { echo "check-sass: no $build/compile_commands.json (configure the CUDA build first)" >&2; exit 1; }
command -v cuobjdump >/dev/null || [[ ! -x /usr/local/cuda/bin/cuobjdump ]] ||
  export PATH="/usr/local/cuda/bin:$PATH"
# Kept in the build tree for a reader: BUILD_DIR/sass-check/.
work="$build/sass-check"
rm -rf "$work"
mkdir -p "$work/keep"

# Compile microbench/src/FAMILY/NAME.cpp with the build's own command: DIR/NAME.o, the
# PTX and cubins in DIR/keep, ptxas's report in DIR/compile.log, the GPU arch in DIR/arch.
compile_kept() {  # FAMILY/NAME DIR
  python3 "$root/scripts/lib/compile_kept.py" --tool check-sass "$build" \
          "microbench/src/$1.cpp" "$2/${1##*/}.o" "$2/keep" "$2/compile.log" > "$2/arch"
}
# The flag the build gives nvcc for wgmma.cpp (its rule's launcher, not in the database):
# sm_90a code, in a build for sm_90 only.
append="$(grep -o 'NVCC_APPEND_FLAGS=[^ ]*' "$build/CMakeFiles/rules.ninja" 2>/dev/null | head -1 || true)"
# wgmma.cpp, the longest compile, starts now beside the others; its check below waits for
# it and finds it kept (compile_kept.py).
wgmma_early=""
if [[ "$append" == *sm_90a* ]]; then
  mkdir -p "$work/wgmma-early/keep"
  env "$append" python3 "$root/scripts/lib/compile_kept.py" --tool check-sass "$build" \
      microbench/src/matrix/wgmma.cpp "$work/wgmma-early/wgmma.o" "$work/wgmma-early/keep" \
      "$work/wgmma-early/compile.log" > /dev/null 2>&1 &
  wgmma_early=$!
fi
# disassemble NAME DIR: DIR/NAME.sass from DIR/NAME.o, or from the cubins nvcc kept in
# DIR/keep (scripts/lib/disassemble.py: cuobjdump, else nvdisasm, the toolkit's or
# BUILD_DIR/tools/nvdisasm of scripts/fetch-nvdisasm.sh). Sets have_sass to 1 when the
# SASS is written, 0 when no disassembler could read it; fails when one found no code.
disassemble() {  # NAME DIR
  local said rc=0
  said="$(python3 "$root/scripts/lib/disassemble.py" "$2/$1.sass" "$2/$1.o" "$2"/keep/*.cubin \
            --nvdisasm "$build/tools/nvdisasm")" || rc=$?
  case $rc in
    0) have_sass=1; echo "check-sass: $1: SASS by $said" ;;
    3) have_sass=0; echo "check-sass: $1: $said: the SASS is not read (PTX and ptxas's report are)" ;;
    *) echo "check-sass: $1: $said" >&2; exit 1 ;;
  esac
}
compile_kept matrix/tensor "$work"
cat "$work"/keep/*.ptx > "$work/tensor.ptx"
disassemble tensor "$work"

python3 - "$work" "$have_sass" "$root/scripts/lib" "$root/microbench/src/matrix/tensor.cpp" <<'PY'
import re, sys
work, have_sass = sys.argv[1], sys.argv[2] == "1"
sys.path.insert(0, sys.argv[3])
from sass_common import constant, finish, has_local, hot_loop, kernels_in, sass_functions, spill_check
arch = int(open(f"{work}/arch").read()) * 10  # as __CUDA_ARCH__: 90 -> 900
# Each unit by its mangled name (length-prefixed), its PTX instruction and its SASS one.
units = {
    "6MmaF64E": (r"mma\.sync\.aligned\.m8n8k4\.row\.col\.f64\.f64\.f64\.f64", r"\bDMMA\b"),
    "9MmaF64K16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f64\.f64\.f64\.f64", r"\bDMMA\b"),
    "7MmaTf32E": (r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32", r"\bHMMA\b"),
    "7MmaBf16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32", r"\bHMMA\b"),
    "6MmaF16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", r"\bHMMA\b"),
    "11MmaF16Acc16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f16\.f16\.f16\.f16", r"\bHMMA\b"),
    "7MmaE4m3E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e4m3\.e4m3\.f32", r"\b[HQ]MMA\b"),
    "7MmaE5m2E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e5m2\.e5m2\.f32", r"\b[HQ]MMA\b"),
    "5MmaS8E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.s32\.s8\.s8\.s32", r"\bIMMA\b"),
}
# Built for an older GPU than a unit's first (FP64 m16n8k16: 9.0, FP8: 8.9, the others:
# 8.0), its kernels hold no mma and report the unit absent; so do FP8's for Hopper (9.x),
# whose FP8 mma.sync ptxas emulates (tensor_mma_unfit): their PTX must hold no mma.
first_arch = {u: 900 if "K16" in u else 890 if "MmaE" in u else 800 for u in units}
def built(unit):
    return arch >= first_arch[unit] and not ("MmaE" in unit and 900 <= arch < 1000)
absent = {u: v for u, v in units.items() if not built(u)}
units = {u: v for u, v in units.items() if built(u)}
print(f"check-sass: sm_{arch // 10}: {len(units)} of {len(units) + len(absent)} tensor units built")
failures, checked = [], 0

def kernel_in(name, among):
    """(unit, accumulators) of a TensorKernel function name whose unit is in `among`."""
    if "TensorKernel" not in name:
        return None
    for unit in among:
        i = name.find(unit)
        if i >= 0:
            m = re.match(r"Li(\d+)E", name[i + len(unit):])
            return (unit, int(m.group(1))) if m else None
    return None

def kernel_of(name):
    return kernel_in(name, units)

def check(found, label, blocks, instruction_of, extra=None):
    global checked
    for key, body in kernels_in(blocks, kernel_of, found):
        checked += 1
        if not re.search(instruction_of(key[0]), body):
            failures.append(f"{label}: no {instruction_of(key[0])} in {key[0]} x{key[1]}")
        if extra:
            checked += 1
            extra(key, body)
    for unit in units:
        for acc in (1, 2, 4, 8):
            if (unit, acc) not in found:
                failures.append(f"{label}: no kernel for {unit} with {acc} accumulators")

# PTX: one block per .entry.
ptx = open(f"{work}/tensor.ptx").read()
parts = re.split(r"^[ \t]*(?:\.\w+[ \t]+)*\.entry[ \t]+", ptx, flags=re.M)[1:]
entries = [(p.split("(", 1)[0].strip(), p) for p in parts]
check(set(), "PTX", entries, lambda u: units[u][0])
for name, body in entries:
    key = kernel_in(name, absent)
    if key:
        checked += 1
        if re.search(r"\bmma\.sync\b", body):
            failures.append(f"PTX: an mma.sync in {key[0]} x{key[1]}, a unit this build leaves out")

# ptxas -v: "Compiling entry function 'NAME'" ... "N bytes spill stores, M bytes spill loads".
log = open(f"{work}/compile.log").read()
spill_found, spilled, reports = spill_check(log, kernel_of, lambda k: f"{k[0]} x{k[1]}")
failures += spilled
checked += reports
if units and not spill_found:
    failures.append("ptxas: no report for the tensor kernels (-Xptxas=-v)")

if have_sass:
    blocks = sass_functions(open(f"{work}/tensor.sass").read())
    if not blocks:
        failures.append("SASS: no device code in tensor.cpp's object")
    # Every mma of a step in the hot loop, not only somewhere: the source issues
    # kTensorSteps x accumulators per pass, and an mma a compiler computes once and
    # reuses leaves the loop timing other instructions (Hopper's emulated FP8 mma.sync
    # kept 6 HMMAs and 512 FADDs per pass of 128). No local memory either.
    steps = constant(sys.argv[4], "kTensorSteps")
    def in_loop_no_local(key, body):
        want = units[key[0]][1]
        per_pass = len(re.findall(want, hot_loop(body)))
        if re.search(want, body) and per_pass < steps * key[1]:
            name = want.replace("\\b", "")
            failures.append(f"SASS: {per_pass} {name} in the hot loop of {key[0]} x{key[1]}, "
                            f"below its {steps * key[1]} mma per pass")
        if has_local(body):
            failures.append(f"SASS: local loads or stores (a spill) in {key[0]} x{key[1]}")
    check(set(), "SASS", blocks, lambda u: units[u][1], in_loop_no_local)
    for name, body in blocks:
        key = kernel_in(name, absent)
        if key and re.search(r"\b[HDIQ]MMA\b", body):
            failures.append(f"SASS: a tensor instruction in {key[0]} x{key[1]}, a unit this "
                            "build leaves out")

finish(failures, checked, "the tensor kernels", have_sass)
PY

# ---------------------------------------------------------------------------------------
# The bandwidth kernels: spills, and with the SASS the access path of l2, dram-256b, l1, shared.
bw="$work/bandwidth"
mkdir -p "$bw/keep"
compile_kept device/bandwidth "$bw"
disassemble bandwidth "$bw"
python3 - "$bw" "$have_sass" "$root/scripts/lib" "$root/microbench/src/device/kernels.hpp" <<'PY'
import re, sys
work, have_sass = sys.argv[1], sys.argv[2] == "1"
sys.path.insert(0, sys.argv[3])
from sass_common import constant, finish, has_local, kernels_in, sass_functions, spill_check
l1_loads, shared_loads = (constant(sys.argv[4], n) for n in ("kL1Loads", "kSharedLoads"))
failures, checked = [], 0
def kernel_of(name):
    """l1, shared, or stream<pattern><access> (Access: 0 l2_only, 1 readonly, 2 prefetch_256)
    of a bandwidth kernel's mangled name; None for any other."""
    if "DeviceL1Kernel" in name:
        return "l1"
    if "DeviceSharedKernel" in name:
        return "shared"
    m = re.search(r"DeviceStreamKernel.*?PatternE([0-3])EL\w*?6AccessE([0-2])E", name)
    return f"stream{m.group(1)}{m.group(2)}" if m else None
log = open(f"{work}/compile.log").read()
reported, spilled, reports = spill_check(log, kernel_of, lambda k: f"the {k} kernel")
failures += spilled
checked += reports
for key in ("l1", "shared", "stream00", "stream01", "stream02"):
    if key not in reported:
        failures.append(f"ptxas: no report for the {key} kernel")
if have_sass:
    seen = set()
    for key, body in kernels_in(sass_functions(open(f"{work}/bandwidth.sass").read()),
                                kernel_of, seen):
        loads = re.findall(r"\bLDG\.[\w.]+[^;]*", body)
        if key == "stream00":  # l2 read
            checked += 2
            if not any(re.match(r"LDG\.E\.128\.STRONG\.GPU\b", l) for l in loads):
                failures.append("SASS: no LDG.E.128.STRONG.GPU (ld.global.cg) in the l2 read kernel")
            if any(".CONSTANT" in l for l in loads):
                failures.append("SASS: a read-only-path load (.CONSTANT) in the l2 read kernel")
        elif key == "stream02":  # dram-256b read
            checked += 1
            if not any("LTC256B" in l.split()[0] for l in loads):
                failures.append("SASS: no LDG with LTC256B in the dram-256b read kernel")
        elif key in ("l1", "shared"):
            # Each load one base register plus a constant: LDG.E.128 (l1), LDS.128 (shared).
            checked += 1
            op, want = ("LDG", l1_loads) if key == "l1" else ("LDS", shared_loads)
            offsets = {m for l in re.findall(rf"\b{op}\.[\w.]+[^;]*", body)
                       if ".128" in l.split()[0]
                       for m in re.findall(r"\[R\d+(?:\.64)?\+(0x[0-9a-f]+)\]", l)}
            if len(offsets) < want - 1:
                failures.append(f"SASS: {len(offsets)} distinct fixed offsets in the {key} kernel's "
                                f"16-byte loads (at least {want - 1})")
        checked += 1
        if has_local(body):
            failures.append(f"SASS: local loads or stores (a spill) in the {key} kernel")
    for key in ("l1", "shared", "stream00", "stream02"):
        if key not in seen:
            failures.append(f"SASS: no {key} kernel in bandwidth.cpp's object")
finish(failures, checked, "the bandwidth kernels", have_sass)
PY

# ---------------------------------------------------------------------------------------
# The compute kernels (fp64/fp32, fma and nofma): with the SASS, the hot loop of each is
# its kComputeChains x kComputeSteps operations and a few loop instructions: DFMA or FFMA
# alone where fused, DMUL and DADD (FMUL and FADD) and no FMA where not.
for unit in compute_fma compute_nofma; do
  mkdir -p "$work/$unit/keep"
  compile_kept "device/$unit" "$work/$unit"
  disassemble "$unit" "$work/$unit"
  python3 - "$work/$unit" "$have_sass" "$root/scripts/lib" "$root/microbench/src/device/kernels.hpp" "$unit" <<'PY'
import re, sys
work, have_sass, unit = sys.argv[1], sys.argv[2] == "1", sys.argv[5]
sys.path.insert(0, sys.argv[3])
from sass_common import constant, finish, has_local, hot_loop, kernels_in, sass_functions, spill_check
ops = constant(sys.argv[4], "kComputeChains") * constant(sys.argv[4], "kComputeSteps")
failures, checked = [], 0
def kernel_of(name):
    """(fp64 or fp32, fma or nofma) of a DeviceComputeKernel<Space, T, kFma>, or None."""
    m = re.search(r"DeviceComputeKernelINS_4CudaE([fd])Lb([01])E", name)
    return (("fp64" if m.group(1) == "d" else "fp32"), ("fma" if m.group(2) == "1" else "nofma")) if m else None
log = open(f"{work}/compile.log").read()
reported, spilled, reports = spill_check(log, kernel_of, lambda k: f"the {k[0]} {k[1]} kernel")
failures += spilled
checked += reports
want_kind = "fma" if unit == "compute_fma" else "nofma"
for precision in ("fp64", "fp32"):
    if (precision, want_kind) not in reported:
        failures.append(f"ptxas: no report for the {precision} {want_kind} kernel")
if have_sass:
    seen = set()
    for key, body in kernels_in(sass_functions(open(f"{work}/{unit}.sass").read()), kernel_of, seen):
        checked += 1
        p = "D" if key[0] == "fp64" else "F"
        hot = [l.split()[1] if l.startswith("@") else l.split()[0]
               for l in hot_loop(body).splitlines() if l.strip()]
        count = {op: sum(1 for i in hot if i.split(".")[0] == p + op) for op in ("FMA", "MUL", "ADD")}
        others = len(hot) - sum(count.values())
        if key[1] == "fma":
            good = count["FMA"] == ops and count["MUL"] == count["ADD"] == 0
        else:
            good = count["FMA"] == 0 and count["MUL"] == count["ADD"] == ops
        if not good or others > 8:
            failures.append(f"SASS: the {key[0]} {key[1]} kernel's hot loop holds {count} and "
                            f"{others} other instructions (want {ops} operations a pass, at most "
                            "8 others)")
        if has_local(body):
            failures.append(f"SASS: local loads or stores (a spill) in the {key[0]} {key[1]} kernel")
    for precision in ("fp64", "fp32"):
        if (precision, want_kind) not in seen:
            failures.append(f"SASS: no {precision} {want_kind} kernel in {unit}.cpp's object")
finish(failures, checked, f"the {want_kind} compute kernels", have_sass)
PY
done

# ---------------------------------------------------------------------------------------
# The wgmma kernels (sm_90a), in a build for sm_90 only.
[[ "$(cat "$work/arch")" == 90 ]] || exit 0
wg="$work/wgmma"
mkdir -p "$wg/keep"
[[ "$append" == *sm_90a* ]] ||
  { echo "check-sass: the build does not compile wgmma.cpp for sm_90a (no NVCC_APPEND_FLAGS in its rule)" >&2; exit 1; }
export "${append?}"  # nvcc reads it
# A failed early compile is failed again here, with its output.
[[ -z "$wgmma_early" ]] || wait "$wgmma_early" || true
compile_kept matrix/wgmma "$wg"
disassemble wgmma "$wg"
python3 - "$wg" "$have_sass" "$root/scripts/lib" <<'PY'
import glob, re, sys
work, have_sass = sys.argv[1], sys.argv[2] == "1"
sys.path.insert(0, sys.argv[3])
from sass_common import finish, has_local, kernels_in, sass_functions, spill_check, undecoded
# Unit (mangled, length-prefixed) -> k and types of its instruction, and its SASS one.
units = {
    "8WgmmaF16E": (16, "f32.f16.f16", r"\bHGMMA\b"),
    "13WgmmaF16Acc16E": (16, "f16.f16.f16", r"\bHGMMA\b"),
    "9WgmmaBf16E": (16, "f32.bf16.bf16", r"\bHGMMA\b"),
    "9WgmmaTf32E": (8, "f32.tf32.tf32", r"\bHGMMA\b"),
    "9WgmmaE4m3E": (32, "f32.e4m3.e4m3", r"\b[HQ]GMMA\b"),
    "9WgmmaE5m2E": (32, "f32.e5m2.e5m2", r"\b[HQ]GMMA\b"),
    "7WgmmaS8E": (32, "s32.s8.s8", r"\bIGMMA\b"),
}
failures, checked = [], 0

def kernel_of(name):
    if "wgmma_kernel" not in name:
        return None
    for unit in units:
        i = name.find("12wgmma_kernelINS1_" + unit)
        if i >= 0:
            m = re.match(r"Li(\d+)E", name[i + len("12wgmma_kernelINS1_" + unit):])
            return (unit, int(m.group(1))) if m else None
    return None

def entries(ptx):
    parts = re.split(r"^[ \t]*(?:\.\w+[ \t]+)*\.entry[ \t]+", ptx, flags=re.M)[1:]
    return [(p.split("(", 1)[0].strip(), p) for p in parts]

ptx_a = "".join(open(f).read() for f in glob.glob(f"{work}/keep/*compute_90a*.ptx"))
ptx_g = "".join(open(f).read() for f in glob.glob(f"{work}/keep/*compute_90.ptx"))
found = set()
for key, body in kernels_in(entries(ptx_a), kernel_of, found):
    checked += 1
    k, types, _ = units[key[0]]
    want = rf"wgmma\.mma_async\.sync\.aligned\.m64n{key[1]}k{k}\.{re.escape(types)}\b"
    if not re.search(want, body):
        failures.append(f"PTX sm_90a: no {want} in {key[0]} N={key[1]}")
for unit in units:
    for n in (128, 256):
        if (unit, n) not in found:
            failures.append(f"PTX sm_90a: no kernel for {unit} N={n}")
checked += 1
if "wgmma.mma_async" in ptx_g:
    failures.append("PTX sm_90: wgmma in the generic code (it must only say it did not run)")

log = open(f"{work}/compile.log").read()
spill_found, spilled, reports = spill_check(log, kernel_of, lambda k: f"{k[0]} N={k[1]}",
                                            "sm_90a")
failures += spilled
checked += reports
if len(spill_found) != len(units) * 2:
    failures.append(f"ptxas: a report for {len(spill_found)} of {len(units) * 2} wgmma kernels")
checked += 1
for line in re.findall(r".*Potential Performance Loss.*", log):
    failures.append("ptxas: " + line.strip())

if have_sass:
    sass = open(f"{work}/wgmma.sass").read()
    sections = re.split(r"^\s*code for sm_(\w+)\s*$", sass, flags=re.M)
    sm90a = "".join(body for arch, body in zip(sections[1::2], sections[2::2]) if arch == "90a")
    seen = set()
    unread = []
    for key, block in kernels_in(sass_functions(sm90a), kernel_of, seen):
        checked += 1
        if has_local(block):
            failures.append(f"SASS sm_90a: local loads or stores in {key[0]} N={key[1]}")
        if re.search(units[key[0]][2], block):
            checked += 1
        elif undecoded(block):  # an older disassembler (CUDA 11.8's knows no QGMMA)
            unread.append(f"{key[0]} N={key[1]}")
        else:
            failures.append(f"SASS sm_90a: no {units[key[0]][2]} in {key[0]} N={key[1]}")
    if len(seen) != len(units) * 2:
        failures.append(f"SASS sm_90a: {len(seen)} of {len(units) * 2} wgmma kernels")
    if unread:
        print(f"check-sass: the disassembler left out instructions of {', '.join(unread)}: "
              "their GMMA is not checked in the SASS (it is in the PTX)")

finish(failures, checked, "the wgmma kernels (sm_90a)", have_sass)
PY
