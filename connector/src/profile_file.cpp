#include "rooftop/connector/profile_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::connector {
namespace {

using json = nlohmann::ordered_json;
using core::KernelRecord;

void append_note(KernelRecord& r, const std::string& text) {
  r.note += (r.note.empty() ? "" : "; ") + text;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

json record_json(const KernelRecord& r, const LabelStats& s) {
  json j;
  j["name"] = r.name;
  j["id"] = r.id;
  j["group"] = r.group;
  j["order"] = r.order;
  j["source"] = r.source;
  j["kinds"] = s.kinds;
  j["spaces"] = s.spaces;
  j["invocations"] = r.invocations;
  j["unfinished"] = s.unfinished;
  j["max_depth"] = s.max_depth;
  j["time_s"] = r.time_s;
  j["time_min"] = r.time_min;
  j["time_max"] = r.time_max;
  j["samples"] = r.samples;
  j["time_source"] = r.time_source;
  j["flops_fp64"] = r.flops_fp64;
  j["flops_fp32"] = r.flops_fp32;
  j["flops_fp16"] = r.flops_fp16;
  j["fma_fraction"] = r.fma_fraction;
  j["precision"] = r.precision;
  j["tensor_instructions"] = r.tensor_instructions;
  json tensor_ops = json::object();
  for (const core::TensorOps& t : r.tensor_ops) tensor_ops[t.figure] = t.ops;
  j["tensor_ops"] = tensor_ops;
  json bytes = json::object();
  for (const core::LevelBytes& b : r.bytes) bytes[b.level] = b.bytes;
  j["bytes"] = bytes;
  j["note"] = r.note;
  if (!s.counters.empty()) {
    json metrics = json::object();
    for (const auto& [name, value] : s.counters) metrics[name] = value;
    j["metrics"] = metrics;
    j["counted_invocations"] = s.counted_invocations;
  }
  return j;
}

[[noreturn]] void fail(const std::string& name, std::size_t line, const std::string& why) {
  throw Error(name + ":" + std::to_string(line) + ": " + why);
}

template <class T>
T field(const json& j, const char* key, T fallback, const std::string& name, std::size_t line) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    fail(name, line, std::string("\"") + key + "\" has the wrong type");
  }
}

std::string tensor_figures() {
  std::vector<std::string> figures;
  for (const core::TensorPath& t : core::kTensorPaths)
    if (std::find(figures.begin(), figures.end(), t.figure) == figures.end())
      figures.emplace_back(t.figure);
  return core::join(figures, ", ");
}

// "tensor_ops": {"tc_fp16": 2.8e4, ...}, the units of core::kTensorPaths with their
// operations (a file of version 1.0 has none: no tensor ops).
std::vector<core::TensorOps> tensor_ops(const json& j, const std::string& name, std::size_t line) {
  std::vector<core::TensorOps> out;
  const auto t = j.find("tensor_ops");
  if (t == j.end() || t->is_null()) return out;
  if (!t->is_object()) fail(name, line, "\"tensor_ops\" is not an object");
  for (const auto& [figure, value] : t->items()) {
    if (!core::tensor_figure(figure))
      fail(name, line,
           "tensor_ops " + core::quoted(figure) + " is not a matrix unit (" + tensor_figures() +
               ")");
    const double ops = value.is_number() ? value.get<double>() : -1.0;  // null: a NaN written
    if (!(ops >= 0.0) || !std::isfinite(ops))
      fail(name, line,
           "tensor_ops " + core::quoted(figure) + " is not a count of operations (a number >= 0)");
    if (ops > 0.0) out.push_back({figure, ops});
  }
  return out;
}

}  // namespace

KernelRecord to_record(const LabelStats& s, std::size_t index) {
  KernelRecord r;
  r.name = s.label;
  r.id = "k" + std::to_string(index + 1);
  r.group = "";  // a program's kernels are different codes, not versions of one
  r.order = static_cast<int>(index);
  r.invocations = static_cast<int>(s.invocations);
  r.samples = static_cast<int>(s.invocations);
  r.time_s = s.total_s;
  r.time_min = s.min_s;
  r.time_max = s.max_s;
  r.time_source = !s.time_source.empty()
                      ? s.time_source
                      : "wall clock from Kokkos Tools begin to end (fenced by Kokkos), sum of " +
                            plural(s.invocations, "invocation", "invocations");
  r.source = s.source;

  if (!s.counters.empty()) {
    r.source = "cupti";
    const counters::cupti::Evaluation e = counters::cupti::evaluate(s.counters);
    counters::cupti::apply_counts(e, r);
    if (s.counted_invocations != s.invocations)
      append_note(r, "counters cover " + std::to_string(s.counted_invocations) + " of " +
                         plural(s.invocations, "invocation", "invocations"));
    // With one auto range per launch, the GPU's own duration is the kernels' time;
    // the wall clock also holds CUPTI's replays.
    if (s.time_source.empty() && e.gpu_time_s && s.counted_invocations == s.invocations &&
        s.invocations > 0) {
      char wall[64];
      std::snprintf(wall, sizeof wall, "%.6g s", s.total_s);
      append_note(r, std::string("wall clock with profiling ") + wall);
      r.time_s = *e.gpu_time_s;
      r.time_min = r.time_max = 0.0;
      r.time_source = "CUPTI gpu__time_duration.sum, one auto range per launch, sum of " +
                      plural(s.invocations, "invocation", "invocations");
    }
  }
  for (const std::string& n : s.notes) append_note(r, n);
  if (s.unfinished > 0)
    append_note(r, plural(s.unfinished, "invocation", "invocations") +
                       " begun and never ended (not counted)");
  if (s.max_depth > 0)
    append_note(r, "launched inside another kernel (depth " + std::to_string(s.max_depth) +
                       "): times are inclusive");
  if (s.kinds.size() > 1) append_note(r, "label used by " + core::join(s.kinds, ", "));
  if (s.spaces.size() > 1) append_note(r, "label ran on " + core::join(s.spaces, ", "));
  return r;
}

std::string profile_text(const ProfileHeader& header, const std::vector<LabelStats>& labels) {
  json h;
  h["format"] = kProfileFormat;
  h["version"] = kProfileVersion;
  h["source"] = header.source;
  h["rooftop_version"] = ROOFTOP_VERSION;
  h["git_revision"] = ROOFTOP_GIT_REVISION;
  h["kokkos_interface_version"] = header.kokkos_interface_version;
  h["pid"] = header.pid;
  if (!header.metrics.empty() || !header.skipped_metrics.empty()) {
    h["metrics"] = header.metrics;
    json skipped = json::array();
    for (const auto& m : header.skipped_metrics)
      skipped.push_back({{"name", m.name}, {"reason", m.reason}});
    h["skipped_metrics"] = skipped;
    h["passes"] = header.passes;
  }
  h["stray_ends"] = header.stray_ends;
  h["notes"] = header.notes;

  // replace: a label that is not valid UTF-8 is written with U+FFFD instead of failing.
  std::string text = h.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  for (std::size_t i = 0; i < labels.size(); ++i)
    text += record_json(to_record(labels[i], i), labels[i])
                .dump(-1, ' ', false, json::error_handler_t::replace) +
            "\n";
  return text;
}

void write_profile(const std::string& path, const ProfileHeader& header,
                   const std::vector<LabelStats>& labels) {
  if (path.empty()) throw Error("profile output path is empty");
  core::write_text_file(path, profile_text(header, labels));  // as every rooftop output
}

Profile parse_profile(const std::string& text, const std::string& name) {
  Profile p;
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::exception& e) {  // parse_error, or out_of_range for 2e308
      fail(name, number, std::string("not JSON (") + e.what() + ")");
    }
    if (!j.is_object()) fail(name, number, "not a JSON object");
    if (!have_header) {
      if (field<std::string>(j, "format", "", name, number) != kProfileFormat)
        fail(name, number,
             std::string("not a rooftop Kokkos profile (no \"format\": \"") + kProfileFormat +
                 "\" header)");
      p.version = field<std::string>(j, "version", "", name, number);
      if (p.version.substr(0, p.version.find('.')) != "1")
        fail(name, number,
             "profile format version " + p.version + " is not supported (this rooftop reads 1.x)");
      p.source = field<std::string>(j, "source", "", name, number);
      p.notes = field<std::vector<std::string>>(j, "notes", {}, name, number);
      have_header = true;
      continue;
    }
    KernelRecord r;
    r.name = field<std::string>(j, "name", "", name, number);
    if (r.name.empty()) fail(name, number, "kernel without a \"name\"");
    r.id = field<std::string>(j, "id", "k" + std::to_string(p.kernels.size() + 1), name, number);
    r.group = field<std::string>(j, "group", "", name, number);
    r.order = field<int>(j, "order", static_cast<int>(p.kernels.size()), name, number);
    r.source = field<std::string>(j, "source", p.source, name, number);
    r.invocations = field<int>(j, "invocations", 1, name, number);
    r.time_s = field<double>(j, "time_s", 0.0, name, number);
    r.time_min = field<double>(j, "time_min", 0.0, name, number);
    r.time_max = field<double>(j, "time_max", 0.0, name, number);
    r.samples = field<int>(j, "samples", 0, name, number);
    r.time_source = field<std::string>(j, "time_source", "", name, number);
    r.flops_fp64 = field<double>(j, "flops_fp64", 0.0, name, number);
    r.flops_fp32 = field<double>(j, "flops_fp32", 0.0, name, number);
    r.flops_fp16 = field<double>(j, "flops_fp16", 0.0, name, number);
    r.fma_fraction = field<double>(j, "fma_fraction", -1.0, name, number);
    r.precision = field<std::string>(j, "precision", "", name, number);
    r.tensor_instructions = field<double>(j, "tensor_instructions", 0.0, name, number);
    r.tensor_ops = tensor_ops(j, name, number);
    r.note = field<std::string>(j, "note", "", name, number);
    if (const auto b = j.find("bytes"); b != j.end() && !b->is_null()) {
      if (!b->is_object()) fail(name, number, "\"bytes\" is not an object");
      for (const auto& [level, value] : b->items()) {
        if (!value.is_number()) fail(name, number, "bytes \"" + level + "\" is not a number");
        r.bytes.push_back({level, value.get<double>()});
      }
    }
    p.kernels.push_back(std::move(r));
  }
  if (!have_header) fail(name, number == 0 ? 1 : number, "empty profile (no header line)");
  return p;
}

Profile read_profile(const std::string& path) {
  // A profile holds a line per kernel name: 256 MiB is far beyond any real one.
  return parse_profile(core::read_input_file(path, std::size_t{256} << 20, "profile"), path);
}

}  // namespace rooftop::connector
