#!/usr/bin/env bash
# On a GPU machine (the NVIDIA driver; ncu for the Nsight Compute step; no network or
# CUDA Toolkit needed), from an unpacked bundle of scripts/make-gpu-bundle.sh: first
# what the machine is (driver, the CUDA version it supports against the bundle's, GPU,
# clocks, MIG, counter permission, what every shipped binary loads; where the driver's
# libcuda.so.1 is not found, it stops there with exit status 1), then probes of at
# most 60 s in all (each kernel alone at a tiny size under CUPTI, a tiny triad under
# ncu, one GPP version at the default size without counters, on the reference ceilings
# the bundle carries), so that a run whose long steps fail still says what costs what;
# then the device tests, `measure --space device`, `analyze` of the GPP ladder and the
# reference kernels with CUPTI counts (the ladder then beside the V100's published times,
# and the GPU targets judged: gpp-ladder.txt), the same kernels run once each under Nsight
# Compute, imported and their counts set beside CUPTI's, `profile` of a Kokkos program
# through the connector, the tiny triad profiled under ncu with the section files of
# `rooftop export --format ncu-sections` (the roofs ncu evaluated set against the
# measured ceilings, within 0.1%), `profile` of any CUDA program through the injection library
# (the PyTorch program of the ncu log where torch is installed, else connector_app), the
# same PyTorch launches under ncu and the two sets of counts side by side (each
# compare-counts' verdicts under its step's line), the peers where the bundle has them
# (below), then `measure` twice more where time is left (the spread between runs is part
# of the result). Every step has its own time limit, and a step
# starts only if its limit fits in what is left of the run's budget (--budget, 540 s:
# one 10-minute call with a margin), so the run ends in time however the steps go; a
# step that fails, times out or does not fit is recorded in the summary and the others
# run. Every file and the summary go to one folder: $OUT if set, else
# ./rooftop-gpu-results. A step cut short loses only its own output: the summary line of
# every step is written as it ends, and rooftop writes its files under a temporary name
# and renames them only when complete.
#
# Where the bundle carries the other tools' benchmarks (peers/, make-gpu-bundle.sh
# --peers), they run in the same call, after the profiles and before the repeats, each
# with no arguments under its own time limit, their output in peer-NAME.log; where time is
# left, `profile` counts the L1 and L2 bytes of gpu-l2-cache's first launch
# (counts-peer-l2), so that its best point can be told L2 traffic or L1 hits; and the
# table of peers-table.py (each ceiling of the first measure beside the peers' best
# figures, with the ratio) closes the summary and is printed (peers-table.txt). So one
# call measures everything. --peers runs only one `measure --space device` and then the
# peers, for a call of their own.
#   ./run-gpu.sh [--quick] [--peers] [--budget SECONDS]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$PWD/rooftop-gpu-results}"
usage="usage: run-gpu.sh [--quick] [--peers] [--budget SECONDS]"
quick=()
peers_only=0
budget=540
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=(--quick); shift ;;
    --peers) peers_only=1; shift ;;
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
# SIGKILL 5 s later). The probes share one stage of 60 s: a probe starts only if it fits
# in what is left of it. measure is all or nothing (a measure stopped writes no file),
# and everything after it needs its ceilings: the first gets about five times what the
# first GPU needed (25 s on an H200: the device ceilings, then the costs, access,
# transfer, launch and tensor sweeps); the repeats get 1.5 x the first's time + 10 s, at
# most the same. analyze at the GPU build's default size is meant to take at most 60 s
# with CUPTI on an H100 or H200; the ladder's table after it only reads its file (rooftop
# show under python3: 0.25 s on a host). The tests and profile took 2-4 s there. The first run
# through (the machine checks, then the probes and each step to its limit, with the 5 s
# of every kill) is 520 s plus the checks: inside the 540 s budget, 60 s under 10
# minutes; the ncu-sections steps (30 s more), profile-cuda, ncu-torch, torch-launcher and
# llm-bench (310 s more), the peers (85 s on the H200 with
# gpu-stream stopped at 25 s, about 140 s with its wrapper's 80 s; 245 s at their limits)
# and the repeats run in the time the others leave, in that order.
declare -A limit=(
  [probe-triad]=8       # the probes: 56 s in all
  [probe-polynomial]=8
  [probe-stencil]=8
  [probe-gpp-v1]=8
  [probe-ncu-triad]=12
  [probe-gpp-v9]=12
  [device-tests]=30
  [counts-device]=20
  [measure]=120
  [compare]=10
  [analyze-cupti]=90
  [gpp-ladder]=10
  [ncu]=90
  [ncu-import]=10
  [ncu-sections-export]=5    # writes 8 small files (under 0.1 s on a host)
  [ncu-sections]=20      # one tiny triad under ncu with rooftop's sections, as the
                         # ncu probe (12 s) with a few more passes (not yet run)
  [ncu-sections-check]=5     # reads one CSV row and rooftop export's JSON
  [counts]=15
  [profile]=30
  [profile-cuda]=60     # ncu took 14 s for the PyTorch program's 40 launches
  [ncu-torch]=60         # 14 s on an H200
  [counts-torch]=10
  [torch-launcher]=60    # two runs of a small PyTorch program (not yet run on a GPU)
  [llm-bench]=120        # a 16 GB bf16 decoder, two prefills and 256 decode steps timed,
                         # and two traced runs of 8 decode steps each (not yet run)
  [show]=10
  [counts-peer-l2]=45
)
# The peers, where the bundle has them (step peer-NAME), with their limits, in the order
# that keeps what settles a target when the budget runs short: gpu-l2-cache (the peer
# that leads rooftop's l2, and its DRAM points) first, then mixbench (FP64 and FP32),
# BabelStream, gpu-cache (L1) and gpu-stream; any other program in peers/ last, at
# other_peer_limit.
peers=(
  gpu-l2-cache:45   # 18 s on an H200
  mixbench:30       # under 1 s
  babelstream:30    # 1 s
  gpu-cache:50      # stopped by its wrapper at 40 s
  gpu-stream:90     # stopped by its wrapper at 80 s
)
other_peer_limit=90
probe_stage=60
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

# skipped NAME LIMIT WHY: the summary line of a step that was not started.
skipped() {
  note "$(printf '%-18s %5s %6s %6s  SKIPPED: %s' "$1" - - "$2" "$3")"
}
# count N ONE MANY: "1 launch", "24 launches".
count() {
  if (( $1 == 1 )); then echo "$1 $2"; else echo "$1 $3"; fi
}
# indented LINE: a line under the last step's, in the table's last column.
indented() {
  note "$(printf '%-18s %s' "" "$1")"
}

# step NAME COMMAND...: runs COMMAND under its time limit (limit[NAME], or
# limit[NAME without -N]) with stdout and stderr in $out/NAME.log; records the exit
# status, the time and the limit in the summary, as each step ends (a run cut short keeps
# the steps it finished). A step whose limit does not fit in what is left of the budget,
# or of the stage that ends at second stage_end (the probes), is not started (status 3,
# SKIPPED). step_secs: how long the last step ran.
step_secs=0
stage_end=""
step() {
  local name="$1"; shift
  local secs="${limit[$name]:-${limit[${name%-[0-9]}]:-60}}"
  step_secs=0
  local room
  room=$(left)
  local of="${budget}s budget"
  if [[ -n "$stage_end" ]] && (( stage_end - SECONDS < room )); then
    room=$((stage_end - SECONDS))
    of="${probe_stage}s probe stage"
  fi
  if (( secs + kill_after > room )); then
    skipped "$name" "$secs" "${room}s of the $of left"
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
  note "$(printf '%-18s %5d %6d %6d  %s' "$name" "$rc" "$step_secs" "$secs" "$what")"
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
# Without the driver's libcuda no shipped program starts (the loader's exit 127): say so
# once and stop, rather than fail every step.
if grep -q '^bin/rooftop: libcuda\.so' <<< "$not_found"; then
  note "no NVIDIA driver here: bin/rooftop needs libcuda.so.1 and no library path has it; nothing can run on a GPU"
  echo "run-gpu.sh: no NVIDIA driver (libcuda.so.1 not found); summary in $summary" >&2
  exit 1
fi

# Nsight Compute: on PATH, else in a toolkit or where its installer puts it: the places
# of ROOFTOP_NCU_PLACES where set (patterns; empty: PATH alone, as the rehearsal runs it).
ncu_places="${ROOFTOP_NCU_PLACES-/usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu}"
ncu="$(command -v ncu || true)"
if [[ -z "$ncu" ]]; then
  for f in $ncu_places; do  # the newest last
    [[ -x "$f" ]] && ncu="$f"
  done
fi
if [[ -n "$ncu" ]]; then
  note "$(field ncu: "$ncu, $(timeout 20 "$ncu" --version 2>/dev/null | tail -1)")"
else
  note "$(field ncu: "not found (the Nsight Compute probe and steps are skipped)")"
fi

# What this rooftop offers the later steps (an older binary lacks them; the steps that
# need them are skipped and say so): analyze --once runs each kernel exactly once, so
# ncu profiles one run of each, not every timed repetition; compare-counts sets CUPTI's
# counts beside ncu's.
once=0
[[ "$(timeout 20 "$rooftop" analyze --help 2>&1)" == *--once* ]] && once=1
compare_counts=0
timeout 20 "$rooftop" compare-counts --help > /dev/null 2>&1 && compare_counts=1
yes_no() { (( $1 )) && echo yes || echo "no ($2)"; }
note "$(field rooftop: "analyze --once: $(yes_no "$once" "ncu skipped"); compare-counts: $(
        yes_no "$compare_counts" "the counts step skipped")")"
# The probes place kernels on ceilings the bundle carries (measure has not run yet;
# another GPU's ceilings do not matter for a probe).
reference="$here/share/reference-ceilings.h5"
reference_of="$(awk '$1 == "reference_ceilings" {print $2}' "$here/VERSION" 2>/dev/null)"
if [[ -f "$reference" ]]; then
  note "$(field reference: "share/reference-ceilings.h5 (${reference_of:-origin unknown}), for the probes")"
else
  note "$(field reference: "none in this bundle: the probes are skipped")"
fi

# Nsight Compute's options, shared by the ncu probe and the ncu step: the roofline
# metrics, every rooftop kernel and nothing else, at the clocks the GPU chose.
if [[ -n "$ncu" ]]; then
  metrics="gpu__time_duration.sum,dram__bytes.sum,lts__t_bytes.sum,l1tex__t_bytes.sum"
  for p in d f h; do
    for op in add mul fma; do
      metrics+=",sm__sass_thread_inst_executed_op_${p}${op}_pred_on.sum"
    done
  done
  # With the default --kernel-name-base function every Kokkos kernel is named
  # cuda_parallel_launch_local_memory, so names are matched demangled, where they carry
  # the functor, all in namespace rooftop::kernels, named as the kernel's record
  # (gpp::Team<Kokkos::Cuda, rooftop::kernels::gpp::v7_reciprocal>, reference::triad);
  # Kokkos's own fills and copies carry none of it. The value of --kernel-name is a name
  # or regex:<expression>; only --kernel-id splits its value at ':'. The dots stand for
  # the colons all the same, so the expression reads the same whichever way ncu splits it
  # (this pattern matched all 12 kernels of an earlier build's names on an H200). Every launch that matches is
  # profiled: analyze --once runs each kernel once, and GPP versions that launch one
  # kernel per frequency (v4-v9) show several launches; the summary counts them.
  # --rename-kernels off (where this ncu has it) matches the full demangled names, not
  # the simplified ones ncu would otherwise match against (Nsight Compute CLI, "Kernel
  # Renaming").
  # --clock-control none: ncu would otherwise lock the clocks (to base, or boost in
  # newer releases), changing the GPU's settings and giving locked-clock times against
  # ceilings measured at the clocks the GPU chose.
  # --cache-control none: ncu would otherwise flush the caches before every replay
  # pass; rooftop's CUPTI replay does not, so both count the same way.
  rename=()
  [[ "$(timeout 20 "$ncu" --help 2>/dev/null)" == *"--rename-kernels "* ]] &&
    rename=(--rename-kernels off)
  # The PyTorch program's: those of its H200 log (share/ncu-torch.txt), the tensor paths
  # of GH100's three matrix precisions it runs included.
  torch_metrics="$metrics,sm__ops_path_tensor_src_bf16_dst_fp32.sum"
  torch_metrics+=",sm__ops_path_tensor_src_fp16.sum,sm__ops_path_tensor_src_tf32_dst_fp32.sum"
  ncu_args=(--csv --page raw --metrics "$metrics" --clock-control none --cache-control none
            --kernel-name-base demangled "${rename[@]}" --kernel-name "regex:rooftop..kernels")
fi
# ncu_step NAME ANALYZE-ARGS...: `rooftop analyze ANALYZE-ARGS --no-cupti --once` under
# ncu as step NAME (declared counts inside rooftop: ncu and CUPTI's profiler cannot share
# a process), ncu's CSV in $out/NAME.csv; then, under the step's line, how many launches
# of how many kernels it profiled and ncu's own ==ERROR== and ==WARNING== lines (from
# the CSV, where --log-file sends them, and the log, where an early one goes), so that a
# failed profile says why in the summary. ncu_launches: how many it profiled.
ncu_launches=0
ncu_step() {
  local name="$1"; shift
  ncu_launches=0
  if [[ -z "$ncu" ]]; then skipped "$name" "${limit[$name]}" "no ncu"; return 3; fi
  if (( ! once )); then skipped "$name" "${limit[$name]}" "this rooftop's analyze has no --once"; return 3; fi
  step "$name" "$ncu" "${ncu_args[@]}" --log-file "$out/$name.csv" \
       "$rooftop" analyze "$@" --no-cupti --once
  local rc=$?
  (( rc == 3 )) && return 3
  local kernels
  ncu_launches="$(grep -c '^"[0-9]' "$out/$name.csv" 2>/dev/null)"
  ncu_launches="${ncu_launches:-0}"
  # The fifth column, Kernel Name: quoted fields, so split at '","' (names hold commas).
  kernels="$(awk -F'","' '/^"[0-9]/ {print $5}' "$out/$name.csv" 2>/dev/null | sort -u | wc -l)"
  indented "(ncu profiled $(count "$ncu_launches" launch launches) of $(count "$kernels" kernel kernels))"
  local said
  said="$(cat "$out/$name.csv" "$out/$name.log" 2>/dev/null |
          awk '/^==(ERROR|WARNING)==/ && !seen[$0]++')"
  if [[ -n "$said" ]]; then
    while IFS= read -r line; do indented "$line"; done < <(head -10 <<< "$said")
    local more=$(( $(wc -l <<< "$said") - 10 ))
    (( more > 0 )) && indented "(and $more more lines of ncu's in $name.csv and $name.log)"
  fi
  return $rc
}

# counts_step NAME A B: `compare-counts A B` as step NAME, its verdicts (one line per
# quantity: FLOPs equal, bytes within 2%, in how many pairs) under the step's line.
counts_step() {
  local name="$1"
  step "$name" "$rooftop" compare-counts "$2" "$3"
  local rc=$?
  (( rc == 3 )) && return 3
  while IFS= read -r line; do indented "$line"; done < <(
    awk '/^verdicts:$/ {on = 1; next} on && /^$/ {exit} on {sub(/^ +/, ""); print}' \
        "$out/$name.log" 2>/dev/null)
  return $rc
}

# gpp_ladder KERNELS.h5: the GPP ladder of that file beside the V100's published times,
# and the GPU targets judged, one line each (bench-gpp-ladder.py --beside-v100), as step
# gpp-ladder; its output, gpp-ladder.txt, under the step's line.
gpp_ladder() {
  if ! command -v python3 > /dev/null; then
    skipped gpp-ladder "${limit[gpp-ladder]}" "no python3 here (bench-gpp-ladder.py elsewhere)"
    return 3
  elif [[ ! -f "$here/bench-gpp-ladder.py" ]]; then
    skipped gpp-ladder "${limit[gpp-ladder]}" "this bundle has no bench-gpp-ladder.py"
    return 3
  fi
  step gpp-ladder python3 "$here/bench-gpp-ladder.py" --rooftop "$rooftop" --from "$1" --beside-v100
  local rc=$?
  (( rc == 3 )) && return 3
  mv -f "$out/gpp-ladder.log" "$out/gpp-ladder.txt"
  while IFS= read -r line; do [[ -z "$line" ]] || indented "$line"; done < "$out/gpp-ladder.txt"
  return $rc
}

# --- The peers: the other tools' benchmarks in the bundle's peers/ ---------------------
# (make-gpu-bundle.sh --peers), each with no arguments under its limit in `peers`.
# peer_programs: the peers' paths in the order of `peers` (none where the bundle has no
# peers/).
peer_programs() {
  local names=("${peers[@]%%:*}") name p
  for name in "${names[@]}"; do
    [[ -f "$here/peers/$name" && -x "$here/peers/$name" ]] && echo "$here/peers/$name"
  done
  for p in "$here"/peers/*; do
    [[ -f "$p" && -x "$p" ]] || continue
    [[ " ${names[*]} " == *" $(basename "$p") "* ]] || echo "$p"
  done
}
# peer_limit NAME: its limit in `peers`, else other_peer_limit.
peer_limit() {
  local entry
  for entry in "${peers[@]}"; do
    [[ "${entry%%:*}" == "$1" ]] && { echo "${entry#*:}"; return; }
  done
  echo "$other_peer_limit"
}
# run_peers CEILINGS.h5: each peer as step peer-NAME (log peer-NAME.log); then, where time
# is left, how much of gpu-l2-cache's best point (its first launch, 1.5 MB on an H200) is
# L2 traffic: its loads take the read-only path, which allocates in L1, and rooftop's l2
# read does not; `profile` counts the launch's L1 and L2 bytes (counts-peer-l2).
run_peers() {
  local p name
  while IFS= read -r p; do
    name="$(basename "$p")"
    limit[peer-$name]=$(peer_limit "$name")
    step "peer-$name" "$p"
  done < <(peer_programs)
  if [[ -x "$here/peers/gpu-l2-cache" && -f "$1" ]]; then
    step counts-peer-l2 "$rooftop" profile --cuda --ceilings "$1" \
         --kernel-regex sumKernel --launch-count 1 --out "$out/peer-l2-counts.h5" \
         -- "$here/peers/gpu-l2-cache" &&
      shown "$out/peer-l2-counts.h5" > "$out/peer-l2-counts.txt" 2>&1
  fi
}
# peers_table CEILINGS.json: the ceilings of this call beside each peer's best figure of
# the same kind, with the ratio (peers-table.py), into peers-table.txt and the summary.
peers_table() {
  local logs=("$out"/peer-*.log)
  if [[ ! -f "$1" || ! -f "${logs[0]}" ]]; then
    note "no peers table: it needs $(basename "$1") and the peers' logs"
  elif ! command -v python3 > /dev/null || [[ ! -f "$here/peers-table.py" ]]; then
    note "no peers table: no python3 here (peers-table.py $(basename "$1") peer-*.log elsewhere)"
  else
    note ""
    timeout -k 2 20 python3 "$here/peers-table.py" "$1" "${logs[@]}" > "$out/peers-table.txt" 2>&1
    tee -a "$summary" < "$out/peers-table.txt"
  fi
  # The kernel rows of counts-peer-l2: its intensities at L1 and L2 give the bytes' ratio.
  if [[ -s "$out/peer-l2-counts.txt" ]]; then
    note ""
    note "gpu-l2-cache's first launch, counted (counts-peer-l2; its bytes at L1 over L2 are AI l2 / AI l1):"
    sed -n '/^kernels on/,$p' "$out/peer-l2-counts.txt" | tee -a "$summary"
  fi
}

# measure N: `measure --space device` into gpu-N.h5 (.svg, .json).
measure() {
  step "measure-$1" "$rooftop" measure --space device "${quick[@]}" \
       --out "$out/gpu-$1.h5" --plot "$out/gpu-$1.svg" || return
  shown "$out/gpu-$1.h5" --json > "$out/gpu-$1.json" 2>> "$out/measure-$1.log"
  return 0
}

# --- The steps: one line each in the summary -------------------------------------------
note ""
note "$(field budget: "${budget}s; the checks took ${SECONDS}s")"
note "$(printf '%-18s %5s %6s %6s' step exit secs limit)"
if (( peers_only )); then
  # One measure, then the peers at once, in the same state of the GPU. No probes.
  if [[ -z "$(peer_programs)" ]]; then
    note "no peers in $here/peers (make-gpu-bundle.sh --peers DIR)"
  else
    measure 1
    run_peers "$out/gpu-1.h5"
  fi
  note "total ${SECONDS}s"
  peers_table "$out/gpu-1.json"
  echo "results in $out" >&2
  exit 0
fi
# 0. Probes, at most 60 s in all, before anything long: each reference kernel and GPP v1
#    alone at the tiny size under CUPTI, the tiny triad under ncu, and GPP v9 at the
#    default size timed without counters. Their lines say what each part costs, even
#    where a later step times out.
if [[ -f "$reference" ]]; then
  stage_end=$((SECONDS + probe_stage))
  for k in triad polynomial stencil gpp:v1; do
    step "probe-${k/:/-}" "$rooftop" analyze --ceilings "$reference" --kernels "$k" --size tiny
  done
  ncu_step probe-ncu-triad --ceilings "$reference" --kernels triad --size tiny
  step probe-gpp-v9 "$rooftop" analyze --ceilings "$reference" --kernels gpp:v9 --no-cupti
  stage_end=""
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
  # 3. The GPP ladder and the reference kernels counted by CUPTI, at the GPU build's
  #    default size (the classic size took 39 s on an H200 without any counter).
  kernels=(--kernels "gpp,triad,polynomial,stencil")
  step analyze-cupti "$rooftop" analyze --ceilings "$ceilings" "${kernels[@]}" \
       --out "$out/analyze-cupti.h5" --plot "$out/analyze-cupti.svg" --json
  [[ -f "$out/analyze-cupti.h5" ]] && gpp_ladder "$out/analyze-cupti.h5"
  # 4. The same kernels, each run once, under Nsight Compute, imported onto the
  #    ceilings, and ncu's counts beside CUPTI's for the same kernels.
  ncu_step ncu --ceilings "$ceilings" "${kernels[@]}" --out "$out/analyze-under-ncu.h5"
  if (( ncu_launches > 0 )); then
    step ncu-import "$rooftop" import "$out/ncu.csv" --ceilings "$ceilings" \
         --out "$out/ncu-import.h5" --plot "$out/ncu-import.svg" --json
    if (( ! compare_counts )); then
      skipped counts "${limit[counts]}" "this rooftop has no compare-counts"
    elif [[ ! -f "$out/analyze-cupti.h5" ]]; then
      skipped counts "${limit[counts]}" "no analyze-cupti.h5 to compare"
    else
      counts_step counts "$out/analyze-cupti.h5" "$out/ncu.csv"
    fi
  elif [[ -n "$ncu" ]] && (( once )); then
    skipped ncu-import "${limit[ncu-import]}" "ncu profiled no launch: nothing to import or compare"
  fi
  # 5. An unmodified Kokkos program through the connector.
  step profile "$rooftop" profile --ceilings "$ceilings" --out "$out/profile.h5" \
       --plot "$out/profile.svg" --json -- "$here/bin/connector_app"
  # 5b. rooftop's roofs inside Nsight Compute: the section files of this call's ceilings
  #     (export --format ncu-sections), one reference kernel (the tiny triad) profiled
  #     with them alone, and the roofs ncu evaluated, from its raw page, against the
  #     ceilings (check-ncu-sections.py: within 0.1%), its verdict under the step's line.
  if [[ -z "$ncu" ]]; then
    skipped ncu-sections "${limit[ncu-sections]}" "no ncu"
  elif (( ! once )); then
    skipped ncu-sections "${limit[ncu-sections]}" "this rooftop's analyze has no --once"
  elif step ncu-sections-export "$rooftop" export "$ceilings" --format ncu-sections \
         --out "$out/ncu-sections"; then
    step ncu-sections "$ncu" --section-folder "$out/ncu-sections" --section "regex:Rooftop_" \
         --csv --page raw --print-units base --clock-control none --cache-control none \
         --kernel-name-base demangled "${rename[@]}" --kernel-name "regex:rooftop..kernels" \
         --launch-count 1 --log-file "$out/ncu-sections.csv" \
         "$rooftop" analyze --ceilings "$ceilings" --kernels triad --size tiny --no-cupti --once
    if [[ -s "$out/ncu-sections.csv" && -f "$here/check-ncu-sections.py" ]]; then
      step ncu-sections-check python3 "$here/check-ncu-sections.py" "$out/ncu-sections.csv" \
           "$ceilings" --rooftop "$rooftop"
      while IFS= read -r line; do
        [[ -z "$line" ]] || indented "$line"
      done < <(head -20 "$out/ncu-sections-check.log" 2>/dev/null)
    fi
  fi
  # 6. Any CUDA program through the CUDA injection library (CUDA_INJECTION64_PATH): the
  # PyTorch program of the ncu log in tests/fixtures/import where this python3 has torch
  # and sees the GPU (its first 40 launches, the ones ncu counted), else connector_app's
  # kernels by their CUDA names.
  if [[ ! -f "$here/lib/librooftop_cuda_injection.so" ]]; then
    skipped profile-cuda "${limit[profile-cuda]}" "this bundle has no CUDA injection library"
  elif timeout 30 python3 -c 'import sys, torch; sys.exit(not torch.cuda.is_available())' \
         > /dev/null 2>&1; then
    # The trace of the same program on an H200 names each kernel's operators.
    step profile-cuda "$rooftop" profile --cuda --launch-count 40 --ceilings "$ceilings" \
         --trace "$here/share/torch-trace.json.gz" \
         --out "$out/profile-torch.h5" --plot "$out/profile-torch.svg" --json \
         -- python3 "$here/share/torch_model.py"
    # The same 40 launches under Nsight Compute, on this GPU in this call: the counts to
    # set beside rooftop's (an H100's L2 is not an H200's: DRAM bytes differ), and ncu's
    # time for them beside profile-cuda's. The metrics of the H200's log; the caches kept
    # between replay passes, as rooftop's replay keeps them. Without ncu, or where it
    # fails, the H200's log (the bundle's) is the reference.
    reference_log="$here/share/ncu-torch.txt"
    if [[ -z "$ncu" ]]; then
      skipped ncu-torch "${limit[ncu-torch]}" "no ncu: counts-torch reads the H200's log"
    elif step ncu-torch "$ncu" --clock-control none --cache-control none \
              --metrics "$torch_metrics" --launch-count 40 --log-file "$out/ncu-torch.txt" \
              python3 "$here/share/torch_model.py" &&
         grep -q "Metric Value" "$out/ncu-torch.txt" 2>/dev/null; then
      reference_log="$out/ncu-torch.txt"
    fi
    # rooftop's counts beside that log's: FLOPs and tensor operations equal, bytes within
    # 2%, as compare-counts' verdicts say.
    [[ -f "$out/profile-torch.h5" ]] &&
      counts_step counts-torch "$out/profile-torch.h5" "$reference_log"
    # A PyTorch program unmodified under profile --torch: run twice, counted by the
    # injection library, then traced by torch.profiler through rooftop's launcher (CUPTI
    # takes one subscriber a process), the two joined by kernel names.
    if [[ -f "$here/lib/rooftop_torch.py" && -f "$here/share/train.py" ]]; then
      step torch-launcher "$rooftop" profile --torch --launch-count 200 --ceilings "$ceilings" \
           --trace "$out/torch-launcher-trace.json" --out "$out/torch-launcher.h5" \
           --plot "$out/torch-launcher.svg" --json -- python3 "$here/share/train.py" --device cuda
    else
      skipped torch-launcher "${limit[torch-launcher]}" "this bundle has no PyTorch launcher"
    fi
    # rooftop llm against a real run: a decoder of Llama 3 8B's shape in plain PyTorch, bf16,
    # random weights, a prefill of 128 and of 2,048 tokens and 128 decode steps, timed,
    # beside llm's prediction on this call's ceilings; and traced (8 decode steps), its
    # operators and layers timed by their kernels and joined to the prediction by llm
    # --trace; the traces (gzip) and times kept in llm-bench/. Its summary lines under the
    # step's.
    if [[ -f "$here/bench-llm.py" && -f "$here/share/llama-3-8b.json" ]]; then
      if step llm-bench python3 "$here/bench-llm.py" --rooftop "$rooftop" \
           --ceilings "$ceilings" --config "$here/share/llama-3-8b.json" --layers 32 \
           --prompts 128,2048 --generate 128 --operator-generate 8 --device cuda \
           --dtype bf16 --keep "$out/llm-bench" --python python3 ||
         [[ -s "$out/llm-bench.log" ]]; then
        while IFS= read -r line; do
          [[ -z "$line" ]] || indented "$line"
        done < <(grep -E "^(operators|phases|layers|every|no operator|FLOPS|FASTER|machine)|measured" \
                   "$out/llm-bench.log" 2>/dev/null)
      fi
    else
      skipped llm-bench "${limit[llm-bench]}" "this bundle has no bench-llm.py"
    fi
  else
    step profile-cuda "$rooftop" profile --cuda --ceilings "$ceilings" \
         --out "$out/profile-cuda.h5" --json -- "$here/bin/connector_app"
  fi
  # 7. The peers the bundle carries, against this call's first ceilings.
  run_peers "$ceilings"
  # 8. The repeats, in the time left, each limited by the first one's time.
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
[[ -n "$(peer_programs)" && -n "$ceilings" ]] && peers_table "${ceilings%.h5}.json"
# --- Then the ceilings of every run ----------------------------------------------------
for f in "$out"/gpu-[0-9].h5; do
  [[ -f "$f" ]] && { echo; echo "== $f"; shown "$f"; } >> "$summary" 2>&1
done
echo "results in $out" >&2
