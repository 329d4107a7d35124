#pragma once
// Kernel times by name, from a timing file (an nvprof GPU trace or summary, an Nsight
// Systems cuda_gpu_kern_sum or cuda_gpu_trace), joined to the kernels of a report by
// name. Private to rooftop_counters' readers.

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::counters::importing {

// The launches of one kernel name.
struct TimingEntry {
  std::string name;
  double total = 0.0;  // seconds, over every launch
  double min = std::numeric_limits<double>::infinity();
  double max = 0.0;
  int calls = 0;
  bool claimed = false;  // matched to a kernel of the report
  // FLOPs by precision name ("fp32"), where the file records them (PyTorch's with_flops).
  std::map<std::string, double> flops;
  std::string description;  // the record's (a PyTorch operator record names its kernels)
  // Bytes by level, where the file gives them (a PyTorch CPU operator's inputs).
  std::vector<core::LevelBytes> bytes;
};

struct Timing {
  std::string file;
  std::string kind;  // what the times are, for time_source: "nvprof GPU trace"
  std::vector<TimingEntry> entries;
  std::vector<std::string> notes;  // about the file itself (a table set aside)
  std::map<std::string, std::size_t> by_name;

  // The entry of `name`, made on first use.
  TimingEntry& entry(const std::string& name);
  // One launch of `name` taking `seconds`.
  void add_launch(const std::string& name, double seconds);
};

// A kernel's time from its entry: the launches' total, fastest and slowest, how many were
// timed, and `source`, what the times are (Timing::kind).
void set_time(core::KernelRecord& record, const TimingEntry& entry, const std::string& source);

// The kernel's name without return type or arguments: "void f<int=4>(int)" -> "f<int=4>".
std::string base_name(const std::string& name);

// Pairs each of `kernels` (names in a report) with its timing entry: the exact name
// first, then the name up to '(' where that picks one entry no other kernel could also
// claim, then a name Nsight Compute cut short ("sgemm_128x64_nn_..." style names ending in
// "...") where it is the prefix of exactly one unclaimed entry, then the name without
// template arguments ("vecAdd" for nvprof's "vecAdd<float>") where that picks one entry
// and one kernel, then the name's words where one kernel and one entry are left with them
// (Nsight Compute's "at::f<...[lambda() (instance 2)]>" is CUPTI's
// "at::native::f<...{lambda()#2}>"); every match not by the exact name is a note. Null
// where none.
std::vector<const TimingEntry*> match_timing(const std::vector<std::string>& kernels,
                                             Timing& timing, std::vector<std::string>& notes);

}  // namespace rooftop::counters::importing
