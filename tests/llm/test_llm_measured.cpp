// rooftop_llm's join of a real run to the prediction (llm/src/measured.cpp): operator
// calls (as counters::read_operator_calls gives them) joined by weight shape and phase,
// each layer beside one layer's bound, and what counts as faster than a bound: more than
// the spread of the roofs that bind, at least kAboveBound.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/llm/config.hpp"
#include "rooftop/llm/estimate.hpp"
#include "rooftop/llm/measured.hpp"
#include "support.hpp"

namespace rooftop::llm {
namespace {

using rooftop::testing::kFixtures;
using rooftop::testing::read_bytes;

const std::string kH200 = std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-1.h5";

ModelConfig llama() {
  return parse_config(read_bytes(kFixtures + "/llm/llama-3-8b.json"), "llama-3-8b.json");
}

// One prompt of 128 tokens and 2 decode steps.
Workload workload() {
  Workload w;
  w.prompt = 128;
  w.generate = 2;
  return w;
}

// A call of aten::mm of `rows` by Llama 3.1 8B's down projection (14336 into 4096) in
// `layer`'s step `scope`.
core::OperatorCall down(long long rows, double seconds, int layer, int scope) {
  core::OperatorCall c;
  c.name = "aten::mm";
  c.shapes = {{rows, 14336}, {14336, 4096}};
  c.seconds = seconds;
  c.flops = 2.0 * rows * 14336 * 4096;
  c.layer = layer;
  c.scope = scope;
  return c;
}

const PlacedOperator& find(const Phase& phase, const std::string& name) {
  for (const PlacedOperator& p : phase.operators)
    if (p.op.name == name) return p;
  throw std::runtime_error("no " + name);
}

TEST(LlmMeasured, ALayersStepsAreJoinedBesideOneLayersBound) {
  const core::CeilingsFile f = ceilings::read_file(kH200);
  const ModelConfig m = llama();
  const Workload w = workload();
  const MachineEstimate e = estimate(m, w, f, "h200.h5", Options{});
  // Layer 0: its prefill (scope 0), then its two decode steps (scopes 1 and 2), each with
  // a norm beside its GEMM (no class: in the layer's time, not in a class's).
  std::vector<core::OperatorCall> calls = {down(128, 1e-3, 0, 0), down(1, 1e-4, 0, 1),
                                           down(1, 1e-4, 0, 2)};
  core::OperatorCall norm;
  norm.name = "aten::mul";
  norm.seconds = 5e-5;
  norm.layer = 0;
  for (int scope : {0, 1, 2}) {
    norm.scope = scope;
    calls.push_back(norm);
  }
  const Measured j = join_measured(calls, m, w, e);
  ASSERT_EQ(j.classes.size(), 2u);
  for (const MeasuredClass& c : j.classes) {
    EXPECT_EQ(c.name, "down_proj");
    const Phase& ph = c.phase == "prefill" ? e.prefill : e.decode;
    EXPECT_DOUBLE_EQ(c.bound_s, find(ph, "down_proj").bound_s) << c.phase;
    EXPECT_DOUBLE_EQ(c.predicted_flops, find(ph, "down_proj").op.flops) << c.phase;
  }
  EXPECT_EQ(j.other_records, 3);
  ASSERT_EQ(j.layers.size(), 2u);
  EXPECT_EQ(j.layers[0].phase, "prefill");  // prefill first
  EXPECT_EQ(j.layers[0].steps, 1);
  EXPECT_DOUBLE_EQ(j.layers[0].measured_s, 1e-3 + 5e-5);
  EXPECT_EQ(j.layers[1].phase, "decode");
  EXPECT_EQ(j.layers[1].steps, 2);
  EXPECT_DOUBLE_EQ(j.layers[1].measured_s, 2 * (1e-4 + 5e-5));
  // One layer's bound: the phase's operators but the embedding, final norm and LM head,
  // over the 32 layers (decode: over its 2 steps, both measured here).
  for (const MeasuredLayer& l : j.layers) {
    const Phase& ph = l.phase == "prefill" ? e.prefill : e.decode;
    double per_layer = ph.bound_s;
    for (const char* model_op : {"embedding", "final_norm", "lm_head"})
      per_layer -= find(ph, model_op).bound_s;
    EXPECT_NEAR(l.bound_s, per_layer / 32, 1e-12 * ph.bound_s) << l.phase;
  }
}

TEST(LlmMeasured, FasterThanTheBoundMeansBeyondTheSpreadOfTheRoofsThatBind) {
  core::CeilingsFile f = ceilings::read_file(kH200);
  const ModelConfig m = llama();
  const Workload w = workload();
  // Decode's down projection streams its weights from HBM (the ceiling named dram).
  MachineEstimate e = estimate(m, w, f, "h200.h5", Options{});
  const PlacedOperator& p = find(e.decode, "down_proj");
  ASSERT_EQ(p.limiter, "dram");
  const double bound = p.bound_s;
  // The H200's HBM samples lie within 0.04% of their median: the floor of 2% holds.
  EXPECT_LT(p.spread, 0.001);
  auto attained_by = [&](const MachineEstimate& est, double faster) {
    return join_measured({down(1, bound / 2 / faster, 0, 1), down(1, bound / 2 / faster, 0, 2)},
                         m, w, est)
        .classes.front();
  };
  EXPECT_FALSE(attained_by(e, 1.015).faster_than_bound());
  EXPECT_TRUE(attained_by(e, 1.03).faster_than_bound());
  // Where the HBM's fastest sample was 5% above its median, 3% faster is within it.
  for (core::Ceiling& c : f.ceilings)
    if (c.name == "dram") c.max = c.value * 1.05;
  e = estimate(m, w, f, "h200.h5", Options{});
  EXPECT_NEAR(find(e.decode, "down_proj").spread, 0.05, 1e-12);
  const MeasuredClass c = attained_by(e, 1.03);
  EXPECT_NEAR(c.tolerance, 0.05, 1e-12);
  EXPECT_FALSE(c.faster_than_bound());
  EXPECT_TRUE(attained_by(e, 1.06).faster_than_bound());
}

}  // namespace
}  // namespace rooftop::llm
