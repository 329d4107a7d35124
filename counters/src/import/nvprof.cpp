// nvprof CSV: `nvprof --csv --metrics ...` ("Device", "Kernel", "Invocations", "Metric
// Name", ..., "Min", "Max", "Avg"; Avg is per invocation), timed by an nvprof GPU trace or
// summary (in the same file or a timing file), else by transactions x 32 B over the
// reported throughput.

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "profiler_csv.hpp"
#include "reader.hpp"
#include "records.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

// An nvprof memory transaction is 32 bytes.
constexpr double kTransactionBytes = 32.0;

const std::map<std::string, Quantity>& nvprof_metrics() {
  static const std::map<std::string, Quantity> metrics = [] {
    std::map<std::string, Quantity> m;
    for (const Precision& p : kPrecisions) {
      if (!p.counted_by_instructions()) continue;
      m["flop_count_" + std::string(p.nvprof)] = Quantity::count;
      for (const char* op : kOps)
        m["flop_count_" + std::string(p.nvprof) + "_" + op] = Quantity::count;
    }
    for (const char* c :
         {"dram_read_transactions", "dram_write_transactions", "l2_read_transactions",
          "l2_write_transactions", "gld_transactions", "gst_transactions", "atomic_transactions",
          "local_load_transactions", "local_store_transactions", "shared_load_transactions",
          "shared_store_transactions"})
      m[c] = Quantity::count;
    m["dram_read_bytes"] = Quantity::bytes;
    m["dram_write_bytes"] = Quantity::bytes;
    for (const char* t : {"dram_read_throughput", "dram_write_throughput", "l2_read_throughput",
                          "l2_write_throughput"})
      m[t] = Quantity::rate;
    return m;
  }();
  return metrics;
}

struct NvprofValue {
  double total = 0.0;     // avg x invocations, summed over devices
  double weighted = 0.0;  // for rates: avg x invocations, to average them
  int invocations = 0;
  bool missing = false;
};

struct NvprofKernel {
  std::string name;
  std::map<std::string, int> invocations;  // per device
  std::map<std::string, NvprofValue> metrics;

  int total_invocations() const {
    int n = 0;
    for (const auto& d : invocations) n += d.second;
    return n;
  }
  std::optional<double> total(const std::string& m) const {
    const auto it = metrics.find(m);
    if (it == metrics.end() || it->second.missing) return std::nullopt;
    return it->second.total;
  }
  std::optional<double> rate(const std::string& m) const {
    const auto it = metrics.find(m);
    if (it == metrics.end() || it->second.missing || it->second.invocations <= 0)
      return std::nullopt;
    return it->second.weighted / it->second.invocations;
  }
};

struct NvprofReport {
  std::vector<NvprofKernel> kernels;
  std::map<std::string, std::size_t> by_name;
  std::set<std::string> metrics;
};

void read_nvprof_metrics(const csv::Table& t, const std::string& file, NvprofReport& report) {
  const int device = column(t.header, "Device"), kernel = column(t.header, "Kernel"),
            invocations = column(t.header, "Invocations"), metric = column(t.header, "Metric Name"),
            avg = column(t.header, "Avg");
  for (const csv::Record& row : t.rows) {
    const std::string& name = field(t, row, kernel, file);
    const std::string& inv_text = field(t, row, invocations, file);
    const auto inv = parse_count(inv_text);
    if (!inv || *inv < 1)  // a metric over no launch is no measurement
      throw Error(at(file, row.line) + "Invocations " + core::quoted(trim(inv_text)) +
                  " is not a positive whole number");
    auto it = report.by_name.find(name);
    if (it == report.by_name.end()) {
      it = report.by_name.emplace(name, report.kernels.size()).first;
      report.kernels.push_back({name, {}, {}});
    }
    NvprofKernel& k = report.kernels[it->second];
    int& per_device = k.invocations[field(t, row, device, file)];
    per_device = std::max(per_device, *inv);

    const std::string& m = field(t, row, metric, file);
    const auto wanted = nvprof_metrics().find(m);
    if (wanted == nvprof_metrics().end()) continue;
    report.metrics.insert(m);
    const std::string& text = field(t, row, avg, file);
    NvprofValue& v = k.metrics[m];
    if (is_missing(text)) {
      v.missing = true;
      continue;
    }
    const auto split = split_number(text);
    if (!split)
      throw Error(at(file, row.line) + core::quoted(trim(text)) + " for " + m + " is not a number");
    const double value =
        to_base(split->first, text, split->second, wanted->second, true, at(file, row.line), m);
    v.total += value * *inv;
    v.weighted += value * *inv;
    v.invocations += *inv;
  }
}

KernelRecord nvprof_record(const NvprofKernel& k, std::size_t index, const Timing* timing,
                           const TimingEntry* timed, NoteBook& book) {
  KernelRecord r = new_record(k.name, index, "nvprof-import");
  r.invocations = k.total_invocations();
  std::vector<std::string> remarks;

  // FLOPs by the one evaluator: flop_count_* is the total (an FMA counts two), its
  // _add/_mul/_fma parts give the FMA share.
  std::map<std::string, std::string> names;  // the evaluator's metric -> nvprof's
  for (const Precision& p : kPrecisions) {
    if (!p.counted_by_instructions()) continue;
    const std::string stem = counters::flop_total_metric(p.nvprof);
    for (std::string_view op : core::kFlopOps)
      names[counters::flop_metric(p.sass, op)] = stem + "_" + std::string(op);
  }
  // The FLOP metrics under the evaluator's names; nvprof's byte metrics as they are.
  const counters::Counts c = counters::evaluate([&](const std::string& metric) {
    const auto it = names.find(metric);
    return k.total(it == names.end() ? metric : it->second);
  });
  for (const counters::PrecisionFlops& f : c.flops) {
    const Precision& p = *f.precision;
    const std::string stem = "flop_count_" + std::string(p.nvprof);
    r.*p.flops = f.flops;
    if (!k.total(stem) && f.parts > 0 && !f.lacking.empty()) {
      book.add("no " + stem + " and only some of " + stem + "_add/_mul/_fma",
               std::string(p.label) + " FLOPs undercounted", r.id);
      remarks.push_back(std::string(p.label) + " FLOPs partial");
    }
  }
  if (c.fma_fraction) r.fma_fraction = *c.fma_fraction;

  // Bytes by the one evaluator, in the nvprof hierarchical-roofline recipe.
  if (k.total("gld_transactions") && k.total("gst_transactions")) {
    std::string left_out;
    for (const char* m : counters::kNvprofL1Extras)
      if (!k.total(m)) left_out += (left_out.empty() ? "" : ", ") + std::string(m);
    if (!left_out.empty())
      book.add("L1 bytes leave out " + left_out + " (absent or n/a)", "", r.id);
  }
  const std::map<std::string_view, const char*> recipe = {
      {"l1", "gld_transactions + gst_transactions"},
      {"l2", "l2_read_transactions + l2_write_transactions"},
      {"dram", "dram_read_transactions + dram_write_transactions"}};
  for (const counters::LevelBytes& l : c.bytes)
    record_bytes(l, recipe.at(l.level), r, book, remarks);

  // Time: the timing file, else transactions x 32 B over the reported throughput.
  if (timed) {
    set_time(r, *timed, timing->kind);
    if (timed->calls != r.invocations && timed->calls > 0 && r.invocations > 0) {
      r.time_s = timed->total / timed->calls * r.invocations;
      r.time_source += ", scaled to the metric invocations";
      book.add(timing->file + " times a different number of launches than the metrics count",
               "time scaled to the metrics' invocations", r.id);
      remarks.push_back("time scaled from " + std::to_string(timed->calls) + " timed launches");
    }
  } else {
    const char* pairs[][2] = {{"dram_read_transactions", "dram_read_throughput"},
                              {"dram_write_transactions", "dram_write_throughput"},
                              {"l2_read_transactions", "l2_read_throughput"},
                              {"l2_write_transactions", "l2_write_throughput"}};
    const char* const* best = nullptr;
    double best_bytes = 0.0, best_rate = 0.0;
    for (const auto& p : pairs) {
      const auto t = k.total(p[0]);
      const auto rate = k.rate(p[1]);
      // The most bytes give the most digits.
      if (t && rate && *rate > 0.0 && *t * kTransactionBytes > best_bytes) {
        best = p;
        best_bytes = *t * kTransactionBytes;
        best_rate = *rate;
      }
    }
    const std::string why = timing ? "not in " + timing->file : "no timing file";
    if (best) {
      r.time_s = best_bytes / best_rate;
      r.time_min = r.time_max = r.invocations > 0 ? r.time_s / r.invocations : r.time_s;
      r.samples = 0;  // derived, not measured
      r.time_source = std::string("derived: ") + best[0] + " x 32 B / " + best[1];
      book.add("time derived from transactions x 32 B over the reported throughput (" + why + ")",
               "", r.id);
      remarks.push_back(std::string("time from ") + best[0] + " x 32 B / " + best[1]);
    } else {
      r.time_source = "none";
      book.add("no time (" + why + ", no *_transactions with *_throughput)",
               "placed by arithmetic intensity only, not by rate", r.id);
      remarks.push_back("no time");
    }
  }
  finish_record(r, remarks);
  return r;
}

void nvprof_file_notes(const NvprofReport& report, const std::vector<KernelRecord>& kernels,
                       const std::string& file, std::vector<std::string>& notes) {
  const bool none = note_missing_flop_metrics(
      file, "flop_count_dp, flop_count_sp, flop_count_hp",
      [&](const Precision& p) {
        const std::string stem = "flop_count_" + std::string(p.nvprof);
        bool in_file = report.metrics.count(stem) > 0;
        for (const char* op : kOps) in_file = in_file || report.metrics.count(stem + "_" + op);
        return in_file;
      },
      [](const Precision& p) { return "flop_count_" + std::string(p.nvprof); }, notes);
  if (none) return;
  bool any_flops = false, any_fma = false;
  for (const KernelRecord& k : kernels) {
    any_flops = any_flops || k.flops() > 0.0;
    any_fma = any_fma || k.fma_fraction >= 0.0;
  }
  if (any_flops && !any_fma)
    notes.push_back(file + ": no flop_count_*_add/_mul/_fma: FMA share unknown");
}

bool detect(std::string_view text) {
  const int kind = first_kind(text);
  return kind == kNvprofMetrics || kind == kNvprofEvents || kind == kNvprofTrace ||
         kind == kNvprofSummary;
}

Reading read(const Input& file, const Timing* given) {
  const std::vector<csv::Table> tables = profiler_tables(file.text, file.name);
  const csv::Table& first = counts_table(tables, file.name);
  Reading result;
  result.format = format_name(first.kind);
  NvprofReport report;
  for (const csv::Table& t : tables)
    if (t.kind == kNvprofMetrics) read_nvprof_metrics(t, file.name, report);
  Timing timing;
  bool have_timing = false;
  if (given) {
    timing = *given;  // a copy: matching marks its entries
    have_timing = true;
  } else {
    // nvprof prints a summary or trace beside the metrics when asked for both.
    timing.file = file.name;
    have_timing = read_nvprof_timing(tables, timing);
  }
  result.notes.insert(result.notes.end(), timing.notes.begin(), timing.notes.end());
  std::vector<const TimingEntry*> matches(report.kernels.size(), nullptr);
  if (have_timing) {
    std::vector<std::string> names;
    for (const NvprofKernel& k : report.kernels) names.push_back(k.name);
    matches = match_timing(names, timing, result.notes);
  }
  NoteBook book(file.name, report.kernels.size());
  for (std::size_t i = 0; i < report.kernels.size(); ++i)
    result.kernels.push_back(
        nvprof_record(report.kernels[i], i, have_timing ? &timing : nullptr, matches[i], book));
  if (!report.kernels.empty()) nvprof_file_notes(report, result.kernels, file.name, result.notes);
  const auto stem = [](const Precision& p) { return "flop_count_" + std::string(p.nvprof); };
  result.flops_short =
      flops_short([&](const Precision& p,
                      const char* op) { return report.metrics.count(stem(p) + "_" + op) > 0; },
                  [&](const Precision& p) { return report.metrics.count(stem(p)) > 0; });
  book.append_to(result.notes);
  return result;
}

}  // namespace

Reader nvprof_reader() { return {"nvprof CSV", detect, read, nvprof_times}; }

}  // namespace rooftop::counters::importing
