#pragma once
// The GPP kernel of BerkeleyGW (Sigma, general plasmon-pole) in Kokkos, as the versions of
// the case study's optimization ladder. Every version computes, for each frequency iw,
// both sums of gpp_body.hpp over bands n1, G' (igp) and G (ig):
//
//   asxtemp(iw) = - sum occ(n1) vcoul(igp) ssx(n1,igp,ig,iw) M(n1,igp,ig)
//   achtemp(iw) =   sum 0.5 vcoul(igp) sch(n1,igp,ig,iw) M(n1,igp,ig)
//   M = conj(aqsmtemp(n1,igp)) aqsntemp(n1,ig)
//
// on the inputs of gpp_inputs.hpp, whose branches diverge. A version's FLOPs are what its
// source executes, in closed form in gpp.cpp; the tests run these same templates with a
// counting real type to check them.
//
// Storage follows the Fortran code: I_eps_array(ig,igp) and wtilde_array(ig,igp) with G
// contiguous, aqsntemp(ig,n1) with G contiguous, aqsmtemp_local(n1,igp) read at bands x G';
// wx_array(iw,n1) with the frequency contiguous until v5 swaps it to (n1,iw).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "gpp_body.hpp"
#include "gpp_inputs.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/unroll.hpp"
#include "rooftop/kernels/gpp.hpp"

// The frequency loops run to kMaxFrequencies and stop at nw: unrolled (ROOFTOP_UNROLL),
// their accumulators stay in registers on a GPU instead of local memory (the mini-app's
// "nw is very small, will be unrolled").

namespace rooftop::kernels::gpp {

using Complex = Kokkos::complex<double>;
inline constexpr int kMaxFrequencies = 3;

// The frequencies' two sums; a Kokkos reduction value (joined with operator+=, started
// from the reduction_identity below).
struct Sums {
  double ssx_re[kMaxFrequencies] = {}, ssx_im[kMaxFrequencies] = {};
  double sch_re[kMaxFrequencies] = {}, sch_im[kMaxFrequencies] = {};
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int i = 0; i < kMaxFrequencies; ++i) {
      ssx_re[i] += o.ssx_re[i], ssx_im[i] += o.ssx_im[i];
      sch_re[i] += o.sch_re[i], sch_im[i] += o.sch_im[i];
    }
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

template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> load(const Complex& z) {
  return {R(z.real()), R(z.imag())};
}

// A term's update added to a reduction value of doubles, the adds in R (they are the
// accumulation of the algorithm: v1 and v2 accumulate into the reduction value itself).
template <class R>
KOKKOS_INLINE_FUNCTION void accumulate(Sums& s, int iw, const Update<R>& u) {
  s.ssx_re[iw] = to_double(R(s.ssx_re[iw]) + u.ssx.re);
  s.ssx_im[iw] = to_double(R(s.ssx_im[iw]) + u.ssx.im);
  s.sch_re[iw] = to_double(R(s.sch_re[iw]) + u.sch.re);
  s.sch_im[iw] = to_double(R(s.sch_im[iw]) + u.sch.im);
}

template <class Space>
struct Arrays {
  using Memory = typename Space::memory_space;
  using Matrix = Kokkos::View<Complex**, Kokkos::LayoutRight, Memory>;
  Matrix aqsmtemp;                   // (bands, G')
  Matrix aqsntemp;                   // (bands, G), G contiguous (rows may be padded)
  Matrix I_eps_array, wtilde_array;  // (G', G), G contiguous
  Kokkos::View<double*, Memory> vcoul;  // (G')
  // wx(n1, iw) lies at n1 * wx_band_stride + iw * wx_freq_stride: the frequency
  // contiguous (the Fortran code's wx_array(iw,n1)) or, from v5, the band.
  Kokkos::View<double*, Memory> wx;
  int wx_band_stride = 0, wx_freq_stride = 0;
  int number_bands = 0, nvband = 0, ngpown = 0, ncouls = 0, nw = 0;

  KOKKOS_INLINE_FUNCTION double wx_at(int n1, int iw) const {
    return wx(n1 * wx_band_stride + iw * wx_freq_stride);
  }
  KOKKOS_INLINE_FUNCTION double occ(int n1) const { return n1 < nvband ? 1.0 : 0.0; }
};

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

// Calls f with version `id`'s step type ("v1" ... "v9"): the one table of the ladder's
// ids. Throws for another id.
template <class F>
decltype(auto) with_step(const std::string& id, F&& f) {
  if (id == "v1") return f(v1_collapse_all{});
  if (id == "v2") return f(v2_collapse_two{});
  if (id == "v3") return f(v3_thread_block{});
  if (id == "v4") return f(v4_frequency_outside{});
  if (id == "v5") return f(v5_index_swap{});
  if (id == "v6") return f(v6_simplified_body{});
  if (id == "v7") return f(v7_reciprocal{});
  if (id == "v8") return f(v8_squared_magnitudes{});
  if (id == "v9") return f(v9_cache_blocking{});
  throw Error("no GPP version '" + id + "'");
}

inline Knobs knobs_of(const std::string& id) {
  return with_step(id, [](auto step) { return decltype(step)::knobs; });
}

// v1: one parallel reduction over bands x G' x G, all collapsed into one index (G
// fastest, so neighbouring work items read neighbouring G); the frequencies inside.
template <class Space, class Step, class R = double>
struct CollapseAll {
  static constexpr bool kBandsCollapsed = true;
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const std::int64_t rest = i / a.ncouls;
    const int igp = static_cast<int>(rest % a.ngpown);
    const int n1 = static_cast<int>(rest / a.ngpown);
    const Cx<R> band = conj(load<R>(a.aqsmtemp(n1, igp))) * load<R>(a.aqsntemp(n1, ig));
    const Cx<R> wtilde = load<R>(a.wtilde_array(igp, ig)), eps = load<R>(a.I_eps_array(igp, ig));
    const R vcoulx(a.vcoul(igp)), occ(a.occ(n1));
    ROOFTOP_UNROLL for (int iw = 0; iw < kMaxFrequencies; ++iw) {
      if (iw >= a.nw) break;
      accumulate(sums, iw, term_plain(R(a.wx_at(n1, iw)), wtilde, eps, band, vcoulx, occ));
    }
  }
};

// v2: G' x G collapsed; each work item runs the band loop itself.
template <class Space, class Step, class R = double>
struct CollapseTwo {
  static constexpr bool kBandsCollapsed = false;
  Arrays<Space> a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Sums& sums) const {
    const int ig = static_cast<int>(i % a.ncouls);
    const int igp = static_cast<int>(i / a.ncouls);
    const Cx<R> wtilde = load<R>(a.wtilde_array(igp, ig)), eps = load<R>(a.I_eps_array(igp, ig));
    const R vcoulx(a.vcoul(igp));
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      const Cx<R> band = conj(load<R>(a.aqsmtemp(n1, igp))) * load<R>(a.aqsntemp(n1, ig));
      const R occ(a.occ(n1));
      ROOFTOP_UNROLL for (int iw = 0; iw < kMaxFrequencies; ++iw) {
        if (iw >= a.nw) break;
        accumulate(sums, iw, term_plain(R(a.wx_at(n1, iw)), wtilde, eps, band, vcoulx, occ));
      }
    }
  }
};

// v3 ... v9: teams of threads, each thread with the band loop inside (as v2).
//   v3 to v8 on a GPU: teams of 512 threads (the published step: a thread block of 512
//     instead of the compiler's 128, at most 128 registers a thread), one (G', G) a
//     thread, the teams in the collapsed loops' order (G' outer, G inner);
//   v9 on a GPU: teams of 128 threads, each thread one G and 2 G', so that one load of
//     aqsntemp(n1, G) serves two terms, and the teams of one block of G (every G' of
//     it) launched together, so that aqsntemp(:, block) is read from cache;
//   on a host a team is one core's work: one G' row (v3 to v8) or one G' of a block of
//     128 G (v9), in chunks of 8 consecutive G as vector lanes (one 512-bit vector; 16
//     left the chunk's (G', G) values too many for the registers) once the body
//     vectorizes (v7 on: no complex division; the branches become masked selects, both
//     computed), else one G at a time.
// Shape: how a version's work is cut into teams and threads (the step's launch shape).
// (`kHost` false gives a GPU's shape on any space: the tests run it on the host.)
template <class Space, class Step,
          bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible>
struct LaunchShape {
  static constexpr Knobs k = Step::knobs;
  static constexpr bool kOnHost = kHost;
  static constexpr int kLanes = kOnHost && k.simplified && k.reciprocal ? 8 : 1;  // G an item
  static constexpr int kGPrimes = !kOnHost && k.blocked ? 2 : 1;  // G' an item
  static constexpr int kThreads = kOnHost ? 1 : k.blocked ? 128 : 512;  // a team
  // G a team: a GPU thread's one, a host cache block (aqsntemp(:, block) fits an L2), or
  // the whole row (0).
  static constexpr int kGPerTeam = !kOnHost ? kThreads : k.blocked ? 128 : 0;
  // At most 128 registers a thread for 512 threads a team (the published step), and for
  // three teams of 128 on one SM (v9: 160 registers and no spill with its two G' a
  // thread; four G' spilled 420 bytes within 168); a host has no launch bounds.
  using Bounds = Kokkos::LaunchBounds<kOnHost ? 0 : kThreads, kOnHost ? 0 : k.blocked ? 3 : 1>;
};

template <class Space, class Step, class Shape = LaunchShape<Space, Step>, class R = double>
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

  // kWidth consecutive G from ig0 against kPrimes consecutive G' from igp0.
  template <int kWidth, int kPrimes>
  KOKKOS_INLINE_FUNCTION void chunk(const int igp0, const int ig0, Sums& sums) const {
    R vcoulx[kPrimes];
    for (int p = 0; p < kPrimes; ++p) vcoulx[p] = R(a.vcoul(igp0 + p));
    // The (G', G) values a term needs, one array per part (a host compiler vectorizes the
    // lanes of a structure of arrays, not of an array of structures); from v6 with
    // wtilde^2, Omega2 and the cutoff formed here, before the band loop.
    R wt_re[kPrimes][kWidth], wt_im[kPrimes][kWidth], ep_re[kPrimes][kWidth], ep_im[kPrimes][kWidth];
    R w2_re[kPrimes][kWidth], w2_im[kPrimes][kWidth], om_re[kPrimes][kWidth], om_im[kPrimes][kWidth];
    R cutoff[kPrimes][kWidth];
    for (int p = 0; p < kPrimes; ++p)
      for (int l = 0; l < kWidth; ++l) {
        const Cx<R> wtilde = load<R>(a.wtilde_array(igp0 + p, ig0 + l));
        const Cx<R> eps = load<R>(a.I_eps_array(igp0 + p, ig0 + l));
        wt_re[p][l] = wtilde.re, wt_im[p][l] = wtilde.im;
        ep_re[p][l] = eps.re, ep_im[p][l] = eps.im;
        if constexpr (k.simplified) {
          const PairTerms<R> q = pair_terms<R, k.squared>(wtilde, eps);
          w2_re[p][l] = q.wtilde2.re, w2_im[p][l] = q.wtilde2.im;
          om_re[p][l] = q.omega2.re, om_im[p][l] = q.omega2.im;
          cutoff[p][l] = q.ssxcutoff;
        }
      }
    R ssx_re[kFrequencies][kPrimes][kWidth] = {}, ssx_im[kFrequencies][kPrimes][kWidth] = {};
    R sch_re[kFrequencies][kPrimes][kWidth] = {}, sch_im[kFrequencies][kPrimes][kWidth] = {};
    for (int n1 = 0; n1 < a.number_bands; ++n1) {
      const R occ(a.occ(n1));
      // The band factor M and vcoul occ, once per (n1, G', G) and launch.
      R band_re[kPrimes][kWidth], band_im[kPrimes][kWidth], vcoulx_occ[kPrimes][kWidth];
      for (int p = 0; p < kPrimes; ++p) {
        const Cx<R> aqsm = conj(load<R>(a.aqsmtemp(n1, igp0 + p)));
        for (int l = 0; l < kWidth; ++l) {
          const Cx<R> band = aqsm * load<R>(a.aqsntemp(n1, ig0 + l));
          band_re[p][l] = band.re, band_im[p][l] = band.im;
          if constexpr (k.simplified) vcoulx_occ[p][l] = vcoulx[p] * occ;
        }
      }
      ROOFTOP_UNROLL for (int f = 0; f < kFrequencies; ++f) {
        if (f >= frequencies()) break;
        const R wx(a.wx_at(n1, iw_first + f));
        for (int p = 0; p < kPrimes; ++p)
          for (int l = 0; l < kWidth; ++l) {
            const Cx<R> band{band_re[p][l], band_im[p][l]};
            Update<R> u;
            if constexpr (k.simplified) {
              const PairTerms<R> q{{wt_re[p][l], wt_im[p][l]}, {w2_re[p][l], w2_im[p][l]},
                                   {om_re[p][l], om_im[p][l]}, {ep_re[p][l], ep_im[p][l]},
                                   cutoff[p][l]};
              u = term_simplified<R, k.reciprocal, k.squared>(wx, q, band, vcoulx[p], vcoulx_occ[p][l]);
            } else {
              u = term_plain(wx, Cx<R>{wt_re[p][l], wt_im[p][l]}, Cx<R>{ep_re[p][l], ep_im[p][l]},
                             band, vcoulx[p], occ);
            }
            ssx_re[f][p][l] = ssx_re[f][p][l] + u.ssx.re, ssx_im[f][p][l] = ssx_im[f][p][l] + u.ssx.im;
            sch_re[f][p][l] = sch_re[f][p][l] + u.sch.re, sch_im[f][p][l] = sch_im[f][p][l] + u.sch.im;
          }
      }
    }
    // The work item's partial sums into the reduction (not FLOPs of the body).
    ROOFTOP_UNROLL for (int f = 0; f < kFrequencies; ++f) {
      if (f >= frequencies()) break;
      const int iw = iw_first + f;
      for (int p = 0; p < kPrimes; ++p)
        for (int l = 0; l < kWidth; ++l) {
          sums.ssx_re[iw] += to_double(ssx_re[f][p][l]), sums.ssx_im[iw] += to_double(ssx_im[f][p][l]);
          sums.sch_re[iw] += to_double(sch_re[f][p][l]), sums.sch_im[iw] += to_double(sch_im[f][p][l]);
        }
    }
  }

  // kWidth G against the G' group from igp0: kGPrimes of them, or one at a time in the
  // last group where G' is not a multiple of kGPrimes.
  template <int kWidth>
  KOKKOS_INLINE_FUNCTION void g_prime_group(const int igp0, const int ig0, Sums& sums) const {
    if (igp0 + kGPrimes <= a.ngpown) {
      chunk<kWidth, kGPrimes>(igp0, ig0, sums);
    } else {
      for (int igp = igp0; igp < a.ngpown; ++igp) chunk<kWidth, 1>(igp, ig0, sums);
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
            g_prime_group<kLanes>(igp0, ig_begin + c * kLanes, s);
          } else {  // the G that do not fill a chunk
            for (int ig = ig_begin + full * kLanes; ig < ig_end; ++ig) g_prime_group<1>(igp0, ig, s);
          }
        },
        team_sums);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sums += team_sums; });
  }
};

// The inputs of gpp_inputs.hpp in Space's memory, wx stored as the version stores it.
// Cache blocking (v9) pads the rows of aqsntemp by two cache lines: with G a power of
// two, the rows of one block would otherwise all fall into the same cache sets.
template <class Space>
Arrays<Space> generated_arrays(const Inputs& in, const Knobs& knobs) {
  using Matrix = typename Arrays<Space>::Matrix;
  const Size& size = in.size;
  Arrays<Space> a;
  a.number_bands = size.number_bands;
  a.nvband = size.nvband;
  a.ngpown = size.ngpown;
  a.ncouls = size.ncouls;
  a.nw = size.nw;
  const auto alloc = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::gpp::") + label);
  };
  a.aqsmtemp = Matrix(alloc("aqsmtemp"), size.number_bands, size.ngpown);
  a.aqsntemp = Matrix(alloc("aqsntemp"), size.number_bands, size.ncouls + (knobs.blocked ? 8 : 0));
  a.I_eps_array = Matrix(alloc("I_eps_array"), size.ngpown, size.ncouls);
  a.wtilde_array = Matrix(alloc("wtilde_array"), size.ngpown, size.ncouls);
  a.vcoul = decltype(a.vcoul)(alloc("vcoul"), size.ngpown);
  a.wx = decltype(a.wx)(alloc("wx_array"), std::size_t(size.number_bands) * size.nw);
  a.wx_band_stride = knobs.band_contiguous_wx ? 1 : size.nw;
  a.wx_freq_stride = knobs.band_contiguous_wx ? size.number_bands : 1;

  using HostSpace = Kokkos::DefaultHostExecutionSpace;
  const auto fill = [](const Matrix& m, int rows, int cols, auto value) {
    auto h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, m);
    Kokkos::parallel_for(
        "rooftop::gpp::fill", Kokkos::RangePolicy<HostSpace>(0, rows), [&](const int i) {
          for (int j = 0; j < cols; ++j) {
            const std::complex<double> z = value(i, j);
            h(i, j) = Complex(z.real(), z.imag());
          }
        });
    Kokkos::deep_copy(m, h);
  };
  fill(a.aqsmtemp, size.number_bands, size.ngpown, [&](int n1, int igp) { return in.aqsmtemp(n1, igp); });
  fill(a.aqsntemp, size.number_bands, size.ncouls, [&](int n1, int ig) { return in.aqsntemp(n1, ig); });
  fill(a.I_eps_array, size.ngpown, size.ncouls, [&](int igp, int ig) { return in.eps(igp, ig); });
  fill(a.wtilde_array, size.ngpown, size.ncouls, [&](int igp, int ig) { return in.wtilde(igp, ig); });
  auto vcoul = Kokkos::create_mirror_view(a.vcoul);
  for (int igp = 0; igp < size.ngpown; ++igp) vcoul(igp) = in.vcoul[igp];
  Kokkos::deep_copy(a.vcoul, vcoul);
  auto wx = Kokkos::create_mirror_view(a.wx);
  for (int n1 = 0; n1 < size.number_bands; ++n1)
    for (int iw = 0; iw < size.nw; ++iw) wx(n1 * a.wx_band_stride + iw * a.wx_freq_stride) = in.wx_at(n1, iw);
  Kokkos::deep_copy(a.wx, wx);
  return a;
}

// v1, v2: range policies, their block size the backend's choice.
template <class Space, class Functor>
Sums launch_range(const Arrays<Space>& a, const std::string& label) {
  const std::int64_t bands = Functor::kBandsCollapsed ? a.number_bands : 1;
  const std::int64_t items = bands * a.ngpown * a.ncouls;
  Sums s;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, items),
                          Functor{a}, s);
  return s;
}

// v3 ... v9: one launch, or one per frequency from v4 on.
template <class Space, class Step, class Shape = LaunchShape<Space, Step>, class R = double>
Sums launch_team(const Arrays<Space>& a, const std::string& label) {
  using K = Team<Space, Step, Shape, R>;
  Sums total;
  for (int iw = 0; iw < (K::k.one_frequency ? a.nw : 1); ++iw) {
    const K kernel{a, iw};
    Sums s;
    Kokkos::parallel_reduce(label, typename K::Policy(kernel.league(), K::kThreads), kernel, s);
    total += s;  // each launch adds to its own frequencies only
  }
  return total;
}

// v1 and v2 are range policies over their functors; v3 on are teams.
template <class Step>
inline constexpr bool kRangeStep =
    std::is_same_v<Step, v1_collapse_all> || std::is_same_v<Step, v2_collapse_two>;

// The functor a step launches (what a profiler names its kernel).
template <class Space, class Step, class R = double>
using KernelOf = std::conditional_t<
    std::is_same_v<Step, v1_collapse_all>, CollapseAll<Space, Step, R>,
    std::conditional_t<std::is_same_v<Step, v2_collapse_two>, CollapseTwo<Space, Step, R>,
                       Team<Space, Step, LaunchShape<Space, Step>, R>>>;

// Step's launch on Space with the real type R, its teams in `Shape` (v3 on).
template <class Space, class Step, class Shape = LaunchShape<Space, Step>, class R = double>
Sums launch_step(const Arrays<Space>& a, const std::string& label) {
  if constexpr (kRangeStep<Step>)
    return launch_range<Space, KernelOf<Space, Step, R>>(a, label);
  else
    return launch_team<Space, Step, Shape, R>(a, label);
}

// Version `id` run on Space with the real type R.
template <class Space, class R = double>
Sums run_version(const std::string& id, const Arrays<Space>& a, const std::string& label) {
  return with_step(id, [&](auto step) {
    return launch_step<Space, decltype(step), LaunchShape<Space, decltype(step)>, R>(a, label);
  });
}

}  // namespace rooftop::kernels::gpp
