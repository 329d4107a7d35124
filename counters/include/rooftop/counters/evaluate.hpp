#pragma once
// The one evaluator of the counter arithmetic: hardware metrics, by their Nsight Compute
// names, turned into a kernel's FLOPs by precision, FMA share, tensor instructions and
// bytes per level. Whoever collected the metrics (CUPTI ranges, an ncu CSV) hands them
// in through a lookup and words what is missing its own way.
//
//   FLOPs   sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum: an add or
//           a mul is one FLOP, an FMA two. A precision's FLOPs are nvprof's
//           flop_count_{dp,sp,hp} (FLOPs, an FMA counted twice) where collected, else
//           add + mul + 2 fma of the parts it has; the FMA share is unknown only where a
//           precision with FLOPs lacks a part (a precision with no FLOPs counted does not
//           make it unknown). Nsight Compute's
//           sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum (likewise f, h)
//           counts instructions, an FMA once, and is never read as FLOPs.
//   tensor  sm__inst_executed_pipe_tensor.sum, else the sum of its _op_{hmma,dmma,imma}
//           (warp instructions, kept as a count: the ops of one differ by shape and chip)
//   tensor ops  per matrix unit, sm__ops_path_tensor_src_*.sum (core::kTensorPaths: the
//           first metric of the unit that was collected): ops, a multiply-add two
//   bytes   each level from the first definition that is there:
//             l1    l1tex__t_bytes.sum, l1tex__t_sectors.sum x 32 B, then the newer
//                   l1tex__lsu_writeback_active_mem_lgds.sum x 128 B (Hopper, Blackwell)
//                   or (..._mem_lg.sum + ..._mem_ds.sum) x 128 B; nvprof:
//                   (gld + gst + those of kNvprofL1Extras collected)_transactions x 32 B
//             l2    lts__t_bytes.sum, lts__t_sectors.sum x 32 B, then the newer
//                   lts__lts2xbar_cycles_active.sum x 32 B; nvprof:
//                   l2_{read,write}_transactions x 32 B
//             dram  dram__bytes.sum, dram__bytes_{read,write}.sum, or
//                   dram__sectors_{read,write}.sum x 32 B, or Nsight Compute's Pascal set
//                   dram__read_bytes + dram__write_bytes (no .sum); nvprof:
//                   dram_{read,write}_transactions x 32 B, or dram_{read,write}_bytes;
//                   where no pair is whole, the first half-pair that is there (reads
//                   alone, say: a common hand-picked list), kept as what it is: `counted`
//                   "read", an intensity that is an upper bound
//   time    gpu__time_duration.sum (ns), or the Pascal set's gpu__time_duration

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooftop/core/vocabulary.hpp"

namespace rooftop::counters {

// nvprof's transactions that its L1 recipe adds to gld + gst where they were collected.
inline constexpr const char* kNvprofL1Extras[] = {
    "atomic_transactions", "local_load_transactions", "local_store_transactions",
    "shared_load_transactions", "shared_store_transactions"};

// A metric's value (summed over what was counted), or empty where it was not collected.
using Lookup = std::function<std::optional<double>(const std::string& metric)>;

// "sm__sass_thread_inst_executed_op_" + letter + op + "_pred_on.sum"; `op` may be a
// pattern for messages ("{add,mul,fma}", "*").
std::string flop_metric(char letter, std::string_view op);
// nvprof's FLOP total of a precision: "flop_count_" + "dp" (core::Precision::nvprof).
std::string flop_total_metric(std::string_view nvprof_precision);
// Nsight Compute's instruction total of a precision, "sm__sass_thread_inst_executed_ops_"
// + "dadd_dmul_dfma" (for 'd') + "_pred_on.sum": instructions, not FLOPs (an FMA is one).
std::string instruction_total_metric(char letter);

struct PrecisionFlops {
  const core::Precision* precision = nullptr;
  int parts = 0;        // of add, mul and fma, how many were collected
  std::string lacking;  // the parts not collected: "dadd, dfma"
  double flops = 0.0;   // the total where collected, else add + mul + 2 fma of the parts
};

struct LevelBytes {
  std::string_view level;  // "l1", "l2", "dram"
  std::string_view label;  // "L1", "L2", "DRAM"
  std::optional<double> bytes;
  std::string from;    // the metrics it came from: "lts__t_sectors.sum x 32 B"
  bool newer = false;  // from the newer Nsight Compute definition
  std::string counted;  // "read" or "write" where only that half was collected; empty: all
};

// A matrix unit's operations and the metric they came from.
struct TensorCount {
  std::string_view figure;  // "tc_fp16"
  std::string_view metric;  // "sm__ops_path_tensor_src_fp16_dst_fp32.sum"
  double ops = 0.0;
};

struct Counts {
  std::vector<PrecisionFlops> flops;   // one per core::kPrecisions row counted by instructions
  std::optional<double> fma_fraction;  // empty: unknown, or no FLOPs
  bool fma_known = true;
  std::string precision;  // the one with the most FLOPs; empty: none
  std::optional<double> tensor_instructions;
  std::vector<TensorCount> tensor_ops;       // the units with a metric, in kTensorPaths order
  std::vector<LevelBytes> bytes;             // l1, l2, dram
  std::optional<double> l1_newer, l2_newer;  // the newer definitions, where collected
  std::optional<double> duration_s;
};

Counts evaluate(const Lookup& value);

// The matrix units a kernel ran operations on (ops > 0), as its record keeps them.
std::vector<core::TensorOps> recorded_tensor_ops(const Counts& counts);

// A level's bytes as a record keeps them (with what they count where only a part).
core::LevelBytes recorded_bytes(const LevelBytes& bytes);
// What a partial count means, for the notes: "DRAM bytes are reads only (from
// dram__bytes_read.sum; no write count): the DRAM intensity is an upper bound". Empty
// where the count is whole.
std::string partial_bytes_remark(const LevelBytes& bytes);

}  // namespace rooftop::counters
