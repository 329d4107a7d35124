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
// (operator_flops.cpp, one table); aten::linear and aten::matmul, whose work is that of the
// operators they call, keep no count where an operator nested in them has one.
// Kernels are summed by name. An operator's FLOPs go to the kernel it launched (itself or
// through the operators nested in it) where it launched exactly one per call, in the
// precision of its first input ("float" fp32, "double" fp64, Half fp16, BFloat16 fp16 as
// well: a record has no bf16 FLOPs, and a note says so); a kernel gets FLOPs only where
// every launch of it got them. An operator that launched several kernels per call gets a
// record of its own, "[operator] NAME": the summed time of the kernels of each call, and
// its FLOPs. Without bytes a kernel has no arithmetic intensity: with FLOPs it is placed
// by achieved FLOP/s against the compute roofs, and an Nsight Compute report of the same
// run, given with it, adds the counts.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "operator_flops.hpp"
#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
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
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
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

// The "Input type" of an operator's first input.
std::string first_type(const json& args) {
  const auto it = args.find("Input type");
  if (it == args.end() || !it->is_array() || it->empty() || !(*it)[0].is_string()) return {};
  return (*it)[0].get<std::string>();
}

// The precision of an operator's first input; empty where it is no floating type.
std::string precision_of(const json& args) {
  const std::string t = first_type(args);
  if (t == "float") return "fp32";
  if (t == "double") return "fp64";
  if (t.find("Half") != std::string::npos || t.find("BFloat16") != std::string::npos) return "fp16";
  return {};
}

struct Op {
  std::string name, precision;
  double ts = 0, end = 0, flops = 0;
  long long pid = 0, tid = 0;
  int parent = -1;
  int launches = 0;  // kernels launched under it, counted on the operator that has FLOPs
  const json* args = nullptr;
};

// What counting operators' FLOPs from their shapes came to, for the notes.
struct Counted {
  std::map<std::string, int> calls;                            // operator -> calls counted
  std::map<std::pair<std::string, std::string>, int> refused;  // (operator, why) -> calls
  std::map<std::string, int> nested;  // operator -> calls left to nested ones
  bool shapes = false;                // some operator has "Input Dims" (record_shapes=True)
};

// Each operator's FLOPs from its "Input Dims"; then a composite (aten::linear, aten::matmul)
// with a counted operator nested in it keeps none of its own.
Counted count_from_shapes(std::vector<Op>& ops) {
  Counted c;
  std::vector<bool> counted(ops.size(), false), composite(ops.size(), false);
  for (const Op& op : ops) c.shapes = c.shapes || op.args->contains("Input Dims");
  if (!c.shapes) return c;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const ShapeFlops f = shape_flops(ops[i].name, *ops[i].args);
    if (!f.listed) continue;
    if (!f.flops) {
      ++c.refused[{ops[i].name, f.refused}];
      continue;
    }
    ops[i].flops = *f.flops;
    counted[i] = *f.flops > 0.0;
    composite[i] = f.composite;
  }
  std::vector<bool> covering(ops.size(), false);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!counted[i]) continue;
    int p = ops[i].parent;
    for (int hops = 0; p >= 0 && !covering[p] && hops < 1000; ++hops) {
      covering[p] = true;
      p = ops[p].parent;
    }
  }
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (covering[i] && counted[i] && composite[i]) {
      ops[i].flops = 0.0;
      ++c.nested[ops[i].name];
    } else if (counted[i]) {
      ++c.calls[ops[i].name];
    }
  }
  return c;
}

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
    throw Error(file.name + ": not a readable JSON trace (" + core::quoted(what) + ")");
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
      Op op{string_of(e, "name"),
            precision_of(args),
            *ts,
            *ts + *dur,
            number(args, "flops").value_or(0.0),
            0,
            0,
            -1,
            0};
      op.args = &args;
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
    while (!stack.empty() &&
           (ops[stack.back()].pid != ops[i].pid || ops[stack.back()].tid != ops[i].tid ||
            ops[stack.back()].end < ops[i].end))
      stack.pop_back();
    ops[i].parent = stack.empty() ? -1 : stack.back();
    stack.push_back(i);
  }
  bool given = false;  // the trace's own "flops"
  for (const Op& op : ops) given = given || op.flops > 0.0;
  const Counted counted = given ? Counted{} : count_from_shapes(ops);

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
  std::map<int, double> spread;  // operator calls that launched several kernels: their time
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
  bool any_flops = false, bf16 = false;
  for (const Op& op : ops) {
    any_flops = any_flops || op.flops > 0.0;
    bf16 = bf16 || (op.flops > 0.0 && first_type(*op.args).find("BFloat16") != std::string::npos);
  }
  std::vector<std::string> partial;
  for (TimingEntry& e : timing.entries) {
    const auto a = attributed.find(e.name);
    if (a != attributed.end() && a->second != e.calls) {
      e.flops.clear();
      partial.push_back(e.name);
    }
  }
  if (!given) {
    // Say so where the header shows with_flops: its FLOPs were counted but not exported.
    const auto flag = doc.find("with_flops");
    const bool with_flops = flag != doc.end() && ((flag->is_boolean() && flag->get<bool>()) ||
                                                  (flag->is_number() && flag->get<double>() != 0));
    std::string calls;
    for (const auto& [name, n] : counted.calls)
      calls += (calls.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    timing.notes.push_back(
        file.name + (with_flops ? ": profiled with with_flops=True, but" : ":") +
        " no operator carries \"flops\" (PyTorch's trace export writes none; its FLOPs reach "
        "key_averages() only): " +
        (any_flops ? "FLOPs from Input Dims (as torch.utils.flop_counter and the profiler's "
                     "computeFlops count them, the bias of addmm not counted) of " +
                         calls
                   : std::string(counted.shapes ? "no operator's \"Input Dims\" give FLOPs either"
                                                : "no operator has \"Input Dims\" either "
                                                  "(record_shapes=True records them)") +
                         " (FLOPs are counted for " + counted_operators() +
                         "): kernels have times only"));
  }
  // Operators the table lists whose shapes gave no count: the first few reasons.
  std::size_t shown = 0;
  int more = 0;
  for (const auto& [key, n] : counted.refused) {
    if (shown++ >= 5) {
      more += n;
      continue;
    }
    timing.notes.push_back(file.name + ": no FLOPs for " + std::to_string(n) + " call(s) of " +
                           core::quoted(key.first) + ": " + key.second);
  }
  if (more > 0)
    timing.notes.push_back(file.name + ": no FLOPs for " + std::to_string(more) +
                           " more call(s) whose shapes gave no count");
  for (const auto& [name, n] : counted.nested)
    timing.notes.push_back(file.name + ": " + std::to_string(n) + " call(s) of " +
                           core::quoted(name) +
                           " left uncounted: the operators nested in them hold their FLOPs");
  if (bf16)
    timing.notes.push_back(file.name +
                           ": bfloat16 FLOPs are counted as fp16 (a record has "
                           "fp64, fp32 and fp16 FLOPs, no bf16)");
  for (const auto& [name, calls] : operators)
    timing.notes.push_back(file.name + ": the FLOPs of " +
                           core::quoted(name.substr(std::string_view(kOperatorPrefix).size())) +
                           " span several kernels per call: " + core::quoted(name) +
                           " holds them with the summed time of its kernels (" +
                           std::to_string(calls) + " call(s))");
  if (untyped)
    timing.notes.push_back(file.name +
                           ": FLOPs of operators whose first input is no "
                           "floating type (\"Input type\") not given to any kernel");
  for (const std::string& name : partial)
    timing.notes.push_back(file.name + ": " + core::quoted(name) +
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
