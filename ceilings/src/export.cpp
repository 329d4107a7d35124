#include "rooftop/ceilings/export.hpp"

#include <cmath>

#include <sstream>

#include "rooftop/ceilings/ert.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

using nlohmann::json;

// One ceiling's row: the file's machine, host and date, then every field of the
// ceiling, in order, as JSON values. CSV and JSON are both written from this.
using Row = std::vector<std::pair<std::string, json>>;

// `group`: "ceilings" for the roofline's, else the figures' group (schema 1.7).
Row table_row(const core::CeilingsFile& f, const core::Ceiling& c, std::string_view group) {
  Row row = {{"machine", machine_name(f.machine)},
             {"hostname", f.machine.hostname},
             {"created_utc", f.provenance.created_utc}};
  for (auto& field : ceiling_fields(c)) row.push_back(std::move(field));
  row.emplace_back("group", std::string(group));
  return row;
}

// Every row of the file: its ceilings, then each group's figures.
std::vector<Row> table_rows(const core::CeilingsFile& f) {
  std::vector<Row> rows;
  for (const core::Ceiling& c : f.ceilings) rows.push_back(table_row(f, c, "ceilings"));
  for (const core::FigureGroup& g : core::kFigureGroups)
    for (const core::Ceiling& c : (f.*g.figures).figures) rows.push_back(table_row(f, c, g.name));
  return rows;
}

std::vector<std::string> column_names() {
  std::vector<std::string> names;
  for (const auto& [name, cell] : table_row(core::CeilingsFile{}, core::Ceiling{}, ""))
    names.push_back(name);
  return names;
}

std::string csv_field(const json& cell) {
  if (cell.is_null()) return "";
  if (cell.is_number_float() && !std::isfinite(cell.get<double>())) return "";  // not "null"
  if (!cell.is_string()) return cell.dump();  // numbers round-trip; booleans true/false
  std::string s = cell.get<std::string>();
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

void csv_line(std::ostringstream& out, const std::vector<json>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << csv_field(cells[i]);
  out << "\n";
}

}  // namespace

std::string to_csv(const core::CeilingsFile& f) {
  std::ostringstream out;
  const std::vector<std::string> names = column_names();
  csv_line(out, std::vector<json>(names.begin(), names.end()));
  for (Row& row : table_rows(f)) {
    std::vector<json> cells;
    for (auto& [name, cell] : row) cells.push_back(std::move(cell));
    csv_line(out, cells);
  }
  return out.str();
}

json to_table_json(const core::CeilingsFile& f) {
  json rows = json::array();
  for (Row& row : table_rows(f)) {
    json object = json::object();
    for (auto& [name, cell] : row) object[name] = std::move(cell);
    rows.push_back(std::move(object));
  }
  return {{"schema", "rooftop-ceilings-table"},
          {"schema_version", f.provenance.schema_version},
          {"columns", column_names()},
          {"rows", rows}};
}

std::string export_text(const core::CeilingsFile& f, const std::string& format,
                        std::vector<std::string>* skipped) {
  if (format == "ert-json")
    return to_ert_json(f, skipped).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (format == "csv") return to_csv(f);
  if (format == "json")
    return to_table_json(f).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (format == kNcuSectionsFormat)
    throw Error("export format " + format +
                " is a folder of section files, not one text; write it with ncu_sections()");
  std::string known;
  for (const char* k : kExportFormats) known += (known.empty() ? "" : ", ") + std::string(k);
  throw Error("unknown export format '" + format + "' (known: " + known + ")");
}

}  // namespace rooftop::ceilings
