// The events of a PyTorch profiler trace, as its readers share them (pytorch_events.hpp).

#include "pytorch_events.hpp"

#include <algorithm>
#include <cctype>

#include "operator_flops.hpp"
#include "rooftop/core/error.hpp"
#include "trace_json.hpp"

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;

// The event as a scope where its name names a layer.
void add_scope(const json& e, std::vector<Scope>& scopes) {
  const auto layer = layer_index(string_of(e, "name"));
  const auto ts = number(e, "ts"), dur = number(e, "dur");
  if (!layer || !ts || !dur) return;
  Scope s{*layer, *ts, *ts + *dur, 0, 0};
  if (const auto p = id_of(e, "pid")) s.pid = *p;
  if (const auto t = id_of(e, "tid")) s.tid = *t;
  scopes.push_back(s);
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Each operator's FLOPs, given or counted from its shapes (read_events says which).
Counted count_from_shapes(std::vector<Op>& ops) {
  Counted c;
  std::vector<bool> counted(ops.size(), false), composite(ops.size(), false);
  for (const Op& op : ops) c.shapes = c.shapes || op.args->contains("Input Dims");
  // The operators covered by the trace's own "flops": those carrying them, and the
  // operators they nest in or that nest in them.
  std::vector<bool> given(ops.size(), false);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].flops <= 0.0) continue;
    ++c.given;
    given[i] = true;
    ops[i].outputs = shape_flops(ops[i].name, *ops[i].args).outputs.value_or(0.0);
    for (int p = ops[i].parent, hops = 0; p >= 0 && hops < 1000; p = ops[p].parent, ++hops)
      given[p] = true;
  }
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (int p = ops[i].parent, hops = 0; p >= 0 && !given[i] && hops < 1000;
         p = ops[p].parent, ++hops)
      given[i] = ops[p].flops > 0.0;
  if (!c.shapes) return c;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (given[i]) continue;
    const ShapeFlops f = shape_flops(ops[i].name, *ops[i].args);
    if (!f.listed) continue;
    if (!f.flops) {
      ++c.refused[{ops[i].name, f.refused}];
      continue;
    }
    ops[i].flops = *f.flops;
    ops[i].outputs = f.outputs.value_or(0.0);
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

// The operators, kernels, launches and layer scopes of "traceEvents".
Events collect(const json& events, const std::string& file) {
  Events out;
  std::size_t index = 0;
  for (const json& e : events) {
    ++index;
    if (!e.is_object() || string_of(e, "ph") != "X") continue;
    const std::string cat = category(e);
    const json& args = args_of(e);
    if (cat == "kernel") {
      const auto dur = number(e, "dur");
      const std::string name = string_of(e, "name");
      if (!dur || name.empty())
        throw Error(file + ": trace event " + std::to_string(index) +
                    " (a kernel) has no name or no duration in microseconds");
      out.kernels.push_back(
          {name, *dur * 1e-6, id_of(args, "External id"), id_of(args, "correlation"), -1, -1});
    } else if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime") {
      // A launch (cudaLaunchKernel, or cuLaunchKernel for Triton's and other kernels
      // launched through the driver API): its kernel's External id, by correlation.
      const auto c = id_of(args, "correlation"), x = id_of(args, "External id");
      if (c && x) out.external_by_correlation[*c] = *x;
    } else if (cat == "user_annotation" || cat == "python_function") {
      add_scope(e, out.scopes);
    } else if (cat == "cpu_op" || cat == "operator" ||
               (cat.empty() && string_of(e, "pid") == kLegacyOperators)) {
      const auto ts = number(e, "ts"), dur = number(e, "dur");
      if (!ts || !dur) continue;
      add_scope(e, out.scopes);  // the legacy layout's record_function ranges are operators
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
      if (const auto x = id_of(args, "External id"))
        out.op_by_external[*x] = static_cast<int>(out.ops.size());
      out.ops.push_back(std::move(op));
    }
  }
  return out;
}

// Each operator's parent: the innermost operator of its thread enclosing it.
void nest(std::vector<Op>& ops) {
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
}

// Each kernel's launcher and its operator with FLOPs.
void attribute(Events& ev) {
  for (Kernel& k : ev.kernels) {
    auto x = k.external;
    if (!x && k.correlation)
      if (const auto it = ev.external_by_correlation.find(*k.correlation);
          it != ev.external_by_correlation.end())
        x = it->second;
    if (!x) continue;
    const auto it = ev.op_by_external.find(*x);
    if (it == ev.op_by_external.end()) continue;
    k.launcher = it->second;
    int op = it->second;
    for (int hops = 0; op >= 0 && ev.ops[op].flops <= 0.0 && hops < 1000; ++hops)
      op = ev.ops[op].parent;
    if (op >= 0 && ev.ops[op].flops > 0.0) {
      k.op = op;
      ++ev.ops[op].launches;
    }
  }
}

}  // namespace

Events read_events(const nlohmann::json& doc, const std::string& file) {
  Events ev = collect(trace_events(doc, file), file);
  nest(ev.ops);
  ev.counted = count_from_shapes(ev.ops);
  attribute(ev);
  return ev;
}

std::optional<int> layer_index(std::string_view name) {
  std::size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  if (digits == name.size() || name.size() - digits > 6) return std::nullopt;
  const int index = std::stoi(std::string(name.substr(digits)));
  std::string_view word = name.substr(0, digits);
  // with_stack's modules: "nn.Module: <Class>_<instance>", a class of decoder layers.
  if (word.rfind("nn.Module: ", 0) == 0) {
    if (!ends_with(word, "_")) return std::nullopt;
    word.remove_suffix(1);
    return ends_with(word, "Layer") || ends_with(word, "Block") ? std::optional<int>(index)
                                                                : std::nullopt;
  }
  const bool separated =
      !word.empty() && (word.back() == '.' || word.back() == '_' || word.back() == ' ');
  if (separated) word.remove_suffix(1);
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"layers", "layer", "blocks", "block"})
    if (ends_with(lower, w) && (lower.size() == w.size() ||
                                !std::isalpha(static_cast<unsigned char>(lower[lower.size() - w.size() - 1]))))
      return index;
  // GPT-2's modules: transformer.h.3
  if (separated && (word == "h" || ends_with(word, ".h"))) return index;
  return std::nullopt;
}

double element_bytes(const std::string& type) {
  static const std::pair<std::string_view, double> kSizes[] = {
      {"float", 4},     {"double", 8},     {"c10::Half", 2},   {"c10::BFloat16", 2},
      {"long int", 8},  {"int", 4},        {"short int", 2},   {"signed char", 1},
      {"unsigned char", 1}, {"bool", 1},   {"c10::complex<float>", 8},
      {"c10::complex<double>", 16},
  };
  for (const auto& [name, size] : kSizes)
    if (type == name) return size;
  return type.find("Float8_") != std::string::npos ? 1.0 : 0.0;
}

Inputs inputs_of(const json& args) {
  Inputs in;
  const auto dims = args.find("Input Dims"), types = args.find("Input type");
  if (dims == args.end() || !dims->is_array()) return in;
  for (std::size_t i = 0; i < dims->size(); ++i) {
    const json& shape = (*dims)[i];
    const std::string type = types != args.end() && types->is_array() && i < types->size() &&
                                     (*types)[i].is_string()
                                 ? (*types)[i].get<std::string>()
                                 : std::string();
    const double size = element_bytes(type);
    if (!shape.is_array() || (shape.empty() && size == 0.0)) continue;
    std::string text;
    double elements = 1.0;
    for (const json& d : shape) {
      if (!d.is_number_integer() || d.get<long long>() < 0) return {};
      elements *= d.get<double>();
      text += (text.empty() ? "" : "x") + std::to_string(d.get<long long>());
    }
    in.dims.emplace_back();
    for (const json& d : shape) in.dims.back().push_back(d.get<long long>());
    in.shapes += (in.shapes.empty() ? "" : ", ") + (text.empty() ? std::string("scalar") : text);
    in.bytes += elements * size;
  }
  return in;
}

std::vector<int> holders(const std::vector<Op>& ops) {
  std::vector<int> holder(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    int h = static_cast<int>(i);
    int p = ops[i].parent;
    for (int hops = 0; p >= 0 && hops < 1000; ++hops, p = ops[p].parent)
      if (ops[p].flops > 0.0) h = p;
    holder[i] = h;
  }
  return holder;
}

std::vector<double> held_seconds(const std::vector<Op>& ops, const std::vector<int>& holder) {
  std::vector<double> self(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) self[i] = ops[i].end - ops[i].ts;
  for (const Op& op : ops)
    if (op.parent >= 0) self[op.parent] -= op.end - op.ts;
  std::vector<double> seconds(ops.size(), 0.0);
  for (std::size_t i = 0; i < ops.size(); ++i)
    seconds[holder[i]] += std::max(0.0, self[i]) * 1e-6;
  return seconds;
}

std::vector<int> enclosing_scopes(const std::vector<Op>& ops, const std::vector<Scope>& scopes) {
  // Scopes and operators in one order per thread (a scope before an operator that starts
  // with it), then a stack of the scopes open at each operator.
  struct Item {
    long long pid, tid;
    double ts, end;
    int scope, op;  // one of them -1
  };
  std::vector<Item> items;
  for (std::size_t i = 0; i < scopes.size(); ++i)
    items.push_back({scopes[i].pid, scopes[i].tid, scopes[i].ts, scopes[i].end,
                     static_cast<int>(i), -1});
  for (std::size_t i = 0; i < ops.size(); ++i)
    items.push_back({ops[i].pid, ops[i].tid, ops[i].ts, ops[i].end, -1, static_cast<int>(i)});
  std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
    if (x.pid != y.pid) return x.pid < y.pid;
    if (x.tid != y.tid) return x.tid < y.tid;
    if (x.ts != y.ts) return x.ts < y.ts;
    if (x.end != y.end) return x.end > y.end;
    return x.scope > y.scope;
  });
  std::vector<int> out(ops.size(), -1);
  std::vector<const Item*> open;
  for (const Item& it : items) {
    while (!open.empty() && (open.back()->pid != it.pid || open.back()->tid != it.tid ||
                             open.back()->end < it.end))
      open.pop_back();
    if (it.scope >= 0)
      open.push_back(&it);
    else
      out[it.op] = open.empty() ? -1 : open.front()->scope;
  }
  return out;
}

}  // namespace rooftop::counters::importing
