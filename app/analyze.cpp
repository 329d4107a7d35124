// analyze, import and plot: kernels measured here (host backend) or read from another
// tool (import backend), placed on a ceilings file's measured roofline.

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "interrupt.hpp"
#include "kernel_report.hpp"
#include "rooftop/analyze/chart.hpp"
#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/analyze/import.hpp"
#include "rooftop/analyze/kernel.hpp"
#include "rooftop/ceilings/error.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/report.hpp"
#include "rooftop/config.hpp"

namespace rooftop::app {
namespace {

std::string host_name() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

int run_analyze(const AnalyzeOptions& options, const std::string& command_line) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.ceilings);
  const Outputs outputs{options.out, options.plot, options.json};
  outputs.check();
  // The default size suits the build: a CPU benchmark on the host, the classic size
  // where kernels run on a GPU.
  const std::string size = !options.size.empty() ? options.size
                           : ROOFTOP_HAS_DEVICE  ? "classic"
                                                 : "small";
  analyze::KernelList kernels = analyze::make_kernels(split_list(options.kernels), size);

  KokkosRun run;
  analyze::HostTiming timing;
  timing.cancel = &interrupted();
  std::vector<std::string> notes;
  if (file.machine.hostname != host_name())
    notes.push_back("the ceilings were measured on " + file.machine.hostname +
                    ", the kernels ran on " + host_name());
  // Kernels on a GPU are counted by CUPTI where this build has it; elsewhere their
  // counts are the kernels' own declarations.
  std::unique_ptr<analyze::Backend> backend;
  if (ROOFTOP_HAS_DEVICE && !options.no_cupti && analyze::cupti_backend_available())
    backend = analyze::make_cupti_backend(std::move(kernels), timing, progress_printer());
  else
    backend =
        std::make_unique<analyze::HostBackend>(std::move(kernels), timing, progress_printer());
  std::vector<ceilings::KernelRecord> records = backend->collect(notes);
  run.throw_if_interrupted();
  return place_and_report(file, options.ceilings, std::move(records), notes, outputs, command_line);
}

int run_import(const ImportOptions& options, const std::string& command_line) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.ceilings);
  const Outputs outputs{options.out, options.plot, options.json};
  outputs.check();
  analyze::ImportBackend backend(options.report, options.timing);
  std::vector<std::string> notes;
  std::vector<ceilings::KernelRecord> records = backend.collect(notes);
  if (records.empty()) throw Error(options.report + ": no kernel found");
  return place_and_report(file, options.ceilings, std::move(records), notes, outputs, command_line);
}

int run_plot(const PlotOptions& options) {
  ceilings::check_writable(options.out);
  std::vector<ceilings::CeilingsFile> files;
  for (const std::string& path : options.files) files.push_back(ceilings::read_file(path));
  std::string svg;
  if (files.size() > 1)
    svg = analyze::comparison_svg(files, options.files);
  else if (!files[0].kernels.empty())
    svg = analyze::kernels_svg(files[0], "Kernels on the measured roofline");
  else
    svg = analyze::roofline_svg(files[0]);
  ceilings::write_text_file(options.out, svg);
  std::cout << "wrote " << options.out << "\n";
  return 0;
}

}  // namespace rooftop::app
