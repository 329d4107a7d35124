// analyze, import and plot: kernels measured here (host backend) or read from another
// tool (import backend), placed on a ceilings file's measured roofline.

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "interrupt.hpp"
#include "rooftop/analyze/chart.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/analyze/import.hpp"
#include "rooftop/analyze/kernel.hpp"
#include "rooftop/analyze/report.hpp"
#include "rooftop/analyze/roofline.hpp"
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

// Places `records` on the ceilings of `file`, then writes the file, the chart and the
// report. Checks the outputs before anything long runs (`check_outputs`).
struct Outputs {
  std::string out, plot;
  bool json = false;
  void check() const {
    if (!out.empty()) ceilings::check_writable(out);
    if (!plot.empty()) ceilings::check_writable(plot);
  }
};

int place_and_report(ceilings::CeilingsFile file, const std::string& ceilings_path,
                     std::vector<ceilings::KernelRecord> records,
                     const std::vector<std::string>& notes, const Outputs& outputs,
                     const std::string& command_line) {
  for (ceilings::KernelRecord& r : records) analyze::apply(analyze::place(r, file), r);
  file.kernels = std::move(records);
  file.provenance = ceilings::current_provenance(command_line);
  if (!outputs.out.empty()) ceilings::write_file(outputs.out, file);
  if (!outputs.plot.empty())
    ceilings::write_text_file(outputs.plot,
                              analyze::kernels_svg(file, "Kernels on the measured roofline"));
  if (outputs.json) {
    std::cout << analyze::kernels_json(file, ceilings_path, notes).dump(2) << "\n";
  } else {
    std::cout << analyze::kernels_table(file, notes);
    if (!outputs.out.empty() || !outputs.plot.empty())
      std::cout << "\nwrote " << outputs.out
                << (outputs.out.empty() || outputs.plot.empty() ? "" : " and ") << outputs.plot
                << "\n";
  }
  for (const ceilings::KernelRecord& k : file.kernels) {
    if (!k.above.empty())
      std::cerr << "rooftop: warning: " << k.name << " lies above " << k.above
                << ": its counts or the ceilings are wrong\n";
  }
  for (const ceilings::KernelRecord& k : file.kernels)
    if (k.check == "failed") return 1;
  return 0;
}

analyze::KernelProgress progress_printer() {
  if (!isatty(fileno(stderr))) return {};
  return [](std::size_t done, std::size_t total, const std::string& what) {
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, what.c_str());
    if (done == total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

}  // namespace

int run_analyze(const AnalyzeOptions& options, const std::string& command_line) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.ceilings);
  const Outputs outputs{options.out, options.plot, options.json};
  outputs.check();
  // The default size suits the build: a CPU benchmark on the host, the classic size
  // where kernels run on a GPU.
  const std::string size = !options.size.empty() ? options.size : ROOFTOP_HAS_DEVICE ? "classic" : "small";
  analyze::KernelList kernels = analyze::make_kernels(split_list(options.kernels), size);

  KokkosRun run;
  analyze::HostTiming timing;
  timing.cancel = &interrupted();
  std::vector<std::string> notes;
  if (file.machine.hostname != host_name())
    notes.push_back("the ceilings were measured on " + file.machine.hostname +
                    ", the kernels ran on " + host_name());
  analyze::HostBackend backend(std::move(kernels), timing, progress_printer());
  std::vector<ceilings::KernelRecord> records = backend.collect(notes);
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
