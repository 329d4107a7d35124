#include "rooftop/core/roofline.hpp"

#include <algorithm>

#include "rooftop/core/format.hpp"

namespace rooftop::core {

std::optional<double> arithmetic_intensity(const KernelRecord& kernel, const std::string& level) {
  const LevelBytes* b = kernel.find_bytes(level);
  if (!b || b->bytes <= 0.0) return std::nullopt;
  return kernel.flops() / b->bytes;
}

std::optional<ComputeRoof> compute_roof(const CeilingsFile& file, const std::string& precision,
                                        double fma_fraction) {
  const Ceiling* fma = file.find(precision + "_fma");
  const Ceiling* nofma = file.find(precision + "_nofma");
  if (fma_fraction >= 0.0 && fma && nofma) {
    // Each FMA does the work of a multiply and an add in one issue slot: a kernel whose
    // FLOPs are a share f FMAs reaches the unfused rate scaled by (1 + f), never more
    // than the FMA ceiling itself.
    const double f = std::min(fma_fraction, 1.0);
    const double mixed = nofma->value * (1.0 + f);
    if (mixed >= fma->value) return ComputeRoof{fma->value, fma->name};
    if (f == 0.0) return ComputeRoof{nofma->value, nofma->name};
    return ComputeRoof{mixed, precision + "_fma_mix"};
  }
  if (fma) return ComputeRoof{fma->value, fma->name};
  if (nofma) return ComputeRoof{nofma->value, nofma->name};
  return std::nullopt;
}

Placement place(const KernelRecord& kernel, const CeilingsFile& file, double tolerance) {
  Placement p;
  p.gflop_per_s = kernel.gflop_per_s();
  const TensorOps* unit = kernel.tensor_unit();
  const Ceiling* figure = unit ? file.matrix.find(unit->figure) : nullptr;
  if (figure && figure->value > 0.0) {
    p.compute = ComputeRoof{figure->value, figure->name};
    p.tensor = true;
    // One counter for both FP8 formats (kTensorPaths), and one dense rate for both.
    if (unit->figure == "tc_fp8_e4m3")
      p.note = "FP8 operations, E4M3 and E5M2 alike (the tensor-path counters do not tell them "
               "apart): placed against tc_fp8_e4m3";
  } else {
    if (unit)
      p.note = format_number("%.0f%% of its operations are ",
                             100.0 * unit->ops / kernel.flops()) +
               unit->figure + " ops, and the file has no " + unit->figure +
               " figure (/matrix): placed against the CUDA cores' roofs";
    if (!kernel.precision.empty())
      p.compute = compute_roof(file, kernel.precision, kernel.fma_fraction);
  }
  if (p.compute) {
    p.limiter = p.compute->ceiling;
    p.attainable_gflop_per_s = p.compute->gflop_per_s;
  }
  for (const LevelBytes& b : kernel.bytes) {
    const Ceiling* bw = file.find(b.level);
    const std::optional<double> ai = arithmetic_intensity(kernel, b.level);
    if (!bw || bw->kind != "bandwidth" || !ai) continue;
    const double roof = *ai * bw->value;
    p.levels.push_back({b.level, *ai, bw->value, roof});
    if (p.attainable_gflop_per_s == 0.0 || roof < p.attainable_gflop_per_s) {
      p.attainable_gflop_per_s = roof;
      p.limiter = b.level;
    }
  }
  if (p.attainable_gflop_per_s > 0.0 && p.gflop_per_s > 0.0)
    p.fraction_of_roof = p.gflop_per_s / p.attainable_gflop_per_s;
  // A point above a measured ceiling means the counts or the ceiling are wrong.
  const double limit = 1.0 + tolerance;
  if (p.compute && p.gflop_per_s > p.compute->gflop_per_s * limit)
    p.above.push_back(p.compute->ceiling);
  for (const Placement::Level& l : p.levels)
    if (p.gflop_per_s > l.roof_gflop_per_s * limit) p.above.push_back(l.level);
  return p;
}

void apply(const Placement& placement, KernelRecord& kernel) {
  kernel.limiter = placement.limiter;
  kernel.attainable_gflop_per_s = placement.attainable_gflop_per_s;
  kernel.fraction_of_roof = placement.fraction_of_roof;
  kernel.above.clear();
  for (const std::string& a : placement.above)
    kernel.above += (kernel.above.empty() ? "" : ",") + a;
  if (!placement.note.empty() && kernel.note.find(placement.note) == std::string::npos)
    kernel.note += (kernel.note.empty() ? "" : "; ") + placement.note;
}

}  // namespace rooftop::core
