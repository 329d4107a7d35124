#!/usr/bin/env bash
# Configures and builds rooftop after installing what is missing: the host build (Kokkos
# OpenMP) in build/, or with --cuda the CUDA build (Kokkos CUDA + OpenMP through
# nvcc_wrapper) in build-cuda/ (or $ROOFTOP_CUDA_BUILD_DIR).
#
#   scripts/build.sh [--cuda [--cuda-arch 70|75|80|86|89|90|100|120]] [--tests] [--target T ...] [cmake args...]
#
# --tests: the test suites too (with --cuda, the device tests: ROOFTOP_DEVICE_TESTS), with
# what they need installed (install-deps.sh --tests). Without it, a new build folder is
# configured without them (GoogleTest need not be installed); one that has them keeps
# them. Each --target builds that target alone (default: all): rooftop_programs is what
# the main job runs, rooftop_gpu_bundle what the GPU bundle carries. The other arguments
# go to cmake, after the script's own.
#
# The CUDA build is configured as scripts/make-gpu-bundle.sh packs it: one GPU arch
# (Kokkos's rule; the default, 90, is Hopper: H100, H200), without MPI
# (-DROOFTOP_WITH_MPI=OFF: no MPI library has to travel; the host build compiles the fleet
# mode) and host code for x86-64-v3 (-DROOFTOP_HOST_ARCH, so the bundle runs on any
# recent x86 GPU host).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cuda=0
cuda_arch=90
deps=()
targets=()
cmake_args=()
while (($#)); do
  case $1 in
    --cuda) cuda=1 ;;
    --cuda-arch) (($# >= 2)) || { echo "build.sh: --cuda-arch needs a value" >&2; exit 2; }
                 cuda_arch=$2; shift ;;
    --cuda-arch=*) cuda_arch=${1#--cuda-arch=} ;;
    --tests) deps=(--tests); cmake_args+=(-DROOFTOP_BUILD_TESTS=ON) ;;
    --target) (($# >= 2)) || { echo "build.sh: --target needs a target" >&2; exit 2; }
              targets+=(--target "$2"); shift ;;
    *) cmake_args+=("$1") ;;
  esac
  shift
done
build="$root/build"
kokkos=()
if ((cuda)); then
  build="${ROOFTOP_CUDA_BUILD_DIR:-$root/build-cuda}"
  command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
  command -v nvcc >/dev/null || { echo "build.sh: nvcc not found (install the CUDA Toolkit)" >&2; exit 1; }
  kokkos=(--cuda --cuda-arch "$cuda_arch")
  ((${#deps[@]} == 0)) || cmake_args=(-DROOFTOP_DEVICE_TESTS=ON "${cmake_args[@]}")
fi
if ((${#deps[@]} == 0)) && [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake_args=(-DROOFTOP_BUILD_TESTS=OFF "${cmake_args[@]}")
fi
kokkos_root="$("$root/scripts/install-deps.sh" "${deps[@]}" "${kokkos[@]}" | tail -1)"
if ((cuda)); then
  cmake_args=(-DCMAKE_CXX_COMPILER="$kokkos_root/bin/nvcc_wrapper" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
              -DROOFTOP_WITH_MPI=OFF -DROOFTOP_HOST_ARCH=x86-64-v3 "${cmake_args[@]}")
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" "${cmake_args[@]}" >&2
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}" >&2
