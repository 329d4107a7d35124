#!/usr/bin/env bash
# Builds test programs with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ and runs them; any sanitizer report fails the run. By default the suites of
# the libraries that read untrusted input and hold no Kokkos (core, ceilings, report,
# counters: the file, CSV and JSON readers, validation, charts); with ROOFTOP_SANITIZE_ALL=1
# every suite through ctest (extra arguments go to ctest). The fleet's mpirun tests are
# left out (Open MPI's own allocations are reported as leaks), and so are leaks inside
# libhdf5 itself (fuzz/lsan.supp).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kokkos_root="$("$root/scripts/install-deps.sh" | tail -1)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# -O1 -g1 (line tables only): the sanitizers need no more to report with file and line, and
# the build takes far less time than at -O2 with full debug information.
cmake -S "$root" -B "$root/build-asan" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
      -DKokkos_ROOT="$kokkos_root" -DROOFTOP_BUILD_TESTS=ON -DROOFTOP_WITH_MPI=OFF \
      -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_C_FLAGS="$sanitize" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >&2
suites=(test_core test_ceilings test_report test_import)
targets=()
[ "${ROOFTOP_SANITIZE_ALL:-0}" = 1 ] || targets=(--target "${suites[@]}")
cmake --build "$root/build-asan" --parallel "${ROOFTOP_JOBS:-$(nproc)}" "${targets[@]}" >&2
# halt_on_error: the first report fails the test that produced it.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:print_suppressions=0"  # libhdf5's own
if [ "${ROOFTOP_SANITIZE_ALL:-0}" = 1 ]; then
  ctest --test-dir "$root/build-asan" --output-on-failure "$@"
else
  for suite in "${suites[@]}"; do
    echo "test-sanitizers: $suite" >&2
    (cd "$root/build-asan/tests" && "./$suite" --gtest_brief=1)
  done
fi
