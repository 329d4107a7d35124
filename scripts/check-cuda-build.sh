#!/usr/bin/env bash
# Compiles the CUDA build (scripts/build.sh --cuda, in build-cuda/ or
# $ROOFTOP_CUDA_BUILD_DIR) without running it, so no kernel is written that only the host
# compiler accepts: what the GPU bundle carries (target rooftop_gpu_bundle: the programs,
# the device tests, register spills in the device kernels as errors, see
# microbench/CMakeLists.txt), then the PTX of the device-ceiling kernels checked
# (scripts/check-ptx.sh), the GPP ladder's steps in its PTX (scripts/check-gpp-ptx.sh),
# and the tensor and bandwidth kernels' machine code (scripts/check-sass.sh, with
# Debian's nvdisasm where the toolkit has no disassembler). The host test suite is the
# host build's; nvcc compiles only what the bundle and the checks use. One build serves
# CI and scripts/make-gpu-bundle.sh.
#
#   scripts/check-cuda-build.sh [--cuda-arch 70|75|80|86|89|90|100|120] [cmake args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ROOFTOP_CUDA_BUILD_DIR:-$root/build-cuda}"
"$root/scripts/build.sh" --cuda --tests --target rooftop_gpu_bundle "$@"
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
