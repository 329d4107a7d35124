// The files compare-counts reads: a rooftop kernels file (HDF5) or a profiler report, and
// the launches a record's counts cover; the operator calls llm --trace joins.

#include <cstring>
#include <fstream>
#include <set>

#include "rooftop/analyze/count_comparison.hpp"
#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/analyze/import_backend.hpp"
#include "rooftop/analyze/operator_calls.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"
#include "torch_program.hpp"

namespace rooftop::analyze {
namespace {

// HDF5's signature opens every file rooftop writes (no user block).
bool is_hdf5(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  return in.read(head, sizeof head) && std::memcmp(head, "\x89HDF\r\n\x1a\n", sizeof head) == 0;
}

}  // namespace

KernelCounts read_kernel_counts(const std::string& path) {
  core::require_regular_file(path);  // a named pipe would block is_hdf5's open
  KernelCounts counts;
  counts.source.file = path;
  if (is_hdf5(path)) {
    core::CeilingsFile file = ceilings::read_file(path);
    if (file.kernels.empty())
      throw Error(path +
                  ": a ceilings file without kernels (analyze, import and profile write "
                  "kernels with --out)");
    std::set<std::string> seen;
    std::string sources;
    for (const core::KernelRecord& k : file.kernels)
      if (seen.insert(k.source).second) sources += (sources.empty() ? "" : ", ") + k.source;
    counts.source.kind = "rooftop kernels file (" + sources + ")";
    counts.kernels = std::move(file.kernels);
  } else {
    ImportBackend backend(path);
    counts.kernels = backend.collect(counts.source.notes);
    counts.source.kind = backend.family() + " (" + backend.format() + ")";
    counts.flops_short = backend.flops_short();
  }
  counts.source.kernels = static_cast<int>(counts.kernels.size());
  return counts;
}

counters::OperatorCalls read_operator_calls(const std::string& path) {
  core::require_regular_file(path);
  if (!is_hdf5(path)) {
    const std::string text = core::read_input_file(path, kMaxTraceBytes, "PyTorch trace");
    return counters::read_operator_calls({text, path});
  }
  counters::OperatorCalls out;
  for (const core::KernelRecord& k : read_kernel_counts(path).kernels)
    out.calls.push_back(counters::operator_call_of(k));
  out.notes.push_back(path + ": " + std::to_string(out.calls.size()) +
                      " record(s), each the calls of one operator name and shapes, in no layer");
  return out;
}

int launches_covered(const core::KernelRecord& kernel) {
  const std::size_t at = kernel.note.find(kKernelsPerRunNote);
  if (at != std::string::npos) {
    // "LABEL x3, LABEL x1" up to the next part of the note: the counts after " x".
    const std::size_t from = at + std::strlen(kKernelsPerRunNote);
    const std::string list = kernel.note.substr(from, kernel.note.find("; ", from) - from);
    int launches = 0;
    for (std::size_t x = list.find(" x"); x != std::string::npos; x = list.find(" x", x + 2)) {
      std::size_t end = x + 2;
      while (end < list.size() && list[end] >= '0' && list[end] <= '9') ++end;
      if (end == x + 2 || (end < list.size() && list[end] != ',')) continue;  // in a label
      launches += std::stoi(list.substr(x + 2, std::min<std::size_t>(end - x - 2, 9)));
    }
    if (launches > 0) return launches;
  }
  return kernel.invocations > 0 ? kernel.invocations : 1;
}

}  // namespace rooftop::analyze
