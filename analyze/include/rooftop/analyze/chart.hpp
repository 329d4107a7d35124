#pragma once
// SVG charts of measured ceilings: the roofline (log-log, every ceiling drawn and
// labelled with its measured value, the FLOPs-per-element trace on top) and the
// bandwidth sweep (GB/s against working set, cache levels marked); and several
// machines' rooflines overlaid, one colour per machine.

#include <string>
#include <vector>

#include "rooftop/ceilings/model.hpp"

namespace rooftop::analyze {

std::string roofline_svg(const ceilings::CeilingsFile& file);

// The rooflines of `files` on one chart with a legend naming each file by its label
// and machine; theoretical ceilings that were never measured are dotted.
std::string comparison_svg(const std::vector<ceilings::CeilingsFile>& files,
                           const std::vector<std::string>& labels);

}  // namespace rooftop::analyze
