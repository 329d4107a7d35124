#pragma once
// The import backend: kernels measured by another tool, read from its output, so
// existing reports land on measured ceilings. Understood, told apart by their content
// (never by the file name):
//   ncu-long        Nsight Compute, one row per metric (`ncu --csv [--page details]`:
//                   "ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")
//   ncu-wide        Nsight Compute, one column per metric (`ncu --csv --page raw`: a
//                   header of metric names, a row of units, one row per launch)
//   nvprof-metrics  `nvprof --csv --metrics ...` ("Device", "Kernel", "Invocations",
//                   "Metric Name", ..., "Min", "Max", "Avg"; Avg is per invocation)
//   ncu-text        Nsight Compute's plain-text output (`ncu --log-file`, or the console):
//                   kernel header lines and "Section:" tables of metric, unit and value
//   nsys cuda_gpu_kern_sum, nsys cuda_gpu_trace   `nsys stats --format csv` (times only)
//   nsys-sqlite     `nsys export --type sqlite` (times only)
//   pytorch-trace   PyTorch's export_chrome_trace (.json or .json.gz): kernel times, and
//                   operator FLOPs from the shapes recorded with record_shapes
//   pytorch-metrics the same export of a profile of CUPTI counters (profiler_metrics,
//                   profiler_measure_per_kernel): kineto's cuda_profiler_range events
// Any of them may be gzip-compressed. The formats that time kernels and count no bytes
// (Nsight Systems, PyTorch) serve as the timing file of an Nsight Compute or nvprof report
// of the same run, joined by kernel name; on their own they give kernels with times.
// Each format is one reader behind counters/src/import/reader.hpp, told apart by its content.
// nvprof's metrics carry no time: it comes from an optional timing CSV, either
// `nvprof --csv --print-gpu-trace` or the default `nvprof --csv` summary, else it is
// derived from transactions x 32 B over the reported throughput, else left at 0.
//
// The metrics are the roofline literature's: FP64/FP32/FP16 add, mul and fma thread
// instructions (an FMA is two FLOPs), tensor-pipe instructions, bytes at L1, L2 and DRAM,
// and the kernel duration. Launches of one kernel are summed into one record. A metric
// that is missing narrows what is recorded and says so in a note; input that cannot be
// read as a report throws rooftop::Error "FILE:LINE: reason".

#include <map>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::counters {

struct ImportResult {
  std::string format;                           // "ncu-long", "ncu-wide", "nvprof-metrics", "ncu-text"
  std::string family;                           // "Nsight Compute CSV", "Nsight Compute text log", ...
  std::vector<core::KernelRecord> kernels;      // in order of first appearance
  std::vector<std::string> notes;               // one line each, naming the file
  // Where the report's FLOP metrics fall short, by precision (core::Precision::name,
  // "fp32"): "not counted" where it has no metric of that precision, else the parts it
  // lacks ("without dadd, dmul"). A precision counted in full is absent, and so is every
  // precision of a format that counts no FLOPs by instruction (Nsight Systems, PyTorch).
  std::map<std::string, std::string> flops_short;
};

// `report_name` and `timing_name` are only used in messages; `timing_text` is an
// optional file of kernel times (nvprof GPU trace or summary, Nsight Systems, PyTorch trace)
// joined to the report's kernels by name.
ImportResult parse_report(const std::string& report_text, const std::string& report_name,
                          const std::string& timing_text = "", const std::string& timing_name = "");

struct ReportFile {
  std::string text, name;
};

// Several files of one run: where one file holds times only (Nsight Systems, a PyTorch
// trace) and no timing file is given, it times every report of counts among them; every
// other file is read on its own. The kernels of all are listed, their ids renumbered
// k1, k2, ... in order; `format` and `family` join those of each file with " + ".
ImportResult parse_reports(const std::vector<ReportFile>& files, const ReportFile* timing = nullptr);

// Names each of `kernels` after the PyTorch operators that launched it, from a
// torch.profiler trace of the program (kernels joined by name, as a timing file's are):
// its description gains "launched by aten::linear > aten::addmm". Times and counts are
// left as they are. Notes say how many kernels the trace named. Throws rooftop::Error (one
// line) where `trace` is no PyTorch profiler trace of kernels.
void name_operators(std::vector<core::KernelRecord>& kernels, const ReportFile& trace,
                    std::vector<std::string>& notes);

// The operator calls of a PyTorch run: each call of an operator that does work (itself,
// or the outermost operator with FLOPs enclosing it), with the layer it ran in.
struct OperatorCalls {
  std::vector<core::OperatorCall> calls;  // in the trace's order
  bool device = false;                    // timed by device kernels
  int scopes = 0;                         // layer annotations found
  std::vector<std::string> notes;         // one line each, naming the file
};

// The operator calls of a torch.profiler trace (export_chrome_trace, either layout). A
// layer is named by the outermost enclosing record_function range or with_stack module
// whose name ends in its index ("layers.3", "nn.Module: LlamaDecoderLayer_3"). Throws rooftop::Error
// (one line) where `trace` is no PyTorch profiler trace.
OperatorCalls read_operator_calls(const ReportFile& trace);

// The call a record of a PyTorch CPU run stands for (the calls of one name and shapes
// summed): "aten::mm (128x4096, 4096x14336)" is aten::mm of those shapes, in no layer. A
// name without shapes is a call of that name without them.
core::OperatorCall operator_call_of(const core::KernelRecord& record);

}  // namespace rooftop::counters
