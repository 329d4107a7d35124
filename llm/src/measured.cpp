#include "rooftop/llm/measured.hpp"

#include <map>
#include <optional>
#include <utility>

namespace rooftop::llm {
namespace {

using Shape = std::vector<long long>;

// "aten::mm (128x4096, 4096x14336)": the operator and its inputs' shapes ("scalar" or a
// non-tensor: an empty shape). Empty where the name has no shapes.
std::optional<std::pair<std::string, std::vector<Shape>>> parse(const std::string& name) {
  const std::size_t open = name.find(" (");
  if (open == std::string::npos || name.back() != ')') return std::nullopt;
  std::vector<Shape> shapes(1);
  long long value = 0;
  bool digits = false;
  for (std::size_t i = open + 2; i + 1 < name.size(); ++i) {
    const char c = name[i];
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      digits = true;
      if (value > (1LL << 40)) return std::nullopt;
      continue;
    }
    if (digits) shapes.back().push_back(value);
    value = 0;
    digits = false;
    if (c == ',') shapes.emplace_back();
  }
  if (digits) shapes.back().push_back(value);
  return std::make_pair(name.substr(0, open), shapes);
}

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

}  // namespace

Measured join_measured(const std::vector<core::KernelRecord>& records, const ModelConfig& m,
                       const Workload& w, const MachineEstimate& e) {
  std::map<std::pair<std::string, std::string>, MeasuredClass> classes;
  Measured out;
  const long long prompt_rows = w.batch * w.prompt;
  const auto phase_of = [&](long long rows) -> std::string {
    if (rows == prompt_rows && rows != w.batch) return "prefill";
    if (rows == w.batch) return "decode";
    return "";
  };
  for (const core::KernelRecord& r : records) {
    const auto parsed = parse(r.name);
    std::string name, phase;
    if (parsed) {
      const auto& [op, shapes] = *parsed;
      if (const auto g = gemm_of(op, shapes)) {
        name = gemm_class(m, g->second[0], g->second[1]);
        phase = name.find("lm_head") != std::string::npos ? "both" : phase_of(g->first);
      }
      if (name.empty() && attention_op(op) && !shapes.empty() && shapes[0].size() >= 3) {
        name = "attention";  // the query rows: the second last dimension of its first input
        const long long rows = shapes[0][shapes[0].size() - 2];
        phase = rows == w.prompt && w.prompt != 1 ? "prefill" : rows == 1 ? "decode" : "";
      }
    }
    if (name.empty() || phase.empty()) {
      out.other_s += r.time_s;
      ++out.other_records;
      continue;
    }
    MeasuredClass& c = classes[{name, phase}];
    c.name = name;
    c.phase = phase;
    c.measured_flops += r.flops();
    c.measured_s += r.time_s;
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
        }
      }
    }
  for (auto& [key, c] : classes) out.classes.push_back(c);
  return out;
}

}  // namespace rooftop::llm
