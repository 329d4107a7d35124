// The GPP versions as a GPU launches them, run on the host: a GPU thread's work (one G,
// and for v9 four G' with the last group partial, G' fastest within a block of G) in
// host teams of one thread, so the arithmetic of the GPU's shapes is checked where no
// GPU is; the answers against the closed form.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <complex>
#include <string>

#include "gpp_kernels.hpp"
#include "rooftop/kernels/gpp.hpp"

namespace rooftop::kernels::gpp {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

// A GPU's shape of `Step` with one thread a team: the G of a GPU team, kGPrimes G' an
// item, one G an item.
template <class Step>
struct GpuShapeOnOneThread {
  static constexpr int kLanes = 1;
  static constexpr int kGPrimes = Step::knobs.blocked ? 4 : 1;
  static constexpr int kThreads = 1;
  static constexpr int kGPerTeam = Step::knobs.blocked ? 128 : 512;
  using Bounds = Kokkos::LaunchBounds<>;
};

template <class Step>
void expect_closed_form(const std::string& size_name) {
  const Size size = gpp::size(size_name);
  const Arrays<Host> a = synthetic_arrays<Host>(size, Step::knobs);
  const Sums got = launch_team<Host, Step, GpuShapeOnOneThread<Step>>(a, "test::gpp_shape");
  for (int iw = 0; iw < size.nw; ++iw) {
    const std::complex<double> want = expected_achtemp(size, iw);
    EXPECT_NEAR(got.re[iw], want.real(), 1e-9 * std::abs(want)) << "frequency " << iw;
    EXPECT_NEAR(got.im[iw], want.imag(), 1e-9 * std::abs(want)) << "frequency " << iw;
  }
}

// tiny: G' 51 (not a multiple of 4: a partial group), G 1030 (not a multiple of a team's G).
TEST(GppGpuShapes, V9FourGPrimesAThreadGivesTheAnswer) { expect_closed_form<v9_cache_blocking>("tiny"); }
TEST(GppGpuShapes, V3ThreadBlocksGiveTheAnswer) { expect_closed_form<v3_thread_block>("tiny"); }
TEST(GppGpuShapes, V8OneFrequencyALaunchGivesTheAnswer) {
  expect_closed_form<v8_squared_magnitudes>("tiny");
}

TEST(GppGpuShapes, TheLaunchShapesOfTheSteps) {
  using GpuV3 = LaunchShape<Kokkos::DefaultExecutionSpace, v3_thread_block>;
  using HostV9 = LaunchShape<Host, v9_cache_blocking>;
  using HostV7 = LaunchShape<Host, v7_reciprocal>;
  using HostV6 = LaunchShape<Host, v6_simplified_body>;
  if constexpr (!GpuV3::kOnHost) {
    EXPECT_EQ(GpuV3::kThreads, 512);
    EXPECT_EQ((LaunchShape<Kokkos::DefaultExecutionSpace, v9_cache_blocking>::kGPrimes), 4);
  }
  EXPECT_EQ(HostV9::kThreads, 1);
  EXPECT_EQ(HostV9::kGPerTeam, 128);
  EXPECT_EQ(HostV7::kLanes, 16) << "the body vectorizes from v7";
  EXPECT_EQ(HostV6::kLanes, 1);
  EXPECT_EQ(HostV6::kGPerTeam, 0) << "a host team takes a whole G' row";
}

}  // namespace
}  // namespace rooftop::kernels::gpp
