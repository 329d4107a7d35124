#include "rooftop/ceilings/ert.hpp"

#include <strings.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/ceilings/validate.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

using nlohmann::json;

struct ErtName {
  std::string label;    // as in roofline.json
  std::string ceiling;  // rooftop's name
  bool compute;         // gflops (true) or gbytes
};

// Written by to_ert_json, in this order, from the vocabulary: "FP64 GFLOPs" and "FP64
// no-FMA GFLOPs" for every precision with compute ceilings, then every level by its
// label ("L1", ..., "DRAM") but a GPU's shared memory, which ERT does not measure and
// its readers do not know. The aliases after them are only read.
const std::vector<ErtName>& written_names() {
  static const std::vector<ErtName> names = [] {
    std::vector<ErtName> out;
    for (const core::Precision& p : core::kPrecisions)
      if (p.ceilings)
        for (const core::ComputeMode& mode : core::kComputeModes)
          out.push_back({std::string(p.label) + (mode.name == "fma" ? "" : " no-FMA") + " GFLOPs",
                         core::compute_ceiling_name(p.name, mode.name), true});
    for (const core::Level& l : core::kLevels)
      if (l.name != "shared") out.push_back({std::string(l.label), std::string(l.name), false});
    return out;
  }();
  return names;
}
const ErtName kAliases[] = {
    {"GFLOPs", "fp64_fma", true},  // ERT before per-precision labels measured FP64 only
    {"HBM", "dram", false}};

const ErtName* by_label(const std::string& label) {
  for (const ErtName& n : written_names())
    if (strcasecmp(n.label.c_str(), label.c_str()) == 0) return &n;
  for (const ErtName& n : kAliases)
    if (strcasecmp(n.label.c_str(), label.c_str()) == 0) return &n;
  return nullptr;
}

const ErtName* by_ceiling(const std::string& name) {
  for (const ErtName& n : written_names())
    if (name == n.ceiling) return &n;
  return nullptr;
}

// One [label, value] pair of a data list, checked.
struct Entry {
  std::string where;  // e.g. empirical.gbytes.data[2]
  std::string label;
  double value = 0.0;
  const ErtName* name = nullptr;
};

// parent[key], where `where` names parent for the messages ("" for the top level).
const json& child(const json& parent, const std::string& where, const char* key) {
  if (!parent.is_object()) throw Error("'" + where + "' is not an object");
  const auto it = parent.find(key);
  if (it == parent.end())
    throw Error("missing key '" + (where.empty() ? "" : where + ".") + key + "'");
  return *it;
}

// Adds the entries of root.section.group.data to `entries` (one per rooftop ceiling).
void read_group(const json& root, const char* section, const char* group,
                std::map<std::string, Entry>& entries, std::vector<std::string>* skipped) {
  const std::string where = std::string(section) + "." + group;
  const json& data = child(child(child(root, "", section), section, group), where, "data");
  if (!data.is_array()) throw Error("'" + where + ".data' is not a list");
  const bool compute = std::string(group) == "gflops";
  for (std::size_t i = 0; i < data.size(); ++i) {
    Entry e;
    e.where = where + ".data[" + std::to_string(i) + "]";
    const json& pair = data[i];
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string())
      throw Error(e.where + ": expected [\"name\", value], found " + pair.dump().substr(0, 120));
    e.label = pair[0].get<std::string>();
    if (!pair[1].is_number())
      throw Error(e.where + " " + core::quoted(e.label) + ": value " + pair[1].dump() +
                  " is not a number");
    e.value = pair[1].get<double>();
    check_rate(e.value, e.where + " " + core::quoted(e.label) + ": value");
    e.name = by_label(e.label);
    if (!e.name) {
      if (skipped)
        skipped->push_back(e.where + " " + core::quoted(e.label) +
                           ": no rooftop ceiling for it; left out");
      continue;
    }
    if (e.name->compute != compute)
      throw Error(
          e.where + " " + core::quoted(e.label) + ": a " +
          (compute ? "memory level in the gflops list" : "compute ceiling in the gbytes list"));
    const auto [it, fresh] = entries.emplace(e.name->ceiling, e);
    if (!fresh)
      throw Error(e.where + " " + core::quoted(e.label) + ": a second value for " +
                  e.name->ceiling + " (first: " + it->second.where + " " +
                  core::quoted(it->second.label) + ")");
  }
}

// A JSON value as a message shows it: text quoted and cut, anything else cut.
std::string shown(const json& v) {
  if (v.is_string()) return core::quoted(v.get<std::string>());
  const std::string text = v.dump();
  return text.size() > 64 ? text.substr(0, 64) + "..." : text;
}

// Text that goes into the file, refused where the file could not hold it as it is.
std::string text_at(const json& v, const std::string& where) {
  std::string text = v.get<std::string>();
  check_text(text, where);
  return text;
}

// An integer field: a JSON integer in [lo, hi] (lo <= 0), never a fraction, an exponent
// or text, which a cast would cut or a type check would drop unseen.
template <class T>
T integer_at(const json& v, const std::string& where, std::int64_t lo, std::uint64_t hi) {
  bool fits = false;
  if (v.is_number_unsigned()) {
    fits = v.get<std::uint64_t>() <= hi;
  } else if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    fits = i >= lo && (i < 0 || static_cast<std::uint64_t>(i) <= hi);
  } else {
    throw Error(where + ": " + shown(v) + " is not an integer");
  }
  if (!fits)
    throw Error(where + ": " + shown(v) + " is out of range (" + std::to_string(lo) + " to " +
                std::to_string(hi) + ")");
  return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                : static_cast<T>(v.get<std::int64_t>());
}

// Free-form metadata: a value is taken where it has the expected type, ignored otherwise.
std::string joined_strings(const json& list, const std::string& where) {
  std::string out;
  if (!list.is_array()) return out;
  for (const json& s : list)
    if (s.is_string()) out += (out.empty() ? "" : " ") + s.get<std::string>();
  check_text(out, where);
  return out;
}

// The "machine" object rooftop writes (fields.hpp's to_json(Machine)), read back.
void read_rooftop_machine(const json& j, core::Machine& m) {
  if (!j.is_object()) return;
  const std::string at = "empirical.metadata.ROOFTOP.machine.";
  // Text or a number of another type than rooftop writes is left unknown (a NaN clock
  // is written as null); an integer must be one that the field and the file hold, and
  // text must be what the file holds.
  for (const core::MachineField& f : core::kMachineFields) {
    const auto it = j.find(std::string(f.name));
    if (it == j.end()) continue;
    const std::string where = at + std::string(f.name);
    std::visit(
        [&](auto member) {
          auto& value = m.*member;
          using T = std::remove_cvref_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::string>) {
            if (it->is_string()) value = text_at(*it, where);
          } else if constexpr (std::is_same_v<T, double>) {
            if (it->is_number()) value = it->get<double>();
          } else {
            const auto [lo, hi] = stored_range<T>();
            value = integer_at<T>(*it, where, lo, static_cast<std::uint64_t>(hi));
          }
        },
        f.member);
  }
  if (const auto it = j.find("caches"); it != j.end() && it->is_array()) {
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& c = (*it)[i];
      if (!c.is_object() || !c.value("level", json()).is_string()) continue;
      const std::string where = at + "caches[" + std::to_string(i) + "].";
      core::CacheLevel level{text_at(c["level"], where + "level"), 0, 1};
      if (c.contains("bytes"))  // a column of uint64, not an attribute
        level.bytes = integer_at<std::uint64_t>(c["bytes"], where + "bytes", 0,
                                                std::numeric_limits<std::uint64_t>::max());
      if (c.contains("shared_by"))
        level.shared_by =
            integer_at<int>(c["shared_by"], where + "shared_by", std::numeric_limits<int>::min(),
                            std::numeric_limits<int>::max());
      m.caches.push_back(level);
    }
  }
}

core::Machine machine_from_metadata(const json& empirical) {
  core::Machine m;
  const auto md = empirical.find("metadata");
  if (md == empirical.end() || !md->is_object()) return m;
  if (const auto h = md->find("HOSTNAME"); h != md->end()) {
    // ERT writes a name, or Python's gethostbyaddr triple [name, aliases, addresses].
    if (h->is_string()) m.hostname = text_at(*h, "empirical.metadata.HOSTNAME");
    if (h->is_array() && !h->empty() && (*h)[0].is_string())
      m.hostname = text_at((*h)[0], "empirical.metadata.HOSTNAME[0]");
  }
  if (const auto config = md->find("CONFIG"); config != md->end() && config->is_object()) {
    m.compiler =
        joined_strings(config->value("ERT_CC", json()), "empirical.metadata.CONFIG.ERT_CC");
    m.compile_flags =
        joined_strings(config->value("ERT_CFLAGS", json()), "empirical.metadata.CONFIG.ERT_CFLAGS");
  }
  if (const auto ours = md->find("ROOFTOP"); ours != md->end() && ours->is_object())
    read_rooftop_machine(ours->value("machine", json()), m);
  return m;
}

// The ceiling `n` from its empirical entry, its spec entry, or both (never neither).
core::Ceiling imported_ceiling(const ErtName& n, const Entry* measured, const Entry* spec) {
  ROOFTOP_REQUIRE(measured || spec, "a ceiling needs a value");
  core::Ceiling c;
  c.name = n.ceiling;
  c.kind = n.compute ? "compute" : "bandwidth";
  c.units = n.compute ? "GFLOP/s" : "GB/s";
  const bool fma = std::string(n.ceiling).find("nofma") == std::string::npos;
  if (spec) {
    c.theoretical = spec->value;
    c.theoretical_basis = "ERT roofline.json spec " + core::quoted(spec->label);
  }
  if (measured) {
    c.value = c.median = c.min = c.max = measured->value;
    c.samples = 1;
    // ERT's kernels: read-modify-write, and FMAs or separate multiplies and adds.
    c.pattern = !n.compute ? "rmw" : core::find_compute_mode(fma ? "fma" : "nofma")->pattern;
    c.note = "imported from ERT roofline.json (empirical " + core::quoted(measured->label) +
             "): measured, one value, no spread";
    if (n.compute)
      c.note += fma ? "; ERT's compute kernel is FMA-based" : "; separate multiplies and adds";
  } else if (spec) {
    c.value = c.median = c.min = c.max = spec->value;
    c.samples = 0;
    c.note = "imported from ERT roofline.json (spec " + core::quoted(spec->label) +
             "): theoretical, not measured";
  }
  return c;
}

}  // namespace

json to_ert_json(const core::CeilingsFile& f, std::vector<std::string>* skipped) {
  json lists[2][2] = {{json::array(), json::array()}, {json::array(), json::array()}};
  enum { kEmpirical, kSpec };
  for (const ErtName& n : written_names()) {
    const core::Ceiling* c = f.find(n.ceiling);
    if (!c) continue;
    const int group = n.compute ? 0 : 1;
    if (c->measured()) {
      lists[kEmpirical][group].push_back(json::array({n.label, c->value}));
      if (c->theoretical) lists[kSpec][group].push_back(json::array({n.label, *c->theoretical}));
    } else {
      lists[kSpec][group].push_back(json::array({n.label, c->theoretical.value_or(c->value)}));
    }
  }
  for (const core::Ceiling& c : f.ceilings)
    if (!by_ceiling(c.name) && skipped)
      skipped->push_back(c.name + ": ERT has no name for it; left out");
  for (const core::FigureGroup& g : core::kFigureGroups)  // transfers, latencies, matrix units
    for (const core::Ceiling& c : (f.*g.figures).figures)
      if (skipped) skipped->push_back(c.name + ": ERT has no name for it; left out");

  const core::Provenance& p = f.provenance;
  const json rooftop = {{"schema_version", p.schema_version}, {"tool_version", p.tool_version},
                        {"git_revision", p.git_revision},     {"created_utc", p.created_utc},
                        {"command_line", p.command_line},     {"machine", to_json(f.machine)}};
  const auto group = [](json data) {
    return json{{"data", std::move(data)}, {"metadata", json::object()}};
  };
  return {
      {"empirical",
       {{"gflops", group(lists[kEmpirical][0])},
        {"gbytes", group(lists[kEmpirical][1])},
        {"metadata", {{"HOSTNAME", f.machine.hostname}, {"ROOFTOP", rooftop}}}}},
      {"spec", {{"gflops", {{"data", lists[kSpec][0]}}}, {"gbytes", {{"data", lists[kSpec][1]}}}}}};
}

core::CeilingsFile from_ert_json(const json& ert, std::vector<std::string>* skipped) {
  if (!ert.is_object()) throw Error("not an ERT roofline.json (the top level is not an object)");
  const json& empirical = child(ert, "", "empirical");
  std::map<std::string, Entry> measured, spec;
  read_group(ert, "empirical", "gflops", measured, skipped);
  read_group(ert, "empirical", "gbytes", measured, skipped);
  if (const auto s = ert.find("spec"); s != ert.end()) {  // optional, and so are its lists
    if (!s->is_object()) throw Error("'spec' is not an object");
    for (const char* group : {"gflops", "gbytes"})
      if (s->contains(group)) read_group(ert, "spec", group, spec, skipped);
  }
  if (measured.empty())
    throw Error(
        "no measured ceiling rooftop knows in empirical.gflops.data or "
        "empirical.gbytes.data");

  core::CeilingsFile out;
  out.machine = machine_from_metadata(empirical);
  for (const ErtName& n : written_names()) {
    const auto m = measured.find(n.ceiling);
    const auto s = spec.find(n.ceiling);
    if (m == measured.end() && s == spec.end()) continue;
    out.ceilings.push_back(imported_ceiling(n, m == measured.end() ? nullptr : &m->second,
                                            s == spec.end() ? nullptr : &s->second));
  }
  return out;
}

core::CeilingsFile read_ert_file(const std::string& path, std::vector<std::string>* skipped) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw Error(path + ": no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + ": not a regular file");
  // An ERT roofline.json is a few kilobytes.
  return parse_ert_text(core::read_input_file(path, std::size_t{64} << 20, "roofline.json"), path,
                        skipped);
}

core::CeilingsFile parse_ert_text(const std::string& text, const std::string& path,
                                  std::vector<std::string>* skipped) {
  json ert;
  try {
    // A key given twice in one object is ambiguous (parsers keep the first or the last).
    std::vector<std::set<std::string>> keys;
    ert = json::parse(text, [&](int, json::parse_event_t event, json& parsed) {
      if (event == json::parse_event_t::object_start) keys.emplace_back();
      if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
      if (event == json::parse_event_t::key && !keys.empty() &&
          !keys.back().insert(parsed.get<std::string>()).second)
        throw Error("key " + core::quoted(parsed.get<std::string>()) +
                    " appears twice in one object");
      return true;
    });
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON (parse error at byte " + std::to_string(e.byte) + ")");
  } catch (const json::out_of_range&) {  // a number beyond a double, e.g. 2e308
    throw Error(path + ": not valid JSON (a number too large for a double)");
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  try {
    core::CeilingsFile out = from_ert_json(ert, skipped);
    validate_ceilings_file(out);
    return out;
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  } catch (const json::exception& e) {
    // nlohmann's text starts "[json.exception.type_error.302] "; the rest is the reason.
    const std::string what = e.what();
    const std::size_t start = what.find("] ");
    throw Error(path + ": unexpected value: " +
                (start == std::string::npos ? what : what.substr(start + 2)));
  }
}

}  // namespace rooftop::ceilings
