#include "timing.hpp"

#include <algorithm>
#include <map>

#include "rooftop/core/demangle.hpp"
#include "rooftop/core/first_seen.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/counters/kernel_names.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {

TimingEntry& Timing::entry(const std::string& name) {
  return core::first_seen_entry(entries, by_name, name, &TimingEntry::name);
}

void set_time(core::KernelRecord& record, const TimingEntry& entry, const std::string& source) {
  record.time_s = entry.total;
  record.time_min = entry.min;
  record.time_max = entry.max;
  record.samples = entry.calls;
  record.time_source = source;
}

void Timing::add_launch(const std::string& name, double seconds) {
  TimingEntry& e = entry(name);
  e.total += seconds;
  e.min = std::min(e.min, seconds);
  e.max = std::max(e.max, seconds);
  ++e.calls;
}

namespace {

// Nsight Compute cuts long names short with "..." ("ampere_sgemm_128x64_...").
bool cut_short(const std::string& name, std::string& prefix) {
  if (name.size() < 4 || name.compare(name.size() - 3, 3, "...") != 0) return false;
  prefix = name.substr(0, name.size() - 3);
  return true;
}

// `base` without its template arguments: "vecAdd<float>" -> "vecAdd".
std::string without_template_arguments(const std::string& base) {
  std::string out;
  int depth = 0;
  for (char c : base) {
    if (c == '<') ++depth;
    if (depth == 0) out += c;
    if (c == '>' && depth > 0) --depth;
  }
  return out;
}

}  // namespace

std::string base_name(const std::string& name) {
  std::string s = core::demangled(name);
  if (s.rfind("void ", 0) == 0) s = trim(s.substr(5));
  s = trim(s.substr(0, s.find('(')));
  // nvprof names template arguments ("dgemm_tiled<int=64>"), Nsight tools do not
  // ("dgemm_tiled<64>"): the "int=" goes.
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '=' && depth > 0) {
      const std::size_t cut = out.find_last_of("<,");
      if (cut != std::string::npos) {
        out.erase(cut + 1);
        if (out.back() == ',') out += ' ';
        continue;
      }
    }
    out += c;
  }
  return out;
}

namespace {

// The kernels still unmatched, each joined to the one entry left whose name has its
// spelling_key, where no other kernel left has that key either.
void match_by_spelling(const std::vector<std::string>& kernels, Timing& timing,
                       std::vector<const TimingEntry*>& match, std::vector<std::string>& notes) {
  std::vector<std::string> left(kernels.size()), entries(timing.entries.size());
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (!match[i]) left[i] = kernels[i];
  for (std::size_t e = 0; e < entries.size(); ++e)
    if (!timing.entries[e].claimed) entries[e] = timing.entries[e].name;
  for (const auto& [k, e] : pairs_by_spelling(left, entries)) {
    TimingEntry& entry = timing.entries[e];
    match[k] = &entry;
    entry.claimed = true;
    notes.push_back(timing.file + ": k" + std::to_string(k + 1) + " " +
                    core::quoted(kernels[k]) + " matched to " + core::quoted(entry.name) +
                    " by its words (namespaces and punctuation aside: how Nsight Compute and "
                    "CUPTI spell one name apart)");
  }
}

}  // namespace

std::vector<const TimingEntry*> match_timing(const std::vector<std::string>& kernels,
                                             Timing& timing, std::vector<std::string>& notes) {
  std::vector<const TimingEntry*> match(kernels.size(), nullptr);
  // Exact names first (a mangled name counts as its demangled form), so that a looser
  // match cannot take another kernel's entry.
  std::map<std::string, std::size_t> by_demangled;
  for (std::size_t e = 0; e < timing.entries.size(); ++e)
    by_demangled.emplace(core::demangled(timing.entries[e].name), e);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto it = by_demangled.find(core::demangled(kernels[i]));
    if (it == by_demangled.end() || timing.entries[it->second].claimed) continue;
    match[i] = &timing.entries[it->second];
    timing.entries[it->second].claimed = true;
  }
  std::map<std::string, int> unmatched_bases, unmatched_plain;
  std::map<std::size_t, std::string> ambiguous;  // said where no later rule takes them
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (!match[i]) {
      ++unmatched_bases[base_name(kernels[i])];
      ++unmatched_plain[without_template_arguments(base_name(kernels[i]))];
    }
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (match[i]) continue;
    const std::string base = base_name(kernels[i]);
    std::string prefix;
    const bool short_name = cut_short(base, prefix);
    std::vector<TimingEntry*> candidates;
    for (TimingEntry& e : timing.entries)
      if (!e.claimed &&
          (short_name ? base_name(e.name).rfind(prefix, 0) == 0 : base_name(e.name) == base))
        candidates.push_back(&e);
    const std::string id = "k" + std::to_string(i + 1);
    const char* how =
        short_name ? "by the start of its name, cut short with \"...\"" : "by its name up to '('";
    int same_base = unmatched_bases[base];
    // nvprof prints "vecAdd<float>" where Nsight Compute prints "vecAdd" for the same
    // kernel: one name without template arguments is the other's without them, where that
    // picks one entry and one kernel (two sets of arguments, f<int> and f<double>, differ).
    const std::string plain = without_template_arguments(base);
    if (candidates.empty() && !short_name) {
      for (TimingEntry& e : timing.entries) {
        const std::string other = base_name(e.name);
        if (!e.claimed && without_template_arguments(other) == plain &&
            (base == plain || other == plain))
          candidates.push_back(&e);
      }
      how = "by its name without template arguments";
      same_base = unmatched_plain[plain];
    }
    if (candidates.size() == 1 && same_base == 1) {
      match[i] = candidates[0];
      candidates[0]->claimed = true;
      notes.push_back(timing.file + ": " + id + " " + core::quoted(kernels[i]) + " matched to " +
                      core::quoted(candidates[0]->name) + " " + how);
    } else if (!candidates.empty()) {
      ambiguous[i] = timing.file + ": " + id + " " + core::quoted(kernels[i]) +
                     " matches several kernels " + how + ": none taken";
    }
  }
  match_by_spelling(kernels, timing, match, notes);
  for (const auto& [i, note] : ambiguous)
    if (!match[i]) notes.push_back(note);
  return match;
}

}  // namespace rooftop::counters::importing
