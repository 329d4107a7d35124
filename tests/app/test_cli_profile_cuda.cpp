// `rooftop profile -- PROGRAM` with the CUDA injection library, as a user runs it, with no
// GPU: every failure is one line (library missing, program not found, program failed, no
// GPU, no kernel counted, counters not permitted), the selection reaches the program's
// environment, and a profile the library wrote is placed. A shell stands in for the
// program and copies what the library would have written (made here by rooftop's own
// profile writer) to the path rooftop gives it.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

struct Profiling {
  TempDir logs, files;
  std::string ceilings = files.file("ceilings.h5");
  // Any existing file passes for the library: only a CUDA program's driver opens it.
  std::string library = files.file("librooftop_cuda_injection.so");
  Profiling() {
    ceilings::write_file(ceilings, sample_ceilings_file());
    write_bytes(library, "");
  }
  RunResult profile(const std::vector<std::string>& program, std::vector<std::string> flags = {}) {
    std::vector<std::string> args = {"profile", "--ceilings", ceilings, "--injection", library};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("--");
    args.insert(args.end(), program.begin(), program.end());
    return run_rooftop(args, logs);
  }
  // A program that "writes" the profile `text`.
  std::vector<std::string> writing(const std::string& text) {
    const std::string recorded = files.file("recorded.jsonl");
    write_bytes(recorded, text);
    return {"/bin/sh", "-c", "cp \"$0\" \"$ROOFTOP_PROFILE_OUT\"", recorded};
  }
};

connector::LabelStats kernel(const std::string& name, bool counted) {
  connector::LabelStats s;
  s.label = name;
  s.source = "cupti-activity";
  s.spaces = {"Cuda"};
  s.invocations = 2;
  s.total_s = 2e-3;
  s.time_source = "CUPTI activity records";
  if (counted) {
    s.counters = {{counters::flop_metric('d', "fma"), 5e8}, {"dram__bytes.sum", 1e9}};
    s.counted_invocations = 2;
  }
  return s;
}

TEST(CliProfileCuda, EachFailureIsOneLine) {
  Profiling s;
  RunResult r = run_rooftop({"profile", "--ceilings", s.ceilings, "--injection",
                             s.files.file("none.so"), "--", "/bin/true"},
                            s.logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("no such injection library"), std::string::npos) << r.err;
  r = s.profile({"no-such-program"});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("no-such-program: program not found"), std::string::npos) << r.err;
  r = s.profile({"/bin/sh", "-c", "exit 3"});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("exited with status 3"), std::string::npos) << r.err;
  r = s.profile({"/bin/true"});  // initialized no CUDA, so no library was loaded
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("no kernel counted"), std::string::npos) << r.err;
  if (!std::filesystem::exists("/dev/nvidiactl")) {
    EXPECT_NE(r.err.find("no NVIDIA GPU"), std::string::npos) << r.err;
  }
  r = s.profile({"/bin/true"}, {"--kernel-regex", "gemm("});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("gemm("), std::string::npos) << r.err;
  EXPECT_EQ(s.profile({"/bin/true"}, {"--launch-count", "-1"}).status, 2);
  EXPECT_EQ(s.profile({"/bin/true"}, {"--kokkos", "--cuda"}).status, 2);
}

TEST(CliProfileCuda, CountersNotPermittedOrNoKernelCountedSayWhy) {
  Profiling s;
  connector::ProfileHeader refused;
  refused.source = "cupti-activity";
  refused.notes = {"no counters: cuptiRangeProfilerEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"};
  RunResult r = s.profile(s.writing(connector::profile_text(refused, {kernel("k", false)})));
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("RmProfilingAdminOnly"), std::string::npos) << r.err;
  connector::ProfileHeader empty;
  empty.source = "cupti-activity";
  r = s.profile(s.writing(connector::profile_text(empty, {})));
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("launched no CUDA kernel"), std::string::npos) << r.err;
}

TEST(CliProfileCuda, TheSelectionReachesTheProgram) {
  Profiling s;
  const std::string seen = s.files.file("seen.txt");
  s.profile({"/bin/sh", "-c",
             "echo \"$CUDA_INJECTION64_PATH|$ROOFTOP_KERNEL_REGEX|$ROOFTOP_LAUNCH_SKIP|"
             "$ROOFTOP_LAUNCH_COUNT\" > \"$0\"",
             seen},
            {"--kernel-regex", "gemm", "--launch-skip", "5", "--launch-count", "40"});
  EXPECT_EQ(read_bytes(seen), s.library + "|gemm|5|40\n");
}

TEST(CliProfileCuda, AProfileOfTheLibraryIsPlaced) {
  Profiling s;
  connector::ProfileHeader header;
  header.source = "cupti";
  header.notes = {"CUDA kernels of any program (CUPTI injection), by demangled name"};
  const RunResult r = s.profile(
      s.writing(connector::profile_text(header, {kernel("void axpy(double*)", true),
                                                 kernel("nvjet_sm90_tst", false)})),
      {"--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u) << r.out;
  EXPECT_EQ(j["kernels"][0]["name"], "void axpy(double*)");
  EXPECT_DOUBLE_EQ(j["kernels"][0]["flops"].get<double>(), 1e9);
  EXPECT_NE(r.err.find("with the CUDA injection library"), std::string::npos) << r.err;
}

// A torch.profiler trace beside the profile (the real H200 trace of torch_model.py,
// fixtures/README.md) names the operators that launched each kernel it has.
TEST(CliProfileCuda, ATraceNamesTheOperatorsOfTheKernels) {
  Profiling s;
  connector::ProfileHeader header;
  header.source = "cupti";
  const std::string sgemm =
      "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>("
      "cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)";
  const std::string trace =
      std::string(ROOFTOP_TEST_FIXTURES) + "/import/pytorch-h200-torch-model.json.gz";
  const RunResult r = s.profile(
      s.writing(connector::profile_text(header, {kernel(sgemm, true), kernel("void axpy(double*)", true)})),
      {"--trace", trace, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u) << r.out;
  EXPECT_EQ(j["kernels"][0]["description"], "launched by aten::linear > aten::addmm");
  EXPECT_EQ(j["kernels"][1]["description"], "");
  EXPECT_NE(r.out.find("the operators that launched 1 of 2 kernel(s) named (none for k2"),
            std::string::npos)
      << r.out;
}

// A trace that is no trace fails before the program runs; one that is missing after the
// run costs the names, not the profile.
TEST(CliProfileCuda, ABadTraceFailsFirstAndAMissingOneKeepsTheProfile) {
  Profiling s;
  const std::string ran = s.files.file("ran.txt");
  RunResult r = s.profile({"/bin/sh", "-c", "touch \"$0\"", ran},
                          {"--trace", std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-text-h200-torch.txt"});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("not a PyTorch profiler trace"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(ran)) << "the program ran";
  connector::ProfileHeader header;
  header.source = "cupti";
  r = s.profile(s.writing(connector::profile_text(header, {kernel("void axpy(double*)", true)})),
                {"--trace", s.files.file("never-written.json"), "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("never-written.json: no such file after the run: kernels keep their "
                       "names only"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace rooftop::testing
