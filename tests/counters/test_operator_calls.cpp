// read_operator_calls: each operator call of a real PyTorch trace with its time and layer,
// and operator_call_of: the call a CPU run's record name stands for.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "import_support.hpp"
#include "pytorch_events.hpp"
#include "rooftop/counters/import.hpp"

namespace rooftop::counters::testing {
namespace {

// One prefill of 16 sequences of 559 tokens through Qwen1.5-0.5B-Chat's 24 layers (random
// weights, bf16) on an H100, with_stack's modules naming each layer.
constexpr const char* kQwen = "pytorch-h100-qwen1.5-0.5b-chat-prefill.json.gz";

TEST(OperatorCalls, EachCallOfAGpuRunIsTimedByTheKernelsItLaunched) {
  const std::string gz = import_fixture(kQwen);
  const OperatorCalls calls = read_operator_calls({gz, kQwen});
  EXPECT_TRUE(calls.device);
  // The trace itself, read here apart: every kernel's duration, and those whose launch is
  // in it (their "External id" or their launch's, by correlation).
  const nlohmann::json doc = nlohmann::json::parse(inflated(gz));
  std::map<long long, long long> external_of_launch;
  std::set<long long> operators;
  for (const auto& e : doc["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if ((cat == "cuda_runtime" || cat == "cuda_driver") && e["args"].contains("External id"))
      external_of_launch[e["args"]["correlation"].get<long long>()] =
          e["args"]["External id"].get<long long>();
    if (cat == "cpu_op") operators.insert(e["args"]["External id"].get<long long>());
  }
  double launched_us = 0;
  int kernels = 0, orphans = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel") continue;
    ++kernels;
    const auto& args = e["args"];
    long long x = args.value("External id", -1LL);
    if (x < 0 && external_of_launch.count(args["correlation"].get<long long>()))
      x = external_of_launch[args["correlation"].get<long long>()];
    if (operators.count(x))
      launched_us += e["dur"].get<double>();
    else
      ++orphans;
  }
  EXPECT_EQ(kernels, 1465);
  EXPECT_EQ(orphans, 436);  // launched before the profiled step began
  double seconds = 0;
  for (const core::OperatorCall& c : calls.calls) seconds += c.seconds;
  EXPECT_NEAR(seconds, launched_us * 1e-6, 1e-9);
  bool said = false;
  for (const std::string& n : calls.notes)
    said = said || n.find("436 kernel(s)") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(OperatorCalls, TheLayerOfEachCallIsItsDecoderLayerModule) {
  const OperatorCalls calls = read_operator_calls({import_fixture(kQwen), kQwen});
  EXPECT_EQ(calls.scopes, 24);  // nn.Module: Qwen2DecoderLayer_0 ... _23
  std::map<int, std::map<std::string, int>> by_layer;  // layer -> operator -> calls
  std::set<int> scopes;
  for (const core::OperatorCall& c : calls.calls) {
    if (c.layer < 0) continue;
    ++by_layer[c.layer][c.name];
    scopes.insert(c.scope);
  }
  ASSERT_EQ(by_layer.size(), 24u);
  EXPECT_EQ(scopes.size(), 24u);
  for (const auto& [layer, ops] : by_layer) {
    // Q, K and V with their biases, O, gate, up and down, and flash attention.
    EXPECT_EQ(ops.at("aten::addmm"), 3) << layer;
    EXPECT_EQ(ops.at("aten::mm"), 4) << layer;
    EXPECT_EQ(ops.at("aten::_scaled_dot_product_flash_attention"), 1) << layer;
  }
  // A GEMM's shapes as the trace gives them: 16 x 559 rows of 1,024 into 2,816 (gate, up).
  int gate_up = 0;
  for (const core::OperatorCall& c : calls.calls)
    if (c.name == "aten::mm" && c.shapes.size() == 2 &&
        c.shapes[0] == std::vector<long long>{8944, 1024} &&
        c.shapes[1] == std::vector<long long>{1024, 2816}) {
      ++gate_up;
      EXPECT_DOUBLE_EQ(c.flops, 2.0 * 8944 * 1024 * 2816);
      EXPECT_GT(c.seconds, 0.0);
    }
  EXPECT_EQ(gate_up, 48);
}

TEST(OperatorCalls, ALayerIsItsOutermostScopeWhereModulesInItNameLayersToo) {
  // vLLM serving gpt-oss-120b on eight B200s (rank 0, one prefill of 888 tokens): each of
  // its 36 nn.Module: TransformerBlock_N holds an nn.Module: MLPBlock_N.
  const std::string name = "pytorch-b200-gpt-oss-120b-vllm-prefill.json.gz";
  const OperatorCalls calls = read_operator_calls({import_fixture(name), name});
  EXPECT_TRUE(calls.device);
  EXPECT_EQ(calls.scopes, 72);
  std::map<int, std::set<int>> scopes_of_layer;
  for (const core::OperatorCall& c : calls.calls)
    if (c.layer >= 0) scopes_of_layer[c.layer].insert(c.scope);
  ASSERT_EQ(scopes_of_layer.size(), 36u);
  for (const auto& [layer, scopes] : scopes_of_layer)
    EXPECT_EQ(scopes.size(), 1u) << "layer " << layer << ": one step, one scope";
}

TEST(OperatorCalls, ATraceWithoutLayersOrANonTraceIsSaid) {
  const std::string bert = "pytorch-h100-bert-small-with-flops.json.gz";
  const OperatorCalls calls = read_operator_calls({import_fixture(bert), bert});
  EXPECT_EQ(calls.scopes, 4);  // BERT's encoder layers: nn.Module: BertLayer_0 ... _3
  const std::string csv = "nvprof-trace-matrixmul.csv";
  const std::string why = error_of([&] { read_operator_calls({import_fixture(csv), csv}); });
  EXPECT_NE(why.find("it holds no operator calls"), std::string::npos) << why;
}

TEST(OperatorCalls, LayerNamesOfRecordFunctionRangesAndModules) {
  using importing::layer_index;
  EXPECT_EQ(layer_index("layers.3"), 3);
  EXPECT_EQ(layer_index("model.layers.31"), 31);
  EXPECT_EQ(layer_index("layer 7"), 7);
  EXPECT_EQ(layer_index("Layer_2"), 2);
  EXPECT_EQ(layer_index("transformer.h.11"), 11);
  EXPECT_EQ(layer_index("block_0"), 0);
  EXPECT_EQ(layer_index("nn.Module: LlamaDecoderLayer_12"), 12);
  EXPECT_EQ(layer_index("nn.Module: GPT2Block_5"), 5);
  for (const char* other : {"aten::mm", "nn.Module: Linear_3", "nn.Module: Qwen2Attention_0",
                            "ProfilerStep#6", "aten::conv2d", "relayers.3", "h3", "layers.",
                            "layers.12345678", "fetch.3", ""})
    EXPECT_FALSE(layer_index(other).has_value()) << other;
}

TEST(OperatorCalls, ARecordNameOfACpuRunIsItsOperatorAndShapes) {
  core::KernelRecord r;
  r.name = "aten::addmm (1000, 5x512, 512x1000, scalar)";
  r.time_s = 0.5;
  core::OperatorCall c = operator_call_of(r);
  EXPECT_EQ(c.name, "aten::addmm");
  ASSERT_EQ(c.shapes.size(), 4u);
  EXPECT_EQ(c.shapes[0], std::vector<long long>{1000});
  EXPECT_EQ(c.shapes[2], (std::vector<long long>{512, 1000}));
  EXPECT_TRUE(c.shapes[3].empty());
  EXPECT_EQ(c.layer, -1);
  EXPECT_DOUBLE_EQ(c.seconds, 0.5);
  r.name = "void gemm_kernel<float>(float*, int)";  // a kernel's name: no shapes read
  c = operator_call_of(r);
  EXPECT_EQ(c.name, r.name);
  EXPECT_TRUE(c.shapes.empty());
  r.name = "aten::mm (99999999999999x2, 2x2)";  // no tensor's dimension
  EXPECT_EQ(operator_call_of(r).name, r.name);
}

}  // namespace
}  // namespace rooftop::counters::testing
