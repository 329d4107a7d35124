#include "rooftop/report/kernel_table.hpp"

#include <cstdio>
#include <sstream>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::report {
namespace {

using core::KernelRecord;

// Levels with counts in any kernel, innermost first.
std::vector<std::string> levels_of(const std::vector<KernelRecord>& kernels) {
  std::vector<std::string> out;
  for (const core::Level& level : core::kLevels)
    for (const KernelRecord& k : kernels)
      if (k.find_bytes(std::string(level.name))) {
        out.push_back(std::string(level.name));
        break;
      }
  return out;
}

nlohmann::json flops_by_precision(const KernelRecord& k) {
  nlohmann::json j = nlohmann::json::object();
  for (const core::Precision& p : core::kPrecisions)
    j[std::string(p.name)] =
        k.flops_unknown_in(p.name) ? nlohmann::json(nullptr) : nlohmann::json(k.*p.flops);
  return j;
}

// A kernel's operations per matrix unit, by its /matrix figure's name ({} where none).
nlohmann::json tensor_ops_json(const KernelRecord& k) {
  nlohmann::json j = nlohmann::json::object();
  for (const core::TensorOps& t : k.tensor_ops) j[t.figure] = t.ops;
  return j;
}

// "tc_fp16 137,438,953,472 (99.8% of operations)", one unit after another.
std::string tensor_ops_text(const KernelRecord& k) {
  std::string s;
  for (const core::TensorOps& t : k.tensor_ops)
    s +=
        (s.empty() ? "" : ", ") + t.figure + " " + core::significant(t.ops, core::kFigureDigits) +
        (k.flops() > 0.0 ? " (" + core::significant(100.0 * t.ops / k.flops(), core::kRatioDigits) +
                               "% of operations)"
                         : "");
  return s;
}

using core::significant;

std::string figure(double v) { return significant(v, core::kFigureDigits); }

std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

nlohmann::json kernels_json(const core::CeilingsFile& file, const std::string& ceilings_path,
                            const std::vector<std::string>& notes) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelRecord& k : file.kernels) {
    nlohmann::json bytes = nlohmann::json::object(), ai = nlohmann::json::object();
    nlohmann::json counted = nlohmann::json::object();  // levels counted in part: an AI bound
    for (const core::LevelBytes& b : k.bytes) {
      bytes[b.level] = b.bytes;
      ai[b.level] = ceilings::number_or_null(core::arithmetic_intensity(k, b.level));
      if (!b.counted.empty()) counted[b.level] = b.counted;
    }
    const bool timed = k.time_s > 0.0;
    kernels.push_back(
        {{"name", k.name},
         {"id", k.id},
         {"group", k.group},
         {"order", k.order},
         {"description", k.description},
         {"source", k.source},
         {"precision", k.precision},
         {"time_s", timed ? nlohmann::json(k.time_s) : nlohmann::json(nullptr)},
         {"time_min_s", timed ? nlohmann::json(k.time_min) : nlohmann::json(nullptr)},
         {"time_max_s", timed ? nlohmann::json(k.time_max) : nlohmann::json(nullptr)},
         {"samples", k.samples},
         {"invocations", k.invocations},
         {"time_source", k.time_source},
         {"flops", k.flops_known() ? nlohmann::json(k.flops()) : nlohmann::json(nullptr)},
         {"flops_by_precision", flops_by_precision(k)},
         {"fma_fraction",
          k.fma_fraction >= 0.0 ? nlohmann::json(k.fma_fraction) : nlohmann::json(nullptr)},
         {"tensor_instructions", k.tensor_instructions},
         {"tensor_ops", tensor_ops_json(k)},
         {"gflop_per_s",
          timed && k.flops_known() ? nlohmann::json(k.gflop_per_s()) : nlohmann::json(nullptr)},
         {"bytes", bytes},
         {"bytes_counted", counted},
         {"ai", ai},
         {"limiter", k.limiter.empty() ? nlohmann::json(nullptr) : nlohmann::json(k.limiter)},
         {"attainable_gflop_per_s", k.attainable_gflop_per_s > 0.0
                                        ? nlohmann::json(k.attainable_gflop_per_s)
                                        : nlohmann::json(nullptr)},
         {"fraction_of_roof", timed && k.attainable_gflop_per_s > 0.0
                                  ? nlohmann::json(k.fraction_of_roof)
                                  : nlohmann::json(nullptr)},
         {"above", k.above},
         // How the point is placed: by intensity on the roofline, or (FLOPs and a time,
         // no bytes) by its achieved rate against the compute roofs only.
         {"placement", !timed || k.flops() <= 0.0 ? nlohmann::json(nullptr)
                       : k.bytes.empty()          ? nlohmann::json("compute roofs only (no bytes)")
                                                  : nlohmann::json("roofline")},
         {"check", k.check.empty() ? nlohmann::json(nullptr) : nlohmann::json(k.check)},
         {"note", k.note}});
  }
  return {{"ceilings", ceilings_path},
          {"machine", ceilings::machine_name(file.machine)},
          {"kernels", kernels},
          {"notes", notes}};
}

std::string kernels_table(const core::CeilingsFile& file, const std::vector<std::string>& notes) {
  const std::vector<std::string> levels = levels_of(file.kernels);
  std::ostringstream out;
  out << "kernels on the ceilings of " << ceilings::machine_name(file.machine) << "\n\n";
  out << pad("id", 8) << pad("time s", 11, true) << pad("GFLOP/s", 10, true);
  for (const std::string& l : levels) out << pad("AI " + l, 10, true);
  out << "  " << pad("limiter", 14) << pad("of roof", 8, true) << "  check\n";
  for (const KernelRecord& k : file.kernels) {
    const bool timed = k.time_s > 0.0;
    out << pad(k.id, 8) << pad(timed ? figure(k.time_s) : "-", 11, true)
        << pad(timed && k.flops() > 0.0 ? figure(k.gflop_per_s()) : "-", 10, true);
    for (const std::string& l : levels) {
      const auto ai = core::arithmetic_intensity(k, l);
      out << pad(ai ? figure(*ai) : "-", 10, true);
    }
    out << "  " << pad(k.limiter.empty() ? "-" : k.limiter, 14)
        << pad(timed && k.attainable_gflop_per_s > 0.0
                   ? significant(k.fraction_of_roof, core::kRatioDigits)
                   : "-",
               8, true)
        << "  " << (k.check.empty() ? "-" : k.check)
        << (k.above.empty() ? "" : "  ABOVE " + k.above)
        << (timed && k.flops() > 0.0 && k.bytes.empty() ? "  NO BYTES: vs compute roofs only" : "")
        << "\n";
  }
  out << "\n";
  for (const KernelRecord& k : file.kernels) {
    out << pad(k.id, 8) << k.name << (k.description.empty() ? "" : ": " + k.description) << "\n";
    if (!k.tensor_ops.empty()) out << pad("", 8) << "tensor ops: " << tensor_ops_text(k) << "\n";
  }
  if (!notes.empty()) {
    out << "\nnotes:\n";
    for (const std::string& n : notes) out << "  " << n << "\n";
  }
  return out.str();
}

}  // namespace rooftop::report
