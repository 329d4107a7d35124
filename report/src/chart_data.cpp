#include "chart_data.hpp"

#include <algorithm>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::report {

SweepLines sweep_lines(const core::CeilingsFile& f) {
  SweepLines s;
  for (const auto& p : f.sweeps.bandwidth) {
    if (p.rates.empty() || p.working_set_bytes == 0) continue;
    const double m = core::summarize(p.rates).median;
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
    if (p.working_set_bytes != t.working_set || p.rates.empty()) continue;
    const core::Precision* precision = core::find_precision(p.precision);
    const double bytes = 2.0 * (precision ? precision->bytes : 4);  // read + write per element
    t.series[p.precision + " " + p.mode].push_back(
        {p.flops_per_element / bytes, core::summarize(p.rates).median});
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

// Each outermost template argument list as "<…>".
std::string elide_template_arguments(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '<') {
      out += name[i];
      continue;
    }
    int depth = 1;
    std::size_t j = i + 1;
    for (; j < name.size() && depth > 0; ++j) depth += name[j] == '<' ? 1 : name[j] == '>' ? -1 : 0;
    out += depth == 0 ? "<\xE2\x80\xA6>" : "<\xE2\x80\xA6";  // unclosed: cut short by a profiler
    i = j - 1;
  }
  return out;
}

// The name without the parameter list it ends with ("f(int, float) const" -> "f").
std::string without_parameters(const std::string& name) {
  std::size_t end = name.size();
  if (name.size() > 6 && name.compare(name.size() - 6, 6, " const") == 0) end -= 6;
  if (end == 0 || name[end - 1] != ')') return name;
  int depth = 0;
  for (std::size_t i = end; i-- > 0;) {
    depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
    if (depth == 0) return i > 0 ? name.substr(0, i) : name;
  }
  return name;
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
