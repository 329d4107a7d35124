#include "ncu_report.hpp"

#include <algorithm>
#include <limits>
#include <string_view>

#include "records.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

// The roofline sections (`--set detailed`/`full`, SpeedOfLight_*RooflineChart) collect a
// FLOP metric as its rate per elapsed cycle: this suffix on its count's name.
constexpr const char* kPerCycle = ".per_cycle_elapsed";
constexpr const char* kSmPrefixes[] = {"smsp__", "sm__"};  // Nsight Compute's roofline: smsp__

const std::map<std::string, Quantity>& ncu_metrics() {
  static const std::map<std::string, Quantity> metrics = [] {
    std::map<std::string, Quantity> m;
    for (const char* prefix : {"sm__", "smsp__"}) {  // the SM and its sub-partitions count alike
      for (const Precision& p : kPrecisions) {
        if (!p.counted_by_instructions()) continue;
        for (const char* op : kOps) {
          const std::string count =
              std::string(prefix) + "sass_thread_inst_executed_op_" + p.sass + op + "_pred_on.sum";
          m[count] = Quantity::count;
          m[count + kPerCycle] = Quantity::per_cycle;
        }
        // Read only to say that it is instructions, not FLOPs.
        m[prefix + counters::instruction_total_metric(p.sass).substr(4)] = Quantity::count;
      }
      for (const core::TensorPath& t : core::kTensorPaths)  // sm__ops_path_tensor_*
        m[prefix + std::string(t.metric.substr(4))] = Quantity::count;
      for (const char* pipe : {"", "_op_hmma", "_op_dmma", "_op_imma"})
        m[std::string(prefix) + "inst_executed_pipe_tensor" + pipe + ".sum"] = Quantity::count;
      m[std::string(prefix) + "cycles_elapsed.avg"] = Quantity::count;
      m[std::string(prefix) + "cycles_elapsed.avg.per_second"] = Quantity::frequency;
    }
    // dram__read_bytes, dram__write_bytes and gpu__time_duration: the Pascal set's names
    // (evaluate.cpp says where they come from).
    for (const char* b : {"dram__bytes.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                          "lts__t_bytes.sum", "l1tex__t_bytes.sum", "dram__read_bytes",
                          "dram__write_bytes"})
      m[b] = Quantity::bytes;
    for (const char* c :
         {"dram__sectors_read.sum", "dram__sectors_write.sum", "lts__t_sectors.sum",
          "l1tex__t_sectors.sum", "lts__lts2xbar_cycles_active.sum",
          "l1tex__lsu_writeback_active_mem_lgds.sum", "l1tex__lsu_writeback_active_mem_lg.sum",
          "l1tex__lsu_writeback_active_mem_ds.sum"})
      m[c] = Quantity::count;
    m["gpu__time_duration.sum"] = Quantity::time;
    m["gpu__time_duration"] = Quantity::time;
    m["Duration"] = Quantity::time;  // its name in the details page's Speed Of Light section
    return m;
  }();
  return metrics;
}

}  // namespace

std::vector<std::string> ncu_errors(std::string_view text) {
  std::vector<std::string> errors;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.rfind("==ERROR==", 0) == 0) errors.push_back(line);
  }
  return errors;
}

bool ncu_metric_wanted(const std::string& metric) { return ncu_metrics().count(metric) > 0; }

void store(Launch& launch, NcuReport& report, const std::string& metric, const std::string& value,
           const std::string& unit, const std::string& where) {
  if (metric.empty()) return;
  launch.seen.insert(metric);
  const auto it = ncu_metrics().find(metric);
  if (it == ncu_metrics().end()) return;
  report.metrics.insert(metric);
  const auto v = read_value(value, unit, it->second, false, where, metric);
  launch.values.emplace(metric, v);  // a metric listed twice in one launch: the first counts
}

namespace {

std::optional<double> launch_value(const Launch& l, const std::string& metric) {
  const auto it = l.values.find(metric);
  return it == l.values.end() ? std::nullopt : it->second;
}

// Sums over a kernel's launches.
class LaunchSums {
 public:
  explicit LaunchSums(const NcuKernel& k) : k_(k) {}

  // Empty unless every launch has a number for `metric`.
  std::optional<double> sum(const std::string& metric) const {
    double s = 0.0;
    for (const Launch& l : k_.launches) {
      const auto it = l.values.find(metric);
      if (it == l.values.end() || !it->second) return std::nullopt;
      s += *it->second;
    }
    return k_.launches.empty() ? std::nullopt : std::optional<double>(s);
  }
  // The sm__ metric, else its smsp__ twin.
  std::optional<double> sum_sm(const std::string& tail) const {
    if (auto v = sum("sm__" + tail)) return v;
    return sum("smsp__" + tail);
  }
  // The count `prefix + tail` as Nsight Compute's roofline derives it from the rate the
  // roofline sections collect: per launch, `prefix + tail + ".per_cycle_elapsed"` x
  // `prefix + "cycles_elapsed.avg.per_second"` x gpu__time_duration.sum; empty unless
  // every launch has the three.
  std::optional<double> from_rate(const std::string& prefix, const std::string& tail) const {
    double s = 0.0;
    for (const Launch& l : k_.launches) {
      const auto rate = launch_value(l, prefix + tail + kPerCycle);
      const auto clock = launch_value(l, prefix + "cycles_elapsed.avg.per_second");
      const auto duration = launch_value(l, "gpu__time_duration.sum");
      if (!rate || !clock || !duration) return std::nullopt;
      s += *rate * *clock * *duration;
    }
    return k_.launches.empty() ? std::nullopt : std::optional<double>(s);
  }

 private:
  const NcuKernel& k_;
};

std::string flop_metric(char p, const char* op) {
  return std::string("sass_thread_inst_executed_op_") + p + op + "_pred_on.sum";
}

// The byte metrics of each level, as the notes name them.
const std::map<std::string_view, const char*> kClassicBytes = {
    {"l1", "l1tex__t_bytes.sum and l1tex__t_sectors.sum"},
    {"l2", "lts__t_bytes.sum and lts__t_sectors.sum"}};
const std::map<std::string_view, const char*> kByteMetrics = {
    {"l1", "l1tex__t_bytes.sum or l1tex__t_sectors.sum"},
    {"l2", "lts__t_bytes.sum or lts__t_sectors.sum"},
    {"dram",
     "dram__bytes.sum, dram__bytes_read.sum + _write.sum, dram__sectors_read.sum + _write.sum "
     "or dram__read_bytes + dram__write_bytes"}};

bool file_has_sm(const NcuReport& report, const std::string& tail) {
  return report.metrics.count("sm__" + tail) || report.metrics.count("smsp__" + tail);
}

// Whether the report has a FLOP metric of letter `p` and `op`: its count, or its rate per
// cycle with the clock and the duration that make a count of it.
bool file_has_flops(const NcuReport& report, char p, const char* op) {
  if (file_has_sm(report, flop_metric(p, op))) return true;
  if (!report.metrics.count("gpu__time_duration.sum")) return false;
  return std::any_of(std::begin(kSmPrefixes), std::end(kSmPrefixes), [&](const char* prefix) {
    return report.metrics.count(prefix + flop_metric(p, op) + kPerCycle) &&
           report.metrics.count(prefix + std::string("cycles_elapsed.avg.per_second"));
  });
}

bool file_has_precision(const NcuReport& report, const Precision& p) {
  return std::any_of(std::begin(kOps), std::end(kOps),
                     [&](const char* op) { return file_has_flops(report, p.sass, op); });
}

// The precisions (by SASS letter) a kernel has no count of but rates for, each with the
// prefix of its rates (smsp__, as Nsight Compute's roofline, else sm__).
std::map<char, std::string> flops_from_rates(const LaunchSums& sums) {
  std::map<char, std::string> out;
  for (const Precision& p : kPrecisions) {
    if (!p.counted_by_instructions()) continue;
    const auto has = [&](auto value) {
      return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* op) {
        return value(flop_metric(p.sass, op)).has_value();
      });
    };
    if (has([&](const std::string& tail) { return sums.sum_sm(tail); })) continue;
    for (const char* prefix : kSmPrefixes)
      if (has([&](const std::string& tail) { return sums.from_rate(prefix, tail); })) {
        out[p.sass] = prefix;
        break;
      }
  }
  return out;
}

// The kernel's time: the duration of each launch, else its elapsed cycles over the SM
// clock (the sm__ pair, else the smsp__ one: a sub-partition's elapsed cycles are its
// SM's); none where a launch has neither.
void record_time(const NcuKernel& k, KernelRecord& r, NoteBook& book,
                 std::vector<std::string>& remarks) {
  bool timed = !k.launches.empty(), by_duration = false, by_cycles = false;
  const char* cycles = "sm__cycles_elapsed.avg";
  std::string duration = "gpu__time_duration.sum";
  double total = 0.0, lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const Launch& l : k.launches) {
    auto t = launch_value(l, "gpu__time_duration.sum");
    if (!t && (t = launch_value(l, "gpu__time_duration")))  // the Pascal set's name
      duration = "gpu__time_duration";
    if (!t) t = launch_value(l, "Duration");
    if (t) {
      by_duration = true;
    } else {
      for (const char* metric : {"sm__cycles_elapsed.avg", "smsp__cycles_elapsed.avg"}) {
        const auto elapsed = launch_value(l, metric);
        const auto clock = launch_value(l, metric + std::string(".per_second"));
        if (elapsed && clock && *clock > 0.0) {
          t = *elapsed / *clock;
          by_cycles = true;
          cycles = metric;
          break;
        }
      }
    }
    if (!t) {
      timed = false;
      break;
    }
    total += *t;
    lo = std::min(lo, *t);
    hi = std::max(hi, *t);
  }
  if (timed) {
    r.time_s = total;
    r.time_min = lo;
    r.time_max = hi;
    r.samples = static_cast<int>(k.launches.size());
    const std::string by_clock = std::string(cycles) + " / " + cycles + ".per_second";
    r.time_source = by_cycles ? (by_duration ? "ncu " + duration + ", else " +
                                                   std::string(cycles) + " / .avg.per_second"
                                             : "ncu " + by_clock)
                              : "ncu " + duration;
    if (by_cycles)
      book.add("time from " + by_clock + " (gpu__time_duration.sum absent or n/a)", "", r.id);
  } else {
    r.time_source = "none";
    book.add(
        "no time (gpu__time_duration.sum or gpu__time_duration, or sm__cycles_elapsed.avg with "
        "sm__cycles_elapsed.avg.per_second, absent or n/a in some launch)",
        "placed by arithmetic intensity only, not by rate", r.id);
    remarks.push_back("no time");
  }
}

KernelRecord ncu_record(const NcuKernel& k, std::size_t index, const NcuReport& report,
                        NoteBook& book) {
  KernelRecord r = new_record(k.name, index, "ncu-import");
  r.invocations = static_cast<int>(k.launches.size());
  std::vector<std::string> remarks;
  const LaunchSums sums(k);

  // The counts, by the one evaluator; an sm__ metric is taken from its smsp__ twin where
  // the report has only that, and a precision's FLOP counts from their rates where it has
  // neither.
  const std::map<char, std::string> by_rate = flops_from_rates(sums);
  const counters::Counts c = counters::evaluate([&](const std::string& metric) {
    if (metric.rfind("sm__", 0) != 0) return sums.sum(metric);
    const std::string tail = metric.substr(4);
    for (const auto& [letter, prefix] : by_rate)
      for (const char* op : kOps)
        if (tail == flop_metric(letter, op)) return sums.from_rate(prefix, tail);
    return sums.sum_sm(tail);
  });
  for (const counters::PrecisionFlops& f : c.flops) {
    const Precision& p = *f.precision;
    const bool in_file = file_has_precision(report, p);
    const auto rate = by_rate.find(p.sass);
    const std::string label(p.label);
    if (rate != by_rate.end()) {
      const std::string& prefix = rate->second;
      book.add(label + " FLOPs from " + prefix + flop_metric(p.sass, "{add,mul,fma}") + kPerCycle +
                   " x " + prefix +
                   "cycles_elapsed.avg.per_second x gpu__time_duration.sum, "
                   "as Nsight Compute's roofline derives them (an FMA two; no _pred_on.sum counts)",
               "", r.id);
      remarks.push_back(label + " FLOPs from per-cycle rates");
    }
    const std::string instructions = counters::instruction_total_metric(p.sass);
    if (!in_file && file_has_sm(report, instructions.substr(4)))
      book.add(instructions + " counts instructions (an FMA once), not FLOPs",
               std::string(p.label) + " FLOPs need sm__" + flop_metric(p.sass, "{add,mul,fma}") +
                   ": not counted",
               r.id);
    if (!in_file) continue;
    r.*p.flops = f.flops;
    if (f.lacking.empty()) continue;
    const std::string source = rate != by_rate.end()
                                   ? rate->second + flop_metric(p.sass, "*") + kPerCycle
                                   : "sm__" + flop_metric(p.sass, "*");
    book.add("no " + f.lacking + " count (" + source + " absent or n/a)",
             label + " FLOPs leave it out" + (f.flops > 0.0 ? ", FMA share unknown" : ""), r.id);
    remarks.push_back(label + " FLOPs without " + f.lacking);
  }
  if (c.fma_fraction) r.fma_fraction = *c.fma_fraction;
  if (c.tensor_instructions) r.tensor_instructions = *c.tensor_instructions;
  r.tensor_ops = counters::recorded_tensor_ops(c);
  if (c.tensor_instructions && *c.tensor_instructions > 0.0 && c.tensor_ops.empty()) {
    book.add("tensor instructions counted (sm__inst_executed_pipe_tensor*) but no "
             "sm__ops_path_tensor_src_*.sum",
             "their operations are not in the FLOPs: the kernel is placed against the "
             "CUDA cores' roofs",
             r.id);
    remarks.push_back("tensor ops not counted");
  }

  for (const counters::LevelBytes& b : c.bytes) {
    record_bytes(b, kByteMetrics.at(b.level), r, book, remarks);
    if (b.bytes && b.newer)
      book.add(std::string(b.label) + " bytes from " + b.from + ", the newer definition (" +
                   kClassicBytes.at(b.level) + " absent or n/a)",
               "", r.id);
  }

  record_time(k, r, book, remarks);
  finish_record(r, remarks);
  return r;
}

void ncu_file_notes(const NcuReport& report, const std::string& file,
                    std::vector<std::string>& notes) {
  const bool tensor_ops = std::any_of(
      std::begin(core::kTensorPaths), std::end(core::kTensorPaths),
      [&](const core::TensorPath& t) {
        return file_has_sm(report, std::string(t.metric.substr(4)));
      });
  const bool none = note_missing_flop_metrics(
      file,
      "sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum, or their "
      ".per_cycle_elapsed rates with the clock and gpu__time_duration.sum",
      [&](const Precision& p) { return file_has_precision(report, p); },
      [](const Precision& p) {
        return "sm__" + flop_metric(p.sass, "{add,mul,fma}") + " or its " + kPerCycle + " rates";
      },
      notes);
  if (none && tensor_ops)
    notes.back() += " (the CUDA cores'; the tensor cores' ops, sm__ops_path_tensor_src_*.sum, "
                    "are counted)";
}

// The first of Nsight Compute's error lines as it printed them, one message: "==ERROR==
// Failed to profile ...; ==ERROR== An error occurred ...".
std::string said(const std::vector<std::string>& errors) {
  constexpr std::size_t kShown = 3, kLength = 200;
  std::string out;
  for (std::size_t i = 0; i < errors.size() && i < kShown; ++i) {
    const std::string& e = errors[i];
    out += (i ? "; " : "") + (e.size() > kLength ? e.substr(0, kLength) + "..." : e);
  }
  if (errors.size() > kShown)
    out += " (and " + std::to_string(errors.size() - kShown) + " more ==ERROR== lines)";
  return out;
}

}  // namespace

Reading ncu_reading(const NcuReport& report, const std::string& file, const std::string& format,
                    const Timing* timing) {
  if (report.kernels.empty() && !report.errors.empty())
    throw Error(file + ": Nsight Compute profiled no kernel: " + said(report.errors));
  Reading result;
  result.format = format;
  if (!report.errors.empty())
    result.notes.push_back(file + ": Nsight Compute reported errors (" + said(report.errors) +
                           "): a launch it could not profile is missing from the report");
  Timing times;  // a copy: matching marks its entries
  if (timing) times = *timing;
  NoteBook book(file, report.kernels.size());
  for (std::size_t i = 0; i < report.kernels.size(); ++i)
    result.kernels.push_back(ncu_record(report.kernels[i], i, report, book));
  if (!report.kernels.empty()) ncu_file_notes(report, file, result.notes);
  result.flops_short = flops_short(
      [&](const Precision& p, const char* op) { return file_has_flops(report, p.sass, op); },
      [](const Precision&) { return false; });
  book.append_to(result.notes);
  if (timing) {
    result.notes.insert(result.notes.end(), times.notes.begin(), times.notes.end());
    apply_timing(result.kernels, times, result.notes);
    // Every kernel timed by the file: the report's own lack of time is no news.
    bool all_timed = true;
    for (const KernelRecord& k : result.kernels) all_timed = all_timed && k.time_source != "none";
    if (all_timed)
      std::erase_if(result.notes, [&](const std::string& n) {
        return n.rfind(file + ": no time (", 0) == 0;
      });
  }
  return result;
}

}  // namespace rooftop::counters::importing
