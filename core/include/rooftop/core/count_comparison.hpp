#pragma once
// Two files' counts of the same kernels side by side (compare-counts): rooftop's own
// (CUPTI through analyze or profile) beside Nsight Compute's or nvprof's, or any two files
// of kernels. The data model: rooftop_analyze pairs the kernels and fills it,
// rooftop_report prints it.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rooftop::core {

// The targets: FLOPs equal (both count the same instructions), bytes within 2% (the memory
// counters also see traffic that is not the kernel's own, and replays differ in what is
// cached). Time has none: rooftop times un-instrumented runs, a profiler its replays.
inline constexpr double kCountBytesTolerance = 0.02;

struct CountSource {
  std::string file;   // as given
  std::string kind;   // "rooftop kernels file (cupti)", "Nsight Compute CSV (ncu-wide)"
  int kernels = 0;
  std::vector<std::string> notes;  // what its reader said, one line each
};

struct CountedKernel {
  std::string id, name;
  int launches = 1;  // the launches its counts cover: one run of a rooftop kernel may be several
};

enum class QuantityKind { flops, tensor_ops, bytes, time };

struct CountedQuantity {
  std::string name;  // "fp64 FLOPs", "tc_fp16 ops", "l1 bytes", "time s"
  QuantityKind kind = QuantityKind::flops;
  std::optional<double> a, b;  // empty: that file does not count it
  // (b - a) / a; 0 where both are 0; empty where a side is empty, or a is 0 and b is not.
  std::optional<double> relative_difference;
  std::string a_short, b_short;  // the file counts it in part: "without dadd, dmul"
};

struct CountPair {
  std::string label;               // A's ids, "v4" (several joined: "k3+k4")
  std::vector<CountedKernel> a, b;  // one kernel on one side, all joined to it on the other
  bool by_name = true;             // joined by name, else paired by order
  int launches_a = 1, launches_b = 1;
  // The two sides cover different numbers of launches (a profiler that took one launch of
  // the three a run has): each side's counts and time divided by its launches.
  bool per_launch = false;
  std::vector<CountedQuantity> quantities;  // the same rows, in the same order, in every pair
};

struct QuantityVerdict {
  std::string quantity;
  QuantityKind kind = QuantityKind::flops;
  std::optional<double> tolerance;  // 0: equal; empty: no target (time)
  std::string a_short, b_short;     // a file counts it in part or not at all: not compared
  int compared = 0, met = 0;        // pairs with both values; of those, on target
  int absent = 0;                   // pairs where a side has no value
  // The pairs off target with their relative difference (NaN: A is 0 and B is not).
  std::vector<std::pair<std::string, double>> missed;
  std::optional<double> lowest, highest;  // of the relative differences compared
};

struct CountComparison {
  CountSource a, b;
  std::vector<CountPair> pairs;
  std::vector<CountedKernel> unpaired_a, unpaired_b;
  // No kernel name of either file holds one of the other's (files of older builds, whose
  // functors were named otherwise): the kernels were paired in the order of each file.
  bool by_order = false;
  std::vector<QuantityVerdict> verdicts;  // one per quantity, in the pairs' row order
};

}  // namespace rooftop::core
