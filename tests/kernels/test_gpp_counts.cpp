// The GPP ladder's declared FLOPs against a count of what its source executes: every
// version's kernel template run once more with a real type that counts each operation
// (and each multiply an add consumes: what contraction fuses into an FMA), at the tiny
// size, in the host's shapes and in a GPU's; the closed forms of gpp::cost must give the
// same numbers. Also the bytes each launch reads, and the branches' shares.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "gpp_gpu_shape.hpp"
#include "rooftop/kernels/gpp.hpp"

namespace rooftop::kernels::gpp::counting {

struct Tally {
  std::int64_t flops = 0, fma = 0, divisions = 0, roots = 0;
};
Tally tally;  // the counting runs are serial (Kokkos::Serial)

// A double whose operations are counted. `product` marks the result of a multiply that
// an add may still consume: that pair is what a compiler contracts into one FMA. Its
// functions are host-and-device as the kernels' are (a CUDA build compiles this test);
// only the host counts, in the serial runs below.
#define ROOFTOP_COUNT(...) KOKKOS_IF_ON_HOST((__VA_ARGS__;))
struct Counted {
  double v = 0.0;
  bool product = false;
  Counted() = default;
  KOKKOS_FUNCTION Counted(double x) : v(x) {}  // NOLINT: R(x) and comparisons with constants
  KOKKOS_FUNCTION Counted(double x, bool p) : v(x), product(p) {}
};
KOKKOS_FUNCTION Counted operator*(const Counted& a, const Counted& b) {
  ROOFTOP_COUNT(++tally.flops)
  return {a.v * b.v, true};
}
KOKKOS_FUNCTION Counted add(double v, const Counted& a, const Counted& b) {
  ROOFTOP_COUNT(++tally.flops, tally.fma += a.product || b.product ? 2 : 0)
  return {v, false};
}
KOKKOS_FUNCTION Counted operator+(const Counted& a, const Counted& b) { return add(a.v + b.v, a, b); }
KOKKOS_FUNCTION Counted operator-(const Counted& a, const Counted& b) { return add(a.v - b.v, a, b); }
KOKKOS_FUNCTION Counted operator-(const Counted& a) { return {-a.v, a.product}; }
KOKKOS_FUNCTION Counted operator/(const Counted& a, const Counted& b) {
  ROOFTOP_COUNT(++tally.flops, ++tally.divisions)
  return {a.v / b.v, false};
}
KOKKOS_FUNCTION Counted sqrt(const Counted& a) {
  ROOFTOP_COUNT(++tally.flops, ++tally.roots)
  return {Kokkos::sqrt(a.v), false};
}
KOKKOS_FUNCTION bool operator<(const Counted& a, const Counted& b) { return a.v < b.v; }
KOKKOS_FUNCTION bool operator>(const Counted& a, const Counted& b) { return a.v > b.v; }
KOKKOS_FUNCTION bool operator<=(const Counted& a, const Counted& b) { return a.v <= b.v; }
KOKKOS_FUNCTION bool operator>=(const Counted& a, const Counted& b) { return a.v >= b.v; }
KOKKOS_FUNCTION double to_double(const Counted& a) { return a.v; }

}  // namespace rooftop::kernels::gpp::counting

namespace rooftop::kernels::gpp {
namespace {

using counting::Counted;
using counting::tally;
using Serial = Kokkos::Serial;

counting::Tally count_gpu_shape(const std::string& id, const Arrays<Serial>& a) {
  tally = {};
  run_gpu_shape<Serial, Counted>(id, a);
  return tally;
}

void expect_counted(const Cost& want, const counting::Tally& got, const std::string& what) {
  EXPECT_EQ(static_cast<double>(got.flops), want.flops) << what << ": FLOPs";
  EXPECT_EQ(static_cast<double>(got.fma), want.fma_flops) << what << ": FMA FLOPs";
  EXPECT_EQ(static_cast<double>(got.divisions), want.divisions) << what << ": divisions";
  EXPECT_EQ(static_cast<double>(got.roots), want.square_roots) << what << ": square roots";
}

// tiny: G' 51 (a partial group of four), G 1030 (a partial chunk and a partial block).
TEST(GppCounts, TheClosedFormsAreWhatEachVersionExecutes) {
  const Size size = gpp::size("tiny");
  const Inputs in = make_inputs(size);
  for (const Version& v : versions()) {
    const Arrays<Serial> a = generated_arrays<Serial>(in, knobs_of(v.id));
    const Cost want = cost(size, v.id);
    tally = {};
    run_version<Serial, Counted>(v.id, a, "test::gpp_count");
    expect_counted(want, tally, v.id + " in the host's shape");
    if (v.id != "v1" && v.id != "v2") expect_counted(want, count_gpu_shape(v.id, a), v.id + " in a GPU's shape");
  }
}

// One term of each branch in each body: the slots of gpp.cpp's table, each term's
// counted here without its four accumulating adds (the callers' part).
TEST(GppCounts, EachBranchOfEachBody) {
  const Cx<Counted> wtilde{Counted(2.0), Counted(0.05)}, eps{Counted(0.4), Counted(-0.3)};
  const Cx<Counted> band{Counted(0.3), Counted(0.2)};
  struct Want {
    std::int64_t flops, fma, divisions, roots;
  };
  // wx: a usual term, one near the pole (wx = wtilde), one with wtilde zero and wx small.
  struct Case {
    const char* name;
    double wx;
    Cx<Counted> wtilde;
    Want plain, v6, v7, v8;  // v6 to v8 with ssx kept (none of these is cut)
  };
  const Case cases[] = {
      {"usual", 7.0, wtilde, {77, 42, 4, 2}, {59, 32, 4, 1}, {58, 30, 2, 1}, {57, 30, 2, 0}},
      {"near_pole", 2.1, wtilde, {84, 44, 4, 2}, {66, 34, 4, 1}, {65, 34, 2, 1}, {64, 34, 2, 0}},
      {"zero", 0.2, {Counted(0.0), Counted(0.0)}, {58, 30, 2, 2}, {40, 20, 2, 1}, {38, 18, 1, 1},
       {37, 18, 1, 0}},
  };
  const auto expect = [](const Want& w, const std::string& what) {
    EXPECT_EQ(tally.flops, w.flops) << what;
    EXPECT_EQ(tally.fma, w.fma) << what;
    EXPECT_EQ(tally.divisions, w.divisions) << what;
    EXPECT_EQ(tally.roots, w.roots) << what;
  };
  const Counted one(1.0);
  for (const Case& c : cases) {
    tally = {};
    term_plain(Counted(c.wx), c.wtilde, eps, band, one, one);
    expect(c.plain, std::string("plain ") + c.name);
    tally = {};
    const PairTerms<Counted> p6 = pair_terms<Counted, false>(c.wtilde, eps);
    expect({17, 10, 0, 1}, std::string("pair of v6, v7 ") + c.name);
    tally = {};
    term_simplified<Counted, false, false>(Counted(c.wx), p6, band, one, one);
    expect(c.v6, std::string("v6 ") + c.name);
    tally = {};
    term_simplified<Counted, true, false>(Counted(c.wx), p6, band, one, one);
    expect(c.v7, std::string("v7 ") + c.name);
    tally = {};
    const PairTerms<Counted> p8 = pair_terms<Counted, true>(c.wtilde, eps);
    expect({16, 10, 0, 0}, std::string("pair of v8 ") + c.name);
    tally = {};
    term_simplified<Counted, true, true>(Counted(c.wx), p8, band, one, one);
    expect(c.v8, std::string("v8 ") + c.name);
  }
}

TEST(GppCounts, EachLaunchReadsTheArraysOnce) {
  const Size s = gpp::size("medium");
  const double bands = s.number_bands, gp = s.ngpown, g = s.ncouls;
  const Cost v3 = cost(s, "v3"), v4 = cost(s, "v4");
  EXPECT_EQ(v3.launches, 1);
  EXPECT_EQ(v4.launches, s.nw);
  // aqsmtemp is read as bands x G' (the old count took bands x G: 13% more at medium).
  const double arrays = 16.0 * (bands * gp + bands * g + 2.0 * gp * g) + 8.0 * gp;
  EXPECT_DOUBLE_EQ(v3.bytes, arrays + 8.0 * bands * s.nw);
  EXPECT_DOUBLE_EQ(v4.bytes_per_launch, arrays + 8.0 * bands);
  EXPECT_DOUBLE_EQ(v4.bytes, s.nw * v4.bytes_per_launch);
}

TEST(GppCounts, EveryBranchIsTakenAndTheVersionsDeclareDifferentIntensities) {
  const BranchCounts b = branch_counts(make_inputs(gpp::size("tiny")));
  EXPECT_GT(b.near_pole, 0.0);
  EXPECT_GT(b.zero, 0.0);
  EXPECT_GT(b.cut, 0.0);
  EXPECT_GT(b.usual, 0.8 * b.terms());
  const Size s = gpp::size("small");
  EXPECT_EQ(b.terms(), make_inputs(gpp::size("tiny")).size.inner_iterations());
  // The source's FLOPs fall by a fifth from v1 to v9 (a GPU's counters, which count each
  // division and square root as an instruction sequence, see the case study's 1.86x).
  EXPECT_GT(cost(s, "v1").flops, 1.15 * cost(s, "v9").flops) << "the simplified bodies do less";
  EXPECT_GT(cost(s, "v5").flops, cost(s, "v6").flops);
  EXPECT_GT(cost(s, "v6").flops, cost(s, "v7").flops);
  EXPECT_GT(cost(s, "v7").flops, cost(s, "v8").flops);
  EXPECT_NE(branch_shares(s).find("near the pole"), std::string::npos);
}

}  // namespace
}  // namespace rooftop::kernels::gpp
