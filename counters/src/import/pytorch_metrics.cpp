// PyTorch profiler traces of CUPTI counters: a profile taken with
//   experimental_config=torch.profiler._ExperimentalConfig(
//       profiler_metrics=[...], profiler_measure_per_kernel=True)
// and exported with export_chrome_trace. kineto's CuptiRangeProfiler writes them
// (libkineto/src/CuptiRangeProfiler.cpp, CuptiRangeProfilerSession::addRangeEvents):
//   - one "cuda_profiler_range" event per range; per kernel (CUPTI_AutoRange with kernel
//     replay) its name is the kernel's demangled name, or the range's own name
//     ("__missing__") where kineto tracked fewer kernel names than ranges;
//   - its args: each metric asked for with its value as CUPTI evaluated it
//     (event->addMetadata(metricNames[i], measurement.values[i])): counts, bytes, and
//     nanoseconds for gpu__time_duration.sum;
//   - its ts and dur: the profiling span split evenly among the ranges ("the actual times
//     do not really matter here so we can just split the total span up per range"), so
//     they are no kernel's time and are not read;
//   - nothing else of the GPU: the range profiler "cannot be run in combination with other
//     cuda activity profilers", so the trace has no kernel events.
// The values go through the one evaluator (counters/evaluate.cpp, through
// cupti::evaluate, as rooftop's own CUPTI ranges do), summed over a kernel's ranges; an
// sm__ metric is read from its smsp__ twin where only that was asked for (kineto's
// FLOP alias asks for smsp__). A kernel's time is gpu__time_duration.sum where collected:
// its replayed runs' time, as CUPTI profiled them, said so in `time_source`. An ordinary
// trace of the same run given beside it (or as --timing) times the kernels instead.
// Later PyTorch releases ignore these options (pytorch/pytorch#187204: they "no longer
// enable CUPTI range profiling"); this reads the traces the earlier ones wrote.

#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reader.hpp"
#include "records.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "rooftop/counters/metrics.hpp"
#include "timing.hpp"
#include "trace_json.hpp"

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;

constexpr std::string_view kRangeCategory = "cuda_profiler_range";
// kineto's name of a range it has no kernel name for; its ranges become one record under
// a name that no kernel of a timing file can take ('[', as nvprof's copies).
constexpr std::string_view kMissing = "__missing__";
constexpr const char* kUnnamed = "[ranges without a kernel name]";

bool detect(std::string_view text) {
  return looks_like_trace(text) &&
         text.find("\"" + std::string(kRangeCategory) + "\"") != std::string_view::npos;
}

struct RangeSums {
  std::string name;
  cupti::MetricValues values;
  int ranges = 0;
};

// The metric values of one range event; Error for a value no counter can have.
cupti::MetricValues range_values(const json& args, const std::string& file, std::size_t index) {
  cupti::MetricValues values;
  for (const auto& [metric, v] : args.items()) {
    if (!v.is_number()) continue;  // kineto writes numbers only; anything else is not a metric
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0.0)
      throw Error(file + ": trace event " + std::to_string(index) +
                  " (a cuda_profiler_range) has " + metric + " = " + v.dump() +
                  ", not a non-negative count");
    values[metric] = x;
  }
  // The sm__ name the evaluator asks for, from its smsp__ twin where only that was asked.
  for (const auto& [metric, x] : cupti::MetricValues(values))
    if (metric.rfind("smsp__", 0) == 0) values.try_emplace("sm__" + metric.substr(6), x);
  return values;
}

std::vector<RangeSums> ranges_by_kernel(const json& events, const std::string& file) {
  std::vector<RangeSums> out;
  std::map<std::string, std::size_t> at;
  std::size_t index = 0;
  for (const json& e : events) {
    ++index;
    if (!e.is_object() || category(e) != kRangeCategory) continue;
    std::string name = string_of(e, "name");
    if (name.empty() || name == kMissing) name = kUnnamed;
    const auto [it, added] = at.try_emplace(name, out.size());
    if (added) out.push_back({name, {}, 0});
    RangeSums& sums = out[it->second];
    cupti::accumulate(sums.values, range_values(args_of(e), file, index));
    ++sums.ranges;
  }
  return out;
}

core::KernelRecord record_of(const RangeSums& sums, std::size_t index) {
  core::KernelRecord r = new_record(sums.name, index, "pytorch-metrics-import");
  r.invocations = sums.ranges;
  const cupti::Evaluation e = cupti::evaluate(sums.values);
  cupti::apply_counts(e, r);
  if (e.gpu_time_s) {
    r.time_s = *e.gpu_time_s;
    r.samples = sums.ranges;
    r.time_source = "CUPTI gpu__time_duration.sum of the profiled (replayed) ranges";
  } else {
    r.time_source = "none";
  }
  return r;
}

Reading read(const Input& file, const Timing* given) {
  const json doc = parse_trace(file);
  const std::vector<RangeSums> sums = ranges_by_kernel(trace_events(doc, file.name), file.name);
  Reading result;
  result.format = "pytorch-metrics";
  for (std::size_t i = 0; i < sums.size(); ++i) result.kernels.push_back(record_of(sums[i], i));
  result.notes.push_back(
      file.name + ": CUPTI counters of " + std::to_string(sums.size()) +
      " kernel name(s) from kineto's cuda_profiler_range events (profiler_metrics, "
      "profiler_measure_per_kernel), through the one evaluator; the events' ts and dur are "
      "kineto's profiling span split evenly among its ranges, no kernel's time");
  for (const RangeSums& s : sums)
    if (s.name == kUnnamed)
      result.notes.push_back(file.name + ": " + std::to_string(s.ranges) + " range(s) named " +
                             core::quoted(std::string(kMissing)) +
                             " (kineto tracked fewer kernel names than ranges) are summed in " +
                             core::quoted(kUnnamed) + ": they may be several kernels");
  if (given) {
    Timing times = *given;  // a copy: matching marks its entries
    apply_timing(result.kernels, times, result.notes);
  } else {
    bool untimed = false;
    for (const core::KernelRecord& k : result.kernels) untimed = untimed || k.time_s <= 0.0;
    if (untimed)
      result.notes.push_back(file.name +
                             ": kernels without gpu__time_duration.sum have no time (the range "
                             "profiler runs alone: no kernel events): placed by arithmetic "
                             "intensity only, where bytes were counted; an ordinary PyTorch "
                             "trace of the same run, given beside it, times them");
  }
  result.flops_short = flops_short(
      [&](const Precision& p, const char* op) {
        for (const RangeSums& s : sums)
          if (s.values.count(counters::flop_metric(p.sass, op))) return true;
        return false;
      },
      [](const Precision&) { return false; });
  return result;
}

}  // namespace

Reader pytorch_metrics_reader() { return {"PyTorch profiler metric trace", detect, read}; }

}  // namespace rooftop::counters::importing
