#pragma once
// One self-contained HTML page of one or more rooftop files, for reading on any machine
// with a browser and no network: the machines and their provenance, the ceilings tables,
// the measured rooflines overlaid (every ceiling, the kernels as one point per memory
// level, ladders joined in order), the bandwidth sweeps with the cache levels, and a
// sortable kernels table linked to the points. The page draws with an embedded script
// (report/web/) from data embedded as JSON; it loads nothing, and its
// Content-Security-Policy lets no other script or style run.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::report {

// What the page draws, from the views the other outputs use, so that every number is the
// one `show --json`, `analyze --json` and `compare --json` print:
// {"schema": "rooftop-report", "schema_version", "levels", "precisions",
//  "files": [{"label", "roofs_of" (the first file with the same ceilings, whose roofs are
//             drawn for both: its own index or an earlier one), "machine_name",
//             "command_line", "ceilings": ceilings_json, "kernels": kernels_json's kernels,
//             "sweep": {"patterns": [{"pattern", "points": [[bytes, GB/s]]}],
//                       "levels": [{"name", "capacity", "lo", "hi"}]},
//             "trace": {"working_set", "series": [{"name", "points": [[AI, GFLOP/s]]}]}}],
//  "comparison": comparison_json (several files) or null}
// Kernels without a placement (a limiter) are placed on their file's ceilings, as the
// kernels chart places them; each kernel also has "short_name" (its name as tables show
// it, the full one in "name") and "ladder" (the ladder whose versions arrows join, or null).
nlohmann::json report_json(const std::vector<core::CeilingsFile>& files,
                           const std::vector<std::string>& labels);

// `json` as text to embed in an HTML <script> element: '<', '>', '&', U+2028 and U+2029
// written as \u escapes, so that no string in it can close the element, open a comment or
// break a JavaScript string; invalid UTF-8 becomes U+FFFD.
std::string script_json(const nlohmann::json& json);

// The page: one file, everything inline.
std::string html_report(const std::vector<core::CeilingsFile>& files,
                        const std::vector<std::string>& labels);

}  // namespace rooftop::report
