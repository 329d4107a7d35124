#pragma once
// The data model shared by every stage: what a machine is, the raw sweeps the
// microbenchmarks produce, and the ceilings extracted from them. Plain values only;
// HDF5 and Kokkos stay out of this header.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop::ceilings {

// One level of the memory hierarchy, named from the hardware (sysfs, device properties).
struct CacheLevel {
  std::string name;          // "l1", "l2", "l3"
  std::uint64_t bytes = 0;   // capacity of one instance
  int shared_by = 1;         // hardware threads that share one instance
};

struct Machine {
  std::string hostname;
  std::string execution_space;  // "OpenMP", "Cuda", ...
  std::string cpu_model;
  std::string gpu_name;            // empty on a host characterization
  std::string compute_capability;  // empty on a host characterization
  int cores = 0;                   // physical cores (host) or SMs (device) used
  int threads = 0;                 // concurrency of the execution space
  int hardware_threads = 0;        // logical CPUs online (0: unknown)
  std::vector<CacheLevel> caches;  // innermost first
  int simd_bits = 0;               // widest vector the kernels were built for
  int fma_pipes = 0;               // FMA-capable pipes per core (0: unknown)
  int add_pipes = 0;               // add-only pipes per core
  int load_ports = 0;              // vector loads per cycle per core
  double store_bytes_per_cycle = 0;  // L1 store bandwidth per core (0: unknown)
  std::string hardware_model;        // where the pipe and port counts come from
  double clock_ghz = 0.0;          // measured under load
  std::string clock_method;
  std::string compiler;
  std::string compile_flags;
  std::string kokkos_version;
  std::string cuda_version;
  std::string driver_version;
};

// Raw samples of one compute point: a precision, FMA mode and FLOPs per element.
struct ComputePoint {
  std::string precision;  // "fp64", "fp32"
  std::string mode;       // "fma", "nofma"
  int flops_per_element = 0;
  double mul_add_ratio = 0.0;  // multiplies per add issued (FMA counts as one of each)
  std::uint64_t working_set_bytes = 0;
  std::vector<double> seconds;  // one per sample
  std::vector<double> rates;    // GFLOP/s per sample
};

// Raw samples of one bandwidth point: an access pattern at one working-set size.
struct BandwidthPoint {
  std::string pattern;  // "read", "write", "copy", "triad", "rmw"
  std::uint64_t working_set_bytes = 0;
  std::vector<double> seconds;
  std::vector<double> rates;  // GB/s (10^9 bytes) per sample
};

struct Sweeps {
  std::vector<ComputePoint> compute;
  std::vector<BandwidthPoint> bandwidth;
};

struct Ceiling {
  std::string name;   // fp64_fma, fp64_nofma, fp32_fma, fp32_nofma, l1, l2, l3, dram, ...
  std::string kind;   // "compute" or "bandwidth"
  double value = 0.0; // the sustained (median) rate at the best point
  std::string units;  // "GFLOP/s" or "GB/s"
  double median = 0.0, min = 0.0, max = 0.0;
  int samples = 0;       // 0: not measured (a theoretical value imported from elsewhere)
  std::string pattern;  // access pattern (bandwidth) or "fma"/"mul+add" (compute)
  std::uint64_t working_set_bytes = 0;
  int flops_per_element = 0;
  std::optional<double> theoretical;  // same units as value; empty where unknown
  std::string theoretical_basis;      // how the theoretical peak was computed
  std::string note;

  bool measured() const { return samples > 0; }

  std::optional<double> fraction_of_theoretical() const {
    if (!theoretical || *theoretical <= 0.0) return std::nullopt;
    return value / *theoretical;
  }
  // A ceiling above the physical limit is a measurement bug, not a record.
  bool above_theoretical() const {
    auto f = fraction_of_theoretical();
    return f && *f > 1.0;
  }
};

struct Provenance {
  std::string schema_version;  // "1.0" when written by this version
  std::string tool_version;
  std::string git_revision;
  std::string created_utc;     // ISO 8601
  std::string command_line;
};

struct CeilingsFile {
  Provenance provenance;
  Machine machine;
  std::vector<Ceiling> ceilings;
  Sweeps sweeps;

  const Ceiling* find(const std::string& name) const;
};

}  // namespace rooftop::ceilings
