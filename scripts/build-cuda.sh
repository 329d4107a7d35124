#!/usr/bin/env bash
# Configures and builds the CUDA build (Kokkos CUDA + OpenMP through nvcc_wrapper) in
# build-cuda/ (or $ROOFTOP_CUDA_BUILD_DIR), Kokkos's CUDA variant built first where it
# is missing. Configured as scripts/make-gpu-bundle.sh packs it: without MPI
# (-DROOFTOP_WITH_MPI=OFF: no MPI library has to travel; the host build compiles the fleet
# mode) and host code for x86-64-v3 (-DROOFTOP_HOST_ARCH, so the bundle runs on any recent
# x86 GPU host); cmake args given here come after these and override them.
#
#   scripts/build-cuda.sh [--cuda-arch 70|75|80|86|89|90|100|120] [--tests] [--target T ...] [cmake args...]
#
# One GPU arch per build (Kokkos's rule); the default, 90, is Hopper (H100, H200).
# --tests: the test suites with the device tests (ROOFTOP_DEVICE_TESTS), and what they
# need installed; without it a new build folder is configured without them. Each --target
# builds that target alone (default: all): rooftop_programs is what the main job runs,
# rooftop_gpu_bundle what the GPU bundle carries.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ROOFTOP_CUDA_BUILD_DIR:-$root/build-cuda}"
cuda_arch=90
deps=()
targets=()
cmake_args=()
while (($#)); do
  case $1 in
    --cuda-arch) (($# >= 2)) || { echo "build-cuda: --cuda-arch needs a value" >&2; exit 2; }
                 cuda_arch=$2; shift ;;
    --cuda-arch=*) cuda_arch=${1#--cuda-arch=} ;;
    --tests) deps=(--tests); cmake_args+=(-DROOFTOP_BUILD_TESTS=ON -DROOFTOP_DEVICE_TESTS=ON) ;;
    --target) (($# >= 2)) || { echo "build-cuda: --target needs a target" >&2; exit 2; }
              targets+=(--target "$2"); shift ;;
    *) cmake_args+=("$1") ;;
  esac
  shift
done
if ((${#deps[@]} == 0)) && [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake_args=(-DROOFTOP_BUILD_TESTS=OFF "${cmake_args[@]}")
fi
command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || { echo "build-cuda: nvcc not found (install the CUDA Toolkit)" >&2; exit 1; }
"$root/scripts/install-deps.sh" "${deps[@]}" >/dev/null
kokkos_root="$("$root/scripts/bootstrap-kokkos.sh" --cuda --cuda-arch "$cuda_arch" | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" -DCMAKE_CXX_COMPILER="$kokkos_root/bin/nvcc_wrapper" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DROOFTOP_WITH_MPI=OFF -DROOFTOP_HOST_ARCH=x86-64-v3 "${cmake_args[@]}"
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
