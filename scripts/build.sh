#!/usr/bin/env bash
# Configures and builds the host build (Kokkos OpenMP) in build/ after installing
# what is missing. Extra arguments go to cmake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kokkos_root="$("$root/scripts/install-deps.sh" | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$root/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DKokkos_ROOT="$kokkos_root" "$@" >&2
cmake --build "$root/build" --parallel "$(nproc)" >&2
