// The groups of figures of schema 1.7 (/costs, /matrix): the figures, laid out as
// /ceilings rows, and the samples of the one-parameter sweeps they were drawn from.
// A group is written only where it has something, so a file without figures is laid out
// as a 1.6 file was, and an older reader, which opens groups by name, never sees them.
#include <string>

#include "h5.hpp"
#include "io_internal.hpp"
#include "sample_table.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings::detail {
namespace {

// On-disk rows. Field names are the schema: rename nothing, add freely. The samples'
// value is `value`, in the units of the sweep's row of core::kSweeps.
struct SweepSampleRow {
  char sweep[32];
  double x;
  SampleColumns samples;
};

h5::Handle sweep_sample_type() {
  using R = SweepSampleRow;
  return sample_row_type<R>({ROOFTOP_H5_FIELD(R, sweep), ROOFTOP_H5_FIELD(R, x)}, "value");
}

void write_group(hid_t location, const char* name, const core::Figures& figures) {
  if (figures.empty()) return;
  h5::Handle g = h5::create_group(location, name);
  write_ceiling_rows(g.get(), "figures", figures.figures);
  write_sample_table<SweepSampleRow>(g.get(), "sweeps", sweep_sample_type(), figures.sweeps,
                                     [](SweepSampleRow& r, const core::SweepPoint& p) {
                                       h5::put(r.sweep, p.sweep, "sweep");
                                       r.x = p.x;
                                     });
}

core::Figures read_group(hid_t location, const char* name) {
  core::Figures out;
  h5::Handle g = h5::open_group(location, name);
  out.figures = read_ceiling_rows(g.get(), "figures");
  out.sweeps = read_sample_table<SweepSampleRow, core::SweepPoint>(
      g.get(), "sweeps", sweep_sample_type(), [](const SweepSampleRow& r, core::SweepPoint& p) {
        p.sweep = h5::get(r.sweep);
        p.x = r.x;
      });
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
