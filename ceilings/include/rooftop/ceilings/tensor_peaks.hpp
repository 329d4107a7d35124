#pragma once
// Theoretical dense rates of a GPU's tensor cores (the "matrix" figures tc_*) and the
// figures made from their sweeps (mma.sync: x = independent accumulators per warp;
// wgmma: x = N). The peaks are the unit's, whichever instruction reaches them.

#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Dense operations (2 per multiply-add) per clock per SM of the tensor-core figure
// `figure` (a kFigures row of group "matrix" named tc_*) on compute capability `cc`
// ("8.0", "8.9", "9.0"); empty where the table does not know it or the part has no such
// unit. The whitepaper each row comes from is named next to it in tensor_peaks.cpp.
std::optional<double> tensor_peak_per_sm_per_clock(const std::string& cc,
                                                   const std::string& figure);

// The instruction the mma.sync sweeps use for `figure` ("mma.sync.m16n8k16", ...; "" for
// a name that is not a tensor-core figure) in a build for `device_arch`
// (core::Machine::device_arch, "sm_90"; "" where unknown): one per figure, but tc_fp64's is
// sm_90's FP64 m16n8k16 in a build for sm_90 or later (every arch it lists) and Ampere's
// m8n8k4 otherwise. The figure's pattern where its best point is mma.sync's.
std::string tensor_instruction(const std::string& figure, const std::string& device_arch = "");

// The wgmma instruction of `figure` at m64nNk, N = `n` ("wgmma.mma_async.m64n256k16");
// "" for tc_fp64 (no wgmma), a name that is not a tensor-core figure, or n <= 0.
std::string wgmma_instruction(const std::string& figure, int n);

// One figure per tc_* name among `points` (its mma.sync sweep, x = accumulators per warp,
// and its wgmma sweep "<name>:wgmma", x = N; other sweeps are ignored), in kFigures
// order: the best point of either (highest median rate) as a core::Ceiling of kind
// "compute" with the sweep's units, median/min/max and count of its samples, the
// instruction that made it as pattern (and in the note), the point's median disturbance, and
// theoretical = per-SM-per-clock x machine.cores (SMs) x the highest clock of that point's samples
// where the table and the clock are known (above_theoretical then flags a figure above it).
std::vector<core::Ceiling> tensor_figures(const std::vector<core::SweepPoint>& points,
                                          const core::Machine& machine);

}  // namespace rooftop::ceilings
