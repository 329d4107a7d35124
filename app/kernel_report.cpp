#include "kernel_report.hpp"

#include <iostream>

#include "interrupt.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {

KernelReport::KernelReport(std::string ceilings_path, Outputs outputs,
                           std::vector<std::string> inputs)
    : ceilings_path_(std::move(ceilings_path)),
      outputs_(std::move(outputs)),
      file_(ceilings::read_file(ceilings_path_)) {
  inputs.push_back(ceilings_path_);
  for (const std::string& path : {outputs_.out, outputs_.plot})
    if (!path.empty()) core::check_writable(path, inputs);
  core::check_apart(outputs_.out, outputs_.plot);
}

int KernelReport::collect_and_place(analyze::Backend& backend, const std::string& what,
                                    const std::string& command_line) const {
  const core::Progress progress = progress_printer();
  std::vector<std::string> notes;
  if (progress) progress(0, 2, what);
  std::vector<core::KernelRecord> records = backend.collect(notes);
  if (progress) progress(1, 2, "placing " + std::to_string(records.size()) + " kernels");
  const int status = place(std::move(records), notes, command_line);
  if (progress) progress(2, 2, "");
  return status;
}

int KernelReport::place(std::vector<core::KernelRecord> records,
                        const std::vector<std::string>& notes,
                        const std::string& command_line) const {
  core::CeilingsFile file = file_;  // the ceilings with these kernels
  for (core::KernelRecord& r : records) core::apply(core::place(r, file), r);
  file.kernels = std::move(records);
  file.provenance = ceilings::current_provenance(command_line);
  if (!outputs_.out.empty()) ceilings::write_file(outputs_.out, file);
  if (!outputs_.plot.empty())
    core::write_text_file(outputs_.plot,
                          report::kernels_svg(file, "Kernels on the measured roofline"));
  std::vector<std::string> written;
  for (const std::string& path : {outputs_.out, outputs_.plot})
    if (!path.empty()) written.push_back(path);
  writer_for(outputs_.format).kernels(std::cout, file, ceilings_path_, notes, written);
  for (const core::KernelRecord& k : file.kernels)
    if (!k.above.empty())
      std::cerr << "rooftop: warning: " << core::terminal_text(k.name) << " lies above " << k.above
                << ": its counts or the ceilings are wrong\n";
  for (const core::KernelRecord& k : file.kernels)
    if (k.check == "failed") return 1;
  return 0;
}

}  // namespace rooftop::app
