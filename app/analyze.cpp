// analyze, import and plot: kernels measured here (host backend) or read from another
// tool (import backend), placed on a ceilings file's measured roofline.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "interrupt.hpp"
#include "kernel_report.hpp"
#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/analyze/import_backend.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/host_name.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/kernels/kernel.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {
namespace {

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)  // a name given twice runs once
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  return out;
}

// The memory the largest kernel holds while it runs (they run one at a time): its arrays,
// which its declared cost model reads from DRAM once.
double memory_needed(const std::vector<core::KernelRecord>& declared) {
  double most = 0.0;
  for (const core::KernelRecord& k : declared)
    if (const core::LevelBytes* b = k.find_bytes("dram")) most = std::max(most, b->bytes);
  return most;
}

// MemAvailable of /proc/meminfo in bytes; 0 when unknown.
double memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kib = 0.0;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024.0;
    in.ignore(1 << 10, '\n');
  }
  return 0.0;
}

std::string gigabytes(double bytes) { return core::format_number("%.1f GB", bytes * 1e-9); }

}  // namespace

int run_analyze(const AnalyzeOptions& options, const std::string& command_line) {
  const KernelReport report(options.ceilings, {options.out, options.plot, options.format});
  // The default size suits the build: a CPU benchmark on the host; on a GPU, one whose
  // timing and counting fit a budget (the classic size counted on an H200 took minutes).
  const std::string size = !options.size.empty() ? options.size
                           : ROOFTOP_HAS_DEVICE  ? "medium"
                                                 : "small";
  kernels::KernelList kernels = kernels::make_kernels(split_list(options.kernels), size);
  std::vector<core::KernelRecord> declared;  // cheap, no device: for memory and the estimate
  for (const auto& k : kernels) declared.push_back(k->declared());
  const double needed = memory_needed(declared);
  if (ROOFTOP_HAS_DEVICE) {  // before Kokkos starts: without a GPU it would abort, not say why
    try {
      microbench::check_device(0);
    } catch (const Error& e) {
      throw Error(std::string("this rooftop runs the kernels on a GPU: ") + e.what());
    }
  }
  // The kernels' arrays live in the GPU's memory in the CUDA build, in the host's here.
  const double available = ROOFTOP_HAS_DEVICE ? static_cast<double>(microbench::device_free_bytes())
                                              : memory_available();
  if (available > 0.0 && needed > available)
    throw Error("size " + size + " needs about " + gigabytes(needed) + " of " +
                (ROOFTOP_HAS_DEVICE ? "GPU memory; " : "memory; ") + gigabytes(available) +
                " is free (try --size small)");
  if (needed >= 1e8)  // said before a run that takes minutes, not after
    std::fprintf(stderr, "rooftop: size %s: the largest kernel holds about %s of memory\n",
                 size.c_str(), gigabytes(needed).c_str());

  KokkosRun run;
  core::Sampling sampling = options.once         ? analyze::kOnceSampling
                            : ROOFTOP_HAS_DEVICE ? analyze::kDeviceKernelSampling
                                                 : analyze::kKernelSampling;
  sampling.budget_seconds = std::min(sampling.budget_seconds, options.kernel_budget);
  sampling.cancel = &interrupted();
  std::vector<std::string> notes;
  if (report.ceilings().machine.hostname != core::host_name())
    notes.push_back("the ceilings were measured on " + report.ceilings().machine.hostname +
                    ", the kernels ran on " + core::host_name());
  // Kernels on a GPU are counted by CUPTI where this build has it; elsewhere their
  // counts are the kernels' own declarations.
  std::unique_ptr<analyze::Backend> backend;
  if (ROOFTOP_HAS_DEVICE && !options.no_cupti && analyze::cupti_backend_available())
    backend = analyze::make_cupti_backend(std::move(kernels), sampling, progress_printer(),
                                          options.kernel_budget);
  else
    backend =
        std::make_unique<analyze::HostBackend>(std::move(kernels), sampling, progress_printer());
  const analyze::Estimate estimate =
      analyze::estimate(declared, report.ceilings(), sampling, backend->counting(),
                        ROOFTOP_HAS_DEVICE ? analyze::kDeviceRunModel : analyze::kHostRunModel);
  std::fprintf(stderr, "rooftop: estimate: %s\n", estimate.text.c_str());
  std::vector<core::KernelRecord> records = backend->collect(notes);
  run.throw_if_interrupted();
  return report.place(std::move(records), notes, command_line);
}

int run_import(const ImportOptions& options, const std::string& command_line) {
  std::vector<std::string> inputs = options.reports;
  if (!options.timing.empty()) inputs.push_back(options.timing);
  core::check_distinct(inputs, "import would count its kernels twice");
  const KernelReport report(options.ceilings, {options.out, options.plot, options.format}, inputs);
  analyze::ImportBackend backend(options.reports, options.timing);
  std::string files;
  for (const std::string& path : options.reports) files += (files.empty() ? "" : ", ") + path;
  return report.collect_and_place(backend, "reading " + files, command_line);
}

int run_plot(const PlotOptions& options) {
  core::check_writable(options.out, options.files);
  std::vector<core::CeilingsFile> files;
  for (const std::string& path : options.files) files.push_back(ceilings::read_file(path));
  std::string svg;
  if (files.size() > 1)
    svg = report::comparison_svg(files, options.files);
  else if (!files[0].kernels.empty())
    svg = report::kernels_svg(files[0], "Kernels on the measured roofline");
  else
    svg = report::roofline_svg(files[0]);
  core::write_text_file(options.out, svg);
  std::cout << "wrote " << options.out << "\n";
  return 0;
}

}  // namespace rooftop::app
