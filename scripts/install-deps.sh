#!/usr/bin/env bash
# Installs what rooftop needs on Debian 12 (and derivatives), then Kokkos through
# scripts/bootstrap-kokkos.sh. Safe to rerun: only missing pieces are installed. Prints
# the Kokkos install prefix as its last line.
#
#   scripts/install-deps.sh [--tests] [bootstrap-kokkos.sh args...]
#
# Without --tests, only what building and running the rooftop program takes (compilers,
# CMake and Ninja, HDF5, CLI11, nlohmann-json, SQLite and zlib for the import): the main
# job installs no more. --tests adds what the test suites and CI use: GoogleTest, h5dump,
# Python with h5py, likwid (benchmarks), Open MPI (the fleet mode, so that its tests run),
# clang with its sanitizer and libFuzzer runtimes (scripts/fuzz.sh), headless Chromium
# and its WebDriver (the HTML report's browser tests), dpkg-dev (scripts/fetch-nvdisasm.sh),
# and Debian's PyTorch with OpenBLAS behind its BLAS (`profile --torch`'s tests;
# python3-torch is 1.13, CPU only, and runs as /usr/bin/python3, whatever python3 comes
# first on PATH; libopenblas0-pthread takes the libblas.so.3 alternative from the
# reference BLAS, which runs a GEMM tens of times slower).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

packages=(build-essential cmake ninja-build git pkg-config
          libhdf5-dev libcli11-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev)
# The main job's set without Debian's recommended extras; the test set as Debian
# recommends it (Chromium's fonts, Open MPI's launchers).
apt_options=(--no-install-recommends)
if [[ "${1:-}" == --tests ]]; then
  shift
  apt_options=()
  packages+=(libgtest-dev hdf5-tools python3 python3-h5py likwid dpkg-dev xz-utils
             libopenmpi-dev openmpi-bin clang libclang-rt-14-dev chromium chromium-driver
             python3-torch libopenblas0-pthread)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${apt_options[@]}" \
    "${missing[@]}" >&2
fi

"$here/bootstrap-kokkos.sh" "$@"
