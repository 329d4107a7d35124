#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with AddressSanitizer and
# UndefinedBehaviorSanitizer) into build-fuzz/ and runs each, one after another, for
# SECONDS seconds (default 60), niced, from seed corpora made of the repository's own
# inputs (tests/fixtures, data/). Fails on any crash, sanitizer report, leak, input taking
# over 25 s (the ceilings reader gives the child it first reads a file in 10 s) or using
# over 2 GiB; the failing input is kept in build-fuzz/artifacts/.
# Prints the executions and coverage of each target. New inputs the fuzzer finds
# accumulate in build-fuzz/corpus/ between runs. Targets after SECONDS run only those
# (the list below: the ceilings file, the ERT import, one per profiler-import reader).
# SECONDS = 0 replays the seeds and the kept corpus once, as a regression run, without new
# inputs. Leaks inside libhdf5 itself are suppressed (fuzz/lsan.supp says why).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
all=(fuzz_ceilings_file fuzz_ert_json fuzz_ncu_csv fuzz_nvprof fuzz_ncu_text fuzz_nsys_stats
     fuzz_nsys_sqlite fuzz_pytorch_trace)
((${#targets[@]})) || targets=("${all[@]}")
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

# Seeds: the repository's own files of each format. The import targets read their first
# byte as a mode (even: a report alone, odd: a report, a form feed, then a timing file).
seeds="$build/seeds"
rm -rf "$seeds"
for target in "${all[@]}"; do mkdir -p "$seeds/$target"; done
mkdir -p "$build/artifacts"
cp "$root"/data/*.h5 "$root"/tests/fixtures/h5/*.h5 "$seeds/fuzz_ceilings_file/"
cp "$root"/data/*.json "$root"/tests/fixtures/*.json "$seeds/fuzz_ert_json/"
import="$root/tests/fixtures/import"
seed() {  # TARGET FILE [TIMING-FILE]: one seed, a report alone or with its timing file
  local out="$seeds/$1/$(basename "$2")${3:+-timed}"
  if [ -n "${3:-}" ]; then
    { printf '\1'; cat "$2"; printf '\f'; cat "$3"; } >"$out"
  else
    { printf '\0'; cat "$2"; } >"$out"
  fi
}
for f in "$import"/ncu-*.csv; do seed fuzz_ncu_csv "$f"; done
seed fuzz_ncu_csv "$import/ncu-long-gemm-a100.csv" "$import/nsys-kern-sum-llama2-70b.csv"
seed fuzz_ncu_csv "$import/ncu-raw-pascal-vectoradd.csv" "$import/nvprof-trace-vectoradd-gtx1080.csv"
for f in "$import"/nvprof-*.csv; do seed fuzz_nvprof "$f"; done
seed fuzz_nvprof "$import/nvprof-metrics-matrixmul.csv" "$import/nvprof-trace-matrixmul.csv"
seed fuzz_nvprof "$import/nvprof-metrics-interval-dp.csv" "$import/nvprof-trace-interval-dp.csv"
for f in "$import"/ncu-text-*.log; do seed fuzz_ncu_text "$f"; done
for f in "$import"/nsys-*.csv; do seed fuzz_nsys_stats "$f"; done
for f in "$import"/*.sqlite; do seed fuzz_nsys_sqlite "$f"; done
# PyTorch traces as they are (gzip) and inflated where they fit in an input.
inflated="$build/inflated"
mkdir -p "$inflated"
for f in "$import"/pytorch-*.json.gz; do
  seed fuzz_pytorch_trace "$f"
  json="$inflated/$(basename "$f" .gz)"
  gzip -dc "$f" >"$json"
  [ "$(wc -c <"$json")" -gt 65536 ] || seed fuzz_pytorch_trace "$json"
done
rm -rf "$inflated"

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
  # The ceilings target forks for every input (as the program forks for every file); the
  # fork's cost grows with this process's memory, most of it AddressSanitizer's quarantine
  # of freed memory (256 MiB by default): 16 MiB doubles the rate.
  quarantine=""
  [ "$target" = fuzz_ceilings_file ] && quarantine=":quarantine_size_mb=16"
  if ! ASAN_OPTIONS="$ASAN_OPTIONS$quarantine" nice -n 10 "$build/$target" "${budget[@]}" -timeout=25 -rss_limit_mb=2048 \
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
