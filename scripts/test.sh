#!/usr/bin/env bash
# Set up, build and run the whole test suite (no GPU needed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" -DROOFTOP_BUILD_TESTS=ON
ctest --test-dir "$root/build" --output-on-failure "$@"
