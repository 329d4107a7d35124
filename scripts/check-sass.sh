#!/usr/bin/env bash
# Checks the machine code of the tensor-core kernels (microbench/src/device_tensor.cpp)
# of a CUDA build: compiles that source once more with the build's own command plus
# --keep and ptxas's report (-Xptxas=-v), then fails when
#   - a TensorKernel<Space, Unit, accumulators> lacks its unit's mma.sync in the PTX (units
#     newer than the build's GPU arch excepted: FP8 needs sm_89, the others sm_80), or
#     one of the 8 units x {1, 2, 4, 8} accumulators has no kernel;
#   - ptxas reports spill stores or loads for any of them;
#   - with cuobjdump (CUDA Toolkit; skipped with a note where it is not installed): the
#     SASS of a kernel lacks its tensor-core instruction (DMMA for FP64, HMMA for TF32,
#     BF16 and FP16, IMMA for INT8, HMMA or QMMA for FP8) or holds local loads or
#     stores (LDL, STL), or the object holds no device code (cuobjdump --list-elf).
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

# Compile: the object, the PTX and cubin (--keep) and ptxas's per-function report.
python3 - "$build/compile_commands.json" "$work" <<'PY'
import json, shlex, subprocess, sys
db, work = sys.argv[1:3]
entry = next((e for e in json.load(open(db))
              if e["file"].endswith("microbench/src/device_tensor.cpp")), None)
if entry is None:
    sys.exit("check-sass: device_tensor.cpp is not in the compile database")
args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
args[args.index("-o") + 1] = work + "/device_tensor.o"
args += ["--keep", "--keep-dir=" + work + "/keep", "-Xptxas=-v"]
# The GPU arch the build is for (-arch=sm_90, or Kokkos's -arch=sm_80 and the like).
arch = next((a.split("sm_", 1)[1].rstrip("a") for a in args if a.startswith("-arch=sm_")), "0")
open(work + "/arch", "w").write(arch + "\n")
run = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
open(work + "/compile.log", "w").write(run.stdout + run.stderr)
if run.returncode != 0:
    sys.exit("check-sass: the compile failed:\n" + run.stdout + run.stderr)
PY
cat "$work"/keep/*.ptx > "$work/device_tensor.ptx"
have_cuobjdump=0
if command -v cuobjdump >/dev/null; then
  have_cuobjdump=1
  cuobjdump --list-elf "$work/device_tensor.o" > "$work/device_tensor.elf"
  cuobjdump -sass "$work/device_tensor.o" > "$work/device_tensor.sass"
else
  echo "check-sass: cuobjdump not found: the SASS is not read (PTX and ptxas's spill report are)"
fi

python3 - "$work" "$have_cuobjdump" <<'PY'
import re, sys
work, have_sass = sys.argv[1], sys.argv[2] == "1"
arch = int(open(f"{work}/arch").read()) * 10  # as __CUDA_ARCH__: 90 -> 900
# Each unit by its mangled name (length-prefixed), its PTX instruction and its SASS one.
units = {
    "6MmaF64E": (r"mma\.sync\.aligned\.m8n8k4\.row\.col\.f64\.f64\.f64\.f64", r"\bDMMA\b"),
    "7MmaTf32E": (r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32", r"\bHMMA\b"),
    "7MmaBf16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32", r"\bHMMA\b"),
    "6MmaF16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", r"\bHMMA\b"),
    "11MmaF16Acc16E": (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f16\.f16\.f16\.f16", r"\bHMMA\b"),
    "7MmaE4m3E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e4m3\.e4m3\.f32", r"\b[HQ]MMA\b"),
    "7MmaE5m2E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e5m2\.e5m2\.f32", r"\b[HQ]MMA\b"),
    "5MmaS8E": (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.s32\.s8\.s8\.s32", r"\bIMMA\b"),
}
# Built for an older GPU than a unit's first (FP8: 8.9, the others: 8.0), its kernels
# hold no mma and report the unit absent: nothing to look for.
first_arch = {u: 890 if "MmaE" in u else 800 for u in units}
units = {u: v for u, v in units.items() if arch >= first_arch[u]}
print(f"check-sass: sm_{arch // 10}: {len(units)} of 8 tensor units built")
failures, checked = [], 0

def kernel_of(name):
    """(unit, accumulators) of a TensorKernel function name, or None."""
    if "TensorKernel" not in name:
        return None
    for unit in units:
        i = name.find(unit)
        if i >= 0:
            m = re.match(r"Li(\d+)E", name[i + len(unit):])
            return (unit, int(m.group(1))) if m else None
    return None

def check(found, label, blocks, instruction_of, extra=None):
    global checked
    for name, body in blocks:
        key = kernel_of(name)
        if not key:
            continue
        found.add(key)
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
ptx = open(f"{work}/device_tensor.ptx").read()
parts = re.split(r"^[ \t]*(?:\.\w+[ \t]+)*\.entry[ \t]+", ptx, flags=re.M)[1:]
check(set(), "PTX", [(p.split("(", 1)[0].strip(), p) for p in parts], lambda u: units[u][0])

# ptxas -v: "Compiling entry function 'NAME'" ... "N bytes spill stores, M bytes spill loads".
log = open(f"{work}/compile.log").read()
spill_found = set()
for name, report in re.findall(r"Compiling entry function '([^']+)'.*?\n(.*?spill loads)", log, re.S):
    key = kernel_of(name)
    if not key:
        continue
    spill_found.add(key)
    checked += 1
    m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", report)
    if not m or m.group(1) != "0" or m.group(2) != "0":
        failures.append(f"ptxas: spills in {key[0]} x{key[1]}: {m.group(0) if m else report}")
if units and not spill_found:
    failures.append("ptxas: no report for the tensor kernels (-Xptxas=-v)")

if have_sass:
    if not open(f"{work}/device_tensor.elf").read().strip():
        failures.append("cuobjdump: no device code (ELF) in device_tensor.cpp's object")
    sass = open(f"{work}/device_tensor.sass").read()
    blocks = [(b.split("\n", 1)[0].strip(), b)
              for b in re.split(r"^\s*Function : ", sass, flags=re.M)[1:]]
    def no_local(key, body):
        if re.search(r"\b(LDL|STL)\b", body):
            failures.append(f"SASS: local loads or stores (a spill) in {key[0]} x{key[1]}")
    check(set(), "SASS", blocks, lambda u: units[u][1], no_local)

for f in failures:
    print("check-sass: " + f, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"check-sass: {checked} checks passed on the tensor kernels" +
      ("" if have_sass else " (PTX and ptxas report; no SASS read)"))
PY
