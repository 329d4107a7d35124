#include "rooftop/llm/measured.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace rooftop::llm {
namespace {

using Shape = std::vector<long long>;

// A predicted GEMM's weight: in x out.
struct Weight {
  std::string op;
  long long in, out;
};

std::vector<Weight> weights(const ModelConfig& m) {
  std::vector<Weight> w = {{"q_proj", m.hidden, m.q_dim()},
                           {"k_proj", m.hidden, m.kv_dim()},
                           {"v_proj", m.hidden, m.kv_dim()},
                           {"o_proj", m.q_dim(), m.hidden},
                           {"lm_head", m.hidden, m.vocab}};
  const std::string prefix = m.experts > 0 ? "expert_" : "";
  if (m.experts > 0) w.push_back({"router", m.hidden, m.experts});
  if (m.mlp == Mlp::gated) w.push_back({prefix + "gate_proj", m.hidden, m.intermediate});
  w.push_back({prefix + "up_proj", m.hidden, m.intermediate});
  w.push_back({prefix + "down_proj", m.intermediate, m.hidden});
  return w;
}

// The class of a GEMM record: the predicted operators of its weight's shape, joined.
std::string gemm_class(const ModelConfig& m, long long in, long long out) {
  std::string name;
  for (const Weight& w : weights(m))
    if (w.in == in && w.out == out) name += (name.empty() ? "" : "+") + w.op;
  return name;
}

// The rows and weight of a GEMM record: mm(a[R,K], b[K,N]), addmm(bias, a, b). Only the
// operators that do the work: aten::linear and aten::matmul call them, and a composite's
// record holds its own time and, where its nesting was not seen, FLOPs counted twice.
std::optional<std::pair<long long, Shape>> gemm_of(const std::string& op,
                                                   const std::vector<Shape>& s) {
  if (op == "aten::mm" && s.size() >= 2 && s[0].size() == 2 && s[1].size() == 2)
    return std::make_pair(s[0][0], Shape{s[1][0], s[1][1]});
  if (op == "aten::addmm" && s.size() >= 3 && s[1].size() == 2 && s[2].size() == 2)
    return std::make_pair(s[1][0], Shape{s[2][0], s[2][1]});
  return std::nullopt;
}

// Attention's working operators: the batched products, softmax's kernel, a fused one.
bool attention_op(const std::string& op) {
  return op == "aten::bmm" || op == "aten::_softmax" ||
         op.find("_scaled_dot_product") != std::string::npos;
}

// The class and phase of a call: a GEMM by its weight, attention by its working operators;
// empty where it is neither, or its rows fit no phase.
std::pair<std::string, std::string> class_of(const core::OperatorCall& c, const ModelConfig& m,
                                             const Workload& w) {
  const long long prompt_rows = w.batch * w.prompt;
  std::string name, phase;
  if (const auto g = gemm_of(c.name, c.shapes)) {
    name = gemm_class(m, g->second[0], g->second[1]);
    if (name.find("lm_head") != std::string::npos)
      phase = "both";
    else if (g->first == prompt_rows && g->first != w.batch)
      phase = "prefill";
    else if (g->first == w.batch)
      phase = "decode";
  }
  if (name.empty() && attention_op(c.name) && !c.shapes.empty() && c.shapes[0].size() >= 3) {
    name = "attention";  // the query rows: the second last dimension of its first input
    const long long rows = c.shapes[0][c.shapes[0].size() - 2];
    phase = rows == w.prompt && w.prompt != 1 ? "prefill" : rows == 1 ? "decode" : "";
  }
  if (name.empty() || phase.empty()) return {};
  return {name, phase};
}

// Each layer's calls of each phase beside one layer's bound over as many steps. A call of
// a layer (a scope) takes the phase its GEMMs and attention show.
void join_layers(const std::vector<core::OperatorCall>& calls, const ModelConfig& m, const Workload& w,
                 const MachineEstimate& e, Measured& out) {
  struct Step {
    int layer = -1;
    std::string phase;
    double seconds = 0;
  };
  std::map<int, Step> steps;  // by scope
  for (const core::OperatorCall& c : calls) {
    if (c.scope < 0) continue;
    Step& s = steps[c.scope];
    s.layer = c.layer;
    s.seconds += c.seconds;
    const std::string phase = class_of(c, m, w).second;
    if (phase == "prefill" || phase == "decode") s.phase = phase;
  }
  if (steps.empty()) return;
  std::map<std::pair<bool, int>, MeasuredLayer> layers;  // (decode, layer): prefill first
  int unphased = 0;
  for (const auto& [scope, s] : steps) {
    if (s.phase.empty()) {
      ++unphased;
      continue;
    }
    MeasuredLayer& l = layers[{s.phase == "decode", s.layer}];
    l.layer = s.layer;
    l.phase = s.phase;
    l.measured_s += s.seconds;
    ++l.steps;
  }
  // One layer's bound a step: the phase's per-layer operators over the layers and steps
  // (decode's operators sum every step, at its own context).
  for (auto& [key, l] : layers) {
    const Phase& ph = l.phase == "prefill" ? e.prefill : e.decode;
    const double phase_steps = l.phase == "prefill" ? 1.0 : static_cast<double>(w.generate);
    double bound = 0;
    for (const PlacedOperator& p : ph.operators)
      if (p.op.in_layers) {
        bound += p.bound_s;
        l.tolerance = std::max(l.tolerance, p.spread);
      }
    l.bound_s = phase_steps > 0 ? bound / static_cast<double>(m.layers) / phase_steps * l.steps
                                : 0.0;
    out.layers.push_back(l);
  }
  if (unphased > 0)
    out.notes.push_back(std::to_string(unphased) +
                        " call(s) of a layer with no GEMM or attention of either phase's rows: "
                        "in no layer's time");
}

}  // namespace

Measured join_measured(const std::vector<core::OperatorCall>& calls, const ModelConfig& m,
                       const Workload& w, const MachineEstimate& e) {
  std::map<std::pair<std::string, std::string>, MeasuredClass> classes;
  Measured out;
  for (const core::OperatorCall& call : calls) {
    const auto [name, phase] = class_of(call, m, w);
    if (name.empty()) {
      out.other_s += call.seconds;
      ++out.other_records;
      continue;
    }
    MeasuredClass& c = classes[{name, phase}];
    c.name = name;
    c.phase = phase;
    c.measured_flops += call.flops;
    c.measured_s += call.seconds;
    ++c.records;
  }
  // The predicted operators of each class present, from the estimate's phases.
  for (auto& [key, c] : classes)
    for (const Phase* ph : {&e.prefill, &e.decode}) {
      if (c.phase != "both" && c.phase != ph->name) continue;
      for (const PlacedOperator& p : ph->operators) {
        // attention's operators but the cache write and the scores' soft-capping (copies
        // and elementwise records, not the products, softmax or fused kernel joined here)
        const bool attention = p.op.kind == "attention" && p.op.name != "kv_write" &&
                               p.op.name.rfind("softcap", 0) != 0;
        const std::string member = "+" + c.name + "+";
        if ((c.name == "attention" && attention) ||
            member.find("+" + p.op.name + "+") != std::string::npos) {
          c.predicted_flops += p.op.flops;
          c.bound_s += p.bound_s;
          c.tolerance = std::max(c.tolerance, p.spread);
        }
      }
    }
  for (auto& [key, c] : classes) out.classes.push_back(c);
  if (out.classes.empty() && !calls.empty())
    out.notes.push_back(
        "no call matched a predicted operator: the run's GEMMs and attention need their "
        "shapes (record_shapes=True; PyTorch without kineto writes none, `rooftop profile "
        "--torch --trace` does) and the rows of this workload (--batch, --prompt)");
  join_layers(calls, m, w, e, out);
  return out;
}

}  // namespace rooftop::llm
