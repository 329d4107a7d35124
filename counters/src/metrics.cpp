#include "rooftop/counters/metrics.hpp"

#include <cstdio>

namespace rooftop::analyze::cupti {
namespace {

using ceilings::KernelRecord;

using FlopsField = double KernelRecord::*;  // (an alias: nvcc's front end warns on the bare form)

struct Precision {
  const char* name;   // rooftop's precision name
  const char* label;  // for messages
  char letter;        // d, f, h in sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}
  FlopsField flops;
};
constexpr Precision kPrecisions[] = {{"fp64", "FP64", 'd', &KernelRecord::flops_fp64},
                                     {"fp32", "FP32", 'f', &KernelRecord::flops_fp32},
                                     {"fp16", "FP16", 'h', &KernelRecord::flops_fp16}};
constexpr const char* kOps[] = {"add", "mul", "fma"};

// Newer Nsight Compute definitions: L1 as LSU writeback cycles of 128 B, L2 as
// L2-to-crossbar cycles of 32 B.
constexpr double kWritebackBytes = 128.0;
constexpr double kXbarBytes = 32.0;

constexpr const char* kTensor = "sm__inst_executed_pipe_tensor.sum";
constexpr const char* kL1 = "l1tex__t_bytes.sum";
constexpr const char* kL2 = "lts__t_bytes.sum";
constexpr const char* kDram = "dram__bytes.sum";
constexpr const char* kL1WritebackLgds = "l1tex__lsu_writeback_active_mem_lgds.sum";
constexpr const char* kL1WritebackLg = "l1tex__lsu_writeback_active_mem_lg.sum";
constexpr const char* kL1WritebackDs = "l1tex__lsu_writeback_active_mem_ds.sum";
constexpr const char* kL2Xbar = "lts__lts2xbar_cycles_active.sum";
constexpr const char* kDuration = "gpu__time_duration.sum";

std::string flop_metric(char letter, const char* op) {
  return std::string("sm__sass_thread_inst_executed_op_") + letter + op + "_pred_on.sum";
}

std::optional<double> find(const MetricValues& values, const std::string& name) {
  const auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::string bytes_text(double bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g B", bytes);
  return buffer;
}

}  // namespace

const std::vector<Metric>& roofline_metrics() {
  static const std::vector<Metric> metrics = [] {
    std::vector<Metric> m;
    for (const Precision& p : kPrecisions)
      for (const char* op : kOps)
        m.push_back({flop_metric(p.letter, op), MetricRole::flops, "",
                     std::string(p.label) + " " + op + " thread instructions"});
    m.push_back({kTensor, MetricRole::tensor, "", "tensor-pipe warp instructions"});
    m.push_back({kL1, MetricRole::bytes, "l1", "L1 bytes"});
    m.push_back({kL2, MetricRole::bytes, "l2", "L2 bytes"});
    m.push_back({kDram, MetricRole::bytes, "dram", "DRAM bytes"});
    m.push_back({kL1WritebackLgds, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, local/global/distributed shared (x 128 B)"});
    m.push_back({kL1WritebackLg, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, local/global (x 128 B)"});
    m.push_back({kL1WritebackDs, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, distributed shared (x 128 B)"});
    m.push_back(
        {kL2Xbar, MetricRole::bytes_alternative, "l2", "L2-to-crossbar active cycles (x 32 B)"});
    m.push_back({kDuration, MetricRole::time, "", "range duration (ns)"});
    return m;
  }();
  return metrics;
}

std::vector<std::string> roofline_metric_names() {
  std::vector<std::string> names;
  for (const Metric& m : roofline_metrics()) names.push_back(m.name);
  return names;
}

void accumulate(MetricValues& total, const MetricValues& range) {
  for (const auto& [name, value] : range) total[name] += value;
}

Evaluation evaluate(const MetricValues& values) {
  Evaluation e;
  KernelRecord& r = e.counts;

  // FLOPs: an FMA is two. The FMA share is known only where every precision that has
  // FLOPs has all three counts.
  double fma_flops = 0.0, all_flops = 0.0;
  bool fma_known = true;
  for (const Precision& p : kPrecisions) {
    std::optional<double> count[3];
    std::string lacking;
    int present = 0;
    for (int i = 0; i < 3; ++i) {
      count[i] = find(values, flop_metric(p.letter, kOps[i]));
      if (count[i])
        ++present;
      else
        lacking += std::string(lacking.empty() ? "" : ", ") + p.letter + kOps[i];
    }
    if (present == 0) {
      e.remarks.push_back(std::string("no ") + p.label + " FLOP metric (" +
                          flop_metric(p.letter, "{add,mul,fma}") + "): " + p.label +
                          " FLOPs not counted");
      continue;
    }
    const double flops =
        count[0].value_or(0.0) + count[1].value_or(0.0) + 2.0 * count[2].value_or(0.0);
    r.*p.flops = flops;
    if (!lacking.empty()) {
      if (flops > 0.0) fma_known = false;
      e.remarks.push_back(std::string(p.label) + " FLOPs without " + lacking + " (" +
                          flop_metric(p.letter, "*") + " not collected)");
    } else if (flops > 0.0) {
      fma_flops += 2.0 * *count[2];
      all_flops += flops;
    }
  }
  if (!fma_known) {
    e.remarks.push_back("FMA share unknown");
  } else if (all_flops > 0.0) {
    r.fma_fraction = fma_flops / all_flops;
  }
  double most = 0.0;
  for (const Precision& p : kPrecisions)
    if (r.*p.flops > most) {
      most = r.*p.flops;
      r.precision = p.name;
    }

  if (auto t = find(values, kTensor))
    r.tensor_instructions = *t;
  else
    e.remarks.push_back(std::string("no tensor instruction count (") + kTensor + ")");

  // Bytes: the newer definitions where the chip has them, kept beside the classic ones.
  std::optional<double> l1_new;
  if (auto lgds = find(values, kL1WritebackLgds)) {
    l1_new = *lgds * kWritebackBytes;
  } else if (auto lg = find(values, kL1WritebackLg)) {
    l1_new = (*lg + find(values, kL1WritebackDs).value_or(0.0)) * kWritebackBytes;
  }
  std::optional<double> l2_new;
  if (auto c = find(values, kL2Xbar)) l2_new = *c * kXbarBytes;
  if (l1_new) e.bytes_alternative.push_back({"l1", *l1_new});
  if (l2_new) e.bytes_alternative.push_back({"l2", *l2_new});

  // The recorded bytes: the classic definition, else the newer one (said in a remark).
  const struct {
    const char* level;
    const char* label;
    const char* metric;
    std::optional<double> newer;
    const char* newer_metric;
  } levels[] = {{"l1", "L1", kL1, l1_new, "l1tex__lsu_writeback_active_mem_{lgds,lg}.sum x 128 B"},
                {"l2", "L2", kL2, l2_new, "lts__lts2xbar_cycles_active.sum x 32 B"},
                {"dram", "DRAM", kDram, std::nullopt, ""}};
  for (const auto& l : levels) {
    if (auto b = find(values, l.metric)) {
      r.bytes.push_back({l.level, *b});
    } else if (l.newer) {
      r.bytes.push_back({l.level, *l.newer});
      e.remarks.push_back(std::string(l.label) + " bytes from " + l.newer_metric + " (" + l.metric +
                          " not collected)");
    } else {
      e.remarks.push_back(std::string("no ") + l.label + " bytes (" + l.metric + " not collected)");
    }
  }

  if (auto ns = find(values, kDuration)) e.gpu_time_s = *ns * 1e-9;
  return e;
}

void apply_counts(const Evaluation& evaluation, ceilings::KernelRecord& record) {
  const KernelRecord& c = evaluation.counts;
  record.flops_fp64 = c.flops_fp64;
  record.flops_fp32 = c.flops_fp32;
  record.flops_fp16 = c.flops_fp16;
  record.fma_fraction = c.fma_fraction;
  record.precision = c.precision;
  record.tensor_instructions = c.tensor_instructions;
  record.bytes = c.bytes;

  std::vector<std::string> parts;
  if (!evaluation.bytes_alternative.empty()) {
    std::string s;
    for (const auto& b : evaluation.bytes_alternative)
      s += (s.empty() ? "" : ", ") + b.level + " " + bytes_text(b.bytes);
    parts.push_back("newer Nsight Compute byte definitions: " + s);
  }
  parts.insert(parts.end(), evaluation.remarks.begin(), evaluation.remarks.end());
  for (const std::string& p : parts) record.note += (record.note.empty() ? "" : "; ") + p;
}

}  // namespace rooftop::analyze::cupti
