// Nsight Compute's plain-text output (`ncu --log-file LOG`, or its captured stdout; the
// details page, ncu's default): "==PROF==" progress lines and the program's own output,
// then per process a line "[PID] program@host" and per profiled launch a header line
//   NAME (GX, GY, GZ)x(BX, BY, BZ), Context C, Stream S, Device D, CC M.N   (newer)
//   NAME, 2023-Apr-25 02:52:58, Context C, Stream S                         (older)
// followed by "Section: TITLE" blocks, each a table between rules of dashes whose
// widths give the three columns: metric name (left-aligned, may hold spaces), unit and
// value (right-aligned). Newer versions print a "Metric Name  Metric Unit  Metric Value"
// row and a second rule under the first. Values carry thousands separators, "n/a" or
// "(!) n/a"; units are Nsight Compute's (byte, Kbyte, KB, sector, inst, nsecond, us, ...).
// Rule notes (OPT, WRN, INF), the rules between them, and tables of other shapes are
// skipped.

#include <string>
#include <string_view>
#include <vector>

#include "ncu_report.hpp"
#include "reader.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

std::string_view trimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Consumes `word` at the start of `s`.
bool eat(std::string_view& s, std::string_view word) {
  if (s.substr(0, word.size()) != word) return false;
  s.remove_prefix(word.size());
  return true;
}

// Consumes one or more digits.
bool eat_number(std::string_view& s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  s.remove_prefix(n);
  return n > 0;
}

// "(1, 2, 3)x(4, 5, 6)" at the end of `s`: the position of its first '(', else npos.
std::size_t launch_dims(std::string_view s) {
  const std::size_t x = s.rfind(")x(");
  if (x == std::string_view::npos || s.empty() || s.back() != ')') return std::string_view::npos;
  const std::size_t open = s.rfind('(', x);
  if (open == std::string_view::npos) return std::string_view::npos;
  const auto dims = [](std::string_view d) {
    int commas = 0;
    for (char c : d) {
      if (c == ',') ++commas;
      else if (!is_digit(c) && c != ' ') return false;
    }
    return commas == 2;
  };
  if (!dims(s.substr(open + 1, x - open - 1)) ||
      !dims(s.substr(x + 3, s.size() - x - 4)))
    return std::string_view::npos;
  return open;
}

// ", 2023-Apr-25 02:52:58" at the end of `s`: its position, else npos.
std::size_t launch_date(std::string_view s) {
  const std::size_t comma = s.rfind(", ");
  if (comma == std::string_view::npos) return std::string_view::npos;
  std::string_view d = s.substr(comma + 2);
  if (!eat_number(d) || !eat(d, "-") || d.size() < 4) return std::string_view::npos;
  d.remove_prefix(3);  // the month: "Apr"
  if (!eat(d, "-") || !eat_number(d) || !eat(d, " ") || !eat_number(d) || !eat(d, ":") ||
      !eat_number(d) || !eat(d, ":") || !eat_number(d) || !d.empty())
    return std::string_view::npos;
  return comma;
}

// The kernel name of a launch header line; empty when `line` is none.
std::string kernel_header(std::string_view line) {
  line = trimmed(line);
  const std::size_t context = line.rfind(", Context ");
  if (context == std::string_view::npos) return {};
  std::string_view tail = line.substr(context + 10);
  if (!eat_number(tail) || !eat(tail, ", Stream ") || !eat_number(tail)) return {};
  if (eat(tail, ", Device ")) {
    if (!eat_number(tail) || !eat(tail, ", CC ") || !eat_number(tail) || !eat(tail, ".") ||
        !eat_number(tail))
      return {};
  }
  if (!tail.empty()) return {};
  std::string_view head = trimmed(line.substr(0, context));
  std::size_t cut = launch_dims(head);
  if (cut == std::string_view::npos) cut = launch_date(head);
  if (cut == std::string_view::npos) return {};
  return std::string(trimmed(head.substr(0, cut)));
}

// A rule of dashes: the start and end of each run of dashes; empty for any other line.
std::vector<std::pair<std::size_t, std::size_t>> rule_columns(std::string_view line) {
  std::vector<std::pair<std::size_t, std::size_t>> columns;
  const std::size_t last = line.find_last_not_of(" \t\r");
  if (last == std::string_view::npos) return {};
  for (std::size_t i = 0; i <= last;) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    if (line[i] != '-') return {};
    const std::size_t start = i;
    while (i <= last && line[i] == '-') ++i;
    if (i - start < 3) return {};
    columns.push_back({start, i});
  }
  return columns;
}

// The part of `line` from `from` to `to` (npos: the end), trimmed.
std::string cell(std::string_view line, std::size_t from, std::size_t to) {
  if (from >= line.size()) return {};
  return std::string(trimmed(line.substr(from, to == std::string_view::npos ? to : to - from)));
}

bool detect(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;  // a binary file, not a log
  std::size_t pos = 0;
  bool header = false;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const std::string_view t = trimmed(line);
    // Its progress lines, or an error before any (counters not permitted).
    if (t.substr(0, 9) == "==PROF== " || t.substr(0, 10) == "==ERROR== ") return true;
    if (header && t.substr(0, 9) == "Section: ") return true;
    if (line.size() < 65536 && !kernel_header(line).empty()) header = true;
  }
  return false;
}

Reading read(const Input& file, const Timing* timing) {
  NcuReport report;
  Launch* launch = nullptr;
  // The table being read: its columns, and whether the next rule is the one under a
  // "Metric Name" row rather than the table's end.
  std::vector<std::pair<std::size_t, std::size_t>> table;
  bool rule_under_names = false;
  std::size_t pos = 0;
  int line_no = 0;
  const std::string_view text = file.text;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string_view t = trimmed(line);
    if (t.empty() || t.substr(0, 2) == "==") continue;
    if (!table.empty()) {
      // Newer versions rule off their notes with "----- ------"; a table opened by such a
      // rule ends at the next section or launch, whose lines are not its rows.
      if (t.substr(0, 9) == "Section: ") {
        table.clear();
        continue;
      }
      if (line.size() <= 65536) {
        if (std::string kernel = kernel_header(line); !kernel.empty()) {
          table.clear();
          launch = &report.new_launch(kernel);
          continue;
        }
      }
      const auto rule = rule_columns(line);
      if (!rule.empty()) {
        if (!rule_under_names) table.clear();
        rule_under_names = false;
        continue;
      }
      if (table.size() != 3) continue;  // a table of another shape
      const std::string name = cell(line, 0, table[1].first);
      if (name == "Metric Name") {
        rule_under_names = true;
        continue;
      }
      std::string value = cell(line, table[2].first, std::string_view::npos);
      if (value.rfind("(!)", 0) == 0) value = trim(value.substr(3));  // "(!) n/a"
      store(*launch, report, name, value, cell(line, table[1].first, table[2].first),
            at(file.name, line_no));
      continue;
    }
    if (t.substr(0, 9) == "Section: ") continue;
    if (launch) {
      auto rule = rule_columns(line);
      if (!rule.empty()) {
        table = std::move(rule);
        rule_under_names = false;
        continue;
      }
    }
    if (line.size() > 65536) continue;  // program output; no header is this long
    const std::string kernel = kernel_header(line);
    if (!kernel.empty()) launch = &report.new_launch(kernel);
  }
  report.errors = ncu_errors(text);
  return ncu_reading(report, file.name, "ncu-text", timing);
}

}  // namespace

Reader ncu_text_reader() { return {"Nsight Compute text log", detect, read, nullptr}; }

}  // namespace rooftop::counters::importing
