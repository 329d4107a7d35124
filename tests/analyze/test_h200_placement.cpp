// Kernels of rooftop's first H200 run (fixtures/README.md) placed on its measured ceilings:
// PyTorch's tensor-core kernels as Nsight Compute counted them against the matrix units'
// figures, the same program's profiler trace alone placed by the precision each operator
// ran in, and the connector's CUPTI profile of connector_app on the roofs of its file.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "rooftop/analyze/import_backend.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

using rooftop::testing::kFixtures;

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

// The trace of torch_model.py (torch.profiler, record_shapes=True), alone: FLOPs from the
// operators' shapes, in the precision of their inputs, placed by achieved FLOP/s.
std::vector<core::KernelRecord> trace_kernels(std::vector<std::string>& notes) {
  ImportBackend backend(kFixtures + "/import/pytorch-h200-torch-model.json.gz");
  return backend.collect(notes);
}

TEST(H200Placement, TheTraceAlonePlacesEachOperatorByThePrecisionItRan) {
  const core::CeilingsFile ceilings = ceilings::read_file(kFixtures + "/h5/h200-ceilings.h5");
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> kernels = trace_kernels(notes);
  for (const std::string& n : notes) EXPECT_EQ(n.find("counted as fp16"), std::string::npos) << n;
  // The bf16 flash attention: 2 x 8 x 16 x 512 x 512 x (64 + 64) FLOPs a call, 5 calls.
  const core::KernelRecord& flash = named(kernels, "sdpa_sm90_flash_fprop_wgmma_f16");
  EXPECT_EQ(flash.precision, "bf16");
  EXPECT_EQ(flash.flops_bf16, 5 * 2.0 * 8 * 16 * 512 * 512 * 128);
  EXPECT_EQ(flash.flops_fp16, 0.0);
  // The fp16 bmm (nvjet): 2 x 128 x 512 x 512 x 64 a call.
  const core::KernelRecord& bmm = named(kernels, "nvjet_sm90_hsh");
  EXPECT_EQ(bmm.precision, "fp16");
  EXPECT_EQ(bmm.flops_fp16, 5 * 2.0 * 128 * 512 * 512 * 64);
  struct Expected {
    const char* name;
    const char* roof;
    const char* note;
  };
  for (const Expected& e :
       {Expected{"sdpa_sm90_flash_fprop_wgmma_f16", "tc_bf16",
                 "BF16 FLOPs: placed against tc_bf16, the precision's tensor-core figure"},
        Expected{"nvjet_sm90_hsh", "tc_fp16",
                 "FP16 FLOPs: placed against tc_fp16, the precision's tensor-core figure"},
        Expected{"[operator] aten::conv2d", "tc_tf32",
                 "its kernel's name says tf32 (a tensor-core kernel of cuBLAS or cuDNN): "
                 "placed against tc_tf32"}}) {
    SCOPED_TRACE(e.name);
    const core::Placement p = core::place(named(kernels, e.name), ceilings);
    EXPECT_TRUE(p.tensor);
    ASSERT_TRUE(p.compute.has_value());
    EXPECT_EQ(p.compute->ceiling, e.roof);
    EXPECT_EQ(p.limiter, e.roof);  // no bytes: the compute roof alone
    EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, ceilings.matrix.find(e.roof)->value);
    EXPECT_TRUE(p.above.empty());
    EXPECT_NE(p.note.find(e.note), std::string::npos) << p.note;
  }
  // The convolution's record names its kernels, each cut at 100 characters: the TF32
  // implicit GEMM among them.
  const core::KernelRecord& conv = named(kernels, "[operator] aten::conv2d");
  EXPECT_EQ(conv.precision, "fp32");
  EXPECT_EQ(conv.description.rfind(
                "its kernels: cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, "
                "false, true, (cudnnKernelDataTy...; sm80_xmma_fprop_implicit_gemm_tf32f32",
                0),
            0u)
      << conv.description;
  // The SIMT SGEMM stays on the FP32 roofs, below them.
  const core::Placement simt = core::place(named(kernels, "cutlass_80_simt_sgemm"), ceilings);
  EXPECT_FALSE(simt.tensor);
  EXPECT_EQ(simt.limiter, "fp32_fma");
  EXPECT_TRUE(simt.above.empty());
}

TEST(H200Placement, AnFp32RateAboveItsRoofsAndWithinTf32IsPlacedThereBySaying) {
  const core::CeilingsFile ceilings = ceilings::read_file(kFixtures + "/h5/h200-ceilings.h5");
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> kernels = trace_kernels(notes);
  // The convolution without its kernels' names: its 107.8 TFLOP/s, above fp32_fma's 65.2
  // and within tc_tf32, places it there by the rate rule.
  core::KernelRecord conv = named(kernels, "[operator] aten::conv2d");
  conv.description.clear();
  const core::Placement p = core::place(conv, ceilings);
  EXPECT_EQ(p.limiter, "tc_tf32");
  EXPECT_TRUE(p.above.empty());
  EXPECT_NE(p.note.find("lies above fp32_fma and within tc_tf32: placed against tc_tf32"),
            std::string::npos)
      << p.note;
  // A rate that no figure of the file explains keeps the FP32 roof and is flagged.
  conv.time_s /= 100.0;
  const core::Placement wrong = core::place(conv, ceilings);
  EXPECT_EQ(wrong.limiter, "fp32_fma");
  ASSERT_EQ(wrong.above.size(), 1u);
  EXPECT_EQ(wrong.above[0], "fp32_fma");
}

TEST(H200Placement, TheNcuLogBesideTheTraceStillPlacesByItsTensorOps) {
  const core::CeilingsFile ceilings = ceilings::read_file(kFixtures + "/h5/h200-ceilings.h5");
  ImportBackend backend(
      std::vector<std::string>{kFixtures + "/import/ncu-text-h200-torch.txt",
                               kFixtures + "/import/pytorch-h200-torch-model.json.gz"});
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> kernels = backend.collect(notes);
  ASSERT_EQ(kernels.size(), 18u);
  for (const auto& [name, figure] :
       {std::pair{"sdpa_sm90_flash_fprop_wgmma_f16", "tc_bf16"},
        std::pair{"nvjet_sm90_hsh", "tc_fp16"}, std::pair{"implicit_gemm_tf32f32", "tc_tf32"}}) {
    SCOPED_TRACE(name);
    const core::KernelRecord& k = named(kernels, name);
    EXPECT_EQ(k.time_source, "PyTorch profiler kernel durations, scaled to the report's launches");
    const core::Placement p = core::place(k, ceilings);
    EXPECT_TRUE(p.tensor);
    EXPECT_EQ(p.compute->ceiling, figure);
    EXPECT_TRUE(p.above.empty());
  }
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
