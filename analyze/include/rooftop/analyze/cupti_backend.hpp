#pragma once
// The cupti backend: runs each kernel on the GPU and counts its FLOPs and bytes with
// CUPTI's Range Profiler: one user range around one run, named by the kernel, with user
// replay (the run is repeated once per replay pass; rooftop's kernels do the same work
// every run). The time comes from separate, un-instrumented runs timed like the host
// backend's (fenced wall clock, several samples): SASS metrics are collected by
// instrumenting the kernel, so the profiled runs are slower than the real thing.
// The Kokkos kernels each run launches are listed in the note (in-process Kokkos Tools
// callbacks, while no tool library is loaded). Records have source "cupti"; the metric
// set, its replay passes and anything skipped go to `notes`.
//
// It exists in the CUDA build with CUPTI (CUDA >= 12.6). Elsewhere
// cupti_backend_available() says why not, and make_cupti_backend() throws that reason.

#include <memory>
#include <string>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace rooftop::analyze {

using core::kKernelsPerRunNote;

// Empty when this build has the backend; otherwise why it does not.
std::string cupti_backend_unavailable_reason();
inline bool cupti_backend_available() { return cupti_backend_unavailable_reason().empty(); }

// Throws rooftop::Error with the reason when this build has no cupti backend. Errors of
// the machine (no GPU, a driver older than CUDA 12.6, counters not permitted) are
// thrown by collect(), each with what to do about it.
// A kernel whose counting would end past `kernel_budget_seconds` of its own (its timed
// runs, then one run a replay pass) is not counted: its record keeps the declared
// counts, and a progress line and a note say why; the others still run.
std::unique_ptr<Backend> make_cupti_backend(kernels::KernelList kernels, core::Sampling sampling,
                                            core::Progress progress = {},
                                            double kernel_budget_seconds = 30.0);

}  // namespace rooftop::analyze
