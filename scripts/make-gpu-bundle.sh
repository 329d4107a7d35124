#!/usr/bin/env bash
# Packs the CUDA build into a self-contained bundle for a GPU machine without network:
# the rooftop program, the Kokkos Tools connector, the device tests, connector_app,
# scripts/run-gpu.sh, and the shared libraries they load that a machine with only the
# NVIDIA driver and CUDA Toolkit lacks (HDF5 and its dependencies, the C++ and OpenMP
# runtimes). The driver, the CUDA runtime, CUPTI and the C library are the GPU
# machine's own. Builds build-gpu-bundle/ (the CUDA build without MPI, so no MPI
# library has to travel) unless it is already built.
#   scripts/make-gpu-bundle.sh [OUTPUT.tar.gz]   (default: rooftop-gpu-bundle.tar.gz)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
output="$(realpath -m "${1:-rooftop-gpu-bundle.tar.gz}")"
build="$root/build-gpu-bundle"
limit=$((64 * 1024 * 1024))

command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || { echo "make-gpu-bundle: nvcc not found (install the CUDA Toolkit)" >&2; exit 1; }
"$root/scripts/install-deps.sh" >/dev/null
kokkos_root="$("$root/scripts/bootstrap-kokkos.sh" --cuda | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" -DCMAKE_CXX_COMPILER="$kokkos_root/bin/nvcc_wrapper" \
      -DROOFTOP_DEVICE_TESTS=ON -DROOFTOP_WITH_MPI=OFF -DROOFTOP_HOST_ARCH=x86-64-v3 >&2
cmake --build "$build" --parallel "$(nproc)" --target rooftop rooftop_kokkos_connector \
      test_device connector_app >&2

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/rooftop-gpu"
mkdir -p "$dir/bin" "$dir/lib"
cp "$build/app/rooftop" "$build/tests/test_device" "$build/tests/connector_app" "$dir/bin/"
cp "$build/analyze/librooftop_kokkos_connector.so" "$dir/lib/"
cp "$root/scripts/run-gpu.sh" "$dir/"
echo "rooftop $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)," \
     "CUDA build for $(grep -o 'device kernels for sm_[0-9,_sm]*' "$build/CMakeCache.txt" 2>/dev/null || true)" \
     "$(date -u +%Y-%m-%d)" > "$dir/VERSION"

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
