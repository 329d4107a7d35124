#pragma once
// SVG charts of measured ceilings: the roofline (log-log, every ceiling drawn and
// labelled with its measured value, the FLOPs-per-element trace on top) and the
// bandwidth sweep (GB/s against working set, cache levels marked).

#include <string>

#include "rooftop/ceilings/model.hpp"

namespace rooftop::analyze {

std::string roofline_svg(const ceilings::CeilingsFile& file);

}  // namespace rooftop::analyze
