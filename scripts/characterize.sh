#!/usr/bin/env bash
# The main job: set up, build, characterize this machine. Writes rooftop-ceilings.h5
# and rooftop-roofline.svg in the current directory (or where ROOFTOP_OUT_DIR says).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${ROOFTOP_OUT_DIR:-$PWD}"
"$root/scripts/build.sh"
"$root/build/app/rooftop" measure --out "$out/rooftop-ceilings.h5" --plot "$out/rooftop-roofline.svg"
