// rooftop_counters: nvprof CSV import. A real `nvprof --metrics all --csv` report and a real
// `--print-gpu-trace --csv` of the same CUDA sample on a GTX 1080 Ti (see fixtures/README.md);
// the constructed DAXPY/DGEMM reports for a summary as timing file and for metrics without
// throughputs; time derived from transactions over throughput where no timing file is given.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "import_support.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "rooftop/counters/import.hpp"

namespace rooftop::counters {
namespace {

using namespace testing;
// ---------------------------------------------------------------------------------------
// nvprof --metrics, with and without a timing file.

// ---------------------------------------------------------------------------------------
// Real reports: the CUDA sample matrixMul on a GTX 1080 Ti, `nvprof --metrics all --csv` (301
// invocations of one kernel) and, from another run, `nvprof --print-gpu-trace --csv` (301
// launches whose names end with their correlation id, "[1073]", and the copies).

constexpr int kMatrixMulCalls = 301;
constexpr double kMatrixMulTraceMs = 23.031098;  // the 301 durations of the trace, summed

TEST(ImportNvprofReal, EveryMetricIsAvgTimesInvocations) {
  const ImportResult r = parse_fixture("nvprof-metrics-matrixmul.csv");
  EXPECT_EQ(r.format, "nvprof-metrics");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name, "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)");
  EXPECT_EQ(k.invocations, kMatrixMulCalls);
  EXPECT_EQ(k.precision, "fp32");
  EXPECT_DOUBLE_EQ(k.flops_fp32, 131072000.0 * kMatrixMulCalls);
  EXPECT_DOUBLE_EQ(k.flops_fp64, 0.0);
  EXPECT_DOUBLE_EQ(k.fma_fraction, 1.0);  // flop_count_sp_fma 65536000 of 131072000 FLOPs
  // L1: global loads and stores, shared loads and stores (atomics and local memory 0).
  EXPECT_DOUBLE_EQ(bytes(k, "l1"), (1024000.0 + 25600 + 3072000 + 128000) * 32 * kMatrixMulCalls);
  EXPECT_DOUBLE_EQ(bytes(k, "l2"), (512276.0 + 25613) * 32 * kMatrixMulCalls);
  EXPECT_DOUBLE_EQ(bytes(k, "dram"), (11963.0 + 25956) * 32 * kMatrixMulCalls);
}

TEST(ImportNvprofReal, WithoutATimingFileTheTimeIsDerived) {
  // The pair with the most bytes: L2 reads, 512276 x 32 B at 190.8103 GB/s (GB = 2^30 B),
  // 80 us a launch (the trace of another run measures 76.5 us).
  const ImportResult r = parse_fixture("nvprof-metrics-matrixmul.csv");
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.time_source, "derived: l2_read_transactions x 32 B / l2_read_throughput");
  EXPECT_REL(k.time_s, kMatrixMulCalls * 512276.0 * 32 / (190.810300 * 1073741824.0), 1e-9);
  EXPECT_EQ(notes_with(r, {"time derived from transactions", "no timing file"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprofReal, TheGpuTraceOfTheSameProgramTimesEveryLaunch) {
  const ImportResult r =
      parse_fixture("nvprof-metrics-matrixmul.csv", "nvprof-trace-matrixmul.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.time_source, "nvprof GPU trace");
  EXPECT_EQ(k.samples, kMatrixMulCalls);
  EXPECT_REL(k.time_s, kMatrixMulTraceMs * 1e-3, 1e-9);
  EXPECT_REL(k.time_min, 0.075682e-3, 1e-9);
  EXPECT_REL(k.time_max, 0.077826e-3, 1e-9);
  EXPECT_TRUE(notes_with(r, {"matched"}).empty()) << all_notes(r);
  EXPECT_TRUE(notes_with(r, {"not in the report"}).empty()) << all_notes(r);
}

TEST(ImportNvprofReal, LaunchesMissingFromTheTraceScaleTheTime) {
  // The trace without its last launch (correlation id 3177): 300 timed, 301 counted.
  const std::string trace =
      without_lines_containing(import_fixture("nvprof-trace-matrixmul.csv"), "[3177]");
  const ImportResult r =
      parse_report(import_fixture("nvprof-metrics-matrixmul.csv"), "m.csv", trace, "t.csv");
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.samples, 300);
  EXPECT_REL(k.time_s, (kMatrixMulTraceMs - 0.076354) * 1e-3 / 300 * kMatrixMulCalls, 1e-9);
  EXPECT_EQ(notes_with(r, {"t.csv times a different number of launches", "scaled"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprofReal, TheTraceAloneHoldsTimesNotCounts) {
  const std::string e = error_of([] { parse_fixture("nvprof-trace-matrixmul.csv"); });
  EXPECT_NE(e.find("nvprof-trace-matrixmul.csv:4: an nvprof GPU trace holds times, not counts"),
            std::string::npos)
      << e;
}

// ---------------------------------------------------------------------------------------
// The constructed reports.

void expect_nvprof_counts(const ImportResult& r) {
  EXPECT_EQ(r.format, "nvprof-metrics");
  ASSERT_EQ(r.kernels.size(), 2u);
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.id, "k1");
  EXPECT_EQ(daxpy.source, "nvprof-import");
  EXPECT_EQ(daxpy.invocations, 3);
  EXPECT_EQ(daxpy.precision, "fp64");
  EXPECT_DOUBLE_EQ(daxpy.flops_fp64, kDaxpyFlops);  // Avg x Invocations
  EXPECT_DOUBLE_EQ(daxpy.flops_fp32, 0.0);
  EXPECT_DOUBLE_EQ(daxpy.fma_fraction, 1.0);
  EXPECT_DOUBLE_EQ(bytes(daxpy, "l1"), kDaxpyDram);  // gld + gst + shared, x 32 B
  EXPECT_DOUBLE_EQ(bytes(daxpy, "l2"), kDaxpyL2);
  EXPECT_DOUBLE_EQ(bytes(daxpy, "dram"), kDaxpyDram);
  const KernelRecord& dgemm = r.kernels[1];
  EXPECT_EQ(dgemm.name, "void dgemm_tiled<int=64>(int, double const *, double const *, double*)");
  EXPECT_EQ(dgemm.invocations, 1);
  EXPECT_DOUBLE_EQ(dgemm.flops_fp64, kDgemmFlops);
  EXPECT_DOUBLE_EQ(dgemm.fma_fraction, 2 * kDgemmFma / kDgemmFlops);
  EXPECT_DOUBLE_EQ(bytes(dgemm, "l1"), kDgemmL1);
  EXPECT_DOUBLE_EQ(bytes(dgemm, "l2"), kDgemmL2);
  EXPECT_DOUBLE_EQ(bytes(dgemm, "dram"), kDgemmDram);
}

TEST(ImportNvprof, TimesFromAGpuTrace) {
  const ImportResult r = parse_fixture("nvprof-metrics.csv", "nvprof-trace.csv");
  expect_nvprof_counts(r);
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.time_source, "nvprof GPU trace");
  EXPECT_EQ(daxpy.samples, 3);
  EXPECT_REL(daxpy.time_s, (17.248 + 16.832 + 16.920) * 1e-6, 1e-12);
  EXPECT_REL(daxpy.time_min, 16.832e-6, 1e-12);
  EXPECT_REL(daxpy.time_max, 17.248e-6, 1e-12);
  EXPECT_REL(r.kernels[1].time_s, 1.6e-3, 1e-12);
  EXPECT_TRUE(notes_with(r, {"time"}).empty()) << all_notes(r);
}

TEST(ImportNvprof, TimesFromASummaryMatchedByTheNameBeforeItsArguments) {
  // The summary spells the DAXPY's arguments "double const*": matched by "daxpy".
  const ImportResult r = parse_fixture("nvprof-metrics.csv", "nvprof-summary.csv");
  expect_nvprof_counts(r);
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.time_source, "nvprof GPU summary");
  EXPECT_EQ(daxpy.samples, 3);
  EXPECT_REL(daxpy.time_s, 51e-6, 1e-12);        // Time, in ms
  EXPECT_REL(daxpy.time_min, 16.832e-6, 1e-12);  // Min, in us
  EXPECT_REL(daxpy.time_max, 17.248e-6, 1e-12);  // Max, in ms
  EXPECT_REL(r.kernels[1].time_s, 1.6e-3, 1e-12);
  EXPECT_EQ(notes_with(r, {"nvprof-summary.csv: k1 ", "matched to", "up to '('"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprof, WithoutTimingFileTimeIsDerivedFromTransactionsOverThroughput) {
  const ImportResult r = parse_fixture("nvprof-metrics.csv");
  expect_nvprof_counts(r);
  // The pair with the most bytes: L2 reads. 528384 x 32 B / 984.191895 GB/s (GB = 2^30 B)
  // is 16 us a launch.
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.time_source, "derived: l2_read_transactions x 32 B / l2_read_throughput");
  EXPECT_REL(daxpy.time_s, 3 * 16e-6, 1e-8);
  EXPECT_REL(daxpy.time_min, 16e-6, 1e-8);
  EXPECT_EQ(daxpy.samples, 0);
  EXPECT_NE(daxpy.note.find("time from l2_read_transactions"), std::string::npos) << daxpy.note;
  EXPECT_REL(r.kernels[1].time_s, 1.6e-3, 1e-8);
  EXPECT_EQ(notes_with(r, {"time derived from transactions", "no timing file"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprof, CountsWithoutThroughputOrTimingGiveNoTime) {
  const ImportResult r = parse_fixture("nvprof-metrics-counts.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  for (const KernelRecord& k : r.kernels) {
    EXPECT_EQ(k.time_s, 0.0);
    EXPECT_EQ(k.time_source, "none");
    EXPECT_EQ(k.samples, 0);
    EXPECT_LT(k.fma_fraction, 0.0);
    EXPECT_EQ(k.bytes.size(), 1u);
    EXPECT_NE(k.note.find("no time"), std::string::npos);
  }
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp64, kDaxpyFlops);
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "dram"), kDaxpyDram);
  const char* expected[] = {"no time (no timing file", "no L1 byte metric",
                            "no L2 byte metric",       "FMA share unknown",
                            "no FP32 FLOP metric",     "no FP16 FLOP metric"};
  for (const char* what : expected)
    EXPECT_EQ(notes_with(r, {"nvprof-metrics-counts.csv: ", what}).size(), 1u) << what << "\n"
                                                                               << all_notes(r);
  EXPECT_EQ(notes_with(r, {"placed by arithmetic intensity only"}).size(), 1u) << all_notes(r);
}

TEST(ImportNvprof, AKernelMissingFromTheTraceFallsBackToDerivedTime) {
  const std::string trace = without_lines_containing(import_fixture("nvprof-trace.csv"), "dgemm");
  const ImportResult r = parse_report(import_fixture("nvprof-metrics.csv"), "m.csv", trace, "t.csv");
  EXPECT_EQ(r.kernels[0].time_source, "nvprof GPU trace");
  EXPECT_EQ(r.kernels[1].time_source, "derived: l2_read_transactions x 32 B / l2_read_throughput");
  EXPECT_EQ(notes_with(r, {"m.csv: time derived", "not in t.csv", "for k2"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprof, ADifferentLaunchCountScalesTheTimeToTheMetricInvocations) {
  const std::string trace = without_lines_containing(import_fixture("nvprof-trace.csv"), ",121\n");
  const ImportResult r = parse_report(import_fixture("nvprof-metrics.csv"), "m.csv", trace, "t.csv");
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.samples, 2);
  EXPECT_REL(daxpy.time_s, (17.248 + 16.832) / 2 * 3 * 1e-6, 1e-12);
  EXPECT_EQ(notes_with(r, {"different number of launches", "for k1"}).size(), 1u) << all_notes(r);
}

TEST(ImportNvprof, AnAmbiguousNameTakesNoTime) {
  const std::string metrics = nvprof_metric("scale(float*)", 1, "flop_count_sp", "8");
  const std::string trace =
      "\"Start\",\"Duration\",\"Name\"\n"
      "ms,us,\n"
      "1.0,2.0,\"scale(float*, int)\"\n"
      "2.0,3.0,\"scale(double*, int)\"\n";
  const ImportResult r = parse_report(metrics, "m.csv", trace, "t.csv");
  EXPECT_EQ(r.kernels[0].time_source, "none");
  EXPECT_EQ(notes_with(r, {"t.csv: k1", "matches several kernels"}).size(), 1u) << all_notes(r);
}

TEST(ImportNvprof, OlderTracesEndNamesWithTheCorrelationId) {
  const std::string metrics = nvprof_metric("scale(float*)", 2, "flop_count_sp", "8");
  const std::string trace =
      "\"Start\",\"Duration\",\"Name\"\n"
      "s,ns,\n"
      "1.0,2000,\"scale(float*) [12]\"\n"
      "2.0,3000,\"scale(float*) [15]\"\n";
  const ImportResult r = parse_report(metrics, "m.csv", trace, "t.csv");
  EXPECT_REL(r.kernels[0].time_s, 5e-6, 1e-12);
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp32, 16.0);
  EXPECT_TRUE(notes_with(r, {"matched"}).empty()) << all_notes(r);
}

TEST(ImportNvprof, ThroughputUnitsAreBinaryPrefixes) {
  const std::string metrics =
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
      "\"Max\",\"Avg\"\n"
      "\"GPU (0)\",\"k\",1,\"dram_read_transactions\",\"x\",32768,32768,32768\n"
      "\"GPU (0)\",\"k\",1,\"dram_write_transactions\",\"x\",0,0,0\n"
      "\"GPU (0)\",\"k\",1,\"dram_read_throughput\",\"x\",1.000000MB/s,1.000000MB/s,1.000000MB/s\n";
  const ImportResult r = parse_report(metrics, "m.csv");
  EXPECT_DOUBLE_EQ(r.kernels[0].time_s, 1.0);  // 2^20 B at 2^20 B/s
}

TEST(ImportNvprof, AnEventTableBesideTheMetricsIsSkipped) {
  const std::string text =
      "==1== Event result:\n"
      "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\"\n"
      "\"GPU (0)\",\"k\",1,\"elapsed_cycles_sm\",10,10,10\n"
      "==1== Metric result:\n"
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
      "\"Max\",\"Avg\"\n"
      "\"GPU (0)\",\"k\",1,\"flop_count_dp\",\"x\",10,10,10\n";
  const ImportResult r = parse_report(text, "m.csv");
  EXPECT_EQ(r.format, "nvprof-metrics");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp64, 10.0);
}


}  // namespace
}  // namespace rooftop::counters
