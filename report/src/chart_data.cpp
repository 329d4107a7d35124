#include "chart_data.hpp"

#include <algorithm>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::report {

SweepLines sweep_lines(const core::CeilingsFile& f) {
  SweepLines s;
  for (const auto& p : f.sweeps.bandwidth) {
    if (p.values.empty() || p.working_set_bytes == 0) continue;
    const double m = core::summarize(p.values).median;
    const double ws = static_cast<double>(p.working_set_bytes);
    auto [it, fresh] = s.patterns[p.pattern].emplace(ws, m);
    if (!fresh) it->second = std::max(it->second, m);
    s.lo = std::min(s.lo, ws);
    s.hi = std::max(s.hi, ws);
    s.rate_max = std::max(s.rate_max, m);
    s.rate_min = std::min(s.rate_min, m);
  }
  return s;
}

std::vector<ceilings::LevelWindow> sweep_levels(const core::CeilingsFile& f) {
  if (ceilings::is_device(f.machine)) return {};
  return ceilings::level_windows(f.machine);
}

Traces flops_traces(const core::CeilingsFile& f) {
  Traces t;
  if (ceilings::is_device(f.machine)) return t;
  for (const auto& p : f.sweeps.compute) t.working_set = std::max(t.working_set, p.working_set_bytes);
  for (const auto& p : f.sweeps.compute) {
    if (p.working_set_bytes != t.working_set || p.values.empty()) continue;
    const core::Precision* precision = core::find_precision(p.precision);
    const double bytes = 2.0 * (precision ? precision->bytes : 4);  // read + write per element
    t.series[p.precision + " " + p.mode].push_back(
        {p.flops_per_element / bytes, core::summarize(p.values).median});
  }
  return t;
}

std::vector<std::size_t> same_roofs(const std::vector<core::CeilingsFile>& files) {
  const auto same = [](const core::CeilingsFile& a, const core::CeilingsFile& b) {
    return std::equal(a.ceilings.begin(), a.ceilings.end(), b.ceilings.begin(), b.ceilings.end(),
                      [](const core::Ceiling& x, const core::Ceiling& y) {
                        return x.name == y.name && x.value == y.value &&
                               x.measured() == y.measured();
                      });
  };
  std::vector<std::size_t> first(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    first[i] = i;
    for (std::size_t j = 0; j < i && first[i] == i; ++j)
      if (first[j] == j && same(files[i], files[j])) first[i] = j;
  }
  return first;
}

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

namespace {

// "<unnamed>" is a namespace that the demangler names, not template arguments.
bool unnamed_at(const std::string& name, std::size_t i) {
  return name.compare(i, 9, "<unnamed>") == 0;
}

// Each outermost template argument list as "<…>"; one a cut name leaves open as "<…".
std::string elide_template_arguments(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '<' || unnamed_at(name, i)) {
      out += unnamed_at(name, i) ? "<unnamed>" : std::string(1, name[i]);
      if (unnamed_at(name, i)) i += 8;
      continue;
    }
    int depth = 1;
    std::size_t j = i + 1;
    for (; j < name.size() && depth > 0; ++j) depth += name[j] == '<' ? 1 : name[j] == '>' ? -1 : 0;
    out += depth == 0 ? "<\xE2\x80\xA6>" : "<\xE2\x80\xA6";
    i = j - 1;
  }
  return out;
}

// The name without the parameter list it ends with, closed or cut short by the file's
// 255 characters: "f<T>(int, float) const" -> "f<T>", "g(int, T2" -> "g". A parenthesis
// followed by more of the name ("run()::[lambda(long) (instance 1)]", "(anonymous
// namespace)::k") is a scope, not the parameters.
std::string without_parameters(const std::string& name) {
  std::size_t parameters = std::string::npos;
  int angles = 0, parens = 0, brackets = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (unnamed_at(name, i)) {
      i += 8;
      continue;
    }
    const bool top = angles == 0 && parens == 0 && brackets == 0;
    if (top && c == '(') parameters = i;
    if (top && c == ':' && i + 1 < name.size() && name[i + 1] == ':')
      parameters = std::string::npos;
    angles += c == '<' ? 1 : c == '>' && angles > 0 ? -1 : 0;
    parens += c == '(' ? 1 : c == ')' && parens > 0 ? -1 : 0;
    brackets += c == '[' ? 1 : c == ']' && brackets > 0 ? -1 : 0;
  }
  return parameters == std::string::npos || parameters == 0 ? name : name.substr(0, parameters);
}

}  // namespace

std::string display_name(const std::string& name, std::size_t width) {
  if (name.size() <= width) return name;
  std::string s = name.rfind("void ", 0) == 0 ? name.substr(5) : name;
  s = elide_template_arguments(without_parameters(s));
  return s.size() <= width ? s : cut_middle(s, width);
}

std::string cut_middle(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  const std::size_t tail = (width - 1) * 2 / 3;
  std::size_t head = width - 1 - tail, from = text.size() - tail;
  while (head > 0 && utf8_continuation(text[head])) --head;
  while (from < text.size() && utf8_continuation(text[from])) ++from;
  return text.substr(0, head) + "\xE2\x80\xA6" + text.substr(from);
}

std::string ladder_of(const core::KernelRecord& k) {
  if (k.group == "import" || k.group == "kokkos") return "";
  return k.group;
}

}  // namespace rooftop::report
