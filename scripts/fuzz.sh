#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with AddressSanitizer and
# UndefinedBehaviorSanitizer) into build-fuzz/ and runs each, one after another, for
# SECONDS seconds (default 60), niced, from seed corpora made of the repository's own
# inputs (tests/fixtures, data/). Fails on any crash, sanitizer report, leak, input taking
# over 25 s (the ceilings reader gives the child it first reads a file in 10 s) or using
# over 2 GiB; the failing input is kept in build-fuzz/artifacts/.
# Prints the executions and coverage of each target. New inputs the fuzzer finds
# accumulate in build-fuzz/corpus/ between runs. Targets after SECONDS run only those
# (fuzz_ceilings_file, fuzz_profiler_csv, fuzz_nsys_sqlite, fuzz_ert_json). SECONDS = 0 replays the seeds
# and the kept corpus once, as a regression run, without new inputs. Leaks inside libhdf5 itself are
# suppressed (fuzz/lsan.supp says why).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_ceilings_file fuzz_profiler_csv fuzz_nsys_sqlite fuzz_ert_json)
build="$root/build-fuzz"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:print_suppressions=0"
# A damaged file can make libhdf5 ask for an absurd amount of memory, which malloc refuses
# (and libhdf5 reports as an error); AddressSanitizer would abort there instead.
export ASAN_OPTIONS="allocator_may_return_null=1"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root/fuzz" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --parallel 2 >/dev/null

# Seeds: the files as they are; the text target reads its first byte as a mode (even:
# a report alone, odd: a report, a form feed, then a timing file). Its seeds are every
# text format: CSV, Nsight Compute's plain-text logs and the PyTorch traces inflated.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_ceilings_file,fuzz_profiler_csv,fuzz_nsys_sqlite,fuzz_ert_json} "$build/artifacts"
cp "$root"/data/*.h5 "$root"/tests/fixtures/h5/*.h5 "$seeds/fuzz_ceilings_file/"
cp "$root"/data/*.json "$root"/tests/fixtures/*.json "$seeds/fuzz_ert_json/"
for f in "$root"/tests/fixtures/import/*.csv "$root"/tests/fixtures/import/*.log; do
  { printf '\0'; cat "$f"; } >"$seeds/fuzz_profiler_csv/$(basename "$f")"
done
# The PyTorch traces inflated, where they fit in an input: the JSON reader on plain text.
for f in "$root"/tests/fixtures/import/*.json.gz; do
  seed="$seeds/fuzz_profiler_csv/$(basename "$f" .gz)"
  { printf '\0'; gzip -dc "$f"; } >"$seed"
  [ "$(wc -c <"$seed")" -le 65536 ] || rm "$seed"
done
{ printf '\1'; cat "$root/tests/fixtures/import/nvprof-metrics.csv"; printf '\f'
  cat "$root/tests/fixtures/import/nvprof-trace.csv"; } >"$seeds/fuzz_profiler_csv/with-trace"
# The binary import formats, as they are: Nsight Systems exports and gzip traces.
cp "$root"/tests/fixtures/import/*.sqlite "$root"/tests/fixtures/import/*.json.gz \
   "$seeds/fuzz_nsys_sqlite/"

status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  log="$build/$target.log"
  mkdir -p "$corpus"
  echo "fuzz: $target for ${seconds}s" >&2
  budget=(-max_total_time="$seconds")
  [ "$seconds" = 0 ] && budget=(-runs=0)
  # The SQLite seeds are about 200 KB; every other input fits in 64 KiB.
  max_len=65536
  [ "$target" = fuzz_nsys_sqlite ] && max_len=262144
  if ! nice -n 10 "$build/$target" "${budget[@]}" -timeout=25 -rss_limit_mb=2048 \
       -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
       "$corpus" "$seeds/$target" >"$log" 2>&1; then
    echo "fuzz: $target FAILED (see $log and $build/artifacts/)" >&2
    tail -n 30 "$log" >&2
    status=1
    continue
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -Eo '(DONE|pulse|NEW|REDUCE|INITED) +cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 |
        grep -Eo 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "fuzz: $target ok: ${runs:-?} executions, ${cov:-no coverage line}, corpus $(ls "$corpus" | wc -l) inputs" >&2
done
exit "$status"
