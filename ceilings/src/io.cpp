#include "rooftop/ceilings/io.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "contained_read.hpp"
#include "h5.hpp"
#include "io_internal.hpp"
#include "sample_table.hpp"
#include "rooftop/ceilings/validate.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

// On-disk rows. Field names are the schema: rename nothing, add freely.
struct CeilingRow {
  char name[32];
  char kind[16];
  double value;
  char units[16];
  double median, min, max;
  std::int32_t samples;
  char pattern[32];
  std::uint64_t working_set_bytes;
  std::int32_t flops_per_element;
  double theoretical;  // NaN where unknown
  double fraction_of_theoretical;
  std::int32_t above_theoretical;
  char theoretical_basis[256];
  char note[256];
  double disturbance;  // since 1.6: share of the samples' time lost to others; NaN: unknown
};

struct CacheRow {
  char level[16];
  std::uint64_t bytes;
  std::int32_t shared_by;
};

// The samples of /sweeps (sample_table.hpp): the value is `gflop_per_s`.
struct ComputeSampleRow {
  char precision[16];
  char mode[16];
  std::int32_t flops_per_element;
  double mul_add_ratio;
  std::int32_t ilp;  // since 1.3; 0 when read from an older file
  std::uint64_t working_set_bytes;
  detail::SampleColumns samples;
};

// The value is `gbyte_per_s`.
struct BandwidthSampleRow {
  char pattern[16];
  std::uint64_t working_set_bytes;
  detail::SampleColumns samples;
};

h5::Handle ceiling_type() {
  using R = CeilingRow;
  return h5::compound_type(
      sizeof(R),
      {ROOFTOP_H5_FIELD(R, name), ROOFTOP_H5_FIELD(R, kind), ROOFTOP_H5_FIELD(R, value),
       ROOFTOP_H5_FIELD(R, units), ROOFTOP_H5_FIELD(R, median),
       ROOFTOP_H5_FIELD(R, min), ROOFTOP_H5_FIELD(R, max),
       ROOFTOP_H5_FIELD(R, samples), ROOFTOP_H5_FIELD(R, pattern),
       ROOFTOP_H5_FIELD(R, working_set_bytes),
       ROOFTOP_H5_FIELD(R, flops_per_element),
       ROOFTOP_H5_FIELD(R, theoretical),
       ROOFTOP_H5_FIELD(R, fraction_of_theoretical),
       ROOFTOP_H5_FIELD(R, above_theoretical), ROOFTOP_H5_FIELD(R, theoretical_basis),
       ROOFTOP_H5_FIELD(R, note), ROOFTOP_H5_FIELD(R, disturbance)});
}

h5::Handle cache_type() {
  using R = CacheRow;
  return h5::compound_type(sizeof(R),
                           {ROOFTOP_H5_FIELD(R, level), ROOFTOP_H5_FIELD(R, bytes),
                            ROOFTOP_H5_FIELD(R, shared_by)});
}

h5::Handle compute_sample_type() {
  using R = ComputeSampleRow;
  return detail::sample_row_type<R>(
      {ROOFTOP_H5_FIELD(R, precision), ROOFTOP_H5_FIELD(R, mode),
       ROOFTOP_H5_FIELD(R, flops_per_element), ROOFTOP_H5_FIELD(R, mul_add_ratio),
       ROOFTOP_H5_FIELD(R, ilp), ROOFTOP_H5_FIELD(R, working_set_bytes)},
      "gflop_per_s");
}

h5::Handle bandwidth_sample_type() {
  using R = BandwidthSampleRow;
  return detail::sample_row_type<R>(
      {ROOFTOP_H5_FIELD(R, pattern), ROOFTOP_H5_FIELD(R, working_set_bytes)}, "gbyte_per_s");
}

double nan_if_empty(const std::optional<double>& v) {
  return v ? *v : std::numeric_limits<double>::quiet_NaN();
}

// Machine: one attribute per field (core::kMachineFields), so h5dump shows it plainly.
// Integers are stored as 64-bit integers.
void write_machine(hid_t file, const core::Machine& m) {
  h5::Handle g = h5::create_group(file, "machine");
  const hid_t id = g.get();
  for (const core::MachineField& f : core::kMachineFields) {
    const std::string name(f.name);
    std::visit(
        [&](auto member) {
          const auto& value = m.*member;
          if constexpr (std::is_integral_v<std::remove_cvref_t<decltype(value)>>)
            h5::write_attr(id, name.c_str(), static_cast<std::int64_t>(value));
          else
            h5::write_attr(id, name.c_str(), value);
        },
        f.member);
  }
  std::vector<CacheRow> rows(m.caches.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    h5::put(rows[i].level, m.caches[i].name, "level");
    rows[i].bytes = m.caches[i].bytes;
    rows[i].shared_by = m.caches[i].shared_by;
  }
  h5::write_table(id, "caches", cache_type(), rows.data(), rows.size());
}

// The machine fields later schemas added, each with the attribute that says a file has
// it: a file without that attribute (an older one) reads the field as unknown.
constexpr std::pair<std::string_view, const char*> kLaterMachineFields[] = {
    {"store_bytes_per_cycle", "store_bytes_per_cycle"},  // after the first 1.0 files
    {"hardware_model", "hardware_model"},                  // after the first 1.0 files
    {"device_arch", "device_arch"},  // 1.4; older files read as a host build
    {"memory_bytes", "launch_geometry"},  // 1.5: these five together
    {"memory_clock_ghz", "launch_geometry"},
    {"memory_bus_bits", "launch_geometry"},
    {"nominal_clock_ghz", "launch_geometry"},
    {"launch_geometry", "launch_geometry"},
};

bool has_machine_field(hid_t machine, std::string_view field) {
  for (const auto& [later, marker] : kLaterMachineFields)
    if (later == field) return h5::has_attr(machine, marker);
  return true;
}

core::Machine read_machine(hid_t file) {
  h5::Handle g = h5::open_group(file, "machine");
  const hid_t id = g.get();
  core::Machine m;
  try {  // an attribute's error names the group it is in
    for (const core::MachineField& f : core::kMachineFields) {
      if (!has_machine_field(id, f.name)) continue;
      const std::string name(f.name);
      std::visit(
          [&](auto member) {
            auto& value = m.*member;
            using T = std::remove_cvref_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::string>)
              value = h5::read_string_attr(id, name.c_str());
            else if constexpr (std::is_same_v<T, double>)
              value = h5::read_double_attr(id, name.c_str());
            else
              value = h5::read_int_attr<T>(id, name.c_str());
          },
          f.member);
    }
  } catch (const Error& e) {
    throw Error(std::string("/machine: ") + e.what());
  }
  for (const CacheRow& r : h5::read_rows<CacheRow>(id, "caches", cache_type()))
    m.caches.push_back({h5::get(r.level), r.bytes, r.shared_by});
  return m;
}

}  // namespace

namespace detail {

void write_ceiling_rows(hid_t parent, const char* name,
                        const std::vector<core::Ceiling>& ceilings) {
  std::vector<CeilingRow> rows(ceilings.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const core::Ceiling& c = ceilings[i];
    CeilingRow& r = rows[i];
    h5::put(r.name, c.name, "name");
    h5::put(r.kind, c.kind, "kind");
    h5::put(r.units, c.units, "units");
    h5::put(r.pattern, c.pattern, "pattern");
    h5::put(r.theoretical_basis, c.theoretical_basis.substr(0, 255), "theoretical_basis");
    h5::put(r.note, c.note.substr(0, 255), "note");
    r.value = c.value;
    r.median = c.median;
    r.min = c.min;
    r.max = c.max;
    r.samples = c.samples;
    r.working_set_bytes = c.working_set_bytes;
    r.flops_per_element = c.flops_per_element;
    r.theoretical = nan_if_empty(c.theoretical);
    r.fraction_of_theoretical = nan_if_empty(c.fraction_of_theoretical());
    r.above_theoretical = c.above_theoretical() ? 1 : 0;
    r.disturbance = nan_if_empty(c.disturbance);
  }
  h5::write_table(parent, name, ceiling_type(), rows.data(), rows.size());
}

std::vector<core::Ceiling> read_ceiling_rows(hid_t parent, const char* name) {
  std::vector<core::Ceiling> out;
  const bool disturbance = h5::has_column(parent, name, "disturbance");
  for (const CeilingRow& r : h5::read_rows<CeilingRow>(parent, name, ceiling_type())) {
    core::Ceiling c;
    c.name = h5::get(r.name);
    c.kind = h5::get(r.kind);
    c.units = h5::get(r.units);
    c.pattern = h5::get(r.pattern);
    c.theoretical_basis = h5::get(r.theoretical_basis);
    c.note = h5::get(r.note);
    c.value = r.value;
    c.median = r.median;
    c.min = r.min;
    c.max = r.max;
    c.samples = r.samples;
    c.working_set_bytes = r.working_set_bytes;
    c.flops_per_element = r.flops_per_element;
    // NaN is "unknown"; any other value, infinities included, is validated as a rate.
    if (!std::isnan(r.theoretical)) c.theoretical = r.theoretical;
    if (disturbance && !std::isnan(r.disturbance)) c.disturbance = r.disturbance;
    out.push_back(c);
  }
  return out;
}

}  // namespace detail

namespace {

void write_sweeps(hid_t file, const core::Sweeps& s) {
  h5::Handle g = h5::create_group(file, "sweeps");
  detail::write_sample_table<ComputeSampleRow>(
      g.get(), "compute", compute_sample_type(), s.compute,
      [](ComputeSampleRow& r, const core::ComputePoint& p) {
        h5::put(r.precision, p.precision, "precision");
        h5::put(r.mode, p.mode, "mode");
        r.flops_per_element = p.flops_per_element;
        r.mul_add_ratio = p.mul_add_ratio;
        r.ilp = p.ilp;
        r.working_set_bytes = p.working_set_bytes;
      });
  detail::write_sample_table<BandwidthSampleRow>(
      g.get(), "bandwidth", bandwidth_sample_type(), s.bandwidth,
      [](BandwidthSampleRow& r, const core::BandwidthPoint& p) {
        h5::put(r.pattern, p.pattern, "pattern");
        r.working_set_bytes = p.working_set_bytes;
      });
}

core::Sweeps read_sweeps(hid_t file) {
  core::Sweeps s;
  h5::Handle g = h5::open_group(file, "sweeps");
  s.compute = detail::read_sample_table<ComputeSampleRow, core::ComputePoint>(
      g.get(), "compute", compute_sample_type(),
      [](const ComputeSampleRow& r, core::ComputePoint& p) {
        p.precision = h5::get(r.precision);
        p.mode = h5::get(r.mode);
        p.flops_per_element = r.flops_per_element;
        p.mul_add_ratio = r.mul_add_ratio;
        p.ilp = r.ilp;
        p.working_set_bytes = r.working_set_bytes;
      });
  s.bandwidth = detail::read_sample_table<BandwidthSampleRow, core::BandwidthPoint>(
      g.get(), "bandwidth", bandwidth_sample_type(),
      [](const BandwidthSampleRow& r, core::BandwidthPoint& p) {
        p.pattern = h5::get(r.pattern);
        p.working_set_bytes = r.working_set_bytes;
      });
  return s;
}

}  // namespace

namespace detail {

void write_ceilings_at(hid_t id, const core::CeilingsFile& data) {
  validate(data);
  const core::Provenance& p = data.provenance;
  h5::write_attr(id, "schema", std::string(kSchemaName));
  h5::write_attr(id, "schema_version",
                 std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
  h5::write_attr(id, "tool_version", p.tool_version);
  h5::write_attr(id, "git_revision", p.git_revision);
  h5::write_attr(id, "created_utc", p.created_utc);
  h5::write_attr(id, "command_line", p.command_line);
  write_machine(id, data.machine);
  write_ceiling_rows(id, "ceilings", data.ceilings);
  write_sweeps(id, data.sweeps);
  if (!data.kernels.empty()) write_kernels(id, data.kernels);
  write_figures(id, data);
}

void write_hdf5_atomically(const std::string& path, const std::function<void(hid_t)>& fill) {
  core::check_writable(path);
  core::TempFile tmp(path);
  tmp.close_fd();  // HDF5 opens the (empty, exclusively created) file by name
  try {
    h5::Handle file = h5::create_file(tmp.path());
    fill(file.get());
    h5::check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "H5Fflush");
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  tmp.commit();
}

core::CeilingsFile read_ceilings_at(hid_t id) {
  if (!h5::has_attr(id, "schema") || h5::read_string_attr(id, "schema") != kSchemaName)
    throw Error("not a rooftop ceilings file (no '" + std::string(kSchemaName) +
                "' schema attribute)");
  core::CeilingsFile out;
  out.provenance.schema_version = h5::read_string_attr(id, "schema_version");
  int major = -1, minor = -1;
  if (!parse_schema_version(out.provenance.schema_version, major, minor))
    throw Error("unreadable schema version '" + out.provenance.schema_version +
                "' (expected MAJOR.MINOR)");
  if (major != kSchemaMajor)
    throw Error("schema version " + out.provenance.schema_version +
                " is not supported (this rooftop reads " + std::to_string(kSchemaMajor) + ".x)");
  out.provenance.tool_version = h5::read_string_attr(id, "tool_version");
  out.provenance.git_revision = h5::read_string_attr(id, "git_revision");
  out.provenance.created_utc = h5::read_string_attr(id, "created_utc");
  if (h5::has_attr(id, "command_line"))
    out.provenance.command_line = h5::read_string_attr(id, "command_line");
  out.machine = read_machine(id);
  out.ceilings = read_ceiling_rows(id, "ceilings");
  out.sweeps = read_sweeps(id);
  out.kernels = read_kernels(id);
  read_figures(id, out);
  validate(out);
  return out;
}

core::CeilingsFile read_ceilings_file(hid_t file, const std::string& name) {
  try {
    core::CeilingsFile out = read_ceilings_at(file);
    // A fleet's summary is empty when every rank failed, and still a record of why.
    if (!h5::exists(file, "fleet")) validate_ceilings_file(out);
    return out;
  } catch (const Error& e) {
    throw Error(name + ": " + e.what());
  }
}

core::CeilingsFile read_ceilings_image(const std::string& bytes, const std::string& name) {
  h5::Handle file;
  try {
    file = h5::open_image_readonly(bytes);
  } catch (const Error& e) {
    throw Error(name + ": " + e.what());
  }
  return read_ceilings_file(file.get(), name);
}

}  // namespace detail

void write_file(const std::string& path, const core::CeilingsFile& data) {
  try {
    validate_ceilings_file(data);
  } catch (const Error& e) {
    throw Error(path + ": not written: " + e.what());
  }
  detail::write_hdf5_atomically(path, [&](hid_t id) { detail::write_ceilings_at(id, data); });
}

core::CeilingsFile read_file(const std::string& path) {
  return detail::read_contained(path, [&] {
    h5::Handle file = h5::open_file_readonly(path);
    return detail::read_ceilings_file(file.get(), path);
  });
}

core::Provenance current_provenance(const std::string& command_line) {
  core::Provenance p;
  p.schema_version = std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor);
  p.tool_version = ROOFTOP_VERSION;
  p.git_revision = ROOFTOP_GIT_REVISION;
  p.command_line = command_line;
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  p.created_utc = buf;
  return p;
}

}  // namespace rooftop::ceilings
