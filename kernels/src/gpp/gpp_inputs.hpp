#pragma once
// The GPP ladder's inputs, the branch each term takes, and the answer they must give.
//
// The public mini-apps set every complex element to 0.5 + 0.5i and wx to 3, 4, 5, so every
// term takes the same branch. These inputs are reproducible functions of their indices
// (a hash), chosen so that the branches diverge over neighbouring terms as they do in a
// real calculation:
//   - band energies spread over 60 units around E_lk, so wx = E_lk - E_n1 + dw (iw - 1)
//     takes both signs; the nvband lowest bands are occupied;
//   - wtilde(G', G) takes one of kModes complex values, mode(G', G) = (a(G') + b(G)) mod
//     kModes with a and b hashed, so neighbouring G take different modes; one mode is
//     zero (BerkeleyGW's wtilde where the plasmon-pole mode is dropped);
//   - I_eps(G', G) = e(G') f(G), aqsmtemp, aqsntemp and vcoul hashed.
// Every (band, frequency, mode) is kept away from each branch's threshold, so that any
// rounding of a version's rewritten arithmetic takes the same branch as the reference.
//
// Since a term's ssx and sch are I_eps times a function of (wx, wtilde), and wtilde has
// kModes values, the sums factor: reference() sums them exactly in O(bands x G' x nw x
// kModes), fast enough to check every version at every size; reference_by_terms() is the
// straightforward loop over every term, which the tests hold it to.

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

#include "rooftop/kernels/gpp.hpp"

namespace rooftop::kernels::gpp {

inline constexpr int kModes = 64;

// Which branch a term takes: M (the usual term), P (near the pole wx = wtilde: ssx only),
// Z (both zero); and whether its ssx is cut (|ssx| > sexcut |I_eps| with wx < 0).
enum class Branch { kUsual, kNearPole, kZero };

struct Inputs {
  Size size;
  std::vector<double> wx;                             // (n1, iw) at n1 * nw + iw
  std::array<std::complex<double>, kModes> wtilde_mode;
  std::vector<int> mode_gprime, mode_g;               // a(G'), b(G)
  std::vector<std::complex<double>> eps_gprime, eps_g;  // e(G'), f(G)
  std::vector<double> vcoul;                          // (G')

  double wx_at(int n1, int iw) const { return wx[static_cast<std::size_t>(n1) * size.nw + iw]; }
  int mode(int igp, int ig) const { return (mode_gprime[igp] + mode_g[ig]) % kModes; }
  std::complex<double> wtilde(int igp, int ig) const { return wtilde_mode[mode(igp, ig)]; }
  std::complex<double> eps(int igp, int ig) const { return eps_gprime[igp] * eps_g[ig]; }
  double occ(int n1) const { return n1 < size.nvband ? 1.0 : 0.0; }
  std::complex<double> aqsmtemp(int n1, int igp) const;  // hashed, |z| < 1
  std::complex<double> aqsntemp(int n1, int ig) const;
};

Inputs make_inputs(const Size& size);

// One term's ssx and sch for I_eps = 1 (both scale with I_eps), with its branch and cut,
// as BerkeleyGW's CPU loop computes them, in std::complex<double>.
struct TermValue {
  std::complex<double> ssx, sch;
  Branch branch = Branch::kUsual;
  bool cut = false;
  double ssx_size = 0.0;  // |ssx| / |I_eps| before the cut, which compares it with sexcut
};
TermValue term_value(double wx, std::complex<double> wtilde, std::complex<double> eps = 1.0);

// How many terms take each branch, over all (n1, G', G, iw).
struct BranchCounts {
  double usual = 0, near_pole = 0, zero = 0;
  double cut = 0;  // of usual and near_pole
  double terms() const { return usual + near_pole + zero; }
};
BranchCounts branch_counts(const Inputs& inputs);

// asxtemp(iw) = -sum occ vcoul ssx M and achtemp(iw) = sum vcoul sch M / 2.
struct Answer {
  std::vector<std::complex<double>> asxtemp, achtemp;  // nw each
};
Answer reference(const Inputs& inputs);
Answer reference_by_terms(const Inputs& inputs);

}  // namespace rooftop::kernels::gpp
