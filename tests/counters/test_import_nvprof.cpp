// rooftop_counters: nvprof CSV import. Real `nvprof --metrics all --csv` reports and real
// `--print-gpu-trace --csv` traces of two CUDA samples on a GTX 1080 Ti, one in single and one
// in double precision (see fixtures/README.md), the double-precision one also cut to counts
// without throughputs; a summary's times joined to records by name; time derived from
// transactions over throughput where no timing file is given.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "import_support.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "reader.hpp"
#include "rooftop/counters/import.hpp"
#include "timing.hpp"
#include "units.hpp"

namespace rooftop::counters {
namespace {

using namespace testing;
// ---------------------------------------------------------------------------------------
// nvprof --metrics, with and without a timing file.

// ---------------------------------------------------------------------------------------
// Real reports: the CUDA samples matrixMul and interval on a GTX 1080 Ti, each an
// `nvprof --metrics all --csv` (301 and 100 invocations of one kernel) and, from another run,
// an `nvprof --print-gpu-trace --csv` (launches whose names end with their correlation id,
// "[1073]", and the copies; matrixMul's in ms and ms, interval's Start in s, Duration in ms).

// A real GPU trace of one kernel's program: its launches, their durations summed, the
// shortest and longest, and the last launch's correlation id and duration (ms).
struct RealTrace {
  const char* metrics;
  const char* trace;
  int calls;
  double total_ms, min_ms, max_ms;
  const char* last_id;
  double last_ms;
};

const RealTrace kMatrixMulTrace = {"nvprof-metrics-matrixmul.csv",
                                   "nvprof-trace-matrixmul.csv",
                                   301,
                                   23.031098,
                                   0.075682,
                                   0.077826,
                                   "[3177]",
                                   0.076354};
const RealTrace kIntervalTrace = {"nvprof-metrics-interval-dp.csv",
                                  "nvprof-trace-interval-dp.csv",
                                  100,
                                  33.534341,
                                  0.327110,
                                  0.340998,
                                  "[1793]",
                                  0.338246};

void expect_every_launch_timed(const RealTrace& t) {
  const ImportResult r = parse_fixture(t.metrics, t.trace);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.time_source, "nvprof GPU trace");
  EXPECT_EQ(k.samples, t.calls);
  EXPECT_REL(k.time_s, t.total_ms * 1e-3, 1e-9);
  EXPECT_REL(k.time_min, t.min_ms * 1e-3, 1e-9);
  EXPECT_REL(k.time_max, t.max_ms * 1e-3, 1e-9);
  EXPECT_TRUE(notes_with(r, {"time"}).empty()) << all_notes(r);
  EXPECT_TRUE(notes_with(r, {"matched"}).empty()) << all_notes(r);
}

// The trace without its last launch: one fewer timed than counted, the time scaled.
void expect_scaled_without_last_launch(const RealTrace& t) {
  const std::string trace = without_lines_containing(import_fixture(t.trace), t.last_id);
  const ImportResult r = parse_report(import_fixture(t.metrics), "m.csv", trace, "t.csv");
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.samples, t.calls - 1);
  EXPECT_REL(k.time_s, (t.total_ms - t.last_ms) * 1e-3 / (t.calls - 1) * t.calls, 1e-9);
  EXPECT_EQ(notes_with(r, {"t.csv times a different number of launches", "scaled"}).size(), 1u)
      << all_notes(r);
}

constexpr int kMatrixMulCalls = 301;

// One kernel's counts a launch, as its report prints them (Avg); the record holds them times
// the invocations, the transactions at 32 B.
struct RealCounts {
  const char* name;
  int calls;
  const char* precision;
  double fp32, fp64, fma_fraction;
  double l1_transactions, l2_transactions, dram_transactions;
};

void expect_counts(const char* fixture, const RealCounts& c) {
  const ImportResult r = parse_fixture(fixture);
  EXPECT_EQ(r.format, "nvprof-metrics");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name, c.name);
  EXPECT_EQ(k.invocations, c.calls);
  EXPECT_EQ(k.precision, c.precision);
  EXPECT_DOUBLE_EQ(k.flops_fp32, c.fp32 * c.calls);
  EXPECT_DOUBLE_EQ(k.flops_fp64, c.fp64 * c.calls);
  EXPECT_DOUBLE_EQ(k.fma_fraction, c.fma_fraction);
  EXPECT_DOUBLE_EQ(bytes(k, "l1"), c.l1_transactions * 32 * c.calls);
  EXPECT_DOUBLE_EQ(bytes(k, "l2"), c.l2_transactions * 32 * c.calls);
  EXPECT_DOUBLE_EQ(bytes(k, "dram"), c.dram_transactions * 32 * c.calls);
}

TEST(ImportNvprofReal, EveryMetricIsAvgTimesInvocations) {
  expect_counts("nvprof-metrics-matrixmul.csv",
                {.name = "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)",
                 .calls = kMatrixMulCalls,
                 .precision = "fp32",
                 .fp32 = 131072000.0,
                 .fp64 = 0.0,
                 .fma_fraction = 1.0,  // flop_count_sp_fma 65536000 of 131072000 FLOPs
                 // L1: global loads and stores, shared loads and stores (atomics and local
                 // memory 0).
                 .l1_transactions = 1024000.0 + 25600 + 3072000 + 128000,
                 .l2_transactions = 512276.0 + 25613,
                 .dram_transactions = 11963.0 + 25956});
}

// Without a timing file: the `what` transactions a launch at `gbyte_per_s` (GB = 2^30 B).
void expect_derived(const char* fixture, int calls, const std::string& what, double transactions,
                    double gbyte_per_s) {
  const ImportResult r = parse_fixture(fixture);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.time_source, "derived: " + what + "_transactions x 32 B / " + what + "_throughput");
  const double launch = transactions * 32 / (gbyte_per_s * 1073741824.0);
  EXPECT_REL(k.time_s, calls * launch, 1e-9);
  EXPECT_REL(k.time_min, launch, 1e-9);
  EXPECT_EQ(k.samples, 0);
  EXPECT_NE(k.note.find("time from " + what + "_transactions"), std::string::npos) << k.note;
  EXPECT_EQ(notes_with(r, {"time derived from transactions", "no timing file"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprofReal, WithoutATimingFileTheTimeIsDerived) {
  // The pair with the most bytes: L2 reads, 512276 x 32 B at 190.8103 GB/s, 80 us a launch
  // (the trace of another run measures 76.5 us).
  expect_derived("nvprof-metrics-matrixmul.csv", kMatrixMulCalls, "l2_read", 512276.0, 190.810300);
}

TEST(ImportNvprofReal, TheGpuTraceOfTheSameProgramTimesEveryLaunch) {
  expect_every_launch_timed(kMatrixMulTrace);
  expect_every_launch_timed(kIntervalTrace);
}

TEST(ImportNvprofReal, LaunchesMissingFromTheTraceScaleTheTime) {
  expect_scaled_without_last_launch(kMatrixMulTrace);  // 300 timed, 301 counted
  expect_scaled_without_last_launch(kIntervalTrace);   // 99 timed, 100 counted
}

TEST(ImportNvprofReal, TheTraceAloneHoldsTimesNotCounts) {
  const std::string e = error_of([] { parse_fixture("nvprof-trace-matrixmul.csv"); });
  EXPECT_NE(e.find("nvprof-trace-matrixmul.csv:4: an nvprof GPU trace holds times, not counts"),
            std::string::npos)
      << e;
}

// interval, in double precision, with local memory in use.

constexpr int kIntervalCalls = 100;

TEST(ImportNvprofReal, DoublePrecisionCountsWithLocalMemoryInL1) {
  expect_counts("nvprof-metrics-interval-dp.csv",
                {.name = "void test_interval_newton<double>(interval_gpu<double>*, int*, "
                         "interval_gpu<double>, int)",
                 .calls = kIntervalCalls,
                 .precision = "fp64",
                 .fp32 = 0.0,  // flop_count_sp 0 (its _special 1469382 not a FLOP)
                 .fp64 = 59126268.0,
                 // flop_count_dp_fma 13224438 of add 16901549 + mul 15775843 + 2 x fma.
                 .fma_fraction = 2 * 13224438.0 / 59126268.0,
                 // L1: no global loads, 139384 stores, 1234395 local loads and 691126 local
                 // stores (Avg; their Min and Max differ).
                 .l1_transactions = 0 + 139384.0 + 1234395 + 691126,
                 .l2_transactions = 617688.0 + 830523,
                 .dram_transactions = 4364.0 + 224440});
}

TEST(ImportNvprofReal, DerivedTimeTakesThePairWithTheMostBytes) {
  // L2 writes, 830523 x 32 B at 60.181133 GB/s: 411 us a launch (the trace of another run
  // measures 335 us); the DRAM read throughput is printed in MB/s.
  expect_derived("nvprof-metrics-interval-dp.csv", kIntervalCalls, "l2_write", 830523.0, 60.181133);
}

TEST(ImportNvprofReal, AKernelMissingFromTheTraceFallsBackToDerivedTime) {
  // The interval metrics timed by the matrixMul trace, which launches no kernel of theirs.
  const ImportResult r = parse_report(import_fixture("nvprof-metrics-interval-dp.csv"), "m.csv",
                                      import_fixture("nvprof-trace-matrixmul.csv"), "t.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].time_source,
            "derived: l2_write_transactions x 32 B / l2_write_throughput");
  EXPECT_EQ(notes_with(r, {"m.csv: time derived", "(not in t.csv)"}).size(), 1u) << all_notes(r);
}

// ---------------------------------------------------------------------------------------
// Timing files joined to records.

TEST(Timing, ASummarysSpellingOfTheArgumentsIsMatchedByTheNameBeforeThem) {
  // nvprof's summary spells a kernel's arguments "double const*" where the report may
  // spell them "const double *": matched by the name before '(' and said so. (No public
  // nvprof --csv summary file was found; the reader's layout is not tested end to end.)
  std::vector<KernelRecord> kernels(1);
  kernels[0].name = "daxpy(int, double, const double *, double *)";
  kernels[0].id = "k1";
  kernels[0].invocations = 3;
  importing::Timing t;
  t.file = "summary.csv";
  t.kind = "nvprof GPU summary";
  importing::TimingEntry& e = t.entry("daxpy(int, double, double const*, double*)");
  e.total = 51e-6;  // the summary's Time, Calls, Min and Max
  e.calls = 3;
  e.min = 16.832e-6;
  e.max = 17.248e-6;
  std::vector<std::string> notes;
  importing::apply_timing(kernels, t, notes);
  EXPECT_EQ(kernels[0].time_source, "nvprof GPU summary");
  EXPECT_EQ(kernels[0].samples, 3);
  EXPECT_REL(kernels[0].time_s, 51e-6, 1e-12);
  EXPECT_REL(kernels[0].time_min, 16.832e-6, 1e-12);
  EXPECT_REL(kernels[0].time_max, 17.248e-6, 1e-12);
  ImportResult r;
  r.notes = notes;
  EXPECT_EQ(notes_with(r, {"summary.csv: k1 ", "matched to", "up to '('"}).size(), 1u)
      << all_notes(r);
  // Its units row names a unit per column: "ms" for Time, "us" for Min and Max.
  EXPECT_EQ(importing::unit_factor(importing::Quantity::time, "ms", false), 1e-3);
  EXPECT_EQ(importing::unit_factor(importing::Quantity::time, "us", false), 1e-6);
}

// The real interval report cut to its banners, its header and the rows of flop_count_dp and
// the DRAM transactions (its lines 52, 119 and 120): counts without a throughput.
std::string interval_counts() {
  std::string text;
  std::istringstream in(import_fixture("nvprof-metrics-interval-dp.csv"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("\"GeForce", 0) != 0 || line.find(",\"flop_count_dp\",") != std::string::npos ||
        line.find(",\"dram_read_transactions\",") != std::string::npos ||
        line.find(",\"dram_write_transactions\",") != std::string::npos)
      text += line + "\n";
  return text;
}

TEST(ImportNvprofReal, CountsWithoutThroughputOrTimingGiveNoTime) {
  const ImportResult r = parse_report(interval_counts(), "counts.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.invocations, kIntervalCalls);
  EXPECT_EQ(k.time_s, 0.0);
  EXPECT_EQ(k.time_source, "none");
  EXPECT_EQ(k.samples, 0);
  EXPECT_LT(k.fma_fraction, 0.0);
  EXPECT_EQ(k.bytes.size(), 1u);
  EXPECT_NE(k.note.find("no time"), std::string::npos);
  // The file's Avg a launch times its 100 invocations: flop_count_dp 59126268, DRAM read
  // and write transactions 4364 and 224440.
  EXPECT_DOUBLE_EQ(k.flops_fp64, kIntervalCalls * 59126268.0);
  EXPECT_DOUBLE_EQ(bytes(k, "dram"), kIntervalCalls * (4364.0 + 224440) * 32);
  const char* expected[] = {"no time (no timing file", "no L1 byte metric",
                            "no L2 byte metric",       "FMA share unknown",
                            "no FP32 FLOP metric",     "no FP16 FLOP metric"};
  for (const char* what : expected)
    EXPECT_EQ(notes_with(r, {"counts.csv: ", what}).size(), 1u) << what << "\n" << all_notes(r);
  EXPECT_EQ(notes_with(r, {"placed by arithmetic intensity only"}).size(), 1u) << all_notes(r);
}

// A real `nvprof --print-gpu-trace -u us --demangling off --csv` of a vecAdd<float> on a
// GTX 1080: a Correlation_ID column, names left mangled, four copies beside one launch.
TEST(ImportNvprofReal, AMangledTraceTimesTheKernelItNames) {
  const std::string kernel = "void vecAdd<float>(float*, float*, float*, int)";
  const ImportResult r =
      parse_report(nvprof_metric(kernel, 1, "flop_count_sp", "100"), "m.csv",
                   import_fixture("nvprof-trace-vectoradd-gtx1080.csv"), "t.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.time_source, "nvprof GPU trace");
  EXPECT_EQ(k.samples, 1);
  // Its line 9: "_Z6vecAddIfEvPT_S1_S1_i", Duration 3.264000 us, Correlation_ID 123.
  EXPECT_REL(k.time_s, 3.264e-6, 1e-12);
  EXPECT_TRUE(notes_with(r, {"t.csv"}).empty()) << all_notes(r);
}

// The same repository's Nsight Compute report of vecAdd (another build of the program,
// three launches) names the kernel "vecAdd" where nvprof names it "vecAdd<float>": the
// name without template arguments picks that one entry, the join is said, and the time of
// the trace's one launch is scaled to the report's three.
TEST(ImportNvprofReal, ATemplateNameWithoutItsArgumentsJoinsTheNcuReport) {
  const ImportResult r =
      parse_fixture("ncu-raw-pascal-vectoradd.csv", "nvprof-trace-vectoradd-gtx1080.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name, "vecAdd");
  EXPECT_EQ(k.invocations, 3);
  EXPECT_EQ(k.time_source, "nvprof GPU trace, scaled to the report's launches");
  EXPECT_EQ(k.samples, 1);
  // The trace's line 9: "_Z6vecAddIfEvPT_S1_S1_i", Duration 3.264000 us.
  EXPECT_REL(k.time_s, 3 * 3.264e-6, 1e-12);
  EXPECT_EQ(notes_with(r, {"nvprof-trace-vectoradd-gtx1080.csv: k1 \"vecAdd\" matched to "
                           "\"_Z6vecAddIfEvPT_S1_S1_i\" by its name without template arguments"})
                .size(),
            1u)
      << all_notes(r);
  EXPECT_EQ(notes_with(r, {"1 timed, 3 counted"}).size(), 1u) << all_notes(r);
  EXPECT_TRUE(notes_with(r, {"not in the report"}).empty()) << all_notes(r);
}

TEST(MatchTiming, TemplateArgumentsAreDroppedOnlyWhereThatPicksOne) {
  std::vector<std::string> notes;
  importing::Timing two;
  two.file = "t";
  two.add_launch("void vecAdd<float>(float*, float*, float*, int)", 1.0);
  two.add_launch("void vecAdd<double>(double*, double*, double*, int)", 1.0);
  EXPECT_EQ(importing::match_timing({"vecAdd"}, two, notes)[0], nullptr);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("matches several kernels by its name without template arguments"),
            std::string::npos)
      << notes[0];
  // Two sets of arguments are two kernels: f<int> is not f<double>.
  notes.clear();
  importing::Timing other;
  other.file = "t";
  other.add_launch("void vecAdd<double>(double*, double*, double*, int)", 1.0);
  EXPECT_EQ(importing::match_timing({"void vecAdd<float>(float*, float*, float*, int)"}, other,
                                    notes)[0],
            nullptr);
  EXPECT_TRUE(notes.empty());
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
