#include "csv.hpp"

#include "rooftop/core/error.hpp"

namespace rooftop::counters::csv {
namespace {

// One physical line starting at pos, without its line break; pos moves past the break.
std::string_view next_line(std::string_view text, std::size_t& pos) {
  const std::size_t end = text.find('\n', pos);
  std::string_view line = text.substr(pos, end == std::string_view::npos ? end : end - pos);
  pos = end == std::string_view::npos ? text.size() : end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

bool is_banner(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line.substr(first, 2) == "==";
}

bool read_record(std::string_view text, std::size_t& pos, int& line, Record& out,
                 std::string& error, int& error_line) {
  out.line = line;
  out.fields.clear();
  std::string field;
  std::size_t i = pos;
  for (;;) {
    // At the start of a field.
    if (i < text.size() && text[i] == '"') {
      const int opened = line;
      ++i;
      for (;;) {
        if (i >= text.size()) {
          error = "unbalanced quote (the quoted field opened here never closes)";
          error_line = opened;
          return false;
        }
        const char c = text[i++];
        if (c == '"') {
          if (i < text.size() && text[i] == '"') {
            field += '"';
            ++i;
            continue;
          }
          break;
        }
        if (c == '\n') ++line;
        field += c;
      }
      if (i < text.size() && text[i] == '\r') ++i;
      if (i < text.size() && text[i] != ',' && text[i] != '\n') {
        // A field that ran over a line break and then ends badly is a quote left open
        // where it started, closed by the next line's first quote.
        const bool ran_over = line != opened;
        error = ran_over ? "unbalanced quote (the quoted field opened here never closes)"
                         : "text after a closing quote";
        error_line = ran_over ? opened : line;
        return false;
      }
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '\n') {
        if (text[i] == '"') {
          error = "a quote inside an unquoted field";
          error_line = line;
          return false;
        }
        field += text[i++];
      }
      if (!field.empty() && field.back() == '\r') field.pop_back();
    }
    out.fields.push_back(std::move(field));
    field.clear();
    if (i >= text.size()) break;
    if (text[i] == '\n') {
      ++i;
      ++line;
      break;
    }
    ++i;  // the comma
  }
  pos = i;
  return true;
}

std::vector<Table> read_tables(std::string_view text, const std::string& name,
                               const std::function<int(const Record&)>& classify) {
  // A UTF-8 byte-order mark (reports saved on Windows) is not part of the first header.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<Table> tables;
  std::size_t pos = 0;
  int line = 1;
  Record record;
  std::string error;
  int error_line = 0;
  while (pos < text.size()) {
    std::size_t line_end = pos;
    const std::string_view physical = next_line(text, line_end);
    if (is_blank(physical) || is_banner(physical)) {
      pos = line_end;
      ++line;
      continue;
    }
    if (tables.empty()) {
      // Before the first header, a line is only a candidate header: whatever does not
      // parse on its own line, or is no header, is the program's output.
      std::size_t p = 0;
      int l = line;
      if (read_record(physical, p, l, record, error, error_line)) {
        record.line = line;
        if (const int kind = classify(record)) tables.push_back({kind, record, {}});
      }
      pos = line_end;
      ++line;
      continue;
    }
    if (!read_record(text, pos, line, record, error, error_line))
      throw Error(name + ":" + std::to_string(error_line) + ": " + error);
    if (const int kind = classify(record)) {
      tables.push_back({kind, record, {}});
      continue;
    }
    const Table& table = tables.back();
    if (record.fields.size() > table.header.fields.size())
      throw Error(name + ":" + std::to_string(record.line) + ": " +
                  std::to_string(record.fields.size()) + " fields where the header on line " +
                  std::to_string(table.header.line) + " has " +
                  std::to_string(table.header.fields.size()));
    tables.back().rows.push_back(std::move(record));
    record = Record{};
  }
  return tables;
}

}  // namespace rooftop::counters::csv
