#pragma once
// The access-pattern figures of the costs group (core::kFigures): coalescing
// (stride32_l2, stride32_dram, columns_dram), latency hiding (occupancy90_dram,
// threads90_dram) and divergence (divergence1_fp32), each drawn from the points of its
// sweep. A figure whose points are missing is left out, never guessed.

#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Points of one sweep at one x are pooled (a point measured again adds its samples).
//   stride32_l2, stride32_dram  median at stride 32 / median at stride 1 of stride:l2,
//                               stride:dram
//   columns_dram                median of columns:dram / median of rows:dram at the
//                               largest side both have
//   occupancy90_dram,           the smallest x of occupancy:dram (threads:dram) whose
//   threads90_dram              median reaches 90% of the sweep's best median; needs two
//                               points or more
//   divergence1_fp32            median at 1 active lane / median at 32 of divergence:fp32
// A ratio's min and max are the extreme quotients of the two points' samples (lowest over
// highest, highest over lowest); an x's min and max are the x itself. Figures come in
// kFigures' order with no theoretical value; points of other sweeps are ignored.
std::vector<core::Ceiling> access_figures(const std::vector<core::SweepPoint>& points);

}  // namespace rooftop::ceilings
