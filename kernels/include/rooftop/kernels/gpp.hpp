#pragma once
// BerkeleyGW's Sigma-GPP kernel: problem sizes, each version's declared cost, and the
// versions of the published optimization ladder.

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
  int nvband = 0;        // occupied bands: the only ones whose ssx enters asxtemp
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

// What one evaluation of a version executes and reads. FLOPs are those of the version's
// source, in closed form from the number of terms taking each branch (gpp_inputs.hpp):
// a complex multiply 6, a complex division 11, a division and a square root one each (a
// GPU runs them as instruction sequences that its counters count as several). Bytes are
// compulsory: every array a launch reads, once (aqsmtemp as bands x G').
struct Cost {
  double flops = 0.0;
  double fma_flops = 0.0;        // of them, multiplies and adds that contract into FMAs
  double divisions = 0.0;        // of them, divisions and square roots
  double square_roots = 0.0;
  int launches = 1;              // v4 on: one per frequency, each reading the arrays again
  double bytes_per_launch = 0.0;
  double bytes = 0.0;            // all launches'
};
Cost cost(const Size& size, const std::string& id);

// The share of terms (n1, G', G, iw) that take each branch of the body, and whose ssx is
// cut, for `size`'s inputs; in words for a record's note.
std::string branch_shares(const Size& size);

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
