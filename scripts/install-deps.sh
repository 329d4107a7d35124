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
# reference BLAS, which runs a GEMM tens of times slower), and NVIDIA's Nsight tools from
# Debian's non-free component, for the import of their own report files (no GPU needed):
# the non-free component is added to the machine's Debian sources where it is missing and
# nsight-compute (ncu, 2022.3) is installed; nsight-systems (nsys, 2022.4) would bring the
# NVIDIA driver's libcuda1 with it, so it is unpacked instead, by scripts/fetch-nsys.sh,
# into $ROOFTOP_DEPS_DIR/nsight-systems (default ~/.cache/rooftop), where scripts/test.sh
# puts it on PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
deps_dir=${ROOFTOP_DEPS_DIR:-$HOME/.cache/rooftop}
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"

# Adds Debian's non-free component to the machine's Debian entries that lack it: deb822
# stanzas (*.sources) whose URIs end in debian or debian-security, and one-line `deb`
# entries of those. non-free-firmware is another component and does not count.
enable_non_free() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    $sudo perl -0777 -i -pe '$_ = join("\n\n", map {
        (m{^URIs:.*/debian(-security)?/?\s*$}m && /^Components:/m &&
         !/^Components:.*\snon-free(\s|$)/m) ? s/^(Components:.*?)\s*$/$1 non-free/mr : $_
      } split(/\n\n/, $_, -1))' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    $sudo perl -i -pe 's/\s*$/ non-free\n/ if /^deb\s/ && m{\s\S+/debian(-security)?/?\s} &&
                                            !/\snon-free(\s|$)/' "$f"
  done
}

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
             python3-torch libopenblas0-pthread nsight-compute)
  tests=1
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ " ${missing[*]} " == *" nsight-compute "* ]]; then
    echo "install-deps: adding Debian's non-free component (NVIDIA's Nsight tools)" >&2
    enable_non_free
  fi
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${apt_options[@]}" \
    "${missing[@]}" >&2
fi
if [[ -n "${tests:-}" ]]; then
  "$here/fetch-nsys.sh" "$deps_dir/nsight-systems" >/dev/null
fi

"$here/bootstrap-kokkos.sh" "$@"
