// The dot-product sweeps (dot.hpp): the run-time choice of instruction, the launches on
// the host's threads and the check of every accumulator after timing.
#include "rooftop/microbench/matrix/dot.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "matrix/dot_kernels.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using detail::DotInstruction;
using detail::DotKernelInfo;

// Dot-product pairs per chain in one repetition: long enough that the loop's own
// instructions and the launch vanish beside it.
constexpr std::int64_t kPairsPerRep = 1024;

// The operands, one vector of each (64 bytes; a ymm kernel reads the first 32). BF16:
// a = 1, b = (1, 1/2) in each lane's pair, c = -b: a pair adds 1.5 and takes it away, and
// FP32 holds every value exactly. INT8: a = (1, 2, 3, 4) unsigned, b = (5, -6, 7, -8)
// signed, a lane's four products sum to -18; c = b, so a pair adds -36, modulo 2^32.
struct Operands {
  alignas(64) std::array<std::uint16_t, 32> a{}, b{}, c{};
};
constexpr std::int64_t kInt8PerInstruction = 5 * 1 - 6 * 2 + 7 * 3 - 8 * 4;

Operands bf16_operands() {
  Operands o;
  for (int i = 0; i < 32; ++i) {
    o.a[i] = 0x3f80;                          // 1.0
    o.b[i] = i % 2 == 0 ? 0x3f80 : 0x3f00;    // 1.0, 0.5
    o.c[i] = static_cast<std::uint16_t>(o.b[i] | 0x8000);  // negated
  }
  return o;
}

Operands int8_operands() {
  Operands o;
  const std::int8_t b[4] = {5, -6, 7, -8};
  auto* a = reinterpret_cast<std::uint8_t*>(o.a.data());
  auto* bb = reinterpret_cast<std::uint8_t*>(o.b.data());
  for (int i = 0; i < 64; ++i) {
    a[i] = static_cast<std::uint8_t>(1 + i % 4);
    std::memcpy(bb + i, &b[i % 4], 1);
  }
  o.c = o.b;
  return o;
}

bool is_bf16(DotInstruction i) { return i == DotInstruction::bf16_zmm; }

// Where accumulator word i starts: small integers (as FP32 bits for BF16), exact.
std::uint32_t initial_word(DotInstruction instruction, std::int64_t i) {
  const auto v = static_cast<std::uint32_t>(i % 61);
  if (!is_bf16(instruction)) return v * 2654435761u;  // any 32-bit pattern will do
  const float f = static_cast<float>(v);
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// What word i holds after `pairs` pairs on every chain.
std::uint32_t expected_word(DotInstruction instruction, std::int64_t i, std::int64_t pairs) {
  const std::uint32_t start = initial_word(instruction, i);
  if (is_bf16(instruction)) return start;
  return start + static_cast<std::uint32_t>(static_cast<std::uint64_t>(pairs) * 2 *
                                            static_cast<std::uint64_t>(kInt8PerInstruction));
}

// A point of `x` chains (or tiles) on `items` threads: 2 x kPairsPerRep instructions of
// `ops` each per chain and repetition.
core::SweepPoint sweep_point(const std::string& figure, int x, const core::SampleSet& samples,
                             std::int64_t items, int ops) {
  return core::rate_point(figure, x, static_cast<double>(items) * x * 2.0 * kPairsPerRep * ops,
                          samples);
}

const DotKernelInfo& kernel_info(DotInstruction instruction) {
  for (const DotKernelInfo& k : detail::kDotKernels)
    if (k.instruction == instruction) return k;
  throw Error("unknown dot-product instruction");
}

core::SweepPoint measure_dot(const std::string& figure, const DotKernelInfo& k, int chains,
                             const core::Sampling& sampling) {
  const detail::DotChains run = detail::dot_chains(k.instruction, chains);
  if (!run) throw Error(figure + ": no kernel with " + std::to_string(chains) + " chains");
  const std::int64_t items = Host().concurrency();
  const std::int64_t words = chains * k.vector_bytes / 4;  // one thread's accumulators
  Kokkos::View<std::uint32_t*, Kokkos::HostSpace> acc(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::dot_acc")),
      items * words);
  for (std::int64_t i = 0; i < items * words; ++i) acc(i) = initial_word(k.instruction, i);
  const Operands ops = is_bf16(k.instruction) ? bf16_operands() : int8_operands();

  const std::string label = "rooftop::dot<" + std::string(k.name) + "," + std::to_string(chains) + ">";
  auto launch = [&](std::int64_t reps) {
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(0, items),
        [=, &ops](const std::int64_t item) {
          run(reps * kPairsPerRep, ops.a.data(), ops.b.data(), ops.c.data(),
              acc.data() + item * words);
        });
    Host().fence();
  };
  const core::SampleSet samples = core::sample(sampling, 1, launch);

  // Check every accumulator after timing: the work cannot have been skipped or wrong.
  const std::int64_t pairs = samples.total_reps * kPairsPerRep;
  for (std::int64_t i = 0; i < items * words; ++i)
    if (acc(i) != expected_word(k.instruction, i, pairs))
      throw Error(label + ": wrong result in accumulator word " + std::to_string(i) + " after " +
                  std::to_string(pairs) + " pairs: " + std::to_string(acc(i)) + " (expected " +
                  std::to_string(expected_word(k.instruction, i, pairs)) + ")");

  return sweep_point(figure, chains, samples, items, k.ops_per_instruction);
}

core::SweepPoint measure_amx(int tiles, const core::Sampling& sampling) {
  const detail::AmxTiles run = detail::amx_tiles(tiles);
  if (!run) throw Error("amx_bf16: no kernel with " + std::to_string(tiles) + " tiles");
  const std::int64_t items = Host().concurrency();
  const std::int64_t words = tiles * detail::kAmxTileBytes / 4;  // one thread's C tiles
  Kokkos::View<float*, Kokkos::HostSpace> acc(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::amx_acc")),
      items * words);
  for (std::int64_t i = 0; i < items * words; ++i) acc(i) = detail::amx_initial(i);
  const detail::AmxOperands ops = detail::amx_operands(tiles);

  const std::string label = "rooftop::dot<" + std::string(detail::kAmxName) + "," +
                            std::to_string(tiles) + ">";
  std::int64_t launches = 0;
  auto launch = [&](std::int64_t reps) {
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(0, items),
        [=, &ops](const std::int64_t item) {
          run(reps * kPairsPerRep, ops.config.data(), ops.a.data(), ops.b.data(),
              ops.c.data(), acc.data() + item * words);
        });
    Host().fence();
    ++launches;
  };
  const core::SampleSet samples = core::sample(sampling, 1, launch);

  // Check every element after timing: loaded, multiplied and stored, launch after launch.
  for (std::int64_t i = 0; i < items * words; ++i) {
    const float want = detail::amx_expected(i, launches);
    if (acc(i) != want)
      throw Error(label + ": wrong result in element " + std::to_string(i) + " after " +
                  std::to_string(launches) + " launches: " + std::to_string(acc(i)) +
                  " (expected " + std::to_string(want) + ")");
  }

  // The loop's products; the one per launch after it is not counted (1 in 2048 or fewer).
  return sweep_point("amx_bf16", tiles, samples, items, detail::kAmxOpsPerInstruction);
}

// Linux's leave for the tile data (Documentation/arch/x86/xstate.rst): asked once per
// process; the answer holds for all its threads. Empty: granted.
std::string request_amx_tile_data() {
#if defined(__linux__) && defined(__x86_64__)
  constexpr long kArchReqXcompPerm = 0x1023;  // ARCH_REQ_XCOMP_PERM
  constexpr long kXfeatureXtiledata = 18;     // XFEATURE_XTILEDATA
  static const std::string refused = [] {
    if (syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0) return std::string();
    return "Linux refused the AMX tile data (arch_prctl ARCH_REQ_XCOMP_PERM: " +
           std::string(std::strerror(errno)) + ")";
  }();
  return refused;
#else
  return "no way to ask this OS for the AMX tile data";
#endif
}

}  // namespace

DotFeatures host_dot_features() {
  DotFeatures f;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  f.avx512bf16 = __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512bw");
  f.avx512vnni = __builtin_cpu_supports("avx512vnni");
  f.avxvnni = __builtin_cpu_supports("avxvnni");
  f.amx_bf16 = __builtin_cpu_supports("amx-tile") && __builtin_cpu_supports("amx-bf16");
#endif
  if (f.amx_bf16) {
    f.amx_refused = request_amx_tile_data();
    f.amx_permitted = f.amx_refused.empty();
  }
  return f;
}

ceilings::DotRates host_dot_rates() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return {0, 0, "no cpuid", 0, "no cpuid", "no cpuid"};
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  // The family and model as Linux's /proc/cpuinfo reports them (Intel SDM, CPUID leaf 1).
  const int base_family = (eax >> 8) & 0xf;
  const int family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
  int model = (eax >> 4) & 0xf;
  if (base_family == 0x6 || base_family == 0xf) model += ((eax >> 16) & 0xf) << 4;
  return ceilings::core_dot_rates(vendor, family, model);
#else
  return {0, 0, "not an x86-64 CPU", 0, "not an x86-64 CPU", "not an x86-64 CPU"};
#endif
}

std::vector<ceilings::DotUnit> dot_units(const DotFeatures& features, const ceilings::DotRates& rates,
                                         std::vector<std::string>* absent) {
  std::vector<ceilings::DotUnit> out;
  const auto unit = [&](const char* figure, DotInstruction instruction, double per_cycle,
                        const std::string& source) {
    const DotKernelInfo& k = kernel_info(instruction);
    out.push_back({figure, std::string(k.name), k.ops_per_instruction, per_cycle,
                   per_cycle > 0 ? source : "no rate for " + std::string(k.name) + " (" + source + ")"});
  };
  const auto missing = [&](const std::string& line) {
    if (absent) absent->push_back(line);
  };
  if (features.avx512bf16)
    unit("bf16_dot", DotInstruction::bf16_zmm, rates.bf16_zmm, rates.bf16_source);
  else
    missing("bf16_dot: this CPU has no AVX-512 BF16 (avx512_bf16)");
  if (features.avx512vnni)
    unit("int8_dot", DotInstruction::int8_zmm, rates.int8_zmm, rates.source);
  else if (features.avxvnni)
    unit("int8_dot", DotInstruction::int8_ymm, 0.0, rates.source);
  else
    missing("int8_dot: this CPU has neither AVX-512 VNNI (avx512_vnni) nor AVX-VNNI (avx_vnni)");
  if (!features.amx_bf16)
    missing("amx_bf16: this CPU has no AMX tiles (amx_bf16)");
  else if (!features.amx_permitted)
    missing("amx_bf16: " + (features.amx_refused.empty() ? std::string("no leave for the tile data")
                                                         : features.amx_refused));
  else
    out.push_back({"amx_bf16", std::string(detail::kAmxName), detail::kAmxOpsPerInstruction,
                   rates.amx_bf16,
                   rates.amx_bf16 > 0 ? rates.amx_source
                                      : "no rate for tdpbf16ps (" + rates.amx_source + ")"});
  return out;
}

std::vector<ceilings::DotUnit> host_dot_units() {
  return dot_units(host_dot_features(), host_dot_rates());
}

std::vector<core::SweepPoint> run_dot_sweeps(const SweepPlan& plan, const Progress& progress,
                                             std::vector<std::string>* absent,
                                             const DotFeatures& features) {
  core::Sampling sampling = plan.sampling;
  sampling.min_sample_seconds = std::min(sampling.min_sample_seconds, 0.02);
  sampling.clock = plan.compute_clock;

  struct Run {
    std::string figure;
    const DotKernelInfo* kernel;  // nullptr: the AMX tiles
    int chains;                   // or C tiles
  };
  std::vector<Run> runs;
  for (const ceilings::DotUnit& u : dot_units(features, {}, absent)) {
    for (const DotKernelInfo& k : detail::kDotKernels)
      if (u.instruction == k.name)
        for (int chains : detail::kDotChains)
          if (chains + 3 <= k.registers) runs.push_back({u.figure, &k, chains});
    // Only where the CPU has the flag and Linux the leave: dot_units said so.
    if (u.instruction == detail::kAmxName)
      for (int tiles = 1; tiles <= detail::kAmxMaxTiles; ++tiles)
        runs.push_back({u.figure, nullptr, tiles});
  }

  std::vector<core::SweepPoint> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (progress)
      progress(i, runs.size(), runs[i].figure + " x" + std::to_string(runs[i].chains));
    out.push_back(runs[i].kernel
                      ? measure_dot(runs[i].figure, *runs[i].kernel, runs[i].chains, sampling)
                      : measure_amx(runs[i].chains, sampling));
  }
  if (progress) progress(runs.size(), runs.size(), "");
  return out;
}

}  // namespace rooftop::microbench
