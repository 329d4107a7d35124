#pragma once
// The file the Kokkos Tools connector writes when Kokkos finalizes (to the path in
// ROOFTOP_PROFILE_OUT), and the CUDA injection library at the program's exit (inject/:
// kernels by demangled name, group "cuda", source "cupti-activity" where a kernel has
// times only, its times from CUPTI's activity records), and `rooftop profile` reads
// back: JSON Lines, UTF-8, one object per line.
//
// Line 1, the header:
//   {"format": "rooftop-kokkos-profile", "version": "1.1",
//    "source": "kokkos-tools-timing" | "cupti",   how the counts were obtained
//    "rooftop_version": "0.1.0", "git_revision": "...",
//    "kokkos_interface_version": 20211015, "pid": 1234,
//    "metrics": ["sm__...", ...],                  cupti only: metrics collected
//    "skipped_metrics": [{"name", "reason"}],      cupti only: metrics not collected
//    "passes": 3,                                  cupti only: replay passes per kernel
//    "stray_ends": 0,                              end callbacks with no open kernel
//    "notes": ["...", ...]}
// Then one line per kernel label, in order of first launch: a KernelRecord, in the keys
// of `rooftop analyze --json` where those exist:
//   {"name": "<Kokkos label>", "id": "k1", "group": "kokkos", "order": 0,
//    "source": "kokkos-tools-timing" | "cupti",
//    "kinds": ["parallel_for"], "spaces": ["Cuda"],
//    "invocations": 12, "unfinished": 0, "max_depth": 0,
//    "time_s": 0.0123, "time_min": 0.001, "time_max": 0.0011, "samples": 12,
//    "time_source": "...",
//    "flops_fp64": 0, "flops_fp32": 0, "flops_fp16": 0, "fma_fraction": -1,
//    "precision": "", "tensor_instructions": 0,
//    "tensor_ops": {"tc_fp16": 2.8e4, ...},             1.1: operations per matrix unit
//                                                       (a figure of core::kTensorPaths)
//    "bytes": {"l1": 1.0e9, "l2": ..., "dram": ...},     only levels with a count
//    "note": "...",
//    "metrics": {"<metric>": value, ...},                 cupti only: raw sums
//    "counted_invocations": 12}                           cupti only
// time_s and the counts are totals over the invocations (KernelRecord's convention).
// Without counters (no CUPTI, or a host execution space) a record has times only
// (source "kokkos-tools-timing", no FLOPs, no bytes). Readers ignore keys they do not
// know; a file of another major version is rejected. A 1.0 file has no tensor_ops: its
// kernels read with none. A unit not in kTensorPaths, or operations that are not a
// number >= 0, are refused with the line.

#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::connector {

inline constexpr const char* kProfileFormat = "rooftop-kokkos-profile";
inline constexpr const char* kProfileVersion = "1.1";  // 1.1: tensor_ops

struct ProfileHeader {
  std::string source = "kokkos-tools-timing";
  std::int64_t kokkos_interface_version = 0;
  std::int64_t pid = 0;
  std::vector<std::string> metrics;
  std::vector<counters::cupti::SkippedMetric> skipped_metrics;
  int passes = 0;
  std::int64_t stray_ends = 0;
  std::vector<std::string> notes;
};

// A label's statistics as a KernelRecord: times from the tracker, counts (when an
// observer added counters) from the CUPTI evaluation math, the rest in the note.
core::KernelRecord to_record(const LabelStats& stats, std::size_t index);

// The whole file's text.
std::string profile_text(const ProfileHeader& header, const std::vector<LabelStats>& labels);

// Writes atomically (temporary file beside `path`, then rename). Throws rooftop::Error
// "PATH: cannot write (reason)".
void write_profile(const std::string& path, const ProfileHeader& header,
                   const std::vector<LabelStats>& labels);

struct Profile {
  std::string version;  // the file's format version
  std::string source;
  std::vector<std::string> notes;
  std::vector<core::KernelRecord> kernels;
};

// Reads a profile's text; `name` is only used in messages. Throws rooftop::Error
// "NAME:LINE: reason" for input that is not a profile of a known major version.
Profile parse_profile(const std::string& text, const std::string& name);
// Reads the file at `path`: rooftop::Error "PATH: cannot read (reason)" when it cannot.
Profile read_profile(const std::string& path);

}  // namespace rooftop::connector
