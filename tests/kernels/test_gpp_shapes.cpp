// The GPP versions against the reference: every version in the host's shapes, and as a
// GPU launches them, run on the host (a GPU thread's work, one G, and for v9 two G' with
// the last group partial, G' fastest within a block of G, in host teams of one thread),
// so that the arithmetic of the GPU's shapes is checked where no GPU is. The factored
// reference is itself held to the straightforward loop over every term.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <complex>
#include <string>

#include "gpp_gpu_shape.hpp"
#include "rooftop/kernels/gpp.hpp"

namespace rooftop::kernels::gpp {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

// Both sums of `got` against the reference, within `tolerance` of the larger sum's size.
void expect_answer(const Answer& want, const Sums& got, int nw, const std::string& what,
                   double tolerance = 1e-10) {
  for (int iw = 0; iw < nw; ++iw) {
    const double scale = std::max(std::abs(want.asxtemp[iw]), std::abs(want.achtemp[iw]));
    const std::complex<double> asx(-got.ssx_re[iw], -got.ssx_im[iw]);
    const std::complex<double> ach(got.sch_re[iw], got.sch_im[iw]);
    EXPECT_LE(std::abs(asx - want.asxtemp[iw]), tolerance * scale) << what << ", asxtemp(" << iw << ")";
    EXPECT_LE(std::abs(ach - want.achtemp[iw]), tolerance * scale) << what << ", achtemp(" << iw << ")";
  }
}

// Sizes with every remainder: G' not a multiple of 4, G of neither 8 nor 128 nor 512,
// and two frequencies (si214's).
const Size kOddSizes[] = {{"tiny", 6, 2, 1030, 51, 3}, {"odd", 9, 3, 1111, 43, 2}};

TEST(GppReference, TheFactoredSumIsTheSumOfEveryTerm) {
  for (const Size& size : kOddSizes) {
    const Inputs in = make_inputs(size);
    const Answer fast = reference(in), slow = reference_by_terms(in);
    for (int iw = 0; iw < size.nw; ++iw) {
      const double scale = std::max(std::abs(slow.asxtemp[iw]), std::abs(slow.achtemp[iw]));
      EXPECT_GT(std::abs(slow.asxtemp[iw]), 0.0);
      EXPECT_LE(std::abs(fast.asxtemp[iw] - slow.asxtemp[iw]), 1e-12 * scale) << size.name << " " << iw;
      EXPECT_LE(std::abs(fast.achtemp[iw] - slow.achtemp[iw]), 1e-12 * scale) << size.name << " " << iw;
    }
  }
}

TEST(GppGpuShapes, EveryVersionGivesTheReferenceInBothShapes) {
  for (const Size& size : kOddSizes) {
    const Inputs in = make_inputs(size);
    const Answer want = reference(in);
    for (const Version& v : versions()) {
      const Arrays<Host> a = generated_arrays<Host>(in, knobs_of(v.id));
      expect_answer(want, run_version<Host>(v.id, a, "test::gpp"), size.nw, v.id + " " + size.name);
      if (v.id != "v1" && v.id != "v2")
        expect_answer(want, run_gpu_shape<Host>(v.id, a), size.nw, v.id + " " + size.name + " in a GPU's shape");
    }
  }
}

TEST(GppGpuShapes, TheLaunchShapesOfTheSteps) {
  using GpuV3 = LaunchShape<Host, v3_thread_block, false>;
  using GpuV9 = LaunchShape<Host, v9_cache_blocking, false>;
  using HostV9 = LaunchShape<Host, v9_cache_blocking>;
  using HostV7 = LaunchShape<Host, v7_reciprocal>;
  using HostV6 = LaunchShape<Host, v6_simplified_body>;
  EXPECT_EQ(GpuV3::kThreads, 512);
  EXPECT_EQ(GpuV3::kGPrimes, 1);
  EXPECT_EQ(GpuV9::kThreads, 128);
  EXPECT_EQ(GpuV9::kGPrimes, 2) << "two G' a thread: 160 registers, no spill";
  EXPECT_EQ(HostV9::kThreads, 1);
  EXPECT_EQ(HostV9::kGPerTeam, 128);
  EXPECT_EQ(HostV7::kLanes, 8) << "the body vectorizes from v7";
  EXPECT_EQ(HostV6::kLanes, 1);
  EXPECT_EQ(HostV6::kGPerTeam, 0) << "a host team takes a whole G' row";
}

}  // namespace
}  // namespace rooftop::kernels::gpp
