#include "rooftop/core/roofline.hpp"

#include <algorithm>
#include <cctype>

#include "rooftop/core/format.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::core {

std::optional<double> arithmetic_intensity(const KernelRecord& kernel, const std::string& level) {
  const LevelBytes* b = kernel.find_bytes(level);
  if (!b || b->bytes <= 0.0 || !kernel.flops_known()) return std::nullopt;
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

namespace {

bool names_tag(const KernelRecord& kernel, std::string_view tag) {
  const auto holds = [&](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text.find(tag) != std::string::npos;
  };
  return holds(kernel.name) || holds(kernel.description);
}

// The roof of the kernel's precision (kPrecisions: the one table of precision -> roof),
// with the note that says which rule chose it where it is not the CUDA cores' ceilings.
void precision_roof(const KernelRecord& kernel, const CeilingsFile& file, double achieved,
                    double tolerance, Placement& p) {
  const Precision* precision = find_precision(kernel.precision);
  if (!precision) return;
  const std::string name(precision->name), label(precision->label);
  const Ceiling* figure =
      precision->matrix.empty() ? nullptr : file.matrix.find(std::string(precision->matrix));
  if (figure && figure->value <= 0.0) figure = nullptr;
  bool cpu = false;  // a CPU's matrix figure (kCpuMatrix)
  if (!figure)
    for (const CpuMatrix& m : kCpuMatrix) {
      const Ceiling* c =
          m.precision == precision->name ? file.matrix.find(std::string(m.figure)) : nullptr;
      if (c && c->value > 0.0 && (!figure || c->value > figure->value)) {
        figure = c;
        cpu = true;
      }
    }
  if (!precision->ceilings) {
    if (figure) {
      p.compute = ComputeRoof{figure->value, figure->name};
      p.tensor = true;
      p.note = label + " FLOPs: placed against " + figure->name +
               (cpu ? ", the highest of the CPU's " + label +
                          " matrix figures (work run on its vector units reaches less)"
                    : ", the precision's tensor-core figure (no CUDA-core " + label +
                          " ceiling is measured)");
    } else if (!precision->matrix.empty()) {
      p.note = label + " FLOPs and the file has no " + std::string(precision->matrix) +
               " figure (/matrix): no compute roof";
    }
    return;
  }
  p.compute = compute_roof(file, name, kernel.fma_fraction);
  if (!figure) return;
  const std::string unit = figure->name;
  if (!precision->matrix_tag.empty() && names_tag(kernel, precision->matrix_tag)) {
    p.note = "its kernel's name says " + std::string(precision->matrix_tag) +
             " (a tensor-core kernel of cuBLAS or cuDNN): placed against " + unit;
  } else if (p.compute && achieved > p.compute->gflop_per_s * (1.0 + tolerance) &&
             achieved <= figure->value * (1.0 + tolerance)) {
    p.note = format_number("its %.0f GFLOP/s lies above ", achieved) + p.compute->ceiling +
             " and within " + unit + ": placed against " + unit + " (" + label +
             " work run on the tensor cores, as cuDNN and cuBLAS may do)";
  } else {
    return;
  }
  p.compute = ComputeRoof{figure->value, unit};
  p.tensor = true;
}

}  // namespace

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
    precision_roof(kernel, file, p.gflop_per_s, tolerance, p);
    if (unit)
      p.note = format_number("%.0f%% of its operations are ",
                             100.0 * unit->ops / kernel.flops()) +
               unit->figure + " ops, and the file has no " + unit->figure +
               " figure (/matrix): placed against " +
               (p.tensor ? p.compute->ceiling : std::string("the CUDA cores' roofs")) +
               (p.note.empty() ? "" : "; " + p.note);
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

std::string level_holding(const CeilingsFile& file, double bytes, const std::string& first) {
  bool reached = first.empty();
  for (const CacheLevel& c : file.machine.caches) {
    reached = reached || c.name == first;
    const Ceiling* bw = file.find(c.name);
    if (!reached || !bw || bw->kind != "bandwidth" || c.bytes == 0) continue;
    const int threads = std::max(1, file.machine.threads);
    const double capacity =
        static_cast<double>(c.bytes) * std::max(1, threads / std::max(1, c.shared_by));
    if (bytes <= capacity) return c.name;
  }
  return "dram";
}

void settle_compulsory_bytes(KernelRecord& kernel, const CeilingsFile& file) {
  for (LevelBytes& b : kernel.bytes) {
    if (b.counted != kCompulsory) continue;
    const double per_call = b.bytes / std::max(1, kernel.invocations);
    const std::string level = level_holding(file, per_call);
    if (level == b.level) return;
    const std::string why = "its compulsory bytes (" +
                            significant(per_call / 1048576.0, kFigureDigits) +
                            " MiB a call) fit " + level + ": placed against it";
    b.level = level;
    kernel.note += (kernel.note.empty() ? "" : "; ") + why;
    return;
  }
}

std::string below_roof_line(const KernelRecord& kernel, const CeilingsFile& file,
                            double threshold) {
  const LevelBytes* compulsory = nullptr;
  for (const LevelBytes& b : kernel.bytes)
    if (b.counted == kCompulsory) compulsory = &b;
  if (!compulsory || kernel.time_s <= 0.0 || kernel.fraction_of_roof <= 0.0 ||
      kernel.fraction_of_roof >= threshold)
    return {};
  const Ceiling* roof = file.find(kernel.limiter);
  if (!roof) roof = file.matrix.find(kernel.limiter);
  const std::string what = roof ? significant(roof->value, kFigureDigits) + " " + roof->units
                                : significant(kernel.attainable_gflop_per_s, kFigureDigits) +
                                      " GFLOP/s";
  const std::string fraction = significant(kernel.fraction_of_roof, kRatioDigits) +
                               " of this machine's " + kernel.limiter + " (" + what + ")";
  if (kernel.limiter == compulsory->level)
    return kernel.name + ": " +
           significant(compulsory->bytes / kernel.time_s * 1e-9, kFigureDigits) +
           " GB/s of compulsory traffic, " + fraction;
  return kernel.name + ": " + significant(kernel.gflop_per_s(), kFigureDigits) + " GFLOP/s " +
         kernel.precision + ", " + fraction;
}

}  // namespace rooftop::core
