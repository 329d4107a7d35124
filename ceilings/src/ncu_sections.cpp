#include "rooftop/ceilings/ncu_sections.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

// The levels a chart draws, innermost first, each with Nsight Compute's metric of the
// traffic a kernel moved there (the stock hierarchical rooflines' own). Shared memory
// and an L3 have no place in those charts.
struct TrafficLevel {
  std::string_view level;     // a row of core::kLevels
  std::string_view achieved;  // bytes per second
};
constexpr TrafficLevel kTrafficLevels[] = {
    {"l1", "l1tex__t_bytes.sum.per_second"},
    {"l2", "lts__t_bytes.sum.per_second"},
    {"dram", "dram__bytes.sum.per_second"},
};

// CUDA-core instructions are counted per SM sub-partition, tensor ops per SM: each rate
// is taken with the clock of the unit that counted it.
constexpr std::string_view kSubPartitionCyclesPerSecond = "smsp__cycles_elapsed.avg.per_second";
constexpr std::string_view kSmCyclesPerSecond = "sm__cycles_elapsed.avg.per_second";

// From compute capability 8.9 on, chips count a tensor path's source in one metric
// whatever the destination (kTensorPaths' rows without "_dst_"); before, per destination.
constexpr int kOneMetricPerSource = 89;

// Our derived metrics' prefix: never one of Nsight Compute's own (derived__...).
constexpr std::string_view kMetricPrefix = "rooftop__";

// Sections come after the stock roofline charts in Nsight Compute's list.
constexpr int kOrder = 13;

struct Definition {
  std::string name, expression;
};

// A rate a roof stands at, held by a derived metric that is a constant in base units.
struct Peak {
  std::string metric;  // "rooftop__dram_byte_per_second"
  double per_second = 0.0;
  std::string label;  // "DRAM 4,381 GB/s measured"
};

// One section's chart: the roofs of work, and how the kernel's own work is counted.
struct Chart {
  std::string suffix;  // of the identifier: "FP64", "TC_BF16"
  std::string title;   // "FP64"
  std::string unit;    // of work: "FLOP" or "OP"
  std::vector<Peak> work;
  std::vector<std::string> achieved;  // per-cycle metrics, summed
  std::string_view cycles_per_second;
  std::vector<Definition> helpers;  // derived metrics the achieved work needs
};

// A level's roof and where a kernel's traffic there is counted.
struct LevelRoof {
  std::string label;  // "DRAM"
  Peak peak;
  std::string_view achieved;
};

// What every section of one file shares.
struct Shared {
  std::vector<LevelRoof> levels;
  std::string provenance;  // the description's sentence on where the roofs come from
};

// Protobuf text, one field a line, each message's fields indented two spaces.
class Text {
 public:
  Text& open(std::string_view message) {
    line(std::string(message) + " {");
    ++depth_;
    return *this;
  }
  Text& close() {
    --depth_;
    line("}");
    return *this;
  }
  Text& text(std::string_view field, std::string_view value) {
    return raw(field, text_format_string(value));
  }
  Text& raw(std::string_view field, std::string_view value) {  // numbers and enum names
    line(std::string(field) + ": " + std::string(value));
    return *this;
  }
  Text& metric(std::string_view message, std::string_view name) {
    return open(message).text("Name", name).close();
  }
  Text& comment(std::string_view words) {
    line("# " + std::string(words));
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  void line(const std::string& s) { out_ += std::string(2 * depth_, ' ') + s + "\n"; }
  std::string out_;
  int depth_ = 0;
};

// A ceiling fit to be a roof: measured, finite and above zero, in `units`. Anything
// else is noted in `skipped` and gets no roof.
bool usable(const core::Ceiling& c, std::string_view units, std::vector<std::string>* skipped) {
  std::string why;
  if (!c.measured())
    why = "theoretical, not measured";
  else if (!std::isfinite(c.value) || c.value <= 0)
    why = "no rate above zero";
  else if (c.units != units)
    why = "in " + c.units + ", not " + std::string(units);
  if (why.empty()) return true;
  if (skipped) skipped->push_back(c.name + ": no roof drawn: " + why);
  return false;
}

std::string rate_label(const core::Ceiling& c) {
  return core::significant(c.value, core::kFigureDigits) + " " + c.units;
}

// "9.0" as 90; nothing where the text is not "<major>.<minor>".
std::optional<int> compute_capability(const std::string& text) {
  int major = 0, minor = 0;
  const char* end = text.data() + text.size();
  auto [dot, ok] = std::from_chars(text.data(), end, major);
  if (ok != std::errc() || dot == end || *dot != '.') return std::nullopt;
  auto [last, ok2] = std::from_chars(dot + 1, end, minor);
  if (ok2 != std::errc() || last != end || minor > 9) return std::nullopt;
  return major * 10 + minor;
}

bool per_destination(std::string_view metric) {
  return metric.find("_dst_") != std::string_view::npos;
}

// The figure whose row of kTensorPaths is `metric`, or nothing.
const core::TensorPath* tensor_path(std::string_view metric) {
  for (const core::TensorPath& t : core::kTensorPaths)
    if (t.metric == metric) return &t;
  return nullptr;
}

// The precision a tensor-core figure is of: "tc_fp8_e5m2" -> fp8; else nothing.
const core::Precision* figure_precision(std::string_view figure) {
  if (figure.substr(0, 3) != "tc_") return nullptr;
  figure.remove_prefix(3);
  return core::find_precision(figure.substr(0, figure.find('_')));
}

// `text` in upper or lower case.
std::string cased(std::string_view text, bool upper) {
  std::string out(text);
  for (char& ch : out) {
    const auto c = static_cast<unsigned char>(ch);
    ch = static_cast<char>(upper ? std::toupper(c) : std::tolower(c));
  }
  return out;
}

std::string section_suffix(std::string_view figure) { return cased(figure, true); }

// The metric counting `figure`'s operations on a chip of compute capability `cc`, or
// nothing with the reason in `why`.
std::optional<std::string_view> tensor_metric(std::string_view figure, int cc, std::string& why) {
  // Its first row, or the one of the chip's kind (per destination or not) where it has two.
  std::optional<std::string_view> chosen;
  for (const core::TensorPath& t : core::kTensorPaths)
    if (t.figure == figure && (!chosen || per_destination(t.metric) == (cc < kOneMetricPerSource)))
      chosen = t.metric;
  if (!chosen) {
    const core::Precision* p = figure_precision(figure);
    why = "no Nsight Compute metric counts its operations alone";
    if (p && !p->matrix.empty() && p->matrix != figure)
      why += " (one metric counts every " + std::string(p->label) + " format's; section " +
             std::string(kSectionPrefix) + section_suffix(p->matrix) + " carries them)";
    return std::nullopt;
  }
  if (cc >= kOneMetricPerSource && per_destination(*chosen)) {
    const std::string source = std::string(chosen->substr(0, chosen->find("_dst_"))) + ".sum";
    if (const core::TensorPath* shared = tensor_path(source)) {
      why = "from compute capability 8.9 on its operations are counted with " +
            std::string(shared->figure) + "'s in " + source + " (section " +
            std::string(kSectionPrefix) + section_suffix(shared->figure) + ")";
      return std::nullopt;
    }
  }
  return chosen;
}

// The unit of work of a rate's units: "GFLOP/s" -> "FLOP", "GOP/s" -> "OP".
std::string work_unit(const std::string& units) {
  if (units == "GFLOP/s") return "FLOP";
  if (units == "GOP/s") return "OP";
  return "";
}

Peak work_peak(const core::Ceiling& c, const std::string& unit, std::string label) {
  return {std::string(kMetricPrefix) + c.name + "_" + cased(unit, false) + "_per_second",
          c.value * 1e9, std::move(label) + " " + rate_label(c)};
}

// FP64 or FP32 on CUDA cores: the file's compute ceilings of `p`, and the work counted
// from SASS instructions as the stock sections count it (an FMA two operations).
std::optional<Chart> cuda_core_chart(const core::CeilingsFile& file, const core::Precision& p,
                                     std::vector<std::string>* skipped) {
  Chart chart{
      std::string(p.label), std::string(p.label), "FLOP", {}, {}, kSubPartitionCyclesPerSecond, {}};
  for (const core::ComputeMode& mode : core::kComputeModes) {
    const core::Ceiling* c = file.find(core::compute_ceiling_name(p.name, mode.name));
    if (c && usable(*c, "GFLOP/s", skipped))
      chart.work.push_back(
          work_peak(*c, "FLOP", std::string(p.label) + " " + std::string(mode.pattern)));
  }
  if (chart.work.empty()) {
    if (skipped)
      skipped->push_back(std::string(p.name) + ": no section: the file has no measured " +
                         std::string(p.name) + " compute ceiling");
    return std::nullopt;
  }
  for (std::string_view op : core::kFlopOps) {
    const std::string counter = "smsp__sass_thread_inst_executed_op_" + std::string(1, p.sass) +
                                std::string(op) + "_pred_on";
    if (op != "fma") {
      chart.achieved.push_back(counter + ".sum.per_cycle_elapsed");
      continue;
    }
    const std::string twice = std::string(kMetricPrefix) + counter + "_x2";
    chart.helpers.push_back({twice, counter + ".sum.per_cycle_elapsed * 2"});
    chart.achieved.push_back(twice);
  }
  return chart;
}

// One tensor-core figure: its measured rate, and the ops of its tensor path per second.
std::optional<Chart> tensor_chart(const core::Ceiling& figure, int cc,
                                  std::vector<std::string>* skipped) {
  std::string why;
  const std::optional<std::string_view> metric = tensor_metric(figure.name, cc, why);
  const std::string unit = work_unit(figure.units);
  if (why.empty() && unit.empty()) why = "in " + figure.units + ", neither GFLOP/s nor GOP/s";
  if (!why.empty()) {
    if (skipped) skipped->push_back(figure.name + ": no section: " + why);
    return std::nullopt;
  }
  if (!usable(figure, figure.units, skipped)) return std::nullopt;
  const core::Figure* row = core::find_figure(figure.name);
  std::string title = row ? std::string(row->label) : figure.name;
  title = cased(title.substr(0, 1), true) + title.substr(1);
  Chart chart{section_suffix(figure.name), title, unit, {}, {}, kSmCyclesPerSecond, {}};
  chart.work.push_back(work_peak(figure, unit, title));
  chart.achieved.push_back(std::string(*metric) + ".per_cycle_elapsed");
  return chart;
}

std::vector<Chart> tensor_charts(const core::CeilingsFile& file,
                                 std::vector<std::string>* skipped) {
  std::vector<Chart> charts;
  if (file.matrix.figures.empty()) return charts;
  const std::optional<int> cc = compute_capability(file.machine.compute_capability);
  if (!cc) {
    if (skipped)
      skipped->push_back("tensor cores: no section: the file gives no compute capability ('" +
                         file.machine.compute_capability + "'), which chooses the metrics");
    return charts;
  }
  for (const core::Ceiling& figure : file.matrix.figures)
    if (figure.kind == "compute")
      if (std::optional<Chart> chart = tensor_chart(figure, *cc, skipped)) charts.push_back(*chart);
  return charts;
}

bool has_chart(const std::vector<Chart>& charts, std::string_view suffix) {
  for (const Chart& c : charts)
    if (c.suffix == suffix) return true;
  return false;
}

// A precision counted on CUDA cores whose ceilings rooftop does not measure (FP16): its
// roof is its tensor-core figure, in that figure's section where there is one.
std::string no_cuda_core_ceilings(const core::Precision& p, const std::vector<Chart>& charts) {
  std::string note =
      std::string(p.name) + ": no CUDA-core section: rooftop measures no " + std::string(p.label) +
      " ceiling on CUDA cores; its roof is the tensor-core figure " + std::string(p.matrix);
  const std::string suffix = section_suffix(p.matrix);
  return note + (has_chart(charts, suffix) ? ", in section " + std::string(kSectionPrefix) + suffix
                                           : ", which this file has no section for");
}

std::vector<Chart> charts_of(const core::CeilingsFile& file, std::vector<std::string>* skipped) {
  std::vector<Chart> charts;
  for (const core::Precision& p : core::kPrecisions)
    if (p.counted_by_instructions() && p.ceilings)
      if (std::optional<Chart> chart = cuda_core_chart(file, p, skipped)) charts.push_back(*chart);
  std::vector<Chart> tensor = tensor_charts(file, skipped);
  charts.insert(charts.end(), tensor.begin(), tensor.end());
  for (const core::Precision& p : core::kPrecisions)
    if (p.counted_by_instructions() && !p.ceilings && skipped)
      skipped->push_back(no_cuda_core_ceilings(p, charts));
  return charts;
}

Shared shared_of(const core::CeilingsFile& file, std::string_view source_name,
                 std::vector<std::string>* skipped) {
  Shared shared;
  std::string labels;
  for (const TrafficLevel& t : kTrafficLevels) {
    const core::Ceiling* c = file.find(std::string(t.level));
    if (!c || !usable(*c, "GB/s", skipped)) continue;
    const std::string label(core::kLevels[core::level_rank(t.level)].label);
    labels += (labels.empty() ? "" : ", ") + label;
    shared.levels.push_back({label,
                             Peak{std::string(kMetricPrefix) + c->name + "_byte_per_second",
                                  c->value * 1e9, label + " " + rate_label(*c) + " measured"},
                             t.achieved});
  }
  if (shared.levels.empty())
    throw Error(std::string(source_name) +
                ": has no measured L1, L2 or DRAM bandwidth ceiling; Nsight Compute sections "
                "need one for their roofs");
  shared.provenance =
      "Its roofs (" + labels + " and compute) are the ceilings rooftop measured on " +
      machine_name(file.machine) + " (host " + file.machine.hostname + "), read from " +
      std::string(source_name) + ", measured " + file.provenance.created_utc +
      "; they are measured ceilings, not Nsight Compute's peak_sustained figures.";
  return shared;
}

// A rate as a derived metric's constant: fixed notation (Nsight Compute takes no
// exponent), to the thousandth, so that the value read back is the file's.
std::string constant(double per_second) { return core::fixed(per_second, 3) + " * 1"; }

void write_header(Text& t, const Chart& chart, const Shared& shared) {
  const std::string name = "rooftop: Measured Hierarchical Roofline (" + chart.title + ")";
  t.comment("Written by rooftop export --format ncu-sections; its roofs are measured ceilings.");
  t.text("Identifier", std::string(kSectionPrefix) + chart.suffix).text("DisplayName", name);
  t.text("Description", "Hierarchical roofline of " + chart.title + ". " + shared.provenance +
                            " The achieved points are the kernel's own counters.");
  t.raw("Order", std::to_string(kOrder));
  t.open("Sets").text("Identifier", kSectionSet).close();
  // As the stock hierarchical charts: kernel launches, not ranges.
  t.open("Filter").open("CollectionFilter").raw("CollectionScopes", "CollectionScope_Launch");
  t.close().close();
}

// The peaks as metrics the report records (its raw page shows what ncu evaluated), and
// every derived metric's definition.
void write_metrics(Text& t, const Chart& chart, const Shared& shared) {
  std::vector<const Peak*> peaks;
  for (const Peak& p : chart.work) peaks.push_back(&p);
  for (const LevelRoof& level : shared.levels) peaks.push_back(&level.peak);
  t.open("Metrics");
  for (const Peak* p : peaks)
    t.open("Metrics").text("Name", p->metric).text("Label", p->label).close();
  t.close().open("MetricDefinitions");
  for (const Peak* p : peaks)
    t.open("MetricDefinitions")
        .text("Name", p->metric)
        .text("Expression", constant(p->per_second))
        .close();
  for (const Definition& d : chart.helpers)
    t.open("MetricDefinitions").text("Name", d.name).text("Expression", d.expression).close();
  t.close();
}

void write_achieved_work(Text& t, const Chart& chart) {
  t.open("AchievedWork").open("ValueCyclesPerSecondExpression");
  for (const std::string& m : chart.achieved) t.metric("ValuePerCycleMetrics", m);
  t.metric("CyclesPerSecondMetric", chart.cycles_per_second).close().close();
}

void write_chart(Text& t, const Chart& chart, const Shared& shared) {
  t.open("Body")
      .text("DisplayName", "rooftop: measured rooflines")
      .open("Items")
      .open("RooflineChart");
  t.text("Label", chart.title + ": rooftop's measured ceilings");
  t.open("AxisIntensity").text("Label", "Arithmetic Intensity [" + chart.unit + "/byte]").close();
  t.open("AxisWork").text("Label", "Performance [" + chart.unit + "/s]").close();
  for (const LevelRoof& level : shared.levels)
    for (const Peak& work : chart.work) {
      t.open("Rooflines");
      t.open("PeakWork").metric("Metric", work.metric).close();
      t.open("PeakTraffic").metric("Metric", level.peak.metric).close();
      t.open("Options").text("Label", level.peak.label + ", " + work.label).close();
      t.close();
    }
  for (const LevelRoof& level : shared.levels) {
    t.open("AchievedValues");
    write_achieved_work(t, chart);
    t.open("AchievedTraffic").metric("Metric", level.achieved).close();
    t.open("Options").text("Label", level.label + " achieved").close();
    t.close();
  }
  t.close().close().close();
}

SectionFile section(const Chart& chart, const Shared& shared) {
  Text t;
  write_header(t, chart, shared);
  write_metrics(t, chart, shared);
  write_chart(t, chart, shared);
  return {std::string(kSectionPrefix) + chart.suffix + ".section", t.str()};
}

}  // namespace

std::string text_format_string(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (byte < 0x20 || byte >= 0x7f) {  // octal: \ooo
      out += '\\';
      for (const int shift : {6, 3, 0}) out += static_cast<char>('0' + ((byte >> shift) & 7));
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::vector<SectionFile> ncu_sections(const core::CeilingsFile& file, std::string_view source_name,
                                      std::vector<std::string>* skipped) {
  if (file.machine.gpu_name.empty())
    throw Error(std::string(source_name) +
                ": is a host's ceilings file; Nsight Compute sections need a GPU's");
  const Shared shared = shared_of(file, source_name, skipped);
  const std::vector<Chart> charts = charts_of(file, skipped);
  if (charts.empty())
    throw Error(std::string(source_name) +
                ": has no measured compute ceiling (fp64_fma, fp32_fma, ...) or tensor-core "
                "figure; Nsight Compute sections need one for their roofs");
  std::vector<SectionFile> files;
  for (const Chart& chart : charts) files.push_back(section(chart, shared));
  return files;
}

}  // namespace rooftop::ceilings
