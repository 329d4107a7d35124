// The GPP ladder as analyzer kernels: sizes, each version's declared cost in closed form,
// and the answer checked against the reference of gpp_inputs.hpp.

#include "rooftop/kernels/gpp.hpp"

#include <cxxabi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>
#include <typeinfo>

#include "gpp_inputs.hpp"
#include "gpp_kernels.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::kernels::gpp {
namespace {

const std::vector<Size>& sizes() {
  // ngpown = ncouls / 20 as in the mini-apps' command line "bands nvband ncouls 20".
  static const std::vector<Size> all = {
      {"tiny", 6, 2, 1030, 51, 3},  // G not a multiple of a vector chunk nor of a cache block
      {"small", 128, 2, 8192, 409, 3},
      // A GPU's default: 8 x small's work (small took 6 to 23 ms a version on an H200,
      // classic 0.35 to 1.15 s), so that timing and counting every version fits a budget.
      {"medium", 256, 2, 16384, 819, 3},
      {"classic", 512, 2, 32768, 1638, 3},
      {"si214", 800, 2, 11075, 1385, 2},
  };
  return all;
}

struct Step {
  Version version;
};

// The case study's steps (V100, OpenACC), each in its Kokkos form. The record name of a
// version is its type's name in gpp_kernels.hpp (the name a profiler shows).
const std::vector<Step>& steps() {
  static const std::vector<Step> all = {
      {{"v1", "gpp::v1_collapse_all",
        "bands, G' and G collapsed into one parallel reduction; the frequencies inside; "
        "complex divisions, |ssx| through a square root, three branches"}},
      {{"v2", "gpp::v2_collapse_two",
        "G' and G collapsed, the band loop inside each work item (reuses wtilde, I_eps)"}},
      {{"v3", "gpp::v3_thread_block",
        "v2 in thread blocks of 512 (at most 128 registers a thread) instead of the "
        "backend's choice (host: a team is one core's G' row, one G at a time)"}},
      {{"v4", "gpp::v4_frequency_outside",
        "the frequency loop outside the kernel: one launch per frequency, fewer live "
        "accumulators and registers (each launch forms the band factors again)"}},
      {{"v5", "gpp::v5_index_swap",
        "wx stored (n1, iw), the band contiguous, for the band loop inside"}},
      {{"v6", "gpp::v6_simplified_body",
        "simplified body: wtilde^2, Omega2 and the ssx cutoff formed per (G', G) before the "
        "band loop; two branches where there were three, sharing one division"}},
      {{"v7", "gpp::v7_reciprocal",
        "each complex division replaced by one reciprocal of a squared magnitude and "
        "multiplies (host: the body vectorizes, 8 G per chunk as vector lanes)"}},
      {{"v8", "gpp::v8_squared_magnitudes",
        "|ssx| compared squared with the squared cutoff: no square root"}},
      {{"v9", "gpp::v9_cache_blocking",
        "blocking: GPU: a thread takes one G and 2 G' (one aqsntemp load serves two "
        "terms), every G' of a block of G launched together; host: G in blocks of 128, "
        "every G' of a block before the next, rows padded against cache-set conflicts"}},
  };
  return all;
}

template <class Functor>
std::string demangled() {
  int status = 0;
  char* name = abi::__cxa_demangle(typeid(Functor).name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : typeid(Functor).name();
  std::free(name);
  return out;
}

template <class Space>
std::string functor_of(const std::string& id) {
  return with_step(id, [](auto step) { return demangled<KernelOf<Space, decltype(step)>>(); });
}

// The reference answer of a size, summed once per process (up to 2 s, at classic).
const Answer& reference_of(const Size& size) {
  static std::mutex mutex;
  static std::map<std::string, Answer> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(size.name);
  if (it == cache.end()) it = cache.emplace(size.name, reference(make_inputs(size))).first;
  return it->second;
}

std::string complex_text(std::complex<double> z) {
  char text[96];
  std::snprintf(text, sizeof text, "%.12g %+.12gi", z.real(), z.imag());
  return text;
}

// A version's cost from the branch counts, and the shares in words (below).
Cost cost_of(const Size& size, const std::string& id, const BranchCounts& branches);
std::string shares_text(const BranchCounts& b);

template <class Space>
class GppKernel final : public Kernel {
 public:
  GppKernel(Size size, Step step, int order)
      : size_(std::move(size)), step_(std::move(step)), order_(order) {}

  core::KernelRecord declared() const override {
    const BranchCounts branches = branch_counts(make_inputs(size_));
    const Cost c = cost_of(size_, step_.version.id, branches);
    core::KernelRecord r;
    r.name = step_.version.name;
    r.id = step_.version.id;
    r.group = "gpp";
    r.order = order_;
    r.description = step_.version.description;
    r.source = "declared";
    r.precision = "fp64";
    r.flops_fp64 = c.flops;
    r.fma_fraction = c.fma_flops / c.flops;
    r.bytes = {{"dram", c.bytes}};
    char launches[160];
    std::snprintf(launches, sizeof launches, "%d launch%s of %.4g MB each", c.launches,
                  c.launches == 1 ? "" : "es", c.bytes_per_launch * 1e-6);
    r.note = "size " + size_.name + ": " + std::to_string(size_.number_bands) + " bands (" +
             std::to_string(size_.nvband) + " occupied), G' " + std::to_string(size_.ngpown) +
             ", G " + std::to_string(size_.ncouls) + ", " + std::to_string(size_.nw) +
             " frequencies; " + launches + "; " + shares_text(branches);
    // The launches the counts cover, as a counting backend notes them: counts from
    // another tool pair with these per launch.
    if (c.launches > 1)
      r.note += "; " + std::string(core::kKernelsPerRunNote) + r.name + " x" + std::to_string(c.launches);
    return r;
  }

  void prepare() override {
    arrays_ = generated_arrays<Space>(make_inputs(size_), knobs_of(step_.version.id));
    Space().fence();
  }

  void run() override {
    result_ = run_version<Space>(step_.version.id, arrays_, step_.version.name);
    Space().fence();
  }

  // Both sums against the reference, within 1e-9 of the larger of the two sums (the
  // versions add the same terms in other orders; the inputs keep every term clear of
  // its branch thresholds, so no rounding takes another branch).
  std::string check() override {
    const Answer& want = reference_of(size_);
    for (int iw = 0; iw < size_.nw; ++iw) {
      const std::complex<double> asx(-result_.ssx_re[iw], -result_.ssx_im[iw]);
      const std::complex<double> ach(result_.sch_re[iw], result_.sch_im[iw]);
      const double scale = std::max(std::abs(want.asxtemp[iw]), std::abs(want.achtemp[iw]));
      for (const auto& [name, got, expected] :
           {std::tuple{"asxtemp", asx, want.asxtemp[iw]}, std::tuple{"achtemp", ach, want.achtemp[iw]}}) {
        const double error = std::abs(got - expected) / scale;
        if (!(error <= kTolerance))
          return std::string(name) + "(" + std::to_string(iw) + ") = " + complex_text(got) +
                 ", the reference gives " + complex_text(expected) + " (error " +
                 std::to_string(error) + " of the sums' size)";
      }
    }
    return {};
  }

  void release() override { arrays_ = {}; }

 private:
  static constexpr double kTolerance = 1e-9;
  Size size_;
  Step step_;
  int order_;
  Arrays<Space> arrays_;
  Sums result_;
};

// What the source of each body executes (gpp_body.hpp, gpp_kernels.hpp), per slot: every
// term, a term taking the usual or the near-pole branch, a term whose ssx is kept (v6 on:
// the cutoff decides whether ssx is added), a band factor (n1, G', G) and a (G', G) pair
// formed before the band loop (v6 on). A term's count includes its four accumulating adds.
struct Tally {
  double flops = 0, fma = 0, divisions = 0, roots = 0;
};
struct BodyCounts {
  Tally term, usual, near_pole, kept, band, pair;
};

const BodyCounts& body_counts(const Knobs& k) {
  // clang-format off
  //                           term             usual          near_pole      kept         band         pair
  static const BodyCounts plain{{62, 34, 2, 2}, {19, 12, 2, 0}, {26, 14, 2, 0}, {},          {6, 4, 0, 0}, {}};
  static const BodyCounts simplified{{36, 20, 2, 1}, {19, 12, 2, 0}, {26, 14, 2, 0}, {8, 4, 0, 0}, {7, 4, 0, 0}, {17, 10, 0, 1}};
  static const BodyCounts reciprocal{{34, 18, 1, 1}, {20, 12, 1, 0}, {27, 16, 1, 0}, {8, 4, 0, 0}, {7, 4, 0, 0}, {17, 10, 0, 1}};
  static const BodyCounts squared{{33, 18, 1, 0}, {20, 12, 1, 0}, {27, 16, 1, 0}, {8, 4, 0, 0}, {7, 4, 0, 0}, {16, 10, 0, 0}};
  // clang-format on
  return !k.simplified ? plain : k.squared ? squared : k.reciprocal ? reciprocal : simplified;
}

Cost cost_of(const Size& size, const std::string& id, const BranchCounts& branches) {
  const Knobs k = knobs_of(id);
  const BodyCounts& body = body_counts(k);
  const double bands = size.number_bands, gp = size.ngpown, g = size.ncouls, nw = size.nw;
  const double terms = branches.terms();
  // Band factors and pairs are formed once per launch: the frequencies inside (v1 to v3)
  // share them, a launch per frequency (v4 on) forms them again.
  const double band_factors = bands * gp * g * (k.one_frequency ? nw : 1.0);
  const double pairs = gp * g * (k.one_frequency ? nw : 1.0);
  const double kept = terms - branches.cut;
  Cost c;
  const auto add = [&](const Tally& t, double n) {
    c.flops += t.flops * n, c.fma_flops += t.fma * n;
    c.divisions += t.divisions * n, c.square_roots += t.roots * n;
  };
  add(body.term, terms);
  add(body.usual, branches.usual);
  add(body.near_pole, branches.near_pole);
  add(body.kept, kept);
  add(body.band, band_factors);
  add(body.pair, pairs);
  c.launches = k.one_frequency ? size.nw : 1;
  // aqsmtemp (bands x G'), aqsntemp (bands x G), I_eps and wtilde (G' x G) as 16-byte
  // complex numbers, vcoul (G') and the launch's frequencies of wx (bands) as doubles.
  c.bytes_per_launch = 16.0 * (bands * gp + bands * g + 2.0 * gp * g) + 8.0 * gp +
                       8.0 * bands * nw / c.launches;
  c.bytes = c.bytes_per_launch * c.launches;
  return c;
}

std::string shares_text(const BranchCounts& b) {
  char text[200];
  std::snprintf(text, sizeof text,
                "branches: %.1f%% of terms usual, %.2f%% near the pole, %.3f%% zero; ssx cut in "
                "%.2f%%",
                100.0 * b.usual / b.terms(), 100.0 * b.near_pole / b.terms(),
                100.0 * b.zero / b.terms(), 100.0 * b.cut / b.terms());
  return text;
}

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

Cost cost(const Size& size, const std::string& id) {
  return cost_of(size, id, branch_counts(make_inputs(size)));
}

std::string branch_shares(const Size& size) { return shares_text(branch_counts(make_inputs(size))); }

const std::vector<Version>& versions() {
  static const std::vector<Version> all = [] {
    std::vector<Version> v;
    for (const Step& s : steps()) v.push_back(s.version);
    return v;
  }();
  return all;
}

std::string functor_name(const std::string& id) { return functor_of<Kokkos::DefaultExecutionSpace>(id); }

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
