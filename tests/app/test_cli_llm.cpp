// `rooftop llm` as a user runs it: a real config (tests/fixtures/llm) on the machines of
// data/ side by side, its JSON, its charts, and each bad input one line with its exit
// status (2 for flags, 1 for files).

#include <gtest/gtest.h>

#include <filesystem>
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
