#include "rooftop/report/ceilings_table.hpp"

#include <cstdio>
#include <sstream>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::report {
namespace {

using ceilings::format_bytes;
using ceilings::machine_name;
using core::CacheLevel;
using core::Ceiling;
using core::CeilingsFile;
using core::Machine;
using core::Provenance;

// "title:" and one "  name: text" line per ceiling whose text is not empty; nothing
// when every ceiling's text is empty.
void text_section(std::ostringstream& out, const CeilingsFile& f, const char* title,
                  std::string Ceiling::*text) {
  bool any = false;
  for (const Ceiling& c : f.ceilings) {
    if ((c.*text).empty()) continue;
    if (!any) out << "\n" << title << ":\n";
    any = true;
    out << "  " << c.name << ": " << c.*text << "\n";
  }
}

nlohmann::json rows_json(const std::vector<Ceiling>& ceilings) {
  nlohmann::json rows = nlohmann::json::array();
  for (const Ceiling& c : ceilings) {
    nlohmann::json object = nlohmann::json::object();
    for (auto& [key, value] : ceilings::ceiling_fields(c)) object[key] = std::move(value);
    rows.push_back(std::move(object));
  }
  return rows;
}

// A row's figures as the tables print them ("-" where there is none).
struct RowText {
  std::string value, median, min, max, theoretical = "-", fraction = "-";
};
RowText row_text(const Ceiling& c) {
  const auto figure = [](double v) { return core::significant(v, core::kFigureDigits); };
  RowText f{figure(c.value), figure(c.median), figure(c.min), figure(c.max)};
  if (c.theoretical) f.theoretical = figure(*c.theoretical);
  if (auto fraction = c.fraction_of_theoretical())
    f.fraction = core::significant(*fraction, core::kRatioDigits);
  return f;
}

// A sweep's points by its parameter: the median of each point's samples.
nlohmann::json sweeps_json(const std::vector<core::SweepPoint>& points) {
  nlohmann::json out = nlohmann::json::array();
  for (const core::SweepPoint& p : points) {
    if (p.values.empty()) continue;
    const core::Sweep* row = core::find_sweep(p.sweep);
    const core::Summary s = core::summarize(p.values);
    out.push_back({{"sweep", p.sweep},
                   {"x", p.x},
                   {"x_is", row ? std::string(row->x) : ""},
                   {"units", row ? std::string(row->units) : ""},
                   {"median", s.median},
                   {"min", s.min},
                   {"max", s.max},
                   {"samples", s.count}});
  }
  return out;
}

// One line per run of points with the same label(p): the label, then "x(p): median" for
// each point.
template <class Point, class Label, class X>
void point_lines(std::ostringstream& out, const std::vector<Point>& points, Label label, X x) {
  std::string current;
  for (const Point& p : points) {
    if (p.values.empty()) continue;
    if (const std::string l = label(p); l != current) {
      out << (current.empty() ? "" : "\n") << "  " << l << ":";
      current = l;
    }
    out << " " << x(p) << ": "
        << core::significant(core::summarize(p.values).median, core::kFigureDigits);
  }
  if (!current.empty()) out << "\n";
}

// One line per sweep: its label and units, then "x: median" for each point.
void sweeps_text(std::ostringstream& out, const std::vector<core::SweepPoint>& points) {
  point_lines(
      out, points,
      [](const core::SweepPoint& p) {
        const core::Sweep* row = core::find_sweep(p.sweep);
        return row ? p.sweep + " (" + std::string(row->units) + " by " + std::string(row->x) + ")"
                   : p.sweep;
      },
      [](const core::SweepPoint& p) { return core::format_number("%g", p.x); });
}

// A GPU's bandwidth points, one line per pattern (the l2 sweep, l2-far, each dram pattern,
// dram-256b): every working set with its median, so a run shows what each ceiling was
// chosen from. A host's many points are the chart's.
void device_points_text(std::ostringstream& out, const CeilingsFile& f) {
  if (f.machine.gpu_name.empty() || f.sweeps.bandwidth.empty()) return;
  out << "\nbandwidth points (GB/s, median of each point, by working set):\n";
  point_lines(
      out, f.sweeps.bandwidth, [](const core::BandwidthPoint& p) { return p.pattern; },
      [](const core::BandwidthPoint& p) {
        return format_bytes(static_cast<double>(p.working_set_bytes));
      });
}

// A group of figures (schema 1.7): its table, the notes, and its sweeps.
void figures_text(std::ostringstream& out, const core::Figures& g, std::string_view group) {
  if (g.empty()) return;
  char line[512];
  out << "\n" << group << ":\n";
  std::snprintf(line, sizeof line, "%-17s %10s %-8s %10s %10s %10s %4s  %-18s %11s %7s\n",
                "figure", "value", "units", "median", "min", "max", "n", "pattern", "theoretical",
                "frac");
  out << line;
  for (const Ceiling& c : g.figures) {
    const RowText f = row_text(c);
    std::snprintf(line, sizeof line, "%-17s %10s %-8s %10s %10s %10s %4d  %-18s %11s %7s%s\n",
                  c.name.c_str(), f.value.c_str(), c.units.c_str(), f.median.c_str(), f.min.c_str(),
                  f.max.c_str(), c.samples, c.pattern.c_str(), f.theoretical.c_str(),
                  f.fraction.c_str(), c.above_theoretical() ? "  ABOVE THEORETICAL" : "");
    out << line;
  }
  for (const Ceiling& c : g.figures) {
    const core::Figure* row = core::find_figure(c.name);
    std::string text = row ? std::string(row->label) : "";
    for (const std::string* more : {&c.theoretical_basis, &c.note})
      if (!more->empty()) text += (text.empty() ? "" : "; ") + *more;
    if (!text.empty()) out << "  " << c.name << ": " << text << "\n";
  }
  if (!g.sweeps.empty()) out << "sweeps (median of each point):\n";
  sweeps_text(out, g.sweeps);
}

}  // namespace

nlohmann::json ceilings_json(const CeilingsFile& f) {
  const Provenance& p = f.provenance;
  nlohmann::json out = {{"schema_version", p.schema_version},      {"tool_version", p.tool_version},
                        {"git_revision", p.git_revision},          {"created_utc", p.created_utc},
                        {"machine", ceilings::to_json(f.machine)}, {"ceilings", rows_json(f.ceilings)}};
  for (const core::FigureGroup& g : core::kFigureGroups)
    out[std::string(g.name)] = {{"figures", rows_json((f.*g.figures).figures)},
                                {"sweeps", sweeps_json((f.*g.figures).sweeps)}};
  return out;
}

namespace {

// The machine with every text as it prints within one line of the header: a name from a
// file that holds a line break cannot split it.
Machine one_line_texts(Machine m) {
  for (const core::MachineField& field : core::kMachineFields)
    if (const auto* text = std::get_if<std::string Machine::*>(&field.member))
      m.**text = core::terminal_line(m.**text);
  for (CacheLevel& c : m.caches) c.name = core::terminal_line(c.name);
  return m;
}

}  // namespace

std::string ceilings_table(const CeilingsFile& f) {
  std::ostringstream out;
  const Machine m = one_line_texts(f.machine);
  char line[512];
  out << "rooftop ceilings (schema " << f.provenance.schema_version << ", rooftop "
      << f.provenance.tool_version << " " << f.provenance.git_revision << ", "
      << f.provenance.created_utc << ")\n";
  // Facts an imported file does not have (host, threads, caches, clock) are left out.
  out << "machine: " << machine_name(m);
  if (!m.hostname.empty() && m.hostname != machine_name(m)) out << " on " << m.hostname;
  std::string run = m.execution_space;
  if (m.threads > 0) run += (run.empty() ? "" : ", ") + std::to_string(m.threads) + " threads";
  if (m.cores > 0)
    run += (m.threads > 0 ? " on "
            : run.empty() ? ""
                          : ", ") +
           std::to_string(m.cores) + (m.gpu_name.empty() ? " cores" : " SMs");
  out << (run.empty() ? "" : "; " + run) << "\n";
  if (!m.caches.empty()) {
    out << "caches:";
    for (const CacheLevel& c : m.caches)
      out << " " << c.name << " " << format_bytes(static_cast<double>(c.bytes))
          << (c.shared_by > 1 ? " (shared by " + std::to_string(c.shared_by) + ")" : "");
    out << "\n";
  }
  // Where the host's pipe counts (and so its theoretical peaks) come from, or why there
  // are none.
  if (m.gpu_name.empty() && !m.hardware_model.empty())
    out << "vector units: " << m.hardware_model << "\n";
  if (!m.compute_capability.empty()) {
    std::snprintf(line, sizeof line,
                  "gpu: compute capability %s, %s memory, %.3f GHz memory clock x %d-bit bus; "
                  "driver %s, CUDA runtime %s; compiled for %s\n",
                  m.compute_capability.c_str(),
                  format_bytes(static_cast<double>(m.memory_bytes)).c_str(), m.memory_clock_ghz,
                  m.memory_bus_bits, m.driver_version.c_str(), m.cuda_version.c_str(),
                  m.device_arch.c_str());
    out << line;
  }
  if (m.clock_ghz > 0.0) {
    std::snprintf(line, sizeof line, "clock: %.3f GHz (%s)\n", m.clock_ghz, m.clock_method.c_str());
    out << line;
  }
  out << "\n";
  std::snprintf(line, sizeof line, "%-11s %10s %-8s %10s %10s %10s %4s  %-8s %10s %12s %7s\n",
                "ceiling", "value", "units", "median", "min", "max", "n", "pattern", "work set",
                "theoretical", "frac");
  out << line;
  for (const Ceiling& c : f.ceilings) {
    const RowText t = row_text(c);
    const std::string ws =
        c.working_set_bytes ? format_bytes(static_cast<double>(c.working_set_bytes)) : "-";
    std::snprintf(line, sizeof line, "%-11s %10s %-8s %10s %10s %10s %4d  %-8s %10s %12s %7s%s\n",
                  c.name.c_str(), t.value.c_str(), c.units.c_str(), t.median.c_str(), t.min.c_str(),
                  t.max.c_str(), c.samples, c.pattern.c_str(), ws.c_str(), t.theoretical.c_str(),
                  t.fraction.c_str(), c.above_theoretical() ? "  ABOVE THEORETICAL" : "");
    out << line;
  }
  text_section(out, f, "theoretical peaks", &Ceiling::theoretical_basis);
  text_section(out, f, "notes", &Ceiling::note);
  device_points_text(out, f);
  for (const core::FigureGroup& g : core::kFigureGroups) figures_text(out, f.*g.figures, g.name);
  const std::vector<std::string> disturbed = disturbed_ceilings(f);
  if (!disturbed.empty()) out << "\ndisturbed (the machine was not the measurement's own):\n";
  for (const std::string& d : disturbed) out << "  " << d << "\n";
  return out.str();
}

std::vector<std::string> disturbed_ceilings(const CeilingsFile& f) {
  // A host's disturbance is the time its median sample lost; a GPU sample is disturbed
  // or not (NVML's readings are states), so a GPU ceiling's says its median sample was.
  const bool gpu = !f.machine.gpu_name.empty();
  std::vector<std::string> out;
  for (const Ceiling* c : f.rows())
    if (c->disturbed())
      out.push_back(
          c->name + ": " +
          (gpu ? "its median sample saw another process, a slowdown not the GPU's own or a "
                 "GPU error, retakes included (its note says which); it may be low"
               : "its median sample lost " +
                     core::format_number("%.0f", 100.0 * *c->disturbance) +
                     "% of its time to other tasks or the hypervisor; it may be low"));
  return out;
}

}  // namespace rooftop::report
