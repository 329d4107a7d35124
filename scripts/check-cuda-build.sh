#!/usr/bin/env bash
# Compiles the CUDA build (Kokkos CUDA + OpenMP through nvcc_wrapper) in build-cuda/
# without running it, so no kernel is written that only the host compiler accepts: the
# device tests included (ROOFTOP_DEVICE_TESTS), register spills in the device kernels as
# errors (microbench/CMakeLists.txt), and then the PTX of the device-ceiling kernels
# checked (scripts/check-ptx.sh), the GPP ladder's steps in its PTX
# (scripts/check-gpp-ptx.sh), and the tensor and bandwidth kernels' machine code
# (scripts/check-sass.sh, with Debian's nvdisasm where the toolkit has no disassembler).
# Configured as scripts/make-gpu-bundle.sh packs it, so one build serves CI and the
# bundle: without MPI (-DROOFTOP_WITH_MPI=OFF: no MPI library has to travel; the host
# build compiles the fleet mode) and host code for x86-64-v3 (-DROOFTOP_HOST_ARCH, so
# the bundle runs on any recent x86 GPU host); cmake args given here come after these
# and override them.
#
#   scripts/check-cuda-build.sh [--cuda-arch 70|75|80|86|89|90|100|120] [cmake args...]
#
# One GPU arch per build (Kokkos's rule); the default, 90, is Hopper (H100, H200).
# ROOFTOP_CUDA_BUILD_DIR names another build folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ROOFTOP_CUDA_BUILD_DIR:-$root/build-cuda}"
cuda_arch=90
case ${1:-} in
  --cuda-arch) [ $# -ge 2 ] || { echo "check-cuda-build: --cuda-arch needs a value" >&2; exit 2; }
               cuda_arch=$2; shift 2 ;;
  --cuda-arch=*) cuda_arch=${1#--cuda-arch=}; shift ;;
esac
command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || { echo "check-cuda-build: nvcc not found (install the CUDA Toolkit)" >&2; exit 1; }
"$root/scripts/install-deps.sh" >/dev/null
kokkos_root="$("$root/scripts/bootstrap-kokkos.sh" --cuda --cuda-arch "$cuda_arch" | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" -DCMAKE_CXX_COMPILER="$kokkos_root/bin/nvcc_wrapper" \
      -DROOFTOP_DEVICE_TESTS=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DROOFTOP_WITH_MPI=OFF -DROOFTOP_HOST_ARCH=x86-64-v3 "$@"
cmake --build "$build" --parallel "$(nproc)"
# libcupti is opened when counting starts, never linked (counters/src/cupti_api.cpp):
# Nsight Compute profiles `analyze --no-cupti` with a CUPTI of its own.
injection="$build/inject/librooftop_cuda_injection.so"
for f in "$build/app/rooftop" "$build/connector/librooftop_kokkos_connector.so" "$injection"; do
  [[ -f "$f" ]] || continue  # the injection library: only where CUPTI is found
  if readelf -d "$f" | grep -q 'NEEDED.*libcupti'; then
    echo "check-cuda-build: $f links libcupti; it must open it only to count" >&2
    exit 1
  fi
done
# The CUDA driver calls the injection library's InitializeInjection, its one export.
# (grep reads all of nm's output: with -q, nm's SIGPIPE would fail the pipeline.)
if [[ -f "$injection" ]] &&
   ! nm -D --defined-only "$injection" | grep -w InitializeInjection > /dev/null; then
  echo "check-cuda-build: $injection does not export InitializeInjection" >&2
  exit 1
fi
"$root/scripts/check-ptx.sh" "$build"
"$root/scripts/check-gpp-ptx.sh" "$build"
# The SASS checks need a disassembler: where there is none (the toolkit's, or one fetched
# before), Debian's (CUDA 11.8's nvdisasm, which reads sm_90 code) into the build's
# tools/; without one check-sass.sh says so and checks the PTX and ptxas's report.
if ! python3 "$root/scripts/lib/disassemble.py" --find --nvdisasm "$build/tools/nvdisasm" \
     > /dev/null; then
  "$root/scripts/fetch-nvdisasm.sh" "$build/tools" ||
    echo "check-cuda-build: no nvdisasm to be had: the SASS checks are skipped"
fi
"$root/scripts/check-sass.sh" "$build"
