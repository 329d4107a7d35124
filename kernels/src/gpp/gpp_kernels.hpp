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
//
// Storage follows the Fortran code: I_eps_array(ig,igp) and wtilde_array(ig,igp) with G
// contiguous, aqsntemp(ig,n1) with G contiguous; wx_array(iw,n1) with the frequency
// contiguous until v5 swaps it to (n1,iw).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "rooftop/core/unroll.hpp"
#include "rooftop/kernels/gpp.hpp"

// The frequency loops run to kMaxFrequencies and stop at nw: unrolled (ROOFTOP_UNROLL),
// their accumulators stay in registers on a GPU instead of local memory (the mini-app's
// "nw is very small, will be unrolled").

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
  Matrix aqsmtemp, aqsntemp;        // (bands, G), G contiguous (rows may be padded)
  Matrix I_eps_array, wtilde_array;  // (G', G), G contiguous
  Kokkos::View<double*, Memory> vcoul;  // (G')
  // wx(n1, iw) lies at n1 * wx_band_stride + iw * wx_freq_stride: the frequency
  // contiguous (the Fortran code's wx_array(iw,n1)) or, from v5, the band.
  Kokkos::View<double*, Memory> wx;
  int wx_band_stride = 0, wx_freq_stride = 0;
  int number_bands = 0, ngpown = 0, ncouls = 0, nw = 0;

  KOKKOS_INLINE_FUNCTION double wx_at(int n1, int iw) const {
    return wx(n1 * wx_band_stride + iw * wx_freq_stride);
  }
};

// |z| as compilers inline a complex ABS (a square root of the squared magnitude), which
// vectorizes. Kokkos::abs calls hypot, an overflow-safe scalar library call on a host
// that no compiler vectorizes; the inputs here are far from overflow.
KOKKOS_INLINE_FUNCTION double magnitude(const Complex& z) {
  return sqrt(z.real() * z.real() + z.imag() * z.imag());
}

// sch of one (n1, igp, ig, iw) as the mini-app writes it (v1 to v5): a complex division,
// magnitudes through abs, a branch.
KOKKOS_INLINE_FUNCTION Complex sch_plain(const Complex& wtilde, const Complex& I_eps, double wx) {
  const Complex wdiff = wx - wtilde;
  const Complex delw = wtilde / wdiff;
  if (magnitude(wdiff) > kLimitWdiff && magnitude(delw) < kLimitDelw) return delw * I_eps;
  return Complex(0.0, 0.0);
}

// From v6 on, what depends on (G', G) alone is formed once, before the band loop.
struct Pair {
  double wt_re = 0.0, wt_im = 0.0;  // wtilde
  Complex wI;                       // 0.5 vcoul(G') wtilde I_eps: sch x 0.5 vcoul = wI / wdiff
  double wt_size = 0.0;             // |wtilde|, or |wtilde|^2 where magnitudes are squared

  template <bool kSquared>
  KOKKOS_INLINE_FUNCTION static Pair of(const Complex& wtilde, const Complex& I_eps,
                                        double half_vcoul) {
    Pair p;
    p.wt_re = wtilde.real();
    p.wt_im = wtilde.imag();
    p.wI = wtilde * I_eps * half_vcoul;
    const double size2 = p.wt_re * p.wt_re + p.wt_im * p.wt_im;
    p.wt_size = kSquared ? size2 : sqrt(size2);
    return p;
  }
};

// sch x 0.5 vcoul of one term in the simplified body (v6 on): a select instead of the
// branch, and |delw| < 500 as |wtilde| < 500 |wdiff| (delw = wtilde / wdiff), so that the
// one division left is sch's. `kReciprocal` (v7): that division becomes one reciprocal of
// |wdiff|^2 and multiplies; `kSquared` (v8): magnitudes compared squared, no sqrt.
template <bool kReciprocal, bool kSquared>
KOKKOS_INLINE_FUNCTION Complex sch_simplified(const Pair& p, double wx) {
  const double wd_re = wx - p.wt_re, wd_im = -p.wt_im;  // wdiff = wx - wtilde
  const double wd2 = wd_re * wd_re + wd_im * wd_im;
  Complex sch;
  if constexpr (kReciprocal) {
    const double r = 1.0 / wd2;
    sch = p.wI * Complex(wd_re * r, -wd_im * r);  // wI conj(wdiff) / |wdiff|^2
  } else {
    sch = p.wI / Complex(wd_re, wd_im);
  }
  bool keep;
  if constexpr (kSquared) {
    keep = wd2 > kLimitWdiff * kLimitWdiff && p.wt_size < kLimitDelw * kLimitDelw * wd2;
  } else {
    const double wd = sqrt(wd2);
    keep = wd > kLimitWdiff && p.wt_size < kLimitDelw * wd;
  }
  return keep ? sch : Complex(0.0, 0.0);
}

// What each step of the ladder changes. Every version is a type named as its kernel's
// label, so that a profiler's demangled kernel name says which version ran
// (rooftop::kernels::gpp::Team<Kokkos::Cuda, rooftop::kernels::gpp::v7_reciprocal>).
struct Knobs {
  bool band_contiguous_wx = false;  // v5: wx stored (n1, iw) with the band contiguous
  bool one_frequency = false;       // v4: the frequency loop outside the kernel
  bool simplified = false;          // v6: select, (G', G) invariants hoisted
  bool reciprocal = false;          // v7
  bool squared = false;             // v8
  bool blocked = false;             // v9
};
// clang-format off
struct v1_collapse_all       { static constexpr Knobs knobs{}; };
struct v2_collapse_two       { static constexpr Knobs knobs{}; };
struct v3_thread_block       { static constexpr Knobs knobs{}; };
struct v4_frequency_outside  { static constexpr Knobs knobs{false, true}; };
struct v5_index_swap         { static constexpr Knobs knobs{true, true}; };
struct v6_simplified_body    { static constexpr Knobs knobs{true, true, true}; };
struct v7_reciprocal         { static constexpr Knobs knobs{true, true, true, true}; };
struct v8_squared_magnitudes { static constexpr Knobs knobs{true, true, true, true, true}; };
struct v9_cache_blocking     { static constexpr Knobs knobs{true, true, true, true, true, true}; };
// clang-format on

// v1: one parallel reduction over bands x G' x G, all collapsed into one index (G
// fastest, so neighbouring work items read neighbouring G).
template <class Space, class Step>
struct CollapseAll {
  static constexpr bool kBandsCollapsed = true;
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const std::int64_t rest = i / a.ncouls;
    const int igp = static_cast<int>(rest % a.ngpown);
    const int n1 = static_cast<int>(rest / a.ngpown);
    const Complex band = Kokkos::conj(a.aqsmtemp(n1, igp)) * a.aqsntemp(n1, ig);
    const Complex wtilde = a.wtilde_array(igp, ig);
    const Complex I_eps = a.I_eps_array(igp, ig);
    ROOFTOP_UNROLL for (int iw = 0; iw < kMaxFrequencies; ++iw) {
      if (iw >= a.nw) break;
      const Complex term = band * sch_plain(wtilde, I_eps, a.wx_at(n1, iw)) * (0.5 * a.vcoul(igp));
      sums.re[iw] += term.real();
      sums.im[iw] += term.imag();
    }
  }
};

// v2: G' x G collapsed; each work item runs the band loop itself.
template <class Space, class Step>
struct CollapseTwo {
  static constexpr bool kBandsCollapsed = false;
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const int igp = static_cast<int>(i / a.ncouls);
    const Complex wtilde = a.wtilde_array(igp, ig);
    const Complex I_eps = a.I_eps_array(igp, ig);
    const double half_vcoul = 0.5 * a.vcoul(igp);
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      const Complex band = Kokkos::conj(a.aqsmtemp(n1, igp)) * a.aqsntemp(n1, ig);
      ROOFTOP_UNROLL for (int iw = 0; iw < kMaxFrequencies; ++iw) {
        if (iw >= a.nw) break;
        const Complex term = band * sch_plain(wtilde, I_eps, a.wx_at(n1, iw)) * half_vcoul;
        sums.re[iw] += term.real();
        sums.im[iw] += term.imag();
      }
    }
  }
};

// v3 ... v9: teams of threads, each thread with the band loop inside (as v2).
//   v3 to v8 on a GPU: teams of 512 threads (the published step: a thread block of 512
//     instead of the compiler's 128, at most 128 registers a thread), one (G', G) a
//     thread, the teams in the collapsed loops' order (G' outer, G inner);
//   v9 on a GPU: teams of 128 threads, each thread one G and 4 G', so that one load of
//     aqsntemp(n1, G) serves four terms, and the teams of one block of G (every G' of
//     it) launched together, so that aqsntemp(:, block) is read from cache;
//   on a host a team is one core's work: one G' row (v3 to v8) or one G' of a block of
//     128 G (v9), in chunks of 16 consecutive G as vector lanes once the body
//     vectorizes (v7 on: no branch, no complex division), else one G at a time.
// Shape: how a version's work is cut into teams and threads (the step's launch shape).
template <class Space, class Step>
struct LaunchShape {
  static constexpr Knobs k = Step::knobs;
  static constexpr bool kOnHost =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  static constexpr int kLanes = kOnHost && k.simplified && k.reciprocal ? 16 : 1;  // G an item
  static constexpr int kGPrimes = !kOnHost && k.blocked ? 4 : 1;  // G' an item
  static constexpr int kThreads = kOnHost ? 1 : k.blocked ? 128 : 512;  // a team
  // G a team: a GPU thread's one, a host cache block (aqsntemp(:, block) fits an L2), or
  // the whole row (0).
  static constexpr int kGPerTeam = !kOnHost ? kThreads : k.blocked ? 128 : 0;
  // At most 128 registers a thread for 512 threads a team (the published step), and for
  // three teams of 128 on one SM (v9: 170 registers, where its four G' spilled within
  // 128); a host has no launch bounds.
  using Bounds = Kokkos::LaunchBounds<kOnHost ? 0 : kThreads, kOnHost ? 0 : k.blocked ? 3 : 1>;
};

template <class Space, class Step, class Shape = LaunchShape<Space, Step>>
struct Team {
  static constexpr Knobs k = Step::knobs;
  static constexpr int kLanes = Shape::kLanes;
  static constexpr int kGPrimes = Shape::kGPrimes;
  static constexpr int kThreads = Shape::kThreads;
  static constexpr int kFrequencies = k.one_frequency ? 1 : kMaxFrequencies;
  static_assert(kGPrimes == 1 || k.simplified, "several G' a thread need the hoisted invariants");
  using Policy = Kokkos::TeamPolicy<Space, typename Shape::Bounds>;
  using Member = typename Policy::member_type;

  Arrays<Space> a;
  int iw_first = 0;  // with one frequency a launch, the launch's

  KOKKOS_INLINE_FUNCTION int g_per_team() const {
    return Shape::kGPerTeam > 0 ? Shape::kGPerTeam : a.ncouls;
  }
  KOKKOS_INLINE_FUNCTION int g_blocks() const { return (a.ncouls + g_per_team() - 1) / g_per_team(); }
  KOKKOS_INLINE_FUNCTION int g_prime_groups() const { return (a.ngpown + kGPrimes - 1) / kGPrimes; }
  KOKKOS_INLINE_FUNCTION int league() const { return g_blocks() * g_prime_groups(); }
  KOKKOS_INLINE_FUNCTION int frequencies() const { return k.one_frequency ? 1 : a.nw; }

  // kWidth consecutive G from ig0 against the kGPrimes G' from igp0 (a G' past the last
  // repeats it with weight zero, so every G' group has the same shape).
  template <int kWidth>
  KOKKOS_INLINE_FUNCTION void chunk(const int igp0, const int ig0, Sums& sums) const {
    int igp[kGPrimes];
    double half_vcoul[kGPrimes];
    for (int p = 0; p < kGPrimes; ++p) {
      igp[p] = igp0 + p < a.ngpown ? igp0 + p : a.ngpown - 1;
      half_vcoul[p] = igp0 + p < a.ngpown ? 0.5 * a.vcoul(igp[p]) : 0.0;
    }
    // The (G', G) values a term needs, one array each (a host compiler vectorizes the
    // lanes of a structure of arrays, not of an array of structures).
    Complex wtilde[kGPrimes][kWidth], I_eps[kGPrimes][kWidth];
    double wt_re[kGPrimes][kWidth], wt_im[kGPrimes][kWidth], wt_size[kGPrimes][kWidth];
    double wI_re[kGPrimes][kWidth], wI_im[kGPrimes][kWidth];
    for (int p = 0; p < kGPrimes; ++p)
      for (int l = 0; l < kWidth; ++l) {
        if constexpr (k.simplified) {
          const Pair q = Pair::of<k.squared>(a.wtilde_array(igp[p], ig0 + l),
                                             a.I_eps_array(igp[p], ig0 + l), half_vcoul[p]);
          wt_re[p][l] = q.wt_re;
          wt_im[p][l] = q.wt_im;
          wt_size[p][l] = q.wt_size;
          wI_re[p][l] = q.wI.real();
          wI_im[p][l] = q.wI.imag();
        } else {
          wtilde[p][l] = a.wtilde_array(igp[p], ig0 + l);
          I_eps[p][l] = a.I_eps_array(igp[p], ig0 + l);
        }
      }
    double re[kFrequencies][kGPrimes][kWidth] = {}, im[kFrequencies][kGPrimes][kWidth] = {};
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      Complex aqsm[kGPrimes];
      for (int p = 0; p < kGPrimes; ++p) aqsm[p] = Kokkos::conj(a.aqsmtemp(n1, igp[p]));
      ROOFTOP_UNROLL for (int f = 0; f < kFrequencies; ++f) {
        if (f >= frequencies()) break;
        const double wx = a.wx_at(n1, iw_first + f);
        for (int p = 0; p < kGPrimes; ++p)
          for (int l = 0; l < kWidth; ++l) {
            const Complex band = aqsm[p] * a.aqsntemp(n1, ig0 + l);
            Complex term;
            if constexpr (k.simplified) {
              const Pair q{wt_re[p][l], wt_im[p][l], Complex(wI_re[p][l], wI_im[p][l]),
                           wt_size[p][l]};
              term = band * sch_simplified<k.reciprocal, k.squared>(q, wx);
            } else {
              term = band * sch_plain(wtilde[p][l], I_eps[p][l], wx) * half_vcoul[p];
            }
            re[f][p][l] += term.real();
            im[f][p][l] += term.imag();
          }
      }
    }
    ROOFTOP_UNROLL for (int f = 0; f < kFrequencies; ++f) {
      if (f >= frequencies()) break;
      for (int p = 0; p < kGPrimes; ++p)
        for (int l = 0; l < kWidth; ++l) {
          sums.re[iw_first + f] += re[f][p][l];
          sums.im[iw_first + f] += im[f][p][l];
        }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, Sums& sums) const {
    const int rank = team.league_rank();
    // v9 launches every G' group of one block of G together; the others G' outer.
    const int group = k.blocked ? rank % g_prime_groups() : rank / g_blocks();
    const int block = k.blocked ? rank / g_prime_groups() : rank % g_blocks();
    const int igp0 = group * kGPrimes;
    const int ig_begin = block * g_per_team();
    const int ig_end = ig_begin + g_per_team() < a.ncouls ? ig_begin + g_per_team() : a.ncouls;
    const int full = (ig_end - ig_begin) / kLanes;
    const int chunks = full + (ig_begin + full * kLanes < ig_end ? 1 : 0);
    Sums team_sums;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, chunks),
        [&](const int c, Sums& s) {
          if (c < full) {
            chunk<kLanes>(igp0, ig_begin + c * kLanes, s);
          } else {  // the G that do not fill a chunk
            for (int ig = ig_begin + full * kLanes; ig < ig_end; ++ig) chunk<1>(igp0, ig, s);
          }
        },
        team_sums);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sums += team_sums; });
  }
};

// The mini-apps' synthetic inputs in Space's memory (every complex element 0.5 + 0.5i,
// vcoul = 1, wx = 3, 4, 5), wx stored as the version stores it. Cache blocking (v9) pads
// the rows of the band arrays by two cache lines: with G a power of two, the rows of one
// block would otherwise all fall into the same cache sets.
template <class Space>
Arrays<Space> synthetic_arrays(const Size& size, const Knobs& knobs) {
  using Matrix = typename Arrays<Space>::Matrix;
  Arrays<Space> a;
  a.number_bands = size.number_bands;
  a.ngpown = size.ngpown;
  a.ncouls = size.ncouls;
  a.nw = size.nw;
  const auto alloc = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::gpp::") + label);
  };
  const int row = size.ncouls + (knobs.blocked ? 8 : 0);
  a.aqsmtemp = Matrix(alloc("aqsmtemp"), size.number_bands, row);
  a.aqsntemp = Matrix(alloc("aqsntemp"), size.number_bands, row);
  a.I_eps_array = Matrix(alloc("I_eps_array"), size.ngpown, size.ncouls);
  a.wtilde_array = Matrix(alloc("wtilde_array"), size.ngpown, size.ncouls);
  a.vcoul = decltype(a.vcoul)(alloc("vcoul"), size.ngpown);
  a.wx = decltype(a.wx)(alloc("wx_array"), std::size_t(size.number_bands) * size.nw);
  a.wx_band_stride = knobs.band_contiguous_wx ? 1 : size.nw;
  a.wx_freq_stride = knobs.band_contiguous_wx ? size.number_bands : 1;
  const Complex half(0.5, 0.5);
  for (Matrix* m : {&a.aqsmtemp, &a.aqsntemp, &a.I_eps_array, &a.wtilde_array})
    Kokkos::deep_copy(*m, half);
  Kokkos::deep_copy(a.vcoul, 1.0);
  auto wx = Kokkos::create_mirror_view(a.wx);
  for (int n1 = 0; n1 < size.number_bands; ++n1)
    for (int iw = 0; iw < size.nw; ++iw)
      wx(n1 * a.wx_band_stride + iw * a.wx_freq_stride) = 3.0 + iw;
  Kokkos::deep_copy(a.wx, wx);
  return a;
}

// v3 ... v9: one launch, or one per frequency from v4 on.
template <class Space, class Step, class Shape = LaunchShape<Space, Step>>
Sums launch_team(const Arrays<Space>& a, const std::string& label) {
  using K = Team<Space, Step, Shape>;
  Sums total;
  for (int iw = 0; iw < (K::k.one_frequency ? a.nw : 1); ++iw) {
    const K kernel{a, iw};
    Sums s;
    Kokkos::parallel_reduce(label, typename K::Policy(kernel.league(), K::kThreads), kernel, s);
    total += s;  // each launch adds to its own frequencies only
  }
  return total;
}

}  // namespace rooftop::kernels::gpp
