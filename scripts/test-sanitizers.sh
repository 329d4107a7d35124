#!/usr/bin/env bash
# Builds every test suite with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ and runs them through ctest (extra arguments go to ctest, e.g. -L unit); any
# sanitizer report fails the test that produced it. MPI is off: Open MPI's own
# allocations are reported as leaks, so the fleet's mpirun tests are left out; so are
# leaks inside libhdf5 itself (fuzz/lsan.supp).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kokkos_root="$("$root/scripts/install-deps.sh" --tests | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# CUPTI off: libcupti opens NVIDIA's libnvperf_host with RTLD_DEEPBIND, which the sanitizer
# runtime refuses (every test that loads it would abort).
# -O1 -g1 (line tables only): enough for reports with file and line, and a much shorter
# build than -O2 with full debug information (CI builds this after the normal build).
# No benchmark programs: no test runs them, and the normal build compiles them.
cmake -S "$root" -B "$root/build-asan" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
      -DKokkos_ROOT="$kokkos_root" -DROOFTOP_BUILD_TESTS=ON -DROOFTOP_BUILD_BENCHMARKS=OFF \
      -DROOFTOP_WITH_MPI=OFF -DROOFTOP_WITH_CUPTI=OFF \
      -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_C_FLAGS="$sanitize" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >&2
cmake --build "$root/build-asan" --parallel "${ROOFTOP_JOBS:-$(nproc)}" >&2
# halt_on_error: the first report fails the test that produced it. The programs the
# CLI and connector tests start (rooftop, connector_app) are built the same way and
# inherit these settings.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:print_suppressions=0"  # libhdf5's own
# Every core; the suites that load the machine (e2e) run alone (RUN_SERIAL). `measure
# --quick` bounds its DRAM working sets, so the e2e characterizations run here too.
ctest --test-dir "$root/build-asan" --output-on-failure --parallel "$(nproc)" "$@"
