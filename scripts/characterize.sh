#!/usr/bin/env bash
# The main job: set up, build, characterize this machine, then run the GPP optimization
# ladder on it. Writes, in the current directory (or where ROOFTOP_OUT_DIR says):
#   rooftop-ceilings.h5, rooftop-roofline.svg   the measured ceilings and their chart
#   rooftop-gpp.h5, rooftop-gpp.svg             the ladder on those ceilings
# and prints both tables.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${ROOFTOP_OUT_DIR:-$PWD}"
"$root/scripts/build.sh"
rooftop="$root/build/app/rooftop"
"$rooftop" measure --out "$out/rooftop-ceilings.h5" --plot "$out/rooftop-roofline.svg"
echo
"$rooftop" analyze --ceilings "$out/rooftop-ceilings.h5" --kernels gpp \
  --out "$out/rooftop-gpp.h5" --plot "$out/rooftop-gpp.svg"
