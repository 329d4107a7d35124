#pragma once
// The data model shared by every stage: what a machine is, the raw sweeps the
// microbenchmarks produce, and the ceilings extracted from them. Plain values only;
// HDF5 and Kokkos stay out of this header.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rooftop::core {

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
  std::string device_arch;  // GPU arch the program was compiled for ("sm_90"); empty: host build
  std::string cuda_version;
  std::string driver_version;
  // Device characterizations (schema 1.5; zero/empty on a host): memory size, memory
  // clock and bus width, the clock the driver reports as the peak (the measured one is
  // clock_ghz), and the launch shape of every device kernel, one line each.
  std::uint64_t memory_bytes = 0;
  double memory_clock_ghz = 0.0;
  int memory_bus_bits = 0;
  double nominal_clock_ghz = 0.0;
  std::string launch_geometry;
};

// Machine's fields (all but the caches, a table of their own) by the names every file and
// export gives them: the attributes of /machine and the keys of the JSON "machine" object.
// Writers and readers walk this list; adding a field is one row.
struct MachineField {
  using Member = std::variant<std::string Machine::*, int Machine::*, double Machine::*,
                              std::uint64_t Machine::*>;
  std::string_view name;
  Member member;
};
inline constexpr MachineField kMachineFields[] = {
    {"hostname", &Machine::hostname},
    {"execution_space", &Machine::execution_space},
    {"cpu_model", &Machine::cpu_model},
    {"gpu_name", &Machine::gpu_name},
    {"compute_capability", &Machine::compute_capability},
    {"cores", &Machine::cores},
    {"threads", &Machine::threads},
    {"hardware_threads", &Machine::hardware_threads},
    {"simd_bits", &Machine::simd_bits},
    {"fma_pipes", &Machine::fma_pipes},
    {"add_pipes", &Machine::add_pipes},
    {"load_ports", &Machine::load_ports},
    {"store_bytes_per_cycle", &Machine::store_bytes_per_cycle},
    {"hardware_model", &Machine::hardware_model},
    {"clock_ghz", &Machine::clock_ghz},
    {"clock_method", &Machine::clock_method},
    {"compiler", &Machine::compiler},
    {"compile_flags", &Machine::compile_flags},
    {"kokkos_version", &Machine::kokkos_version},
    {"device_arch", &Machine::device_arch},
    {"cuda_version", &Machine::cuda_version},
    {"driver_version", &Machine::driver_version},
    {"memory_bytes", &Machine::memory_bytes},
    {"memory_clock_ghz", &Machine::memory_clock_ghz},
    {"memory_bus_bits", &Machine::memory_bus_bits},
    {"nominal_clock_ghz", &Machine::nominal_clock_ghz},
    {"launch_geometry", &Machine::launch_geometry},
};

// The samples of one point, one entry per sample in each vector: what every point of a
// file keeps, whatever it measured. Built from a core::SampleSet by core::series
// (sampling.hpp), the one way from samples to values.
struct SampleSeries {
  std::vector<double> seconds;  // the sample's time
  // The sample's value in the point's units: GFLOP/s (compute), GB/s of 10^9 bytes
  // (bandwidth), or the units core::kSweeps gives a sweep.
  std::vector<double> values;
  std::vector<double> clock_ghz;  // device: SM clock during each sample (empty on a host)
  // Share of each sample's time lost to other tasks or the hypervisor (core::SampleSet::
  // disturbance); empty where not measured (a GPU, an older file).
  std::vector<double> disturbance;

  // The series part of a point, to assign a built one: `p.series() = core::series(...)`.
  SampleSeries& series() { return *this; }
};

// Samples of one compute point: a precision, FMA mode and FLOPs per element.
struct ComputePoint : SampleSeries {
  std::string precision;  // "fp64", "fp32"
  std::string mode;       // "fma", "nofma"
  int flops_per_element = 0;
  double mul_add_ratio = 0.0;  // multiplies per add issued (FMA counts as one of each)
  int ilp = 0;  // independent chains per SIMD lane or GPU thread (0: not recorded)
  std::uint64_t working_set_bytes = 0;
};

// Samples of one bandwidth point: an access pattern at one working-set size.
// Device points name their level before the pattern ("l2:read", "dram:triad"): a GPU's
// levels are set by the kernel (L1-bypassing loads, team scratch), not the working set.
struct BandwidthPoint : SampleSeries {
  std::string pattern;  // "read", "write", "copy", "triad", "rmw"; device: "level:pattern"
  std::uint64_t working_set_bytes = 0;
};

struct Sweeps {
  std::vector<ComputePoint> compute;
  std::vector<BandwidthPoint> bandwidth;
};

// Samples of one point of a sweep of one parameter (schema 1.7): a cost a GPU
// course teaches (bytes copied, stride, resident warps, active lanes, kernel size) or a
// matrix unit's rate against its independent accumulators. `sweep` names a row of
// core::kSweeps, which gives the parameter's and the values' units.
struct SweepPoint : SampleSeries {
  std::string sweep;  // "h2d:pinned", "stride:dram", "tc_bf16", ...
  double x = 0.0;     // the swept parameter
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
  // The share of its time the point's median sample lost to other tasks or the
  // hypervisor (core::median_disturbance); empty where not measured. Above
  // kDisturbedShare (sampling.hpp) the ceiling is disturbed: it may be below what the
  // machine sustains.
  std::optional<double> disturbance;

  bool measured() const { return samples > 0; }
  bool disturbed() const;

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

// Bytes a kernel moved at one level of the memory hierarchy.
struct LevelBytes {
  // A constructor, so that {level, bytes} stays the whole count without naming `counted`.
  LevelBytes(std::string level_name = {}, double count = 0.0, std::string part = {})
      : level(std::move(level_name)), bytes(count), counted(std::move(part)) {}
  std::string level;  // "l1", "l2", "l3", "dram", "shared": the names of the bandwidth ceilings
  double bytes = 0.0;
  // What the count covers where it is only part of the level's traffic (schema 1.8):
  // "read" where only reads were counted, so that the intensity it gives is an upper
  // bound. Empty: all of it.
  std::string counted;
};
// LevelBytes::counted of an operator's compulsory traffic (its inputs and its output, each
// moved once: the least it can move; a CPU PyTorch trace's operators), laid at "dram"
// until core::settle_compulsory_bytes moves it to the level its working set fits. The
// file keeps 8 characters of `counted`.
inline constexpr const char* kCompulsory = "minimum";

// Operations a kernel ran on one matrix unit (schema 1.7): `figure` names the /matrix
// figure they are placed against ("tc_fp16", a row of core::kTensorPaths); `ops` as the
// hardware counts them, a multiply-add two (FLOPs, or integer operations for tc_int8).
struct TensorOps {
  std::string figure;
  double ops = 0.0;
};

// One kernel placed on the roofline: its counts and time as measured (or declared, or
// imported), and what the analyzer derived from them against a file's ceilings.
// How a record says in its note what one run launched: this, then "LABEL xN" per Kokkos
// kernel label, comma-separated (the CUPTI backend's counts and a multi-launch kernel's
// declared ones; analyze's count comparison reads it back).
inline constexpr const char* kKernelsPerRunNote = "Kokkos kernels per run: ";

// FLOPs and bytes are totals over the `invocations` that `time_s` covers.
struct KernelRecord {
  std::string name;         // full label, e.g. "gpp::v3_team_size" or a Kokkos kernel label
  std::string id;           // short id for charts ("v3", "k12")
  std::string group;        // versions of one group ("gpp") are joined in `order` on charts
  int order = 0;            // position within the group
  std::string description;  // what this version changes, and why
  std::string source;       // where the counts come from: "declared", "cupti", "ncu-import", "nvprof-import"
  std::string precision;    // precision of most FLOPs: a row of core::kPrecisions (empty: none)
  double flops_fp64 = 0.0, flops_fp32 = 0.0, flops_fp16 = 0.0;
  double flops_bf16 = 0.0, flops_fp8 = 0.0;  // schema 1.8
  // The CUDA-core FLOPs of every precision (core::kPrecisions).
  double precision_flops() const;
  // Precisions whose FLOPs the source could not count (a report without their metrics):
  // their flops_* are unknown, not zero. Kept in memory for the report; a kernels file
  // stores the zeros.
  std::vector<std::string> flops_unknown;
  bool flops_unknown_in(std::string_view precision) const;
  // Whether flops() holds a count: false where nothing was counted and every precision
  // counted by instruction (kPrecisions' sass) is unknown. Such a kernel has no intensity.
  bool flops_known() const;
  double fma_fraction = -1.0;       // share of the FLOPs issued as FMAs (< 0: unknown)
  double tensor_instructions = 0.0;  // counted, not converted to FLOPs
  std::vector<TensorOps> tensor_ops;  // per matrix unit, only the units with counts
  std::vector<LevelBytes> bytes;     // only the levels with counts
  double time_s = 0.0;               // the time the counts cover (median of the samples)
  double time_min = 0.0, time_max = 0.0;
  int samples = 0;
  int invocations = 1;
  std::string time_source;  // how the time was obtained
  std::string check;        // "passed", "failed", or empty where there is no answer to check
  std::string note;
  // Derived against the ceilings (rooftop_analyze's roofline math).
  std::string limiter;              // the binding ceiling's name
  double attainable_gflop_per_s = 0.0;
  double fraction_of_roof = 0.0;    // achieved / attainable
  std::string above;                // ceilings the point lies above (comma-separated)

  // Every operation counted: the CUDA-core FLOPs of each precision and the matrix units'.
  double flops() const { return precision_flops() + tensor_flops(); }
  double tensor_flops() const;
  // The matrix unit with the most operations, where they are more than half of flops();
  // such a kernel is placed against that unit's figure. Empty otherwise.
  const TensorOps* tensor_unit() const;
  double gflop_per_s() const { return time_s > 0.0 ? flops() / time_s * 1e-9 : 0.0; }
  const LevelBytes* find_bytes(const std::string& level) const;
};

// One call of a framework's operator (a PyTorch operator), as a model's prediction is
// joined to a real run call by call: its name, its inputs' shapes, its time and the model
// layer it ran in. Read from a profiler trace or a kernels file's records (counters'
// import); joined by rooftop_llm.
struct OperatorCall {
  std::string name;                            // "aten::mm"
  std::vector<std::vector<long long>> shapes;  // its tensor inputs' (a scalar: {})
  // On a GPU the summed durations of the kernels launched under it; on a CPU its self time
  // and that of the operators nested in it.
  double seconds = 0.0;
  double flops = 0.0;  // as counted for it (0: none)
  int layer = -1;      // the model's layer it ran in (-1: not known)
  int scope = -1;      // which call of that layer (one a step), as the trace numbers them
};

struct Provenance {
  std::string schema_version;  // "1.0" when written by this version
  std::string tool_version;
  std::string git_revision;
  std::string created_utc;     // ISO 8601
  std::string command_line;
};

// Figures beyond the roofline's ceilings, with the sweeps they were drawn from (schema
// 1.7). A figure is a row laid out as a ceiling, named by a row of core::kFigures; its
// kind and units are that row's (a bandwidth with no roofline slope, a latency, a ratio).
struct Figures {
  std::vector<Ceiling> figures;
  std::vector<SweepPoint> sweeps;

  bool empty() const { return figures.empty() && sweeps.empty(); }
  const Ceiling* find(const std::string& name) const;
};

struct CeilingsFile {
  Provenance provenance;
  Machine machine;
  std::vector<Ceiling> ceilings;
  Sweeps sweeps;
  std::vector<KernelRecord> kernels;  // written by the analyzer; empty for a plain characterization
  // Schema 1.7, each its own group that older readers do not open: what the costs a GPU
  // course teaches amount to here (transfers, coalescing, occupancy, launches,
  // divergence), and the matrix units (tensor cores, a CPU's dot-product instructions).
  Figures costs;
  Figures matrix;

  const Ceiling* find(const std::string& name) const;
  // The ceilings, then each group's figures (the rows tables, exports and comparisons
  // list alike), and one of them by name.
  std::vector<const Ceiling*> rows() const;
  const Ceiling* find_row(const std::string& name) const;
};

}  // namespace rooftop::core
