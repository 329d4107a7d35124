// The injection library's launch selection, as Nsight Compute selects launches
// (--kernel-name regex:, --launch-skip, --launch-count), its environment, and kernel names.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/inject/selection.hpp"

namespace rooftop::inject {
namespace {

std::vector<bool> decide(LaunchSelector& s, const std::vector<std::string>& launches) {
  std::vector<bool> out;
  for (const std::string& name : launches) out.push_back(s.select(name));
  return out;
}

TEST(LaunchSelection, EveryLaunchWithoutASelection) {
  LaunchSelector s({});
  EXPECT_EQ(decide(s, {"a", "b", "a"}), (std::vector<bool>{true, true, true}));
}

TEST(LaunchSelection, SkipAndCountApplyToMatchingLaunchesOnly) {
  LaunchSelector s({"gemm", 1, 2});
  // The first gemm is skipped, the next two counted; the others never match.
  EXPECT_EQ(decide(s, {"add", "sgemm_128", "add", "sgemm_128", "hgemm", "sgemm_128", "add"}),
            (std::vector<bool>{false, false, false, true, true, false, false}));
  EXPECT_EQ(s.selected(), 2);
}

TEST(LaunchSelection, TheRegexMatchesAnywhereInTheDemangledName) {
  LaunchSelector s({"^void at::.*elementwise", 0, 0});
  EXPECT_TRUE(s.select("void at::native::vectorized_elementwise_kernel<4>(int)"));
  EXPECT_FALSE(s.select("sm80_xmma_gemm_f32f32"));
}

TEST(LaunchSelection, ABadRegexIsOneLine) {
  try {
    LaunchSelector s({"gemm(", 0, 0});
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gemm("), std::string::npos) << e.what();
  }
}

TEST(LaunchSelection, ReadFromTheVariablesRooftopProfileSets) {
  std::map<std::string, std::string> env = {{kEnvironment.kernel_regex, "gemm"},
                                            {kEnvironment.launch_skip, "3"},
                                            {kEnvironment.launch_count, "40"}};
  const GetEnv get = [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  const Selection s = selection_from_environment(get);
  EXPECT_EQ(s.kernel_regex, "gemm");
  EXPECT_EQ(s.launch_skip, 3);
  EXPECT_EQ(s.launch_count, 40);
  EXPECT_EQ(s.describe(), "kernels matching /gemm/, the first 3 launches skipped, 40 launches counted");
  for (const char* bad : {"-1", "4x", "1e3"}) {
    env[kEnvironment.launch_count] = bad;
    EXPECT_THROW(selection_from_environment(get), Error) << bad;
  }
}

TEST(KernelNames, DemangledAsPeopleReadThem) {
  // PyTorch's float multiply kernel (libtorch_cuda.so), as CUPTI gives its symbol.
  EXPECT_EQ(demangle("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BUnaryFunctorIfffNS0_"
                     "15binary_internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT0_T1_"),
            "void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<float, "
            "float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, "
            "2ul> >(int, at::native::BUnaryFunctor<float, float, float, "
            "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)");
  // A kernel with C linkage (cuBLAS's) keeps its name.
  EXPECT_EQ(demangle("nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT"),
            "nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT");
  // Short C-linkage names the demangler alone would read as types ("f" as "float").
  for (const char* name : {"f", "d", "i", "Pf"}) EXPECT_EQ(demangle(name), name);
  EXPECT_EQ(demangle(nullptr), "(unnamed kernel)");
  EXPECT_EQ(demangle(""), "(unnamed kernel)");
}

}  // namespace
}  // namespace rooftop::inject
