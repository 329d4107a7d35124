#!/usr/bin/env bash
# Configures and builds the host build (Kokkos OpenMP) in build/ after installing what
# is missing.
#
#   scripts/build.sh [--tests] [--target T ...] [cmake args...]
#
# --tests: the test suites too, with what they need installed (install-deps.sh --tests).
# Without it, a new build/ is configured without them (GoogleTest need not be installed);
# one that has them keeps them. Each --target builds that target alone (default: all);
# the other arguments go to cmake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps=()
targets=()
cmake_args=()
while (($#)); do
  case $1 in
    --tests) deps=(--tests); cmake_args+=(-DROOFTOP_BUILD_TESTS=ON) ;;
    --target) (($# >= 2)) || { echo "build.sh: --target needs a target" >&2; exit 2; }
              targets+=(--target "$2"); shift ;;
    *) cmake_args+=("$1") ;;
  esac
  shift
done
if ((${#deps[@]} == 0)) && [[ ! -f "$root/build/CMakeCache.txt" ]]; then
  cmake_args=(-DROOFTOP_BUILD_TESTS=OFF "${cmake_args[@]}")
fi
kokkos_root="$("$root/scripts/install-deps.sh" "${deps[@]}" | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$root/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" "${cmake_args[@]}" >&2
cmake --build "$root/build" --parallel "$(nproc)" "${targets[@]}" >&2
