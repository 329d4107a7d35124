// Tensor-core figures: warp-wide mma.sync on register-resident operands (inline PTX; the
// wgmma sweeps, Hopper's, are wgmma.cpp's). Every instruction sits behind
// __CUDA_ARCH__ and the first architecture that has it; a kernel compiled without it
// reports the unit absent instead of a rate. The launch, scaling and sampling are the
// other device kernels' (device/timing.hpp).
#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "device/kernels.hpp"
#include "device/timing.hpp"
#include "matrix/wgmma.hpp"
#include "rooftop/ceilings/tensor_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/matrix/tensor.hpp"

#if defined(__CUDA_ARCH__)
#define ROOFTOP_TENSOR_ARCH __CUDA_ARCH__
#else
#define ROOFTOP_TENSOR_ARCH 0
#endif

namespace rooftop::microbench {

// ---------------------------------------------------------------------------------------
// Shapes, operands and answers (plain C++: the tests check them on the host).

TensorShape tensor_shape(const std::string& figure, const std::string& device_arch) {
  // m, n, k, a, b, c0, A/B/C registers, accumulator values, first architecture.
  if (figure == "tc_fp64") {
    if (ceilings::tensor_instruction(figure, device_arch) == "mma.sync.m16n8k16")
      return {16, 8, 16, 1.0, 0.5, 1.0, 8, 4, 4, 4, 900};  // sm_90's FP64 shapes
    return {8, 8, 4, 1.0, 0.5, 1.0, 1, 1, 2, 2, 800};
  }
  if (figure == "tc_tf32") return {16, 8, 8, 1.0, 0.5, 1.0, 4, 2, 4, 4, 800};
  if (figure == "tc_bf16" || figure == "tc_fp16")
    return {16, 8, 16, 1.0, 0.5, 1.0, 4, 2, 4, 4, 800};
  if (figure == "tc_fp16_acc16") return {16, 8, 16, 1.0, 0.5, 1.0, 4, 2, 2, 4, 800};
  if (figure == "tc_fp8_e4m3" || figure == "tc_fp8_e5m2")
    return {16, 8, 32, 1.0, 0.5, 1.0, 4, 2, 4, 4, 890};  // FP8 mma came with Ada
  if (figure == "tc_int8") return {16, 8, 32, 1.0, 2.0, 1.0, 4, 2, 4, 4, 800};
  throw Error("no tensor-core figure named " + figure);
}

std::string tensor_mma_unfit(const std::string& figure, const std::string& compute_capability) {
  tensor_shape(figure);  // an unknown name throws first
  const bool fp8 = figure == "tc_fp8_e4m3" || figure == "tc_fp8_e5m2";
  if (fp8 && compute_capability.rfind("9.", 0) == 0)
    return "compute capability " + compute_capability +
           " has no FP8 mma.sync unit: ptxas lowers it to FP16 HMMA and FADDs and computes "
           "the unchanging products once, so its rate would be the FADDs' (FP8 is wgmma's "
           "there)";
  return "";
}

double tensor_ops_per_mma(const std::string& figure, const std::string& device_arch) {
  const TensorShape s = tensor_shape(figure, device_arch);
  return 2.0 * s.m * s.n * s.k;
}

double tensor_expected_accumulator(const std::string& figure, std::int64_t plus, std::int64_t minus,
                                   const std::string& device_arch) {
  const TensorShape s = tensor_shape(figure, device_arch);
  return s.c0 + static_cast<double>(plus - minus) * s.k * s.a * s.b;
}

namespace {

// A floating-point format of `exponent` and `mantissa` bits (IEEE layout, no implicit
// bit stored): the bits of ±2^e. Only powers of two are ever encoded.
std::uint32_t power_of_two_bits(double value, int exponent, int mantissa,
                                const std::string& figure) {
  int e = 0;
  const double frac = std::frexp(std::fabs(value), &e);  // value = frac x 2^e
  const int bias = (1 << (exponent - 1)) - 1;
  const int biased = e - 1 + bias;
  if (frac != 0.5 || biased <= 0 || biased >= (1 << exponent) - 1)
    throw Error(figure + ": operand " + std::to_string(value) + " is not an exact power of two");
  const std::uint32_t sign = value < 0 ? 1u : 0u;
  return (sign << (exponent + mantissa)) | (static_cast<std::uint32_t>(biased) << mantissa);
}

double half_value(std::uint32_t h) {
  const int e = static_cast<int>((h >> 10) & 0x1f), m = static_cast<int>(h & 0x3ff);
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0x1f) return m ? std::nan("") : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

}  // namespace

std::uint32_t tensor_operand_word(const std::string& figure, double value) {
  const auto repeat = [](std::uint32_t element, int bits) {
    std::uint32_t word = 0;
    for (int shift = 0; shift < 32; shift += bits) word |= element << shift;
    return word;
  };
  if (figure == "tc_fp16" || figure == "tc_fp16_acc16")
    return repeat(power_of_two_bits(value, 5, 10, figure), 16);
  if (figure == "tc_bf16") return repeat(power_of_two_bits(value, 8, 7, figure), 16);
  if (figure == "tc_tf32") return power_of_two_bits(value, 8, 23, figure);  // FP32 layout
  if (figure == "tc_fp8_e4m3") return repeat(power_of_two_bits(value, 4, 3, figure), 8);
  if (figure == "tc_fp8_e5m2") return repeat(power_of_two_bits(value, 5, 2, figure), 8);
  if (figure == "tc_int8") {
    if (value != std::trunc(value) || value < -128 || value > 127)
      throw Error(figure + ": operand " + std::to_string(value) + " is not an 8-bit integer");
    return repeat(static_cast<std::uint8_t>(static_cast<std::int8_t>(value)), 8);
  }
  throw Error(figure + ": no 32-bit operand word (or no such figure)");
}

std::vector<double> tensor_accumulator_values(const std::string& figure, std::uint64_t bits) {
  const auto low = static_cast<std::uint32_t>(bits);
  if (figure == "tc_fp64") {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return {d};
  }
  if (figure == "tc_int8") return {static_cast<double>(static_cast<std::int32_t>(low))};
  if (figure == "tc_fp16_acc16") return {half_value(low & 0xffff), half_value(low >> 16)};
  tensor_shape(figure);  // throws for an unknown name
  float f;
  std::memcpy(&f, &low, sizeof f);
  return {static_cast<double>(f)};
}

// ---------------------------------------------------------------------------------------
// The kernels.

namespace device {

inline constexpr int kTensorSteps = 16;  // even: +a and -a alternate, and cancel
inline constexpr const char* kBuildArch = ROOFTOP_DEVICE_ARCH;  // the shapes' build

// Up to 64 registers per thread, 1024 threads per SM (kBlocks = 4): 8 accumulators of 4
// registers and the operands fit without spills; FP8 needs more (kBlocks = 2: 128
// registers, 512 threads per SM), FP64 m16n8k16 more still (kBlocks = 1: its operands
// are 8 A and 4 B doubles in consecutive registers, +a's and -a's, and with 8 accumulators
// of 4 doubles it spills within 128 registers).
template <class Space, class Unit>
using TensorPolicy = Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<256, Unit::kBlocks>, Index>;

// One mma.sync per unit: D = A B + C with D and C the same registers. A is one word in
// all of its registers (every element equal), B likewise.
struct MmaF64 {
  using Operand = double;
  using Acc = double;
  static constexpr int kC = 2, kMinArch = 800, kBlocks = 4;
  KOKKOS_INLINE_FUNCTION static void mma(Acc* c, Operand a, Operand b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a), "d"(b));
#else
    (void)c, (void)a, (void)b;
#endif
  }
};

// sm_90's FP64 m16n8k16: 8 A, 4 B and 4 C/D doubles per thread, 4096 FLOPs per warp, at
// the FP64 tensor rate of 9.0 (m8n8k4 issues at half of it there). Compiled only for
// sm_90 on; with_tensor_unit runs it in place of MmaF64 in such a build.
struct MmaF64K16 {
  using Operand = double;
  using Acc = double;
  static constexpr int kC = 4, kMinArch = 900, kBlocks = 1;
  KOKKOS_INLINE_FUNCTION static void mma(Acc* c, Operand a, Operand b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
        : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
        : "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(b), "d"(b), "d"(b),
          "d"(b));
#else
    (void)c, (void)a, (void)b;
#endif
  }
};

// m16n8kK with four A and two B registers and four 32-bit accumulators (FP32 or S32).
// The host pass never runs an mma (its kernels report the unit absent).
#if defined(__CUDA_ARCH__)
#define ROOFTOP_MMA_4X2(Instruction, Constraint)                                        \
  asm volatile(Instruction " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"     \
               : Constraint(c[0]), Constraint(c[1]), Constraint(c[2]), Constraint(c[3]) \
               : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b))
#else
#define ROOFTOP_MMA_4X2(Instruction, Constraint) (void)c, (void)a, (void)b
#endif
#define ROOFTOP_MMA_4X2X4(Name, AccType, Constraint, Arch, Blocks, Instruction) \
  struct Name {                                                                 \
    using Operand = std::uint32_t;                                              \
    using Acc = AccType;                                                        \
    static constexpr int kC = 4, kMinArch = Arch, kBlocks = Blocks;             \
    KOKKOS_INLINE_FUNCTION static void mma(Acc* c, Operand a, Operand b) {      \
      if constexpr (ROOFTOP_TENSOR_ARCH >= Arch) {                              \
        ROOFTOP_MMA_4X2(Instruction, Constraint);                               \
      } else {                                                                  \
        (void)c, (void)a, (void)b;                                              \
      }                                                                         \
    }                                                                           \
  };
ROOFTOP_MMA_4X2X4(MmaTf32, float, "+f", 800, 4,
                  "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
ROOFTOP_MMA_4X2X4(MmaBf16, float, "+f", 800, 4,
                  "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
ROOFTOP_MMA_4X2X4(MmaF16, float, "+f", 800, 4, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
ROOFTOP_MMA_4X2X4(MmaE4m3, float, "+f", 890, 2,
                  "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32")
ROOFTOP_MMA_4X2X4(MmaE5m2, float, "+f", 890, 2,
                  "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32")
ROOFTOP_MMA_4X2X4(MmaS8, std::int32_t, "+r", 800, 4,
                  "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")
#undef ROOFTOP_MMA_4X2X4
#undef ROOFTOP_MMA_4X2

// FP16 accumulate: two registers of two halves each.
struct MmaF16Acc16 {
  using Operand = std::uint32_t;
  using Acc = std::uint32_t;
  static constexpr int kC = 2, kMinArch = 800, kBlocks = 4;
  KOKKOS_INLINE_FUNCTION static void mma(Acc* c, Operand a, Operand b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, "
        "{%0,%1};"
        : "+r"(c[0]), "+r"(c[1])
        : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
#else
    (void)c, (void)a, (void)b;
#endif
  }
};

// Whether this compiler pass builds `Unit`'s kernel: from the unit's first architecture
// on, but no FP8 for Hopper (9.x), whose FP8 mma.sync is emulated (tensor_mma_unfit).
template <class Unit>
constexpr bool kUnitBuilt =
    ROOFTOP_TENSOR_ARCH >= Unit::kMinArch &&
    !((std::is_same_v<Unit, MmaE4m3> || std::is_same_v<Unit, MmaE5m2>) &&
      ROOFTOP_TENSOR_ARCH >= 900 && ROOFTOP_TENSOR_ARCH < 1000);

// `kAcc` independent accumulators per thread (so per warp), kTensorSteps x inner mma
// steps each, then one more with +a; each thread stores its accumulator registers' bits.
template <class Space, class Unit, int kAcc>
struct TensorKernel {
  Kokkos::View<std::uint64_t*, typename Space::memory_space> out;  // item x kAcc x kC
  Kokkos::View<int, typename Space::memory_space> absent;  // 1: built without the instruction
  std::int64_t inner = 1;
  typename Unit::Operand a_plus{}, a_minus{}, b{};  // runtime, so nothing folds
  typename Unit::Acc c0{};

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    if constexpr (kUnitBuilt<Unit>) {
      typename Unit::Acc acc[kAcc][Unit::kC];
      ROOFTOP_UNROLL
      for (int q = 0; q < kAcc; ++q) ROOFTOP_UNROLL
      for (int j = 0; j < Unit::kC; ++j) acc[q][j] = c0;
      for (std::int64_t r = 0; r < inner; ++r) {
        ROOFTOP_UNROLL
        for (int s = 0; s < kTensorSteps; ++s) {
          ROOFTOP_UNROLL
          for (int q = 0; q < kAcc; ++q) Unit::mma(acc[q], s % 2 == 0 ? a_plus : a_minus, b);
        }
      }
      ROOFTOP_UNROLL
      for (int q = 0; q < kAcc; ++q) Unit::mma(acc[q], a_plus, b);
      ROOFTOP_UNROLL
      for (int q = 0; q < kAcc; ++q) ROOFTOP_UNROLL
      for (int j = 0; j < Unit::kC; ++j) out((item * kAcc + q) * Unit::kC + j) = bits(acc[q][j]);
    } else {
      if (item == 0) absent() = 1;
    }
  }

  KOKKOS_INLINE_FUNCTION static std::uint64_t bits(double v) {
    return Kokkos::bit_cast<std::uint64_t>(v);
  }
  KOKKOS_INLINE_FUNCTION static std::uint64_t bits(float v) {
    return Kokkos::bit_cast<std::uint32_t>(v);
  }
  KOKKOS_INLINE_FUNCTION static std::uint64_t bits(std::int32_t v) {
    return static_cast<std::uint32_t>(v);
  }
  KOKKOS_INLINE_FUNCTION static std::uint64_t bits(std::uint32_t v) { return v; }
};

template <class Unit>
void set_operands(const std::string& figure, typename Unit::Operand& plus,
                  typename Unit::Operand& minus, typename Unit::Operand& b,
                  typename Unit::Acc& c0) {
  const TensorShape s = tensor_shape(figure, kBuildArch);
  if constexpr (std::is_same_v<Unit, MmaF64> || std::is_same_v<Unit, MmaF64K16>) {
    plus = s.a, minus = -s.a, b = s.b, c0 = s.c0;
  } else {
    plus = tensor_operand_word(figure, s.a);
    minus = tensor_operand_word(figure, -s.a);
    b = tensor_operand_word(figure, s.b);
    if constexpr (std::is_same_v<Unit, MmaF16Acc16>)
      c0 = tensor_operand_word(figure, s.c0);
    else
      c0 = static_cast<typename Unit::Acc>(s.c0);
  }
}

// The instruction's answer in every accumulator value, after a launch of `inner`.
template <class Space>
void check_tensor(const std::string& label, const std::string& figure,
                  const Kokkos::View<std::uint64_t*, typename Space::memory_space>& out,
                  std::int64_t inner) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const std::int64_t half = inner * kTensorSteps / 2;
  const double want = tensor_expected_accumulator(figure, half + 1, half, kBuildArch);
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (double got : tensor_accumulator_values(figure, host(i)))
      if (got != want)
        throw Error(label + ": wrong result in accumulator register " + std::to_string(i) + ": " +
                    std::to_string(got) + " (expected " + std::to_string(want) + ")");
}

template <class Space, class Unit, int kAcc>
core::SweepPoint run_tensor(const std::string& figure, std::int64_t threads, std::int64_t inner,
                            const core::Sampling& sampling, LaunchScaling* scaling) {
  using Kernel = TensorKernel<Space, Unit, kAcc>;
  using Memory = typename Space::memory_space;
  const std::string label = "rooftop::tensor<" + figure + "," + std::to_string(kAcc) + ">";
  const TensorShape shape = tensor_shape(figure, kBuildArch);
  if (shape.c_regs != Unit::kC || shape.min_arch != Unit::kMinArch)
    throw Error(label + ": the unit is not the shape of " +
                ceilings::tensor_instruction(figure, kBuildArch));
  Kernel kernel;
  kernel.out = Kokkos::View<std::uint64_t*, Memory>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::tensor_out")),
      threads * kAcc * Unit::kC);
  kernel.absent = Kokkos::View<int, Memory>("rooftop::tensor_absent");
  set_operands<Unit>(figure, kernel.a_plus, kernel.a_minus, kernel.b, kernel.c0);
  const auto launch = [&](std::int64_t count) {
    kernel.inner = count;
    Kokkos::parallel_for(label, TensorPolicy<Space, Unit>(0, threads), kernel);
  };
  // One short launch first: a build without the instruction, or a wrong answer, costs
  // no scaling and no samples.
  launch(1);
  Space().fence();
  int absent = 0;
  Kokkos::deep_copy(absent, kernel.absent);
  if (absent)
    throw Error("no " + ceilings::tensor_instruction(figure, kBuildArch) +
                " in the code built for this GPU (" ROOFTOP_DEVICE_ARCH ")");
  check_tensor<Space>(label, figure, kernel.out, 1);

  inner = scaled_count<Space>(inner, sampling, scaling, launch);
  kernel.inner = inner;
  const core::SampleSet s = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for(label, TensorPolicy<Space, Unit>(0, threads), kernel);
  });
  check_tensor<Space>(label, figure, kernel.out, inner);  // after timing

  const double ops = static_cast<double>(threads / 32) * kAcc *
                     static_cast<double>(inner * kTensorSteps + 1) *
                     tensor_ops_per_mma(figure, kBuildArch);
  return core::rate_point(figure, kAcc, ops, s);
}

// Calls f(Unit{}) with the unit of `figure` in this build: tc_fp64's is sm_90's m16n8k16
// in a build for sm_90 (the figure's instruction, tensor_shape), m8n8k4 otherwise.
template <class F>
auto with_tensor_unit(const std::string& figure, F&& f) {
  if (figure == "tc_fp64") {
    if (tensor_shape(figure, kBuildArch).min_arch == MmaF64K16::kMinArch) return f(MmaF64K16{});
    return f(MmaF64{});
  }
  if (figure == "tc_tf32") return f(MmaTf32{});
  if (figure == "tc_bf16") return f(MmaBf16{});
  if (figure == "tc_fp16") return f(MmaF16{});
  if (figure == "tc_fp16_acc16") return f(MmaF16Acc16{});
  if (figure == "tc_fp8_e4m3") return f(MmaE4m3{});
  if (figure == "tc_fp8_e5m2") return f(MmaE5m2{});
  if (figure == "tc_int8") return f(MmaS8{});
  throw Error("no tensor-core figure named " + figure);
}

template <class Space>
constexpr bool kHasTensorCores =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<Space, Kokkos::Cuda>;
#else
    false;
#endif

}  // namespace device

template <class Space>
core::SweepPoint measure_tensor(const std::string& figure, int accumulators, std::int64_t threads,
                                std::int64_t inner, const core::Sampling& sampling,
                                LaunchScaling* scaling) {
  tensor_shape(figure);  // an unknown name throws first
  if constexpr (!device::kHasTensorCores<Space>) {
    (void)accumulators, (void)threads, (void)inner, (void)sampling, (void)scaling;
    throw Error(figure + ": no tensor cores under the " + std::string(Space::name()) +
                " execution space");
  } else {
    const std::string unfit = tensor_mma_unfit(figure, device::cuda_compute_capability());
    if (!unfit.empty()) throw Error(figure + ": " + unfit);
    // mma.sync needs every thread of a warp: whole blocks of the policy's 256.
    if (threads < 256 || threads % 256 != 0 || inner <= 0)
      throw Error(figure + ": threads must be a positive multiple of 256 and inner positive");
    return device::with_tensor_unit(figure, [&](auto unit) {
      using Unit = decltype(unit);
      switch (accumulators) {
        case 1:
          return device::run_tensor<Space, Unit, 1>(figure, threads, inner, sampling, scaling);
        case 2:
          return device::run_tensor<Space, Unit, 2>(figure, threads, inner, sampling, scaling);
        case 4:
          return device::run_tensor<Space, Unit, 4>(figure, threads, inner, sampling, scaling);
        case 8:
          return device::run_tensor<Space, Unit, 8>(figure, threads, inner, sampling, scaling);
        default:
          throw Error(figure + ": accumulators per warp must be 1, 2, 4 or 8");
      }
    });
  }
}

template <class Space>
std::vector<core::SweepPoint> run_tensor_sweeps(const DevicePlan& plan, const Progress& progress,
                                                std::vector<std::string>* skipped) {
  std::vector<core::SweepPoint> out;
  if constexpr (!device::kHasTensorCores<Space>) {
    (void)plan, (void)progress;
    if (skipped)
      for (const char* figure : kTensorFigures)
        skipped->push_back(std::string(figure) + ": no tensor cores under the " +
                           std::string(Space::name()) + " execution space");
    return out;
  } else {
    // Short samples: 32 points within a few seconds; the launch length is the plan's.
    core::Sampling sampling = plan.sampling;
    sampling.samples = std::min(sampling.samples, 3);
    sampling.min_sample_seconds = std::min(sampling.min_sample_seconds, 0.01);
    sampling.budget_seconds = 0.25;
    // One wave at the policy's 1024 threads per SM (plan.threads is 2048 per SM).
    const std::int64_t threads = std::max<std::int64_t>(256, plan.threads / 2 / 256 * 256);
    // Hopper: each figure's wgmma sweep after its mma.sync one (the figure is the best).
    const bool wgmma = wgmma_in_plan(ROOFTOP_DEVICE_ARCH, device::cuda_compute_capability());
    const std::size_t total = std::size(kTensorFigures) * std::size(kTensorAccumulators) +
                              (wgmma ? (std::size(kTensorFigures) - 1) * std::size(kWgmmaN) : 0);
    std::size_t done = 0;
    // One sweep's points in order; the first that fails ends the sweep, named in `skipped`
    // (absent, refused or wrong: its other points would be no better).
    const auto run_points = [&](const std::string& sweep, std::size_t count, auto&& what,
                                auto&& point) {
      for (std::size_t i = 0; i < count; ++i) {
        if (progress) progress(done, total, "device " + sweep + " (" + what(i) + ")");
        ++done;
        try {
          out.push_back(point(i));
        } catch (const Interrupted&) {
          throw;
        } catch (const std::exception& e) {
          if (!skipped) throw;
          skipped->push_back(sweep + ": " + e.what());
          done += count - i - 1;
          return;
        }
      }
    };
    for (const char* name : kTensorFigures) {
      const std::string figure(name);
      std::int64_t inner = 64;  // a first guess: scaled to the plan's launch length
      int previous = 1;
      run_points(
          figure, std::size(kTensorAccumulators),
          [](std::size_t i) { return std::to_string(kTensorAccumulators[i]) + " per warp"; },
          [&](std::size_t i) {
            // More accumulators per launch: fewer steps for the same length once saturated.
            const int acc = kTensorAccumulators[i];
            inner = std::max<std::int64_t>(1, inner * previous / acc);
            previous = acc;
            LaunchScaling scaling{plan.launch_seconds};
            auto p = measure_tensor<Space>(figure, acc, threads, inner, sampling, &scaling);
            inner = scaling.used;
            return p;
          });
      const std::string sweep = wgmma_sweep(figure);
      if (!wgmma || sweep.empty()) continue;
      inner = 64;
      run_points(
          sweep, std::size(kWgmmaN),
          [](std::size_t i) { return "m64n" + std::to_string(kWgmmaN[i]); },
          [&](std::size_t i) {
            // Twice N: twice the operations per step, half the steps for the same length.
            LaunchScaling scaling{plan.launch_seconds};
            auto p = device::measure_wgmma(figure, kWgmmaN[i], inner, sampling, &scaling);
            inner = std::max<std::int64_t>(1, scaling.used / 2);
            return p;
          });
    }
    if (progress) progress(total, total, "done");
    return out;
  }
}

#define ROOFTOP_TENSOR_INSTANTIATE(Space)                                                          \
  template core::SweepPoint measure_tensor<Space>(                                                 \
      const std::string&, int, std::int64_t, std::int64_t, const core::Sampling&, LaunchScaling*); \
  template std::vector<core::SweepPoint> run_tensor_sweeps<Space>(                                 \
      const DevicePlan&, const Progress&, std::vector<std::string>*);
ROOFTOP_TENSOR_INSTANTIATE(Kokkos::DefaultHostExecutionSpace)
#if defined(KOKKOS_ENABLE_CUDA)
ROOFTOP_TENSOR_INSTANTIATE(Kokkos::Cuda)
#endif
#undef ROOFTOP_TENSOR_INSTANTIATE

}  // namespace rooftop::microbench
