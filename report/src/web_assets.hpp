#pragma once
// The HTML report's script and style sheet (report/web/), embedded at build time by
// cmake/EmbedWebAssets.cmake, with the hashes its Content-Security-Policy allows them by.
// Private to rooftop_report.

#include <string_view>

namespace rooftop::report::web {

extern const std::string_view kScript;      // report/web/*.js, joined
extern const std::string_view kStyle;       // report/web/report.css
extern const std::string_view kScriptHash;  // 'sha256-...' of kScript
extern const std::string_view kStyleHash;   // of kStyle

}  // namespace rooftop::report::web
