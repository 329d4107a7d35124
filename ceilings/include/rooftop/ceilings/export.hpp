#pragma once
// A ceilings file in the formats other tools read: ERT's roofline.json (ert.hpp), one
// flat table, one row per ceiling, as CSV or JSON, and Nsight Compute's section files
// (ncu_sections.hpp; a folder of them, not one text). Both tables have the same
// columns: the file's machine, host and creation time, then the ceiling's fields as
// report.hpp's ceiling_fields lists them; every number in a row is in its `units`.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

inline constexpr const char* kExportFormats[] = {"ert-json", "csv", "json", "ncu-sections"};
// The format that is a folder of files rather than one text.
inline constexpr std::string_view kNcuSectionsFormat = "ncu-sections";

// RFC 4180 with LF line ends: a header row, comma-separated, fields quoted where they
// hold a comma, a quote or a line break; unknown numbers (no theoretical peak) are
// empty fields; booleans are true/false.
std::string to_csv(const core::CeilingsFile& file);

// {"schema": "rooftop-ceilings-table", "schema_version", "columns": […], "rows": [{…}]}
// with null where a number is unknown.
nlohmann::json to_table_json(const core::CeilingsFile& file);

// The file in `format` (one of kExportFormats but ncu-sections), as text ending in a
// newline. Ceilings the format cannot name go to `skipped`. Throws rooftop::Error for an
// unknown format, and for ncu-sections (a folder: ncu_sections()).
std::string export_text(const core::CeilingsFile& file, const std::string& format,
                        std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::ceilings
