#!/usr/bin/env bash
# Packs the CUDA build into a self-contained bundle for a GPU machine without network
# that has the NVIDIA driver and nothing else: the rooftop program, the Kokkos Tools
# connector, the CUDA injection library (where the build has CUPTI), the device tests
# (test_device, and test_counts_device where the build has CUPTI), connector_app,
# scripts/run-gpu.sh and the PyTorch program it profiles where the GPU machine has torch
# (share/torch_model.py, with its H200 trace and ncu log beside it),
# scripts/bench-gpp-ladder.py (the GPP ladder run-gpu.sh measures beside the V100's
# published times), the reference ceilings run-gpu.sh's probes place kernels on before
# it has measured any (share/reference-ceilings.h5, from data/), and every shared
# library they load that is not the driver's or the C library's: the CUDA runtime,
# CUPTI and the nvperf libraries CUPTI loads (from the CUDA Toolkit that built them),
# HDF5 and its dependencies, the C++ and OpenMP runtimes. Never the driver's own
# libraries (libcuda, libnvidia-*), which must match the GPU machine's kernel module.
#
#   scripts/make-gpu-bundle.sh [--build DIR] [--peers DIR] [OUTPUT.tar.gz]
#
# --peers DIR: the executables in DIR travel too, in peers/, for run-gpu.sh --peers to
# run beside rooftop on the same GPU (other tools' benchmarks, built for the GPU's arch by
# scripts/build-gpu-peers.sh; see docs/gpu.md), with the programs in DIR/libexec/ that
# some of them run (run-gpu.sh runs only DIR's own), and scripts/peers-table.py, which
# sets their figures beside rooftop's. Their libraries are packed like ours.
#
# Without --build it runs scripts/check-cuda-build.sh (the CUDA build in build-cuda/,
# or $ROOFTOP_CUDA_BUILD_DIR: no MPI, so no MPI library has to travel, host code for
# x86-64-v3, device tests on; then the PTX checks), so CI's CUDA build and the bundle
# are one build. --build DIR packs an existing CUDA build configured with
# -DROOFTOP_DEVICE_TESTS=ON instead. Default output: BUILD/rooftop-gpu-bundle.tar.gz (an
# ignored path); an output inside the source tree must be an ignored path. Everything
# the packing needs is checked before the build starts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
build=""
pack_only=0
peers=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) [[ -d "${2:-}" ]] || die "--build needs an existing build directory"
             build="$(realpath "$2")"; pack_only=1; shift 2 ;;
    --peers) [[ -d "${2:-}" ]] || die "--peers needs a folder of executables"
             peers="$(realpath "$2")"; shift 2 ;;
    -h|--help) show_help ;;
    -*) die "unknown option '$1' (usage: make-gpu-bundle.sh [--build DIR] [--peers DIR] [OUTPUT.tar.gz])" ;;
    *) break ;;
  esac
done
if [[ -n "$peers" ]]; then
  peer_files=()
  for f in "$peers"/*; do [[ -f "$f" && -x "$f" ]] && peer_files+=("$f"); done
  (( ${#peer_files[@]} )) || die "--peers $peers holds no executable"
  peer_helpers=()
  for f in "$peers"/libexec/*; do [[ -f "$f" && -x "$f" ]] && peer_helpers+=("$f"); done
  [[ -f "$root/scripts/peers-table.py" ]] || die "$root/scripts/peers-table.py is missing"
fi
[[ -n "$build" ]] || build="$(realpath -m "${ROOFTOP_CUDA_BUILD_DIR:-$root/build-cuda}")"
output="$(realpath -m "${1:-$build/rooftop-gpu-bundle.tar.gz}")"
limit=$((64 * 1024 * 1024))
# The ceilings of a real GPU of the kind the bundle is built for (sm_90).
reference="$root/data/h200-2026-11-27-ceilings-1.h5"

# --- Everything the packing needs, before the (long) build ---------------------------
for tool in ldd tar gzip strip awk; do
  command -v "$tool" >/dev/null || die "'$tool' not found"
done
for script in run-gpu.sh bench-gpp-ladder.py bench-llm.py check-ncu-sections.py; do
  [[ -f "$root/scripts/$script" ]] || die "$root/scripts/$script is missing"
done
for f in scripts/torch_model.py examples/train.py analyze/torch/rooftop_torch.py \
         tests/fixtures/llm/llama-3-8b.json; do
  [[ -f "$root/$f" ]] || die "$root/$f is missing"
done
[[ -f "$reference" ]] || die "$reference is missing"
output_dir="$(dirname "$output")"
mkdir -p "$output_dir" 2>/dev/null || die "cannot create $output_dir"
[[ -w "$output_dir" ]] || die "$output_dir is not writable"
if [[ "$output" == "$root"/* ]] && command -v git >/dev/null &&
   git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   ! git -C "$root" check-ignore -q "$output"; then
  die "$output is inside the source tree and not ignored: write it under build-cuda/ or outside"
fi

# The CUDA Toolkit: the one named by the build's cache, else nvcc on PATH, else the
# default location (check-cuda-build.sh's order).
nvcc=""
if [[ -f "$build/CMakeCache.txt" ]]; then
  nvcc="$(sed -n 's/^CUDAToolkit_NVCC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" | head -1)"
fi
[[ -x "$nvcc" ]] || nvcc="$(command -v nvcc || true)"
[[ -x "$nvcc" ]] || nvcc=/usr/local/cuda/bin/nvcc
[[ -x "$nvcc" ]] || die "nvcc not found (install the CUDA Toolkit or put its bin/ on PATH)"
# nvcc may be a wrapper script outside the toolkit (/usr/local/bin/nvcc exec'ing the real
# one), so the toolkit is where nvcc itself says it lives (its TOP), not beside the file.
toolkit="$("$nvcc" -v --dryrun -x cu -c /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' |
           head -1)"
[[ -n "$toolkit" ]] || toolkit="$(dirname "$(realpath "$nvcc")")/.."
toolkit="$(realpath "$toolkit")"
toolkit_version="$("$nvcc" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')"
[[ -n "$toolkit_version" ]] || die "cannot read the CUDA version from '$nvcc --version'"
toolkit_libs=()
for d in "$toolkit/lib64" "$toolkit/targets/x86_64-linux/lib" "$toolkit/extras/CUPTI/lib64" \
         "$toolkit/lib/x86_64-linux-gnu" "$toolkit/lib"; do
  [[ -d "$d" ]] && toolkit_libs+=("$d")
done
(( ${#toolkit_libs[@]} )) || die "no library folder under $toolkit"
toolkit_path="$(IFS=:; echo "${toolkit_libs[*]}")"
# The libraries of the toolkit that travel: the CUDA runtime and CUPTI (linked), and the
# nvperf libraries, which CUPTI loads by bare name at run time (ldd does not show them).
find_toolkit_lib() {
  local d
  for d in "${toolkit_libs[@]}"; do
    [[ -e "$d/$1" ]] && { realpath "$d/$1"; return 0; }
  done
  return 1
}
declare -A from_toolkit=()
for lib in libcudart.so.13 libcupti.so.13 libnvperf_host.so libnvperf_target.so; do
  from_toolkit[$lib]="$(find_toolkit_lib "$lib")" ||
    die "$lib not found under $toolkit (looked in ${toolkit_libs[*]})"
done

cuda_build() {
  grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*nvcc_wrapper' "$build/CMakeCache.txt" 2>/dev/null ||
    die "$build is not a CUDA build (no nvcc_wrapper in its CMakeCache.txt)"
}
(( pack_only )) && cuda_build

# --- The build ----------------------------------------------------------------------
if (( ! pack_only )); then
  ROOFTOP_CUDA_BUILD_DIR="$build" "$root/scripts/check-cuda-build.sh" >&2
  cuda_build
fi
programs=(app/rooftop tests/test_device tests/connector_app)
connector=connector/librooftop_kokkos_connector.so
for f in "${programs[@]}" "$connector"; do
  [[ -f "$build/$f" ]] || die "$build/$f is missing (a CUDA build with -DROOFTOP_DEVICE_TESTS=ON?)"
done
# The counts test (connector and CUPTI backend against FLOPs worked out by hand) exists
# where the build found CUPTI.
[[ -f "$build/tests/test_counts_device" ]] && programs+=(tests/test_counts_device)
# The CUDA injection library (rooftop profile of any CUDA program), built where CUPTI is.
injection=inject/librooftop_cuda_injection.so
[[ -f "$build/$injection" ]] || injection=""

# --- Packing ------------------------------------------------------------------------
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/rooftop-gpu"
mkdir -p "$dir/bin" "$dir/lib" "$dir/share"
for f in "${programs[@]}"; do cp "$build/$f" "$dir/bin/"; done
if [[ -n "$peers" ]]; then
  mkdir -p "$dir/peers"
  cp "${peer_files[@]}" "$dir/peers/"
  if (( ${#peer_helpers[@]} )); then
    mkdir -p "$dir/peers/libexec"
    cp "${peer_helpers[@]}" "$dir/peers/libexec/"
  fi
  cp "$root/scripts/peers-table.py" "$dir/"
fi
cp "$build/$connector" "$dir/lib/"
[[ -n "$injection" ]] && cp "$build/$injection" "$dir/lib/"
cp "$root/scripts/run-gpu.sh" "$root/scripts/bench-gpp-ladder.py" "$root/scripts/bench-llm.py" \
   "$root/scripts/check-ncu-sections.py" "$dir/"
# The config bench-llm.py's decoder takes its shape from.
cp "$root/tests/fixtures/llm/llama-3-8b.json" "$dir/share/"
cp "$root/scripts/torch_model.py" "$root/examples/train.py" "$dir/share/"
# profile --torch's launcher, where rooftop looks for it in an install (lib/).
cp "$root/analyze/torch/rooftop_torch.py" "$dir/lib/"
# Its torch.profiler trace and Nsight Compute log from an H200: the trace names the
# operators of profile-cuda's kernels, the log's counts are compared with its counts.
cp "$root/tests/fixtures/import/pytorch-h200-torch-model.json.gz" "$dir/share/torch-trace.json.gz"
cp "$root/tests/fixtures/import/ncu-text-h200-torch.txt" "$dir/share/ncu-torch.txt"
cp "$reference" "$dir/share/reference-ceilings.h5"
cuda_arch="$(sed -n 's/^Kokkos_ROOT:[A-Z]*=.*cuda-sm\([0-9]*\).*/\1/p' "$build/CMakeCache.txt" 2>/dev/null |
             head -1)"
# rooftop --version needs the driver (libcuda.so.1), which a build machine may lack.
version="$("$build/app/rooftop" --version 2>/dev/null)" ||
  version="$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt") $(
             git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
{
  echo "rooftop $version, CUDA build, packed $(date -u +%Y-%m-%d)"
  echo "cuda_toolkit ${toolkit_version}"
  echo "cuda_arch ${cuda_arch:-unknown}"
  echo "reference_ceilings data/$(basename "$reference")"
} > "$dir/VERSION"

for lib in "${!from_toolkit[@]}"; do
  cp -L "${from_toolkit[$lib]}" "$dir/lib/$lib"
done
# elf FILE: whether FILE is an ELF program or library (a peer may be a shell script that
# runs one, and ldd fails on a script).
elf() { [[ -f "$1" && "$(head -c 4 "$1" | od -An -c | tr -d ' ')" == 177ELF ]]; }
# Every library the programs and those toolkit libraries load (resolved against the
# toolkit's folders, where libcupti lives apart from the runtime), less what the GPU
# machine must bring itself: the C library (libc, libm, libdl, libpthread, librt,
# libresolv, libutil: stubs or parts of libc that must match it) and loader, and the
# driver (libcuda, libnvidia-*).
keep_out='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libutil\.so|libcuda\.so|libnvidia)'
for program in "$dir"/bin/* "$dir"/lib/*.so* "$dir"/peers/* "$dir"/peers/libexec/*; do
  elf "$program" || continue
  LD_LIBRARY_PATH="$toolkit_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$program" |
    awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u > "$stage/needed"
while read -r name path; do
  [[ "$name" =~ $keep_out || -e "$dir/lib/$name" ]] && continue
  case "$name" in  # the toolkit's libraries come from the toolkit that built the programs
    libcudart.so.*|libcupti.so.*|libnvperf*)
      [[ "$(realpath "$path")" == "$toolkit"/* ]] ||
        die "$name resolves to $path, outside the CUDA Toolkit $toolkit" ;;
  esac
  cp -L "$path" "$dir/lib/$name"
done < "$stage/needed"
# Ours and the distribution's libraries lose their symbol tables; NVIDIA's travel as
# shipped.
strip --strip-unneeded "$dir"/bin/* "$dir"/lib/librooftop_*.so 2>/dev/null || true
for f in "$dir"/lib/*.so*; do
  case "$(basename "$f")" in
    libcudart*|libcupti*|libnvperf*|librooftop*) ;;
    *) strip --strip-unneeded "$f" 2>/dev/null || true ;;
  esac
done

# With only the bundle's lib/ on the library path, nothing may be missing but the driver.
missing="$(for f in "$dir"/bin/* "$dir"/lib/*.so* "$dir"/peers/* "$dir"/peers/libexec/*; do
             elf "$f" || continue
             LD_LIBRARY_PATH="$dir/lib" ldd "$f" 2>/dev/null |
               awk -v f="${f#"$dir"/}" '/not found/ && $1 !~ /^lib(cuda|nvidia-ml)\.so/ {print f ": " $1}'
           done)"
[[ -z "$missing" ]] || die "not found with the bundle's lib/ alone:"$'\n'"$missing"

tar -C "$stage" -czf "$output" rooftop-gpu
size=$(stat -c %s "$output")
if (( size > limit )); then
  die "$output is $((size / 1024 / 1024)) MiB, over the 64 MiB limit"
fi
libs=("$dir"/lib/*)
peer_count=0
[[ -d "$dir/peers" ]] && peer_count=$(find "$dir/peers" -maxdepth 1 -type f | wc -l)
echo "make-gpu-bundle: wrote $output ($((size / 1024)) KiB; ${#libs[@]} libraries;" \
     "$peer_count peers; CUDA $toolkit_version)" >&2
echo "$output"
