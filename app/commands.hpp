#pragma once
// Subcommands of the rooftop program; each returns the process exit status.

#include <cstdint>
#include <string>
#include <vector>

#include "output.hpp"
#include "rooftop/ceilings/fleet.hpp"

namespace rooftop::app {

struct MeasureOptions {
  std::string space = "host";
  bool quick = false;
  int device = 0;  // --space device: the CUDA device index
  std::string out = "ceilings.h5";
  std::string plot;
  bool strict = false;  // exit kExitDisturbed when a ceiling is disturbed
};
// Exit status of `measure --strict` when a ceiling was measured while other tasks or the
// hypervisor took a share of its samples' time (the file is written all the same).
inline constexpr int kExitDisturbed = 4;
int run_measure(const MeasureOptions& options, const std::string& command_line);

struct ShowOptions {
  std::string file;
  OutputFormat format = OutputFormat::table;
};
int run_show(const ShowOptions& options);

struct CompareOptions {
  std::vector<std::string> files;  // the first is the baseline; or one fleet file
  std::string plot;
  OutputFormat format = OutputFormat::table;
  double threshold =
      ceilings::kDefaultSlowThreshold;  // fleet: this fraction below the median is slow
  bool threshold_given = false;
};
// Exit status of `compare FLEET.h5` when it found a slow or failed rank.
inline constexpr int kExitRanksFlagged = 3;
int run_compare(const CompareOptions& options);

struct ExportOptions {
  std::string file;
  std::string format;
  std::string out;  // empty: stdout; for ncu-sections the folder to write (required)
};
int run_export(const ExportOptions& options);

struct ImportCeilingsOptions {
  std::string file;  // ERT roofline.json
  std::string out;
};
int run_import_ceilings(const ImportCeilingsOptions& options, const std::string& command_line);

struct AnalyzeOptions {
  std::string ceilings;
  std::string kernels = "gpp";
  std::string size;  // empty: the build's default (small on a host, medium on a GPU)
  std::string out, plot;
  OutputFormat format = OutputFormat::table;
  bool no_cupti = false;  // declared counts even in a CUDA build with CUPTI
  bool once = false;      // each kernel run once (for a profiler outside the process)
  double kernel_budget = 30.0;  // seconds of one kernel's timed runs and counting
};
int run_analyze(const AnalyzeOptions& options, const std::string& command_line);

struct ImportOptions {
  std::vector<std::string> reports;  // profiler output of one run, in any format import reads
  std::string timing;                // a file of kernel times (optional)
  std::string ceilings;
  std::string out, plot;
  OutputFormat format = OutputFormat::table;
};
int run_import(const ImportOptions& options, const std::string& command_line);

struct ProfileOptions {
  std::string ceilings;
  std::string connector;             // empty: the one beside this program
  std::string injection;             // empty: the one beside this program
  bool kokkos = false, cuda = false;  // the tool forced (default: told from the program)
  std::string kernel_regex;          // the launches the injection library counts
  std::int64_t launch_skip = 0, launch_count = 0;
  std::string trace;                 // a torch.profiler trace naming the operators
  bool torch = false;                // a PyTorch program run under torch.profiler
  std::vector<std::string> command;  // the program and its arguments
  std::string out, plot;
  OutputFormat format = OutputFormat::table;
};
int run_profile(const ProfileOptions& options, const std::string& command_line);

struct LlmOptions {
  std::string config;                 // a Hugging Face config.json
  std::vector<std::string> ceilings;  // one machine each
  long long batch = 1, prompt = 128, generate = 128;
  std::string dtype = "bf16", kv_dtype;  // kv_dtype empty: the weights' (bf16 for int8, int4)
  std::string launch_overhead = "measured";
  bool unfused = false, fallback = false;
  std::string plot;
  std::string trace;  // a real run on the first machine: a PyTorch trace or a kernels file
  OutputFormat format = OutputFormat::table;
};
int run_llm(const LlmOptions& options);

struct PlotOptions {
  std::vector<std::string> files;
  std::string out;
};
int run_plot(const PlotOptions& options);

struct CompareCountsOptions {
  std::string a, b;  // kernels files (HDF5) or reports import reads
  OutputFormat format = OutputFormat::table;
};
int run_compare_counts(const CompareCountsOptions& options);

struct ReportOptions {
  std::vector<std::string> files;  // ceilings or kernels files; several are overlaid
  std::string out;                 // the HTML page
};
int run_report(const ReportOptions& options);

}  // namespace rooftop::app
