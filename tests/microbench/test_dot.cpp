// The dot-product matrix ceilings: the kernels' answers against a scalar reference, the
// run-time choice of instruction from the CPU's flags (injected), the sweeps' op counts,
// the core table's rates and the figures drawn from synthetic points.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "matrix/dot_kernels.hpp"
#include "rooftop/ceilings/dot_figures.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/matrix/dot.hpp"

namespace rooftop::microbench {
namespace {

using ceilings::core_dot_rates;
using ceilings::DotRates;
using detail::DotInstruction;

bool host_runs(DotInstruction instruction) {
  const DotFeatures f = host_dot_features();
  switch (instruction) {
    case DotInstruction::bf16_zmm: return f.avx512bf16;
    case DotInstruction::int8_zmm: return f.avx512vnni;
    case DotInstruction::int8_ymm: return f.avxvnni;
  }
  return false;
}

float bf16_value(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

// One vector of each operand and every chain's accumulators, as 32-bit words.
struct Case {
  std::array<std::uint32_t, 16> a{}, b{}, c{};
  std::vector<std::uint32_t> acc;
};

// The scalar reference: `pairs` times, every lane adds its dot product with b, then with
// c, in the instruction's element types (BF16 products in FP32; u8 x s8 in INT32, which
// wraps).
std::vector<std::uint32_t> reference(DotInstruction instruction, const Case& k, int lanes,
                                     std::int64_t pairs) {
  std::vector<std::uint32_t> out = k.acc;
  const auto lane_dot = [&](std::uint32_t a, std::uint32_t b, std::uint32_t acc) -> std::uint32_t {
    if (instruction == DotInstruction::bf16_zmm) {
      float sum;
      std::memcpy(&sum, &acc, 4);
      // vdpbf16ps adds the odd product first, then the even one.
      sum += bf16_value(static_cast<std::uint16_t>(a >> 16)) * bf16_value(static_cast<std::uint16_t>(b >> 16));
      sum += bf16_value(static_cast<std::uint16_t>(a)) * bf16_value(static_cast<std::uint16_t>(b));
      std::uint32_t bits;
      std::memcpy(&bits, &sum, 4);
      return bits;
    }
    std::int64_t sum = 0;
    for (int byte = 0; byte < 4; ++byte)
      sum += static_cast<std::uint8_t>(a >> (8 * byte)) *
             static_cast<std::int64_t>(static_cast<std::int8_t>(b >> (8 * byte)));
    return acc + static_cast<std::uint32_t>(sum);
  };
  for (std::int64_t p = 0; p < pairs; ++p)
    for (std::size_t w = 0; w < out.size(); ++w) {
      const std::size_t lane = w % static_cast<std::size_t>(lanes);
      out[w] = lane_dot(k.a[lane], k.b[lane], out[w]);
      out[w] = lane_dot(k.a[lane], k.c[lane], out[w]);
    }
  return out;
}

// Small integers and halves: every BF16 product and FP32 sum below is exact.
Case make_case(DotInstruction instruction, int chains, int lanes) {
  Case k;
  for (int i = 0; i < 16; ++i) {
    if (instruction == DotInstruction::bf16_zmm) {
      const std::uint16_t one = 0x3f80, two = 0x4000, half = 0x3f00, minus_three = 0xc040;
      k.a[i] = (static_cast<std::uint32_t>(i % 2 ? two : one) << 16) | one;
      k.b[i] = (static_cast<std::uint32_t>(half) << 16) | (i % 3 ? two : minus_three);
      k.c[i] = (static_cast<std::uint32_t>(one) << 16) | half;
    } else {
      // Unsigned bytes above 127 and negative signed ones: u8 x s8, not s8 x s8.
      k.a[i] = 0xc8'03'ff'01u + static_cast<std::uint32_t>(i);
      k.b[i] = 0x80'7f'fe'05u ^ static_cast<std::uint32_t>(i << 8);
      k.c[i] = 0x01'ff'02'fdu;
    }
  }
  for (int w = 0; w < chains * lanes; ++w) {
    const float f = static_cast<float>(w % 13);
    std::uint32_t bits = static_cast<std::uint32_t>(w) * 2654435761u;
    if (instruction == DotInstruction::bf16_zmm) std::memcpy(&bits, &f, 4);
    k.acc.push_back(bits);
  }
  return k;
}

TEST(DotKernels, MatchTheScalarReferenceForEveryChainCount) {
  int ran = 0;
  for (const detail::DotKernelInfo& info : detail::kDotKernels) {
    if (!host_runs(info.instruction)) continue;  // it would not start here
    const int lanes = info.vector_bytes / 4;
    for (int chains : detail::kDotChains) {
      if (chains + 3 > info.registers) continue;
      SCOPED_TRACE(std::string(info.name) + " x" + std::to_string(chains));
      const detail::DotChains run = detail::dot_chains(info.instruction, chains);
      ASSERT_NE(run, nullptr);
      for (std::int64_t pairs : {0, 1, 3, 7}) {
        Case k = make_case(info.instruction, chains, lanes);
        const std::vector<std::uint32_t> want = reference(info.instruction, k, lanes, pairs);
        run(pairs, k.a.data(), k.b.data(), k.c.data(), k.acc.data());
        EXPECT_EQ(k.acc, want) << pairs << " pairs";
        ++ran;
      }
    }
  }
  if (ran == 0) GTEST_SKIP() << "this CPU has none of the dot-product instructions";
}

TEST(DotKernels, EveryChainCountThatFitsTheRegistersIsCompiled) {
  for (const detail::DotKernelInfo& info : detail::kDotKernels)
    for (int chains : detail::kDotChains)
      EXPECT_EQ(detail::dot_chains(info.instruction, chains) != nullptr,
                chains + 3 <= info.registers)
          << info.name << " x" << chains;
  EXPECT_EQ(detail::dot_chains(DotInstruction::bf16_zmm, 5), nullptr);
}

// ---------------------------------------------------------------------------------------
// the run-time choice

TEST(DotDispatch, ACpuWithoutTheFlagsHasEveryFigureAbsentNotZero) {
  std::vector<std::string> absent;
  SweepPlan plan;
  plan.sampling.min_sample_seconds = 1e-4;
  const std::vector<core::SweepPoint> points = run_dot_sweeps(plan, {}, &absent, DotFeatures{});
  EXPECT_TRUE(points.empty());
  ASSERT_EQ(absent.size(), 3u);
  EXPECT_EQ(absent[0].rfind("bf16_dot: ", 0), 0u);
  EXPECT_EQ(absent[1].rfind("int8_dot: ", 0), 0u);
  EXPECT_EQ(absent[2], "amx_bf16: this CPU has no AMX tiles (amx_bf16)");
  ceilings::DotUnit unit;
  unit.figure = "bf16_dot";
  EXPECT_TRUE(ceilings::dot_figures(points, core::Machine{}, {unit}).empty());
}

TEST(DotDispatch, TheWidestInstructionTheFlagsAllow) {
  const DotRates zen4 = core_dot_rates("AuthenticAMD", 0x19, 0x11);
  std::vector<std::string> absent;
  DotFeatures f;
  f.avxvnni = true;  // Alder Lake: VNNI in 256 bits only
  auto units = dot_units(f, zen4, &absent);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].figure, "int8_dot");
  EXPECT_EQ(units[0].instruction, "vpdpbusd ymm (AVX-VNNI)");
  EXPECT_EQ(units[0].ops_per_instruction, 64);
  EXPECT_EQ(units[0].per_cycle, 0.0) << "no core in the table has AVX-VNNI alone";
  EXPECT_EQ(absent.size(), 2u);

  f.avx512vnni = f.avx512bf16 = f.amx_bf16 = true;
  f.amx_refused = "Linux refused the AMX tile data (arch_prctl ARCH_REQ_XCOMP_PERM: Invalid argument)";
  absent.clear();
  units = dot_units(f, zen4, &absent);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].instruction, "vdpbf16ps zmm");
  EXPECT_EQ(units[0].ops_per_instruction, 64);
  EXPECT_EQ(units[0].per_cycle, 1.0);
  EXPECT_EQ(units[1].instruction, "vpdpbusd zmm");
  EXPECT_EQ(units[1].ops_per_instruction, 128);
  ASSERT_EQ(absent.size(), 1u);
  EXPECT_EQ(absent[0], "amx_bf16: " + f.amx_refused) << "the flag without Linux's leave";
  for (const auto& u : units) EXPECT_NE(core::find_figure(u.figure), nullptr) << u.figure;
}

// AMX runs only with the flag and the leave; its unit is a whole tile product.
TEST(DotDispatch, AmxWithTheFlagAndTheLeave) {
  DotFeatures f;
  f.amx_bf16 = f.amx_permitted = true;
  std::vector<std::string> absent;
  const DotRates spr = core_dot_rates("GenuineIntel", 6, 0x8f);
  auto units = dot_units(f, spr, &absent);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].figure, "amx_bf16");
  EXPECT_EQ(units[0].instruction, "tdpbf16ps");
  EXPECT_EQ(units[0].ops_per_instruction, 2 * 16 * 16 * 32);
  EXPECT_EQ(units[0].per_cycle, 1.0 / 16) << "1024 FLOPs per cycle";
  EXPECT_NE(units[0].source.find("1024 BF16 FLOPs per cycle"), std::string::npos)
      << units[0].source;
  EXPECT_NE(core::find_figure(units[0].figure), nullptr);
  EXPECT_EQ(absent.size(), 2u);
  // A core without a known TMUL rate: the unit, with no rate and why.
  units = dot_units(f, core_dot_rates("GenuineIntel", 6, 0xad), nullptr);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].per_cycle, 0.0);
  EXPECT_NE(units[0].source.find("Granite Rapids: no source"), std::string::npos)
      << units[0].source;
  // The flag without the leave: absent, and said why.
  f.amx_permitted = false;
  absent.clear();
  EXPECT_TRUE(dot_units(f, spr, &absent).empty());
  ASSERT_EQ(absent.size(), 3u);
  EXPECT_EQ(absent[2], "amx_bf16: no leave for the tile data");
}

// This CPU: AMX only where it has the flag, and then only with Linux's leave; elsewhere
// recorded absent with the CPU's reason and no tile kernel run (on a CPU without AMX
// one would end the test with SIGILL).
TEST(DotDispatch, AmxOnThisCpu) {
  const DotFeatures f = host_dot_features();
  std::vector<std::string> absent;
  const auto units = dot_units(f, host_dot_rates(), &absent);
  const bool amx = std::any_of(units.begin(), units.end(),
                               [](const auto& u) { return u.figure == "amx_bf16"; });
  EXPECT_EQ(amx, f.amx_bf16 && f.amx_permitted);
  if (f.amx_bf16) GTEST_SKIP() << "this CPU has AMX: " << (amx ? "granted" : f.amx_refused);
  EXPECT_FALSE(f.amx_permitted);
  EXPECT_TRUE(f.amx_refused.empty()) << "Linux is not asked without the flag";
  EXPECT_NE(std::find(absent.begin(), absent.end(),
                      "amx_bf16: this CPU has no AMX tiles (amx_bf16)"),
            absent.end());
  SweepPlan plan;
  plan.sampling.samples = 1;
  plan.sampling.min_sample_seconds = 1e-4;
  absent.clear();
  for (const auto& p : run_dot_sweeps(plan, {}, &absent, f)) EXPECT_NE(p.sweep, "amx_bf16");
  EXPECT_EQ(absent.back(), "amx_bf16: this CPU has no AMX tiles (amx_bf16)");
}

// ---------------------------------------------------------------------------------------
// AMX by construction (no AMX CPU here): the tile configuration, the operands and the
// answer the sweep checks, against Intel's definitions.

// The 64-byte configuration as Intel's SDM vol. 1 lays it out (palette 1): byte 0 the
// palette id, byte 1 start_row, bytes 2-15 reserved (0), bytes 16-47 colsb of tiles 0-15
// (16-bit little-endian), bytes 48-63 rows of tiles 0-15.
TEST(DotAmx, TileConfigurationBytes) {
  for (int tiles = 1; tiles <= detail::kAmxMaxTiles; ++tiles) {
    SCOPED_TRACE(tiles);
    const std::array<std::uint8_t, 64> cfg = detail::amx_tile_config(tiles);
    EXPECT_EQ(cfg[0], 1) << "palette 1";
    EXPECT_EQ(cfg[1], 0) << "start_row";
    for (int i = 2; i < 16; ++i) EXPECT_EQ(cfg[i], 0) << "reserved byte " << i;
    for (int t = 0; t < 16; ++t) {
      const bool used = t < tiles || (t >= 4 && t <= 6);  // C tiles; A, B and C in 4-6
      const int colsb = cfg[16 + 2 * t] | cfg[17 + 2 * t] << 8;
      EXPECT_EQ(colsb, used ? 64 : 0) << "colsb of tile " << t;
      EXPECT_EQ(cfg[48 + t], used ? 16 : 0) << "rows of tile " << t;
    }
  }
  // The operands carry the configuration of their tile count.
  EXPECT_EQ(detail::amx_operands(3).config, detail::amx_tile_config(3));
  const std::array<std::uint8_t, 64> none{};
  EXPECT_EQ(detail::amx_tile_config(0), none);
  EXPECT_EQ(detail::amx_tile_config(5), none) << "5 C tiles and 3 operands exceed 8";
}

// Intel's TDPBF16PS on FP32 accumulators of 16 x 16: C[m][n] += the sum over k of the
// pair A[m][2k], A[m][2k+1] times B[k][2n], B[k][2n+1] (B's VNNI layout).
void tdpbf16ps(std::vector<float>& acc, const std::array<std::uint16_t, 512>& a,
               const std::array<std::uint16_t, 512>& b) {
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float sum = acc[m * 16 + n];
      for (int k = 0; k < 16; ++k) {
        sum += bf16_value(a[m * 32 + 2 * k]) * bf16_value(b[k * 32 + 2 * n]);
        sum += bf16_value(a[m * 32 + 2 * k + 1]) * bf16_value(b[k * 32 + 2 * n + 1]);
      }
      acc[m * 16 + n] = sum;
    }
}

TEST(DotAmx, TheAnswerTheSweepChecks) {
  EXPECT_EQ(detail::kAmxOpsPerInstruction, 16384);
  EXPECT_EQ(detail::kAmxTileBytes, 16 * 64);
  const detail::AmxOperands ops = detail::amx_operands(2);
  for (std::uint16_t a : ops.a) EXPECT_EQ(bf16_value(a), 1.0f) << "A: a power of two";
  // Two tiles of one thread, called three times with 0, 5 and 2 pairs.
  std::vector<float> tiles[2];
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 256; ++i) tiles[t].push_back(detail::amx_initial(t * 256 + i));
  int calls = 0;
  for (int pairs : {0, 5, 2}) {
    for (auto& acc : tiles) {
      for (int p = 0; p < pairs; ++p) {
        tdpbf16ps(acc, ops.a, ops.b);
        tdpbf16ps(acc, ops.a, ops.c);
      }
      tdpbf16ps(acc, ops.a, ops.b);  // the product that stays
    }
    ++calls;
    for (int t = 0; t < 2; ++t)
      for (int i = 0; i < 256; ++i)
        ASSERT_EQ(tiles[t][i], detail::amx_expected(t * 256 + i, calls))
            << "element " << t * 256 + i << " after " << calls << " calls";
  }
  EXPECT_EQ(detail::amx_expected(0, 1), 24.0f) << "16 pairs of 1 x 1 + 1 x 0.5";
  // A kernel per tile count, none past 4.
  for (int t = 1; t <= detail::kAmxMaxTiles; ++t) EXPECT_NE(detail::amx_tiles(t), nullptr) << t;
  EXPECT_EQ(detail::amx_tiles(0), nullptr);
  EXPECT_EQ(detail::amx_tiles(5), nullptr);
}

// Each unit carries its own rate's source: on Sapphire Rapids the VNNI unit has a peak and
// the BF16 unit says why it has none.
TEST(DotDispatch, EachUnitHasItsOwnRatesSource) {
  DotFeatures f;
  f.avx512bf16 = f.avx512vnni = true;
  const auto units = dot_units(f, core_dot_rates("GenuineIntel", 6, 0x8f), nullptr);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].figure, "bf16_dot");
  EXPECT_EQ(units[0].per_cycle, 0.0);
  EXPECT_EQ(units[0].source.rfind("no rate for vdpbf16ps zmm (Sapphire Rapids: Intel publishes no", 0), 0u)
      << units[0].source;
  EXPECT_EQ(units[1].figure, "int8_dot");
  EXPECT_EQ(units[1].per_cycle, 2.0);
  EXPECT_EQ(units[1].source, "Sapphire Rapids: p0+p1 fused and p5");
}

TEST(DotDispatch, CoreRates) {
  const DotRates zen4 = core_dot_rates("AuthenticAMD", 0x19, 0x61);
  EXPECT_EQ(zen4.bf16_zmm, 1.0);
  EXPECT_EQ(zen4.int8_zmm, 1.0);
  EXPECT_EQ(zen4.amx_bf16, 0.0);
  const DotRates spr = core_dot_rates("GenuineIntel", 6, 0x8f);
  EXPECT_EQ(spr.bf16_zmm, 0.0) << "no published vdpbf16ps rate; not the ports' two a cycle";
  EXPECT_NE(spr.bf16_source.find("Intel publishes no vdpbf16ps rate"), std::string::npos)
      << spr.bf16_source;
  EXPECT_EQ(spr.int8_zmm, 2.0);
  EXPECT_EQ(spr.source, "Sapphire Rapids: p0+p1 fused and p5") << "the VNNI rate's source stays";
  EXPECT_EQ(zen4.bf16_source, zen4.source) << "a known BF16 rate has the core's source";
  EXPECT_EQ(spr.amx_bf16 * 16384, 1024.0) << "tdpbf16ps per cycle: 1024 FLOPs";
  EXPECT_EQ(core_dot_rates("GenuineIntel", 6, 0xcf).amx_bf16, spr.amx_bf16) << "Emerald Rapids";
  const DotRates zen3 = core_dot_rates("AuthenticAMD", 0x19, 0x01);
  EXPECT_EQ(zen3.int8_zmm, 0.0);
  EXPECT_NE(zen3.source.find("not in the table"), std::string::npos) << zen3.source;
  const DotRates unknown = core_dot_rates("HygonGenuine", 0x18, 0);
  EXPECT_EQ(unknown.bf16_zmm, 0.0);
  EXPECT_NE(unknown.source.find("unknown core"), std::string::npos) << unknown.source;
}

// On this CPU, with the flags it has: every point checked, and its values a whole number
// of repetitions of (threads x chains x 2 x 1024 instructions x ops per instruction).
TEST(DotSweeps, PointsOfTheFlagsTheCpuHas) {
  const DotFeatures f = host_dot_features();
  std::vector<std::string> absent;
  const auto units = dot_units(f, {}, &absent);
  if (units.empty()) GTEST_SKIP() << "this CPU has none of the dot-product instructions";
  SweepPlan plan;
  plan.sampling.samples = 2;
  plan.sampling.min_sample_seconds = 1e-4;
  std::size_t calls = 0;
  absent.clear();
  const auto points = run_dot_sweeps(
      plan, [&](std::size_t, std::size_t, const std::string&) { ++calls; }, &absent, f);
  EXPECT_EQ(absent.size(), 3 - units.size());
  EXPECT_EQ(calls, points.size() + 1);
  const double threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  for (const auto& u : units) {
    std::vector<double> xs;
    for (const auto& p : points) {
      if (p.sweep != u.figure) continue;
      xs.push_back(p.x);
      ASSERT_EQ(p.values.size(), 2u);
      ASSERT_EQ(p.seconds.size(), 2u);
      const double per_rep = threads * p.x * 2 * 1024 * u.ops_per_instruction;
      for (std::size_t i = 0; i < 2; ++i) {
        const double reps = p.values[i] * 1e9 * p.seconds[i] / per_rep;
        EXPECT_GE(reps, 1.0 - 1e-9);
        EXPECT_NEAR(reps, std::round(reps), 1e-6 * reps) << u.figure << " x" << p.x;
      }
    }
    EXPECT_EQ(xs.front(), 1.0) << u.figure;
    EXPECT_GE(xs.size(), 4u) << u.figure;
  }
  // The figures of these points, one per unit, at the rates of this core.
  core::Machine m;
  m.cores = 1;
  m.clock_ghz = 1.0;
  const auto figures = ceilings::dot_figures(points, m, host_dot_units());
  ASSERT_EQ(figures.size(), units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    EXPECT_EQ(figures[i].name, units[i].figure);
    EXPECT_EQ(figures[i].pattern, units[i].instruction);
    EXPECT_GT(figures[i].value, 0.0);
  }
}

// ---------------------------------------------------------------------------------------
// the figures

core::SweepPoint point(const std::string& sweep, double x, std::vector<double> values) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = values;
  p.seconds.assign(values.size(), 0.02);
  return p;
}

TEST(DotFigures, TheBestAccumulatorCountAgainstThePipes) {
  core::Machine m;
  m.cores = 2;
  m.clock_ghz = 3.5;
  std::vector<core::SweepPoint> points = {
      point("bf16_dot", 1, {40, 41, 39}), point("bf16_dot", 8, {400, 380, 410}),
      point("bf16_dot", 24, {395, 396, 394}), point("int8_dot", 8, {800, 810}),
      point("tc_bf16", 8, {9000})};
  points[1].clock_ghz = {3.6, 3.7, 3.65};
  points[1].disturbance = {0.001, 0.03, 0.002};
  const std::vector<ceilings::DotUnit> units = {
      {"bf16_dot", "vdpbf16ps zmm", 64, 1.0, "Zen 4: FP0+FP1"},
      {"int8_dot", "vpdpbusd zmm", 128, 0.0, "unknown core (x)"},
      {"amx_bf16", "tdpbf16ps", 16384, 1.0 / 16, "none"}};
  const std::vector<core::Ceiling> f = ceilings::dot_figures(points, m, units);
  ASSERT_EQ(f.size(), 2u) << "no points: no amx_bf16 figure, not a zero one";

  EXPECT_EQ(f[0].name, "bf16_dot");
  EXPECT_EQ(f[0].kind, "compute");
  EXPECT_EQ(f[0].units, "GFLOP/s");
  EXPECT_EQ(f[0].value, 400);
  EXPECT_EQ(f[0].median, 400);
  EXPECT_EQ(f[0].min, 380);
  EXPECT_EQ(f[0].max, 410);
  EXPECT_EQ(f[0].samples, 3);
  EXPECT_EQ(f[0].pattern, "vdpbf16ps zmm");
  EXPECT_EQ(f[0].note, "8 accumulators per thread (best of 1, 8, 24)");
  ASSERT_TRUE(f[0].disturbance.has_value());
  EXPECT_DOUBLE_EQ(*f[0].disturbance, 0.002);
  // At the highest clock read around the best point's samples, not the machine's.
  ASSERT_TRUE(f[0].theoretical.has_value());
  EXPECT_DOUBLE_EQ(*f[0].theoretical, 2 * 1.0 * 64 * 3.7);
  EXPECT_NE(f[0].theoretical_basis.find("2 cores x 1 vdpbf16ps zmm per cycle"), std::string::npos)
      << f[0].theoretical_basis;

  EXPECT_EQ(f[1].name, "int8_dot");
  EXPECT_EQ(f[1].units, "GOP/s");
  EXPECT_EQ(f[1].value, 805);
  EXPECT_FALSE(f[1].theoretical.has_value()) << "an unknown core has no peak";
  EXPECT_EQ(f[1].theoretical_basis, "no theoretical peak: unknown core (x)");
  EXPECT_FALSE(f[1].disturbance.has_value());

  // Without sample clocks the machine's clock.
  points[1].clock_ghz.clear();
  const auto g = ceilings::dot_figures(points, m, {units[0]});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_DOUBLE_EQ(*g[0].theoretical, 2 * 64 * 3.5);
}

TEST(DotFigures, AmxTilesAgainstTheTmul) {
  core::Machine m;
  m.cores = 2;
  m.clock_ghz = 2.0;
  const std::vector<core::SweepPoint> points = {point("amx_bf16", 1, {1500}),
                                                point("amx_bf16", 2, {3000, 2900, 3100})};
  const ceilings::DotUnit unit{"amx_bf16", "tdpbf16ps", 16384, 1.0 / 16, "Sapphire Rapids: x"};
  const auto f = ceilings::dot_figures(points, m, {unit});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].value, 3000);
  EXPECT_EQ(f[0].pattern, "tdpbf16ps");
  EXPECT_EQ(f[0].note, "2 tiles per thread (best of 1, 2)");
  ASSERT_TRUE(f[0].theoretical.has_value());
  EXPECT_DOUBLE_EQ(*f[0].theoretical, 2 * 1024 * 2.0) << "cores x 1024 FLOPs x GHz";
}

}  // namespace
}  // namespace rooftop::microbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
