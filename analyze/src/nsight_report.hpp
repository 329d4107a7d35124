#pragma once
// Nsight's own report files, read through the tools that wrote them: an Nsight Compute
// report (.ncu-rep) becomes ncu's raw page as CSV, an Nsight Systems report (.nsys-rep,
// or .qdrep before 2021.3) its SQLite export; the import reads those. The tools are found
// on PATH; nothing is written beside the report. Private to rooftop_analyze.

#include <string>
#include <string_view>
#include <vector>

namespace rooftop::analyze {

enum class NsightReport { none, compute, systems };

// What `bytes` are, from their first bytes (never the file name).
NsightReport nsight_report_kind(std::string_view bytes);

// The text the import reads for the report at `path`, whose contents are `bytes` and kind
// `kind` (not none); a note says which tool exported it and how. Throws one line where the
// tool is not on PATH (with the export command to run where it is), where the report is
// newer than the tool (both versions named), or where the tool cannot read it.
std::string export_nsight_report(const std::string& path, std::string_view bytes,
                                 NsightReport kind, std::vector<std::string>& notes);

}  // namespace rooftop::analyze
