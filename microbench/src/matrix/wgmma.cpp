// Tensor-core figures on Hopper: wgmma.mma_async, the warpgroup-wide instruction with A
// and B in shared memory (published Hopper microbenchmarks find that it reaches the dense
// rate where mma.sync does not). Plain __global__ kernels launched on the Kokkos::Cuda
// instance's stream: each block is exactly one warpgroup with its tiles in static shared
// memory and its occupancy asked of the runtime, and the timing is still the other device
// kernels' (device/timing.hpp: its probe kernels run in the same stream). The build adds
// sm_90a code for this source only in a build for sm_90 (microbench/CMakeLists.txt);
// __CUDA_ARCH_FEAT_SM90_ALL marks that code, and the generic code only says it ran.
#include "matrix/wgmma.hpp"

#include <Kokkos_Core.hpp>  // KOKKOS_ENABLE_CUDA
#include <cstdint>
#include <string>
#include <type_traits>

#include "rooftop/core/error.hpp"
#include "rooftop/microbench/matrix/tensor.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>

#include "device/timing.hpp"
#endif

namespace rooftop::microbench {

std::string wgmma_sweep(const std::string& figure) {
  tensor_shape(figure);  // throws for an unknown name
  return figure == "tc_fp64" ? std::string() : figure + ":wgmma";
}

double wgmma_ops(const std::string& figure, int n) {
  if (wgmma_sweep(figure).empty()) throw Error(figure + ": no wgmma shape");
  return 2.0 * 64 * n * tensor_shape(figure).k;
}

std::uint64_t wgmma_descriptor(std::uint32_t address, std::uint32_t leading_bytes,
                               std::uint32_t stride_bytes, int swizzle) {
  const auto field = [](std::uint32_t bytes, const char* what) -> std::uint64_t {
    if (bytes % 16 != 0 || bytes >= (1u << 18))
      throw Error(std::string("wgmma descriptor: ") + what + " " + std::to_string(bytes) +
                  " is not a multiple of 16 below 256 KiB");
    return (bytes & 0x3FFFF) >> 4;
  };
  if (swizzle < 0 || swizzle > 3)
    throw Error("wgmma descriptor: swizzle mode " + std::to_string(swizzle) + " is not 0-3");
  return field(address, "address") | field(leading_bytes, "leading byte offset") << 16 |
         field(stride_bytes, "stride byte offset") << 32 |
         static_cast<std::uint64_t>(swizzle) << 62;
}

bool wgmma_in_plan(const std::string& build_arch, const std::string& compute_capability) {
  return build_arch == "sm_90" && compute_capability == "9.0";
}

namespace device {

#if !defined(KOKKOS_ENABLE_CUDA)
std::string cuda_compute_capability() { return ""; }

core::SweepPoint measure_wgmma(const std::string& figure, int, std::int64_t, const core::Sampling&,
                               LaunchScaling*) {
  throw Error(wgmma_sweep(figure) + ": no wgmma in a build without CUDA");
}
#else

// ---------------------------------------------------------------------------------------
// The instructions: D (64 x N over the warpgroup's registers) += A B, A and B by
// descriptor; scale-d is a predicate set from a register (1: accumulate).

#define ROOFTOP_WGMMA_D32                                            \
  "{"                                                                \
  "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"           \
  "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}" \
  ", %32, %33, p"
#define ROOFTOP_WGMMA_SCALE32 "%34"
#define ROOFTOP_WGMMA_D64                                            \
  "{"                                                                \
  "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"           \
  "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31," \
  "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
  "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}" \
  ", %64, %65, p"
#define ROOFTOP_WGMMA_SCALE64 "%66"
#define ROOFTOP_WGMMA_D128                                                           \
  "{"                                                                                \
  "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                           \
  "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"                 \
  "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"                 \
  "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"                 \
  "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"                 \
  "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"                 \
  "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,"     \
  "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}" \
  ", %128, %129, p"
#define ROOFTOP_WGMMA_SCALE128 "%130"
#define ROOFTOP_WGMMA_OUT8(C, i) \
  C(d[i]), C(d[i + 1]), C(d[i + 2]), C(d[i + 3]), C(d[i + 4]), C(d[i + 5]), C(d[i + 6]), C(d[i + 7])
#define ROOFTOP_WGMMA_OUT32(C)                                                   \
  ROOFTOP_WGMMA_OUT8(C, 0), ROOFTOP_WGMMA_OUT8(C, 8), ROOFTOP_WGMMA_OUT8(C, 16), \
      ROOFTOP_WGMMA_OUT8(C, 24)
#define ROOFTOP_WGMMA_OUT64(C)                                                  \
  ROOFTOP_WGMMA_OUT32(C), ROOFTOP_WGMMA_OUT8(C, 32), ROOFTOP_WGMMA_OUT8(C, 40), \
      ROOFTOP_WGMMA_OUT8(C, 48), ROOFTOP_WGMMA_OUT8(C, 56)
#define ROOFTOP_WGMMA_OUT128(C)                                                        \
  ROOFTOP_WGMMA_OUT64(C), ROOFTOP_WGMMA_OUT8(C, 64), ROOFTOP_WGMMA_OUT8(C, 72),        \
      ROOFTOP_WGMMA_OUT8(C, 80), ROOFTOP_WGMMA_OUT8(C, 88), ROOFTOP_WGMMA_OUT8(C, 96), \
      ROOFTOP_WGMMA_OUT8(C, 104), ROOFTOP_WGMMA_OUT8(C, 112), ROOFTOP_WGMMA_OUT8(C, 120)
#define ROOFTOP_WGMMA_F(x) "+f"(x)
#define ROOFTOP_WGMMA_R(x) "+r"(x)

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ROOFTOP_WGMMA(Instruction, R, C, Tail)                            \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " ROOFTOP_WGMMA_SCALE##R \
               ", 0;\n" Instruction " " ROOFTOP_WGMMA_D##R Tail ";\n}\n"  \
               : ROOFTOP_WGMMA_OUT##R(C)                                  \
               : "l"(a), "l"(b), "r"(1))
#else
#define ROOFTOP_WGMMA(Instruction, R, C, Tail) (void)d, (void)a, (void)b
#endif

// One unit per figure: its accumulator type, registers per thread at N = 128 and 256,
// and the instruction (the immediates: scale-a, scale-b = 1; transpose A, B = 0, K-major).
#define ROOFTOP_WGMMA_UNIT(Name, AccType, C, K, Types, R128, R256, Tail)                    \
  struct Name {                                                                             \
    using Acc = AccType;                                                                    \
    template <int N>                                                                        \
    static constexpr int kRegs = N == 128 ? R128 : R256;                                    \
    template <int N>                                                                        \
    __device__ static void mma(Acc* d, std::uint64_t a, std::uint64_t b) {                  \
      if constexpr (N == 128)                                                               \
        ROOFTOP_WGMMA("wgmma.mma_async.sync.aligned.m64n128k" #K "." Types, R128, C, Tail); \
      else                                                                                  \
        ROOFTOP_WGMMA("wgmma.mma_async.sync.aligned.m64n256k" #K "." Types, R256, C, Tail); \
    }                                                                                       \
  };
ROOFTOP_WGMMA_UNIT(WgmmaF16, float, ROOFTOP_WGMMA_F, 16, "f32.f16.f16", 64, 128, ", 1, 1, 0, 0")
ROOFTOP_WGMMA_UNIT(WgmmaF16Acc16, std::uint32_t, ROOFTOP_WGMMA_R, 16, "f16.f16.f16", 32, 64,
                   ", 1, 1, 0, 0")
ROOFTOP_WGMMA_UNIT(WgmmaBf16, float, ROOFTOP_WGMMA_F, 16, "f32.bf16.bf16", 64, 128, ", 1, 1, 0, 0")
ROOFTOP_WGMMA_UNIT(WgmmaTf32, float, ROOFTOP_WGMMA_F, 8, "f32.tf32.tf32", 64, 128, ", 1, 1")
ROOFTOP_WGMMA_UNIT(WgmmaE4m3, float, ROOFTOP_WGMMA_F, 32, "f32.e4m3.e4m3", 64, 128, ", 1, 1")
ROOFTOP_WGMMA_UNIT(WgmmaE5m2, float, ROOFTOP_WGMMA_F, 32, "f32.e5m2.e5m2", 64, 128, ", 1, 1")
ROOFTOP_WGMMA_UNIT(WgmmaS8, std::int32_t, ROOFTOP_WGMMA_R, 32, "s32.s8.s8", 64, 128, "")
#undef ROOFTOP_WGMMA_UNIT
#undef ROOFTOP_WGMMA

// Keeps the compiler from moving accumulator reads or writes across the wgmma fences and
// waits (they name no registers).
__device__ inline void fence_operand(float& x) { asm volatile("" : "+f"(x)::"memory"); }
__device__ inline void fence_operand(std::uint32_t& x) { asm volatile("" : "+r"(x)::"memory"); }
__device__ inline void fence_operand(std::int32_t& x) { asm volatile("" : "+r"(x)::"memory"); }
__device__ inline std::uint32_t word_of(float x) { return __float_as_uint(x); }
__device__ inline std::uint32_t word_of(std::uint32_t x) { return x; }
__device__ inline std::uint32_t word_of(std::int32_t x) { return static_cast<std::uint32_t>(x); }

inline constexpr int kWgmmaSteps = 16;  // even: +b and -b alternate, and cancel
inline constexpr int kWarpgroup = 128;
// A: 64 x k, B: N x k, both K-major with 32-byte rows (k = 16 FP16, 8 TF32, 32 FP8/INT8),
// in core matrices of 8 rows x 16 bytes: the next one along k 128 bytes on (leading), the
// next along M or N 256 bytes on (stride).
inline constexpr std::uint32_t kLeadingBytes = 128, kStrideBytes = 256, kABytes = 64 * 32;

template <class Unit>
struct WgmmaArgs {
  std::uint32_t* out = nullptr;                  // block x register x thread
  int* ran = nullptr;                            // 1: the sm_90a code ran; 2: the generic code did
  std::uint32_t a = 0, b_plus = 0, b_minus = 0;  // one word of elements each
  typename Unit::Acc c0{};
  std::uint64_t descriptor = 0;  // the offsets and mode, at address 0
  std::int64_t inner = 1;
};

template <class Unit, int N>
__global__ void __launch_bounds__(kWarpgroup) wgmma_kernel(const WgmmaArgs<Unit> args) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr std::uint32_t kBBytes = N * 32;
  constexpr int kRegs = Unit::template kRegs<N>;
  __shared__ alignas(128) std::uint32_t tile[(kABytes + 2 * kBBytes) / 4];
  for (std::uint32_t i = threadIdx.x; i < (kABytes + 2 * kBBytes) / 4; i += kWarpgroup)
    tile[i] = i < kABytes / 4 ? args.a : i < (kABytes + kBBytes) / 4 ? args.b_plus : args.b_minus;
  // wgmma reads shared memory through the async proxy: the stores must be visible to it.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  // The address field is the descriptor's lowest: added to one made at address 0.
  const std::uint64_t a = args.descriptor + (base >> 4);
  const std::uint64_t b_plus = args.descriptor + ((base + kABytes) >> 4);
  const std::uint64_t b_minus = args.descriptor + ((base + kABytes + kBBytes) >> 4);

  typename Unit::Acc d[kRegs];
#pragma unroll
  for (int i = 0; i < kRegs; ++i) d[i] = args.c0, fence_operand(d[i]);
  for (std::int64_t r = 0; r < args.inner; ++r) {
    // Orders the accumulators' last writes (the initial values, or register moves the
    // compiler makes around the loop) before the wgmma that read them.
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int s = 0; s < kWgmmaSteps; ++s) Unit::template mma<N>(d, a, s % 2 ? b_minus : b_plus);
    // One group stays in flight while the next is issued: the pipe never drains.
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
  }
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  Unit::template mma<N>(d, a, b_plus);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < kRegs; ++i) {
    fence_operand(d[i]);
    args.out[(static_cast<std::size_t>(blockIdx.x) * kRegs + i) * kWarpgroup + threadIdx.x] =
        word_of(d[i]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *args.ran = 1;
#else
  // The generic sm_90 code (or an older arch's): no wgmma; says so and does nothing else.
  if (blockIdx.x == 0 && threadIdx.x == 0) *args.ran = 2;
#endif
}

void check_cuda(cudaError_t e, const std::string& label) {
  if (e != cudaSuccess) throw Error(label + ": " + cudaGetErrorString(e));
}

std::string cuda_compute_capability() {
  int device = 0, major = 0, minor = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cc");
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cc");
  return std::to_string(major) + "." + std::to_string(minor);
}

namespace {

// Every accumulator word of every thread of every block: c0 + k a b after the launch.
void check_wgmma(const std::string& label, const std::string& figure,
                 const Kokkos::View<std::uint32_t*, Kokkos::CudaSpace>& out, std::int64_t inner) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const std::int64_t half = inner * kWgmmaSteps / 2;
  const double want = tensor_expected_accumulator(figure, half + 1, half);
  for (std::size_t i = 0; i < host.extent(0); ++i) {
    if (i > 0 && host(i) == host(0)) continue;  // the same bits: decoded once
    for (double got : tensor_accumulator_values(figure, host(i)))
      if (got != want)
        throw Error(label + ": wrong result in accumulator word " + std::to_string(i) + ": " +
                    std::to_string(got) + " (expected " + std::to_string(want) + ")");
  }
}

template <class Unit, int N>
core::SweepPoint run_wgmma(const std::string& figure, std::int64_t inner,
                           const core::Sampling& sampling, LaunchScaling* scaling) {
  using Space = Kokkos::Cuda;
  const std::string label = "rooftop::wgmma<" + figure + ",m64n" + std::to_string(N) + ">";
  constexpr int kRegs = Unit::template kRegs<N>;
  int device = 0, sms = 0, per_sm = 0;
  check_cuda(cudaGetDevice(&device), label);
  check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), label);
  check_cuda(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wgmma_kernel<Unit, N>, kWarpgroup, 0),
      label);
  if (per_sm < 1) throw Error(label + ": no block of it fits on an SM");
  const std::int64_t blocks = static_cast<std::int64_t>(sms) * per_sm;  // one wave

  const TensorShape s = tensor_shape(figure);
  WgmmaArgs<Unit> args;
  Kokkos::View<std::uint32_t*, Kokkos::CudaSpace> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::wgmma_out")),
      blocks * kRegs * kWarpgroup);
  Kokkos::View<int, Kokkos::CudaSpace> ran("rooftop::wgmma_ran");
  args.out = out.data();
  args.ran = ran.data();
  args.a = tensor_operand_word(figure, s.a);
  args.b_plus = tensor_operand_word(figure, s.b);
  args.b_minus = tensor_operand_word(figure, -s.b);
  if constexpr (std::is_same_v<typename Unit::Acc, std::uint32_t>)
    args.c0 = tensor_operand_word(figure, s.c0);  // two FP16 halves
  else
    args.c0 = static_cast<typename Unit::Acc>(s.c0);
  args.descriptor = wgmma_descriptor(0, kLeadingBytes, kStrideBytes, 0);
  const cudaStream_t stream = Space().cuda_stream();
  const auto launch = [&](std::int64_t count) {
    args.inner = count;
    // clang-format off
    wgmma_kernel<Unit, N><<<static_cast<unsigned>(blocks), kWarpgroup, 0, stream>>>(args);
    // clang-format on
    check_cuda(cudaGetLastError(), label);
  };
  // One short launch first: code without wgmma, or a wrong answer, costs no samples.
  launch(1);
  Space().fence();
  int how = 0;
  Kokkos::deep_copy(how, ran);
  if (how == 2)
    throw Error(
        "wgmma not run: this build's sm_90a code was not loaded (the GPU ran the "
        "generic " ROOFTOP_DEVICE_ARCH " code)");
  if (how != 1) throw Error(label + ": the kernel did not run");
  check_wgmma(label, figure, out, 1);

  inner = scaled_count<Space>(inner, sampling, scaling, launch);
  args.inner = inner;
  const core::SampleSet set = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r) launch(inner);
  });
  check_wgmma(label, figure, out, inner);  // after timing

  const double ops = static_cast<double>(blocks) * static_cast<double>(inner * kWgmmaSteps + 1) *
                     wgmma_ops(figure, N);
  return core::rate_point(wgmma_sweep(figure), N, ops, set);
}

template <class Unit>
core::SweepPoint run_wgmma_n(const std::string& figure, int n, std::int64_t inner,
                             const core::Sampling& sampling, LaunchScaling* scaling) {
  if (n == 128) return run_wgmma<Unit, 128>(figure, inner, sampling, scaling);
  if (n == 256) return run_wgmma<Unit, 256>(figure, inner, sampling, scaling);
  throw Error(wgmma_sweep(figure) + ": N must be 128 or 256");
}

}  // namespace

core::SweepPoint measure_wgmma(const std::string& figure, int n, std::int64_t inner,
                               const core::Sampling& sampling, LaunchScaling* scaling) {
  if (inner <= 0) throw Error(figure + ": inner must be positive");
  if (figure == "tc_fp16") return run_wgmma_n<WgmmaF16>(figure, n, inner, sampling, scaling);
  if (figure == "tc_fp16_acc16")
    return run_wgmma_n<WgmmaF16Acc16>(figure, n, inner, sampling, scaling);
  if (figure == "tc_bf16") return run_wgmma_n<WgmmaBf16>(figure, n, inner, sampling, scaling);
  if (figure == "tc_tf32") return run_wgmma_n<WgmmaTf32>(figure, n, inner, sampling, scaling);
  if (figure == "tc_fp8_e4m3") return run_wgmma_n<WgmmaE4m3>(figure, n, inner, sampling, scaling);
  if (figure == "tc_fp8_e5m2") return run_wgmma_n<WgmmaE5m2>(figure, n, inner, sampling, scaling);
  if (figure == "tc_int8") return run_wgmma_n<WgmmaS8>(figure, n, inner, sampling, scaling);
  throw Error(figure + ": no wgmma for it");
}

#endif  // KOKKOS_ENABLE_CUDA

}  // namespace device
}  // namespace rooftop::microbench
