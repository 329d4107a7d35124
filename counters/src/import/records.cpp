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
