#pragma once
// Roofline math, in one place: arithmetic intensity per level, the compute ceiling a
// kernel can reach (its precision and FMA mix), attainable performance, the limiter,
// efficiency, and which ceilings a point lies above.

#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::core {

// FLOPs per byte at `level`; empty where the kernel has no byte count there.
std::optional<double> arithmetic_intensity(const KernelRecord& kernel, const std::string& level);

// The compute roof for a precision and FMA mix. With `fma_fraction` f (share of the FLOPs
// issued as FMAs) known and both ceilings measured: nofma x (1 + f), capped by the FMA
// ceiling; f unknown: the FMA ceiling (the optimistic bound). Empty when the file has
// no compute ceiling for the precision.
struct ComputeRoof {
  double gflop_per_s = 0.0;
  std::string ceiling;  // "fp64_fma", "fp64_nofma", or "fp64_fma_mix" when adjusted
};
std::optional<ComputeRoof> compute_roof(const CeilingsFile& file, const std::string& precision,
                                        double fma_fraction);

// One kernel on one machine's roofline.
struct Placement {
  struct Level {
    std::string level;
    double arithmetic_intensity = 0.0;
    double bandwidth_gb_per_s = 0.0;  // the level's ceiling
    double roof_gflop_per_s = 0.0;    // AI x bandwidth
  };
  double gflop_per_s = 0.0;  // achieved
  std::optional<ComputeRoof> compute;
  std::vector<Level> levels;  // levels with both a byte count and a bandwidth ceiling
  std::string limiter;        // binding ceiling: a level name or the compute roof's name
  double attainable_gflop_per_s = 0.0;  // 0 where no roof applies
  double fraction_of_roof = 0.0;
  std::vector<std::string> above;  // roofs the achieved rate exceeds by more than `tolerance`
  bool tensor = false;  // the compute roof is a matrix unit's figure (compute->ceiling names it)
  std::string note;     // why a kernel of a matrix unit is not placed against its figure
};
// A kernel whose operations are mostly one matrix unit's (KernelRecord::tensor_unit) has
// that unit's /matrix figure as its compute roof, where the file has it; without it the
// kernel is placed as any other (its precision's roofs), and `note` says so.
Placement place(const KernelRecord& kernel, const CeilingsFile& file, double tolerance = 0.02);

// Fills the derived fields of `kernel` (limiter, attainable, fraction, above), and adds
// the placement's note to the kernel's.
void apply(const Placement& placement, KernelRecord& kernel);

// The innermost cache level from `first` on (by name; empty: from the innermost) whose
// capacity for the file's threads (one instance per `shared_by` threads) holds `bytes` and
// that has a bandwidth ceiling in the file; "dram" where none does.
std::string level_holding(const CeilingsFile& file, double bytes, const std::string& first = "");

// Moves a kernel's compulsory bytes (kCompulsory) to the level its working set fits: the
// innermost cache whose capacity for the file's threads (one instance per `shared_by`
// threads) holds one call's bytes, else dram; only levels with a bandwidth ceiling in the
// file. The note says which.
void settle_compulsory_bytes(KernelRecord& kernel, const CeilingsFile& file);

// For a placed kernel with compulsory bytes below `threshold` of its roof, one line with
// the roof and the rate ("aten::mm (1x2048, 2048x8192): 7.1 GB/s of compulsory traffic,
// 0.24 of this machine's dram (29.1 GB/s)"); empty otherwise. What was measured, no cause.
std::string below_roof_line(const KernelRecord& kernel, const CeilingsFile& file,
                            double threshold = 0.3);

}  // namespace rooftop::core
