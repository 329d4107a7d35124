#pragma once
// The tables of samples (/sweeps/compute, /sweeps/bandwidth, and the sweeps of /costs and
// /matrix): one row per sample of a point, the point's own columns first, then the
// sample's. One writer and one reader for all of them; each table gives its row type and
// how its own columns map to its point. Private to this library.

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "h5.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::ceilings::detail {

// A sample's columns, the last of every sample row (member names are the schema's but for
// `value`, which each table names by its units).
struct SampleColumns {
  std::int32_t sample;  // 0 for the first sample of a point
  double seconds;       // NaN where not recorded
  double value;         // in the point's units
  double clock_ghz;     // since 1.5: device SM clock during the sample; 0: not measured
  double disturbance;   // since 1.6: share of the sample's time lost to others; NaN: unknown
};

// The sample columns of a row type whose member `samples` is at `offset`.
inline std::vector<h5::Field> sample_fields(std::size_t offset, const char* value_name) {
  using S = SampleColumns;
  return {h5::Field{"sample", offset + offsetof(S, sample), H5T_NATIVE_INT32, 0},
          h5::Field{"seconds", offset + offsetof(S, seconds), H5T_NATIVE_DOUBLE, 0},
          h5::Field{value_name, offset + offsetof(S, value), H5T_NATIVE_DOUBLE, 0},
          h5::Field{"clock_ghz", offset + offsetof(S, clock_ghz), H5T_NATIVE_DOUBLE, 0},
          h5::Field{"disturbance", offset + offsetof(S, disturbance), H5T_NATIVE_DOUBLE, 0}};
}

// A row type's compound type: its own columns, then the samples' (`Row::samples`).
template <class Row>
h5::Handle sample_row_type(std::vector<h5::Field> own, const char* value_name) {
  for (const h5::Field& f : sample_fields(offsetof(Row, samples), value_name)) own.push_back(f);
  return h5::compound_type(sizeof(Row), own);
}

// Writes one row per sample of `points`; `put_own(row, point)` fills the point's columns.
template <class Row, class Point, class PutOwn>
void write_sample_table(hid_t parent, const char* name, const h5::Handle& type,
                        const std::vector<Point>& points, PutOwn put_own) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Row> rows;
  for (const Point& p : points) {
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      Row r{};
      put_own(r, p);
      r.samples = {static_cast<std::int32_t>(i), i < p.seconds.size() ? p.seconds[i] : nan,
                   p.values[i], i < p.clock_ghz.size() ? p.clock_ghz[i] : 0.0,
                   i < p.disturbance.size() ? p.disturbance[i] : nan};
      rows.push_back(r);
    }
  }
  h5::write_table(parent, name, type, rows.data(), rows.size());
}

// Reads what write_sample_table wrote: the rows of one point are consecutive and numbered
// from sample 0. `get_own(row, point)` fills the point's own members from its first row.
template <class Row, class Point, class GetOwn>
std::vector<Point> read_sample_table(hid_t parent, const char* name, const h5::Handle& type,
                                     GetOwn get_own) {
  // A column a later minor version added reads as 0 from an older file.
  const bool has_disturbance = h5::has_column(parent, name, "disturbance");
  std::vector<Point> points;
  for (const Row& r : h5::read_rows<Row>(parent, name, type)) {
    if (r.samples.sample == 0 || points.empty()) {
      Point p;
      get_own(r, p);
      points.push_back(p);
    }
    Point& p = points.back();
    p.seconds.push_back(r.samples.seconds);
    p.values.push_back(r.samples.value);
    if (r.samples.clock_ghz > 0.0) p.clock_ghz.push_back(r.samples.clock_ghz);
    if (has_disturbance && !std::isnan(r.samples.disturbance))
      p.disturbance.push_back(r.samples.disturbance);
  }
  return points;
}

}  // namespace rooftop::ceilings::detail
