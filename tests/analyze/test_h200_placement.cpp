// Kernels of rooftop's first H200 run (fixtures/README.md) placed on its measured ceilings:
// PyTorch's tensor-core kernels as Nsight Compute counted them against the matrix units'
// figures, and the connector's CUPTI profile of connector_app on the roofs of its file.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/analyze/import_backend.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"

namespace rooftop::analyze {
namespace {

const std::string kFixtures = ROOFTOP_TEST_FIXTURES;

const core::KernelRecord& named(const std::vector<core::KernelRecord>& kernels,
                                const std::string& part) {
  for (const core::KernelRecord& k : kernels)
    if (k.name.find(part) != std::string::npos) return k;
  ADD_FAILURE() << "no kernel named ..." << part << "...";
  return kernels.front();
}

TEST(H200Placement, TensorKernelsOfAnNcuLogHaveTheirUnitsFigureAsComputeRoof) {
  const core::CeilingsFile ceilings = ceilings::read_file(kFixtures + "/h5/h200-ceilings.h5");
  ImportBackend backend(kFixtures + "/import/ncu-text-h200-torch.txt");
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> kernels = backend.collect(notes);
  ASSERT_EQ(kernels.size(), 18u);
  struct Expected {
    const char* name;
    const char* figure;
    const char* limiter;
  };
  for (const Expected& e : {Expected{"sdpa_sm90_flash_fprop_wgmma_f16", "tc_bf16", "tc_bf16"},
                            Expected{"nvjet_sm90_hsh", "tc_fp16", "l2"},
                            Expected{"implicit_gemm_tf32f32", "tc_tf32", "l2"}}) {
    SCOPED_TRACE(e.name);
    const core::KernelRecord& k = named(kernels, e.name);
    const core::Placement p = core::place(k, ceilings);
    EXPECT_TRUE(p.tensor);
    ASSERT_TRUE(p.compute.has_value());
    EXPECT_EQ(p.compute->ceiling, e.figure);
    EXPECT_DOUBLE_EQ(p.compute->gflop_per_s, ceilings.matrix.find(e.figure)->value);
    EXPECT_EQ(p.limiter, e.limiter);
    EXPECT_TRUE(p.above.empty());
  }
  // The SIMT SGEMM of cuBLAS has no tensor ops: the FP32 roofs.
  const core::Placement simt = core::place(named(kernels, "cutlass_80_simt_sgemm"), ceilings);
  EXPECT_FALSE(simt.tensor);
  EXPECT_EQ(simt.limiter, "fp32_fma");
}

TEST(H200Placement, TheConnectorsProfileIsPlacedOnItsOwnCeilings) {
  const core::CeilingsFile file =
      ceilings::read_file(kFixtures + "/h5/h200-profile-connector-app.h5");
  ASSERT_EQ(file.kernels.size(), 5u);
  const core::KernelRecord& axpy = named(file.kernels, "app::axpy");
  const core::Placement p = core::place(axpy, file);
  // 589,824 FP64 FLOPs over 6,338,016 L2 bytes in 7.456 us, against the 9,722 GB/s L2.
  EXPECT_EQ(p.limiter, "l2");
  EXPECT_NEAR(p.gflop_per_s, 589824.0 / 7.456e-6 * 1e-9, 1e-9);
  EXPECT_NEAR(p.attainable_gflop_per_s, 589824.0 / 6338016.0 * file.find("l2")->value, 1e-6);
  // What the file holds is what the placement gives now.
  EXPECT_EQ(p.limiter, axpy.limiter);
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, axpy.attainable_gflop_per_s);
  const core::Placement init = core::place(named(file.kernels, "View::initialization [x]"), file);
  EXPECT_TRUE(init.limiter.empty()) << "a kernel with a time and no counts is not placed";
}

}  // namespace
}  // namespace rooftop::analyze
