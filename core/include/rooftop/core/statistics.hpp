#pragma once
// Summary statistics of repeated samples.

#include <vector>

namespace rooftop::core {

struct Summary {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double spread = 0.0;  // (max - min) / median; 0 for a single sample
  int count = 0;
};

// Throws rooftop::Error on an empty input or a non-finite sample.
Summary summarize(std::vector<double> samples);

}  // namespace rooftop::core
