#include "rooftop/counters/evaluate.hpp"

#include <algorithm>

namespace rooftop::counters {
namespace {

// A DRAM/L2/L1 sector and an L2-to-crossbar cycle are 32 bytes; an L1 writeback cycle
// of the LSU moves one 128-byte line; an nvprof transaction is one 32-byte sector.
constexpr double kSectorBytes = 32.0;
constexpr double kWritebackBytes = 128.0;
constexpr double kTransactionBytes = 32.0;

// Nsight Compute's Pascal (CC 6.x) set, which it profiled up to 2019.5 (its 2020.1 release
// notes: "Removed support for the Pascal SM 6.x GPU architecture"), names some metrics
// without a rollup: its section files gave each metric an option per architecture (the
// Customization Guide of 2019.3, "Metric Options"). Read where the meaning is the one of the
// newer name: gpu__time_duration (nsecond) is gpu__time_duration.sum, and
// dram__read_bytes + dram__write_bytes (byte) are dram__bytes_read.sum + _write.sum (a real
// GTX 1080 report shows dram__read_bytes = dram__read_sectors x 32 B). Its other names are
// not read: no FLOP metric is in the set, its L2 metrics are percentages, and its tex__m_*
// bytes count only some of the L1-L2 traffic, not lts__t_bytes.sum.
constexpr const char* kPascalDuration = "gpu__time_duration";

// The sum of two metrics, where both were collected.
std::optional<double> both(const Lookup& value, const char* a, const char* b, double scale) {
  const auto x = value(a), y = value(b);
  if (!x || !y) return std::nullopt;
  return (*x + *y) * scale;
}

// nvprof's L1 (the hierarchical-roofline recipe): global loads and stores, plus the
// atomic, local and shared transactions that were collected.
std::optional<double> nvprof_l1(const Lookup& value, std::string& from) {
  auto bytes = both(value, "gld_transactions", "gst_transactions", kTransactionBytes);
  if (!bytes) return bytes;
  from = "gld_transactions + gst_transactions";
  for (const char* m : kNvprofL1Extras)
    if (const auto v = value(m)) {
      *bytes += *v * kTransactionBytes;
      from += std::string(" + ") + m;
    }
  from += " x 32 B";
  return bytes;
}

// The DRAM pairs of evaluate(), each as its read and its write half with their scale.
struct DramPair {
  const char* read;
  const char* write;
  double scale;
  const char* suffix;  // of `from`
};
constexpr DramPair kDramPairs[] = {
    {"dram__bytes_read.sum", "dram__bytes_write.sum", 1.0, ""},
    {"dram__sectors_read.sum", "dram__sectors_write.sum", kSectorBytes, " x 32 B"},
    {"dram_read_transactions", "dram_write_transactions", kTransactionBytes, " x 32 B"},
    {"dram_read_bytes", "dram_write_bytes", 1.0, ""},
    {"dram__read_bytes", "dram__write_bytes", 1.0, ""},
};

// Where no pair is whole, the first half that was collected: reads alone (or writes
// alone) are fewer bytes than the kernel moved, kept and marked as such, not dropped.
LevelBytes half_dram(const Lookup& value) {
  LevelBytes b{"dram", "DRAM", std::nullopt, "", false, ""};
  for (const DramPair& p : kDramPairs)
    for (const auto& [metric, half] : {std::pair{p.read, "read"}, std::pair{p.write, "write"}})
      if (const auto v = value(metric)) {
        b.bytes = *v * p.scale;
        b.from = std::string(metric) + p.suffix;
        b.counted = half;
        return b;
      }
  return b;
}

// Bytes at each level from the first definition that is there, and the newer
// definitions beside them.
void evaluate_bytes(const Lookup& value, Counts& c) {
  // The newer definitions.
  std::string l1_newer_from;
  if (auto lgds = value("l1tex__lsu_writeback_active_mem_lgds.sum")) {
    c.l1_newer = *lgds * kWritebackBytes;
    l1_newer_from = "l1tex__lsu_writeback_active_mem_lgds.sum x 128 B";
  } else if (auto lg = value("l1tex__lsu_writeback_active_mem_lg.sum")) {
    const auto ds = value("l1tex__lsu_writeback_active_mem_ds.sum");
    c.l1_newer = (*lg + ds.value_or(0.0)) * kWritebackBytes;
    l1_newer_from = std::string("l1tex__lsu_writeback_active_mem_lg.sum") +
                    (ds ? " + _ds.sum" : "") + " x 128 B";
  }
  if (auto x = value("lts__lts2xbar_cycles_active.sum")) c.l2_newer = *x * kSectorBytes;

  // Each level from the first definition that is there.
  const auto level =
      [&](std::string_view name, std::string_view label,
          std::initializer_list<std::pair<std::optional<double>, std::string>> definitions) {
        LevelBytes b{name, label, std::nullopt, "", false, ""};
        for (const auto& [bytes, from] : definitions)
          if (bytes) {
            b.bytes = bytes;
            b.from = from;
            break;
          }
        return b;
      };
  const auto scaled = [&](const char* metric, double scale) -> std::optional<double> {
    const auto v = value(metric);
    return v ? std::optional<double>(*v * scale) : std::nullopt;
  };
  std::string nvprof_l1_from;
  const auto l1_nvprof = nvprof_l1(value, nvprof_l1_from);
  c.bytes.push_back(
      level("l1", "L1",
            {{value("l1tex__t_bytes.sum"), "l1tex__t_bytes.sum"},
             {scaled("l1tex__t_sectors.sum", kSectorBytes), "l1tex__t_sectors.sum x 32 B"},
             {c.l1_newer, l1_newer_from},
             {l1_nvprof, nvprof_l1_from}}));
  c.bytes.push_back(
      level("l2", "L2",
            {{value("lts__t_bytes.sum"), "lts__t_bytes.sum"},
             {scaled("lts__t_sectors.sum", kSectorBytes), "lts__t_sectors.sum x 32 B"},
             {c.l2_newer, "lts__lts2xbar_cycles_active.sum x 32 B"},
             {both(value, "l2_read_transactions", "l2_write_transactions", kTransactionBytes),
              "l2_read_transactions + l2_write_transactions x 32 B"}}));
  c.bytes.push_back(
      level("dram", "DRAM",
            {{value("dram__bytes.sum"), "dram__bytes.sum"},
             {both(value, "dram__bytes_read.sum", "dram__bytes_write.sum", 1.0),
              "dram__bytes_read.sum + _write.sum"},
             {both(value, "dram__sectors_read.sum", "dram__sectors_write.sum", kSectorBytes),
              "dram__sectors_read.sum + _write.sum x 32 B"},
             {both(value, "dram_read_transactions", "dram_write_transactions", kTransactionBytes),
              "dram_read_transactions + dram_write_transactions x 32 B"},
             {both(value, "dram_read_bytes", "dram_write_bytes", 1.0),
              "dram_read_bytes + dram_write_bytes"},
             {both(value, "dram__read_bytes", "dram__write_bytes", 1.0),
              "dram__read_bytes + dram__write_bytes"}}));
  if (!c.bytes[2].bytes) c.bytes[2] = half_dram(value);
  c.bytes[0].newer = c.bytes[0].bytes && c.bytes[0].from == l1_newer_from;
  c.bytes[1].newer = c.bytes[1].bytes && c.bytes[1].from.rfind("lts__lts2xbar", 0) == 0;
}

}  // namespace

std::string flop_metric(char letter, std::string_view op) {
  return std::string("sm__sass_thread_inst_executed_op_") + letter + std::string(op) +
         "_pred_on.sum";
}

std::string flop_total_metric(std::string_view nvprof_precision) {
  return "flop_count_" + std::string(nvprof_precision);
}

std::string instruction_total_metric(char letter) {
  const std::string l(1, letter);
  return "sm__sass_thread_inst_executed_ops_" + l + "add_" + l + "mul_" + l + "fma_pred_on.sum";
}

Counts evaluate(const Lookup& value) {
  Counts c;
  double fma_flops = 0.0, all_flops = 0.0, most = 0.0;
  for (const core::Precision& p : core::kPrecisions) {
    if (!p.counted_by_instructions()) continue;
    PrecisionFlops f;
    f.precision = &p;
    std::optional<double> count[3];
    for (int i = 0; i < 3; ++i) {
      count[i] = value(flop_metric(p.sass, core::kFlopOps[i]));
      if (count[i])
        ++f.parts;
      else
        f.lacking +=
            std::string(f.lacking.empty() ? "" : ", ") + p.sass + std::string(core::kFlopOps[i]);
    }
    const double parts =
        count[0].value_or(0.0) + count[1].value_or(0.0) + 2.0 * count[2].value_or(0.0);
    // nvprof's flop_count_* is FLOPs; Nsight Compute's ops_ sum is instructions and is
    // never read here.
    f.flops = value(flop_total_metric(p.nvprof)).value_or(parts);
    if (f.flops > 0.0) {
      if (!f.lacking.empty()) {
        c.fma_known = false;
      } else {
        fma_flops += 2.0 * *count[2];
        all_flops += parts;
      }
    }
    if (f.flops > most) {
      most = f.flops;
      c.precision = p.name;
    }
    c.flops.push_back(std::move(f));
  }
  if (c.fma_known && all_flops > 0.0) c.fma_fraction = fma_flops / all_flops;

  c.tensor_instructions = value("sm__inst_executed_pipe_tensor.sum");
  if (!c.tensor_instructions)
    for (const char* op : {"hmma", "dmma", "imma"})
      if (auto v = value(std::string("sm__inst_executed_pipe_tensor_op_") + op + ".sum"))
        c.tensor_instructions = c.tensor_instructions.value_or(0.0) + *v;

  for (const core::TensorPath& t : core::kTensorPaths) {
    const bool counted = std::any_of(c.tensor_ops.begin(), c.tensor_ops.end(),
                                     [&](const TensorCount& x) { return x.figure == t.figure; });
    if (counted) continue;
    if (const auto v = value(std::string(t.metric)))
      c.tensor_ops.push_back({t.figure, t.metric, *v});
  }

  evaluate_bytes(value, c);

  auto ns = value("gpu__time_duration.sum");
  if (!ns) ns = value(kPascalDuration);
  if (ns) c.duration_s = *ns * 1e-9;
  return c;
}

core::LevelBytes recorded_bytes(const LevelBytes& bytes) {
  return {std::string(bytes.level), bytes.bytes.value_or(0.0), bytes.counted};
}

std::string partial_bytes_remark(const LevelBytes& bytes) {
  if (bytes.counted.empty()) return {};
  const std::string label(bytes.label);
  return label + " bytes are " + bytes.counted + "s only (" + bytes.from + "; no " +
         (bytes.counted == "read" ? "write" : "read") + " count collected): its " + label +
         " intensity is an upper bound";
}

std::vector<core::TensorOps> recorded_tensor_ops(const Counts& counts) {
  std::vector<core::TensorOps> out;
  for (const TensorCount& t : counts.tensor_ops)
    if (t.ops > 0.0) out.push_back({std::string(t.figure), t.ops});
  return out;
}

}  // namespace rooftop::counters
