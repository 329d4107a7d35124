// Each operator call of a PyTorch profiler trace, with its time and layer (import.hpp's
// read_operator_calls): what a model's prediction is joined to call by call, where the
// import's records sum the calls of one kernel or one name and shapes.

#include <string>
#include <vector>

#include "pytorch_events.hpp"
#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/counters/import.hpp"
#include "trace_json.hpp"

namespace rooftop::counters {
namespace {

// Past this a dimension is no tensor's: the name is not one pytorch_trace.cpp wrote.
constexpr long long kLargestDimension = 1LL << 40;

}  // namespace

core::OperatorCall operator_call_of(const core::KernelRecord& record) {
  core::OperatorCall call;
  call.name = record.name;
  call.seconds = record.time_s;
  call.flops = record.flops();
  // "aten::mm (128x4096, 4096x14336)": inputs split at ", ", dimensions at 'x'; "scalar"
  // (no digits) an empty shape.
  const std::string& name = record.name;
  const std::size_t open = name.find(" (");
  if (open == std::string::npos || name.back() != ')') return call;
  std::vector<std::vector<long long>> shapes(1);
  long long value = 0;
  bool digits = false;
  for (std::size_t i = open + 2; i + 1 < name.size(); ++i) {
    const char c = name[i];
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      digits = true;
      if (value > kLargestDimension) return call;
      continue;
    }
    if (digits) shapes.back().push_back(value);
    value = 0;
    digits = false;
    if (c == ',') shapes.emplace_back();
  }
  if (digits) shapes.back().push_back(value);
  call.name = name.substr(0, open);
  call.shapes = std::move(shapes);
  return call;
}

importing::OpenedFile open_pytorch_trace(const ReportFile& trace, const std::string& lacks) {
  importing::OpenedFile file = importing::open_file({trace.text, trace.name});
  const std::string_view want = importing::kPytorchTraceFamily;
  if (file.reader->family != want)
    throw Error(trace.name + ": read as " + file.reader->family + ", not a " + std::string(want) +
                " (torch.profiler's export_chrome_trace): " + lacks);
  return file;
}

OperatorCalls read_operator_calls(const ReportFile& trace) {
  const importing::OpenedFile file = open_pytorch_trace(trace, "it holds no operator calls");
  const nlohmann::json doc = importing::parse_trace(file.input());
  const importing::Events ev = importing::read_events(doc, trace.name);
  const std::vector<int> holder = importing::holders(ev.ops);
  const std::vector<int> scope = importing::enclosing_scopes(ev.ops, ev.scopes);

  OperatorCalls out;
  out.device = !ev.kernels.empty();
  out.scopes = static_cast<int>(ev.scopes.size());
  std::vector<double> seconds;
  std::vector<bool> launched(ev.ops.size(), false);
  if (out.device) {
    seconds.assign(ev.ops.size(), 0.0);
    double unattributed = 0;
    int orphans = 0;
    for (const importing::Kernel& k : ev.kernels) {
      if (k.launcher < 0) {
        unattributed += k.seconds;
        ++orphans;
        continue;
      }
      seconds[holder[k.launcher]] += k.seconds;
      launched[holder[k.launcher]] = true;
    }
    if (orphans > 0)
      out.notes.push_back(trace.name + ": " + std::to_string(orphans) + " kernel(s), " +
                          core::significant(unattributed * 1e3) + " ms" +
                          " launched by no operator of the trace: in no call");
  } else {
    seconds = importing::held_seconds(ev.ops, holder);
  }
  for (std::size_t i = 0; i < ev.ops.size(); ++i) {
    if (holder[i] != static_cast<int>(i) || (out.device && !launched[i])) continue;
    const importing::Op& op = ev.ops[i];
    core::OperatorCall call;
    call.name = op.name;
    call.shapes = importing::inputs_of(*op.args).dims;
    call.seconds = seconds[i];
    call.flops = op.flops;
    if (scope[i] >= 0) {
      call.scope = scope[i];
      call.layer = ev.scopes[scope[i]].layer;
    }
    out.calls.push_back(std::move(call));
  }
  out.notes.push_back(trace.name + ": " + std::to_string(out.calls.size()) + " operator call(s)" +
                      (out.device ? ", each timed by the device kernels launched under it"
                                  : ", each timed by its self time and its nested operators'") +
                      "; " + std::to_string(out.scopes) + " layer annotation(s)");
  return out;
}

}  // namespace rooftop::counters
