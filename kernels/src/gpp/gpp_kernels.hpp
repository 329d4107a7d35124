#pragma once
// The GPP kernel of BerkeleyGW (Sigma, general plasmon-pole), in Kokkos, as the versions
// of the published optimization ladder. Every version computes, for each frequency iw,
//
//   achtemp(iw) = sum over bands n1, G' (igp), G (ig) of
//                 0.5 vcoul(igp) conj(aqsmtemp(n1,igp)) aqsntemp(n1,ig) sch(n1,igp,ig,iw)
//   wdiff = wx(n1,iw) - wtilde(igp,ig)      delw = wtilde(igp,ig) / wdiff
//   sch   = delw I_eps(igp,ig)   where |wdiff| > 0.5 and |delw| < 500, else 0
//
// (the unoccupied sum of the GPP mini-apps; wx = E_n1 - omega depends on the band, as in
// BerkeleyGW, so no version can hoist the division out of the band loop).
//
// Algorithmic FLOPs, counted once for every version (a version's rewrite changes how the
// hardware executes them, not the count), per (n1, igp, ig, iw):
//   wdiff 2, |wdiff|^2 3, reciprocal 1, delw = wtilde conj(wdiff) r 8, |delw|^2 3,
//   sch = delw I_eps 6, band factor x sch 6, accumulate 2                      = 31
// and per (n1, igp, ig): band factor conj(aqsm) aqsn (0.5 vcoul) 6 + 2          =  8
// A complex multiply is 6 FLOPs of which 4 fuse (2 FMAs); |z|^2 is 3 of which 2 fuse:
// 16 of the 31 and 4 of the 8 FLOPs are FMA FLOPs.
// Compulsory bytes: aqsmtemp, aqsntemp (bands x G), I_eps, wtilde (G' x G) as 16-byte
// complex numbers, vcoul (G') and wx (bands x nw) as doubles, each read once.

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace rooftop::kernels::gpp {

using Complex = Kokkos::complex<double>;
inline constexpr int kMaxFrequencies = 3;
inline constexpr double kLimitWdiff = 0.5;   // |wdiff| must exceed this (limittwo = 0.5^2)
inline constexpr double kLimitDelw = 500.0;  // |delw| must stay below this (limitone = 1/(4 to1))

// The frequencies' sums; a Kokkos reduction value (joined with operator+=, started
// from the reduction_identity below).
struct Sums {
  double re[kMaxFrequencies] = {};
  double im[kMaxFrequencies] = {};
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int i = 0; i < kMaxFrequencies; ++i) re[i] += o.re[i], im[i] += o.im[i];
    return *this;
  }
};

}  // namespace rooftop::kernels::gpp

// Team-level reductions of Sums start from this (Kokkos's customization point).
template <>
struct Kokkos::reduction_identity<rooftop::kernels::gpp::Sums> {
  KOKKOS_FORCEINLINE_FUNCTION static rooftop::kernels::gpp::Sums sum() { return {}; }
};

namespace rooftop::kernels::gpp {

template <class Space>
struct Arrays {
  using Memory = typename Space::memory_space;
  using Matrix = Kokkos::View<Complex**, Kokkos::LayoutRight, Memory>;
  Matrix aqsmtemp, aqsntemp;  // (bands, G)
  // (G', G) with G contiguous, or, in the Fortran code's order that versions 1-4 keep,
  // stored as (G, G') with G' contiguous: indexed through at() either way.
  Matrix I_eps_array, wtilde_array;
  Kokkos::View<double*, Memory> vcoul;                           // (G')
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> wx_array;  // (bands, nw)
  int number_bands = 0, ngpown = 0, ncouls = 0, nw = 0;
};

// |z| as compilers inline a complex ABS (a square root of the squared magnitude), which
// vectorizes. Kokkos::abs calls hypot, an overflow-safe scalar library call on a host
// that no compiler vectorizes; the inputs here are far from overflow.
KOKKOS_INLINE_FUNCTION double magnitude(const Complex& z) {
  return sqrt(z.real() * z.real() + z.imag() * z.imag());
}

// How the term of one (n1, igp, ig, iw) is evaluated: what the ladder's later steps
// change. `kReciprocal`: delw = wtilde conj(wdiff) / |wdiff|^2 with one reciprocal
// instead of a complex division; `kSquared`: magnitudes compared squared, no sqrt;
// `kSelect`: the branch becomes a select of the computed value or zero.
template <bool kReciprocal, bool kSquared, bool kSelect>
KOKKOS_INLINE_FUNCTION Complex sch_term(const Complex& wtilde, const Complex& I_eps, double wx) {
  const Complex wdiff = wx - wtilde;
  Complex delw;
  double wdiff_r2 = 0.0;
  if constexpr (kReciprocal) {
    wdiff_r2 = wdiff.real() * wdiff.real() + wdiff.imag() * wdiff.imag();
    const double r = 1.0 / wdiff_r2;
    delw = wtilde * Kokkos::conj(wdiff) * r;
  } else {
    delw = wtilde / wdiff;
  }
  bool keep;
  if constexpr (kSquared) {
    if constexpr (!kReciprocal)
      wdiff_r2 = wdiff.real() * wdiff.real() + wdiff.imag() * wdiff.imag();
    const double delw_r2 = delw.real() * delw.real() + delw.imag() * delw.imag();
    keep = wdiff_r2 > kLimitWdiff * kLimitWdiff && delw_r2 < kLimitDelw * kLimitDelw;
  } else {
    keep = magnitude(wdiff) > kLimitWdiff && magnitude(delw) < kLimitDelw;
  }
  if constexpr (kSelect) {
    const Complex sch = delw * I_eps;
    return keep ? sch : Complex(0.0, 0.0);
  } else {
    if (keep) return delw * I_eps;
    return Complex(0.0, 0.0);
  }
}

// Element (igp, ig) of a G' x G matrix in either storage order.
template <bool kGPrimeContiguous, class Matrix>
KOKKOS_INLINE_FUNCTION const Complex& at(const Matrix& m, int igp, int ig) {
  if constexpr (kGPrimeContiguous) return m(ig, igp);
  return m(igp, ig);
}

// v1: one parallel reduction over bands x G' x G, all collapsed into one index.
// Versions 1-4 keep the Fortran code's storage order (G' contiguous).
template <class Space>
struct CollapseAll {
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const std::int64_t rest = i / a.ncouls;
    const int igp = static_cast<int>(rest % a.ngpown);
    const int n1 = static_cast<int>(rest / a.ngpown);
    const Complex band = Kokkos::conj(a.aqsmtemp(n1, igp)) * a.aqsntemp(n1, ig);
    const Complex wtilde = at<true>(a.wtilde_array, igp, ig);
    const Complex I_eps = at<true>(a.I_eps_array, igp, ig);
    for (int iw = 0; iw < a.nw; ++iw) {
      const Complex term = band * sch_term<false, false, false>(wtilde, I_eps, a.wx_array(n1, iw)) *
                           (0.5 * a.vcoul(igp));
      sums.re[iw] += term.real();
      sums.im[iw] += term.imag();
    }
  }
};

// v2: G' x G collapsed; each work item runs the band loop itself.
template <class Space>
struct CollapseTwo {
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const int igp = static_cast<int>(i / a.ncouls);
    const Complex wtilde = at<true>(a.wtilde_array, igp, ig);
    const Complex I_eps = at<true>(a.I_eps_array, igp, ig);
    const double half_vcoul = 0.5 * a.vcoul(igp);
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      const Complex band = Kokkos::conj(a.aqsmtemp(n1, igp)) * a.aqsntemp(n1, ig);
      for (int iw = 0; iw < a.nw; ++iw) {
        const Complex term =
            band * sch_term<false, false, false>(wtilde, I_eps, a.wx_array(n1, iw)) * half_vcoul;
        sums.re[iw] += term.real();
        sums.im[iw] += term.imag();
      }
    }
  }
};

// v3 ... v9: one team per G' (per block of G and G' with blocking), its threads over G
// in chunks of kLanes consecutive G (independent accumulators a host compiler turns into
// vector lanes; one lane on a GPU, where the threads of a team are the lanes), the band
// loop inside each chunk so that wtilde and I_eps are loaded once per chunk.
//   kGPrimeContiguous  false from v5 on: G contiguous, so a chunk's G are adjacent
//   kOneFrequency      v4: the frequency loop is outside the kernel (one launch each)
//   kSelect            v6: simplified body (a select for the branch, the band's scalar
//                      factor formed once per band instead of once per term)
//   kReciprocal, kSquared, kBlocked: v7, v8, v9
template <class Space, int kLanes, bool kGPrimeContiguous, bool kOneFrequency, bool kSelect,
          bool kReciprocal, bool kSquared, bool kBlocked>
struct TeamKernel {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  // G per cache block: aqsntemp(:, block), 256 KiB at 128 bands, stays in a 1 MiB L2.
  static constexpr int kBlock = 128;
  Arrays<Space> a;
  int iw_first = 0;  // with kOneFrequency, the launch's frequency

  int blocks() const { return kBlocked ? (a.ncouls + kBlock - 1) / kBlock : 1; }
  int league() const { return blocks() * a.ngpown; }

  template <int kWidth>
  KOKKOS_INLINE_FUNCTION void chunk(const int igp, const int ig0, const double half_vcoul,
                                    Sums& sums) const {
    Complex wtilde[kWidth], I_eps[kWidth];
    for (int l = 0; l < kWidth; ++l) {
      wtilde[l] = at<kGPrimeContiguous>(a.wtilde_array, igp, ig0 + l);
      I_eps[l] = at<kGPrimeContiguous>(a.I_eps_array, igp, ig0 + l);
    }
    double re[kMaxFrequencies][kWidth] = {}, im[kMaxFrequencies][kWidth] = {};
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      // With the simplified body the band's scalar factor is formed once per band.
      const Complex scalar = Kokkos::conj(a.aqsmtemp(n1, igp)) * half_vcoul;
      for (int k = 0; k < (kOneFrequency ? 1 : a.nw); ++k) {
        const int iw = iw_first + k;
        const double wx = a.wx_array(n1, iw);
        for (int l = 0; l < kWidth; ++l) {
          const Complex band =
              kSelect ? scalar * a.aqsntemp(n1, ig0 + l)
                      : Kokkos::conj(a.aqsmtemp(n1, igp)) * a.aqsntemp(n1, ig0 + l) * half_vcoul;
          const Complex term =
              band * sch_term<kReciprocal, kSquared, kSelect>(wtilde[l], I_eps[l], wx);
          re[k][l] += term.real();
          im[k][l] += term.imag();
        }
      }
    }
    for (int k = 0; k < (kOneFrequency ? 1 : a.nw); ++k)
      for (int l = 0; l < kWidth; ++l) {
        sums.re[iw_first + k] += re[k][l];
        sums.im[iw_first + k] += im[k][l];
      }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, Sums& sums) const {
    const int rank = team.league_rank();
    const int igp = rank % a.ngpown;
    const int block = rank / a.ngpown;
    const int ig_begin = kBlocked ? block * kBlock : 0;
    const int ig_end =
        kBlocked ? (ig_begin + kBlock < a.ncouls ? ig_begin + kBlock : a.ncouls) : a.ncouls;
    const int full = (ig_end - ig_begin) / kLanes;
    const double half_vcoul = 0.5 * a.vcoul(igp);
    Sums team_sums;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, full + 1),
        [&](const int c, Sums& s) {
          if (c < full) {
            chunk<kLanes>(igp, ig_begin + c * kLanes, half_vcoul, s);
          } else {  // the G that do not fill a chunk
            for (int ig = ig_begin + full * kLanes; ig < ig_end; ++ig)
              chunk<1>(igp, ig, half_vcoul, s);
          }
        },
        team_sums);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sums += team_sums; });
  }
};

}  // namespace rooftop::kernels::gpp
