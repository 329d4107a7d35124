// Kernels with times and no counts: what Nsight Systems and PyTorch's profiler give on
// their own. A kernel with FLOPs and a time (a PyTorch operator recorded with_flops) is
// placed by its achieved FLOP/s against the compute roofs; without bytes it has no
// arithmetic intensity, and the notes say so.

#include <string>

#include "reader.hpp"
#include "records.hpp"
#include "timing.hpp"

namespace rooftop::counters::importing {

Reading timed_reading(const Timing& timing, const std::string& format, const char* source,
                      const Timing* given) {
  Reading result;
  result.format = format;
  result.notes = timing.notes;
  if (given)
    result.notes.push_back(given->file + " ignored: " + timing.file +
                           " carries its own kernel times");
  NoteBook book(timing.file, timing.entries.size());
  bool any_flops = false, any_bytes = false;
  for (std::size_t i = 0; i < timing.entries.size(); ++i) {
    const TimingEntry& e = timing.entries[i];
    KernelRecord r = new_record(e.name, i, source);
    set_time(r, e, timing.kind);
    if (e.calls <= 0) r.time_min = 0.0;  // no launch timed, so no fastest one
    r.invocations = e.calls;
    r.description = e.description;
    std::vector<std::string> remarks;
    for (const Precision& p : kPrecisions) {
      const auto f = e.flops.find(std::string(p.name));
      if (f != e.flops.end()) r.*p.flops = f->second;
    }
    r.bytes = e.bytes;
    any_bytes = any_bytes || !r.bytes.empty();
    if (r.flops() > 0.0 && r.bytes.empty()) {
      any_flops = true;
      remarks.push_back("no bytes: achieved FLOP/s against the compute roofs only");
      book.add("FLOPs but no byte counts, so no arithmetic intensity",
               "placed by achieved FLOP/s against the compute roofs only", r.id);
    }
    finish_record(r, remarks);
    result.kernels.push_back(std::move(r));
  }
  if (!result.kernels.empty() && !any_bytes)
    result.notes.push_back(
        timing.file + ": " + timing.kind + " times kernels and counts " +
        (any_flops ? "no bytes" : "neither FLOPs nor bytes") +
        ": the kernels are listed with their times" +
        (any_flops ? "" : ", not placed") +
        " (an Nsight Compute report of the same run, given with it, adds the counts)");
  book.append_to(result.notes);
  return result;
}

}  // namespace rooftop::counters::importing

namespace rooftop::counters::importing {

void apply_timing(std::vector<core::KernelRecord>& kernels, Timing& timing,
                  std::vector<std::string>& notes) {
  std::vector<std::string> names;
  for (const KernelRecord& k : kernels) names.push_back(k.name);
  const std::vector<const TimingEntry*> match = match_timing(names, timing, notes);
  std::vector<std::string> untimed, scaled;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    KernelRecord& k = kernels[i];
    const TimingEntry* e = match[i];
    if (!e || e->calls <= 0) {
      untimed.push_back(k.id);
      continue;
    }
    // The report's "no time" remark no longer holds.
    for (const std::string remark : {"; no time", "no time; ", "no time"})
      if (const std::size_t at = k.note.find(remark); at != std::string::npos) {
        k.note.erase(at, remark.size());
        break;
      }
    // A PyTorch trace names the operators that launched the kernel.
    if (k.description.empty()) k.description = e->description;
    set_time(k, *e, timing.kind);
    // The launches counted and the launches timed: the same run profiled twice should
    // agree; where it does not, the time is scaled to the launches counted.
    if (e->calls != k.invocations && k.invocations > 0) {
      k.time_s = e->total / e->calls * k.invocations;
      k.time_source += ", scaled to the report's launches";
      scaled.push_back(k.id + " (" + std::to_string(e->calls) + " timed, " +
                       std::to_string(k.invocations) + " counted)");
      k.note += std::string(k.note.empty() ? "" : "; ") + "time scaled from " +
                std::to_string(e->calls) + " timed launches";
    }
  }
  const auto list = [](const std::vector<std::string>& ids) {
    std::string s;
    for (const std::string& id : ids) s += (s.empty() ? "" : ", ") + id;
    return s;
  };
  if (!scaled.empty())
    notes.push_back(timing.file + " times another number of launches than the report counts for " +
                    list(scaled) + ": time scaled to the launches counted");
  if (!untimed.empty())
    notes.push_back(timing.file + " has no time for " + list(untimed) +
                    ": the report's own time kept");
  int unclaimed = 0;
  // Copies and memsets ("[CUDA memcpy HtoD]") and PyTorch operators ("[operator] aten::mm")
  // are no kernels.
  for (const TimingEntry& e : timing.entries)
    unclaimed += e.claimed || e.name.rfind('[', 0) == 0 ? 0 : 1;
  if (unclaimed > 0)
    notes.push_back(timing.file + ": " + std::to_string(unclaimed) +
                    " timed kernel name(s) not in the report");
}

}  // namespace rooftop::counters::importing
