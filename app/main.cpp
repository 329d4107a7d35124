// rooftop: the command line. The only place that knows CLI11; it wires the libraries
// (microbench -> ceilings; kernels, counters -> analyze; report) and turns every error
// into one line on stderr.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <functional>
#include <memory>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
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

// A subcommand: its options registered with CLI11, and how it runs once parsed (with the
// command line, which the files it writes record).
struct Command {
  CLI::App* cli;
  std::function<int(const std::string& command_line)> run;
};

// A number of seconds: finite and above zero (CLI::PositiveNumber lets NaN through).
const CLI::Validator kPositiveSeconds(
    [](const std::string& text) {
      double value = 0;
      std::size_t used = 0;
      try {
        value = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || !std::isfinite(value) || value <= 0)
        return "seconds must be a finite number above 0, not '" + text + "'";
      return std::string();
    },
    "SECONDS");

// Options that name files: given empty (an unset shell variable, often), they would name
// none, and a command would take them as not given.
const CLI::Validator kFilePath(
    [](const std::string& path) { return path.empty() ? "an empty path names no file" : ""; },
    "PATH");

Command add_measure(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::MeasureOptions>();
  CLI::App* m =
      app.add_subcommand("measure", "characterize this machine and write a ceilings file");
  m->add_option("--space", o->space, "execution space to characterize")
      ->check(CLI::IsMember({"host", "device"}));
  m->add_flag("--quick", o->quick, "short run (seconds): fewer points, shorter samples");
  CLI::Option* device =
      m->add_option("--device", o->device, "--space device: the GPU to characterize (CUDA index)")
          ->check(CLI::NonNegativeNumber);
  m->add_option("--out", o->out, "ceilings file to write (HDF5)")
      ->check(kFilePath);
  m->add_option("--plot", o->plot,
                "SVG chart to write (roofline and bandwidth sweep; under MPI the fleet's spread)")
      ->check(kFilePath);
  m->add_flag("--strict", o->strict,
              "exit 4 when a ceiling was measured while other tasks took its CPUs");
  return {m, [o, device](const std::string& line) {
            if (device->count() > 0 && o->space != "device")
              throw rooftop::Error("--device applies to --space device; this run measures the host");
            return rooftop::app::run_measure(*o, line);
          }};
}

Command add_show(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ShowOptions>();
  CLI::App* s = app.add_subcommand("show", "print a ceilings file as a table or JSON");
  s->add_option("file", o->file, "ceilings file (HDF5)")->required()
      ->check(kFilePath);
  add_format_flags(s, o->format);
  return {s, [o](const std::string&) { return rooftop::app::run_show(*o); }};
}

Command add_compare(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::CompareOptions>();
  CLI::App* c = app.add_subcommand(
      "compare", "ceilings of several files side by side, against the first, noise-aware");
  c->add_option("files", o->files,
                "ceilings files (HDF5); the first is the baseline. One fleet file (measure "
                "under MPI): its slow and failed ranks, exit status 3 when there are any")
      ->required()
      ->check(kFilePath);
  c->add_option("--plot", o->plot,
                "SVG chart to write (the rooflines overlaid; a fleet: the spread of each ceiling)")
      ->check(kFilePath);
  add_format_flags(c, o->format);
  CLI::Option* threshold =
      c->add_option("--threshold", o->threshold,
                    "fleet: a rank more than this fraction below the fleet median is slow")
          ->capture_default_str()
          ->check(CLI::Range(0.0, 1.0));
  return {c, [o, c, threshold](const std::string&) {
    o->threshold_given = threshold->count() > 0;
    return rooftop::app::run_compare(*o);
  }};
}

Command add_export(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ExportOptions>();
  CLI::App* e = app.add_subcommand("export", "write a ceilings file in a format other tools read");
  e->add_option("file", o->file, "ceilings file (HDF5)")->required()
      ->check(kFilePath);
  e->add_option("--format", o->format,
                "ert-json (ERT's roofline.json), csv, json, or ncu-sections (Nsight Compute "
                "section files of the measured hierarchical rooflines, a GPU's file; a folder)")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(rooftop::ceilings::kExportFormats),
                                                     std::end(rooftop::ceilings::kExportFormats))));
  e->add_option("--out", o->out,
                "file to write (default: stdout); for ncu-sections a new folder (required)")
      ->check(kFilePath);
  // A folder of files has no stdout to go to: a usage error, as a missing flag is.
  e->parse_complete_callback([o] {
    if (o->format == rooftop::ceilings::kNcuSectionsFormat && o->out.empty())
      throw CLI::ValidationError("--out DIR", "required with --format ncu-sections");
  });
  return {e, [o](const std::string&) { return rooftop::app::run_export(*o); }};
}

Command add_import_ceilings(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ImportCeilingsOptions>();
  CLI::App* ic =
      app.add_subcommand("import-ceilings", "read an ERT roofline.json into a ceilings file");
  ic->add_option("file", o->file, "ERT roofline.json")->required()
      ->check(kFilePath);
  ic->add_option("--out", o->out, "ceilings file to write (HDF5)")->required()
      ->check(kFilePath);
  return {ic, [o](const std::string& line) { return rooftop::app::run_import_ceilings(*o, line); }};
}

Command add_analyze(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::AnalyzeOptions>();
  CLI::App* a = app.add_subcommand(
      "analyze", "run kernels here (GPP ladder, reference kernels) and place them on the ceilings");
  a->add_option("--ceilings", o->ceilings, "ceilings file (HDF5) of this machine")->required()
      ->check(kFilePath);
  a->add_option("--kernels", o->kernels,
                "comma-separated: " + listed(rooftop::kernels::kernel_names(), ", "));
  a->add_option("--size", o->size,
                listed(rooftop::kernels::size_names(), " or ") +
                    " (default: small on a CPU, medium on a GPU)")
      ->check(CLI::IsMember(rooftop::kernels::size_names()));
  a->add_option("--out", o->out, "file to write: the ceilings with the kernels (HDF5)")
      ->check(kFilePath);
  a->add_option("--plot", o->plot, "SVG chart to write (hierarchical roofline)")
      ->check(kFilePath);
  add_format_flags(a, o->format);
  a->add_flag("--no-cupti", o->no_cupti,
              "declared counts even where CUPTI is available (to run under Nsight Compute, "
              "which cannot share the profiler): CUPTI is then not loaded at all");
  a->add_flag("--once", o->once,
              "run each kernel once, its time that one run (for a profiler outside the "
              "process, such as Nsight Compute, to see one run of every kernel)");
  a->add_option("--kernel-budget", o->kernel_budget,
                "seconds one kernel may take with its timed runs and counting (default 30); a "
                "kernel whose counting would end past it keeps its declared counts")
      ->check(kPositiveSeconds);
  return {a, [o](const std::string& line) { return rooftop::app::run_analyze(*o, line); }};
}

Command add_import(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ImportOptions>();
  CLI::App* im = app.add_subcommand(
      "import", "place kernels from profiler output (Nsight Compute, nvprof, Nsight Systems, "
                "PyTorch) on measured ceilings");
  im->add_option("report", o->reports,
                 "profiler output of one run, the format told from the content: ncu --csv or "
                 "text output, nvprof --csv, nsys stats --format csv (cuda_gpu_kern_sum, "
                 "cuda_gpu_trace), nsys export --type sqlite, a PyTorch trace (.json, .json.gz); "
                 "a file of times given with a report of counts times it")
      ->required()
      ->check(kFilePath);
  im->add_option("--timing", o->timing,
                 "kernel times joined by name: nvprof --print-gpu-trace or summary CSV, nsys "
                 "stats CSV, nsys SQLite export or a PyTorch trace")
      ->check(kFilePath);
  im->add_option("--ceilings", o->ceilings, "ceilings file (HDF5)")->required()
      ->check(kFilePath);
  im->add_option("--out", o->out, "file to write: the ceilings with the kernels (HDF5)")
      ->check(kFilePath);
  im->add_option("--plot", o->plot, "SVG chart to write (hierarchical roofline)")
      ->check(kFilePath);
  add_format_flags(im, o->format);
  return {im, [o](const std::string& line) { return rooftop::app::run_import(*o, line); }};
}

Command add_profile(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ProfileOptions>();
  CLI::App* pr = app.add_subcommand(
      "profile",
      "run an unmodified Kokkos, CUDA or PyTorch program and place its kernels on the ceilings");
  pr->add_option("--ceilings", o->ceilings, "ceilings file (HDF5)")->required()
      ->check(kFilePath);
  pr->add_option("--connector", o->connector,
                 "Kokkos Tools connector library (default: the one beside rooftop)")
      ->check(kFilePath);
  pr->add_option("--injection", o->injection,
                 "CUDA injection library (default: the one beside rooftop)")
      ->check(kFilePath);
  CLI::Option* kokkos = pr->add_flag("--kokkos", o->kokkos,
                                     "see labelled Kokkos kernels through the Kokkos Tools connector");
  pr->add_flag("--cuda", o->cuda,
               "see every CUDA kernel through the CUDA injection library (CUDA_INJECTION64_PATH)")
      ->excludes(kokkos);
  pr->add_flag("--torch", o->torch,
               "a PyTorch program (python3 SCRIPT ARGS), run unmodified under torch.profiler "
               "with shapes and FLOPs: its CPU operators placed; on a GPU its kernels counted "
               "in one run and named by the operators of a traced second run")
      ->excludes(kokkos);
  pr->add_option("--kernel-regex", o->kernel_regex,
                 "count only launches of kernels whose demangled name matches (as ncu's "
                 "--kernel-name regex:)");
  pr->add_option("--launch-skip", o->launch_skip, "matching launches to skip before counting starts")
      ->check(CLI::NonNegativeNumber);
  pr->add_option("--launch-count", o->launch_count, "matching launches to count (default: all)")
      ->check(CLI::NonNegativeNumber);
  pr->add_option("--trace", o->trace,
                 "torch.profiler trace of the program (export_chrome_trace, .json or .json.gz; "
                 "written by this run or an earlier one): names the operators that launched "
                 "each kernel; with --torch, where the run's trace is kept")
      ->check(kFilePath);
  pr->add_option("--out", o->out, "file to write: the ceilings with the kernels (HDF5)")
      ->check(kFilePath);
  pr->add_option("--plot", o->plot, "SVG chart to write (hierarchical roofline)")
      ->check(kFilePath);
  add_format_flags(pr, o->format);
  pr->add_option("command", o->command, "-- the program and its arguments")->required();
  return {pr, [o](const std::string& line) { return rooftop::app::run_profile(*o, line); }};
}

Command add_llm(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::LlmOptions>();
  CLI::App* l = app.add_subcommand(
      "llm", "a language model from its config.json on measured ceilings: each operator of "
             "prefill and decode bound by its roof, time to first token and per output token, "
             "machines side by side");
  l->add_option("--config", o->config, "the model's Hugging Face config.json")->required()
      ->check(kFilePath);
  l->add_option("--ceilings", o->ceilings, "ceilings files (HDF5), one machine each")
      ->required()
      ->check(kFilePath);
  l->add_option("--batch", o->batch, "sequences at once (default 1)")
      ->check(CLI::Range(1LL, 1LL << 20));
  l->add_option("--prompt", o->prompt, "tokens of each prompt (default 128)")
      ->check(CLI::Range(1LL, 1LL << 24));
  l->add_option("--generate", o->generate, "tokens generated after it (default 128)")
      ->check(CLI::Range(0LL, 1LL << 20));
  l->add_option("--dtype", o->dtype,
                "weights: fp32, bf16 (default), fp16, fp8, or int8 and int4 (weight-only, "
                "GEMMs in bf16)")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8", "int4"}));
  l->add_option("--kv-dtype", o->kv_dtype, "the KV cache's (default: the weights')")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16", "fp8", "int8"}));
  l->add_option("--launch-overhead", o->launch_overhead,
                "measured (default): each kernel adds the file's launch interval; none: as "
                "with CUDA graphs")
      ->check(CLI::IsMember({"measured", "none"}));
  l->add_flag("--unfused", o->unfused, "attention as its separate operators, not one flash kernel");
  l->add_flag("--fallback-roof", o->fallback,
              "a precision whose roof the file lacks placed on its fp32 FMA ceiling");
  l->add_option("--plot", o->plot,
                "SVG chart of both phases' operators on each machine's roofline (several "
                "machines: -1, -2, ... before the extension)")
      ->check(kFilePath);
  l->add_option("--trace", o->trace,
                "a real run of the model on the first machine: its PyTorch trace, or the "
                "kernels file of profile --torch; each operator's measured time beside its "
                "bound")
      ->check(kFilePath);
  add_format_flags(l, o->format);
  return {l, [o](const std::string&) { return rooftop::app::run_llm(*o); }};
}

Command add_plot(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::PlotOptions>();
  CLI::App* p = app.add_subcommand("plot", "draw a chart of one or more rooftop files");
  p->add_option("files", o->files, "ceilings or kernels files (HDF5)")->required()
      ->check(kFilePath);
  p->add_option("--out", o->out, "SVG chart to write")->required()
      ->check(kFilePath);
  return {p, [o](const std::string&) { return rooftop::app::run_plot(*o); }};
}

Command add_compare_counts(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::CompareCountsOptions>();
  CLI::App* cc = app.add_subcommand(
      "compare-counts",
      "counts side by side: two files' FLOPs, bytes and time of the same kernels (rooftop's "
      "CUPTI counts beside Nsight Compute's), against the targets FLOPs equal, bytes within 2%");
  cc->add_option("a", o->a,
                 "kernels file (HDF5: analyze, import or profile --out) or any report import "
                 "reads")
      ->required()
      ->check(kFilePath);
  cc->add_option("b", o->b, "the same for the other counts")->required()
      ->check(kFilePath);
  add_format_flags(cc, o->format);
  return {cc, [o](const std::string&) { return rooftop::app::run_compare_counts(*o); }};
}

Command add_report(CLI::App& app) {
  auto o = std::make_shared<rooftop::app::ReportOptions>();
  CLI::App* r = app.add_subcommand(
      "report", "write one self-contained interactive HTML page of one or more rooftop files");
  r->add_option("files", o->files, "ceilings or kernels files (HDF5); several are compared")
      ->required()
      ->check(kFilePath);
  r->add_option("--out", o->out, "HTML file to write")->required()
      ->check(kFilePath);
  return {r, [o](const std::string&) { return rooftop::app::run_report(*o); }};
}

// On a terminal the progress line ("[1/2] reading a.csv") may still be open: an error
// takes its place rather than running on after it.
void clear_progress_line() {
  if (isatty(fileno(stderr))) std::fputs("\r\033[K", stderr);
}

// A command's status, unless what it printed did not all reach standard output (a full
// disk, a closed descriptor): then one line and status 1, as for any other failed write.
int standard_output_written(int status) {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return status;
  std::fprintf(stderr, "rooftop: error: writing standard output failed (%s)\n",
               errno ? std::strerror(errno) : "write error");
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rooftop: measured rooflines -- ceilings of this machine, kernels on them"};
  app.set_version_flag("--version", std::string(ROOFTOP_VERSION) + " " + ROOFTOP_GIT_REVISION);
  app.require_subcommand(1);
  const std::vector<Command> commands = {
      add_measure(app), add_show(app),    add_compare(app),        add_export(app),
      add_import_ceilings(app),           add_analyze(app),        add_import(app),
      add_profile(app), add_plot(app),    add_compare_counts(app), add_report(app),
      add_llm(app)};

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
  const Command* command = nullptr;
  for (const Command& c : commands)
    if (c.cli->parsed()) command = &c;
  if (!command) return 1;
  rooftop::core::remove_temporary_files_when_stopped();
  try {
    return standard_output_written(command->run(command_line));
  } catch (const rooftop::Interrupted&) {
    // On a terminal the progress line is still open; end it first. Elsewhere the
    // message stays the single line that every failure prints.
    if (isatty(fileno(stderr))) std::fputc('\n', stderr);
    std::fprintf(stderr, "rooftop: interrupted; nothing was written\n");
    return 130;
  } catch (const std::bad_alloc&) {
    clear_progress_line();
    const bool measure = command->cli->get_name() == "measure";  // --quick does less
    std::fprintf(stderr, "rooftop: error: out of memory%s\n",
                 measure ? " (try --quick or fewer threads)" : "");
    return 1;
  } catch (const std::exception& e) {
    // Some libraries (Kokkos among them) put several lines in what(); keep one.
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    message = rooftop::core::terminal_text(message);
    clear_progress_line();
    std::fprintf(stderr, "rooftop: error: %s\n", message.c_str());
    return 1;
  }
  return 1;
}
