#!/usr/bin/env bash
# Packs the CUDA build into a self-contained bundle for a GPU machine without network:
# the rooftop program, the Kokkos Tools connector, the device tests, connector_app,
# scripts/run-gpu.sh, and the shared libraries they load that a machine with only the
# NVIDIA driver and CUDA Toolkit lacks (HDF5 and its dependencies, the C++ and OpenMP
# runtimes). The driver, the CUDA runtime, CUPTI and the C library are the GPU
# machine's own. Builds build-gpu-bundle/ (the CUDA build without MPI, so no MPI
# library has to travel, host code for x86-64-v3), or packs an existing CUDA build
# configured with -DROOFTOP_DEVICE_TESTS=ON (--build, e.g. build-cuda).
#   scripts/make-gpu-bundle.sh [--build DIR] [OUTPUT.tar.gz]
#   (default output: rooftop-gpu-bundle.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build=""
if [[ "${1:-}" == "--build" ]]; then
  build="$(realpath "${2:?--build needs a directory}")"
  shift 2
fi
output="$(realpath -m "${1:-rooftop-gpu-bundle.tar.gz}")"
limit=$((64 * 1024 * 1024))

if [[ -z "$build" ]]; then
  build="$root/build-gpu-bundle"
  ROOFTOP_CUDA_BUILD_DIR="$build" "$root/scripts/check-cuda-build.sh" \
    -DROOFTOP_WITH_MPI=OFF -DROOFTOP_HOST_ARCH=x86-64-v3 >&2
fi
for f in app/rooftop tests/test_device tests/connector_app analyze/librooftop_kokkos_connector.so; do
  [[ -f "$build/$f" ]] || { echo "make-gpu-bundle: $build/$f is missing" >&2; exit 1; }
done

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/rooftop-gpu"
mkdir -p "$dir/bin" "$dir/lib"
cp "$build/app/rooftop" "$build/tests/test_device" "$build/tests/connector_app" "$dir/bin/"
cp "$build/analyze/librooftop_kokkos_connector.so" "$dir/lib/"
cp "$root/scripts/run-gpu.sh" "$dir/"
echo "rooftop $("$build/app/rooftop" --version 2>/dev/null || echo unknown), CUDA build," \
     "packed $(date -u +%Y-%m-%d)" > "$dir/VERSION"

# Every library the programs load, less those the GPU machine brings: the C library
# and loader, the driver and the CUDA Toolkit's own libraries.
keep_out='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libcuda\.so|libcudart|libcupti|libnvperf|libnvidia|libnvrtc)'
for program in "$dir"/bin/* "$dir"/lib/librooftop_kokkos_connector.so; do
  ldd "$program" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ "$name" =~ $keep_out ]] && continue
  cp -L "$path" "$dir/lib/$name"
done
strip --strip-unneeded "$dir"/bin/* "$dir"/lib/*.so* 2>/dev/null || true

tar -C "$stage" -czf "$output" rooftop-gpu
size=$(stat -c %s "$output")
if (( size > limit )); then
  echo "make-gpu-bundle: $output is $((size / 1024 / 1024)) MiB, over the 64 MiB limit" >&2
  exit 1
fi
echo "make-gpu-bundle: wrote $output ($((size / 1024)) KiB; $(ls "$dir/lib" | wc -l) libraries)" >&2
echo "$output"
