#!/usr/bin/env bash
# Installs what rooftop needs on Debian 12 (and derivatives): compilers and CMake,
# HDF5, CLI11, GoogleTest, nlohmann-json, SQLite and zlib (the import), h5dump, likwid
# (benchmarks only), headless Chromium and its WebDriver (the HTML report's browser
# tests and scripts/report-screenshot.py), Open MPI (the fleet mode; optional for a build, installed so that its
# tests run), clang with its
# sanitizer and libFuzzer runtimes (scripts/fuzz.sh), then
# Kokkos through scripts/bootstrap-kokkos.sh. Safe to rerun: only missing pieces
# are installed. Prints the Kokkos install prefix as its last line.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

packages=(build-essential cmake ninja-build git pkg-config
          libhdf5-dev hdf5-tools libcli11-dev libgtest-dev nlohmann-json3-dev
          libsqlite3-dev zlib1g-dev
          likwid python3 python3-h5py dpkg-dev xz-utils libopenmpi-dev openmpi-bin
          clang libclang-rt-14-dev chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

"$here/bootstrap-kokkos.sh" "$@"
