#include "rooftop/llm/estimate.hpp"

#include <algorithm>
#include <cmath>

#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::llm {
namespace {

// Where bytes of `size` live between operators: from the L2 on (the L1 is a kernel's own:
// nothing stays there from one operator to the next), else DRAM (a GPU's HBM).
std::string level_for(const core::CeilingsFile& f, double size) {
  return core::level_holding(f, size, "l2");
}

// Where the weights and the KV cache live on this machine.
struct Homes {
  std::string weights, kv;
};

core::KernelRecord record_of(const Operator& op, const std::map<std::string, double>& bytes) {
  core::KernelRecord r;
  r.name = op.name;
  r.precision = op.precision;
  for (const core::Precision& p : core::kPrecisions)
    if (p.name == op.precision) r.*p.flops = op.flops;
  for (const auto& [level, b] : bytes)
    if (b > 0) r.bytes.emplace_back(level, b);
  r.time_s = 1.0;
  return r;
}

std::map<std::string, double> bytes_of(const Operator& op, const Homes& homes,
                                       const core::CeilingsFile& f) {
  std::map<std::string, double> bytes;
  bytes[homes.weights] += op.weight_bytes;
  bytes[homes.kv] += op.kv_bytes;
  bytes[level_for(f, op.activation_bytes / std::max(1.0, op.launches))] += op.activation_bytes;
  return bytes;
}

struct Bound {
  double seconds = 0;
  std::string limiter;
};

// The time the file's roofs bound `r` to: its FLOPs on its compute roof, its bytes on each
// level's bandwidth, the longest of them binding.
Bound bound_of(const core::KernelRecord& r, const core::CeilingsFile& f, const std::string& path,
               const Options& o) {
  Bound b;
  if (r.flops() > 0) {
    const core::Placement p = core::place(r, f);
    std::optional<core::ComputeRoof> roof = p.compute;
    if (!roof && o.fallback) roof = core::compute_roof(f, "fp32", -1.0);
    if (!roof)
      throw Error(path + ": no roof for the " + r.precision + " FLOPs of " + r.name +
                  (p.note.empty() ? "" : " (" + p.note + ")") +
                  "; --fallback-roof places them on its fp32 FMA ceiling");
    b = {r.flops() / (roof->gflop_per_s * 1e9), roof->ceiling};
  }
  for (const core::LevelBytes& l : r.bytes) {
    const core::Ceiling* bw = f.find(l.level);
    if (!bw || bw->value <= 0) throw Error(path + ": no " + l.level + " bandwidth ceiling");
    const double t = l.bytes / (bw->value * 1e9);
    if (t > b.seconds) b = {t, l.level};
  }
  return b;
}

// A phase of `steps`, each a step's operators (the same operators in the same order).
Phase run_phase(const std::string& name, const std::vector<std::vector<Operator>>& steps,
                const Homes& homes, const core::CeilingsFile& f, const std::string& path,
                const Options& o, double interval_s) {
  Phase phase{name, {}, 0, 0};
  std::vector<std::map<std::string, double>> limiter_time;
  for (const std::vector<Operator>& step : steps) {
    if (phase.operators.empty()) {
      for (const Operator& op : step) {
        PlacedOperator placed{op, {}, "", 0, 0};
        placed.op.flops = placed.op.weight_bytes = placed.op.kv_bytes = 0;
        placed.op.activation_bytes = placed.op.launches = 0;
        phase.operators.push_back(placed);
      }
      limiter_time.resize(step.size());
    }
    for (std::size_t i = 0; i < step.size(); ++i) {
      const Operator& op = step[i];
      const std::map<std::string, double> bytes = bytes_of(op, homes, f);
      const Bound b = bound_of(record_of(op, bytes), f, path, o);
      PlacedOperator& p = phase.operators[i];
      p.op.flops += op.flops;
      p.op.weight_bytes += op.weight_bytes;
      p.op.kv_bytes += op.kv_bytes;
      p.op.activation_bytes += op.activation_bytes;
      p.op.launches += op.launches;
      for (const auto& [level, n] : bytes) p.bytes[level] += n;
      p.bound_s += b.seconds;
      limiter_time[i][b.limiter] += b.seconds;
      phase.bound_s += b.seconds;
      phase.launch_s += op.launches * interval_s;
    }
  }
  for (std::size_t i = 0; i < phase.operators.size(); ++i) {
    const auto& times = limiter_time[i];
    const auto most = std::max_element(times.begin(), times.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most == times.end()) continue;
    PlacedOperator& p = phase.operators[i];
    p.limiter = most->first;
    // A compute roof is a ceiling or a matrix unit's figure; a bandwidth roof a ceiling.
    const core::Ceiling* c = f.find(p.limiter);
    if (!c) c = f.matrix.find(p.limiter);
    if (c && c->value > 0 && c->max > c->value) p.spread = c->max / c->value - 1;
  }
  return phase;
}

// Whether decode's weight GEMMs (the MLP's down projection) are compute-bound at `batch`.
bool compute_bound_at(const ModelConfig& m, Workload w, long long batch, const Homes& homes,
                      const core::CeilingsFile& f, const std::string& path, const Options& o) {
  w.batch = batch;
  for (const Operator& op : step_operators(m, w, 1, w.prompt))
    if (op.name == "down_proj" || op.name == "expert_down_proj") {
      const Bound b = bound_of(record_of(op, bytes_of(op, homes, f)), f, path, o);
      return !f.find(b.limiter) || f.find(b.limiter)->kind != "bandwidth";
    }
  return false;
}

long long compute_bound_batch(const ModelConfig& m, const Workload& w, const Homes& homes,
                              const core::CeilingsFile& f, const std::string& path,
                              const Options& o) {
  long long hi = 1;
  while (hi <= 65536 && !compute_bound_at(m, w, hi, homes, f, path, o)) hi *= 2;
  if (hi > 65536) return 0;
  long long lo = hi / 2;  // memory-bound there (or 0)
  while (hi - lo > 1) {
    const long long mid = (lo + hi) / 2;
    (compute_bound_at(m, w, mid, homes, f, path, o) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

MachineEstimate estimate(const ModelConfig& m, const Workload& w, const core::CeilingsFile& f,
                         const std::string& path, const Options& o) {
  MachineEstimate e;
  e.file = path;
  e.name = !f.machine.gpu_name.empty() ? f.machine.gpu_name : f.machine.cpu_model;
  const double weights = weight_bytes(m, w);
  const double kv = kv_cache_bytes(m, w, w.prompt + w.generate);
  // Over a decode step every weight and the whole KV cache pass through the caches before
  // any is read again: they stay in a cache only where all of them fit it.
  const std::string home = level_for(f, weights + kv);
  const Homes homes{home, home};
  if (!f.find("dram")) throw Error(path + ": no dram bandwidth ceiling");
  e.notes.push_back("weights (" + core::significant(weights / 1e9, 4) + " GB) from " +
                    homes.weights + ", the KV cache (" + core::significant(kv / 1e9, 4) +
                    " GB at the final length) from " + homes.kv);

  double interval_s = 0;
  if (o.launch_overhead) {
    const core::Ceiling* launch = f.costs.find("launch_interval");
    if (launch && launch->value > 0) {
      e.launch_interval_us = launch->value;
      interval_s = launch->value * 1e-6;
    } else {
      e.notes.push_back("no launch_interval figure in the file (measured since schema 1.7): "
                        "no launch costs added");
    }
  }

  e.prefill = run_phase("prefill", {step_operators(m, w, w.prompt, 0)}, homes, f, path, o,
                        interval_s);
  std::vector<std::vector<Operator>> steps;
  for (long long t = 0; t < w.generate; ++t) steps.push_back(step_operators(m, w, 1, w.prompt + t));
  e.decode = run_phase("decode", steps, homes, f, path, o, interval_s);

  e.prefill_s = e.prefill.seconds();
  const double G = static_cast<double>(std::max<long long>(1, w.generate));
  e.decode_s_per_token = e.decode.seconds() / G;
  e.tokens_per_s = e.decode_s_per_token > 0 ? static_cast<double>(w.batch) / e.decode_s_per_token : 0;
  for (const PlacedOperator& p : e.decode.operators) {
    e.decode_flops_per_token += p.op.flops / G;
    for (const auto& [level, n] : p.bytes) e.decode_bytes_per_token += n / G;
  }
  e.memory_bytes_needed = weights + kv;
  e.memory_bytes = static_cast<double>(f.machine.memory_bytes);
  if (e.memory_bytes > 0) {
    e.fits = e.memory_bytes_needed <= e.memory_bytes;
    if (!*e.fits)
      e.notes.push_back("does not fit: the weights and KV cache need " +
                        core::significant(e.memory_bytes_needed / 1e9, 4) + " GB, the machine has " +
                        core::significant(e.memory_bytes / 1e9, 4) + " GB");
  } else {
    e.notes.push_back("the file does not record the machine's memory (a host's is recorded "
                      "since 2026-11-29): whether the model fits is not known");
  }
  e.compute_bound_batch = compute_bound_batch(m, w, homes, f, path, o);

  double total = 0;
  for (const Phase* ph : {&e.prefill, &e.decode})
    for (const PlacedOperator& p : ph->operators) {
      e.kind_share[p.op.kind] += p.bound_s;
      e.roof_share[p.limiter] += p.bound_s;
      total += p.bound_s;
    }
  for (auto* shares : {&e.kind_share, &e.roof_share})
    for (auto& [name, s] : *shares) s = total > 0 ? s / total : 0;
  return e;
}

std::vector<core::KernelRecord> phase_records(const Phase& phase, const core::CeilingsFile& f) {
  std::vector<core::KernelRecord> out;
  int i = 0;
  for (const PlacedOperator& p : phase.operators) {
    ++i;
    if (p.bound_s <= 0 || p.op.flops <= 0) continue;
    core::KernelRecord r = record_of(p.op, p.bytes);
    r.name = phase.name + " " + p.op.name;
    r.id = std::string(phase.name == "prefill" ? "P" : "D") + std::to_string(i);
    r.order = i;  // no group: the operators are no ladder to join with arrows
    r.time_s = p.bound_s;
    r.time_source = "the roofline's bound";
    core::apply(core::place(r, f), r);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rooftop::llm
