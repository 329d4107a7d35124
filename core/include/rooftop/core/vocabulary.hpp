#pragma once
// The domain's lists, each defined once (BabelStream's one table per list): precisions,
// the compute ceilings measured for them, memory levels and the bandwidth sweep's access
// patterns with what they move per element. Labels, byte counts, file orders and metric
// names are read from these rows; adding one is one row.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "rooftop/core/model.hpp"

namespace rooftop::core {

// A kernel's FLOPs in one precision (an alias: nvcc's front end warns on the bare form).
using FlopsField = double KernelRecord::*;

// A floating-point format FLOPs are counted in.
struct Precision {
  std::string_view name;    // rooftop's name: "fp64"
  std::string_view label;   // for people: "FP64"
  int bytes;                // of one element
  char sass;                // d, f, h in sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}
  std::string_view nvprof;  // dp, sp, hp in nvprof's flop_count_{dp,sp,hp}
  bool ceilings;            // the microbenchmarks measure its compute ceilings
  FlopsField flops;         // a kernel's FLOPs in it
};
inline constexpr Precision kPrecisions[] = {
    {"fp64", "FP64", 8, 'd', "dp", true, &KernelRecord::flops_fp64},
    {"fp32", "FP32", 4, 'f', "sp", true, &KernelRecord::flops_fp32},
    {"fp16", "FP16", 2, 'h', "hp", false, &KernelRecord::flops_fp16},
};
const Precision* find_precision(std::string_view name);

// The operations FLOPs are counted by (an FMA is two FLOPs).
inline constexpr std::string_view kFlopOps[] = {"add", "mul", "fma"};

// The compute ceilings of a precision: fused multiply-adds, and separate multiplies and
// adds ("nofma"). Their names are "<precision>_<mode>"; `pattern` is what a ceiling
// file's pattern column says of them.
struct ComputeMode {
  std::string_view name;
  std::string_view pattern;
};
inline constexpr ComputeMode kComputeModes[] = {{"fma", "fma"}, {"nofma", "mul+add"}};
const ComputeMode* find_compute_mode(std::string_view name);
std::string compute_ceiling_name(std::string_view precision, std::string_view mode);

// Memory levels, innermost first: the order of tables, charts and files.
struct Level {
  std::string_view name;   // "l1"
  std::string_view label;  // "L1"
};
inline constexpr Level kLevels[] = {
    {"l1", "L1"}, {"shared", "shared"}, {"l2", "L2"}, {"l3", "L3"}, {"dram", "DRAM"},
};
// Position in kLevels; a level rooftop does not name sorts after all of them.
int level_rank(std::string_view level);

// The access patterns of the bandwidth sweep and the arrays of 8-byte elements each one
// reads and writes per element (counted as the program sees them, as STREAM does;
// write-allocate is not added).
struct Pattern {
  std::string_view name;
  int loads;   // arrays read per element
  int stores;  // arrays written per element
  int arrays;  // arrays allocated
  constexpr int bytes_per_element() const { return 8 * (loads + stores); }
};
inline constexpr Pattern kPatterns[] = {
    {"read", 1, 0, 1}, {"write", 0, 1, 1}, {"copy", 1, 1, 2}, {"triad", 2, 1, 3}, {"rmw", 1, 1, 1},
};
const Pattern* find_pattern(std::string_view name);

// The order ceilings are listed in: compute (precision by precision, fma first), then
// the levels innermost first; a name not in it sorts last.
int ceiling_rank(std::string_view name);

// How many compute ceilings rooftop measures: its precisions with ceilings x the modes.
int compute_ceiling_count();

// "compute" for a compute ceiling rooftop measures, "bandwidth" for a memory level, empty
// for a name rooftop does not know.
std::string_view ceiling_kind(std::string_view name);

// A pattern a ceiling can carry: an access pattern of kPatterns or a compute mode's.
bool known_ceiling_pattern(std::string_view pattern);

}  // namespace rooftop::core
