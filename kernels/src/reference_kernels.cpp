// Reference kernels with known costs, so a user can see known kernels land where theory
// says: a STREAM triad (memory-bound), a polynomial near the ridge point, and a 3-D
// 7-point stencil. Each declares its FLOPs and compulsory bytes (STREAM counting: what
// the program reads and writes, each array once per run; write-allocate not added).

#include "reference_kernels.hpp"

#include <cmath>
#include <cstdint>

#include "reference_functors.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::kernels {
namespace {

using reference::Space;
using reference::Vector;
using Range = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;

// Elements of the streaming kernels: 2^25 doubles (256 MiB per array) leave every
// last-level cache far behind; tiny is for tests.
std::int64_t stream_elements(const std::string& size) {
  return size == "tiny" ? 4099 : std::int64_t{1} << 25;
}

core::KernelRecord record(const std::string& name, const std::string& id, int order,
                          const std::string& description, double flops, double bytes) {
  core::KernelRecord r;
  r.name = name;
  r.id = id;
  r.group = "";  // a suite, not versions of one code: nothing to join with arrows
  r.order = order;
  r.description = description;
  r.source = "declared";
  r.precision = "fp64";
  r.flops_fp64 = flops;
  r.bytes = {{"dram", bytes}};
  return r;
}

// Counts the elements of `v` (host copy) that differ from `want` by more than a few ulps.
std::string first_wrong(const Vector& v, std::int64_t begin, std::int64_t end, double want,
                        const std::string& what) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (std::int64_t i = begin; i < end; ++i)
    if (!(std::fabs(h(i) - want) <= 8 * std::numeric_limits<double>::epsilon() * std::fabs(want)))
      return what + "[" + std::to_string(i) + "] = " + std::to_string(h(i)) + ", expected " +
             std::to_string(want);
  return {};
}

// a = b + s c: 2 FLOPs and 24 bytes per element (FMA fraction 1).
class Triad final : public Kernel {
 public:
  Triad(std::string size, int order) : n_(stream_elements(size)), order_(order) {}
  core::KernelRecord declared() const override {
    auto r = record("reference::triad", "triad", order_, "STREAM triad a = b + s c: memory-bound",
                    2.0 * n_, 24.0 * n_);
    r.fma_fraction = 1.0;
    return r;
  }
  void prepare() override {
    a_ = Vector("rooftop::triad_a", n_);
    b_ = Vector("rooftop::triad_b", n_);
    c_ = Vector("rooftop::triad_c", n_);
    Kokkos::deep_copy(b_, 1.0);
    Kokkos::deep_copy(c_, 2.0);
  }
  void run() override {
    Kokkos::parallel_for("reference::triad", Range(0, n_), reference::triad{a_, b_, c_});
    Space().fence();
  }
  std::string check() override { return first_wrong(a_, 0, n_, 2.0, "a"); }
  void release() override { a_ = b_ = c_ = Vector(); }

 private:
  std::int64_t n_;
  int order_;
  Vector a_, b_, c_;
};

// x = x a + b, kSteps times per element: 2 kSteps FLOPs (all FMA) and 16 bytes per
// element, AI = kSteps / 8. 16 steps put it at 2 FLOP/byte, near the ridge point of a
// CPU (peak / DRAM bandwidth: about 1-3); a GPU's ridge is near 20, where the host
// build's choice is memory-bound. The values converge to 1/2 + (x0 - 1/2) / 2^steps.
class Polynomial final : public Kernel {
  static constexpr int kSteps = reference::polynomial16::kSteps;

 public:
  Polynomial(std::string size, int order) : n_(stream_elements(size)), order_(order) {}
  core::KernelRecord declared() const override {
    auto r = record("reference::polynomial" + std::to_string(kSteps),
                    "poly" + std::to_string(kSteps), order_,
                    std::to_string(kSteps) + " dependent FMAs per element, AI " +
                        std::to_string(kSteps / 8.0).substr(0, 4) + " FLOP/byte: near the ridge",
                    2.0 * kSteps * n_, 16.0 * n_);
    r.fma_fraction = 1.0;
    return r;
  }
  void prepare() override {
    x_ = Vector("rooftop::polynomial_x", n_);
    Kokkos::deep_copy(x_, 0.75);
    runs_ = 0;
  }
  void run() override {
    Kokkos::parallel_for("reference::polynomial", Range(0, n_), reference::polynomial16{x_});
    Space().fence();
    ++runs_;
  }
  std::string check() override {
    const double steps = static_cast<double>(runs_) * kSteps;
    const double want = steps > 200 ? 0.5 : 0.5 + 0.25 * std::pow(0.5, steps);
    return first_wrong(x_, 0, n_, want, "x");
  }
  void release() override { x_ = Vector(); }

 private:
  std::int64_t n_;
  int order_;
  std::int64_t runs_ = 0;
  Vector x_;
};

// Jacobi 7-point stencil on an n^3 grid: out = c0 in + c1 (sum of the 6 neighbours) on
// the interior. 8 FLOPs (6 adds, 2 multiplies; 1 fuses) and 16 compulsory bytes per
// interior point (in read once, out written once; neighbours come from cache).
class Stencil final : public Kernel {
 public:
  Stencil(const std::string& size, int order) : n_(size == "tiny" ? 18 : 320), order_(order) {}
  core::KernelRecord declared() const override {
    const double interior = std::pow(static_cast<double>(n_ - 2), 3);
    auto r = record("reference::stencil7", "stencil", order_,
                    "3-D 7-point Jacobi stencil on " + std::to_string(n_) + "^3: AI 0.5 FLOP/byte",
                    8.0 * interior, 16.0 * interior);
    r.fma_fraction = 2.0 / 8.0;
    return r;
  }
  void prepare() override {
    const std::int64_t points = std::int64_t{n_} * n_ * n_;
    in_ = Vector("rooftop::stencil_in", points);
    out_ = Vector("rooftop::stencil_out", points);
    Kokkos::deep_copy(in_, 1.0);
    Kokkos::deep_copy(out_, 0.0);
  }
  void run() override {
    const std::int64_t n = n_;
    Kokkos::parallel_for(
        "reference::stencil7",
        Kokkos::MDRangePolicy<Space, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>(
            {1, 1, 1}, {n - 1, n - 1, n - 1}),
        reference::stencil7{in_, out_, n, n * n});
    Space().fence();
  }
  std::string check() override {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out_);
    const std::int64_t n = n_;
    for (std::int64_t k = 1; k < n - 1; ++k)
      for (std::int64_t j = 1; j < n - 1; ++j)
        for (std::int64_t i = 1; i < n - 1; ++i) {
          const double v = h((k * n + j) * n + i);
          if (v != 1.0)
            return "out(" + std::to_string(k) + "," + std::to_string(j) + "," + std::to_string(i) +
                   ") = " + std::to_string(v) + ", expected 1";
        }
    return {};
  }
  void release() override { in_ = out_ = Vector(); }

 private:
  int n_;
  int order_;
  Vector in_, out_;
};

}  // namespace

// The reference kernels a user can name, in the order they are listed: one row each.
const std::vector<ReferenceKernel>& reference_kernels() {
  static const std::vector<ReferenceKernel> kernels = {
      {"triad",
       [](const std::string& size, int order) -> std::unique_ptr<Kernel> {
         return std::make_unique<Triad>(size, order);
       }},
      {"polynomial",
       [](const std::string& size, int order) -> std::unique_ptr<Kernel> {
         return std::make_unique<Polynomial>(size, order);
       }},
      {"stencil",
       [](const std::string& size, int order) -> std::unique_ptr<Kernel> {
         return std::make_unique<Stencil>(size, order);
       }},
  };
  return kernels;
}

}  // namespace rooftop::kernels
