// The groups of figures of schema 1.7 (/costs, /matrix): the figures, laid out as
// /ceilings rows, and the samples of the one-parameter sweeps they were drawn from.
// A group is written only where it has something, so a file without figures is laid out
// as a 1.6 file was, and an older reader, which opens groups by name, never sees them.
#include <cmath>
#include <cstring>
#include <string>

#include "h5.hpp"
#include "io_internal.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings::detail {
namespace {

// On-disk rows. Field names are the schema: rename nothing, add freely.
struct SweepSampleRow {
  char sweep[32];
  double x;
  std::int32_t sample;
  double seconds;      // NaN where not recorded
  double value;        // in the units of the sweep's row of core::kSweeps
  double clock_ghz;    // device SM clock during the sample; 0 on a host
  double disturbance;  // share of the sample's time lost to others; NaN: unknown
};

h5::Handle sweep_sample_type() {
  using R = SweepSampleRow;
  return h5::compound_type(
      sizeof(R), {h5::string_field<R>("sweep", offsetof(R, sweep), &R::sweep),
                  h5::Field{"x", offsetof(R, x), H5T_NATIVE_DOUBLE, 0},
                  h5::Field{"sample", offsetof(R, sample), H5T_NATIVE_INT32, 0},
                  h5::Field{"seconds", offsetof(R, seconds), H5T_NATIVE_DOUBLE, 0},
                  h5::Field{"value", offsetof(R, value), H5T_NATIVE_DOUBLE, 0},
                  h5::Field{"clock_ghz", offsetof(R, clock_ghz), H5T_NATIVE_DOUBLE, 0},
                  h5::Field{"disturbance", offsetof(R, disturbance), H5T_NATIVE_DOUBLE, 0}});
}

void write_group(hid_t location, const char* name, const core::Figures& figures) {
  if (figures.empty()) return;
  h5::Handle g = h5::create_group(location, name);
  write_ceiling_rows(g.get(), "figures", figures.figures);
  std::vector<SweepSampleRow> rows;
  for (const core::SweepPoint& p : figures.sweeps) {
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      SweepSampleRow r{};
      h5::put(r.sweep, p.sweep, "sweep");
      r.x = p.x;
      r.sample = static_cast<std::int32_t>(i);
      r.seconds = i < p.seconds.size() ? p.seconds[i] : std::nan("");
      r.value = p.values[i];
      r.clock_ghz = i < p.clock_ghz.size() ? p.clock_ghz[i] : 0.0;
      r.disturbance = i < p.disturbance.size() ? p.disturbance[i] : std::nan("");
      rows.push_back(r);
    }
  }
  h5::write_table(g.get(), "sweeps", sweep_sample_type(), rows.data(), rows.size());
}

// Rows of one point are consecutive and numbered from sample 0, as in /sweeps.
core::Figures read_group(hid_t location, const char* name) {
  core::Figures out;
  h5::Handle g = h5::open_group(location, name);
  out.figures = read_ceiling_rows(g.get(), "figures");
  std::vector<unsigned char> buf;
  const std::size_t n =
      h5::read_table(g.get(), "sweeps", sweep_sample_type(), buf, sizeof(SweepSampleRow));
  for (std::size_t i = 0; i < n; ++i) {
    SweepSampleRow r;
    std::memcpy(&r, buf.data() + i * sizeof r, sizeof r);
    if (r.sample == 0 || out.sweeps.empty()) {
      core::SweepPoint p;
      p.sweep = h5::get(r.sweep);
      p.x = r.x;
      out.sweeps.push_back(p);
    }
    core::SweepPoint& p = out.sweeps.back();
    p.seconds.push_back(r.seconds);
    p.values.push_back(r.value);
    if (r.clock_ghz > 0.0) p.clock_ghz.push_back(r.clock_ghz);
    if (!std::isnan(r.disturbance)) p.disturbance.push_back(r.disturbance);
  }
  return out;
}

}  // namespace

void write_figures(hid_t location, const core::CeilingsFile& file) {
  for (const core::FigureGroup& g : core::kFigureGroups)
    write_group(location, std::string(g.name).c_str(), file.*g.figures);
}

void read_figures(hid_t location, core::CeilingsFile& file) {
  for (const core::FigureGroup& g : core::kFigureGroups) {
    const std::string name(g.name);
    if (h5::exists(location, name.c_str())) file.*g.figures = read_group(location, name.c_str());
  }
}

}  // namespace rooftop::ceilings::detail
