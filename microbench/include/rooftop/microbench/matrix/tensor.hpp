#pragma once
// Tensor-core figures (group "matrix", tc_*): dense matrix multiply-accumulates on
// register-resident operands, swept over the independent accumulators per warp, and on
// Hopper also wgmma.mma_async on shared-memory operands (swept over N). Only a CUDA build
// measures them (inline PTX: mma.sync in microbench/src/matrix/tensor.cpp, wgmma in
// matrix/wgmma.cpp); under a host space the units are absent and every figure is
// skipped with why.
//
// The answer: every element of A is +a or -a (alternate steps), every element of B is b,
// every accumulator starts at c0. A step adds or takes k x a x b from every element; a
// launch runs an even number of steps and one more with +a, so each element ends at
// c0 + k x a x b: small powers of two, exact in every precision (FP16 accumulate
// included), whatever the number of steps.

#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {

// The tensor sweeps in the order they run (kFigures order) and their x values.
inline constexpr const char* kTensorFigures[] = {"tc_fp64",     "tc_tf32",       "tc_bf16",
                                                 "tc_fp16",     "tc_fp16_acc16", "tc_fp8_e4m3",
                                                 "tc_fp8_e5m2", "tc_int8"};
inline constexpr int kTensorAccumulators[] = {1, 2, 4, 8};

// The shape and operands of one figure's instruction.
struct TensorShape {
  int m = 0, n = 0, k = 0;  // one warp's mma: D(m x n) = A(m x k) B(k x n) + C
  double a = 0.0, b = 0.0, c0 = 0.0;
  // 32-bit registers per thread of A, B and C/D (fp64: 64-bit registers).
  int a_regs = 0, b_regs = 0, c_regs = 0;
  int c_values = 0;  // accumulator values per thread (2 per register for FP16 accumulate)
  int min_arch = 0;  // __CUDA_ARCH__ of the first GPUs with the instruction
};
// The shape of `figure`'s mma.sync in a build for `device_arch` (ROOFTOP_DEVICE_ARCH,
// core::Machine::device_arch: "sm_90"; "" for a build without CUDA): one per figure, but
// tc_fp64's is sm_90's m16n8k16 (8 A, 4 B and 4 C/D doubles per thread) in a build for
// sm_90 and Ampere's m8n8k4 otherwise, the instruction ceilings::tensor_instruction
// names. Throws rooftop::Error for a name that is not one of kTensorFigures.
TensorShape tensor_shape(const std::string& figure, const std::string& device_arch = "");

// A 32-bit operand register holding `value` in every element of the figure's input
// format (2 x FP16/BF16, 1 x TF32, 4 x FP8 or INT8); `value` must be exact in it (a
// power of two, or a small integer for INT8). Not for tc_fp64 (its registers are
// doubles). Throws rooftop::Error otherwise.
std::uint32_t tensor_operand_word(const std::string& figure, double value);

// The values of one accumulator register as the kernel stores it (the register's bits,
// widened to 64): 1 value (FP32, INT32, FP64) or 2 (FP16 accumulate, low half first).
std::vector<double> tensor_accumulator_values(const std::string& figure, std::uint64_t bits);

// Every accumulator element after `plus` steps with +a and `minus` with -a (the shape of
// a build for `device_arch`, as tensor_shape).
double tensor_expected_accumulator(const std::string& figure, std::int64_t plus, std::int64_t minus,
                                   const std::string& device_arch = "");

// Why `figure`'s mma.sync cannot measure its tensor cores on a GPU of compute capability
// `compute_capability` ("9.0"), or "" where it can. Hopper has no FP8 mma.sync unit: in
// its SASS an m16n8k32 .e4m3/.e5m2 is FP16 HMMAs with a zero accumulator on converted
// operands plus FADDs into the accumulators, and ptxas computes the unchanging products
// once: a pass of 128 mma (8 accumulators x 16 steps) is 6 HMMAs and 512 FADDs, so a
// rate would be the FADDs' (check-sass.sh counts the mma per pass). Throws
// rooftop::Error for a name that is not one of kTensorFigures.
std::string tensor_mma_unfit(const std::string& figure, const std::string& compute_capability);

// Operations of one warp's mma (2 x m x n x k; the shape of a build for `device_arch`).
double tensor_ops_per_mma(const std::string& figure, const std::string& device_arch = "");

// Hopper's warpgroup instruction, wgmma.mma_async (sm_90a): A (64 x k) and B (k x N)
// from shared memory through matrix descriptors, a 64 x N accumulator tile spread over
// the 128 threads. Every element of A is a and of B +b or -b (two tiles, alternate
// steps), so the layout cannot change the answer and tensor_expected_accumulator holds
// (k is the mma.sync shape's for every figure). Its sweeps run in builds for sm_90 on a
// compute-capability-9.0 GPU, x = N.
inline constexpr int kWgmmaN[] = {128, 256};
// The sweep of `figure`'s wgmma points ("tc_fp16:wgmma"); "" for tc_fp64 (no wgmma).
std::string wgmma_sweep(const std::string& figure);
// Operations of one wgmma m64nNk (2 x 64 x N x k); throws rooftop::Error for tc_fp64.
double wgmma_ops(const std::string& figure, int n);
// A shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format" of the
// asynchronous warpgroup-level matrix multiply): bits 0-13 the start address, 16-29 the
// leading-dimension and 32-45 the stride-dimension byte offsets, each as (bytes &
// 0x3FFFF) >> 4; 49-51 the base offset (0 here); 62-63 the swizzle mode (0 none, 1 128B,
// 2 64B, 3 32B). Throws rooftop::Error for an address or offset not 16-byte aligned or
// above 256 KiB, or a mode above 3.
std::uint64_t wgmma_descriptor(std::uint32_t address, std::uint32_t leading_bytes,
                               std::uint32_t stride_bytes, int swizzle);
// Whether the wgmma sweeps run: a build for `build_arch` ("sm_90", ROOFTOP_DEVICE_ARCH;
// only then is the source compiled for sm_90a as well) on a GPU of compute capability
// `compute_capability` ("9.0"; the sm_90a code runs on no other).
bool wgmma_in_plan(const std::string& build_arch, const std::string& compute_capability);

// One point: `threads` threads (whole warps) each running `accumulators` independent
// chains of `inner` x kTensorSteps mma steps per launch (inner scaled as for the other
// device kernels with `scaling`), the answer checked after timing (throws rooftop::Error
// when wrong, when this build or space has no such unit, or where tensor_mma_unfit).
template <class Space>
core::SweepPoint measure_tensor(const std::string& figure, int accumulators, std::int64_t threads,
                                std::int64_t inner, const core::Sampling& sampling,
                                LaunchScaling* scaling = nullptr);

// Every tc_* sweep (kTensorFigures x kTensorAccumulators) with the plan's threads and
// launch length and short samples (about 4 s in all on a GPU), each figure followed by
// its wgmma sweep where wgmma_in_plan. A figure that cannot be
// measured (host space, no such instruction for this GPU) or a point that fails goes to
// `skipped` as "<figure>: <reason>" and the others still run; without `skipped` a failure
// is thrown. An interruption is always thrown.
template <class Space>
std::vector<core::SweepPoint> run_tensor_sweeps(const DevicePlan& plan, const Progress& progress,
                                                std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::microbench
