// llm: a language model from its Hugging Face config.json, each operator of its prefill
// and decode placed on one or more machines' measured ceilings: time to first token, time
// per output token, tokens per second, where decode turns compute-bound, and whether it
// fits, side by side.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/analyze/operator_calls.hpp"
#include "rooftop/llm/estimate.hpp"
#include "rooftop/llm/measured.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {
namespace {

std::string figure(double v) { return core::significant(v, core::kFigureDigits); }
std::string ratio(double v) { return core::significant(v, core::kRatioDigits); }
std::string seconds(double s) {
  return s >= 1 ? figure(s) + " s" : s >= 1e-3 ? figure(s * 1e3) + " ms" : figure(s * 1e6) + " us";
}

std::string describe(const llm::ModelConfig& m, const llm::Workload& w) {
  std::string text = m.model_type + ": " + std::to_string(m.layers) + " layers, hidden " +
                     std::to_string(m.hidden) + ", " + std::to_string(m.heads) +
                     " query heads and " + std::to_string(m.kv_heads) + " KV heads of " +
                     std::to_string(m.head_dim) + ", MLP " + std::to_string(m.intermediate) +
                     (m.mlp == llm::Mlp::gated ? " (gated)" : "") + ", vocabulary " +
                     std::to_string(m.vocab) + (m.tied ? " (tied embeddings)" : "");
  if (m.experts > 0)
    text += ", " + std::to_string(m.experts_per_token) + " of " + std::to_string(m.experts) +
            " experts a token";
  if (m.window > 0 && m.local_layers > 0)
    text += ", a sliding window of " + std::to_string(m.window) + " keys" +
            (m.local_layers < m.layers ? " in " + std::to_string(m.local_layers) + " of its " +
                                             std::to_string(m.layers) + " layers"
                                       : std::string());
  const auto cap = [](double c) { return c > 0 ? core::format_number("%g", c) : "none"; };
  if (m.attn_softcap > 0 || m.final_softcap > 0)
    text += ", soft-capping " + cap(m.attn_softcap) + " on scores and " +
            cap(m.final_softcap) + " on logits";
  return text + "\nbatch " + std::to_string(w.batch) + ", prompt " + std::to_string(w.prompt) +
         ", " + std::to_string(w.generate) + " tokens generated; weights " +
         std::string(w.dtype->name) + ", KV cache " + figure(w.kv_bytes) + " bytes an element" +
         (w.unfused ? "; attention unfused" : "; attention fused (flash)");
}

// A row of the side-by-side table, its cells right-aligned in `width`.
void row(std::ostream& out, const std::string& label, const std::vector<std::string>& cells,
         std::size_t width) {
  std::string line = label;
  line.resize(std::max<std::size_t>(line.size() + 1, 28), ' ');
  for (const std::string& c : cells) {
    std::string cell = c;
    if (cell.size() < width) cell.insert(0, width - cell.size(), ' ');
    line += cell + "  ";
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out << line << "\n";
}

void print_table(std::ostream& out, const llm::ModelConfig& m, const llm::Workload& w,
                 const std::vector<llm::MachineEstimate>& machines) {
  out << describe(m, w) << "\n\n";
  std::vector<std::string> names, cells;
  std::size_t width = 14;
  for (const auto& e : machines) {  // the files' names: a CPU's model name runs long
    names.push_back(std::filesystem::path(e.file).stem().string().substr(0, 40));
    width = std::max(width, names.back().size());
  }
  row(out, "", names, width);
  const auto each = [&](const std::string& label, auto cell) {
    cells.clear();
    for (const auto& e : machines) cells.push_back(cell(e));
    row(out, label, cells, width);
  };
  const auto unless_too_big = [](const llm::MachineEstimate& e, const std::string& text) {
    return e.fits && !*e.fits ? std::string("does not fit") : text;
  };
  each("time to first token", [&](const auto& e) { return unless_too_big(e, seconds(e.prefill_s)); });
  each("time per output token",
       [&](const auto& e) { return unless_too_big(e, seconds(e.decode_s_per_token)); });
  each("tokens per second", [&](const auto& e) { return unless_too_big(e, figure(e.tokens_per_s)); });
  each("decode GB per token", [](const auto& e) { return figure(e.decode_bytes_per_token / 1e9); });
  each("decode GFLOP per token",
       [](const auto& e) { return figure(e.decode_flops_per_token / 1e9); });
  each("memory needed, GB", [](const auto& e) { return figure(e.memory_bytes_needed / 1e9); });
  each("memory of the machine, GB", [](const auto& e) {
    return e.memory_bytes > 0 ? figure(e.memory_bytes / 1e9) : std::string("unknown");
  });
  each("decode compute-bound from", [](const auto& e) {
    return e.compute_bound_batch > 0 ? "batch " + std::to_string(e.compute_bound_batch)
                                     : std::string("beyond 65,536");
  });
  each("launch interval", [](const auto& e) {
    return e.launch_interval_us > 0 ? figure(e.launch_interval_us) + " us" : std::string("none");
  });
  std::set<std::string> kinds, roofs;
  for (const auto& e : machines) {
    for (const auto& [k, s] : e.kind_share) kinds.insert(k);
    for (const auto& [r, s] : e.roof_share) roofs.insert(r);
  }
  out << "\nshare of the bound time\n";
  for (const std::string& k : kinds)
    each("  " + k, [&](const auto& e) {
      const auto it = e.kind_share.find(k);
      return it == e.kind_share.end() ? std::string("-") : ratio(it->second);
    });
  for (const std::string& r : roofs)
    each("  on " + r, [&](const auto& e) {
      const auto it = e.roof_share.find(r);
      return it == e.roof_share.end() ? std::string("-") : ratio(it->second);
    });
  for (const auto& e : machines) {
    out << "\n" << e.name << " (" << e.file << ")\n";
    for (const llm::Phase* phase : {&e.prefill, &e.decode}) {
      out << "  " << phase->name << ": " << seconds(phase->seconds()) << " (bound "
          << seconds(phase->bound_s) << ", launches " << seconds(phase->launch_s) << ")\n";
      out << "    operator              GFLOP        GB  limiter          bound\n";
      for (const auto& p : phase->operators) {
        double bytes = 0;
        for (const auto& [level, n] : p.bytes) bytes += n;
        std::string name = p.op.name;
        name.resize(std::max<std::size_t>(name.size(), 18), ' ');
        std::string gflop = figure(p.op.flops / 1e9), gb = figure(bytes / 1e9);
        gflop.insert(0, gflop.size() < 10 ? 10 - gflop.size() : 0, ' ');
        gb.insert(0, gb.size() < 10 ? 10 - gb.size() : 0, ' ');
        std::string limiter = p.limiter;
        limiter.resize(std::max<std::size_t>(limiter.size(), 14), ' ');
        out << "    " << name << gflop << gb << "  " << limiter << "  " << seconds(p.bound_s)
            << "\n";
      }
    }
    for (const std::string& n : e.notes) out << "  note: " << n << "\n";
  }
}

nlohmann::json to_json(const llm::ModelConfig& m, const llm::Workload& w,
                       const std::vector<llm::MachineEstimate>& machines) {
  nlohmann::json out;
  out["model"] = {{"model_type", m.model_type}, {"layers", m.layers}, {"hidden", m.hidden},
                  {"heads", m.heads},           {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim},
                  {"intermediate", m.intermediate}, {"vocab", m.vocab}, {"tied", m.tied},
                  {"experts", m.experts},       {"experts_per_token", m.experts_per_token},
                  {"window", m.window},         {"local_layers", m.local_layers},
                  {"attn_softcap", m.attn_softcap}, {"final_softcap", m.final_softcap}};
  out["workload"] = {{"batch", w.batch}, {"prompt", w.prompt}, {"generate", w.generate},
                     {"dtype", w.dtype->name}, {"kv_bytes", w.kv_bytes}, {"unfused", w.unfused}};
  out["machines"] = nlohmann::json::array();
  for (const auto& e : machines) {
    nlohmann::json phases = nlohmann::json::array();
    for (const llm::Phase* phase : {&e.prefill, &e.decode}) {
      nlohmann::json ops = nlohmann::json::array();
      for (const auto& p : phase->operators)
        ops.push_back({{"name", p.op.name}, {"kind", p.op.kind}, {"precision", p.op.precision},
                       {"flops", p.op.flops}, {"bytes", p.bytes}, {"launches", p.op.launches},
                       {"limiter", p.limiter}, {"bound_s", p.bound_s}});
      phases.push_back({{"name", phase->name}, {"bound_s", phase->bound_s},
                        {"launch_s", phase->launch_s}, {"operators", ops}});
    }
    out["machines"].push_back(
        {{"name", e.name}, {"file", e.file}, {"prefill_s", e.prefill_s},
         {"decode_s_per_token", e.decode_s_per_token}, {"tokens_per_s", e.tokens_per_s},
         {"decode_bytes_per_token", e.decode_bytes_per_token},
         {"decode_flops_per_token", e.decode_flops_per_token},
         {"memory_bytes_needed", e.memory_bytes_needed},
         {"memory_bytes", e.memory_bytes > 0 ? nlohmann::json(e.memory_bytes) : nlohmann::json()},
         {"fits", e.fits ? nlohmann::json(*e.fits) : nlohmann::json()},
         {"compute_bound_batch", e.compute_bound_batch},
         {"launch_interval_us", e.launch_interval_us},
         {"kind_share", e.kind_share}, {"roof_share", e.roof_share},
         {"notes", e.notes}, {"phases", phases}});
  }
  return out;
}

void print_measured(std::ostream& out, const llm::Measured& m, const std::string& trace,
                    const llm::MachineEstimate& e) {
  out << "\nmeasured: " << trace << ", beside the bounds on " << e.name << "\n";
  out << "  operators                   phase     measured GFLOP  predicted GFLOP   measured  "
         "     bound  attained\n";
  for (const llm::MeasuredClass& c : m.classes) {
    std::string name = c.name, phase = c.phase;
    name.resize(std::max<std::size_t>(name.size(), 26), ' ');
    phase.resize(std::max<std::size_t>(phase.size(), 8), ' ');
    char line[256];
    std::snprintf(line, sizeof line, "%16s %16s %10s %10s %9s", figure(c.measured_flops / 1e9).c_str(),
                  figure(c.predicted_flops / 1e9).c_str(), seconds(c.measured_s).c_str(),
                  seconds(c.bound_s).c_str(), ratio(c.attained()).c_str());
    out << "  " << name << "  " << phase << line
        << (c.faster_than_bound() ? "  FASTER THAN ITS BOUND" : "") << "\n";
  }
  out << "  other (" << m.other_records << " records: norms, rotary, copies, ...) "
      << seconds(m.other_s) << "\n";
  if (!m.layers.empty()) {
    out << "\n  layer  phase     steps   measured       bound  attained  (every call in the "
           "layer, beside one layer's operators)\n";
    for (const llm::MeasuredLayer& l : m.layers) {
      char line[160];
      std::snprintf(line, sizeof line, "  %5d  %-8s %6d %10s %11s %9s", l.layer, l.phase.c_str(),
                    l.steps, seconds(l.measured_s).c_str(), seconds(l.bound_s).c_str(),
                    ratio(l.attained()).c_str());
      out << line << (l.faster_than_bound() ? "  FASTER THAN ITS BOUND" : "") << "\n";
    }
  }
  for (const std::string& note : m.notes) out << "  note: " << note << "\n";
}

nlohmann::json measured_json(const llm::Measured& m, const std::string& trace) {
  nlohmann::json classes = nlohmann::json::array();
  for (const llm::MeasuredClass& c : m.classes)
    classes.push_back({{"name", c.name}, {"phase", c.phase},
                       {"measured_flops", c.measured_flops}, {"predicted_flops", c.predicted_flops},
                       {"measured_s", c.measured_s}, {"bound_s", c.bound_s},
                       {"attained", c.attained()}, {"tolerance", c.tolerance},
                       {"faster_than_bound", c.faster_than_bound()}});
  nlohmann::json layers = nlohmann::json::array();
  for (const llm::MeasuredLayer& l : m.layers)
    layers.push_back({{"layer", l.layer}, {"phase", l.phase}, {"steps", l.steps},
                      {"measured_s", l.measured_s}, {"bound_s", l.bound_s},
                      {"attained", l.attained()}, {"tolerance", l.tolerance},
                      {"faster_than_bound", l.faster_than_bound()}});
  return {{"file", trace},          {"classes", classes},
          {"layers", layers},       {"other_s", m.other_s},
          {"other_records", m.other_records}, {"notes", m.notes}};
}

// The chart of machine `i` of `n`: the path given, or with "-i" before its extension.
std::string chart_path(const std::string& plot, std::size_t i, std::size_t n) {
  if (n == 1) return plot;
  const std::filesystem::path p(plot);
  return (p.parent_path() / (p.stem().string() + "-" + std::to_string(i + 1) + p.extension().string()))
      .string();
}

}  // namespace

int run_llm(const LlmOptions& o) {
  const llm::ModelConfig model = llm::parse_config(
      core::read_input_file(o.config, std::size_t{1} << 20, "model config"), o.config);
  llm::Workload w;
  w.batch = o.batch;
  w.prompt = o.prompt;
  w.generate = o.generate;
  w.dtype = llm::find_dtype(o.dtype);
  if (!w.dtype) throw Error("--dtype " + o.dtype + ": not a dtype this command knows");
  const llm::DType* kv = llm::find_dtype(o.kv_dtype.empty() ? std::string(w.dtype->name) : o.kv_dtype);
  if (!kv || kv->name == "int4") throw Error("--kv-dtype " + o.kv_dtype + ": not a KV cache dtype");
  // A weight-only dtype keeps its cache in bf16 unless told.
  w.kv_bytes = o.kv_dtype.empty() && w.dtype->weight_bytes < w.dtype->activation_bytes &&
                       w.dtype->precision == "bf16"
                   ? 2
                   : kv->weight_bytes;
  w.unfused = o.unfused;
  const llm::Options options{o.launch_overhead == "measured", o.fallback};
  std::vector<std::string> inputs = o.ceilings;
  inputs.push_back(o.config);
  if (!o.trace.empty()) inputs.push_back(o.trace);
  std::vector<std::string> charts;
  for (std::size_t i = 0; i < o.ceilings.size() && !o.plot.empty(); ++i) {
    charts.push_back(chart_path(o.plot, i, o.ceilings.size()));
    core::check_writable(charts.back(), inputs);
  }
  std::vector<llm::MachineEstimate> machines;
  std::vector<core::CeilingsFile> files;
  for (const std::string& path : o.ceilings) {
    files.push_back(ceilings::read_file(path));
    machines.push_back(llm::estimate(model, w, files.back(), path, options));
  }
  for (std::size_t i = 0; i < charts.size(); ++i) {
    core::CeilingsFile chart = files[i];
    chart.kernels = llm::phase_records(machines[i].prefill, chart);
    for (core::KernelRecord& r : llm::phase_records(machines[i].decode, chart))
      chart.kernels.push_back(std::move(r));
    core::write_text_file(charts[i], report::kernels_svg(chart, model.model_type + " on " +
                                                                    machines[i].name));
  }
  std::optional<llm::Measured> measured;
  if (!o.trace.empty()) {
    const counters::OperatorCalls calls = analyze::read_operator_calls(o.trace);
    measured = llm::join_measured(calls.calls, model, w, machines.front());
    measured->notes.insert(measured->notes.begin(), calls.notes.begin(), calls.notes.end());
  }
  if (o.format == OutputFormat::json) {
    nlohmann::json doc = to_json(model, w, machines);
    if (measured) doc["machines"][0]["measured"] = measured_json(*measured, o.trace);
    std::cout << doc.dump(2) << "\n";
  } else {
    print_table(std::cout, model, w, machines);
    if (measured) print_measured(std::cout, *measured, o.trace, machines.front());
  }
  if (measured) {
    for (const llm::MeasuredClass& c : measured->classes)
      if (c.faster_than_bound())
        std::cerr << "rooftop: warning: " << c.name << " (" << c.phase
                  << ") ran faster than its bound: the model or the ceilings are wrong\n";
    for (const llm::MeasuredLayer& l : measured->layers)
      if (l.faster_than_bound())
        std::cerr << "rooftop: warning: layer " << l.layer << " (" << l.phase
                  << ") ran faster than its bound: the model or the ceilings are wrong\n";
  }
  if (!charts.empty()) std::cerr << "rooftop: wrote " << core::join(charts, ", ") << "\n";
  return 0;
}

}  // namespace rooftop::app
