// The outputs of rooftop's first run on an NVIDIA H200 (fixtures/README.md), through the
// program as a user runs it: the ceilings file (schema 1.7, with the tensor cores'
// figures) shown, an Nsight Compute log of a PyTorch program placed on it against the
// tensor figures, the same program's profiler trace placed by its operators' precisions,
// the connector's CUPTI profile shown and drawn, the ncu log of a failed profile refused in
// one line, and rooftop's CUPTI counts of the GPP ladder beside Nsight Compute's
// (compare-counts).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

const std::string kH5 = std::string(ROOFTOP_TEST_FIXTURES) + "/h5/";
const std::string kImport = std::string(ROOFTOP_TEST_FIXTURES) + "/import/";

json run_json(const std::vector<std::string>& args) {
  TempDir logs;
  const RunResult r = run_rooftop(args, logs);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.status == 0 ? json::parse(r.out) : json::object();
}

const json* kernel(const json& doc, const std::string& name_part) {
  for (const json& k : doc["kernels"])
    if (k["name"].get<std::string>().find(name_part) != std::string::npos) return &k;
  ADD_FAILURE() << "no kernel named ..." << name_part << "...";
  return nullptr;
}

TEST(CliH200, ShowJsonOfTheCeilingsFileHasItsKeysAndTheTensorFigures) {
  const json j = run_json({"show", kH5 + "h200-ceilings.h5", "--json"});
  for (const char* key : {"schema_version", "tool_version", "git_revision", "created_utc",
                          "machine", "ceilings", "costs", "matrix"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["schema_version"], "1.7");
  EXPECT_EQ(j["git_revision"], "ded2fba6cd99");
  EXPECT_EQ(j["machine"]["gpu_name"], "NVIDIA H200");
  EXPECT_EQ(j["machine"]["compute_capability"], "9.0");
  std::vector<std::string> names;
  for (const json& c : j["ceilings"]) {
    names.push_back(c["name"]);
    for (const char* key : {"kind", "value", "units", "median", "min", "max", "samples",
                            "theoretical", "fraction_of_theoretical", "disturbance", "disturbed"})
      EXPECT_TRUE(c.contains(key)) << c["name"] << " " << key;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fp64_fma", "fp64_nofma", "fp32_fma", "fp32_nofma",
                                             "l1", "shared", "l2", "dram"}));
  EXPECT_NEAR(j["ceilings"][0]["value"].get<double>(), 33086.4, 0.1);  // fp64_fma, GFLOP/s
  EXPECT_NEAR(j["ceilings"][7]["value"].get<double>(), 4380.6, 0.1);   // dram, GB/s

  // Every tensor figure measure wrote, the wgmma ones near their dense peaks.
  std::set<std::string> figures;
  for (const json& f : j["matrix"]["figures"]) {
    figures.insert(f["name"].get<std::string>());
    EXPECT_GT(f["value"].get<double>(), 0.0) << f["name"];
  }
  EXPECT_EQ(figures, (std::set<std::string>{"tc_fp64", "tc_tf32", "tc_bf16", "tc_fp16",
                                            "tc_fp16_acc16", "tc_fp8_e4m3", "tc_fp8_e5m2",
                                            "tc_int8"}));
  for (const json& f : j["matrix"]["figures"])
    if (f["name"] == "tc_bf16") {
      EXPECT_NEAR(f["value"].get<double>(), 962923.8, 0.1);
      EXPECT_EQ(f["pattern"], "wgmma.mma_async.m64n128k16");
    }
}

TEST(CliH200, AnNcuLogOfPyTorchKernelsIsPlacedAgainstTheTensorFigures) {
  TempDir files;
  const std::string svg = files.file("torch.svg");
  const json j = run_json({"import", kImport + "ncu-text-h200-torch.txt", "--ceilings",
                           kH5 + "h200-ceilings.h5", "--plot", svg, "--json"});
  ASSERT_EQ(j["kernels"].size(), 18u);
  // The bf16 flash attention is bound by its unit's figure; the fp16 GEMM (nvjet) and the
  // TF32 convolution have theirs as their compute roof, under their L2 roofs.
  const json* attention = kernel(j, "sdpa_sm90_flash_fprop_wgmma_f16");
  const json* gemm = kernel(j, "nvjet_sm90_hsh");
  const json* conv = kernel(j, "implicit_gemm_tf32f32");
  ASSERT_TRUE(attention && gemm && conv);
  EXPECT_EQ((*attention)["limiter"], "tc_bf16");
  EXPECT_EQ((*attention)["tensor_ops"]["tc_bf16"].get<double>(), 17179869184.0);
  EXPECT_NEAR((*attention)["attainable_gflop_per_s"].get<double>(), 962923.8, 0.1);
  EXPECT_EQ((*gemm)["tensor_ops"]["tc_fp16"].get<double>(), 4294967296.0);
  EXPECT_EQ((*gemm)["limiter"], "l2");
  EXPECT_EQ((*conv)["tensor_ops"]["tc_tf32"].get<double>(), 7398752256.0);
  EXPECT_EQ((*conv)["limiter"], "l2");
  // The chart draws the figures the kernels are placed against, and no other.
  const std::string chart = read_bytes(svg);
  for (const char* figure : {"tc_bf16", "tc_fp16", "tc_tf32"})
    EXPECT_NE(chart.find(figure), std::string::npos) << figure;
  for (const char* figure : {"tc_int8", "tc_fp8_e4m3", "tc_fp64"})
    EXPECT_EQ(chart.find(figure), std::string::npos) << figure;
}

TEST(CliH200, ThePyTorchTraceAlonePlacesItsOperatorsByTheirPrecision) {
  // The profiler trace of the same program: the bf16 flash attention against tc_bf16, the
  // fp16 bmm against tc_fp16, the fp32 convolution (cuDNN's TF32 implicit GEMM) against
  // tc_tf32, and no warning that counts or ceilings are wrong.
  TempDir logs, files;
  const std::string out = files.file("torch.h5");
  const RunResult r =
      run_rooftop({"import", kImport + "pytorch-h200-torch-model.json.gz", "--ceilings",
                   kH5 + "h200-ceilings.h5", "--out", out, "--json"},
                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("its counts or the ceilings are wrong"), std::string::npos) << r.err;
  const json j = json::parse(r.out);
  const json* attention = kernel(j, "sdpa_sm90_flash_fprop_wgmma_f16");
  const json* bmm = kernel(j, "nvjet_sm90_hsh");
  const json* conv = kernel(j, "[operator] aten::conv2d");
  ASSERT_TRUE(attention && bmm && conv);
  EXPECT_EQ((*attention)["limiter"], "tc_bf16");
  EXPECT_EQ((*attention)["precision"], "bf16");
  EXPECT_EQ((*attention)["flops_by_precision"]["bf16"].get<double>(),
            5 * 2.0 * 8 * 16 * 512 * 512 * 128);
  EXPECT_EQ((*bmm)["limiter"], "tc_fp16");
  EXPECT_EQ((*conv)["limiter"], "tc_tf32");
  EXPECT_NE((*conv)["note"].get<std::string>().find("its kernel's name says tf32"),
            std::string::npos);
  EXPECT_EQ((*conv)["above"], "");
  // The kernels file keeps the BF16 FLOPs (schema 1.8).
  const json shown = run_json({"show", out, "--json"});
  EXPECT_EQ(shown["schema_version"], "1.8");
  EXPECT_EQ((*kernel(shown, "sdpa_sm90_flash_fprop_wgmma_f16"))["flops_by_precision"]["bf16"],
            (*attention)["flops_by_precision"]["bf16"]);
}

TEST(CliH200, TheConnectorsCuptiProfileIsShownAndDrawn) {
  // `rooftop profile --out` of connector_app on the H200: two View initializations timed,
  // axpy, dot and prefix counted by CUPTI, placed on the same ceilings.
  const json j = run_json({"show", kH5 + "h200-profile-connector-app.h5", "--json"});
  ASSERT_EQ(j["kernels"].size(), 5u);
  const json* axpy = kernel(j, "app::axpy");
  const json* dot = kernel(j, "app::dot");
  const json* init = kernel(j, "Kokkos::View::initialization [x]");
  ASSERT_TRUE(axpy && dot && init);
  EXPECT_EQ((*axpy)["source"], "cupti");
  EXPECT_EQ((*axpy)["invocations"], 3);
  EXPECT_EQ((*axpy)["flops_by_precision"]["fp64"].get<double>(), 589824.0);
  EXPECT_EQ((*axpy)["bytes"]["dram"].get<double>(), 1112832.0);
  EXPECT_EQ((*axpy)["limiter"], "l2");
  EXPECT_EQ((*axpy)["placement"], "roofline");
  EXPECT_EQ((*dot)["limiter"], "l2");
  EXPECT_EQ((*init)["source"], "kokkos-tools-timing");
  EXPECT_TRUE((*init)["placement"].is_null()) << "a kernel with a time alone is listed, not placed";

  TempDir logs, files;
  const std::string svg = files.file("profile.svg");
  const RunResult p = run_rooftop({"plot", kH5 + "h200-profile-connector-app.h5", "--out", svg},
                                  logs);
  ASSERT_EQ(p.status, 0) << p.err;
  const std::string chart = read_bytes(svg);
  EXPECT_NE(chart.find("app::axpy"), std::string::npos);
  EXPECT_NE(chart.find("class='kernel level-dram"), std::string::npos);
}

TEST(CliH200, AnNcuLogWithErrorsAndNoKernelIsOneLine) {
  TempDir logs;
  const RunResult r = run_rooftop(
      {"import", kImport + "ncu-errors-only-h200.log", "--ceilings", kH5 + "h200-ceilings.h5"},
      logs);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("Nsight Compute profiled no kernel: ==ERROR== Failed to profile "
                       "\"cuda_parallel_launch_local_me...\" in process 1183"),
            std::string::npos)
      << r.err;
}

TEST(CliH200, CompareCountsPutsRooftopsCuptiCountsBesideNsightComputes) {
  TempDir logs;
  const std::vector<std::string> files = {kH5 + "h200-gpp-small-cupti.h5",
                                          kImport + "ncu-raw-h200-gpp-small.csv"};
  const RunResult r = run_rooftop({"compare-counts", files[0], files[1]}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const std::string& line :
       {"  A: " + files[0] + ": rooftop kernels file (cupti), 9 kernels",
        "  B: " + files[1] + ": Nsight Compute CSV (ncu-wide), 12 kernels",
        std::string("paired by order: no kernel name of either file contains one of the other's"),
        std::string("unpaired: B k10, k11, k12"),
        std::string("v1 / k1       fp64 FLOPs        176,273,766,576     145,814,978,560    "
                    "-17.3%  B without dadd, dmul"),
        std::string("v4 / k4       per launch: A's counts cover 3, B's 1"),
        std::string("  l1 bytes     within 2% in all 9 pairs (B - A 0%)"),
        std::string("  dram bytes   within 2% in 1 of 9 pairs; off target: v2 -3.55%, v3 -17.7%"),
        std::string("  fp32 FLOPs   not compared: B does not count them"),
        std::string("B k12     void Kokkos::Impl::cuda_parallel_launch_local_memory<")})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;

  const json j = run_json({"compare-counts", files[0], files[1], "--json"});
  for (const char* key : {"a", "b", "targets", "paired_by", "pairs", "unpaired", "verdicts"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["paired_by"], "order");
  EXPECT_EQ(j["targets"]["bytes"], "within 2%");
  ASSERT_EQ(j["pairs"].size(), 9u);
  const json& v4 = j["pairs"][3];
  EXPECT_EQ(v4["label"], "v4");
  EXPECT_EQ(v4["launches"]["a"], 3);
  EXPECT_EQ(v4["launches"]["b"], 1);
  EXPECT_EQ(v4["per_launch"], true);
  for (const json& q : v4["quantities"])
    if (q["name"] == "fp32 FLOPs") {
      EXPECT_TRUE(q["b"].is_null()) << "not counted is no value, not 0";
      EXPECT_EQ(q["b_short"], "not counted");
    }
  EXPECT_EQ(j["unpaired"]["b"].size(), 3u);
}

TEST(CliH200, CompareCountsOfAFileWithoutKernelsOrErrorsAloneIsOneLine) {
  TempDir logs;
  const std::string kernels = kH5 + "h200-gpp-small-cupti.h5";
  for (const std::string& other :
       {kH5 + "h200-ceilings.h5", kImport + "ncu-errors-only-h200.log", kH5 + "missing.h5"}) {
    const RunResult r = run_rooftop({"compare-counts", kernels, other}, logs);
    expect_one_line_failure(r);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(other), std::string::npos) << r.err;
  }
  const RunResult one = run_rooftop({"compare-counts", kernels}, logs);
  expect_one_line_failure(one);
  EXPECT_EQ(one.status, 2) << "two files are required";
}

}  // namespace
}  // namespace rooftop::testing
