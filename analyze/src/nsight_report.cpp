#include "nsight_report.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "child_process.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"

namespace rooftop::analyze {
namespace {

// An export as large as the largest report the import reads.
constexpr std::size_t kMaxExportBytes = std::size_t{256} << 20;

// One Nsight tool: how its reports begin, where the version that wrote one is, and how the
// tool turns one into a file the import reads.
struct Tool {
  NsightReport kind;
  const char* product;  // "Nsight Compute"
  const char* program;  // "ncu"
  const char* files;    // the report's extensions, for messages
  const char* package;  // Debian's package (non-free)
  std::string_view magic;
  // The bytes a report's writer version follows (ncu: its session's "Nsight Compute
  // Target" string; nsys 2023 and later: the header itself, "2025@2@1@130-...").
  std::string_view version_mark;
  const char* export_suffix;  // of the scratch file the export goes to
};
constexpr Tool kTools[] = {
    {NsightReport::compute, "Nsight Compute", "ncu", ".ncu-rep", "nsight-compute",
     std::string_view("NVR\0", 4), "Nsight Compute Target", ".csv"},
    {NsightReport::systems, "Nsight Systems", "nsys", ".nsys-rep or .qdrep", "nsight-systems",
     "NVIDIA Tegra Profiler Report", "NVIDIA Tegra Profiler Report ", ".sqlite"},
};

const Tool& tool_of(NsightReport kind) {
  for (const Tool& t : kTools)
    if (t.kind == kind) return t;
  throw Error("not an Nsight report");
}

// The command that exports `report` to `out` (ncu writes its page to stdout: `out` is where
// that goes). Base units: ncu's default units print six decimals of milliseconds or
// gigabytes, too few digits for a short kernel's bytes.
std::vector<std::string> export_command(const Tool& t, const std::string& program,
                                        const std::string& report, const std::string& out) {
  if (t.kind == NsightReport::compute)
    return {program, "--import", report, "--csv", "--page", "raw", "--print-units", "base"};
  return {program, "export",   "--type", "sqlite", "--force-overwrite",
          "true",  "--output", out,      report};
}

// The same command as a person types it, for messages.
std::string shown_command(const Tool& t, const std::string& report) {
  if (t.kind == NsightReport::compute)
    return std::string("ncu --import ") + report +
           " --csv --page raw --print-units base > report.csv";
  return std::string("nsys export --type sqlite --output report.sqlite ") + report;
}

// "2022.3.0.0" from the first version-like run of digits and dots (or nsys's '@') in `text`
// at or after `from`, within a few bytes; empty where there is none.
std::string version_at(std::string_view text, std::size_t from) {
  std::size_t i = from;
  while (i < text.size() && i < from + 4 && !std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string version;
  for (; i < text.size() && version.size() < 24; ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)))
      version += c;
    else if (c == '.' || c == '@')
      version += '.';
    else
      break;
  }
  while (!version.empty() && version.back() == '.') version.pop_back();
  return std::count(version.begin(), version.end(), '.') >= 2 ? version : "";
}

// The version of the tool that wrote the report, where the report says it.
std::string writer_version(const Tool& t, std::string_view bytes) {
  const std::size_t mark = bytes.find(t.version_mark);
  return mark == std::string_view::npos ? "" : version_at(bytes, mark + t.version_mark.size());
}

// The tool's own version (`ncu --version`: "Version 2022.3.0.0 (build ...)"; `nsys
// --version`: "... version 2022.4.2.1-df9881f"); empty where it says none.
std::string tool_version(const std::string& program) {
  ScratchFile out, err;
  if (run_program({program, "--version"}, child_environment({}, {}), {out.path(), err.path()}) != 0)
    return "";
  std::smatch m;
  const std::string text = core::read_input_file(out.path(), 1 << 16, "version output");
  static const std::regex version(R"([Vv]ersion (\d{4}\.\d+\.\d+(\.\d+)?))");
  return std::regex_search(text, m, version) ? m[1].str() : "";
}

// Whether version `a` is later than `b` ("2024.2.1.0" than "2022.3.0.0").
bool later(const std::string& a, const std::string& b) {
  std::vector<long> x, y;
  for (auto [text, parts] : {std::pair{&a, &x}, std::pair{&b, &y}})
    for (std::size_t start = 0; start < text->size();) {
      const std::size_t end = std::min(text->find('.', start), text->size());
      parts->push_back(std::stol(text->substr(start, end - start)));
      start = end + 1;
    }
  return x > y;
}

// The tool's first error line among its output files ("==ERROR== Failed to load report
// file ...", "Exportation error: ..."), without the tool's prefix.
std::string first_error(const std::vector<std::string>& paths) {
  static const std::regex error(R"((?:==ERROR==\s*|[Ee]rror:\s*)([^\r\n]+))");
  for (const std::string& path : paths) {
    std::string text;
    try {
      text = core::read_input_file(path, 1 << 20, "tool output");
    } catch (const Error&) {
      continue;  // the tool wrote nothing there
    }
    std::smatch m;
    if (std::regex_search(text, m, error)) return m[1].str();
  }
  return "";
}

}  // namespace

NsightReport nsight_report_kind(std::string_view bytes) {
  for (const Tool& t : kTools)
    if (bytes.substr(0, t.magic.size()) == t.magic) return t.kind;
  return NsightReport::none;
}

std::string export_nsight_report(const std::string& path, std::string_view bytes, NsightReport kind,
                                 std::vector<std::string>& notes) {
  const Tool& t = tool_of(kind);
  const std::string program = resolve_program(t.program);
  if (program.empty())
    throw Error(path + ": an " + t.product + " report (" + t.files + "), read through " +
                t.program + ", and no " + t.program + " is on PATH: install " + t.product +
                " (Debian: " + t.package + ", non-free), or export it where " + t.program +
                " is: " + shown_command(t, path));
  // ncu writes its page (and its ==ERROR== lines) to stdout; nsys writes the export to
  // `out` and its progress to stdout. Each stream has a file of its own: two descriptors
  // on one file would write over each other.
  ScratchFile out(t.export_suffix), log, err;
  const std::string& stdout_path = kind == NsightReport::compute ? out.path() : log.path();
  const std::vector<std::string> command = export_command(t, program, path, out.path());
  const int status =
      run_program(command, child_environment({}, {}), {stdout_path, err.path()});
  const std::string written = writer_version(t, bytes);
  if (status != 0) {
    const std::string installed = tool_version(program);
    if (!written.empty() && !installed.empty() && later(written, installed))
      throw Error(path + ": written by " + t.product + " " + written + ", newer than the " +
                  t.program + " on PATH (" + installed +
                  "), which cannot read it: export it with " + t.product + " " + written +
                  " or later: " + shown_command(t, path));
    std::string why = first_error({stdout_path, err.path()});
    while (!why.empty() && (why.back() == '.' || why.back() == ' ')) why.pop_back();
    throw Error(path + ": " + t.program + " could not read this " + t.product + " report (" +
                (why.empty() ? "exit status " + std::to_string(status) : why) +
                "): truncated or damaged?");
  }
  std::string text = core::read_input_file(out.path(), kMaxExportBytes, "exported report");
  notes.push_back(path + ": an " + t.product + " report" +
                  (written.empty() ? "" : " written by " + std::string(t.product) + " " + written) +
                  ", exported by " + program + " " + tool_version(program) + " (" +
                  shown_command(t, path) + ")");
  return text;
}

}  // namespace rooftop::analyze
