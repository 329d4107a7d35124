#include "rooftop/core/statistics.hpp"

#include <algorithm>
#include <cmath>

#include "rooftop/core/error.hpp"

namespace rooftop::core {

Summary summarize(std::vector<double> samples) {
  ROOFTOP_REQUIRE(!samples.empty(), "no samples to summarize");
  for (double s : samples) ROOFTOP_REQUIRE(std::isfinite(s), "non-finite sample");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  Summary s;
  s.count = static_cast<int>(n);
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.spread = s.median > 0.0 ? (s.max - s.min) / s.median : 0.0;
  return s;
}

}  // namespace rooftop::core
