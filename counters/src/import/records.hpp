#pragma once
// What every reader shares once it has values: notes gathered per issue, and the fields
// of a kernel record that every reader fills the same way. Private to rooftop_counters'
// readers.

#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/evaluate.hpp"

namespace rooftop::counters::importing {

using core::KernelRecord;
using core::kPrecisions;
using core::Precision;
inline constexpr const char* kOps[] = {"add", "mul", "fma"};

// Notes gathered per issue, so that one line names every kernel an issue concerns.
class NoteBook {
 public:
  NoteBook(std::string file, std::size_t kernels) : file_(std::move(file)), kernels_(kernels) {}

  // `what` holds for kernel `id`; `consequence` (may be empty) is what it costs.
  void add(const std::string& what, const std::string& consequence, const std::string& id) {
    const std::string key = what + '\n' + consequence;
    auto it = index_.find(key);
    if (it == index_.end()) {
      it = index_.emplace(key, issues_.size()).first;
      issues_.push_back({what, consequence, {}});
    }
    issues_[it->second].ids.push_back(id);
  }

  void append_to(std::vector<std::string>& notes) const {
    for (const Issue& i : issues_) {
      std::string line = file_ + ": " + i.what;
      if (i.ids.size() < kernels_) {
        line += " for ";
        for (std::size_t k = 0; k < i.ids.size(); ++k) line += (k ? ", " : "") + i.ids[k];
      }
      if (!i.consequence.empty()) line += ": " + i.consequence;
      notes.push_back(line);
    }
  }

 private:
  struct Issue {
    std::string what, consequence;
    std::vector<std::string> ids;
  };
  std::string file_;
  std::size_t kernels_;
  std::vector<Issue> issues_;
  std::map<std::string, std::size_t> index_;
};

// One note per precision whose FLOP metrics the report lacks (`in_file`), or a single
// note when it lacks them all (`all_metrics` names them); returns whether all were
// missing. The wording is shared by every importer.
template <class InFile, class MetricName>
bool note_missing_flop_metrics(const std::string& file, const char* all_metrics, InFile in_file,
                               MetricName metric_name, std::vector<std::string>& notes) {
  std::vector<const Precision*> absent;
  std::size_t counted = 0;
  for (const Precision& p : kPrecisions) {
    if (!p.counted_by_instructions()) continue;
    ++counted;
    if (!in_file(p)) absent.push_back(&p);
  }
  if (absent.size() == counted) {
    notes.push_back(file + ": no FLOP metric (" + all_metrics + "): FLOPs unknown, not 0");
    return true;
  }
  for (const Precision* p : absent)
    notes.push_back(file + ": no " + std::string(p->label) + " FLOP metric (" + metric_name(*p) +
                    "): " + std::string(p->label) + " FLOPs not counted");
  return false;
}

// Where a report's FLOP metrics fall short, by precision (ImportResult::flops_short):
// `has(p, op)` whether the report has the metric of `op` ("add", "mul", "fma") of precision
// `p`, `total(p)` whether it has the precision's FLOP total (nvprof's flop_count_dp).
template <class Has, class Total>
std::map<std::string, std::string> flops_short(Has has, Total total) {
  std::map<std::string, std::string> out;
  for (const Precision& p : kPrecisions) {
    if (!p.counted_by_instructions() || total(p)) continue;
    std::string lacking;
    int parts = 0;
    for (const char* op : kOps) {
      if (has(p, op))
        ++parts;
      else
        lacking += (lacking.empty() ? "" : ", ") + std::string(1, p.sass) + op;
    }
    if (parts == 0)
      out[std::string(p.name)] = "not counted";
    else if (!lacking.empty())
      out[std::string(p.name)] = "without " + lacking;
  }
  return out;
}

// One level's bytes as the evaluator found them, into `r`: a level without a count, or
// with one half of its traffic only, is a note and a remark (`metrics`: what its count
// comes from, for the note).
void record_bytes(const counters::LevelBytes& b, const std::string& metrics, KernelRecord& r,
                  NoteBook& book, std::vector<std::string>& remarks);

// A new record: name, id "k<index+1>", group "import", order and source.
KernelRecord new_record(const std::string& name, std::size_t index, const char* source);

// The precision with the most FLOPs, and the remarks joined into the record's note.
void finish_record(KernelRecord& r, const std::vector<std::string>& remarks);

}  // namespace rooftop::counters::importing
