// PyTorch profiler traces (`prof.export_chrome_trace("trace.json")`, `.json.gz` through
// gzip.hpp; tensorboard_trace_handler's files alike): a JSON object whose "traceEvents"
// are Chrome trace events. Read:
//   cat "kernel"        a device kernel: name, dur (microseconds), args "External id"
//                       (the operator that launched it) and "correlation"
//   cat "cuda_runtime"  the launch: args "correlation" and "External id", for a kernel
//                       whose own args lack the external id
//   cat "cpu_op"        an operator: name, ts, dur, pid, tid, args "External id", "Input
//                       type", "Input Dims" and "Concrete Inputs" (record_shapes=True),
//                       and "flops" where a tool has added them (PyTorch's own export
//                       writes none, with_flops=True or not: it marks the profile
//                       "with_flops" in the trace's header and keeps the counts to itself)
// An operator's FLOPs are the trace's "flops" where any operator carries them (a tool's
// count, not mixed with ours), else counted from its "Input Dims" as PyTorch counts them
// (operator_flops.cpp's tables); aten::linear and aten::matmul, whose work is that of the
// operators they call, keep no count where an operator nested in them has one.
// Kernels are summed by name. An operator's FLOPs go to the kernel it launched (itself or
// through the operators nested in it) where it launched exactly one per call, in the
// precision of its first input ("float" fp32, "double" fp64, Half fp16, BFloat16 bf16,
// Float8_* fp8); a kernel gets FLOPs only where every launch of it got them. An operator
// that launched several kernels per call gets a record of its own, "[operator] NAME": the
// summed time of the kernels of each call, its FLOPs, and its kernels' names as its
// description (core/roofline.cpp reads a TF32 kernel's name there). Without bytes a
// kernel has no arithmetic intensity: with FLOPs it is placed by achieved FLOP/s against
// the compute roofs, and an Nsight Compute report of the same run, given with it, adds the
// counts. Each kernel's description names the operators it was launched under, outermost
// first ("launched by aten::linear > aten::addmm"), for the kernels of a report it times
// and for `profile --trace` (name_operators). A trace of CUPTI counters
// (cuda_profiler_range events) is pytorch_metrics.cpp's.

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "operator_flops.hpp"
#include "pytorch_events.hpp"
#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/terminal.hpp"
#include "timing.hpp"
#include "trace_json.hpp"

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;

// The name of the record of an operator whose FLOPs span several kernels. It starts with
// '[', as nvprof's copies do, so that no kernel name of a report is taken for it.
constexpr const char* kOperatorPrefix = "[operator] ";


// The legacy layout: a JSON list whose events name kLegacyOperators near its start.
bool looks_like_legacy_trace(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '[') return false;
  return text.substr(0, std::size_t{1} << 20).find("\"pid\": \"CPU functions\"") !=
         std::string_view::npos;
}

bool looks_like_pytorch_trace(std::string_view text) {
  return looks_like_trace(text) || looks_like_legacy_trace(text);
}


// The operators a kernel was launched under, outermost first: "aten::linear > aten::addmm".
std::string operator_chain(const std::vector<Op>& ops, int op) {
  std::vector<std::string> names;
  for (int hops = 0; op >= 0 && hops < 1000; ++hops, op = ops[op].parent)
    names.push_back(ops[op].name);
  std::reverse(names.begin(), names.end());
  return core::join(names, " > ");
}

// A kernel's description from the distinct operator chains that launched it: the first
// three, then how many more (the file keeps 255 characters of a description).
std::string launched_by(const std::vector<std::string>& chains) {
  std::string text = "launched by " + core::join_first(chains, "; ", 3);
  return text.size() > 255 ? text.substr(0, 252) + "..." : text;
}

// A kernel's name without its return type and arguments ("void f<int, (E)2>(int)" is
// "f<int, (E)2>": the first '(' outside the template arguments), cut at 100 characters.
std::string short_name(const std::string& name) {
  std::string s = name.rfind("void ", 0) == 0 ? name.substr(5) : name;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
    if (s[i] == '(' && depth <= 0) {
      s.resize(i);
      break;
    }
  }
  return s.size() > 100 ? s.substr(0, 97) + "..." : s;
}

// The distinct kernels of an operator record, for its description (the file keeps 255
// characters of it).
std::string kernels_of(const std::vector<std::string>& names) {
  std::string out;
  std::vector<std::string> seen;
  for (const std::string& n : names) {
    const std::string shown = short_name(n);
    if (std::find(seen.begin(), seen.end(), shown) != seen.end()) continue;
    seen.push_back(shown);
    out += (out.empty() ? "its kernels: " : "; ") + shown;
  }
  return out;
}

// What the kernels and operators came to: the timing entries and what the notes need.
struct Attributed {
  bool untyped = false;                  // FLOPs of an operator of no floating type
  std::map<std::string, int> operators;  // operator record -> calls
  std::vector<std::string> partial;      // kernels with FLOPs for only some launches
};

Attributed build(const Events& ev, Timing& timing) {
  Attributed a;
  std::map<std::string, int> attributed;  // launches per kernel name that got FLOPs
  std::map<int, double> spread;  // operator calls that launched several kernels: their time
  std::map<int, std::vector<std::string>> spread_names;
  std::map<std::string, std::vector<std::string>> chains;  // kernel name -> distinct chains
  std::map<int, std::string> chain_of;                     // launching operator -> its chain
  for (const Kernel& k : ev.kernels) {
    timing.add_launch(k.name, k.seconds);
    if (k.launcher >= 0) {
      auto [it, fresh] = chain_of.try_emplace(k.launcher);
      if (fresh) it->second = operator_chain(ev.ops, k.launcher);
      std::vector<std::string>& seen = chains[k.name];
      if (std::find(seen.begin(), seen.end(), it->second) == seen.end())
        seen.push_back(it->second);
    }
    if (k.op < 0) continue;
    const Op& op = ev.ops[k.op];
    if (op.launches != 1) {
      spread[k.op] += k.seconds;
      spread_names[k.op].push_back(k.name);
      continue;
    }
    if (op.precision.empty()) {
      a.untyped = true;
      continue;
    }
    timing.entry(k.name).flops[op.precision] += op.flops;
    ++attributed[k.name];
  }
  // Each call of an operator whose FLOPs span several kernels: one launch of its own record.
  for (const auto& [index, seconds] : spread) {
    const Op& op = ev.ops[index];
    if (op.precision.empty()) {
      a.untyped = true;
      continue;
    }
    const std::string name = std::string(kOperatorPrefix) + op.name;
    timing.add_launch(name, seconds);
    TimingEntry& e = timing.entry(name);
    e.flops[op.precision] += op.flops;
    if (e.description.empty()) e.description = kernels_of(spread_names[index]);
    ++a.operators[name];
  }
  for (const auto& [name, seen] : chains) timing.entry(name).description = launched_by(seen);
  for (TimingEntry& e : timing.entries) {
    const auto it = attributed.find(e.name);
    if (it != attributed.end() && it->second != e.calls) {
      e.flops.clear();
      a.partial.push_back(e.name);
    }
  }
  return a;
}

// The note on where the FLOPs came from, where the trace carries no "flops" of its own.
std::string flops_source_note(const json& doc, const std::string& file, const Counted& counted,
                              bool any_flops) {
  // Say so where the header shows with_flops: its FLOPs were counted but not exported.
  const auto flag = doc.find("with_flops");
  const bool with_flops = flag != doc.end() && ((flag->is_boolean() && flag->get<bool>()) ||
                                                (flag->is_number() && flag->get<double>() != 0));
  std::string calls;
  for (const auto& [name, n] : counted.calls)
    calls += (calls.empty() ? "" : ", ") + std::to_string(n) + " " + name;
  return file + (with_flops ? ": profiled with with_flops=True, but" : ":") +
         " no operator carries \"flops\" (PyTorch's trace export writes none; its FLOPs reach "
         "key_averages() only): " +
         (any_flops ? "FLOPs from Input Dims (as torch.utils.flop_counter and the profiler's "
                      "computeFlops count them, the bias of addmm not counted) of " +
                          calls
                    : std::string(counted.shapes ? "no operator's \"Input Dims\" give FLOPs either"
                                                 : "no operator has \"Input Dims\" either "
                                                   "(record_shapes=True records them)") +
                          " (FLOPs are counted for " + counted_operators() +
                          "): kernels have times only");
}

void add_notes(const Counted& counted, const Attributed& a, const std::string& file,
               Timing& timing) {
  // Operators the table lists whose shapes gave no count: the first few reasons.
  std::size_t shown = 0;
  int more = 0;
  for (const auto& [key, n] : counted.refused) {
    if (shown++ >= 5) {
      more += n;
      continue;
    }
    timing.notes.push_back(file + ": no FLOPs for " + std::to_string(n) + " call(s) of " +
                           core::quoted(key.first) + ": " + key.second);
  }
  if (more > 0)
    timing.notes.push_back(file + ": no FLOPs for " + std::to_string(more) +
                           " more call(s) whose shapes gave no count");
  for (const auto& [name, n] : counted.nested)
    timing.notes.push_back(file + ": " + std::to_string(n) + " call(s) of " + core::quoted(name) +
                           " left uncounted: the operators nested in them hold their FLOPs");
  for (const auto& [name, calls] : a.operators)
    timing.notes.push_back(file + ": the FLOPs of " +
                           core::quoted(name.substr(std::string_view(kOperatorPrefix).size())) +
                           " span several kernels per call: " + core::quoted(name) +
                           " holds them with the summed time of its kernels (" +
                           std::to_string(calls) + " call(s))");
  if (a.untyped)
    timing.notes.push_back(file +
                           ": FLOPs of operators whose first input is no "
                           "floating type (\"Input type\") not given to any kernel");
  for (const std::string& name : a.partial)
    timing.notes.push_back(file + ": " + core::quoted(name) +
                           " has FLOPs for only some launches: its FLOPs left out");
}

// A CPU run: operators and no device kernels. Each operator call is one launch of a record
// named by the operator and the shapes of its tensor inputs ("aten::addmm (1000, 5x512,
// 512x1000)"), so that calls of one name and shapes are summed. Its time is its self time,
// its duration less the durations of the operators nested in it on its thread; an operator
// with FLOPs (counted as above) also holds the self time of every operator nested in it (the
// work of aten::conv2d is done by the aten::mkldnn_convolution under it), and those are no
// records of their own. Its bytes are the compulsory traffic of its inputs ("Input Dims"
// elements by the size of their "Input type") and of its output where its shape follows
// from the inputs (operator_flops.cpp: a GEMM's M·N per batch, a convolution's from its
// input, weight, stride, padding and dilation, an elementwise operator's broadcast shape, a
// per-element one's (relu, softmax, the norms) its first input's),
// at the size of the first input's type: a lower bound, nothing read or written twice. An
// operator without FLOPs (no formula, or no shapes) has a time
// and a name only: its FLOPs unknown, it is listed, not placed.


// The records of a CPU run, the longest self time first; whether any operator had no
// floating type for its FLOPs.
bool build_cpu(const Events& ev, Timing& timing) {
  const std::vector<Op>& ops = ev.ops;
  const std::vector<int> holder = holders(ops);
  const std::vector<double> seconds = held_seconds(ops, holder);
  bool untyped = false;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (holder[i] != static_cast<int>(i)) continue;
    const Op& op = ops[i];
    const Inputs in = inputs_of(*op.args);
    const std::string name = in.shapes.empty() ? op.name : op.name + " (" + in.shapes + ")";
    timing.add_launch(name, seconds[i]);
    if (op.flops <= 0.0) continue;
    if (op.precision.empty()) {
      untyped = true;
      continue;
    }
    TimingEntry& e = timing.entry(name);
    e.flops[op.precision] += op.flops;
    const double bytes = in.bytes + op.outputs * element_bytes(first_type(*op.args));
    if (bytes <= 0.0) continue;
    // The level is the one its working set fits: core::settle_compulsory_bytes decides,
    // against the ceilings file's caches.
    if (e.bytes.empty()) e.bytes.emplace_back("dram", 0.0, core::kCompulsory);
    e.bytes.front().bytes += bytes;
  }
  // The longest first: a program's few heavy operators head the table, above the many
  // light ones it calls once.
  std::stable_sort(timing.entries.begin(), timing.entries.end(),
                   [](const TimingEntry& x, const TimingEntry& y) { return x.total > y.total; });
  timing.by_name.clear();
  for (std::size_t i = 0; i < timing.entries.size(); ++i) timing.by_name[timing.entries[i].name] = i;
  return untyped;
}

std::string cpu_note(const std::string& file, const Counted& counted) {
  return file +
         ": no device kernels: a CPU run, each operator a record by name and input shapes, "
         "timed by its self time (its duration less its nested operators'; an operator with "
         "FLOPs holds the time of the operators nested in it); bytes are the compulsory "
         "traffic of its inputs (\"Input Dims\" by \"Input type\") and of its output where "
         "its shape follows from them (GEMMs, convolutions, elementwise operators), a lower "
         "bound: nothing read or written twice" +
         (counted.shapes ? std::string()
                         : std::string("; no operator has \"Input Dims\": FLOPs need shapes, so "
                                       "operators have times and names only (record_shapes="
                                       "True; PyTorch's legacy layout, a JSON list, writes "
                                       "none even then: `rooftop profile --torch` runs the "
                                       "program and writes them)"));
}

// Where the FLOPs came from where operators carry the trace's own "flops".
std::string given_note(const std::string& file, const Counted& counted) {
  int ours = 0;
  for (const auto& [name, n] : counted.calls) ours += n;
  return file + ": FLOPs of " + std::to_string(counted.given) +
         " operator call(s) are the trace's own \"flops\" (PyTorch's with_flops count)" +
         (ours > 0 ? "; of " + std::to_string(ours) +
                         " more, which PyTorch counts none for, from their Input Dims"
                   : std::string());
}

Timing times(const Input& file) {
  const json doc = parse_trace(file);
  const Events ev = read_events(doc, file.name);
  const Counted& counted = ev.counted;

  Timing timing;
  timing.file = file.name;
  if (ev.kernels.empty() && !ev.ops.empty()) {
    timing.kind = "PyTorch profiler operator self times (CPU)";
    Attributed a;
    a.untyped = build_cpu(ev, timing);
    timing.notes.push_back(cpu_note(file.name, counted));
    if (counted.given > 0) timing.notes.push_back(given_note(file.name, counted));
    add_notes(counted, a, file.name, timing);
    return timing;
  }
  timing.kind = "PyTorch profiler kernel durations";
  const Attributed a = build(ev, timing);
  bool any_flops = false;
  for (const Op& op : ev.ops) any_flops = any_flops || op.flops > 0.0;
  timing.notes.push_back(counted.given > 0
                             ? given_note(file.name, counted)
                             : flops_source_note(doc, file.name, counted, any_flops));
  add_notes(counted, a, file.name, timing);
  return timing;
}

Reading read(const Input& file, const Timing* given) {
  const Timing timing = times(file);
  return timed_reading(timing, "pytorch-trace", "pytorch-import", given);
}

}  // namespace

Reader pytorch_trace_reader() {
  return {kPytorchTraceFamily, looks_like_pytorch_trace, read, times, true};
}

}  // namespace rooftop::counters::importing
