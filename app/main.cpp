// rooftop: the command line. The only place that knows CLI11; it wires the libraries
// (microbench -> ceilings; kernels, counters -> analyze; report) and turns every error
// into one line on stderr.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace {

// One flag per output format but the default, the table's first row (--json); the last
// given wins.
void add_format_flags(CLI::App* command, rooftop::app::OutputFormat& format) {
  for (const rooftop::app::OutputFormatEntry& entry :
       std::span(rooftop::app::kOutputFormats).subspan(1))
    command->add_flag_callback(
        std::string("--") + entry.name, [&format, f = entry.format] { format = f; }, entry.help);
}

// "a, b, c" with `last` before the last name ("a, b or c").
std::string listed(const std::vector<std::string>& names, const char* last) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rooftop: measured rooflines -- ceilings of this machine, kernels on them"};
  app.set_version_flag("--version", std::string(ROOFTOP_VERSION) + " " + ROOFTOP_GIT_REVISION);
  app.require_subcommand(1);

  rooftop::app::MeasureOptions measure;
  CLI::App* m =
      app.add_subcommand("measure", "characterize this machine and write a ceilings file");
  m->add_option("--space", measure.space, "execution space to characterize")
      ->check(CLI::IsMember({"host", "device"}));
  m->add_flag("--quick", measure.quick, "short run (seconds): fewer points, shorter samples");
  m->add_option("--device", measure.device, "--space device: the GPU to characterize (CUDA index)")
      ->check(CLI::NonNegativeNumber);
  m->add_option("--out", measure.out, "ceilings file to write (HDF5)");
  m->add_option("--plot", measure.plot,
                "SVG chart to write (roofline and bandwidth sweep; under MPI the fleet's spread)");
  m->add_flag("--strict", measure.strict,
              "exit 4 when a ceiling was measured while other tasks took its CPUs");

  rooftop::app::ShowOptions show;
  CLI::App* s = app.add_subcommand("show", "print a ceilings file as a table or JSON");
  s->add_option("file", show.file, "ceilings file (HDF5)")->required();
  add_format_flags(s, show.format);

  rooftop::app::CompareOptions compare;
  CLI::App* c = app.add_subcommand(
      "compare", "ceilings of several files side by side, against the first, noise-aware");
  c->add_option("files", compare.files,
                "ceilings files (HDF5); the first is the baseline. One fleet file (measure "
                "under MPI): its slow and failed ranks, exit status 3 when there are any")
      ->required();
  c->add_option("--plot", compare.plot,
                "SVG chart to write (the rooflines overlaid; a fleet: the spread of each ceiling)");
  add_format_flags(c, compare.format);
  CLI::Option* threshold =
      c->add_option("--threshold", compare.threshold,
                    "fleet: a rank more than this fraction below the fleet median is slow")
          ->capture_default_str()
          ->check(CLI::Range(0.0, 1.0));

  rooftop::app::ExportOptions exp;
  CLI::App* e = app.add_subcommand("export", "write a ceilings file in a format other tools read");
  e->add_option("file", exp.file, "ceilings file (HDF5)")->required();
  e->add_option("--format", exp.format, "ert-json (ERT's roofline.json), csv or json")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(rooftop::ceilings::kExportFormats),
                                                     std::end(rooftop::ceilings::kExportFormats))));
  e->add_option("--out", exp.out, "file to write (default: stdout)");

  rooftop::app::ImportCeilingsOptions import_ceilings;
  CLI::App* ic =
      app.add_subcommand("import-ceilings", "read an ERT roofline.json into a ceilings file");
  ic->add_option("file", import_ceilings.file, "ERT roofline.json")->required();
  ic->add_option("--out", import_ceilings.out, "ceilings file to write (HDF5)")->required();

  rooftop::app::AnalyzeOptions analyze;
  CLI::App* a = app.add_subcommand(
      "analyze", "run kernels here (GPP ladder, reference kernels) and place them on the ceilings");
  a->add_option("--ceilings", analyze.ceilings, "ceilings file (HDF5) of this machine")->required();
  a->add_option("--kernels", analyze.kernels,
                "comma-separated: " + listed(rooftop::kernels::kernel_names(), ", "));
  a->add_option("--size", analyze.size,
                listed(rooftop::kernels::size_names(), " or ") +
                    " (default: small on a CPU, medium on a GPU)")
      ->check(CLI::IsMember(rooftop::kernels::size_names()));
  a->add_option("--out", analyze.out, "file to write: the ceilings with the kernels (HDF5)");
  a->add_option("--plot", analyze.plot, "SVG chart to write (hierarchical roofline)");
  add_format_flags(a, analyze.format);
  a->add_flag("--no-cupti", analyze.no_cupti,
              "declared counts even where CUPTI is available (to run under Nsight Compute, "
              "which cannot share the profiler): CUPTI is then not loaded at all");
  a->add_flag("--once", analyze.once,
              "run each kernel once, its time that one run (for a profiler outside the "
              "process, such as Nsight Compute, to see one run of every kernel)");
  a->add_option("--kernel-budget", analyze.kernel_budget,
                "seconds one kernel may take with its timed runs and counting (default 30); a "
                "kernel whose counting would end past it keeps its declared counts")
      ->check(CLI::PositiveNumber);

  rooftop::app::ImportOptions import;
  CLI::App* im = app.add_subcommand(
      "import", "place kernels from profiler output (Nsight Compute, nvprof, Nsight Systems, "
                "PyTorch) on measured ceilings");
  im->add_option("report", import.reports,
                 "profiler output of one run, the format told from the content: ncu --csv or "
                 "text output, nvprof --csv, nsys stats --format csv (cuda_gpu_kern_sum, "
                 "cuda_gpu_trace), nsys export --type sqlite, a PyTorch trace (.json, .json.gz); "
                 "a file of times given with a report of counts times it")
      ->required();
  im->add_option("--timing", import.timing,
                 "kernel times joined by name: nvprof --print-gpu-trace or summary CSV, nsys "
                 "stats CSV, nsys SQLite export or a PyTorch trace");
  im->add_option("--ceilings", import.ceilings, "ceilings file (HDF5)")->required();
  im->add_option("--out", import.out, "file to write: the ceilings with the kernels (HDF5)");
  im->add_option("--plot", import.plot, "SVG chart to write (hierarchical roofline)");
  add_format_flags(im, import.format);

  rooftop::app::ProfileOptions profile;
  CLI::App* pr = app.add_subcommand(
      "profile", "run an unmodified Kokkos or CUDA program and place its kernels on the ceilings");
  pr->add_option("--ceilings", profile.ceilings, "ceilings file (HDF5)")->required();
  pr->add_option("--connector", profile.connector,
                 "Kokkos Tools connector library (default: the one beside rooftop)");
  pr->add_option("--injection", profile.injection,
                 "CUDA injection library (default: the one beside rooftop)");
  CLI::Option* kokkos = pr->add_flag("--kokkos", profile.kokkos,
                                     "see labelled Kokkos kernels through the Kokkos Tools connector");
  pr->add_flag("--cuda", profile.cuda,
               "see every CUDA kernel through the CUDA injection library (CUDA_INJECTION64_PATH)")
      ->excludes(kokkos);
  pr->add_option("--kernel-regex", profile.kernel_regex,
                 "count only launches of kernels whose demangled name matches (as ncu's "
                 "--kernel-name regex:)");
  pr->add_option("--launch-skip", profile.launch_skip,
                 "matching launches to skip before counting starts")
      ->check(CLI::NonNegativeNumber);
  pr->add_option("--launch-count", profile.launch_count,
                 "matching launches to count (default: all)")
      ->check(CLI::NonNegativeNumber);
  pr->add_option("--out", profile.out, "file to write: the ceilings with the kernels (HDF5)");
  pr->add_option("--plot", profile.plot, "SVG chart to write (hierarchical roofline)");
  add_format_flags(pr, profile.format);
  pr->add_option("command", profile.command, "-- the program and its arguments")->required();

  rooftop::app::PlotOptions plot;
  CLI::App* p = app.add_subcommand("plot", "draw a chart of one or more rooftop files");
  p->add_option("files", plot.files, "ceilings or kernels files (HDF5)")->required();
  p->add_option("--out", plot.out, "SVG chart to write")->required();

  rooftop::app::CompareCountsOptions counts;
  CLI::App* cc = app.add_subcommand(
      "compare-counts",
      "counts side by side: two files' FLOPs, bytes and time of the same kernels (rooftop's "
      "CUPTI counts beside Nsight Compute's), against the targets FLOPs equal, bytes within 2%");
  cc->add_option("a", counts.a,
                 "kernels file (HDF5: analyze, import or profile --out) or any report import "
                 "reads")
      ->required();
  cc->add_option("b", counts.b, "the same for the other counts")->required();
  add_format_flags(cc, counts.format);

  rooftop::app::ReportOptions report;
  CLI::App* r = app.add_subcommand(
      "report", "write one self-contained interactive HTML page of one or more rooftop files");
  r->add_option("files", report.files, "ceilings or kernels files (HDF5); several are compared")
      ->required();
  r->add_option("--out", report.out, "HTML file to write")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "rooftop: %s (see rooftop --help)\n", e.what());
    return 2;
  }

  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    if (m->parsed()) return rooftop::app::run_measure(measure, command_line);
    if (s->parsed()) return rooftop::app::run_show(show);
    if (c->parsed()) {
      compare.threshold_given = threshold->count() > 0;
      return rooftop::app::run_compare(compare);
    }
    if (e->parsed()) return rooftop::app::run_export(exp);
    if (ic->parsed()) return rooftop::app::run_import_ceilings(import_ceilings, command_line);
    if (a->parsed()) return rooftop::app::run_analyze(analyze, command_line);
    if (im->parsed()) return rooftop::app::run_import(import, command_line);
    if (p->parsed()) return rooftop::app::run_plot(plot);
    if (r->parsed()) return rooftop::app::run_report(report);
    if (cc->parsed()) return rooftop::app::run_compare_counts(counts);
    if (pr->parsed()) return rooftop::app::run_profile(profile, command_line);
  } catch (const rooftop::Interrupted&) {
    // On a terminal the progress line is still open; end it first. Elsewhere the
    // message stays the single line that every failure prints.
    if (isatty(fileno(stderr))) std::fputc('\n', stderr);
    std::fprintf(stderr, "rooftop: interrupted; nothing was written\n");
    return 130;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "rooftop: error: out of memory (try --quick or fewer threads)\n");
    return 1;
  } catch (const std::exception& e) {
    // Some libraries (Kokkos among them) put several lines in what(); keep one.
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    message = rooftop::core::terminal_text(message);
    std::fprintf(stderr, "rooftop: error: %s\n", message.c_str());
    return 1;
  }
  return 1;
}
