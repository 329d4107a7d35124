#!/usr/bin/env bash
# On a GPU machine (CUDA 13 driver and toolkit, ncu; no network needed), from an
# unpacked bundle of scripts/make-gpu-bundle.sh: the device tests, `measure --space
# device` three times, `analyze` of the reference kernels with CUPTI counts, the same
# kernels under Nsight Compute and imported, and `profile` of a Kokkos program through
# the connector. Every file and a summary go to one folder: $OUT if set, else
# ./rooftop-gpu-results. A step that fails is recorded in the summary; the others run.
#   ./run-gpu.sh [--quick]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$PWD/rooftop-gpu-results}"
quick=()
[[ "${1:-}" == "--quick" ]] && quick=(--quick)
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"

cuda="${CUDA_HOME:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$here/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$cuda/bin:$PATH"
rooftop="$here/bin/rooftop"

note() { echo "$*" | tee -a "$summary"; }
# step NAME COMMAND...: runs with stdout and stderr in $out/NAME.log, times it, records
# the exit status in the summary.
step() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "== $name: $*" >&2
  "$@" > "$out/$name.log" 2>&1
  local rc=$?
  note "$(printf '%-22s exit %3d  %4ds  %s' "$name" "$rc" "$((SECONDS - t0))" "$*")"
  return $rc
}

note "rooftop GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)"
note "bundle: $(cat "$here/VERSION" 2>/dev/null || echo unknown)"
command -v nvidia-smi >/dev/null && nvidia-smi > "$out/nvidia-smi.txt" 2>&1
command -v nvidia-smi >/dev/null && nvidia-smi -q > "$out/nvidia-smi-q.txt" 2>&1
step ldd ldd "$rooftop"

# 1. Device tests (gtest: every device kernel with its check, the fusion probe, the
#    clock probe, device properties).
step device-tests "$here/bin/test_device" --gtest_output="xml:$out/device-tests.xml"

# 2. The device ceilings, three times (spread between runs is part of the result).
for i in 1 2 3; do
  step "measure-$i" "$rooftop" measure --space device "${quick[@]}" \
       --out "$out/gpu-$i.h5" --plot "$out/gpu-$i.svg" &&
    "$rooftop" show "$out/gpu-$i.h5" --json > "$out/gpu-$i.json" 2>> "$out/measure-$i.log"
done
ceilings="$out/gpu-1.h5"
[[ -f "$ceilings" ]] || ceilings="$(ls "$out"/gpu-*.h5 2>/dev/null | head -1)"
if [[ -n "$ceilings" ]]; then
  step compare "$rooftop" compare "$out"/gpu-*.h5 --plot "$out/compare.svg"
  # 3. Reference kernels counted by CUPTI.
  kernels=(--kernels gpp,triad,polynomial,stencil --size classic)
  step analyze-cupti "$rooftop" analyze --ceilings "$ceilings" "${kernels[@]}" \
       --out "$out/analyze-cupti.h5" --plot "$out/analyze-cupti.svg" --json
  # 4. The same kernels under Nsight Compute (declared counts inside rooftop, since ncu
  #    and CUPTI's profiler cannot share a process), then imported onto the ceilings.
  if command -v ncu >/dev/null; then
    metrics="gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum"
    for p in d f h; do
      for op in add mul fma; do
        metrics+=",sm__sass_thread_inst_executed_op_${p}${op}_pred_on.sum"
      done
    done
    # The first launch of every kernel (analyze launches each one many times); if this
    # ncu does not take that filter, the first 200 launches.
    under_ncu=("$rooftop" analyze --ceilings "$ceilings" "${kernels[@]}" --no-cupti
               --out "$out/analyze-under-ncu.h5")
    step ncu ncu --csv --page raw --metrics "$metrics" --kernel-id "::regex:.*:1" \
         --log-file "$out/ncu.csv" "${under_ncu[@]}" ||
      step ncu-first-200 ncu --csv --page raw --metrics "$metrics" --launch-count 200 \
           --log-file "$out/ncu.csv" "${under_ncu[@]}"
    step ncu-import "$rooftop" import "$out/ncu.csv" --ceilings "$ceilings" \
         --out "$out/ncu-import.h5" --plot "$out/ncu-import.svg" --json
  else
    note "ncu: not found on PATH (skipped)"
  fi
  # 5. An unmodified Kokkos program through the connector.
  step profile "$rooftop" profile --ceilings "$ceilings" --out "$out/profile.h5" \
       --plot "$out/profile.svg" --json -- "$here/bin/connector_app"
  step show "$rooftop" show "$ceilings"
else
  note "no device ceilings were written: analyze, ncu and profile skipped (see measure-1.log)"
fi
# The ceilings of every run, for the summary.
for f in "$out"/gpu-*.h5; do
  [[ -f "$f" ]] && { echo; echo "== $f"; "$rooftop" show "$f"; } >> "$summary" 2>&1
done
echo "results in $out" >&2
