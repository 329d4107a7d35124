#include "rooftop/counters/import.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include "csv.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/evaluate.hpp"

namespace rooftop::counters {
namespace {

using core::KernelRecord;
using core::LevelBytes;

// An nvprof memory transaction is 32 bytes.
constexpr double kTransactionBytes = 32.0;

// ------------------------------------------------------------------------------------
// Formats, told apart by their header row.

enum Kind : int {
  kNone = 0,
  kNcuLong,        // one row per metric
  kNcuWide,        // one column per metric
  kNcuSummary,     // --print-summary: per-kernel min/max/average, no launches
  kNvprofMetrics,  // --metrics
  kNvprofEvents,   // --events: not used
  kNvprofTrace,    // --print-gpu-trace
  kNvprofSummary,  // the default summary
};

const char* format_name(int kind) {
  switch (kind) {
    case kNcuLong:
      return "ncu-long";
    case kNcuWide:
      return "ncu-wide";
    case kNcuSummary:
      return "ncu-summary";
    case kNvprofMetrics:
      return "nvprof-metrics";
    case kNvprofEvents:
      return "nvprof-events";
    case kNvprofTrace:
      return "nvprof GPU trace";
    case kNvprofSummary:
      return "nvprof GPU summary";
    default:
      return "unknown";
  }
}

int column(const csv::Record& header, std::string_view name) {
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    if (header.fields[i] == name) return static_cast<int>(i);
  return -1;
}

int classify(const csv::Record& h) {
  const auto has = [&](std::string_view name) { return column(h, name) >= 0; };
  if (has("Kernel Name")) {
    if (has("Metric Name") && has("Metric Value")) return kNcuLong;
    if (has("Metric Name") && has("Average")) return kNcuSummary;
    // A metric column is named like "dram__bytes.sum".
    for (const std::string& f : h.fields)
      if (f.find("__") != std::string::npos) return kNcuWide;
    return kNone;
  }
  if (has("Device") && has("Kernel") && has("Invocations")) {
    if (has("Metric Name") && has("Avg")) return kNvprofMetrics;
    if (has("Event Name")) return kNvprofEvents;
    return kNone;
  }
  if (has("Start") && has("Duration") && has("Name")) return kNvprofTrace;
  if (has("Time(%)") && has("Time") && has("Calls") && has("Name")) return kNvprofSummary;
  return kNone;
}

std::string at(const std::string& file, int line) {
  return file + ":" + std::to_string(line) + ": ";
}

// A value from the file, quoted for a one-line message: line breaks and other control
// characters escaped, long values cut.
std::string in_quotes(const std::string& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size() && i < 120; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c == 0x7f)
      out += '?';
    else
      out += s[i];
  }
  return out + (s.size() > 120 ? "...\"" : "\"");
}

// The field of `row` in column `col`; Error when the row stops short of it.
const std::string& field(const csv::Table& table, const csv::Record& row, int col,
                         const std::string& file) {
  static const std::string none;
  if (col < 0) return none;
  if (static_cast<std::size_t>(col) >= row.fields.size())
    throw Error(at(file, row.line) + std::to_string(row.fields.size()) +
                " fields where the header on line " + std::to_string(table.header.line) + " has " +
                std::to_string(table.header.fields.size()) + " (no " +
                in_quotes(table.header.fields[col]) + ")");
  return row.fields[col];
}

// ------------------------------------------------------------------------------------
// Numbers and units.

std::string trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// What the profilers print where they have no value.
bool is_missing(const std::string& text) {
  const std::string s = trim(text);
  return s.empty() || s == "n/a" || s == "N/A" || s == "-";
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A decimal number, with thousands separators where they group digits by three
// ("1,234,567.5"); empty for anything else.
std::optional<double> parse_number(std::string_view text) {
  const std::string s = trim(text);
  std::string clean;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
  int digits = 0, group = 0;
  bool separated = false;
  for (; i < s.size() && (is_digit(s[i]) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (separated ? group != 3 : group < 1 || group > 3) return std::nullopt;
      separated = true;
      group = 0;
    } else {
      clean += s[i];
      ++group;
      ++digits;
    }
  }
  if (separated && group != 3) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    clean += s[i++];
    for (; i < s.size() && is_digit(s[i]); ++i, ++digits) clean += s[i];
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    clean += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
    if (i >= s.size() || !is_digit(s[i])) return std::nullopt;
    for (; i < s.size() && is_digit(s[i]); ++i) clean += s[i];
  }
  if (i != s.size()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(clean.c_str(), &end);
  if (end != clean.c_str() + clean.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The length of the longest prefix of `s` that parse_number's grammar accepts (0: none),
// found in one pass: trying every prefix would be quadratic in a long field.
std::size_t number_prefix(std::string_view s) {
  std::size_t i = 0, best = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  int digits = 0, group = 0;
  bool separated = false;
  for (; i < s.size() && (is_digit(s[i]) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (separated ? group != 3 : group < 1 || group > 3) return best;
      separated = true;
      group = 0;
    } else {
      ++group;
      ++digits;
      if (!separated || group == 3) best = i + 1;
    }
  }
  if (separated && group != 3) return best;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits > 0) best = i;
    for (; i < s.size() && is_digit(s[i]); ++i, ++digits) best = i + 1;
  }
  if (digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    for (; i < s.size() && is_digit(s[i]); ++i) best = i + 1;
  }
  return best;
}

// nvprof appends the unit to the value ("976.5625GB/s", "99.5%"): the longest prefix
// that is a number, and the rest.
std::optional<std::pair<double, std::string>> split_number(std::string_view text) {
  const std::string s = trim(text);
  const std::size_t n = number_prefix(s);
  if (n == 0) return std::nullopt;
  const auto v = parse_number(std::string_view(s).substr(0, n));
  if (!v) return std::nullopt;
  return {{*v, trim(s.substr(n))}};
}

enum class Quantity { count, bytes, time, frequency, rate };

const char* quantity_name(Quantity q) {
  switch (q) {
    case Quantity::count:
      return "a count";
    case Quantity::bytes:
      return "a byte count";
    case Quantity::time:
      return "a time";
    case Quantity::frequency:
      return "a clock rate";
    case Quantity::rate:
      return "a throughput";
  }
  return "";
}

// K, M, G, T: powers of 1000 for Nsight Compute ("Kbyte" is 10^3 bytes), of 1024 for
// nvprof (its trace prints 1028 bytes as "1.003906 KB"); Ki, Mi, Gi, Ti always 1024.
std::optional<double> prefix_factor(std::string_view p, bool binary) {
  const double k = binary ? 1024.0 : 1000.0;
  if (p.empty()) return 1.0;
  if (p == "K" || p == "k") return k;
  if (p == "M") return k * k;
  if (p == "G") return k * k * k;
  if (p == "T") return k * k * k * k;
  if (p == "Ki") return 1024.0;
  if (p == "Mi") return 1024.0 * 1024.0;
  if (p == "Gi") return 1024.0 * 1024.0 * 1024.0;
  if (p == "Ti") return 1024.0 * 1024.0 * 1024.0 * 1024.0;
  return std::nullopt;
}

// `unit` = prefix + one of `bases`.
std::optional<double> prefixed(std::string_view unit, std::initializer_list<std::string_view> bases,
                               bool binary) {
  for (std::string_view base : bases)
    if (unit.size() >= base.size() && unit.substr(unit.size() - base.size()) == base)
      if (auto f = prefix_factor(unit.substr(0, unit.size() - base.size()), binary)) return f;
  return std::nullopt;
}

std::optional<double> seconds_per(std::string_view u) {
  if (u == "ns" || u == "nsecond" || u == "nanosecond") return 1e-9;
  if (u == "us" || u == "usecond" || u == "microsecond" || u == "\xC2\xB5s") return 1e-6;
  if (u == "ms" || u == "msecond" || u == "millisecond") return 1e-3;
  if (u == "s" || u == "second" || u == "sec") return 1.0;
  return std::nullopt;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// Factor from `unit` to the base unit of `q` (1, byte, second, 1/second, byte/second);
// empty when `unit` is no unit of `q`. An empty unit is the base unit of counts and bytes.
std::optional<double> unit_factor(Quantity q, const std::string& unit, bool binary) {
  const std::string u = trim(unit);
  switch (q) {
    case Quantity::count:
      if (u.empty()) return 1.0;
      return prefixed(u, {"inst", "sector", "cycle", "warp", "thread", "request", "transaction"},
                      false);
    case Quantity::bytes:
      if (u.empty()) return 1.0;
      return prefixed(u, {"byte", "bytes", "B"}, binary);
    case Quantity::time:
      return seconds_per(u);
    case Quantity::frequency: {
      const std::string l = lower(u);
      if (l == "hz") return 1.0;
      if (l == "khz") return 1e3;
      if (l == "mhz") return 1e6;
      if (l == "ghz") return 1e9;
      if (l.rfind("cycle/", 0) == 0)
        if (const auto s = seconds_per(l.substr(6))) return 1.0 / *s;
      return std::nullopt;
    }
    case Quantity::rate: {
      const std::size_t slash = u.find('/');
      if (slash == std::string::npos) return std::nullopt;
      const auto b =
          slash == 0 ? std::nullopt : prefixed(u.substr(0, slash), {"byte", "bytes", "B"}, binary);
      const auto s = seconds_per(u.substr(slash + 1));
      if (!b || !s) return std::nullopt;
      return *b / *s;
    }
  }
  return std::nullopt;
}

// `v` in `unit`, converted to the base unit of `q`.
double to_base(double v, const std::string& text, const std::string& unit, Quantity q, bool binary,
               const std::string& where, const std::string& metric) {
  if (v < 0.0) throw Error(where + in_quotes(trim(text)) + " for " + metric + " is negative");
  const auto f = unit_factor(q, unit, binary);
  if (!f && trim(unit).empty())
    throw Error(where + metric + " has no unit (" + quantity_name(q) + " needs one)");
  if (!f)
    throw Error(where + "unit " + in_quotes(trim(unit)) + " of " + metric + " is not " +
                quantity_name(q) + " unit");
  return v * *f;
}

// A value in the base unit of `q`; empty where the profiler printed none ("n/a").
std::optional<double> read_value(const std::string& text, const std::string& unit, Quantity q,
                                 bool binary, const std::string& where, const std::string& metric) {
  if (is_missing(text)) return std::nullopt;
  const auto v = parse_number(text);
  if (!v) throw Error(where + in_quotes(trim(text)) + " for " + metric + " is not a number");
  return to_base(*v, text, unit, q, binary, where, metric);
}

// ------------------------------------------------------------------------------------
// Notes gathered per issue, so that one line names every kernel an issue concerns.

class NoteBook {
 public:
  NoteBook(std::string file, std::size_t kernels) : file_(std::move(file)), kernels_(kernels) {}

  // `what` holds for kernel `id`; `consequence` (may be empty) is what it costs.
  void add(const std::string& what, const std::string& consequence, const std::string& id) {
    const std::string key = what + '\n' + consequence;
    auto it = index_.find(key);
    if (it == index_.end()) {
      it = index_.emplace(key, issues_.size()).first;
      issues_.push_back({what, consequence, {}});
    }
    issues_[it->second].ids.push_back(id);
  }

  void append_to(std::vector<std::string>& notes) const {
    for (const Issue& i : issues_) {
      std::string line = file_ + ": " + i.what;
      if (i.ids.size() < kernels_) {
        line += " for ";
        for (std::size_t k = 0; k < i.ids.size(); ++k) line += (k ? ", " : "") + i.ids[k];
      }
      if (!i.consequence.empty()) line += ": " + i.consequence;
      notes.push_back(line);
    }
  }

 private:
  struct Issue {
    std::string what, consequence;
    std::vector<std::string> ids;
  };
  std::string file_;
  std::size_t kernels_;
  std::vector<Issue> issues_;
  std::map<std::string, std::size_t> index_;
};

using Precision = core::Precision;
using core::kPrecisions;
constexpr const char* kOps[] = {"add", "mul", "fma"};

// One note per precision whose FLOP metrics the report lacks (`in_file`), or a single
// note when it lacks them all (`all_metrics` names them); returns whether all were
// missing. The wording is shared by every importer.
template <class InFile, class MetricName>
bool note_missing_flop_metrics(const std::string& file, const char* all_metrics, InFile in_file,
                               MetricName metric_name, std::vector<std::string>& notes) {
  std::vector<const Precision*> absent;
  for (const Precision& p : kPrecisions)
    if (!in_file(p)) absent.push_back(&p);
  if (absent.size() == std::size(kPrecisions)) {
    notes.push_back(file + ": no FLOP metric (" + all_metrics + "): FLOPs recorded as 0");
    return true;
  }
  for (const Precision* p : absent)
    notes.push_back(file + ": no " + std::string(p->label) + " FLOP metric (" + metric_name(*p) +
                    "): " + std::string(p->label) + " FLOPs not counted");
  return false;
}

// Fields every importer fills the same way.
KernelRecord new_record(const std::string& name, std::size_t index, const char* source) {
  KernelRecord r;
  r.name = name;
  r.id = "k" + std::to_string(index + 1);
  r.group = "import";
  r.order = static_cast<int>(index);
  r.source = source;
  return r;
}

void finish_record(KernelRecord& r, const std::vector<std::string>& remarks) {
  double most = 0.0;
  for (const Precision& p : kPrecisions)
    if (r.*p.flops > most) {
      most = r.*p.flops;
      r.precision = std::string(p.name);
    }
  for (const std::string& s : remarks) r.note += (r.note.empty() ? "" : "; ") + s;
}

// ------------------------------------------------------------------------------------
// Nsight Compute: per-launch values, summed per kernel.

const std::map<std::string, Quantity>& ncu_metrics() {
  static const std::map<std::string, Quantity> metrics = [] {
    std::map<std::string, Quantity> m;
    for (const char* prefix : {"sm__", "smsp__"}) {  // the SM and its sub-partitions count alike
      for (const Precision& p : kPrecisions) {
        for (const char* op : kOps)
          m[std::string(prefix) + "sass_thread_inst_executed_op_" + p.sass + op + "_pred_on.sum"] =
              Quantity::count;
        // Read only to say that it is instructions, not FLOPs.
        m[prefix + counters::instruction_total_metric(p.sass).substr(4)] = Quantity::count;
      }
      for (const char* pipe : {"", "_op_hmma", "_op_dmma", "_op_imma"})
        m[std::string(prefix) + "inst_executed_pipe_tensor" + pipe + ".sum"] = Quantity::count;
    }
    for (const char* b : {"dram__bytes.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                          "lts__t_bytes.sum", "l1tex__t_bytes.sum"})
      m[b] = Quantity::bytes;
    for (const char* c :
         {"dram__sectors_read.sum", "dram__sectors_write.sum", "lts__t_sectors.sum",
          "l1tex__t_sectors.sum", "lts__lts2xbar_cycles_active.sum",
          "l1tex__lsu_writeback_active_mem_lgds.sum", "l1tex__lsu_writeback_active_mem_lg.sum",
          "l1tex__lsu_writeback_active_mem_ds.sum", "sm__cycles_elapsed.avg"})
      m[c] = Quantity::count;
    m["gpu__time_duration.sum"] = Quantity::time;
    m["Duration"] = Quantity::time;  // its name in the details page's Speed Of Light section
    m["sm__cycles_elapsed.avg.per_second"] = Quantity::frequency;
    return m;
  }();
  return metrics;
}

struct Launch {
  std::map<std::string, std::optional<double>> values;  // base units; empty: "n/a"
  std::set<std::string> seen;                           // every metric name, wanted or not
};

struct NcuKernel {
  std::string name;
  std::vector<Launch> launches;
};

struct NcuReport {
  std::vector<NcuKernel> kernels;
  std::map<std::string, std::size_t> by_name;
  std::set<std::string> metrics;  // wanted metrics that occur in the file

  Launch& new_launch(const std::string& kernel) {
    auto it = by_name.find(kernel);
    if (it == by_name.end()) {
      it = by_name.emplace(kernel, kernels.size()).first;
      kernels.push_back({kernel, {}});
    }
    return kernels[it->second].launches.emplace_back();
  }
};

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

void read_ncu_long(const csv::Table& t, const std::string& file, NcuReport& report) {
  const int kernel = column(t.header, "Kernel Name"), metric = column(t.header, "Metric Name"),
            value = column(t.header, "Metric Value"), unit = column(t.header, "Metric Unit"),
            id = column(t.header, "ID"), pid = column(t.header, "Process ID");
  // A launch is its ID (per process); without IDs, a run of rows of one kernel that
  // names no metric twice.
  std::map<std::string, std::pair<std::size_t, std::size_t>> launches;
  Launch* current = nullptr;
  std::string current_kernel;
  for (const csv::Record& row : t.rows) {
    const std::string& name = field(t, row, kernel, file);
    const std::string& m = field(t, row, metric, file);
    const std::string& v = field(t, row, value, file);
    // Rows may stop before an empty unit.
    const std::string u = unit >= 0 && static_cast<std::size_t>(unit) < row.fields.size()
                              ? row.fields[unit]
                              : std::string();
    Launch* launch = nullptr;
    if (id >= 0) {
      const std::string key =
          field(t, row, pid, file) + '\x1f' + field(t, row, id, file) + '\x1f' + name;
      const auto found = launches.find(key);
      if (found != launches.end()) {
        launch = &report.kernels[found->second.first].launches[found->second.second];
      } else {
        launch = &report.new_launch(name);
        const std::size_t k = report.by_name.at(name);
        launches.emplace(key, std::make_pair(k, report.kernels[k].launches.size() - 1));
      }
    } else {
      // Rule rows of the details page name no metric.
      if (!current || current_kernel != name || (!m.empty() && current->seen.count(m))) {
        current = &report.new_launch(name);
        current_kernel = name;
      }
      launch = current;
    }
    store(*launch, report, m, v, u, at(file, row.line));
  }
}

void read_ncu_wide(const csv::Table& t, const std::string& file, NcuReport& report) {
  const int kernel = column(t.header, "Kernel Name"), id = column(t.header, "ID");
  std::size_t first = 0;
  const csv::Record* units = nullptr;
  // `--page raw` prints a row of units under the header, blank in the launch columns.
  if (!t.rows.empty() && trim(field(t, t.rows[0], id >= 0 ? id : kernel, file)).empty()) {
    units = &t.rows[0];
    first = 1;
  }
  for (std::size_t r = first; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    Launch& launch = report.new_launch(field(t, row, kernel, file));
    for (std::size_t c = 0; c < t.header.fields.size(); ++c) {
      const std::string& m = t.header.fields[c];
      if (!ncu_metrics().count(m)) continue;
      const std::string unit = units && c < units->fields.size() ? units->fields[c] : std::string();
      store(launch, report, m, field(t, row, static_cast<int>(c), file), unit, at(file, row.line));
    }
  }
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

 private:
  const NcuKernel& k_;
};

std::optional<double> launch_value(const Launch& l, const std::string& metric) {
  const auto it = l.values.find(metric);
  return it == l.values.end() ? std::nullopt : it->second;
}

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
     "dram__bytes.sum, dram__bytes_read.sum + _write.sum or dram__sectors_read.sum + _write.sum"}};

bool file_has_sm(const NcuReport& report, const std::string& tail) {
  return report.metrics.count("sm__" + tail) || report.metrics.count("smsp__" + tail);
}

KernelRecord ncu_record(const NcuKernel& k, std::size_t index, const NcuReport& report,
                        NoteBook& book) {
  KernelRecord r = new_record(k.name, index, "ncu-import");
  r.invocations = static_cast<int>(k.launches.size());
  std::vector<std::string> remarks;
  const LaunchSums sums(k);

  // The counts, by the one evaluator; an sm__ metric is taken from its smsp__ twin where
  // the report has only that.
  const counters::Counts c = counters::evaluate([&](const std::string& metric) {
    return metric.rfind("sm__", 0) == 0 ? sums.sum_sm(metric.substr(4)) : sums.sum(metric);
  });
  for (const counters::PrecisionFlops& f : c.flops) {
    const Precision& p = *f.precision;
    bool in_file = false;
    for (const char* op : kOps) in_file = in_file || file_has_sm(report, flop_metric(p.sass, op));
    const std::string instructions = counters::instruction_total_metric(p.sass);
    if (!in_file && file_has_sm(report, instructions.substr(4)))
      book.add(instructions + " counts instructions (an FMA once), not FLOPs",
               std::string(p.label) + " FLOPs need sm__" + flop_metric(p.sass, "{add,mul,fma}") +
                   ": not counted",
               r.id);
    if (!in_file) continue;
    r.*p.flops = f.flops;
    if (f.lacking.empty()) continue;
    const std::string label(p.label);
    book.add("no " + f.lacking + " count (sm__" + flop_metric(p.sass, "*") + " absent or n/a)",
             label + " FLOPs leave it out" + (f.flops > 0.0 ? ", FMA share unknown" : ""), r.id);
    remarks.push_back(label + " FLOPs without " + f.lacking);
  }
  if (c.fma_fraction) r.fma_fraction = *c.fma_fraction;
  if (c.tensor_instructions) r.tensor_instructions = *c.tensor_instructions;

  for (const counters::LevelBytes& b : c.bytes) {
    const std::string label(b.label);
    if (b.bytes) {
      r.bytes.push_back({std::string(b.level), *b.bytes});
      if (b.newer)
        book.add(label + " bytes from " + b.from + ", the newer definition (" +
                     kClassicBytes.at(b.level) + " absent or n/a)",
                 "", r.id);
    } else {
      book.add("no " + label + " byte metric (" + kByteMetrics.at(b.level) + ", absent or n/a)",
               label + " not plotted", r.id);
      remarks.push_back("no " + label + " bytes");
    }
  }

  // Time: the duration of each launch, else its elapsed cycles over the SM clock.
  bool timed = !k.launches.empty(), by_duration = false, by_cycles = false;
  double total = 0.0, lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const Launch& l : k.launches) {
    auto t = launch_value(l, "gpu__time_duration.sum");
    if (!t) t = launch_value(l, "Duration");
    if (t) {
      by_duration = true;
    } else {
      const auto cycles = launch_value(l, "sm__cycles_elapsed.avg");
      const auto clock = launch_value(l, "sm__cycles_elapsed.avg.per_second");
      if (cycles && clock && *clock > 0.0) {
        t = *cycles / *clock;
        by_cycles = true;
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
    r.time_source = by_cycles ? (by_duration ? "ncu gpu__time_duration.sum, else "
                                               "sm__cycles_elapsed.avg / .avg.per_second"
                                             : "ncu sm__cycles_elapsed.avg / "
                                               "sm__cycles_elapsed.avg.per_second")
                              : "ncu gpu__time_duration.sum";
    if (by_cycles)
      book.add(
          "time from sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second "
          "(gpu__time_duration.sum absent or n/a)",
          "", r.id);
  } else {
    r.time_source = "none";
    book.add(
        "no time (gpu__time_duration.sum, or sm__cycles_elapsed.avg with "
        "sm__cycles_elapsed.avg.per_second, absent or n/a in some launch)",
        "placed by arithmetic intensity only, not by rate", r.id);
    remarks.push_back("no time");
  }
  finish_record(r, remarks);
  return r;
}

void ncu_file_notes(const NcuReport& report, const std::string& file,
                    std::vector<std::string>& notes) {
  note_missing_flop_metrics(
      file, "sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum",
      [&](const Precision& p) {
        bool in_file = false;
        for (const char* op : kOps)
          in_file = in_file || file_has_sm(report, flop_metric(p.sass, op));
        return in_file;
      },
      [](const Precision& p) { return "sm__" + flop_metric(p.sass, "{add,mul,fma}"); }, notes);
}

// ------------------------------------------------------------------------------------
// nvprof: per-kernel averages over the invocations.

const std::map<std::string, Quantity>& nvprof_metrics() {
  static const std::map<std::string, Quantity> metrics = [] {
    std::map<std::string, Quantity> m;
    for (const Precision& p : kPrecisions) {
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

std::optional<int> parse_count(const std::string& text) {
  const auto v = parse_number(text);
  if (!v || *v < 0.0 || *v != std::floor(*v) || *v > std::numeric_limits<int>::max())
    return std::nullopt;
  return static_cast<int>(*v);
}

void read_nvprof_metrics(const csv::Table& t, const std::string& file, NvprofReport& report) {
  const int device = column(t.header, "Device"), kernel = column(t.header, "Kernel"),
            invocations = column(t.header, "Invocations"), metric = column(t.header, "Metric Name"),
            avg = column(t.header, "Avg");
  for (const csv::Record& row : t.rows) {
    const std::string& name = field(t, row, kernel, file);
    const std::string& inv_text = field(t, row, invocations, file);
    const auto inv = parse_count(inv_text);
    if (!inv || *inv < 1)  // a metric over no launch is no measurement
      throw Error(at(file, row.line) + "Invocations " + in_quotes(trim(inv_text)) +
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
      throw Error(at(file, row.line) + in_quotes(trim(text)) + " for " + m + " is not a number");
    const double value =
        to_base(split->first, text, split->second, wanted->second, true, at(file, row.line), m);
    v.total += value * *inv;
    v.weighted += value * *inv;
    v.invocations += *inv;
  }
}

// Kernel durations from an nvprof GPU trace or summary.
struct TimingEntry {
  std::string name;
  double total = 0.0;
  double min = std::numeric_limits<double>::infinity();
  double max = 0.0;
  int calls = 0;
  bool claimed = false;
};

struct Timing {
  std::string file;
  std::string kind;  // "trace" or "summary"
  std::vector<TimingEntry> entries;
  std::map<std::string, std::size_t> by_name;

  TimingEntry& entry(const std::string& name) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      it = by_name.emplace(name, entries.size()).first;
      entries.push_back({name});
    }
    return entries[it->second];
  }
};

// Older nvprof traces end a kernel's name with its correlation id: "daxpy(...) [118]".
std::string without_correlation(const std::string& name) {
  const std::string s = trim(name);
  if (s.empty() || s.back() != ']') return s;
  const std::size_t open = s.rfind(" [");
  if (open == std::string::npos) return s;
  for (std::size_t i = open + 2; i + 1 < s.size(); ++i)
    if (!is_digit(s[i])) return s;
  return trim(s.substr(0, open));
}

// The kernel's name without return type or arguments: "void f<int=4>(int)" -> "f<int=4>".
std::string base_name(const std::string& name) {
  std::string s = trim(name);
  if (s.rfind("void ", 0) == 0) s = trim(s.substr(5));
  return trim(s.substr(0, s.find('(')));
}

// The units row nvprof prints under a trace or summary header ("ms,us,,,...").
const csv::Record& units_row(const csv::Table& t, int col, const std::string& file) {
  if (t.rows.empty() || parse_number(field(t, t.rows[0], col, file)) ||
      trim(field(t, t.rows[0], col, file)).empty())
    throw Error(at(file, t.rows.empty() ? t.header.line + 1 : t.rows[0].line) +
                "no row of units under the header on line " + std::to_string(t.header.line) +
                " (nvprof prints one, e.g. \"ms,us,,...\")");
  return t.rows[0];
}

void read_trace(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int duration = column(t.header, "Duration"), name = column(t.header, "Name");
  const std::string unit = field(t, units_row(t, duration, file), duration, file);
  for (std::size_t r = 1; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    const auto d = read_value(field(t, row, duration, file), unit, Quantity::time, true,
                              at(file, row.line), "Duration");
    if (!d) continue;
    TimingEntry& e = timing.entry(without_correlation(field(t, row, name, file)));
    e.total += *d;
    e.min = std::min(e.min, *d);
    e.max = std::max(e.max, *d);
    ++e.calls;
  }
}

void read_summary(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int type = column(t.header, "Type"), time = column(t.header, "Time"),
            calls = column(t.header, "Calls"), min = column(t.header, "Min"),
            max = column(t.header, "Max"), name = column(t.header, "Name");
  const csv::Record& units = units_row(t, time, file);
  const auto unit = [&](int col) { return col < 0 ? std::string() : field(t, units, col, file); };
  for (std::size_t r = 1; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    // API calls and the like are host time, not kernel time.
    if (type >= 0 && trim(field(t, row, type, file)) != "GPU activities") continue;
    const std::string where = at(file, row.line);
    const auto total =
        read_value(field(t, row, time, file), unit(time), Quantity::time, true, where, "Time");
    const std::string& calls_text = field(t, row, calls, file);
    const auto n = parse_count(calls_text);
    if (!n) throw Error(where + "Calls " + in_quotes(trim(calls_text)) + " is not a whole number");
    if (!total || *n == 0) continue;
    TimingEntry& e = timing.entry(without_correlation(field(t, row, name, file)));
    e.total += *total;
    e.calls += *n;
    const auto lo = min < 0 ? std::nullopt
                            : read_value(field(t, row, min, file), unit(min), Quantity::time, true,
                                         where, "Min");
    const auto hi = max < 0 ? std::nullopt
                            : read_value(field(t, row, max, file), unit(max), Quantity::time, true,
                                         where, "Max");
    e.min = std::min(e.min, lo.value_or(*total / *n));
    e.max = std::max(e.max, hi.value_or(*total / *n));
  }
}

// Reads the first trace or summary table of `tables` into `timing`; false if none.
bool read_timing(const std::vector<csv::Table>& tables, Timing& timing,
                 std::vector<std::string>& notes) {
  const csv::Table* used = nullptr;
  for (const csv::Table& t : tables) {
    if (t.kind != kNvprofTrace && t.kind != kNvprofSummary) continue;
    if (used) {
      notes.push_back(timing.file + ": the " + format_name(t.kind) + " on line " +
                      std::to_string(t.header.line) + " ignored: the " + format_name(used->kind) +
                      " on line " + std::to_string(used->header.line) + " gives the times");
      continue;
    }
    used = &t;
    timing.kind = t.kind == kNvprofTrace ? "trace" : "summary";
    if (t.kind == kNvprofTrace)
      read_trace(t, timing);
    else
      read_summary(t, timing);
  }
  return used != nullptr;
}

// Pairs each kernel with its timing entry: the exact name first, then the name up to
// '(' where that picks one entry no other kernel could also claim.
std::vector<const TimingEntry*> match_timing(const NvprofReport& report, Timing& timing,
                                             std::vector<std::string>& notes) {
  std::vector<const TimingEntry*> match(report.kernels.size(), nullptr);
  // Exact names first, so that a name-up-to-'(' match cannot take another kernel's entry.
  for (std::size_t i = 0; i < report.kernels.size(); ++i) {
    const auto it = timing.by_name.find(report.kernels[i].name);
    if (it == timing.by_name.end()) continue;
    match[i] = &timing.entries[it->second];
    timing.entries[it->second].claimed = true;
  }
  std::map<std::string, int> unmatched_bases;
  for (std::size_t i = 0; i < report.kernels.size(); ++i)
    if (!match[i]) ++unmatched_bases[base_name(report.kernels[i].name)];
  for (std::size_t i = 0; i < report.kernels.size(); ++i) {
    if (match[i]) continue;
    const std::string base = base_name(report.kernels[i].name);
    std::vector<TimingEntry*> candidates;
    for (TimingEntry& e : timing.entries)
      if (!e.claimed && base_name(e.name) == base) candidates.push_back(&e);
    const std::string id = "k" + std::to_string(i + 1);
    if (candidates.size() == 1 && unmatched_bases[base] == 1) {
      match[i] = candidates[0];
      candidates[0]->claimed = true;
      notes.push_back(timing.file + ": " + id + " " + in_quotes(report.kernels[i].name) +
                      " matched to " + in_quotes(candidates[0]->name) + " by its name up to '('");
    } else if (!candidates.empty()) {
      notes.push_back(timing.file + ": " + id + " " + in_quotes(report.kernels[i].name) +
                      " matches several kernels by its name up to '(': none taken");
    }
  }
  return match;
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
  for (const counters::LevelBytes& l : c.bytes) {
    if (l.bytes) {
      r.bytes.push_back({std::string(l.level), *l.bytes});
    } else {
      book.add("no " + std::string(l.label) + " byte metric (" + recipe.at(l.level) +
                   ", absent or n/a)",
               std::string(l.label) + " not plotted", r.id);
      remarks.push_back("no " + std::string(l.label) + " bytes");
    }
  }

  // Time: the timing file, else transactions x 32 B over the reported throughput.
  if (timed) {
    r.time_source = "nvprof GPU " + timing->kind;
    r.time_s = timed->total;
    r.time_min = timed->min;
    r.time_max = timed->max;
    r.samples = timed->calls;
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

// ------------------------------------------------------------------------------------

std::vector<csv::Table> read_tables(const std::string& text, const std::string& name) {
  if (text.find('\0') != std::string::npos)
    throw Error(name +
                ": a binary file, not CSV (an Nsight Compute .ncu-rep? export it with "
                "ncu --import FILE --csv --page raw)");
  return csv::read_tables(text, name, classify);
}

[[noreturn]] void no_header(const std::string& name) {
  throw Error(at(name, 1) +
              "no Nsight Compute or nvprof CSV header (expected \"ID\",...,\"Kernel Name\",... "
              "from ncu --csv, or \"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",... "
              "from nvprof --csv --metrics)");
}

}  // namespace

ImportResult parse_report(const std::string& report_text, const std::string& report_name,
                          const std::string& timing_text, const std::string& timing_name) {
  const std::vector<csv::Table> tables = read_tables(report_text, report_name);
  if (tables.empty()) no_header(report_name);

  // The first table of counts sets the format; others of the same format continue it
  // (reports appended to one file repeat the header).
  const csv::Table* first = nullptr;
  for (const csv::Table& t : tables) {
    if (t.kind == kNcuSummary)
      throw Error(at(report_name, t.header.line) +
                  "an Nsight Compute --print-summary table: launches are needed, export "
                  "without --print-summary");
    if (t.kind != kNcuLong && t.kind != kNcuWide && t.kind != kNvprofMetrics) continue;
    if (!first) first = &t;
    if (t.kind != first->kind)
      throw Error(at(report_name, t.header.line) + "an " + format_name(t.kind) +
                  " table after the " + format_name(first->kind) + " one on line " +
                  std::to_string(first->header.line) + ": one format per file");
  }
  if (!first) {
    const csv::Table& t = tables.front();
    if (t.kind == kNvprofTrace || t.kind == kNvprofSummary)
      throw Error(at(report_name, t.header.line) + "an " + format_name(t.kind) +
                  " holds times, not counts: give it as the timing file of an nvprof "
                  "--metrics report");
    throw Error(at(report_name, t.header.line) + "an " + format_name(t.kind) +
                " table: no metrics to import (nvprof --csv --metrics ... gives them)");
  }

  ImportResult result;
  result.format = format_name(first->kind);
  // A timing file named but empty is an error, not the same as none.
  const bool timing_given = !timing_name.empty() || !timing_text.empty();
  if (first->kind == kNcuLong || first->kind == kNcuWide) {
    NcuReport report;
    for (const csv::Table& t : tables) {
      if (t.kind == kNcuLong) read_ncu_long(t, report_name, report);
      if (t.kind == kNcuWide) read_ncu_wide(t, report_name, report);
    }
    if (timing_given)
      result.notes.push_back((timing_name.empty() ? std::string("the timing file") : timing_name) +
                             " ignored: Nsight Compute reports carry their own time");
    NoteBook book(report_name, report.kernels.size());
    for (std::size_t i = 0; i < report.kernels.size(); ++i)
      result.kernels.push_back(ncu_record(report.kernels[i], i, report, book));
    if (!report.kernels.empty()) ncu_file_notes(report, report_name, result.notes);
    book.append_to(result.notes);
  } else {
    NvprofReport report;
    for (const csv::Table& t : tables)
      if (t.kind == kNvprofMetrics) read_nvprof_metrics(t, report_name, report);
    Timing timing;
    bool have_timing = false;
    if (timing_given) {
      timing.file = timing_name.empty() ? std::string("timing file") : timing_name;
      const std::vector<csv::Table> timing_tables = read_tables(timing_text, timing.file);
      if (timing_tables.empty()) no_header(timing.file);
      have_timing = read_timing(timing_tables, timing, result.notes);
      if (!have_timing)
        throw Error(at(timing.file, timing_tables.front().header.line) + "an " +
                    format_name(timing_tables.front().kind) +
                    " table, not an nvprof GPU trace (--print-gpu-trace --csv) or summary "
                    "(--csv)");
    } else {
      // nvprof prints a summary or trace beside the metrics when asked for both.
      timing.file = report_name;
      have_timing = read_timing(tables, timing, result.notes);
    }
    std::vector<const TimingEntry*> matches(report.kernels.size(), nullptr);
    if (have_timing) matches = match_timing(report, timing, result.notes);
    NoteBook book(report_name, report.kernels.size());
    for (std::size_t i = 0; i < report.kernels.size(); ++i)
      result.kernels.push_back(
          nvprof_record(report.kernels[i], i, have_timing ? &timing : nullptr, matches[i], book));
    if (!report.kernels.empty())
      nvprof_file_notes(report, result.kernels, report_name, result.notes);
    book.append_to(result.notes);
  }
  if (result.kernels.empty())
    result.notes.push_back(report_name + ": no kernels in the " + result.format + " report");
  return result;
}

}  // namespace rooftop::counters
