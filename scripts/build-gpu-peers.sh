#!/usr/bin/env bash
# Builds the other tools' GPU benchmarks that run-gpu.sh --peers runs beside rooftop on
# the same GPU, from source folders already on this machine (no network: fetch them
# first), with nvcc for one CUDA arch, into a folder for make-gpu-bundle.sh --peers:
#
#   scripts/build-gpu-peers.sh [--cuda-arch 90] [--out DIR] [--mixbench SRC]
#                              [--babelstream SRC] [--gpu-benches SRC]
#
#   --mixbench SRC     a checkout of ekondis/mixbench: mixbench-cuda, as DIR/mixbench
#   --babelstream SRC  a checkout of UoB-HPC/BabelStream: its CUDA model (its own CMake),
#                      as DIR/babelstream
#   --gpu-benches SRC  a checkout of te42kyfo/gpu-benches: gpu-cache, gpu-l2-cache and
#                      gpu-stream, as DIR/<name>
#
# At least one source; each peer is built from its own files as they are (nothing is
# patched or written in SRC). Each executable in DIR runs with no arguments and is named
# as its log (peer-NAME.log) will be. gpu-cache and gpu-stream sweep for minutes, so
# DIR/gpu-cache and DIR/gpu-stream are short scripts that run the real programs, kept in
# DIR/libexec/, under a time limit and say so in the log when they stop them; the rows
# printed by then stay (gpu-cache's L1 rows come first).
# BabelStream and gpu-cache include nvml.h, which the CUDA Toolkit lacks: they get
# scripts/gpu-peers/nvml.h, link against a stand-in libnvidia-ml.so.1 built from
# scripts/gpu-peers/nvml-stub.c, and load the driver's libnvidia-ml at run time (the
# stand-in never leaves the build). Default DIR: build-peers/ (an ignored path). nvcc: on
# PATH, else /usr/local/cuda/bin/nvcc. DIR/BUILT.txt says what each program was built
# from. Exits non-zero if any peer named failed to build (the others are built).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
usage="usage: build-gpu-peers.sh [--cuda-arch N] [--out DIR] [--mixbench SRC] [--babelstream SRC] [--gpu-benches SRC]"
cuda_arch=90
out="$root/build-peers"
declare -A src=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cuda-arch) need_value "$1" "${2:-}" "needs a value ($usage)"
                 cuda_arch="${2#sm_}"; shift 2 ;;
    --out) need_value "$1" "${2:-}" "needs a folder ($usage)"
           out="$(realpath -m "$2")"; shift 2 ;;
    --mixbench|--babelstream|--gpu-benches)
      need_value "$1" "${2:-}" "needs a source folder ($usage)"
      [[ -d "$2" ]] || die "$1 $2: no such folder"
      src[${1#--}]="$(realpath "$2")"; shift 2 ;;
    -h|--help) show_help ;;
    *) die "unknown argument '$1' ($usage)" ;;
  esac
done
(( ${#src[@]} )) || die "no source folder given ($usage)"
[[ "$cuda_arch" =~ ^[0-9]+[af]?$ ]] || die "--cuda-arch '$cuda_arch' is not an arch like 90 or sm_90"
arch="sm_$cuda_arch"

# Each source folder must hold the files its build reads, before anything is built.
need() {
  local peer="$1"; shift
  local f
  for f in "$@"; do
    [[ -f "${src[$peer]}/$f" ]] ||
      die "--$peer ${src[$peer]} has no $f (not a checkout of $peer?)"
  done
}
[[ -n "${src[mixbench]:-}" ]] &&
  need mixbench mixbench-cuda/main-cuda.cpp mixbench-cuda/mix_kernels_cuda.cu include/common.h
[[ -n "${src[babelstream]:-}" ]] && need babelstream CMakeLists.txt src/main.cpp src/cuda/CUDAStream.cu
[[ -n "${src[gpu-benches]:-}" ]] &&
  need gpu-benches gpu-cache/main.cu gpu-l2-cache/main.cu gpu-stream/main.cu MeasurementSeries.hpp

nvcc="$(command -v nvcc || true)"
[[ -x "$nvcc" ]] || nvcc=/usr/local/cuda/bin/nvcc
[[ -x "$nvcc" ]] || die "nvcc not found (install the CUDA Toolkit or put its bin/ on PATH)"
"$nvcc" --list-gpu-code 2>/dev/null | grep -qx "$arch" ||
  die "$nvcc does not compile for $arch (its --list-gpu-code)"
[[ -n "${src[babelstream]:-}" ]] && { command -v cmake >/dev/null || die "cmake not found (BabelStream builds with it)"; }
command -v cc >/dev/null || die "no C compiler 'cc' (for the libnvidia-ml stand-in)"
nvcc_version="$("$nvcc" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')"

mkdir -p "$out/libexec" 2>/dev/null || die "cannot create $out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The stand-in for the driver's NVML, under the soname the driver's library has.
mkdir -p "$work/nvml"
cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -Wl,-soname,libnvidia-ml.so.1 \
   -I"$root/scripts/gpu-peers" -o "$work/nvml/libnvidia-ml.so" "$root/scripts/gpu-peers/nvml-stub.c"
nvml=(-I"$root/scripts/gpu-peers" -L"$work/nvml" -lnvidia-ml)

# revision SRC: the checkout's commit, where SRC is the top of a git work tree (not a
# folder inside another repository).
revision() {
  [[ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" == "$1" ]] &&
    git -C "$1" describe --tags --always --dirty 2>/dev/null || echo "unknown revision"
}

# bounded NAME SECONDS: DIR/NAME runs DIR/libexec/NAME with its arguments, stopped after
# SECONDS (well inside run-gpu.sh's 90 s a peer), and then exits 0 with a line that
# scripts/peers-table.py reads, on a line of its own (the program may stop in mid-row).
bounded() {
  cat > "$out/$1" <<EOF
#!/bin/sh
# $1, its sweep stopped after $2 s (written by rooftop's scripts/build-gpu-peers.sh):
# what it printed by then stays in the log.
timeout -k 5 $2 "\$(dirname "\$0")/libexec/$1" "\$@"
rc=\$?
if [ "\$rc" -eq 124 ]; then printf '\\n[bounded: stopped after $2 s]\\n'; exit 0; fi
exit "\$rc"
EOF
  chmod +x "$out/$1"
}

# The peers' compiler flags: their makefiles' and CMake's, for $arch.
build_mixbench() {
  local s="${src[mixbench]}"
  mkdir -p "$work/mixbench"
  # Its CMake writes version_info.h into the source folder; here it goes to the build's.
  printf '#define VERSION_INFO "%s"\n' "$(revision "$s")" > "$work/mixbench/version_info.h"
  "$nvcc" -O3 -arch="$arch" --cudart=static -I"$s/include" -I"$work/mixbench" \
          -o "$out/mixbench" "$s/mixbench-cuda/main-cuda.cpp" "$s/mixbench-cuda/mix_kernels_cuda.cu"
}
build_babelstream() {
  # RELEASE_FLAGS replaces its default host flags (-march=native with BUILD_NATIVE): the
  # host code must run on the GPU machine's CPU.
  cmake -S "${src[babelstream]}" -B "$work/babelstream" -DMODEL=cuda -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDA_ARCH="$arch" -DRELEASE_FLAGS=-O3 \
        -DCUDA_EXTRA_FLAGS="${nvml[0]}" -DCMAKE_EXE_LINKER_FLAGS="${nvml[1]}"
  cmake --build "$work/babelstream" --parallel "$(nproc)"
  cp "$work/babelstream/cuda-stream" "$out/babelstream"
}
gpu_benches_flags=(-std=c++17 -O3 -Xcompiler -O2)
cupti=(-lcupti -lcuda -lnvperf_host -lnvperf_target)
build_gpu_cache() {
  "$nvcc" "${gpu_benches_flags[@]}" -arch="$arch" -o "$out/libexec/gpu-cache" \
          "${src[gpu-benches]}/gpu-cache/main.cu" "${cupti[@]}" "${nvml[@]}"
  bounded gpu-cache 40   # its L1 and L2 rows took 40 s on an H200
}
build_gpu_l2_cache() {
  "$nvcc" "${gpu_benches_flags[@]}" -arch="$arch" -o "$out/gpu-l2-cache" \
          "${src[gpu-benches]}/gpu-l2-cache/main.cu" "${cupti[@]}"
}
build_gpu_stream() {
  "$nvcc" "${gpu_benches_flags[@]}" -arch="$arch" -o "$out/libexec/gpu-stream" \
          "${src[gpu-benches]}/gpu-stream/main.cu"
  bounded gpu-stream 80
}

declare -A from=([mixbench]=mixbench [babelstream]=babelstream [gpu-cache]=gpu-benches
                 [gpu-l2-cache]=gpu-benches [gpu-stream]=gpu-benches)
built=()
failed=()
for peer in mixbench babelstream gpu-cache gpu-l2-cache gpu-stream; do
  [[ -n "${src[${from[$peer]}]:-}" ]] || continue
  # A failed build must not leave an older program of the same name to be packed.
  rm -f "$out/$peer" "$out/libexec/$peer"
  echo "build-gpu-peers: $peer for $arch" >&2
  # In a subshell of its own with -e, so that its first failing step fails it (in an if
  # or || condition bash would ignore -e inside the function).
  set +e
  ( set -e; "build_${peer//-/_}" ) > "$work/$peer.log" 2>&1
  rc=$?
  set -e
  if (( rc == 0 )); then
    built+=("$peer")
  else
    failed+=("$peer")
    echo "build-gpu-peers: $peer FAILED; the end of its build log:" >&2
    tail -n 20 "$work/$peer.log" >&2
  fi
done
rmdir "$out/libexec" 2>/dev/null || true

# What was built from what, one line a peer added to those of earlier runs (the last of a
# peer's lines is its program's), beside the programs (not executable: it does not travel).
for peer in "${built[@]}"; do
  echo "$(date -u +%Y-%m-%d) $peer for $arch with nvcc $nvcc_version from ${from[$peer]}" \
       "$(revision "${src[${from[$peer]}]}")"
done >> "$out/BUILT.txt"
echo "build-gpu-peers: built ${built[*]:-nothing} in $out${failed[*]:+; FAILED: ${failed[*]}}" >&2
(( ${#failed[@]} == 0 ))
