// `rooftop profile --torch -- python3 program.py` with Debian's PyTorch (python3-torch,
// 1.13, CPU; its python is /usr/bin/python3, whatever python3 comes first on PATH): a small
// program's operators placed, its GEMM's FLOPs 2·m·n·k and PyTorch's own count; a program
// that raises, exits non-zero or is interrupted; a command that is not a Python program
// with torch importable. Where /usr/bin/python3 cannot import torch the tests are skipped,
// unless ROOFTOP_REQUIRE_TORCH is set (scripts/test.sh sets it: it installs PyTorch).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

constexpr const char* kPython = "/usr/bin/python3";

// Whether Debian's python imports torch (asked once).
bool torch_importable() {
  static const bool importable =
      std::system((std::string(kPython) + " -c 'import torch' >/dev/null 2>&1").c_str()) == 0;
  return importable;
}

#define REQUIRE_TORCH()                                                                   \
  do {                                                                                    \
    if (!torch_importable()) {                                                            \
      if (std::getenv("ROOFTOP_REQUIRE_TORCH"))                                           \
        FAIL() << kPython << " cannot import torch (scripts/install-deps.sh --tests "       \
                             "installs python3-torch)";                                   \
      GTEST_SKIP() << kPython << " cannot import torch";                                  \
    }                                                                                     \
  } while (0)

// A GEMM of 64 x 512 by 512 x 256 (a linear layer), a ReLU, then `ending`.
constexpr int kM = 64, kK = 512, kN = 256;
std::string program(const std::string& ending = "") {
  return "import sys, torch\n"
         "layer = torch.nn.Linear(" + std::to_string(kK) + ", " + std::to_string(kN) + ")\n"
         "y = torch.relu(layer(torch.randn(" + std::to_string(kM) + ", " + std::to_string(kK) +
         ")))\n"
         "print('the program says', sys.argv[1:])\n" + ending;
}

struct TorchRun {
  TempDir logs, files;
  std::string ceilings = files.file("ceilings.h5");
  TorchRun() { ceilings::write_file(ceilings, sample_ceilings_file()); }
  std::string script(const std::string& text, const std::string& name = "train.py") {
    const std::string path = files.file(name);
    write_bytes(path, text);
    return path;
  }
  RunResult profile(const std::vector<std::string>& command, std::vector<std::string> flags = {}) {
    std::vector<std::string> args = {"profile", "--ceilings", ceilings, "--torch"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("--");
    args.insert(args.end(), command.begin(), command.end());
    return run_rooftop(args, logs);
  }
};

const json* kernel_starting(const json& doc, const std::string& prefix) {
  for (const json& k : doc["kernels"])
    if (k["name"].get<std::string>().rfind(prefix, 0) == 0) return &k;
  return nullptr;
}

const std::string kGemm = "aten::addmm (" + std::to_string(kN) + ", " + std::to_string(kM) +
                          "x" + std::to_string(kK) + ", " + std::to_string(kK) + "x" +
                          std::to_string(kN) + ")";

TEST(CliProfileTorch, ASmallProgramsOperatorsArePlacedItsGemmAtTwoMnkAndPyTorchsOwnCount) {
  REQUIRE_TORCH();
  TorchRun s;
  const std::string trace = s.files.file("kept.json");
  const std::string out = s.files.file("kernels.h5");
  const RunResult r = s.profile({kPython, s.script(program()), "--lr", "0.1"},
                                {"--json", "--trace", trace, "--out", out});
  ASSERT_EQ(r.status, 0) << r.err;
  // The program's own output and arguments, on stderr: stdout is rooftop's JSON.
  EXPECT_NE(r.err.find("the program says ['--lr', '0.1']"), std::string::npos) << r.err;
  const json doc = json::parse(r.out);
  const json* gemm = kernel_starting(doc, kGemm);
  ASSERT_NE(gemm, nullptr) << r.out.substr(0, 2000);
  const double two_mnk = 2.0 * kM * kN * kK;
  EXPECT_EQ((*gemm)["flops_by_precision"]["fp32"].get<double>(), two_mnk);
  EXPECT_GT((*gemm)["time_s"].get<double>(), 0.0);
  EXPECT_GT((*gemm)["fraction_of_roof"].get<double>(), 0.0);
  EXPECT_EQ((*gemm)["bytes_counted"].begin().value(), "minimum");
  // Inputs, weight, bias and output once each, in fp32.
  EXPECT_EQ((*gemm)["bytes"].begin().value().get<double>(),
            4.0 * (kM * kK + kK * kN + kN + kM * kN));
  const json* relu = kernel_starting(doc, "aten::relu (");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ((*relu)["flops_by_precision"]["fp32"].get<double>(), 1.0 * kM * kN);
  EXPECT_TRUE(std::filesystem::exists(out));

  // PyTorch's own with_flops count of the GEMM, as the kept trace carries it where this
  // PyTorch has no kineto (its export has no shapes), or as PyTorch 2.x counts it from the
  // same shapes rooftop reads: rooftop's count from the shapes alone must equal it.
  json kept = json::parse(read_bytes(trace));
  for (json& e : kept["traceEvents"]) {
    if (e.value("name", "") != "aten::addmm") continue;
    if (e["args"].contains("flops")) EXPECT_EQ(e["args"]["flops"].get<double>(), two_mnk);
    e["args"].erase("flops");
  }
  const std::string bare = s.files.file("bare.json");
  write_bytes(bare, kept.dump());
  const RunResult shapes =
      run_rooftop({"import", bare, "--ceilings", s.ceilings, "--json"}, s.logs);
  ASSERT_EQ(shapes.status, 0) << shapes.err;
  const json from_shapes = json::parse(shapes.out);
  const json* counted = kernel_starting(from_shapes, kGemm);
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ((*counted)["flops_by_precision"]["fp32"].get<double>(), two_mnk);
}

TEST(CliProfileTorch, AProgramThatExitsNonZeroOrRaisesKeepsItsStatusAndWhatItRanIsPlaced) {
  REQUIRE_TORCH();
  TorchRun s;
  RunResult r = s.profile({kPython, s.script(program("sys.exit(3)\n"))}, {"--json"});
  EXPECT_EQ(r.status, 3) << r.err;
  json doc = json::parse(r.out);
  EXPECT_NE(kernel_starting(doc, kGemm), nullptr);
  EXPECT_NE(r.out.find("exited with status 3"), std::string::npos);

  r = s.profile({kPython, s.script(program("raise ValueError('the program failed')\n"))},
                {"--json"});
  EXPECT_EQ(r.status, 1) << r.err;
  // Python's own traceback, from the program's frames.
  EXPECT_NE(r.err.find("ValueError: the program failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("rooftop_torch.py"), std::string::npos) << r.err;
  doc = json::parse(r.out);
  EXPECT_NE(kernel_starting(doc, kGemm), nullptr);

  // A script run by its #! line, with sys.exit(0).
  const std::string script = s.script("#!" + std::string(kPython) + "\n" + program("sys.exit(0)\n"),
                                      "run.py");
  std::filesystem::permissions(script, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  r = s.profile({script}, {"--json"});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(CliProfileTorch, AnInterruptedProgramLeavesNoFileAndTheOldOnesWhole) {
  REQUIRE_TORCH();
  TorchRun s;
  const std::string out = s.files.file("kernels.h5"), trace = s.files.file("kept.json");
  write_bytes(out, "an earlier file");
  write_bytes(trace, "an earlier trace");
  // Ctrl-C reaches the program (KeyboardInterrupt), then rooftop.
  const std::string interrupted =
      program("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n");
  RunResult r = s.profile({kPython, s.script(interrupted)}, {"--out", out, "--trace", trace});
  EXPECT_EQ(r.status, 130) << r.err;
  // Ctrl-C at rooftop, passed on to the program.
  const std::string waiting =
      program("import os, signal, time\nos.kill(os.getppid(), signal.SIGINT)\ntime.sleep(30)\n");
  r = s.profile({kPython, s.script(waiting)}, {"--out", out, "--trace", trace});
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_LT(r.seconds, 25.0);
  EXPECT_EQ(read_bytes(out), "an earlier file");
  EXPECT_EQ(read_bytes(trace), "an earlier trace");
  for (const auto& e : std::filesystem::directory_iterator(s.files.path()))
    EXPECT_EQ(e.path().filename().string().find("partial"), std::string::npos) << e.path();
}

TEST(CliProfileTorch, ACommandThatIsNoPythonProgramWithTorchFailsInOneLine) {
  TorchRun s;
  RunResult r = s.profile({"/bin/true"});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("/bin/true: not a Python program"), std::string::npos) << r.err;
  r = s.profile({kPython});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("given nothing to run"), std::string::npos) << r.err;
  r = s.profile({"python3.99", "train.py"});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("program not found"), std::string::npos) << r.err;
  // -S leaves the site packages, and torch with them, off the path.
  r = s.profile({kPython, "-S", s.script(program())});
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("cannot import torch"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("the program says"), std::string::npos) << "the program did not run";
}

TEST(CliProfileTorch, TheElementwiseOperatorsPyTorchCountsNoneForHaveOnePerElement) {
  REQUIRE_TORCH();
  TorchRun s;
  const RunResult r = s.profile(
      {kPython, s.script("import torch\n"
                         "a, b = torch.randn(64, 512), torch.rand(64, 512) + 1\n"
                         "c = a - b\n"
                         "d = a / b\n"
                         "d.mul_(2.0)\n")},
      {"--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = json::parse(r.out);
  for (const char* name : {"aten::sub (64x512, 64x512", "aten::div (64x512, 64x512",
                           "aten::mul_ (64x512"}) {
    const json* k = kernel_starting(doc, name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ((*k)["flops_by_precision"]["fp32"].get<double>(), 64.0 * 512) << name;
  }
}

TEST(CliProfileTorch, PyTorchsOwnExportOfTheProgramImportsWithTimesAndNames) {
  // The trace a user's own torch.profiler run exports: with Debian's 1.13 (no kineto) the
  // legacy layout, no shapes: operators with times and names, a note naming --torch.
  REQUIRE_TORCH();
  TorchRun s;
  const std::string trace = s.files.file("own.json");
  const std::string own =
      "import sys, torch\n"
      "from torch.profiler import profile, ProfilerActivity\n"
      "with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as p:\n"
      "    torch.nn.Linear(512, 256)(torch.randn(64, 512))\n"
      "p.export_chrome_trace(sys.argv[1])\n";
  ASSERT_EQ(std::system((std::string(kPython) + " " + s.script(own, "own.py") + " " + trace +
                         " >/dev/null 2>&1")
                            .c_str()),
            0);
  const RunResult r = run_rooftop({"import", trace, "--ceilings", s.ceilings, "--json"}, s.logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = json::parse(r.out);
  const json* addmm = kernel_starting(doc, "aten::addmm");
  ASSERT_NE(addmm, nullptr);
  EXPECT_GT((*addmm)["time_s"].get<double>(), 0.0);
  const std::string text = read_bytes(trace);
  const std::size_t first = text.find_first_not_of(" \n");
  if (first != std::string::npos && text[first] == '[') {
    EXPECT_EQ((*addmm)["name"], "aten::addmm");  // no shapes in the legacy layout
    EXPECT_NE(r.out.find("profile --torch"), std::string::npos);
  } else {
    EXPECT_EQ((*addmm)["flops_by_precision"]["fp32"].get<double>(), 2.0 * 64 * 256 * 512);
  }
}

}  // namespace
}  // namespace rooftop::testing
