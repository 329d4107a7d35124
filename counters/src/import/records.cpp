#include "records.hpp"

namespace rooftop::counters::importing {

KernelRecord new_record(const std::string& name, std::size_t index, const char* source) {
  KernelRecord r;
  r.name = name;
  r.id = "k" + std::to_string(index + 1);
  r.group = "";  // the kernels of a report are different codes, not versions of one
  r.order = static_cast<int>(index);
  r.source = source;
  return r;
}

void record_bytes(const counters::LevelBytes& b, const std::string& metrics, KernelRecord& r,
                  NoteBook& book, std::vector<std::string>& remarks) {
  const std::string label(b.label);
  if (!b.bytes) {
    book.add("no " + label + " byte metric (" + metrics + ", absent or n/a)",
             label + " not plotted", r.id);
    remarks.push_back("no " + label + " bytes");
    return;
  }
  r.bytes.push_back(counters::recorded_bytes(b));
  if (b.counted.empty()) return;
  book.add(counters::partial_bytes_remark(b), "", r.id);
  remarks.push_back(label + " " + b.counted + "s only");
}

void finish_record(KernelRecord& r, const std::vector<std::string>& remarks) {
  double most = 0.0;
  for (const Precision& p : kPrecisions)
    if (r.*p.flops > most) {
      most = r.*p.flops;
      r.precision = std::string(p.name);
    }
  for (const std::string& s : remarks) r.note += (r.note.empty() ? "" : "; ") + s;
}

}  // namespace rooftop::counters::importing
