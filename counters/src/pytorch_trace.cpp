// PyTorch profiler traces (`prof.export_chrome_trace("trace.json")`, `.json.gz` through
// gzip.hpp; tensorboard_trace_handler's files alike): a JSON object whose "traceEvents"
// are Chrome trace events. Read:
//   cat "kernel"        a device kernel: name, dur (microseconds), args "External id"
//                       (the operator that launched it) and "correlation"
//   cat "cuda_runtime"  the launch: args "correlation" and "External id", for a kernel
//                       whose own args lack the external id
//   cat "cpu_op"        an operator: name, ts, dur, pid, tid, args "External id", "Input
//                       type", and "flops" where a tool has added them (PyTorch's own
//                       export writes none, with_flops=True or not: it marks the profile
//                       "with_flops" in the trace's header and keeps the counts to itself)
// Kernels are summed by name. An operator's FLOPs go to the kernel it launched (itself or
// through the operators nested in it) where it launched exactly one per call, in the
// precision of its first input ("float" fp32, "double" fp64, Half/BFloat16 fp16); a
// kernel gets FLOPs only where every launch of it got them. An operator that launched
// several kernels per call gets a record of its own, "[operator] NAME": the summed time of
// the kernels of each call, and its FLOPs. Without bytes a kernel has no arithmetic
// intensity: with FLOPs it is placed by achieved FLOP/s against the compute roofs, and an
// Nsight Compute report of the same run, given with it, adds the counts.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;

// The name of the record of an operator whose FLOPs span several kernels. It starts with
// '[', as nvprof's copies do, so that no kernel name of a report is taken for it.
constexpr const char* kOperatorPrefix = "[operator] ";

// Chrome traces nest a few levels (the event, its args, a list of shapes); more is hostile.
constexpr int kMaxDepth = 64;

bool detect(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return false;
  return text.substr(0, std::size_t{1} << 20).find("\"traceEvents\"") != std::string_view::npos;
}

// Refuses nesting deeper than kMaxDepth before the parser sees it.
void check_depth(std::string_view text, const std::string& name) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth)
        throw Error(name + ": JSON nested deeper than " + std::to_string(kMaxDepth) +
                    " levels: not a profiler trace");
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

std::string lower_cat(const json& e) {
  const auto it = e.find("cat");
  return it != e.end() && it->is_string() ? lower(it->get<std::string>()) : std::string();
}

// A finite non-negative number of `e` (or of its args), else empty.
std::optional<double> number(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0.0) return std::nullopt;
  return v;
}

std::optional<long long> id_of(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<long long>();
}

const json& args_of(const json& e) {
  static const json none = json::object();
  const auto it = e.find("args");
  return it != e.end() && it->is_object() ? *it : none;
}

std::string string_of(const json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The precision of an operator's first input; empty where it is no floating type.
std::string precision_of(const json& args) {
  const auto it = args.find("Input type");
  if (it == args.end() || !it->is_array() || it->empty() || !(*it)[0].is_string()) return {};
  const std::string t = (*it)[0].get<std::string>();
  if (t == "float") return "fp32";
  if (t == "double") return "fp64";
  if (t.find("Half") != std::string::npos || t.find("BFloat16") != std::string::npos)
    return "fp16";
  return {};
}

struct Op {
  std::string name, precision;
  double ts = 0, end = 0, flops = 0;
  long long pid = 0, tid = 0;
  int parent = -1;
  int launches = 0;  // kernels launched under it, counted on the operator that has FLOPs
};

struct Kernel {
  std::string name;
  double seconds = 0;
  int op = -1;  // the operator with FLOPs it belongs to, else -1
};

Timing times(const Input& file) {
  check_depth(file.text, file.name);
  json doc;
  try {
    doc = json::parse(file.text.begin(), file.text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    throw Error(file.name + ": not a readable JSON trace (" + in_quotes(what) + ")");
  }
  const auto events = doc.find("traceEvents");
  if (events == doc.end() || !events->is_array())
    throw Error(file.name + ": no \"traceEvents\" array: not a PyTorch profiler trace");

  std::vector<Op> ops;
  std::map<long long, int> op_by_external;
  std::map<long long, long long> external_by_correlation;
  std::vector<std::pair<const json*, std::size_t>> kernel_events;
  std::size_t index = 0;
  for (const json& e : *events) {
    ++index;
    if (!e.is_object() || string_of(e, "ph") != "X") continue;
    const std::string cat = lower_cat(e);
    const json& args = args_of(e);
    if (cat == "kernel") {
      kernel_events.emplace_back(&e, index);
    } else if (cat == "cuda_runtime" || cat == "runtime") {
      const auto c = id_of(args, "correlation"), x = id_of(args, "External id");
      if (c && x) external_by_correlation[*c] = *x;
    } else if (cat == "cpu_op" || cat == "operator") {
      const auto ts = number(e, "ts"), dur = number(e, "dur");
      const auto x = id_of(args, "External id");
      if (!ts || !dur) continue;
      Op op{string_of(e, "name"), precision_of(args), *ts, *ts + *dur,
            number(args, "flops").value_or(0.0), 0, 0, -1, 0};
      if (const auto p = id_of(e, "pid")) op.pid = *p;
      if (const auto t = id_of(e, "tid")) op.tid = *t;
      if (x) op_by_external[*x] = static_cast<int>(ops.size());
      ops.push_back(std::move(op));
    }
  }
  // Each operator's parent: the innermost operator of its thread enclosing it.
  std::vector<int> order(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Op &x = ops[a], &y = ops[b];
    if (x.pid != y.pid) return x.pid < y.pid;
    if (x.tid != y.tid) return x.tid < y.tid;
    if (x.ts != y.ts) return x.ts < y.ts;
    return x.end > y.end;
  });
  std::vector<int> stack;
  for (int i : order) {
    while (!stack.empty() && (ops[stack.back()].pid != ops[i].pid ||
                              ops[stack.back()].tid != ops[i].tid || ops[stack.back()].end < ops[i].end))
      stack.pop_back();
    ops[i].parent = stack.empty() ? -1 : stack.back();
    stack.push_back(i);
  }

  std::vector<Kernel> kernels;
  for (const auto& [e, at_index] : kernel_events) {
    const auto dur = number(*e, "dur");
    const std::string name = string_of(*e, "name");
    if (!dur || name.empty())
      throw Error(file.name + ": trace event " + std::to_string(at_index) +
                  " (a kernel) has no name or no duration in microseconds");
    Kernel k{name, *dur * 1e-6, -1};
    const json& args = args_of(*e);
    auto x = id_of(args, "External id");
    if (!x)
      if (const auto c = id_of(args, "correlation"))
        if (const auto it = external_by_correlation.find(*c); it != external_by_correlation.end())
          x = it->second;
    if (x)
      if (const auto it = op_by_external.find(*x); it != op_by_external.end()) {
        int op = it->second;
        for (int hops = 0; op >= 0 && ops[op].flops <= 0.0 && hops < 1000; ++hops)
          op = ops[op].parent;
        if (op >= 0 && ops[op].flops > 0.0) {
          k.op = op;
          ++ops[op].launches;
        }
      }
    kernels.push_back(std::move(k));
  }

  Timing timing;
  timing.file = file.name;
  timing.kind = "PyTorch profiler kernel durations";
  std::map<std::string, int> attributed;  // launches per kernel name that got FLOPs
  std::map<int, double> spread;           // operator calls that launched several kernels: their time
  bool untyped = false;
  for (const Kernel& k : kernels) {
    timing.add_launch(k.name, k.seconds);
    if (k.op < 0) continue;
    const Op& op = ops[k.op];
    if (op.launches != 1) {
      spread[k.op] += k.seconds;
      continue;
    }
    if (op.precision.empty()) {
      untyped = true;
      continue;
    }
    timing.entry(k.name).flops[op.precision] += op.flops;
    ++attributed[k.name];
  }
  // Each call of an operator whose FLOPs span several kernels: one launch of its own record.
  std::map<std::string, int> operators;  // record name -> calls
  for (const auto& [index, seconds] : spread) {
    const Op& op = ops[index];
    if (op.precision.empty()) {
      untyped = true;
      continue;
    }
    const std::string name = std::string(kOperatorPrefix) + op.name;
    timing.add_launch(name, seconds);
    timing.entry(name).flops[op.precision] += op.flops;
    ++operators[name];
  }
  bool any_flops = false;
  for (const Op& op : ops) any_flops = any_flops || op.flops > 0.0;
  std::vector<std::string> partial;
  for (TimingEntry& e : timing.entries) {
    const auto a = attributed.find(e.name);
    if (a != attributed.end() && a->second != e.calls) {
      e.flops.clear();
      partial.push_back(e.name);
    }
  }
  if (!any_flops) {
    // Say so where the header shows with_flops: its FLOPs were counted but not exported.
    const auto flag = doc.find("with_flops");
    const bool with_flops = flag != doc.end() && ((flag->is_boolean() && flag->get<bool>()) ||
                                                  (flag->is_number() && flag->get<double>() != 0));
    timing.notes.push_back(file.name + (with_flops ? ": profiled with with_flops=True, but" : ":") +
                           " no operator carries \"flops\" (PyTorch's trace export writes none; "
                           "its FLOPs reach key_averages() only): kernels have times only");
  }
  for (const auto& [name, calls] : operators)
    timing.notes.push_back(file.name + ": the FLOPs of " +
                           in_quotes(name.substr(std::string_view(kOperatorPrefix).size())) +
                           " span several kernels per call: " + in_quotes(name) +
                           " holds them with the summed time of its kernels (" +
                           std::to_string(calls) + " call(s))");
  if (untyped)
    timing.notes.push_back(file.name + ": FLOPs of operators whose first input is no "
                                       "floating type (\"Input type\") not given to any kernel");
  for (const std::string& name : partial)
    timing.notes.push_back(file.name + ": " + in_quotes(name) +
                           " has FLOPs for only some launches: its FLOPs left out");
  return timing;
}

Reading read(const Input& file, const Timing* given) {
  const Timing timing = times(file);
  return timed_reading(timing, "pytorch-trace", "pytorch-import", given);
}

}  // namespace

Reader pytorch_trace_reader() { return {"PyTorch profiler trace", detect, read, times, true}; }

}  // namespace rooftop::counters::importing
