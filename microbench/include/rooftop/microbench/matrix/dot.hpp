#pragma once
// The CPU's dot-product instructions as matrix ceilings (the bf16_dot, int8_dot and
// amx_bf16 sweeps and figures of core::kSweeps and core::kFigures): AVX-512 BF16
// vdpbf16ps and VNNI vpdpbusd (or AVX-VNNI's 256-bit form) on independent accumulator
// chains in vector registers, on every thread of the host space. Each runs only where
// the CPU says it has the instruction; the others are named as absent, with the reason.

#include <string>
#include <vector>

#include "rooftop/ceilings/cpu_cores.hpp"
#include "rooftop/ceilings/dot_figures.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace rooftop::microbench {

// The CPU flags the dot-product kernels need (Linux /proc/cpuinfo: avx512_bf16,
// avx512_vnni, avx_vnni, amx_bf16), and for AMX the kernel's leave: Linux gives a process
// the tile data only on request (arch_prctl ARCH_REQ_XCOMP_PERM, the kernel's
// Documentation/arch/x86/xstate.rst); without it the first tile instruction faults.
struct DotFeatures {
  bool avx512bf16 = false;
  bool avx512vnni = false;
  bool avxvnni = false;
  bool amx_bf16 = false;
  bool amx_permitted = false;  // the process may use the tile data
  std::string amx_refused;     // why not, where the CPU has the flag
};
// This CPU's, as the compiler's CPU detection reads them (cpuid and the registers the
// OS saves); on a CPU with amx_bf16 it asks Linux for the tile data (once per process).
DotFeatures host_dot_features();

// The rates of the core this runs on (cpuid's vendor, family and model).
ceilings::DotRates host_dot_rates();

// The instructions a CPU with `features` runs, one per figure (bf16_dot, int8_dot,
// amx_bf16), with their rates; the figures it cannot measure go to `absent` as
// "<figure>: <why>".
std::vector<ceilings::DotUnit> dot_units(const DotFeatures& features, const ceilings::DotRates& rates,
                                         std::vector<std::string>* absent = nullptr);

// This CPU's units at this core's rates: what ceilings::dot_figures takes beside the points
// of run_dot_sweeps (which names the absent figures itself).
std::vector<ceilings::DotUnit> host_dot_units();

// The sweeps of every unit dot_units finds: one point per accumulator count per thread
// that fits the registers (for AMX, per C tile count, 1 to 4), each checked after timing (rooftop::Error if wrong). Samples
// last at most 20 ms (register-only kernels are at their rate at once): under 2 s on a
// 2-core Zen 4. Reasons for the figures not measured go to `absent`.
std::vector<core::SweepPoint> run_dot_sweeps(const SweepPlan& plan, const Progress& progress,
                                             std::vector<std::string>* absent,
                                             const DotFeatures& features = host_dot_features());

}  // namespace rooftop::microbench
