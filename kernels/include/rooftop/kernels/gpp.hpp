#pragma once
// BerkeleyGW's Sigma-GPP kernel: problem sizes, the closed-form answer of the synthetic
// inputs, and the versions of the published optimization ladder.

#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/kernels/kernel.hpp"

namespace rooftop::kernels::gpp {

struct Size {
  std::string name;
  int number_bands = 0;  // n1
  int nvband = 0;        // occupied bands (not part of the achtemp sum)
  int ncouls = 0;        // G
  int ngpown = 0;        // G'
  int nw = 0;            // frequencies

  // Inner iterations of the hot loop: bands x G' x G x frequencies.
  double inner_iterations() const {
    return static_cast<double>(number_bands) * ngpown * ncouls * nw;
  }
};

// tiny (tests), small (a CPU benchmark whose arrays exceed a last-level cache), medium
// (a GPU's default: 8 x small), classic (512 2 32768 20), si214 (800 bands, 1385 x 11075,
// 2 frequencies).
Size size(const std::string& name);
std::vector<std::string> size_names();

// The synthetic inputs of the public GPP mini-apps: every complex array element is
// 0.5 + 0.5i, vcoul = 1 and the frequencies are wx = 3, 4, 5. Each term of the sum is then
// 0.125i / (wx - 0.5 - 0.5i), so achtemp(iw) = bands x G' x G x that term.
std::complex<double> expected_achtemp(const Size& size, int iw);

// Declared cost of one evaluation (the same algorithmic count for every version; the
// accounting is written next to the kernel in gpp_kernels.hpp).
double flops(const Size& size);
double fma_fraction(const Size& size);
double compulsory_bytes(const Size& size);  // every array read once

struct Version {
  std::string id;    // "v1" ... "v9"
  std::string name;  // "gpp::v1_collapse_all" ...
  std::string description;
};
const std::vector<Version>& versions();

// The type of version `id`'s functor for the default execution space, demangled: what a
// profiler names the kernel (inside Kokkos's launch wrapper). It holds the version's
// name ("gpp::v7_reciprocal"), so a profiler's kernels join rooftop's by name.
std::string functor_name(const std::string& id);

// The ladder, in order, for the default execution space; `only` picks one version ("v8").
KernelList make_ladder(const Size& size, const std::string& only = "");

}  // namespace rooftop::kernels::gpp
