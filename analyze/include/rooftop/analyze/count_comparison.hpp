#pragma once
// Counts side by side (compare-counts): the kernels of two files, each a rooftop kernels
// file (HDF5, written by analyze, import or profile with --out) or any report import
// reads, paired and compared quantity by quantity against the targets of
// core/count_comparison.hpp.
//
// Pairing: a kernel of one file joins a kernel of the other when its demangled name
// contains that kernel's name: a device kernel as Nsight Compute names it,
// "...ParallelFor<rooftop::kernels::reference::triad, ...>", joins rooftop's record
// "reference::triad" (the longest such name where several would). Every kernel joined to
// one is summed, launches and all. The direction that joins more kernels is taken (the
// names of two reports of one tool join both ways, as equal). Then a kernel left of each
// file pairs where they alone have the same words (counters::spelling_key: Nsight
// Compute's "at::vectorized_elementwise_kernel<4, ...[lambda() (instance 2)]...>" and
// CUPTI's "at::native::vectorized_elementwise_kernel<4, ...{lambda()#2}...>" of one PyTorch
// kernel). Where nothing pairs by name (files of builds whose functors were named
// otherwise), the kernels are paired in the order of each file, and the comparison says
// so; kernels left over are unpaired.
//
// Launches: Nsight Compute counts each launch it profiled, rooftop's CUPTI backend one run
// of each kernel (GPP v4 to v9 launch one kernel per frequency, three per run). Where the
// two sides cover different numbers of launches, both are compared per launch.

#include <map>
#include <string>
#include <vector>

#include "rooftop/core/count_comparison.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::analyze {

// One file's kernels, as compare-counts reads them.
struct KernelCounts {
  core::CountSource source;
  std::vector<core::KernelRecord> kernels;
  // Where the file's FLOP metrics fall short, by precision (counters::ImportResult's).
  std::map<std::string, std::string> flops_short;
};

// An HDF5 file (told by its signature) through the ceilings reader, anything else through
// the import backend. rooftop::Error, one line, for a file neither reads and for an HDF5
// file with no kernels.
KernelCounts read_kernel_counts(const std::string& path);

// The launches a record's counts cover: those of one run where the cupti backend noted
// them ("Kokkos kernels per run: gpp::v4_frequency_outside x3"), else its invocations.
int launches_covered(const core::KernelRecord& kernel);

core::CountComparison compare_counts(const KernelCounts& a, const KernelCounts& b);

}  // namespace rooftop::analyze
