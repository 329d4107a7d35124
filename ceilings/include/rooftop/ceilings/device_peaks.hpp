#pragma once
// Theoretical peaks of a GPU's ceilings from its compute capability, SM count, clocks
// and memory bus (NVIDIA: CUDA C++ Programming Guide, arithmetic-instruction throughput
// and technical-specification tables).

#include <optional>
#include <string>
#include <utility>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Results per clock per SM of FP add, multiply and FMA ("fp64" or "fp32") for a compute
// capability such as "9.0"; empty where the table does not know it.
std::optional<int> device_fp_lanes(const std::string& compute_capability,
                                   const std::string& precision);

// L1 and shared-memory bytes per clock per SM (128 on every NVIDIA GPU from 7.0 on).
inline constexpr double kDeviceL1BytesPerClock = 128.0;

// Splits a device bandwidth point's pattern "level:pattern"; {"", pattern} for a host's.
std::pair<std::string, std::string> split_device_pattern(const std::string& pattern);

// True when the machine is a characterization of a Kokkos device space (CUDA).
inline bool is_device(const core::Machine& m) { return m.execution_space == "Cuda"; }

// True when the GPU is a MIG slice (its name says " MIG", as the driver names slices and
// describe_device makes sure): its SMs are the slice's, but the memory clock, bus width
// and L2 size the driver reports are the whole GPU's.
bool is_mig_slice(const core::Machine& m);

// Below this share of the nominal SM clock, a measured clock means the GPU throttled
// (power, temperature or a clock limit) while it was measured.
inline constexpr double kDeviceThrottledClock = 0.9;
bool device_clock_throttled(double measured_ghz, double nominal_ghz);

// The theoretical peak of one device ceiling (value and basis), where it can be known:
// compute = SMs x lanes x (2 with FMA) x clock; l1, shared = SMs x 128 B x clock;
// dram = 2 x memory clock x bus width / 8; l2: none (its B/clk/SM goes in the note).
// `clock_ghz` is the SM clock the peaks are taken at, `clock_basis` how it was chosen.
// A clock-bound ceiling measured at a throttled clock also gets, in its basis, its share
// of the peak at the nominal clock (a throttled GPU's own-clock fraction looks perfect).
// A MIG slice has no dram peak, and notes on dram and l2 say why.
void attach_device_theoretical(const core::Machine& m, core::Ceiling& c, double clock_ghz,
                               const char* clock_basis);

}  // namespace rooftop::ceilings
