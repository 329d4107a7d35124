#!/usr/bin/env bash
# Set up, build and run the whole test suite (no GPU needed). The build has MPI
# (install-deps.sh --tests installs Open MPI), so the fleet tests run too: 2 and 3 ranks of
# mpirun on this machine, as root where CI runs them (they allow it themselves); and the
# HTML report's tests in headless Chromium (label browser).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" --tests -DROOFTOP_WITH_MPI=ON
if ! grep -q "define ROOFTOP_HAS_MPI 1" "$root/build/generated/rooftop/config.hpp"; then
  echo "test.sh: the build found no MPI (Debian: libopenmpi-dev openmpi-bin), so the fleet" \
       "tests would not run" >&2
  exit 1
fi
# install-deps.sh installed Chromium, Debian's PyTorch and NVIDIA's Nsight tools (ncu on
# PATH, nsys unpacked into its folder, put on PATH here): the browser tests and those of
# profile --torch and of Nsight's report files must run here, not skip. On every core: the
# suites that load the machine (e2e, mpi) run alone (RUN_SERIAL).
nsys_bin="${ROOFTOP_DEPS_DIR:-$HOME/.cache/rooftop}/nsight-systems/bin"
PATH="$nsys_bin:$PATH" ROOFTOP_REQUIRE_BROWSER=1 ROOFTOP_REQUIRE_TORCH=1 ROOFTOP_REQUIRE_NSIGHT=1 \
  ctest --test-dir "$root/build" --output-on-failure --parallel "$(nproc)" "$@"
