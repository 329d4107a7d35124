#pragma once
// The Empirical Roofline Toolkit's result file, roofline.json:
//
//   {"empirical": {"gflops": {"data": [["FP64 GFLOPs", 7068.86], …], "metadata": {…}},
//                  "gbytes": {"data": [["L1", …], …, ["DRAM", …]], "metadata": {…}},
//                  "metadata": {"HOSTNAME": …, "CONFIG": {…}, …}},
//    "spec":      {"gflops": {"data": […]}, "gbytes": {"data": […]}}}
//
// `empirical` holds what ERT measured, `spec` the theoretical peaks its configuration
// declared. Names: "FP64 GFLOPs" and the older "GFLOPs" are fp64_fma (ERT's kernel is
// FMA-based), "FP32 GFLOPs" fp32_fma; "L1", "L2", "L3" the caches; "DRAM" and "HBM"
// dram. rooftop writes its unfused ceilings as "FP64 no-FMA GFLOPs" / "FP32 no-FMA
// GFLOPs" (other ERT readers show them as one more labelled line) and its own
// provenance and machine under empirical.metadata.ROOFTOP.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Measured ceilings go to `empirical`, theoretical peaks (and ceilings that were never
// measured) to `spec`. Ceilings ERT has no name for are left out and named in `skipped`.
nlohmann::json to_ert_json(const core::CeilingsFile& file,
                           std::vector<std::string>* skipped = nullptr);

// Every value is marked as imported in its note. An empirical value becomes a ceiling
// with one sample and no spread; a spec value the theoretical peak of the same ceiling,
// or, where nothing was measured, a ceiling with zero samples whose note says
// "theoretical, not measured". Machine fields come from the metadata where present.
// Throws rooftop::Error naming the key for missing keys, non-numeric or non-positive
// values, two entries for one ceiling, and machine values a ceilings file could not hold
// as they are (an integer field that is not a JSON integer in its range, text with a NUL
// or longer than validate.hpp's kMaxTextBytes); labels rooftop does not know go to
// `skipped`.
// The provenance is left for the caller to fill.
core::CeilingsFile from_ert_json(const nlohmann::json& ert,
                                 std::vector<std::string>* skipped = nullptr);

// from_ert_json on a file (at most 64 MiB); errors name the file.
core::CeilingsFile read_ert_file(const std::string& path,
                                 std::vector<std::string>* skipped = nullptr);

// read_ert_file on text already read: rejects invalid JSON, a key given twice in one object
// and anything validate_ceilings_file rejects, with one line starting with `name`.
core::CeilingsFile parse_ert_text(const std::string& text, const std::string& name,
                                  std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::ceilings
