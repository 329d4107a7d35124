// The GPP ladder as analyzer kernels: sizes, the closed-form answer, the declared
// counts, and one launch function per version of the published optimization ladder.

#include "rooftop/kernels/gpp.hpp"

#include <Kokkos_Core.hpp>
#include <cmath>
#include <functional>

#include "gpp_kernels.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::kernels::gpp {
namespace {

const std::vector<Size>& sizes() {
  // ngpown = ncouls / 20 as in the mini-apps' command line "bands nvband ncouls 20".
  static const std::vector<Size> all = {
      {"tiny", 6, 2, 1030, 51, 3},  // G not a multiple of a vector chunk nor of a cache block
      {"small", 128, 2, 8192, 409, 3},
      {"classic", 512, 2, 32768, 1638, 3},
      {"si214", 800, 2, 11075, 1385, 2},
  };
  return all;
}

template <class Space>
constexpr bool kOnHost =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

// Consecutive G one host work item handles as independent lanes once the body has no
// branch and no complex division (v7 on), which is when a compiler vectorizes it: 16
// (two AVX-512 registers per value, enough independent work to hide the latencies;
// 8 and 32 measured slower). Before that, lanes only add spills, so one G at a time
// is the best host code. On a GPU the team's threads are the lanes.
template <class Space>
constexpr int lanes(bool vectorizable) {
  return kOnHost<Space> && vectorizable ? 16 : 1;
}

// Threads per team: one on a host (a team is one core's work), 128 on a GPU (4 warps,
// enough to cover the loads of one G' row; the ladder's "team size" step).
template <class Space>
int team_size() {
  return kOnHost<Space> ? 1 : 128;
}

template <class Space>
using Launch = std::function<Sums(const Arrays<Space>&, const std::string&)>;

template <class Space, class Functor>
Sums reduce_range(const std::string& label, std::int64_t n, const Functor& f) {
  Sums s;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
                          f, s);
  return s;
}

template <class Space, bool kGp, bool kOne, bool kSel, bool kRec, bool kSq, bool kBlk>
Sums launch_team(const Arrays<Space>& a, const std::string& label) {
  using K = TeamKernel<Space, lanes<Space>(kSel && kRec), kGp, kOne, kSel, kRec, kSq, kBlk>;
  Sums total;
  for (int iw = 0; iw < (kOne ? a.nw : 1); ++iw) {
    const K k{a, kOne ? iw : 0};
    Sums s;
    Kokkos::parallel_reduce(label, Kokkos::TeamPolicy<Space>(k.league(), team_size<Space>()), k, s);
    total += s;  // each launch adds to its own frequencies only
  }
  return total;
}

struct Step {
  Version version;
  bool g_prime_contiguous;   // storage order of I_eps and wtilde
  bool padded_rows = false;  // rows of aqsmtemp, aqsntemp padded against cache-set conflicts
};

const std::vector<Step>& steps() {
  static const std::vector<Step> all = {
      {{"v1", "gpp::v1_collapse_all",
        "bands, G' and G collapsed into one parallel reduction; complex divide, abs, branch"},
       true},
      {{"v2", "gpp::v2_collapse_two",
        "G' and G collapsed, the band loop inside each work item (reuses wtilde, I_eps)"},
       true},
      {{"v3", "gpp::v3_team_vector",
        "one team per G', its threads over G (GPU: 128 threads per team; host: one "
        "thread per team, one G at a time: the branch and the complex division keep a "
        "compiler from vectorizing the body)"},
       true},
      {{"v4", "gpp::v4_frequency_outside",
        "the frequency loop outside the kernel: one launch per frequency, fewer live "
        "accumulators (host: slower, each launch reads the arrays and forms the band "
        "factors again)"},
       true},
      {{"v5", "gpp::v5_index_swap",
        "I_eps and wtilde stored G-contiguous, so neighbouring G are adjacent (GPU: "
        "coalesced loads; host: contiguous loads, which pay off once the body vectorizes)"},
       false},
      {{"v6", "gpp::v6_simplified_body",
        "simplified body: a select instead of the branch, the band's scalar factor formed "
        "once per band"},
       false},
      {{"v7", "gpp::v7_reciprocal",
        "complex divide replaced by one reciprocal of |wdiff|^2 and multiplies (host: "
        "the body vectorizes, 16 G per chunk as vector lanes)"},
       false},
      {{"v8", "gpp::v8_squared_magnitudes",
        "magnitudes compared squared instead of through abs (no sqrt)"},
       false},
      {{"v9", "gpp::v9_cache_blocking",
        "G in blocks of 128: every G' of a block runs before the next block, so "
        "aqsntemp(:, block) stays in cache (rows padded against cache-set conflicts)"},
       false,
       true},
  };
  return all;
}

template <class Space>
Launch<Space> launch_of(const std::string& id) {
  if (id == "v1")
    return [](const Arrays<Space>& a, const std::string& label) {
      return reduce_range<Space>(label, std::int64_t{a.number_bands} * a.ngpown * a.ncouls,
                                 CollapseAll<Space>{a});
    };
  if (id == "v2")
    return [](const Arrays<Space>& a, const std::string& label) {
      return reduce_range<Space>(label, std::int64_t{a.ngpown} * a.ncouls, CollapseTwo<Space>{a});
    };
  //                          G'-contig  1 freq  select recip  squared blocked
  if (id == "v3") return launch_team<Space, true, false, false, false, false, false>;
  if (id == "v4") return launch_team<Space, true, true, false, false, false, false>;
  if (id == "v5") return launch_team<Space, false, true, false, false, false, false>;
  if (id == "v6") return launch_team<Space, false, true, true, false, false, false>;
  if (id == "v7") return launch_team<Space, false, true, true, true, false, false>;
  if (id == "v8") return launch_team<Space, false, true, true, true, true, false>;
  if (id == "v9") return launch_team<Space, false, true, true, true, true, true>;
  throw Error("no GPP version '" + id + "'");
}

template <class Space>
class GppKernel final : public Kernel {
 public:
  GppKernel(Size size, Step step, int order)
      : size_(std::move(size)), step_(std::move(step)), order_(order) {}

  core::KernelRecord declared() const override {
    core::KernelRecord r;
    r.name = step_.version.name;
    r.id = step_.version.id;
    r.group = "gpp";
    r.order = order_;
    r.description = step_.version.description;
    r.source = "declared";
    r.precision = "fp64";
    r.flops_fp64 = flops(size_);
    r.fma_fraction = fma_fraction(size_);
    r.bytes = {{"dram", compulsory_bytes(size_)}};
    r.note = "size " + size_.name + ": " + std::to_string(size_.number_bands) + " bands, G' " +
             std::to_string(size_.ngpown) + ", G " + std::to_string(size_.ncouls) + ", " +
             std::to_string(size_.nw) + " frequencies";
    return r;
  }

  void prepare() override {
    using Arrays = gpp::Arrays<Space>;
    using Matrix = typename Arrays::Matrix;
    Arrays& a = arrays_;
    a.number_bands = size_.number_bands;
    a.ngpown = size_.ngpown;
    a.ncouls = size_.ncouls;
    a.nw = size_.nw;
    const auto alloc = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::gpp::") + label);
    };
    // Cache blocking pads the rows of the band arrays by two cache lines: with G a power
    // of two, the rows of one block would otherwise all fall into the same cache sets.
    const int row = size_.ncouls + (step_.padded_rows ? 8 : 0);
    a.aqsmtemp = Matrix(alloc("aqsmtemp"), size_.number_bands, row);
    a.aqsntemp = Matrix(alloc("aqsntemp"), size_.number_bands, row);
    if (step_.g_prime_contiguous) {
      a.I_eps_array = Matrix(alloc("I_eps_array"), size_.ncouls, size_.ngpown);
      a.wtilde_array = Matrix(alloc("wtilde_array"), size_.ncouls, size_.ngpown);
    } else {
      a.I_eps_array = Matrix(alloc("I_eps_array"), size_.ngpown, size_.ncouls);
      a.wtilde_array = Matrix(alloc("wtilde_array"), size_.ngpown, size_.ncouls);
    }
    a.vcoul = decltype(a.vcoul)(alloc("vcoul"), size_.ngpown);
    a.wx_array = decltype(a.wx_array)(alloc("wx_array"), size_.number_bands, size_.nw);
    const Complex half(0.5, 0.5);
    for (Matrix* m : {&a.aqsmtemp, &a.aqsntemp, &a.I_eps_array, &a.wtilde_array})
      Kokkos::deep_copy(*m, half);
    Kokkos::deep_copy(a.vcoul, 1.0);
    auto wx = Kokkos::create_mirror_view(a.wx_array);
    for (int n1 = 0; n1 < size_.number_bands; ++n1)
      for (int iw = 0; iw < size_.nw; ++iw) wx(n1, iw) = 3.0 + iw;
    Kokkos::deep_copy(a.wx_array, wx);
    launch_ = launch_of<Space>(step_.version.id);
    Space().fence();
  }

  void run() override {
    result_ = launch_(arrays_, step_.version.name);
    Space().fence();
  }

  std::string check() override {
    for (int iw = 0; iw < size_.nw; ++iw) {
      const std::complex<double> want = expected_achtemp(size_, iw);
      const std::complex<double> got(result_.re[iw], result_.im[iw]);
      const double error = std::abs(got - want) / std::abs(want);
      if (!(error <= 1e-6))
        return "achtemp(" + std::to_string(iw) + ") = " + std::to_string(got.real()) + " + " +
               std::to_string(got.imag()) + "i, expected " + std::to_string(want.real()) + " + " +
               std::to_string(want.imag()) + "i (relative error " + std::to_string(error) + ")";
    }
    return {};
  }

  void release() override { arrays_ = {}; }

 private:
  Size size_;
  Step step_;
  int order_;
  Arrays<Space> arrays_;
  Launch<Space> launch_;
  Sums result_;
};

}  // namespace

Size size(const std::string& name) {
  for (const Size& s : sizes())
    if (s.name == name) return s;
  std::string known;
  for (const Size& s : sizes()) known += (known.empty() ? "" : ", ") + s.name;
  throw Error("unknown GPP size '" + name + "' (" + known + ")");
}

std::vector<std::string> size_names() {
  std::vector<std::string> out;
  for (const Size& s : sizes()) out.push_back(s.name);
  return out;
}

std::complex<double> expected_achtemp(const Size& size, int iw) {
  const std::complex<double> term =
      std::complex<double>(0.0, 0.125) / std::complex<double>(3.0 + iw - 0.5, -0.5);
  return static_cast<double>(size.number_bands) * size.ngpown * size.ncouls * term;
}

double flops(const Size& size) {
  const double terms = static_cast<double>(size.number_bands) * size.ngpown * size.ncouls;
  return terms * (31.0 * size.nw + 8.0);
}

double fma_fraction(const Size& size) { return (16.0 * size.nw + 4.0) / (31.0 * size.nw + 8.0); }

double compulsory_bytes(const Size& size) {
  const double bands_g = static_cast<double>(size.number_bands) * size.ncouls;
  const double gp_g = static_cast<double>(size.ngpown) * size.ncouls;
  return 16.0 * (2.0 * bands_g + 2.0 * gp_g) + 8.0 * size.ngpown +
         8.0 * static_cast<double>(size.number_bands) * size.nw;
}

const std::vector<Version>& versions() {
  static const std::vector<Version> all = [] {
    std::vector<Version> v;
    for (const Step& s : steps()) v.push_back(s.version);
    return v;
  }();
  return all;
}

KernelList make_ladder(const Size& size, const std::string& only) {
  KernelList out;
  int order = 0;
  for (const Step& s : steps()) {
    if (only.empty() || only == s.version.id)
      out.push_back(std::make_unique<GppKernel<Kokkos::DefaultExecutionSpace>>(size, s, order));
    ++order;
  }
  if (out.empty())
    throw Error("no GPP version '" + only + "' (v1 ... v" + std::to_string(order) + ")");
  return out;
}

}  // namespace rooftop::kernels::gpp
