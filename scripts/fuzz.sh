#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with AddressSanitizer and
# UndefinedBehaviorSanitizer) into build-fuzz/ and runs each, one a core at a time, for
# SECONDS seconds (default 60), niced, from seed corpora made of the repository's own
# inputs (tests/fixtures, data/). Fails on any crash, sanitizer report, leak, input taking
# over 25 s or using over 2 GiB; the failing input is kept in build-fuzz/artifacts/.
# Prints the executions and coverage of each target. New inputs the fuzzer finds
# accumulate in build-fuzz/corpus/ between runs. Targets after SECONDS run only those
# (the list below: the ceilings file, the ERT import, one per profiler-import reader).
# SECONDS = 0 replays the seeds and the kept corpus once, as a regression run, without new
# inputs. `--runs N` in place of SECONDS runs each target to N executions, however long
# that takes (the long runs RELIABILITY.md records). Leaks inside libhdf5 itself are suppressed (fuzz/lsan.supp says why).
# The ceilings target reads in the fuzzing process, where libhdf5's own crashes on damaged
# files end it: it runs in libFuzzer's fork mode, and only ends whose sanitizer reports
# lie inside libhdf5 pass (libhdf5_ends below).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
runs_wanted=""
if [ "$seconds" = --runs ]; then
  runs_wanted="${1:?--runs needs a number of executions}"
  shift
fi
targets=("$@")
all=(fuzz_ceilings_file fuzz_ert_json fuzz_ncu_csv fuzz_nvprof fuzz_ncu_text fuzz_nsys_stats
     fuzz_nsys_sqlite fuzz_pytorch_trace fuzz_pytorch_metrics)
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
  target=fuzz_pytorch_trace
  case "$f" in *cupti-metrics*) target=fuzz_pytorch_metrics ;; esac  # range counters
  seed "$target" "$f"
  json="$inflated/$(basename "$f" .gz)"
  gzip -dc "$f" >"$json"
  [ "$(wc -c <"$json")" -gt 65536 ] || seed "$target" "$json"
done
rm -rf "$inflated"

# TARGET ALL: the first frame of a sanitizer report's first stack (ALL = 1: of each of
# its stacks) that is not the C or C++ runtime's nor the target's own without a source
# line (the sanitizers, their interceptors of malloc or memcpy, libFuzzer): rooftop's
# code, built with line tables, or a library's. A stack of none of those prints nothing.
own_frames() {
  awk -v own="$1+0x" -v all="$2" '
    /^ *#[0-9]+ 0x/ {
      in_stack = 1
      if (!taken && !index($0, own) && $0 !~ /libc\.so|sysdeps|libstdc\+\+|libgcc_s/) {
        print
        taken = 1
      }
      next
    }
    in_stack { in_stack = 0; taken = 0; if (!all) exit }'
}

# TARGET MARKER REPORTS: the ends of TARGET's fuzzing processes since MARKER was made.
# Each end left an input in artifacts/ and a sanitizer's report in REPORTS: an error (a
# memory error, a crash, a leak), judged by its first stack, the one that did it (the
# others say whose the memory was); or libFuzzer's stack of a time-out or of a huge
# malloc, or the live allocations of an exhausted process, judged by every stack. Each
# such stack's first own frame must be libhdf5's, and there must be a report for every
# input. Reports of nothing but warnings (a refused allocation) are not ends.
libhdf5_ends() {
  local target=$1 marker=$2 reports=$3 inputs ok=0 bad=0 report all frames
  inputs=$(find "$build/artifacts" -name "$target-*" -newer "$marker" | wc -l)
  for report in "$reports"/*; do
    [ -e "$report" ] && grep -q '^ *#[0-9]* 0x' "$report" || continue
    all=1
    grep -q 'ERROR: ' "$report" && all=0
    frames=$(own_frames "$target" "$all" <"$report")
    if [ -n "$frames" ] && ! grep -qv libhdf5 <<<"$frames"; then
      ok=$((ok + 1))
    else
      echo "fuzz: $target: an end outside libhdf5: ${frames:-no stack of its own} ($report)" >&2
      bad=$((bad + 1))
    fi
  done
  if ((ok + bad < inputs)); then
    echo "fuzz: $target: $inputs inputs ended a fuzzing process, $((ok + bad)) with a report" >&2
    bad=$((bad + 1))
  fi
  echo "fuzz: $target: $inputs inputs ended a fuzzing process; $ok reports inside libhdf5," \
       "$bad otherwise" >&2
  ((bad == 0))
}

# fuzz_one TARGET: fuzzes TARGET; its verdict in $build/TARGET.status (0: passed).
fuzz_one() {
  local target=$1 corpus log budget max_len mode reports report_to marker ended runs cov
  corpus="$build/corpus/$target"
  log="$build/$target.log"
  echo 1 >"$build/$target.status"
  mkdir -p "$corpus"
  if [ -n "$runs_wanted" ]; then
    echo "fuzz: $target to $runs_wanted executions" >&2
    budget=(-runs="$runs_wanted")
  else
    echo "fuzz: $target for ${seconds}s" >&2
    budget=(-max_total_time="$seconds")
    [ "$seconds" = 0 ] && budget=(-runs=0)
  fi
  # The SQLite seeds are about 200 KB; every other input fits in 64 KiB.
  max_len=65536
  [ "$target" = fuzz_nsys_sqlite ] && max_len=262144
  # libhdf5's own crashes end the ceilings target's fuzzing process: fork mode goes on after
  # them, and libhdf5_ends looks at each below.
  # The sanitizers' reports go to files, one per fuzzing process, whatever the process.
  mode=()
  reports="$build/reports/$target"
  report_to=()
  if [ "$target" = fuzz_ceilings_file ]; then
    mode=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
    rm -rf "$reports"
    mkdir -p "$reports"
    report_to=("ASAN_OPTIONS=$ASAN_OPTIONS:log_path=$reports/asan"
               "UBSAN_OPTIONS=print_stacktrace=1:log_path=$reports/ubsan")
  fi
  marker="$build/$target.started"
  touch "$marker"
  ended=0
  env "${report_to[@]}" nice -n 10 "$build/$target" "${budget[@]}" "${mode[@]}" -timeout=25 -rss_limit_mb=2048 \
       -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
       "$corpus" "$seeds/$target" >"$log" 2>&1 && ended=1
  # Fork mode exits with its last job's status, a libhdf5 crash as likely as not: there
  # the run ended when the fuzzer says it exits, and libhdf5_ends judges the crashes.
  ((${#mode[@]})) && grep -q '^INFO: exiting: ' "$log" && ended=1
  if ((!ended)) || { ((${#mode[@]})) && ! libhdf5_ends "$target" "$marker" "$reports"; }; then
    echo "fuzz: $target FAILED (see $log and $build/artifacts/)" >&2
    tail -n 30 "$log" >&2
    return
  fi
  # Executions: the final statistics, or in fork mode the last line of progress.
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' ||
         grep -Eo '^#[0-9]+: cov' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  cov=$(grep -Eo '((DONE|pulse|NEW|REDUCE|INITED) +|^#[0-9]+: )cov: [0-9]+ ft: [0-9]+' "$log" |
        tail -1 | grep -Eo 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "fuzz: $target ok: ${runs:-?} executions, ${cov:-no coverage line}, corpus $(ls "$corpus" | wc -l) inputs" >&2
  echo 0 >"$build/$target.status"
}

# One target a core at a time: each fuzzing process is single-threaded.
for target in "${targets[@]}"; do
  while (($(jobs -pr | wc -l) >= $(nproc))); do wait -n || true; done
  fuzz_one "$target" &
done
wait
status=0
for target in "${targets[@]}"; do
  [ "$(cat "$build/$target.status" 2>/dev/null)" = 0 ] || status=1
done
exit "$status"
