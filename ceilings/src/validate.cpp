#include "rooftop/ceilings/validate.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>
#include <type_traits>
#include <variant>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw Error(where + ": " + why);
}

// A raw statistic or sample: on a busy machine one sample can be a thousand times slower
// than the others, so only a positive finite number (at most kMaxRate) is required.
void positive_rate(double v, const std::string& what) {
  if (!std::isfinite(v) || v <= 0.0 || v > kMaxRate)
    throw Error(what + " " + number(v) + " is not a positive rate (up to " + number(kMaxRate) +
                ")");
}

void non_negative(double v, const std::string& where, const char* field) {
  if (!std::isfinite(v) || v < 0.0)
    fail(where, std::string(field) + " " + number(v) + " is not a finite number >= 0");
}

// A share of time lost to others: a fraction.
void fraction(double v, const std::string& where, const char* field) {
  if (!(v >= 0.0 && v <= 1.0))
    fail(where, std::string(field) + " " + number(v) + " is not a fraction between 0 and 1");
}

void check_machine(const core::Machine& m) {
  for (const core::MachineField& f : core::kMachineFields)
    std::visit(
        [&](auto member) {
          const auto& v = m.*member;
          using T = std::remove_cvref_t<decltype(v)>;
          const std::string field(f.name);
          if constexpr (std::is_same_v<T, std::string>) {
            check_text(v, "/machine: " + field);
          } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
            // A signed field always fits the stored int64; an unsigned one may not.
            const std::int64_t hi = stored_range<T>().second;
            if (v > static_cast<std::uint64_t>(hi))
              fail("/machine", field + " " + std::to_string(v) + " is out of range (at most " +
                                   std::to_string(hi) + ")");
          }
        },
        f.member);
  const std::pair<const char*, int> counts[] = {{"cores", m.cores},
                                                {"threads", m.threads},
                                                {"hardware_threads", m.hardware_threads},
                                                {"simd_bits", m.simd_bits},
                                                {"fma_pipes", m.fma_pipes},
                                                {"add_pipes", m.add_pipes},
                                                {"load_ports", m.load_ports}};
  for (const auto& [field, v] : counts)
    if (v < 0) fail("/machine", std::string(field) + " " + std::to_string(v) + " is negative");
  non_negative(m.clock_ghz, "/machine", "clock_ghz");
  non_negative(m.store_bytes_per_cycle, "/machine", "store_bytes_per_cycle");
  for (std::size_t i = 0; i < m.caches.size(); ++i) {
    const core::CacheLevel& c = m.caches[i];
    const std::string where = "/machine/caches row " + std::to_string(i);
    if (c.name.empty()) fail(where, "empty level name");
    check_text(c.name, where + ": level");
    if (c.shared_by < 0) fail(where, "shared_by " + std::to_string(c.shared_by) + " is negative");
  }
}

void check_ceiling(const core::Ceiling& c, std::size_t row) {
  const std::string where =
      "/ceilings row " + std::to_string(row) + " (" + core::quoted(c.name) + ")";
  // The ceilings a file may hold are the vocabulary's (data/SCHEMA.md, /ceilings).
  const std::string kind(core::ceiling_kind(c.name));
  if (kind.empty()) fail(where, "unknown ceiling name");
  const std::string units = kind == "compute" ? "GFLOP/s" : "GB/s";
  if (c.kind != kind)
    fail(where, "kind " + core::quoted(c.kind) + " where " + kind + " is expected");
  if (c.units != units)
    fail(where, "units " + core::quoted(c.units) + " where " + units + " is expected");
  if (!c.pattern.empty() && !core::known_ceiling_pattern(c.pattern))
    fail(where, "unknown pattern " + core::quoted(c.pattern));
  check_rate(c.value, where + ": value");
  if (c.samples < 0) fail(where, "samples " + std::to_string(c.samples) + " is negative");
  if (c.samples > 0) {
    positive_rate(c.median, where + ": median");
    positive_rate(c.min, where + ": min");
    positive_rate(c.max, where + ": max");
    if (!(c.min <= c.median && c.median <= c.max))
      fail(where, "min " + number(c.min) + ", median " + number(c.median) + ", max " +
                      number(c.max) + " are not in order");
  } else {
    // Never measured (a theoretical value from another tool): statistics are 0 or a rate.
    for (const auto& [field, v] : {std::pair{"median", c.median}, {"min", c.min}, {"max", c.max}})
      if (v != 0.0) positive_rate(v, where + ": " + field);
  }
  if (c.flops_per_element < 0)
    fail(where, "flops_per_element " + std::to_string(c.flops_per_element) + " is negative");
  if (c.theoretical) check_rate(*c.theoretical, where + ": theoretical");
  if (c.disturbance) fraction(*c.disturbance, where, "disturbance");
}

template <class Point>
void check_samples(const Point& p, const std::string& where) {
  const std::vector<double>& seconds = p.seconds;
  for (double s : seconds)  // NaN: a sample whose time was not recorded
    if (!std::isnan(s) && !(std::isfinite(s) && s > 0.0))
      fail(where, "sample time " + number(s) + " is not a positive number");
  for (double r : p.values) positive_rate(r, where + ": sample rate");
  for (double d : p.disturbance) fraction(d, where, "sample disturbance");
}

void check_sweeps(const core::Sweeps& s) {
  for (std::size_t i = 0; i < s.compute.size(); ++i) {
    const core::ComputePoint& p = s.compute[i];
    const std::string where = "/sweeps/compute point " + std::to_string(i);
    if (p.working_set_bytes == 0) fail(where, "working_set_bytes is 0");
    if (p.flops_per_element < 0) fail(where, "flops_per_element is negative");
    if (p.ilp < 0) fail(where, "ilp is negative");
    non_negative(p.mul_add_ratio, where, "mul_add_ratio");
    check_samples(p, where);
  }
  for (std::size_t i = 0; i < s.bandwidth.size(); ++i) {
    const core::BandwidthPoint& p = s.bandwidth[i];
    const std::string where = "/sweeps/bandwidth point " + std::to_string(i);
    if (p.working_set_bytes == 0) fail(where, "working_set_bytes is 0");
    check_samples(p, where);
  }
}

// A figure's number or a sweep's value: a latency in microseconds, a ratio, a count or a
// rate, so only positive, finite and at most kMaxRate.
void positive_value(double v, const std::string& where, const char* field) {
  if (!std::isfinite(v) || v <= 0.0 || v > kMaxRate)
    fail(where, std::string(field) + " " + number(v) + " is not a positive number (up to " +
                    number(kMaxRate) + ")");
}

// A name a table row can carry: lower-case letters, digits and _ : . - only (these
// become keys of JSON, CSV columns and chart labels).
bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 31) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '.' ||
          c == '-'))
      return false;
  return true;
}

// A figure named in core::kFigures must have that row's group, kind and units; a name
// this rooftop does not know (a later minor version's) must still be plain, in a known
// unit, with plausible numbers.
void check_figure(const core::Ceiling& c, const std::string& where, std::string_view group) {
  if (!plain_name(c.name)) fail(where, "not a plain figure name");
  if (const core::Figure* f = core::find_figure(c.name)) {
    if (f->group != group) fail(where, "a figure of /" + std::string(f->group));
    if (c.kind != f->kind)
      fail(where,
           "kind " + core::quoted(c.kind) + " where " + std::string(f->kind) + " is expected");
    if (c.units != f->units)
      fail(where,
           "units " + core::quoted(c.units) + " where " + std::string(f->units) + " is expected");
  } else if (!core::find_unit(c.units)) {
    fail(where, "unknown units " + core::quoted(c.units));
  }
  positive_value(c.value, where, "value");
  if (c.samples < 0) fail(where, "samples " + std::to_string(c.samples) + " is negative");
  if (c.samples > 0) {
    positive_value(c.median, where, "median");
    positive_value(c.min, where, "min");
    positive_value(c.max, where, "max");
    if (!(c.min <= c.median && c.median <= c.max))
      fail(where, "min " + number(c.min) + ", median " + number(c.median) + ", max " +
                      number(c.max) + " are not in order");
  }
  if (c.flops_per_element < 0)
    fail(where, "flops_per_element " + std::to_string(c.flops_per_element) + " is negative");
  if (c.theoretical) positive_value(*c.theoretical, where, "theoretical");
  if (c.disturbance) fraction(*c.disturbance, where, "disturbance");
}

void check_figures(const core::Figures& figures, std::string_view group) {
  const std::string at = "/" + std::string(group);
  std::set<std::string> names;
  for (std::size_t i = 0; i < figures.figures.size(); ++i) {
    const core::Ceiling& c = figures.figures[i];
    const std::string where =
        at + "/figures row " + std::to_string(i) + " (" + core::quoted(c.name) + ")";
    check_figure(c, where, group);
    if (!names.insert(c.name).second) fail(where, "a second row for " + core::quoted(c.name));
  }
  for (std::size_t i = 0; i < figures.sweeps.size(); ++i) {
    const core::SweepPoint& p = figures.sweeps[i];
    const std::string where =
        at + "/sweeps point " + std::to_string(i) + " (" + core::quoted(p.sweep) + ")";
    if (!plain_name(p.sweep)) fail(where, "not a plain sweep name");
    const core::Sweep* known = core::find_sweep(p.sweep);
    if (known && known->group != group) fail(where, "a sweep of /" + std::string(known->group));
    if (!std::isfinite(p.x) || p.x < 0.0) fail(where, "x " + number(p.x) + " is not >= 0");
    for (double s : p.seconds)  // NaN: a sample whose time was not recorded
      if (!std::isnan(s) && !(std::isfinite(s) && s > 0.0))
        fail(where, "sample time " + number(s) + " is not a positive number");
    for (double v : p.values) positive_value(v, where, "sample value");
    for (double d : p.disturbance) fraction(d, where, "sample disturbance");
  }
}

void check_kernel(const core::KernelRecord& k, std::size_t row) {
  const std::string where =
      "/kernels row " + std::to_string(row) + " (" + core::quoted(k.name) + ")";
  const std::pair<const char*, double> values[] = {
      {"flops_fp64", k.flops_fp64}, {"flops_fp32", k.flops_fp32},
      {"flops_fp16", k.flops_fp16}, {"flops_bf16", k.flops_bf16},
      {"flops_fp8", k.flops_fp8},   {"tensor_instructions", k.tensor_instructions},
      {"time_s", k.time_s},         {"time_min", k.time_min},
      {"time_max", k.time_max}};
  for (const auto& [field, v] : values) non_negative(v, where, field);
  if (k.fma_fraction > 1.0 || std::isnan(k.fma_fraction) || std::isinf(k.fma_fraction))
    fail(where, "fma_fraction " + number(k.fma_fraction) + " is not a fraction");
  if (k.samples < 0) fail(where, "samples " + std::to_string(k.samples) + " is negative");
  if (k.invocations < 0)
    fail(where, "invocations " + std::to_string(k.invocations) + " is negative");
  for (const core::LevelBytes& b : k.bytes) {
    non_negative(b.bytes, where + " level " + core::quoted(b.level), "bytes");
    if (!b.counted.empty() && b.counted != "read" && b.counted != "write" &&
        b.counted != core::kCompulsory)
      fail(where + " level " + core::quoted(b.level),
           "bytes counted as " + core::quoted(b.counted) + ", not \"read\", \"write\" or \"" +
               core::kCompulsory + "\"");
  }
  std::set<std::string> units;
  for (const core::TensorOps& t : k.tensor_ops) {
    if (!core::tensor_figure(t.figure))
      fail(where, "tensor ops of " + core::quoted(t.figure) + ", not a matrix unit rooftop counts");
    if (!units.insert(t.figure).second)
      fail(where, "a second tensor ops row for " + core::quoted(t.figure));
    non_negative(t.ops, where + " unit " + core::quoted(t.figure), "tensor ops");
  }
}

}  // namespace

void check_text(const std::string& text, const std::string& what) {
  if (text.size() > kMaxTextBytes)
    throw Error(what + " is " + std::to_string(text.size()) + " bytes of text, more than the " +
                std::to_string(kMaxTextBytes) + " a file holds");
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw Error(what + " holds a NUL (byte " + std::to_string(nul) + ")");
}

bool parse_schema_version(const std::string& version, int& major, int& minor) {
  const std::size_t dot = version.find('.');
  const auto digits = [](std::string_view s, int& out) {
    if (s.empty() || s.size() > 4) return false;
    out = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    return true;
  };
  if (dot == std::string::npos) return false;
  const std::string_view v(version);
  return digits(v.substr(0, dot), major) && digits(v.substr(dot + 1), minor);
}

void check_rate(double value, const std::string& what) {
  if (!std::isfinite(value) || value < kMinRate || value > kMaxRate)
    throw Error(what + " " + number(value) + " is not a plausible rate (" + number(kMinRate) +
                " to " + number(kMaxRate) + ")");
}

void validate(const core::CeilingsFile& file) {
  const core::Provenance& p = file.provenance;
  for (const auto& [field, text] : {std::pair{"schema_version", &p.schema_version},
                                    {"tool_version", &p.tool_version},
                                    {"git_revision", &p.git_revision},
                                    {"created_utc", &p.created_utc},
                                    {"command_line", &p.command_line}})
    check_text(*text, field);
  check_machine(file.machine);
  std::set<std::string> names;
  for (std::size_t i = 0; i < file.ceilings.size(); ++i) {
    check_ceiling(file.ceilings[i], i);
    if (!names.insert(file.ceilings[i].name).second)
      fail("/ceilings row " + std::to_string(i),
           "a second row for " + core::quoted(file.ceilings[i].name));
  }
  check_sweeps(file.sweeps);
  for (std::size_t i = 0; i < file.kernels.size(); ++i) check_kernel(file.kernels[i], i);
  for (const core::FigureGroup& g : core::kFigureGroups) check_figures(file.*g.figures, g.name);
}

void validate_ceilings_file(const core::CeilingsFile& file) {
  if (file.ceilings.empty()) throw Error("/ceilings: no ceilings");
  validate(file);
}

}  // namespace rooftop::ceilings
