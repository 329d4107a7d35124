#pragma once
// A real run of the model beside its bounds: the operator calls of a PyTorch trace (on a
// GPU timed by the kernels each launched) or the records of `profile --torch` (name and
// input shapes, "aten::mm (128x4096, 4096x14336)"), each joined to the predicted operators
// it runs. A GEMM (aten::mm, aten::addmm) by its
// weight's shape (in x out; the operators sharing one, as Q and O of a square attention,
// are one class), attention by its batched products (aten::bmm), softmax (aten::_softmax)
// or fused kernel, a phase by its rows (the prompt's in prefill, one a
// sequence in decode; the LM head runs one row a sequence in both). What matches nothing
// (norms, rotary, copies) is summed apart. Where the trace names layers (record_function
// ranges or with_stack modules), each layer's calls of each phase, everything in it, are
// set beside one layer's bound.

#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/llm/config.hpp"
#include "rooftop/llm/estimate.hpp"
#include "rooftop/llm/operators.hpp"

namespace rooftop::llm {

// Faster than its bound by more than this, or by more than its roofs' spread where that is
// more, a measured operator is a bug in the model or the ceilings (the tolerance
// core::place flags a point above a roof by).
inline constexpr double kAboveBound = 0.02;

struct MeasuredClass {
  std::string name;   // "gate_proj+up_proj", "attention"
  std::string phase;  // "prefill", "decode" or "both"
  double measured_flops = 0, measured_s = 0;
  double predicted_flops = 0, bound_s = 0;
  int records = 0;  // measured calls joined to it
  double tolerance = kAboveBound;  // the spread of its operators' roofs, at least kAboveBound
  // bound over measured: 1 at the bound; above 1 + tolerance, faster than the roofs allow
  double attained() const { return measured_s > 0 ? bound_s / measured_s : 0; }
  bool faster_than_bound() const { return attained() > 1 + tolerance; }
};

// One layer of one phase: the calls of every step in it (norms, rotary and copies
// included) beside the bound of one layer's operators over those steps.
struct MeasuredLayer {
  int layer = 0;
  std::string phase;  // "prefill" or "decode"
  int steps = 0;      // calls of the layer (one a step)
  double measured_s = 0, bound_s = 0;
  double tolerance = kAboveBound;  // as a class's, over the layer's operators
  double attained() const { return measured_s > 0 ? bound_s / measured_s : 0; }
  bool faster_than_bound() const { return attained() > 1 + tolerance; }
};

struct Measured {
  std::vector<MeasuredClass> classes;
  std::vector<MeasuredLayer> layers;  // where the trace names layers; by phase, then layer
  double other_s = 0;  // the measured time that matched no predicted operator
  int other_records = 0;
  std::vector<std::string> notes;  // what the join could not place, one line each
};

Measured join_measured(const std::vector<core::OperatorCall>& calls, const ModelConfig& model,
                       const Workload& w, const MachineEstimate& estimate);

}  // namespace rooftop::llm
