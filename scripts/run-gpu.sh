#!/usr/bin/env bash
# On a GPU machine (the NVIDIA driver; ncu for the Nsight Compute step; no network or
# CUDA Toolkit needed), from an unpacked bundle of scripts/make-gpu-bundle.sh: first
# what the machine is (driver, the CUDA version it supports against the bundle's, GPU,
# clocks, MIG, counter permission, what every shipped binary loads), then the device
# tests, `measure --space device`, `analyze` of the reference kernels with CUPTI counts,
# the same kernels under Nsight Compute and imported, `profile` of a Kokkos program
# through the connector, then `measure` twice more where time is left (the spread
# between runs is part of the result). Every step has its own time limit, and a step
# starts only if its limit fits in what is left of the run's budget (--budget, 540 s:
# one 10-minute call with a margin), so the run ends in time however the steps go; a
# step that fails, times out or does not fit is recorded in the summary and the others
# run. Every file and the summary go to one folder: $OUT if set, else
# ./rooftop-gpu-results. A step cut short loses only its own output: the summary line of
# every step is written as it ends, and rooftop writes its files under a temporary name
# and renames them only when complete.
#
# --peers runs, in a second call, the other tools' benchmarks the bundle carries in
# peers/ (make-gpu-bundle.sh --peers), each with no arguments under its own time limit,
# right after one `measure --space device`, so that rooftop and its peers meet the GPU in
# the same state; their output is in peer-NAME.log beside the ceilings.
#   ./run-gpu.sh [--quick] [--peers] [--budget SECONDS]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$PWD/rooftop-gpu-results}"
usage="usage: run-gpu.sh [--quick] [--peers] [--budget SECONDS]"
quick=()
peers=0
budget=540
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=(--quick); shift ;;
    --peers) peers=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    --budget) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "run-gpu.sh: --budget needs seconds ($usage)" >&2
                                              exit 2; }
              budget=$2; shift 2 ;;
    *) echo "run-gpu.sh: unknown argument '$1' ($usage)" >&2
       exit 2 ;;
  esac
done
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"

# Time limits in seconds, one per step (a step that runs past its limit gets SIGTERM,
# SIGKILL 5 s later). measure is all or nothing (a measure stopped writes no file), and
# everything after it needs its ceilings: the first gets twice the expected time (the
# device ceilings, then the costs, access, transfer, launch and tensor sweeps); the
# repeats get 1.5 x the first's time + 10 s, at most the same. The first run through
# (the machine checks, then each step to its limit) is 510 s plus the checks: inside
# the 540 s budget, 60 s under 10 minutes; the repeats run in the time the others leave.
declare -A limit=(
  [device-tests]=60
  [counts-device]=40
  [measure]=120
  [compare]=10
  [analyze-cupti]=85
  [ncu]=110
  [ncu-import]=10
  [profile]=40
  [show]=10
  [peer]=90             # each of the peers (--peers)
)
kill_after=5

# The bundle's libraries first: its CUDA runtime, CUPTI, and the nvperf libraries that
# libcupti opens by bare name (dlopen searches LD_LIBRARY_PATH, so it finds the shipped
# ones). The machine's own toolkit, if any, only after them.
cuda="${CUDA_HOME:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$cuda/lib64:$cuda/extras/CUPTI/lib64"
export PATH="$PATH:$cuda/bin"
rooftop="$here/bin/rooftop"

note() { echo "$*" | tee -a "$summary"; }
field() { printf '%-12s %s' "$1" "$2"; }

# left: seconds of the budget still unspent.
left() { echo $((budget - SECONDS)); }

# step NAME COMMAND...: runs COMMAND under its time limit (limit[NAME], or
# limit[NAME without -N]) with stdout and stderr in $out/NAME.log; records the exit
# status, the time and the limit in the summary, as each step ends (a run cut short keeps
# the steps it finished). A step whose limit does not fit in what is left of the budget
# is not started (status 3, SKIPPED). step_secs: how long the last step ran.
step_secs=0
step() {
  local name="$1"; shift
  local secs="${limit[$name]:-${limit[${name%-[0-9]}]:-60}}"
  step_secs=0
  if (( secs + kill_after > $(left) )); then
    note "$(printf '%-16s %5s %6s %6d  SKIPPED: %ds of the %ds budget left' "$name" - - "$secs" \
                   "$(left)" "$budget")"
    return 3
  fi
  local t0=$SECONDS
  echo "== $name (limit ${secs}s): $*" >&2
  timeout -k "$kill_after" "$secs" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  step_secs=$((SECONDS - t0))
  local what=""
  (( rc == 124 || rc == 137 )) && what="TIMED OUT"
  (( rc != 0 )) && [[ -z "$what" ]] && what="FAILED"
  note "$(printf '%-16s %5d %6d %6d  %s' "$name" "$rc" "$step_secs" "$secs" "$what")"
  return $rc
}
# shown FILE [ARGS]: `rooftop show`, briefly, only while the budget lasts.
shown() {
  (( $(left) > 10 )) && timeout -k 2 8 "$rooftop" show "$@"
}
# smi ARGS...: nvidia-smi with a short time limit (a wedged driver hangs it); after one
# timeout the driver is taken as wedged and nvidia-smi is not asked again.
smi_wedged=0
smi() {
  (( smi_wedged )) && return 1
  timeout -k 5 15 nvidia-smi "$@" 2>/dev/null
  local rc=$?
  (( rc == 124 || rc == 137 )) && smi_wedged=1
  return $rc
}

# --- The machine ----------------------------------------------------------------------
note "rooftop GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)"
note "$(field bundle: "$(head -1 "$here/VERSION" 2>/dev/null || echo unknown)")"
built_cuda="$(awk '$1 == "cuda_toolkit" {print $2}' "$here/VERSION" 2>/dev/null)"
built_arch="$(awk '$1 == "cuda_arch" {print $2}' "$here/VERSION" 2>/dev/null)"
note "$(field built: "CUDA Toolkit ${built_cuda:-unknown}, sm_${built_arch:-unknown}")"

if command -v nvidia-smi >/dev/null; then
  smi > "$out/nvidia-smi.txt"
  smi -q > "$out/nvidia-smi-q.txt"
  driver="$(smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  driver_cuda="$(awk -F': *' '/CUDA Version/ {print $2; exit}' "$out/nvidia-smi-q.txt")"
  [[ -n "$driver_cuda" ]] ||
    driver_cuda="$(grep -o 'CUDA Version: *[0-9.]*' "$out/nvidia-smi.txt" | grep -o '[0-9.]*$')"
  check=""
  if [[ -n "$driver_cuda" && -n "$built_cuda" ]]; then
    # Compare major.minor: a driver for an older CUDA runs a newer minor release only
    # through minor-version compatibility (no PTX JIT), and CUPTI may refuse it.
    read -r dmaj dmin _ <<< "${driver_cuda//./ } 0 0"
    read -r bmaj bmin _ <<< "${built_cuda//./ } 0 0"
    if (( dmaj < bmaj )); then
      check="; TOO OLD for the bundle's CUDA $built_cuda: nothing on the GPU will run"
    elif (( dmaj == bmaj && dmin < bmin )); then
      check="; older than the bundle's CUDA $built_cuda: minor-version compatibility only, CUPTI may refuse"
    else
      check="; covers the bundle's CUDA $built_cuda"
    fi
  fi
  note "$(field driver: "${driver:-unknown}, supports CUDA ${driver_cuda:-unknown}$check")"
  # One line per GPU, from one query; where this nvidia-smi refuses it (a field it does
  # not know), one query per field, and a field it does not know reads "n/a".
  gpu_fields=(index name compute_cap pci.bus_id clocks.sm clocks.max.sm clocks.mem clocks.max.mem
              mig.mode.current memory.total power.limit temperature.gpu)
  if rows="$(smi --query-gpu="$(IFS=,; echo "${gpu_fields[*]}")" --format=csv,noheader)" &&
     [[ -n "$rows" ]]; then
    while IFS= read -r row; do
      IFS=',' read -r -a values <<< "$row"
      line=""
      for k in "${!gpu_fields[@]}"; do
        v="${values[k]:-}"
        v="${v# }"
        line+="${line:+, }${gpu_fields[k]} ${v:-n/a}"
      done
      note "$(field "gpu ${values[0]:-?}:" "$line")"
    done <<< "$rows"
  else
    for i in $(smi --query-gpu=index --format=csv,noheader); do
      line=""
      for f in "${gpu_fields[@]}"; do
        v="$(smi -i "$i" --query-gpu="$f" --format=csv,noheader | head -1)"
        line+="${line:+, }$f ${v:-n/a}"
      done
      note "$(field "gpu $i:" "$line")"
    done
  fi
else
  note "$(field driver: "nvidia-smi not found: no NVIDIA driver on this machine?")"
fi

os="$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null)"
note "$(field host: "${os:-unknown OS}, $(uname -r), $(ldd --version 2>/dev/null | head -1)")"

# Counter permission: with RmProfilingAdminOnly=1 only a process with CAP_SYS_ADMIN (or,
# from driver r565, CAP_PERFMON) may read the GPU's performance counters; CUPTI and ncu
# otherwise fail with ERR_NVGPUCTRPERM. Root in a container usually lacks CAP_SYS_ADMIN.
admin_only="$(awk -F': *' '/RmProfilingAdminOnly/ {print $2}' /proc/driver/nvidia/params 2>/dev/null)"
cap_eff="$(awk '$1 == "CapEff:" {print $2}' /proc/self/status 2>/dev/null)"
admin_caps="unknown capabilities"
if [[ "$cap_eff" =~ ^[0-9a-fA-F]+$ ]]; then
  if (( (0x$cap_eff >> 21) & 1 )); then admin_caps="CAP_SYS_ADMIN"
  elif (( (0x$cap_eff >> 38) & 1 )); then admin_caps="CAP_PERFMON (enough from driver r565)"
  else admin_caps=""
  fi
fi
in_container=""
(( $(id -u) == 0 )) && in_container=" (root in a container?)"
case "$admin_only:$admin_caps" in
  1:unknown*) counters="admin only; this process's capabilities are unreadable" ;;
  1:"") counters="admin only, and this process has neither CAP_SYS_ADMIN nor CAP_PERFMON"
        counters+="$in_container: CUPTI and ncu counters will be refused" ;;
  1:*)  counters="admin only; this process has $admin_caps: allowed" ;;
  0:*)  counters="any user may read them" ;;
  *)    counters="/proc/driver/nvidia/params unreadable: unknown" ;;
esac
note "$(field counters: "RmProfilingAdminOnly=${admin_only:-?} ($counters)")"

# What every shipped binary loads: only the driver's libcuda should come from outside.
{
  for f in "$here"/bin/* "$here"/lib/*.so*; do
    echo "== ${f#"$here"/}"
    timeout 10 ldd "$f" 2>&1
  done
} > "$out/ldd.txt"
not_found="$(awk '/^== / {f = $2} /not found/ {sub(/^[ \t]+/, ""); print f ": " $0}' "$out/ldd.txt" |
             sort -u)"
libcuda="$(awk '$1 ~ /^libcuda\.so/ && $3 ~ /^\// {print $3; exit}' "$out/ldd.txt")"
if [[ -n "$not_found" ]]; then
  note "$(field libraries: "NOT FOUND: $(echo "$not_found" | tr '\n' ';' | sed 's/;$//; s/;/; /g')")"
else
  note "$(field libraries: "all resolved (libcuda from ${libcuda:-?}; details in ldd.txt)")"
fi

# Nsight Compute: on PATH, in the toolkit, or where its installer puts it.
ncu="$(command -v ncu || true)"
if [[ -z "$ncu" ]]; then
  for f in /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do  # the newest last
    [[ -x "$f" ]] && ncu="$f"
  done
fi
if [[ -n "$ncu" ]]; then
  note "$(field ncu: "$ncu, $(timeout 20 "$ncu" --version 2>/dev/null | tail -1)")"
else
  note "$(field ncu: "not found (the Nsight Compute step is skipped)")"
fi

# --- The steps: one line each in the summary -------------------------------------------
note ""
note "$(field budget: "${budget}s; the checks took ${SECONDS}s")"
note "$(printf '%-16s %5s %6s %6s' step exit secs limit)"
if (( peers )); then
  # As many peers as fit beside one measure in the budget: four at their limits, more
  # when they end sooner.
  limit[measure-peers]=${limit[measure]}
  step measure-peers "$rooftop" measure --space device "${quick[@]}" --out "$out/gpu-peers.h5" \
       --plot "$out/gpu-peers.svg" && shown "$out/gpu-peers.h5" >> "$summary" 2>&1
  ran=0
  for p in "$here"/peers/*; do
    [[ -f "$p" && -x "$p" ]] || continue
    limit[peer-$(basename "$p")]=${limit[peer]}
    step "peer-$(basename "$p")" "$p"
    ran=$((ran + 1))
  done
  (( ran )) || note "no peers in $here/peers (make-gpu-bundle.sh --peers DIR)"
  note "total ${SECONDS}s"
  echo "results in $out" >&2
  exit 0
fi
# 1. Device tests (gtest: every device kernel with its check, the fusion probe, the
#    clock probe, device properties), then the counts tests.
step device-tests "$here/bin/test_device" --gtest_output="xml:$out/device-tests.xml"
# The counts on a GPU: connector_app through the connector, and the CUPTI backend,
# against FLOPs worked out by hand (in builds with CUPTI).
if [[ -x "$here/bin/test_counts_device" ]]; then
  step counts-device env ROOFTOP_CONNECTOR_APP="$here/bin/connector_app" \
       ROOFTOP_CONNECTOR_LIBRARY="$here/lib/librooftop_kokkos_connector.so" \
       "$here/bin/test_counts_device" --gtest_output="xml:$out/counts-device.xml"
fi

# 2. The device ceilings, which every later step needs: again after a failure, not after
#    a timeout (another try would time out too).
# measure N: `measure --space device` into gpu-N.h5 (.svg, .json).
measure() {
  step "measure-$1" "$rooftop" measure --space device "${quick[@]}" \
       --out "$out/gpu-$1.h5" --plot "$out/gpu-$1.svg" || return
  shown "$out/gpu-$1.h5" --json > "$out/gpu-$1.json" 2>> "$out/measure-$1.log"
  return 0
}
ceilings=""
measured=0
first_secs=0
while (( measured < 3 )); do
  measured=$((measured + 1))
  measure "$measured"
  rc=$?
  (( rc == 0 )) && { ceilings="$out/gpu-$measured.h5"; first_secs=$step_secs; break; }
  (( rc == 124 || rc == 137 || rc == 3 )) && break
done
if [[ -n "$ceilings" ]]; then
  # 3. Reference kernels counted by CUPTI.
  kernels=(--kernels "gpp,triad,polynomial,stencil" --size classic)
  step analyze-cupti "$rooftop" analyze --ceilings "$ceilings" "${kernels[@]}" \
       --out "$out/analyze-cupti.h5" --plot "$out/analyze-cupti.svg" --json
  # 4. The same kernels under Nsight Compute (declared counts inside rooftop, since ncu
  #    and CUPTI's profiler cannot share a process), then imported onto the ceilings.
  if [[ -n "$ncu" ]]; then
    metrics="gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum"
    for p in d f h; do
      for op in add mul fma; do
        metrics+=",sm__sass_thread_inst_executed_op_${p}${op}_pred_on.sum"
      done
    done
    # One launch of each of the analyzer's kernels, in one process. With the default
    # --kernel-name-base function every Kokkos kernel is named
    # cuda_parallel_launch_local_memory, so names are matched demangled, where they carry
    # the functor: rooftop::kernels::gpp::CollapseAll (v1), CollapseTwo (v2), TeamKernel<...>
    # (v3-v9, one instantiation each), and the reference kernels' functors, named as
    # their records (rooftop::kernels::reference::triad, ::polynomial16, ::stencil7).
    # Kokkos's own fills and copies carry none of these names. The invocation number of --kernel-id counts launches per distinct
    # kernel (name, grid, block and shared memory), so :1 is the first launch of each:
    # 12 for gpp (9 versions), triad, polynomial and stencil.
    # The regex has no "::", since ':' separates the fields of --kernel-id; and
    # --rename-kernels off (where this ncu has it) matches the full demangled names, not
    # the simplified ones ncu would otherwise match against (Nsight Compute CLI, "Kernel
    # Renaming").
    # --clock-control none: ncu would otherwise lock the clocks (to base, or boost in
    # newer releases), changing the GPU's settings and giving locked-clock times against
    # ceilings measured at the clocks the GPU chose.
    # --cache-control none: ncu would otherwise flush the caches before every replay
    # pass; rooftop's CUPTI replay does not, so both count the same way (every working
    # set here is several times the L2, so DRAM bytes differ little either way).
    functors="CollapseAll|CollapseTwo|TeamKernel|reference..(triad|polynomial16|stencil7)"
    expected_kernels=12
    under_ncu=("$rooftop" analyze --ceilings "$ceilings" "${kernels[@]}" --no-cupti
               --out "$out/analyze-under-ncu.h5")
    rename=()
    [[ "$(timeout 20 "$ncu" --help 2>/dev/null)" == *"--rename-kernels "* ]] &&
      rename=(--rename-kernels off)
    step ncu "$ncu" --csv --page raw --metrics "$metrics" \
         --clock-control none --cache-control none --kernel-name-base demangled "${rename[@]}" \
         --kernel-id "::regex:rooftop..kernels...*($functors):1" \
         --log-file "$out/ncu.csv" "${under_ncu[@]}"
    if [[ -s "$out/ncu.csv" ]]; then
      profiled="$(grep -c '^"[0-9]' "$out/ncu.csv" 2>/dev/null)"
      note "$(printf '%-16s (%s profiled %s launches, %s expected)' "" ncu "${profiled:-0}" \
                                                                     "$expected_kernels")"
      step ncu-import "$rooftop" import "$out/ncu.csv" --ceilings "$ceilings" \
           --out "$out/ncu-import.h5" --plot "$out/ncu-import.svg" --json
    fi
  fi
  # 5. An unmodified Kokkos program through the connector.
  step profile "$rooftop" profile --ceilings "$ceilings" --out "$out/profile.h5" \
       --plot "$out/profile.svg" --json -- "$here/bin/connector_app"
  # 6. The repeats, in the time left, each limited by the first one's time.
  limit[measure]=$(( first_secs * 3 / 2 + 10 < limit[measure] ? first_secs * 3 / 2 + 10
                                                               : limit[measure] ))
  while (( measured < 3 )); do
    measured=$((measured + 1))
    measure "$measured"
  done
  files=("$out"/gpu-[0-9].h5)
  (( ${#files[@]} > 1 )) && step compare "$rooftop" compare "${files[@]}" --plot "$out/compare.svg"
  step show "$rooftop" show "$ceilings"
else
  note "no device ceilings were written: analyze, ncu and profile skipped (see measure-*.log)"
fi

note "total ${SECONDS}s"
# --- Then the ceilings of every run ----------------------------------------------------
for f in "$out"/gpu-[0-9].h5; do
  [[ -f "$f" ]] && { echo; echo "== $f"; shown "$f"; } >> "$summary" 2>&1
done
echo "results in $out" >&2
