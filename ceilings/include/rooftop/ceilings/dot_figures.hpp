#pragma once
// The matrix figures of a CPU's dot-product instructions (bf16_dot, int8_dot, amx_bf16 in
// core::kFigures): the best accumulator count of each sweep, against the peak of the
// core's pipes for that instruction.

#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// A dot-product instruction a sweep ran and what one core issues of it per cycle.
struct DotUnit {
  std::string figure;           // the sweep and figure it makes: "bf16_dot", "int8_dot"
  std::string instruction;      // the figure's pattern: "vdpbf16ps zmm"
  int ops_per_instruction = 0;  // FLOPs or integer ops (a multiply-add counts two)
  double per_cycle = 0.0;       // instructions per cycle per core; 0: not known
  std::string source;           // where per_cycle comes from, or why it is not known
};

// One figure per unit whose sweep has points: the point with the highest median value
// (its median, min, max and samples), its instruction as the pattern, and, where the
// unit's rate is known, the theoretical peak cores x instructions per cycle x ops per
// instruction x clock (the highest clock read around that point's samples, else the
// machine's). Points of other sweeps are ignored.
std::vector<core::Ceiling> dot_figures(const std::vector<core::SweepPoint>& points,
                                       const core::Machine& machine,
                                       const std::vector<DotUnit>& units);

}  // namespace rooftop::ceilings
