// The one-file HTML report: the data as JSON in the page, drawn by the embedded script.

#include "rooftop/report/html_report.hpp"

#include <limits>
#include <sstream>

#include "chart_data.hpp"
#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "rooftop/report/comparison_table.hpp"
#include "rooftop/report/kernel_table.hpp"
#include "svg.hpp"
#include "web_assets.hpp"

namespace rooftop::report {
namespace {

nlohmann::json sweep_json(const core::CeilingsFile& f) {
  nlohmann::json patterns = nlohmann::json::array(), levels = nlohmann::json::array();
  for (const auto& [pattern, points] : sweep_lines(f).patterns) {
    nlohmann::json xy = nlohmann::json::array();
    for (const auto& [ws, rate] : points) xy.push_back({ws, rate});
    patterns.push_back({{"pattern", pattern}, {"points", xy}});
  }
  for (const ceilings::LevelWindow& w : sweep_levels(f))
    levels.push_back({{"name", w.name},
                      {"capacity", w.capacity},
                      {"lo", w.lo},
                      {"hi", w.hi == std::numeric_limits<std::uint64_t>::max()
                                 ? nlohmann::json(nullptr)
                                 : nlohmann::json(w.hi)}});
  return {{"patterns", patterns}, {"levels", levels}};
}

nlohmann::json trace_json(const core::CeilingsFile& f) {
  const Traces traces = flops_traces(f);
  nlohmann::json series = nlohmann::json::array();
  for (const auto& [name, points] : traces.series) {
    nlohmann::json xy = nlohmann::json::array();
    for (const auto& [ai, rate] : points) xy.push_back({ai, rate});
    series.push_back({{"name", name}, {"points", xy}});
  }
  return {{"working_set", traces.working_set}, {"series", series}};
}

// The file with every kernel placed, as the kernels chart places them.
core::CeilingsFile placed(core::CeilingsFile f) {
  for (core::KernelRecord& k : f.kernels)
    if (k.limiter.empty()) core::apply(core::place(k, f), k);
  return f;
}

}  // namespace

nlohmann::json report_json(const std::vector<core::CeilingsFile>& files,
                           const std::vector<std::string>& labels) {
  ROOFTOP_REQUIRE(labels.size() == files.size(), "one label per file");
  nlohmann::json levels = nlohmann::json::array(), precisions = nlohmann::json::array();
  nlohmann::json matrix_precisions = nlohmann::json::object();  // "tc_tf32": "fp32"
  for (const core::Level& l : core::kLevels) levels.push_back(l.name);
  for (const core::Precision& p : core::kPrecisions) {
    precisions.push_back(p.name);
    if (!p.matrix.empty()) matrix_precisions[std::string(p.matrix)] = p.name;
  }
  nlohmann::json out{{"schema", "rooftop-report"},
                     {"schema_version", "1.0"},
                     {"levels", levels},
                     {"precisions", precisions},
                     {"matrix_precisions", matrix_precisions},
                     {"files", nlohmann::json::array()},
                     {"comparison", nullptr}};
  const std::vector<std::size_t> roofs_of = same_roofs(files);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const core::CeilingsFile f = placed(files[i]);
    nlohmann::json kernels = kernels_json(f, labels[i], {})["kernels"];
    // What the page shows of each kernel beside its record: the name in a table, and the
    // ladder its arrows join (null: none).
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const std::string ladder = ladder_of(f.kernels[k]);
      kernels[k]["short_name"] = display_name(f.kernels[k].name);
      kernels[k]["ladder"] = ladder.empty() ? nlohmann::json(nullptr) : nlohmann::json(ladder);
    }
    out["files"].push_back({{"label", labels[i]},
                            {"roofs_of", roofs_of[i]},
                            {"machine_name", ceilings::machine_name(f.machine)},
                            {"command_line", f.provenance.command_line},
                            {"ceilings", ceilings_json(f)},
                            {"kernels", kernels},
                            {"sweep", sweep_json(f)},
                            {"trace", trace_json(f)}});
  }
  if (files.size() > 1) out["comparison"] = comparison_json(ceilings::compare(files, labels));
  return out;
}

std::string script_json(const nlohmann::json& json) {
  const std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
               (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";  // JSON allows them raw, JS did not
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string html_report(const std::vector<core::CeilingsFile>& files,
                        const std::vector<std::string>& labels) {
  const nlohmann::json data = report_json(files, labels);
  std::string machines;
  for (const nlohmann::json& f : data["files"])
    machines += (machines.empty() ? "" : " | ") + f["machine_name"].get<std::string>();
  std::ostringstream s;
  // No default source: the page may run its own script and style, found by their hashes,
  // and load nothing, not even an image or a font.
  s << "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
    << "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; script-src '"
    << web::kScriptHash << "'; style-src '" << web::kStyleHash
    << "'; base-uri 'none'; form-action 'none'\">\n"
    << "<meta name='referrer' content='no-referrer'>\n"
    << "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
    << "<title>" << escape("rooftop report: " + machines) << "</title>\n"
    << "<style>" << web::kStyle << "</style>\n</head>\n<body>\n"
    << "<header><h1>rooftop report</h1><p class='subtitle'>" << escape(machines) << "</p></header>\n"
    << "<noscript><p>This report draws its charts and tables with its own embedded script, "
       "which this browser does not run. The SVG charts of <code>rooftop plot</code> are the "
       "static form.</p></noscript>\n"
    << "<main id='report'></main>\n"
    << "<div id='tooltip' role='tooltip' hidden></div>\n"
    << "<script type='application/json' id='rooftop-data'>" << script_json(data) << "</script>\n"
    << "<script>" << web::kScript << "</script>\n</body>\n</html>\n";
  return s.str();
}

}  // namespace rooftop::report
