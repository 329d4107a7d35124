// rooftop_kernels: every GPP version and reference kernel at the tiny size with its
// answer checked, the closed-form GPP answer, the declared counts, the registry's names,
// and the reference kernels' functor types named as their records.

#include <gtest/gtest.h>

#include <cxxabi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <typeinfo>
#include <complex>
#include <string>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/kernels/gpp.hpp"
#include "reference_functors.hpp"
#include "rooftop/kernels/kernel.hpp"
#include "support.hpp"

namespace rooftop::kernels {
namespace {

using rooftop::testing::error_of;

TEST(Gpp, SizesOfTheDesign) {
  const gpp::Size small = gpp::size("small");
  EXPECT_EQ(small.number_bands, 128);
  EXPECT_EQ(small.ncouls, 8192);
  EXPECT_EQ(small.ngpown, 8192 / 20);
  EXPECT_EQ(small.nw, 3);
  EXPECT_NEAR(small.inner_iterations(), 1.3e9, 0.05e9);
  const gpp::Size si = gpp::size("si214");
  EXPECT_EQ(si.number_bands, 800);
  EXPECT_EQ(si.ngpown, 1385);
  EXPECT_EQ(si.ncouls, 11075);
  EXPECT_EQ(si.nw, 2);
  EXPECT_NE(error_of([] { gpp::size("huge"); }).find("unknown GPP size 'huge'"), std::string::npos);
}

TEST(Gpp, TheDeclaredRecordCarriesTheVersionsOwnCost) {
  const gpp::Size s = gpp::size("small");
  const KernelList ladder = gpp::make_ladder(s);
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    const core::KernelRecord d = ladder[i]->declared();
    const gpp::Cost c = gpp::cost(s, d.id);
    EXPECT_DOUBLE_EQ(d.flops_fp64, c.flops) << d.id;
    EXPECT_DOUBLE_EQ(d.fma_fraction, c.fma_flops / c.flops) << d.id;
    ASSERT_NE(d.find_bytes("dram"), nullptr);
    EXPECT_DOUBLE_EQ(d.find_bytes("dram")->bytes, c.bytes) << d.id;
    EXPECT_NE(d.note.find(i < 3 ? "1 launch of" : "3 launches of"), std::string::npos) << d.note;
    EXPECT_NE(d.note.find("near the pole"), std::string::npos) << d.note;
    // v4 on: the launches noted as a counting backend notes them, to pair per launch.
    EXPECT_EQ(d.note.find(std::string(core::kKernelsPerRunNote) + d.name + " x3") != std::string::npos, i >= 3)
        << d.note;
  }
}

TEST(Gpp, EveryVersionGivesTheReferenceAnswerAtTheTinySize) {
  const KernelList ladder = gpp::make_ladder(gpp::size("tiny"));
  ASSERT_EQ(ladder.size(), gpp::versions().size());
  ASSERT_EQ(ladder.size(), 9u);
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    Kernel& k = *ladder[i];
    const core::KernelRecord d = k.declared();
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.id, "v" + std::to_string(i + 1));
    EXPECT_EQ(d.group, "gpp");
    EXPECT_EQ(d.order, static_cast<int>(i));
    EXPECT_EQ(d.precision, "fp64");
    EXPECT_FALSE(d.description.empty());
    k.prepare();
    k.run();
    EXPECT_EQ(k.check(), "");
    k.run();  // a second run gives the same answer (no state carried between runs)
    EXPECT_EQ(k.check(), "");
    k.release();
  }
}

TEST(Gpp, AProfilersKernelNameSaysTheVersion) {
  for (const gpp::Version& v : gpp::versions()) {
    SCOPED_TRACE(v.id);
    const std::string functor = gpp::functor_name(v.id);
    EXPECT_NE(functor.find("rooftop::kernels::" + v.name), std::string::npos) << functor;
  }
  EXPECT_NE(gpp::functor_name("v4").find("Team<"), std::string::npos);
}

TEST(Gpp, TheGpuDefaultSizeIsEightTimesSmall) {
  const gpp::Size medium = gpp::size("medium");
  EXPECT_NEAR(medium.inner_iterations() / gpp::size("small").inner_iterations(), 8.0, 0.02);
}

TEST(Gpp, OneVersionByName) {
  const KernelList one = make_kernels({"gpp:v7"}, "tiny");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->declared().id, "v7");
  EXPECT_EQ(one[0]->declared().order, 6) << "keeps its place in the ladder";
  EXPECT_NE(error_of([] { make_kernels({"gpp:v10"}, "tiny"); }).find("no GPP version 'v10'"),
            std::string::npos);
}

TEST(ReferenceKernels, EachGivesItsAnswerAtTheTinySize) {
  for (const std::string name : {"triad", "polynomial", "stencil"}) {
    SCOPED_TRACE(name);
    KernelList ks = make_kernels({name}, "tiny");
    ASSERT_EQ(ks.size(), 1u);
    Kernel& k = *ks[0];
    const core::KernelRecord d = k.declared();
    EXPECT_EQ(d.group, "") << "not a ladder";
    EXPECT_GT(d.flops(), 0.0);
    ASSERT_NE(d.find_bytes("dram"), nullptr);
    k.prepare();
    for (int r = 0; r < 3; ++r) k.run();
    EXPECT_EQ(k.check(), "");
    k.release();
  }
}

TEST(ReferenceKernels, DeclaredIntensities) {
  const auto ai = [](const std::string& name) {
    const core::KernelRecord d = make_kernels({name}, "small")[0]->declared();
    return d.flops() / d.find_bytes("dram")->bytes;
  };
  EXPECT_DOUBLE_EQ(ai("triad"), 2.0 / 24.0);
  EXPECT_DOUBLE_EQ(ai("polynomial"), 2.0);
  EXPECT_DOUBLE_EQ(ai("stencil"), 0.5);
}

// A profiler names a launch by the functor's type (Nsight Compute prints it inside Kokkos's
// launch template: "...ParallelFor<rooftop::kernels::reference::triad, ...>"), and
// compare-counts joins that launch to the record whose name it contains.
template <class Functor>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(typeid(Functor).name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string();
}

TEST(ReferenceKernels, EachFunctorsTypeNameContainsItsRecordsName) {
  const std::string names[] = {type_name<reference::triad>(), type_name<reference::polynomial16>(),
                               type_name<reference::stencil7>()};
  EXPECT_EQ(names[0], "rooftop::kernels::reference::triad");
  const KernelList ks = make_kernels({"triad", "polynomial", "stencil"}, "tiny");
  ASSERT_EQ(ks.size(), 3u);
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const std::string record = ks[i]->declared().name;
    EXPECT_NE(names[i].find(record), std::string::npos) << names[i] << " / " << record;
  }
  EXPECT_EQ(ks[1]->declared().name, "reference::polynomial16");
}

TEST(Kernels, UnknownNamesAreErrors) {
  EXPECT_NE(error_of([] { make_kernels({"fft"}, "tiny"); }).find("unknown kernel 'fft'"),
            std::string::npos);
  EXPECT_NE(error_of([] { make_kernels({"triad"}, "huge"); }).find("unknown GPP size"),
            std::string::npos);
}

}  // namespace
}  // namespace rooftop::kernels

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
