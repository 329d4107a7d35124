#pragma once
// A model's operators placed on one machine's measured ceilings: each operator's bytes
// at the level they live in, its binding roof and the time that roof bounds it to; the
// phases (prefill, then decode summed over the tokens generated), time to first token,
// time per output token, the batch where decode turns compute-bound, and whether the
// weights and KV cache fit the machine's memory. Each operator is a core::KernelRecord
// placed by core::place, the evaluator every other kernel is placed by.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/llm/config.hpp"
#include "rooftop/llm/operators.hpp"

namespace rooftop::llm {

struct Options {
  bool launch_overhead = true;  // each kernel adds the file's launch_interval
  bool fallback = false;        // a precision without its roof placed on fp32_fma
};

// One operator of a phase on a machine (decode: summed over its steps).
struct PlacedOperator {
  Operator op;
  std::map<std::string, double> bytes;  // by level
  std::string limiter;                  // the binding roof (of its longest step)
  double bound_s = 0;                   // the time the roofs bound it to
  // Its limiter's spread: the fastest sample of that ceiling over its median, less 1. A
  // run may beat the bound by this much with the roofs right.
  double spread = 0;
};

struct Phase {
  std::string name;  // "prefill", "decode"
  std::vector<PlacedOperator> operators;
  double bound_s = 0;   // the operators' bounds
  double launch_s = 0;  // their kernels' launch intervals
  double seconds() const { return bound_s + launch_s; }
};

struct MachineEstimate {
  std::string name;  // the machine, as its file names it
  std::string file;
  Phase prefill, decode;
  double prefill_s = 0;             // time to first token
  double decode_s_per_token = 0;    // a step of the batch, over the tokens generated
  double tokens_per_s = 0;          // tokens the batch generates a second while decoding
  double decode_bytes_per_token = 0, decode_flops_per_token = 0;  // a step's, on average
  double memory_bytes_needed = 0;   // weights + the KV cache at the final length
  double memory_bytes = 0;          // the machine's (0: the file does not say)
  std::optional<bool> fits;
  long long compute_bound_batch = 0;  // decode's weight GEMMs compute-bound from this
                                      // batch on (0: not below 65,536)
  double launch_interval_us = 0;      // the file's, where used
  std::map<std::string, double> kind_share, roof_share;  // of the whole run's bound time
  std::vector<std::string> notes;
};

// Throws rooftop::Error where the file has no roof for a precision the operators need
// (unless options.fallback) or no bandwidth ceiling at all.
MachineEstimate estimate(const ModelConfig& model, const Workload& w,
                         const core::CeilingsFile& file, const std::string& path,
                         const Options& options);

// The operators of a phase as kernel records (for charts): their FLOPs and bytes, the
// bound time as their time, placed on the file.
std::vector<core::KernelRecord> phase_records(const Phase& phase, const core::CeilingsFile& file);

}  // namespace rooftop::llm
