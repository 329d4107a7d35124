#!/usr/bin/env bash
# The main job: set up, build, characterize this machine, then run the GPP optimization
# ladder on it. On a machine with a usable NVIDIA GPU and the CUDA Toolkit, the CUDA
# build is made and the GPU is characterized (--space device); elsewhere the CPU. Only
# what it runs is installed and built (target rooftop_programs: the program, the Kokkos
# Tools connector, the CUDA injection library where the build has one); the tests are
# scripts/test.sh's.
# Writes, in the current directory (or where ROOFTOP_OUT_DIR says):
#   rooftop-ceilings.h5, rooftop-roofline.svg   the measured ceilings and their chart
#   rooftop-gpp.h5, rooftop-gpp.svg             the ladder on those ceilings
# and prints both tables.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${ROOFTOP_OUT_DIR:-$PWD}"
mkdir -p "$out"  # a folder named for the results is made, as the writers expect it to exist
command -v nvcc >/dev/null || export PATH="$PATH:/usr/local/cuda/bin"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null; then
  "$root/scripts/build.sh" --cuda --target rooftop_programs
  rooftop="$root/build-cuda/app/rooftop"
  space=device
else
  "$root/scripts/build.sh" --target rooftop_programs
  rooftop="$root/build/app/rooftop"
  space=host
fi
"$rooftop" measure --space "$space" --out "$out/rooftop-ceilings.h5" \
  --plot "$out/rooftop-roofline.svg"
echo
"$rooftop" analyze --ceilings "$out/rooftop-ceilings.h5" --kernels gpp \
  --out "$out/rooftop-gpp.h5" --plot "$out/rooftop-gpp.svg"
