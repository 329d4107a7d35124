#pragma once
// What the connector's tests share: Kokkos Tools device ids, one hand-made counter range of
// a Hopper-like chip, and small lookups on records.

#include <cstdint>
#include <string>

#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::connector::testing {

// Kokkos Tools device ids: the execution space type in the top 8 bits.
inline constexpr std::uint32_t kSerial = 0u << 24, kOpenMP = 1u << 24, kCuda = 2u << 24;

// One range of a Hopper-like chip: every metric but _mem_lg/_mem_ds.
inline counters::cupti::MetricValues hopper_range() {
  return {{"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", 100},
          {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", 50},
          {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 200},
          {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 10},
          {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 20},
          {"sm__sass_thread_inst_executed_op_hadd_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_hmul_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", 0},
          {"sm__inst_executed_pipe_tensor.sum", 7},
          {"sm__ops_path_tensor_src_fp16.sum", 7 * 4096},  // Hopper's one FP16 metric
          {"sm__ops_path_tensor_src_fp64.sum", 0},
          {"l1tex__t_bytes.sum", 1000},
          {"lts__t_bytes.sum", 800},
          {"dram__bytes.sum", 300},
          {"l1tex__lsu_writeback_active_mem_lgds.sum", 10},
          {"lts__lts2xbar_cycles_active.sum", 20},
          {"gpu__time_duration.sum", 1500}};
}

// The bytes a record holds at `level`; -1 where it holds none.
inline double bytes_at(const core::KernelRecord& r, const std::string& level) {
  for (const auto& b : r.bytes)
    if (b.level == level) return b.bytes;
  return -1.0;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace rooftop::connector::testing
