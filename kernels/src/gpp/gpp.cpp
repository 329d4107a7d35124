// The GPP ladder as analyzer kernels: sizes, the closed-form answer, the declared
// counts, and one launch function per version of the published optimization ladder.

#include "rooftop/kernels/gpp.hpp"

#include <cxxabi.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <typeinfo>

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

template <class Space>
using Launch = std::function<Sums(const Arrays<Space>&, const std::string&)>;

// v1, v2: range policies, their block size the backend's choice.
template <class Space, template <class, class> class Functor, class Step>
Sums launch_range(const Arrays<Space>& a, const std::string& label) {
  const std::int64_t bands = Functor<Space, Step>::kBandsCollapsed ? a.number_bands : 1;
  const std::int64_t items = bands * a.ngpown * a.ncouls;
  Sums s;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, items),
                          Functor<Space, Step>{a}, s);
  return s;
}

struct Step {
  Version version;
};

// The case study's steps (V100, OpenACC), each in its Kokkos form. The record name of a
// version is its type's name in gpp_kernels.hpp (the name a profiler shows).
const std::vector<Step>& steps() {
  static const std::vector<Step> all = {
      {{"v1", "gpp::v1_collapse_all",
        "bands, G' and G collapsed into one parallel reduction; complex divide, abs, branch"}},
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
        "simplified body: a select instead of the branch, what depends on (G', G) alone "
        "formed before the band loop, |delw| < 500 as |wtilde| < 500 |wdiff|"}},
      {{"v7", "gpp::v7_reciprocal",
        "complex divide replaced by one reciprocal of |wdiff|^2 and multiplies (host: "
        "the body vectorizes, 16 G per chunk as vector lanes)"}},
      {{"v8", "gpp::v8_squared_magnitudes",
        "magnitudes compared squared instead of through abs (no sqrt)"}},
      {{"v9", "gpp::v9_cache_blocking",
        "blocking: GPU: a thread takes one G and 4 G' (one aqsntemp load serves four "
        "terms), every G' of a block of G launched together; host: G in blocks of 128, "
        "every G' of a block before the next, rows padded against cache-set conflicts"}},
  };
  return all;
}

// A version's launch and what its step changes (the storage of wx, from v5).
template <class Space>
struct Implementation {
  Launch<Space> launch;
  Knobs knobs;
  std::string functor;  // the functor's type, demangled: what a profiler names the kernel
};

template <class Functor>
std::string demangled() {
  int status = 0;
  char* name = abi::__cxa_demangle(typeid(Functor).name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : typeid(Functor).name();
  std::free(name);
  return out;
}

template <class Space, template <class, class> class Functor, class Step>
Implementation<Space> range_version() {
  return {launch_range<Space, Functor, Step>, Step::knobs, demangled<Functor<Space, Step>>()};
}

template <class Space, class Step>
Implementation<Space> team_version() {
  return {launch_team<Space, Step>, Step::knobs, demangled<Team<Space, Step>>()};
}

template <class Space>
Implementation<Space> implementation_of(const std::string& id) {
  if (id == "v1") return range_version<Space, CollapseAll, v1_collapse_all>();
  if (id == "v2") return range_version<Space, CollapseTwo, v2_collapse_two>();
  if (id == "v3") return team_version<Space, v3_thread_block>();
  if (id == "v4") return team_version<Space, v4_frequency_outside>();
  if (id == "v5") return team_version<Space, v5_index_swap>();
  if (id == "v6") return team_version<Space, v6_simplified_body>();
  if (id == "v7") return team_version<Space, v7_reciprocal>();
  if (id == "v8") return team_version<Space, v8_squared_magnitudes>();
  if (id == "v9") return team_version<Space, v9_cache_blocking>();
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
    const Implementation<Space> version = implementation_of<Space>(step_.version.id);
    arrays_ = synthetic_arrays<Space>(size_, version.knobs);
    launch_ = version.launch;
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

std::string functor_name(const std::string& id) {
  return implementation_of<Kokkos::DefaultExecutionSpace>(id).functor;
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
