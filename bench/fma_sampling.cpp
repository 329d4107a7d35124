// How far the host FP64 FMA ceiling is from a register-only FMA loop, and how much of that
// is the kernel and how much the way a ceiling is timed. Three measurements alternate in
// one process, each as a fraction of the FP64 FMA peak the ceilings file gives
// (ceilings::attach_theoretical) at the clock read around it (rooftop's own probe):
//
//   ceiling   rooftop's compute ceiling point (1024 FLOPs per element, ILP 8, an
//             L2-resident array), timed as `measure` times it: one launch on every
//             thread, wall clock, samples of --sample-ms;
//   register  a loop of FMAs on registers only (no memory), launched and timed the same;
//   window    the same register loop, each thread timing its own short windows of
//             --window-ms with no barrier between threads (what single-loop peak-FLOP
//             programs report), the clock read by each thread around each window.
//
// usage: OMP_PROC_BIND=spread OMP_PLACES=cores fma_sampling [--rounds 3] [--sample-ms 50]
//                                                       [--window-ms 0.5]
// (one thread per core, as `rooftop measure` places them: a window's peak is one core's)

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/measure.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using Clock = std::chrono::steady_clock;
using rooftop::core::summarize;

// Independent chains of vector FMAs: enough to cover latency x pipes on current cores
// (Zen 4 needs 4 of its 512-bit FMAs in flight, Golden Cove 8) while staying in registers.
constexpr int kChains = 12;
using Vector = double __attribute__((vector_size(64)));
constexpr int kLanes = sizeof(Vector) / sizeof(double);

// `iterations` x kChains FMAs on registers; returns a value the caller keeps, so the
// work cannot be deleted.
__attribute__((noinline)) double register_fmas(std::int64_t iterations, double alpha, double beta) {
  Vector acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = Vector{} + 0.25 + 0.01 * c;
  for (std::int64_t i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * alpha + beta;  // contracted to FMAs
  double sum = 0.0;
  for (int c = 0; c < kChains; ++c) sum += acc[c][0];
  return sum;
}

constexpr double kFlopsPerIteration = 2.0 * kChains * kLanes;

// The machine's FP64 FMA peak at `ghz`, in GFLOP/s, by the formula of the ceilings file.
double fma_peak(const rooftop::core::Machine& m, double ghz) {
  rooftop::core::Ceiling c;
  c.name = rooftop::core::compute_ceiling_name("fp64", "fma");
  c.kind = "compute";
  rooftop::ceilings::attach_theoretical(m, c, {ghz});
  return c.theoretical.value_or(0.0);
}

struct Fractions {
  std::vector<double> values;
  void print(const char* what) const {
    const auto s = summarize(values);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::printf("  %-8s median %.4f  p90 %.4f  max %.4f  (%zu samples)\n", what, s.median,
                sorted[sorted.size() * 9 / 10], s.max, sorted.size());
  }
};

double option(int argc, char** argv, const char* name, double fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) {
      char* end = nullptr;
      const double v = std::strtod(argv[i + 1], &end);
      if (*end != '\0' || !(v > 0.0)) {
        std::fprintf(stderr, "fma_sampling: %s needs a positive number\n", name);
        std::exit(2);
      }
      return v;
    }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const double rounds_option = option(argc, argv, "--rounds", 3);
  const int rounds = static_cast<int>(rounds_option);
  if (rounds != rounds_option) {
    std::fprintf(stderr, "fma_sampling: --rounds needs a whole number\n");
    return 2;
  }
  const double sample_s = option(argc, argv, "--sample-ms", 50) * 1e-3;
  const double window_s = option(argc, argv, "--window-ms", 0.5) * 1e-3;
  Kokkos::initialize(argc, argv);
  {
    const rooftop::core::Machine m = rooftop::microbench::describe_host();
    const int threads = Host().concurrency();
    if (fma_peak(m, 1.0) <= 0.0 || m.simd_bits < 8 * static_cast<int>(sizeof(Vector))) {
      std::fprintf(stderr,
                   "fma_sampling: needs FMA pipes and %zu-bit vectors in the host model "
                   "(this host: %d FMA pipes, %d-bit vectors)\n",
                   8 * sizeof(Vector), m.fma_pipes, m.simd_bits);
      Kokkos::finalize();
      return 2;
    }
    // FLOPs per cycle of the machine and of one core (a window runs on one).
    const double machine_cycle = fma_peak(m, 1.0);
    const double per_core_cycle = machine_cycle / m.cores;
    std::printf(
        "%s: %d threads on %d cores; fractions of %.0f FLOP/cycle at the clock read "
        "around each sample\n",
        m.cpu_model.c_str(), threads, m.cores, machine_cycle);

    rooftop::core::Sampling sampling;
    sampling.samples = 7;
    sampling.min_sample_seconds = sample_s;
    sampling.clock = rooftop::microbench::sample_clock_ghz;

    // Iterations of the register loop in one window: from the clock, about window_s.
    const double ghz = rooftop::microbench::sample_clock_ghz();
    const auto window_iterations = static_cast<std::int64_t>(
        std::max(1.0, window_s * ghz * 1e9 * per_core_cycle / kFlopsPerIteration));
    std::vector<double> sink(static_cast<std::size_t>(threads) * 8, 0.0);  // a line each

    for (int round = 1; round <= rounds; ++round) {
      std::printf("round %d\n", round);
      Fractions ceiling, registers, windows;

      const rooftop::core::ComputePoint p = rooftop::microbench::measure_compute<Host>(
          "fp64", true, 1024, rooftop::microbench::kDefaultIlp, 256 * 1024, sampling);
      for (std::size_t i = 0; i < p.values.size(); ++i)
        ceiling.values.push_back(p.values[i] / (machine_cycle * p.clock_ghz[i]));

      double* out = sink.data();
      std::int64_t iterations = window_iterations;
      auto launch = [&](std::int64_t reps) {
        const std::int64_t n = iterations * reps;
        Kokkos::parallel_for(
            "fma_sampling::register", Kokkos::RangePolicy<Host>(0, threads),
            [=](const int t) { out[t * 8] += register_fmas(n, 0.5, 0.25); });
        Host().fence();
      };
      const rooftop::core::SampleSet s = rooftop::core::sample(sampling, 1, launch);
      for (std::size_t i = 0; i < s.seconds.size(); ++i)
        registers.values.push_back(threads * kFlopsPerIteration * iterations * s.reps /
                                   s.seconds[i] * 1e-9 / (machine_cycle * s.clock_ghz[i]));

      // Per-thread windows, each bracketed by that thread's own clock readings.
      constexpr int kWindows = 200;
      std::vector<double> per_window(static_cast<std::size_t>(threads) * kWindows);
      double* fractions = per_window.data();
      Kokkos::parallel_for(
          "fma_sampling::windows", Kokkos::RangePolicy<Host>(0, threads), [=](const int t) {
            for (int w = 0; w < kWindows; ++w) {
              const double before = rooftop::microbench::thread_clock_ghz();
              const auto t0 = Clock::now();
              out[t * 8] += register_fmas(window_iterations, 0.5, 0.25);
              const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
              const double after = rooftop::microbench::thread_clock_ghz();
              fractions[t * kWindows + w] = kFlopsPerIteration * window_iterations / seconds *
                                            1e-9 / (per_core_cycle * std::max(before, after));
            }
          });
      Host().fence();
      windows.values = per_window;

      ceiling.print("ceiling");
      registers.print("register");
      windows.print("window");
    }
    std::printf("(sink %g)\n", sink[0]);
  }
  Kokkos::finalize();
  return 0;
}
