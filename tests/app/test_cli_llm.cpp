// `rooftop llm` as a user runs it: a real config (tests/fixtures/llm) on the machines of
// data/ side by side, its JSON, its charts, and each bad input one line with its exit
// status (2 for flags, 1 for files).

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

const std::string kLlama = kFixtures + "/llm/llama-3-8b.json";
const std::string kH200 = std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-1.h5";
const std::string kZen4 = std::string(ROOFTOP_DATA_DIR) + "/epyc-zen4-2026-11-29-ceilings.h5";

TEST(CliLlm, TwoMachinesSideBySideInJsonWithEveryOperatorOfBothPhases) {
  TempDir d;
  const std::string plot = d.file("llm.svg");
  const RunResult r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kH200, kZen4,
                                   "--json", "--plot", plot},
                                  d);
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["machines"].size(), 2u);
  for (const json& m : doc["machines"]) {
    for (const char* key : {"name", "prefill_s", "decode_s_per_token", "tokens_per_s",
                            "decode_bytes_per_token", "decode_flops_per_token",
                            "memory_bytes_needed", "fits", "phases"})
      EXPECT_TRUE(m.contains(key)) << key;
    ASSERT_EQ(m["phases"].size(), 2u);
    EXPECT_EQ(m["phases"][0]["name"], "prefill");
    EXPECT_EQ(m["phases"][1]["name"], "decode");
    for (const json& op : m["phases"][1]["operators"]) {
      EXPECT_TRUE(op.contains("limiter"));
      EXPECT_GE(op["bound_s"].get<double>(), 0.0);
    }
  }
  // The H200 streams 16 GB of bf16 weights a token far faster than a 2-core CPU.
  EXPECT_GT(doc["machines"][0]["tokens_per_s"].get<double>(),
            10 * doc["machines"][1]["tokens_per_s"].get<double>());
  EXPECT_TRUE(std::filesystem::exists(d.file("llm-1.svg")));
  EXPECT_TRUE(std::filesystem::exists(d.file("llm-2.svg")));
}

TEST(CliLlm, AModelThatDoesNotFitTheMachineIsSaidNotSilentlyTimed) {
  TempDir d;
  // 512 sequences of 8,320 tokens: 558 GB of KV cache beside 16 GB of weights, on a GPU
  // of 141 GiB.
  const RunResult r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kH200, "--batch",
                                   "512", "--prompt", "8192"},
                                  d);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("does not fit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: does not fit: the weights and KV cache need"), std::string::npos);
}

TEST(CliLlm, ARealGpuTraceIsJoinedByOperatorAndByLayer) {
  // One prefill of 16 sequences of 559 tokens through Qwen1.5-0.5B-Chat on an H100 (torch
  // 2.6, bf16, with_stack's modules naming each decoder layer), beside the H200's bounds:
  // an H100 is no faster than those.
  TempDir d;
  const RunResult r = run_rooftop(
      {"llm", "--config", kFixtures + "/llm/qwen1.5-0.5b-chat.json", "--ceilings", kH200,
       "--batch", "16", "--prompt", "559", "--generate", "0", "--json", "--trace",
       kFixtures + "/import/pytorch-h100-qwen1.5-0.5b-chat-prefill.json.gz"},
      d);
  ASSERT_EQ(r.status, 0) << r.err;
  const json measured = json::parse(r.out)["machines"][0]["measured"];
  std::map<std::string, json> classes;
  for (const json& c : measured["classes"]) {
    EXPECT_EQ(c["phase"], "prefill") << c.dump();
    EXPECT_FALSE(c["faster_than_bound"].get<bool>()) << c.dump();
    classes[c["name"].get<std::string>()] = c;
  }
  // Square attention (16 KV heads of 64): Q, K, V and O share a weight shape.
  for (const char* name : {"q_proj+k_proj+v_proj+o_proj", "gate_proj+up_proj", "down_proj",
                           "attention"})
    ASSERT_TRUE(classes.count(name)) << name << "\n" << r.out;
  for (const char* gemm : {"q_proj+k_proj+v_proj+o_proj", "gate_proj+up_proj", "down_proj"})
    EXPECT_DOUBLE_EQ(classes[gemm]["measured_flops"].get<double>(),
                     classes[gemm]["predicted_flops"].get<double>())
        << gemm;
  EXPECT_DOUBLE_EQ(classes["gate_proj+up_proj"]["measured_flops"].get<double>(),
                   24 * 2 * (2.0 * 16 * 559 * 1024 * 2816));
  ASSERT_EQ(measured["layers"].size(), 24u);
  for (int i = 0; i < 24; ++i) {
    const json& l = measured["layers"][i];
    EXPECT_EQ(l["layer"], i);
    EXPECT_EQ(l["phase"], "prefill");
    EXPECT_EQ(l["steps"], 1);
    EXPECT_GT(l["measured_s"].get<double>(), 0.0);
    EXPECT_LT(l["attained"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(l["bound_s"].get<double>(), measured["layers"][0]["bound_s"].get<double>());
  }
  bool orphans = false;
  for (const json& n : measured["notes"])
    orphans = orphans || n.get<std::string>().find("436 kernel(s)") != std::string::npos;
  EXPECT_TRUE(orphans) << measured["notes"].dump();
}

TEST(CliLlm, ATraceOfAnotherWorkloadMatchesNothingAndSaysWhy) {
  // The same trace beside a prompt of 128: no GEMM has the rows of either phase.
  TempDir d;
  const RunResult r = run_rooftop(
      {"llm", "--config", kFixtures + "/llm/qwen1.5-0.5b-chat.json", "--ceilings", kH200,
       "--prompt", "128", "--generate", "4", "--trace",
       kFixtures + "/import/pytorch-h100-qwen1.5-0.5b-chat-prefill.json.gz"},
      d);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("no call matched a predicted operator"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("24 call(s) of a layer with no GEMM or attention"), std::string::npos)
      << r.out;
}

TEST(CliLlm, EachBadInputIsOneLineWithItsStatus) {
  TempDir d;
  RunResult r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kH200, "--dtype", "int3"}, d);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 2);
  r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kH200, "--batch", "0"}, d);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 2);
  const std::string bad = d.file("config.json");
  write_bytes(bad, "{\"model_type\": \"llama\", \"hidden_size\": 4096}");
  r = run_rooftop({"llm", "--config", bad, "--ceilings", kH200}, d);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no \"num_hidden_layers\""), std::string::npos) << r.err;
  // A trace that is no trace.
  r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kH200, "--trace", kLlama}, d);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 1);
  // A ceilings file that is no ceilings file.
  r = run_rooftop({"llm", "--config", kLlama, "--ceilings", kLlama}, d);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 1);
}

}  // namespace
}  // namespace rooftop::testing
