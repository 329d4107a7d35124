#pragma once
// A real run of the model beside its bounds: the operator records of a PyTorch trace or of
// `profile --torch` (name and input shapes, "aten::mm (128x4096, 4096x14336)"), each
// joined to the predicted operators it runs. A GEMM (aten::mm, aten::addmm) by its
// weight's shape (in x out; the operators sharing one, as Q and O of a square attention,
// are one class), attention by its batched products (aten::bmm), softmax (aten::_softmax)
// or fused kernel, a phase by its rows (the prompt's in prefill, one a
// sequence in decode; the LM head runs one row a sequence in both). What matches nothing
// (norms, rotary, copies) is summed apart.

#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/llm/config.hpp"
#include "rooftop/llm/estimate.hpp"
#include "rooftop/llm/operators.hpp"

namespace rooftop::llm {

struct MeasuredClass {
  std::string name;   // "gate_proj+up_proj", "attention"
  std::string phase;  // "prefill", "decode" or "both"
  double measured_flops = 0, measured_s = 0;
  double predicted_flops = 0, bound_s = 0;
  int records = 0;  // measured records joined to it
  // bound over measured: 1 at the bound; above 1 + tolerance, faster than the roofs allow
  double attained() const { return measured_s > 0 ? bound_s / measured_s : 0; }
};

struct Measured {
  std::vector<MeasuredClass> classes;
  double other_s = 0;  // the measured time that matched no predicted operator
  int other_records = 0;
};

Measured join_measured(const std::vector<core::KernelRecord>& records, const ModelConfig& model,
                       const Workload& w, const MachineEstimate& estimate);

}  // namespace rooftop::llm
