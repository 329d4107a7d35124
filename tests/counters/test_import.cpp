// rooftop_counters: Nsight Compute and nvprof CSV import. Nsight Compute CSV in both layouts and
// nvprof metrics CSV with a GPU trace, a summary, or no timing file at all; launches of one kernel
// summed into one record; units, thousands separators and "n/a"; a note for every missing metric;
// malformed input rejected with the file and line. The fixtures under fixtures/import describe the
// same two kernels (a DAXPY launched 3 times, a DGEMM launched once), so every layout must give the
// same totals.

#include "rooftop/counters/import.hpp"
#include "rooftop/counters/evaluate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace rooftop::counters {
namespace {

using core::KernelRecord;
using rooftop::testing::error_of;

std::string fixture(const std::string& name) {
  return std::string(ROOFTOP_TEST_FIXTURES) + "/import/" + name;
}

std::string text_of(const std::string& name) {
  const std::string text = rooftop::testing::read_bytes(fixture(name));
  EXPECT_FALSE(text.empty()) << fixture(name);
  return text;
}

ImportResult parse_fixture(const std::string& name, const std::string& timing = "") {
  return parse_report(text_of(name), name, timing.empty() ? "" : text_of(timing), timing);
}

const KernelRecord& find(const ImportResult& r, const std::string& prefix) {
  for (const KernelRecord& k : r.kernels)
    if (k.name.rfind(prefix, 0) == 0) return k;
  ADD_FAILURE() << "no kernel named " << prefix << "...";
  static const KernelRecord none;
  return none;
}

double bytes(const KernelRecord& k, const std::string& level) {
  const core::LevelBytes* b = k.find_bytes(level);
  return b ? b->bytes : -1.0;
}

// The notes that contain every one of `parts`.
std::vector<std::string> notes_with(const ImportResult& r, std::vector<std::string> parts) {
  std::vector<std::string> out;
  for (const std::string& n : r.notes)
    if (std::all_of(parts.begin(), parts.end(),
                    [&](const std::string& p) { return n.find(p) != std::string::npos; }))
      out.push_back(n);
  return out;
}

std::string all_notes(const ImportResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

#define EXPECT_REL(actual, expected, rel) EXPECT_NEAR(actual, expected, std::abs(expected) * (rel))

// The fixtures' kernels, per launch and in total.
constexpr double kDaxpyFlops = 3 * 2.0 * 1048576;  // one FMA per element, 3 launches
constexpr double kDaxpyDram = 3 * 25165824.0;      // 2 loads + 1 store of 2^20 doubles
constexpr double kDaxpyL2 = 3 * 25296896.0;
constexpr double kDaxpyTime = (17.25 + 16.83 + 16.92) * 1e-6;
constexpr double kDgemmFma = 1073741824.0;
constexpr double kDgemmFlops = 2 * kDgemmFma + 1048576 + 1048576;
constexpr double kDgemmDram = 33554432.0, kDgemmL2 = 805306368.0, kDgemmL1 = 4294967296.0;

// An Nsight Compute long-layout report with only the columns the importer reads.
std::string ncu_long(const std::vector<std::vector<std::string>>& rows) {
  std::string s = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? ",\"" : "\"") + r[i] + "\"";
    s += "\n";
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Nsight Compute, one row per metric.

TEST(ImportNcuLong, SumsTheLaunchesOfEachKernelInFirstAppearanceOrder) {
  const ImportResult r = parse_fixture("ncu-long.csv");
  EXPECT_EQ(r.format, "ncu-long");
  ASSERT_EQ(r.kernels.size(), 3u);
  const char* names[] = {"daxpy(", "void dgemm_tiled<64>(", "sscal("};
  for (std::size_t i = 0; i < 3; ++i) {
    const KernelRecord& k = r.kernels[i];
    EXPECT_EQ(k.name.rfind(names[i], 0), 0u) << k.name;
    EXPECT_EQ(k.id, "k" + std::to_string(i + 1));
    EXPECT_EQ(k.group, "import");
    EXPECT_EQ(k.order, static_cast<int>(i));
    EXPECT_EQ(k.source, "ncu-import");
    EXPECT_TRUE(k.check.empty());
    EXPECT_TRUE(k.limiter.empty());
  }
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.invocations, 3);
  EXPECT_EQ(daxpy.samples, 3);
  EXPECT_EQ(daxpy.precision, "fp64");
  EXPECT_DOUBLE_EQ(daxpy.flops_fp64, kDaxpyFlops);
  EXPECT_DOUBLE_EQ(daxpy.flops_fp32, 0.0);
  EXPECT_DOUBLE_EQ(daxpy.flops_fp16, 0.0);
  EXPECT_DOUBLE_EQ(daxpy.fma_fraction, 1.0);
  EXPECT_DOUBLE_EQ(daxpy.tensor_instructions, 0.0);
  EXPECT_EQ(daxpy.time_source, "ncu gpu__time_duration.sum");
  EXPECT_TRUE(daxpy.note.empty()) << daxpy.note;
}

TEST(ImportNcuLong, ConvertsUnitsAndThousandsSeparators) {
  // The three DAXPY launches print the same bytes in byte, Kbyte, Mbyte and Gbyte (decimal
  // prefixes) and their times in usecond, nsecond ("16,830") and msecond.
  const ImportResult r = parse_fixture("ncu-long.csv");
  const KernelRecord& daxpy = find(r, "daxpy");
  EXPECT_REL(bytes(daxpy, "dram"), kDaxpyDram, 1e-12);
  EXPECT_REL(bytes(daxpy, "l1"), kDaxpyDram, 1e-12);
  EXPECT_REL(bytes(daxpy, "l2"), kDaxpyL2, 1e-12);
  EXPECT_REL(daxpy.time_s, kDaxpyTime, 1e-12);
  EXPECT_REL(daxpy.time_min, 16.83e-6, 1e-12);
  EXPECT_REL(daxpy.time_max, 17.25e-6, 1e-12);
  const KernelRecord& dgemm = find(r, "void dgemm");
  EXPECT_REL(bytes(dgemm, "l1"), kDgemmL1, 1e-12);
  EXPECT_REL(bytes(dgemm, "l2"), kDgemmL2, 1e-12);
  EXPECT_DOUBLE_EQ(bytes(dgemm, "dram"), kDgemmDram);
  EXPECT_REL(dgemm.time_s, 1.6e-3, 1e-12);
  // Levels in hierarchy order.
  ASSERT_EQ(dgemm.bytes.size(), 3u);
  EXPECT_EQ(dgemm.bytes[0].level, "l1");
  EXPECT_EQ(dgemm.bytes[1].level, "l2");
  EXPECT_EQ(dgemm.bytes[2].level, "dram");
}

TEST(ImportNcuLong, FmaFractionWeighsEachFmaAsTwoFlops) {
  const ImportResult r = parse_fixture("ncu-long.csv");
  const KernelRecord& dgemm = find(r, "void dgemm");
  EXPECT_DOUBLE_EQ(dgemm.flops_fp64, kDgemmFlops);
  EXPECT_DOUBLE_EQ(dgemm.fma_fraction, 2 * kDgemmFma / kDgemmFlops);
  const KernelRecord& sscal = find(r, "sscal");
  EXPECT_EQ(sscal.precision, "fp32");
  EXPECT_DOUBLE_EQ(sscal.flops_fp32, 262144.0);
  EXPECT_DOUBLE_EQ(sscal.fma_fraction, 0.0);
}

TEST(ImportNcuLong, AValueOfNaNarrowsThatKernelWithANote) {
  const ImportResult r = parse_fixture("ncu-long.csv");
  const KernelRecord& sscal = find(r, "sscal");
  EXPECT_EQ(sscal.find_bytes("l1"), nullptr);
  EXPECT_DOUBLE_EQ(bytes(sscal, "dram"), 2097152.0);
  EXPECT_NE(sscal.note.find("no L1 bytes"), std::string::npos) << sscal.note;
  EXPECT_NE(find(r, "daxpy").find_bytes("l1"), nullptr);
  const auto l1 =
      notes_with(r, {"ncu-long.csv: ", "no L1 byte metric", "for k3", "L1 not plotted"});
  EXPECT_EQ(l1.size(), 1u) << all_notes(r);
  EXPECT_EQ(r.notes.size(), 1u) << all_notes(r);
}

// ---------------------------------------------------------------------------------------
// Nsight Compute, one column per metric.

TEST(ImportNcuWide, GivesTheSameTotalsAsTheLongLayout) {
  const ImportResult wide = parse_fixture("ncu-wide.csv");
  const ImportResult lng = parse_fixture("ncu-long.csv");
  EXPECT_EQ(wide.format, "ncu-wide");
  ASSERT_EQ(wide.kernels.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const KernelRecord& w = wide.kernels[i];
    const KernelRecord& l = lng.kernels[i];
    EXPECT_EQ(w.name, l.name);
    EXPECT_EQ(w.id, l.id);
    EXPECT_EQ(w.invocations, l.invocations);
    EXPECT_EQ(w.samples, l.samples);
    EXPECT_DOUBLE_EQ(w.flops_fp64, l.flops_fp64);
    EXPECT_DOUBLE_EQ(w.fma_fraction, l.fma_fraction);
    for (const char* level : {"l1", "l2", "dram"})
      EXPECT_REL(bytes(w, level), bytes(l, level), 1e-12) << w.name << " " << level;
    EXPECT_REL(w.time_s, l.time_s, 1e-12) << w.name;
    EXPECT_REL(w.time_min, l.time_min, 1e-12) << w.name;
    EXPECT_REL(w.time_max, l.time_max, 1e-12) << w.name;
  }
}

TEST(ImportNcuWide, SaysWhichFallbackDefinitionsItUsed) {
  const ImportResult r = parse_fixture("ncu-wide.csv");
  // No gpu__time_duration.sum: cycles over the SM clock ("cycle/nsecond").
  EXPECT_EQ(r.kernels[0].time_source,
            "ncu sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second");
  EXPECT_EQ(notes_with(r, {"time from sm__cycles_elapsed.avg"}).size(), 1u) << all_notes(r);
  // No l1tex__t_bytes.sum: the newer L1 definition, said once for both kernels.
  EXPECT_EQ(notes_with(r, {"l1tex__lsu_writeback_active_mem_lg.sum", "newer definition"}).size(),
            1u)
      << all_notes(r);
  EXPECT_TRUE(notes_with(r, {"newer definition", " for k"}).empty()) << all_notes(r);
  // No FP16 metrics at all.
  EXPECT_EQ(notes_with(r, {"no FP16 FLOP metric", "FP16 FLOPs not counted"}).size(), 1u)
      << all_notes(r);
  EXPECT_EQ(r.notes.size(), 3u) << all_notes(r);
}

TEST(ImportNcuWide, NewerL2DefinitionOnlyWhenTheOlderIsAbsent) {
  const std::string head =
      "\"ID\",\"Kernel Name\",\"lts__lts2xbar_cycles_active.sum\",\"lts__t_sectors.sum\"\n"
      "\"\",\"\",\"cycle\",\"sector\"\n";
  ImportResult r = parse_report(head + "\"0\",\"k\",\"100\",\"200\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "l2"), 200 * 32.0);
  EXPECT_TRUE(notes_with(r, {"lts2xbar"}).empty()) << all_notes(r);
  r = parse_report(head + "\"0\",\"k\",\"100\",\"n/a\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "l2"), 100 * 32.0);
  EXPECT_EQ(notes_with(r, {"lts__lts2xbar_cycles_active.sum x 32 B", "newer definition"}).size(),
            1u)
      << all_notes(r);
}

TEST(ImportNcuWide, HopperL1DefinitionAsTheCuptiPathKnowsIt) {
  // GH100 has l1tex__lsu_writeback_active_mem_lgds.sum and no _mem_lg: the same
  // evaluator as the CUPTI path takes it, ahead of the _lg + _ds pair.
  const std::string head =
      "\"ID\",\"Kernel Name\",\"l1tex__lsu_writeback_active_mem_lgds.sum\","
      "\"l1tex__lsu_writeback_active_mem_lg.sum\"\n"
      "\"\",\"\",\"cycle\",\"cycle\"\n";
  ImportResult r = parse_report(head + "\"0\",\"k\",\"10\",\"n/a\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "l1"), 10 * 128.0);
  EXPECT_EQ(notes_with(r, {"l1tex__lsu_writeback_active_mem_lgds.sum x 128 B", "newer definition"})
                .size(),
            1u)
      << all_notes(r);
  r = parse_report(head + "\"0\",\"k\",\"10\",\"3\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "l1"), 10 * 128.0);
}

TEST(ImportNcuWide, EachTableKeepsItsOwnUnitsRow) {
  // Two runs appended to one file: the header and units repeat, the kernel continues.
  const std::string text =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
      "\"\",\"\",\"usecond\",\"Kbyte\"\n"
      "\"0\",\"k\",\"2\",\"1.5\"\n"
      "==PROF== Disconnected from process 1\n"
      "==PROF== Connected to process 2\n"
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
      "\"\",\"\",\"msecond\",\"Mbyte\"\n"
      "\"0\",\"k\",\"0.004\",\"1.5\"\n";
  const ImportResult r = parse_report(text, "appended.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].invocations, 2);
  EXPECT_REL(r.kernels[0].time_s, 6e-6, 1e-12);
  EXPECT_REL(bytes(r.kernels[0], "dram"), 1.5e3 + 1.5e6, 1e-12);
}

// ---------------------------------------------------------------------------------------
// Nsight Compute: metric definitions, units and launches.

TEST(ImportNcu, DramFromReadPlusWriteAndTensorFromItsVariants) {
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "dram__bytes_read.sum", "Mbyte", "2"},
                {"0", "k", "dram__bytes_write.sum", "Kbyte", "500"},
                {"0", "k", "sm__inst_executed_pipe_tensor_op_hmma.sum", "inst", "1,000"},
                {"0", "k", "sm__inst_executed_pipe_tensor_op_dmma.sum", "inst", "24"},
                {"0", "k", "gpu__time_duration.sum", "second", "1e-3"}}),
      "r.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "dram"), 2.5e6);
  EXPECT_DOUBLE_EQ(r.kernels[0].tensor_instructions, 1024.0);
  EXPECT_DOUBLE_EQ(r.kernels[0].time_s, 1e-3);
}

TEST(ImportNcu, SmspFlopMetricsAndClockUnits) {
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "10"},
                {"0", "k", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "5"},
                {"0", "k", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", "5"},
                {"0", "k", "sm__cycles_elapsed.avg", "cycle", "2,000"},
                {"0", "k", "sm__cycles_elapsed.avg.per_second", "Ghz", "1.00"},
                {"1", "k", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "10"},
                {"1", "k", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "5"},
                {"1", "k", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", "5"},
                {"1", "k", "sm__cycles_elapsed.avg", "cycle", "3,000"},
                {"1", "k", "sm__cycles_elapsed.avg.per_second", "cycle/usecond", "1,500"}}),
      "r.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.precision, "fp32");
  EXPECT_DOUBLE_EQ(k.flops_fp32, 2 * 30.0);
  EXPECT_DOUBLE_EQ(k.fma_fraction, 40.0 / 60.0);
  EXPECT_REL(k.time_s, 4e-6, 1e-12);
  EXPECT_REL(k.time_min, 2e-6, 1e-12);
  EXPECT_REL(k.time_max, 2e-6, 1e-12);
}

TEST(ImportNcu, DetailsPageDurationCountsAsTheTime) {
  // `ncu --csv` without --metrics: display names, the time under "Duration".
  const ImportResult r =
      parse_report(ncu_long({{"0", "k", "Duration", "usecond", "7.50"},
                             {"0", "k", "Registers Per Thread", "register/thread", "32"}}),
                   "r.csv");
  EXPECT_DOUBLE_EQ(r.kernels[0].time_s, 7.5e-6);
  EXPECT_EQ(r.kernels[0].time_source, "ncu gpu__time_duration.sum");
}

TEST(ImportNcu, WithoutIdsALaunchEndsWhereAMetricRepeats) {
  const std::string text =
      "\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"a\",\"gpu__time_duration.sum\",\"usecond\",\"1\"\n"
      "\"a\",\"dram__bytes.sum\",\"byte\",\"10\"\n"
      "\"a\",\"\",\"\",\"\"\n"  // a rule row of the details page: no metric
      "\"a\",\"gpu__time_duration.sum\",\"usecond\",\"2\"\n"
      "\"a\",\"dram__bytes.sum\",\"byte\",\"10\"\n"
      "\"b\",\"gpu__time_duration.sum\",\"usecond\",\"4\"\n"
      "\"b\",\"dram__bytes.sum\",\"byte\",\"10\"\n";
  const ImportResult r = parse_report(text, "r.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].invocations, 2);
  EXPECT_DOUBLE_EQ(bytes(r.kernels[0], "dram"), 20.0);
  EXPECT_REL(r.kernels[0].time_s, 3e-6, 1e-12);
  EXPECT_EQ(r.kernels[1].invocations, 1);
}

TEST(ImportNcu, PartialFlopMetricsLeaveTheFmaShareUnknown) {
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst", "10"},
                {"0", "k", "sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "inst", "4"},
                {"0", "k", "gpu__time_duration.sum", "usecond", "1"}}),
      "r.csv");
  const KernelRecord& k = r.kernels[0];
  EXPECT_DOUBLE_EQ(k.flops_fp64, 24.0);
  EXPECT_LT(k.fma_fraction, 0.0);
  EXPECT_EQ(notes_with(r, {"r.csv: no dmul count", "FP64 FLOPs leave it out"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNcu, APrecisionWithoutFlopsLeavesTheFmaShareKnown) {
  // The CUPTI path's rule: only a precision that has FLOPs and lacks a part makes the
  // FMA share unknown. FP32 is in the file but n/a for this kernel.
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst", "10"},
                {"0", "k", "sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "inst", "4"},
                {"0", "k", "sm__sass_thread_inst_executed_op_dmul_pred_on.sum", "inst", "0"},
                {"0", "k", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "n/a"},
                {"0", "k", "gpu__time_duration.sum", "usecond", "1"}}),
      "r.csv");
  const KernelRecord& k = r.kernels[0];
  EXPECT_DOUBLE_EQ(k.flops_fp64, 24.0);
  EXPECT_DOUBLE_EQ(k.flops_fp32, 0.0);
  EXPECT_DOUBLE_EQ(k.fma_fraction, 20.0 / 24.0);
  EXPECT_EQ(notes_with(r, {"r.csv: no fadd, fmul, ffma count", "FP32 FLOPs leave it out"}).size(),
            1u)
      << all_notes(r);
  EXPECT_TRUE(notes_with(r, {"FP32 FLOPs leave it out, FMA share unknown"}).empty())
      << all_notes(r);
}

TEST(ImportNcu, EveryMissingMetricHasOneNoteAndNothingCrashes) {
  const ImportResult r =
      parse_report(ncu_long({{"0", "k", "launch__grid_size", "", "4,096"}}), "bare.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_DOUBLE_EQ(k.flops(), 0.0);
  EXPECT_TRUE(k.bytes.empty());
  EXPECT_EQ(k.time_s, 0.0);
  EXPECT_EQ(k.time_source, "none");
  EXPECT_EQ(k.samples, 0);
  EXPECT_TRUE(k.precision.empty());
  EXPECT_LT(k.fma_fraction, 0.0);
  for (const char* what : {"no FLOP metric", "no L1 byte metric", "no L2 byte metric",
                           "no DRAM byte metric", "no time"})
    EXPECT_EQ(notes_with(r, {"bare.csv: ", what}).size(), 1u) << what << "\n" << all_notes(r);
  EXPECT_EQ(r.notes.size(), 5u) << all_notes(r);
}

TEST(ImportNcu, ATimingFileTimesTheReportByKernelName) {
  // The nvprof trace of the same run times the DAXPY's three launches and the DGEMM; it
  // has no sscal, which keeps the report's own time.
  const ImportResult r = parse_fixture("ncu-long.csv", "nvprof-trace.csv");
  const core::KernelRecord& daxpy = find(r, "daxpy");
  EXPECT_EQ(daxpy.time_source, "nvprof GPU trace");
  EXPECT_NEAR(daxpy.time_s, (17.248 + 16.832 + 16.920) * 1e-6, 1e-12);
  EXPECT_EQ(daxpy.samples, 3);
  EXPECT_EQ(find(r, "void dgemm").time_source, "nvprof GPU trace");
  EXPECT_NEAR(find(r, "void dgemm").time_s, 1600e-6, 1e-12);
  EXPECT_EQ(find(r, "sscal").time_source, "ncu gpu__time_duration.sum");
  EXPECT_EQ(notes_with(r, {"matched to \"void dgemm_tiled<int=64>("}).size(), 1u) << all_notes(r);
  EXPECT_EQ(notes_with(r, {"nvprof-trace.csv has no time for k3", "own time kept"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNcu, AReportWithoutTimeIsTimedByTheTimingFileAlone) {
  // ncu-long.csv without its durations and its sscal (which the trace does not time):
  // every kernel's time comes from the trace, and no note or remark says "no time".
  std::string text;
  std::istringstream in(text_of("ncu-long.csv"));
  for (std::string line; std::getline(in, line);)
    if (line.find("gpu__time_duration") == std::string::npos &&
        line.find("sscal") == std::string::npos)
      text += line + "\n";
  const ImportResult r =
      parse_report(text, "notime.csv", text_of("nvprof-trace.csv"), "nvprof-trace.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  for (const KernelRecord& k : r.kernels) {
    EXPECT_EQ(k.time_source, "nvprof GPU trace") << k.name;
    EXPECT_EQ(k.note.find("no time"), std::string::npos) << k.note;
  }
  EXPECT_TRUE(notes_with(r, {"no time ("}).empty()) << all_notes(r);
}

TEST(ImportNcu, ATimingFileThatIsNoneIsOneLine) {
  const std::string e = error_of([] { parse_fixture("ncu-long.csv", "ncu-wide.csv"); });
  EXPECT_NE(e.find("ncu-wide.csv:7: an ncu-wide table, not an nvprof GPU trace"), std::string::npos)
      << e;
  const std::string junk =
      error_of([] { parse_report(text_of("ncu-long.csv"), "r.csv", "x", "t.csv"); });
  EXPECT_NE(junk.find("t.csv: a file in no format rooftop reads"), std::string::npos) << junk;
}

TEST(ImportNcu, AHeaderWithoutLaunchesGivesNoKernelsAndANote) {
  const ImportResult r = parse_report(ncu_long({}), "empty.csv");
  EXPECT_EQ(r.format, "ncu-long");
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_EQ(notes_with(r, {"empty.csv: no kernels"}).size(), 1u) << all_notes(r);
}

// ---------------------------------------------------------------------------------------
// nvprof --metrics, with and without a timing file.

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

std::string without_lines_containing(std::string text, const std::string& what) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(pos, end - pos);
    if (line.find(what) == std::string::npos) out += line;
    pos = end;
  }
  return out;
}

TEST(ImportNvprof, AKernelMissingFromTheTraceFallsBackToDerivedTime) {
  const std::string trace = without_lines_containing(text_of("nvprof-trace.csv"), "dgemm");
  const ImportResult r = parse_report(text_of("nvprof-metrics.csv"), "m.csv", trace, "t.csv");
  EXPECT_EQ(r.kernels[0].time_source, "nvprof GPU trace");
  EXPECT_EQ(r.kernels[1].time_source, "derived: l2_read_transactions x 32 B / l2_read_throughput");
  EXPECT_EQ(notes_with(r, {"m.csv: time derived", "not in t.csv", "for k2"}).size(), 1u)
      << all_notes(r);
}

TEST(ImportNvprof, ADifferentLaunchCountScalesTheTimeToTheMetricInvocations) {
  const std::string trace = without_lines_containing(text_of("nvprof-trace.csv"), ",121\n");
  const ImportResult r = parse_report(text_of("nvprof-metrics.csv"), "m.csv", trace, "t.csv");
  const KernelRecord& daxpy = r.kernels[0];
  EXPECT_EQ(daxpy.samples, 2);
  EXPECT_REL(daxpy.time_s, (17.248 + 16.832) / 2 * 3 * 1e-6, 1e-12);
  EXPECT_EQ(notes_with(r, {"different number of launches", "for k1"}).size(), 1u) << all_notes(r);
}

TEST(ImportNvprof, AnAmbiguousNameTakesNoTime) {
  const std::string metrics =
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
      "\"Max\",\"Avg\"\n"
      "\"GPU (0)\",\"scale(float*)\",1,\"flop_count_sp\",\"FLOPs\",8,8,8\n";
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
  const std::string metrics =
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
      "\"Max\",\"Avg\"\n"
      "\"GPU (0)\",\"scale(float*)\",2,\"flop_count_sp\",\"FLOPs\",8,8,8\n";
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

// ---------------------------------------------------------------------------------------
// CSV details.

TEST(ImportCsv, WindowsLineEndingsAndAByteOrderMarkReadTheSame) {
  const std::string unix_text = text_of("ncu-long.csv");
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : unix_text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const ImportResult a = parse_report(unix_text, "a.csv"), b = parse_report(crlf, "b.csv");
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    EXPECT_EQ(a.kernels[i].name, b.kernels[i].name);
    EXPECT_DOUBLE_EQ(a.kernels[i].time_s, b.kernels[i].time_s);
    EXPECT_DOUBLE_EQ(a.kernels[i].flops(), b.kernels[i].flops());
  }
}

TEST(ImportCsv, QuotesAndCommasInsideNames) {
  const ImportResult r = parse_report(
      ncu_long({{"0", "f<\"\"x\"\", 2>(int, float)", "gpu__time_duration.sum", "ns", "1,000"}}),
      "r.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].name, "f<\"x\", 2>(int, float)");
  EXPECT_DOUBLE_EQ(r.kernels[0].time_s, 1e-6);
}

// ---------------------------------------------------------------------------------------
// Malformed input: one line naming the file and the line.

TEST(ImportErrors, UnbalancedQuoteNamesTheLineItOpensOn) {
  const std::string e = error_of([] { parse_fixture("ncu-unbalanced-quote.csv"); });
  EXPECT_NE(e.find("ncu-unbalanced-quote.csv:4: unbalanced quote"), std::string::npos) << e;
  const std::string at_end = error_of([] {
    parse_report(ncu_long({{"0", "k", "gpu__time_duration.sum", "ns", "1"}}) + "\"1\",\"k",
                 "r.csv");
  });
  EXPECT_NE(at_end.find("r.csv:3: unbalanced quote"), std::string::npos) << at_end;
}

TEST(ImportErrors, NonNumericValueNamesLineValueAndMetric) {
  const std::string e = error_of([] { parse_fixture("ncu-non-numeric.csv"); });
  EXPECT_NE(e.find("ncu-non-numeric.csv:4: \"16.8x\" for gpu__time_duration.sum is not a number"),
            std::string::npos)
      << e;
  // Digits grouped other than by three are no thousands separators.
  const std::string grouped = error_of([] {
    parse_report(ncu_long({{"0", "k", "dram__bytes.sum", "byte", "12,34"}}), "r.csv");
  });
  EXPECT_NE(grouped.find("r.csv:2: \"12,34\""), std::string::npos) << grouped;
  // A value nothing reads may be anything.
  EXPECT_NO_THROW(
      parse_report(ncu_long({{"0", "k", "launch__grid_size", "", "(1, 2, 3)"}}), "r.csv"));
}

TEST(ImportErrors, UnitOfTheWrongKind) {
  const std::string e = error_of([] {
    parse_report(ncu_long({{"0", "k", "gpu__time_duration.sum", "Kbyte", "1"}}), "r.csv");
  });
  EXPECT_NE(e.find("r.csv:2: unit \"Kbyte\" of gpu__time_duration.sum is not a time unit"),
            std::string::npos)
      << e;
}

TEST(ImportErrors, NotAReport) {
  // One line naming every format rooftop reads.
  const std::string json = error_of([] { parse_report("{\"gbytes\": [1, 2]}\n", "x.json"); });
  EXPECT_NE(json.find("x.json: a file in no format rooftop reads (it reads: Nsight Systems "
                      "SQLite export, PyTorch profiler trace, Nsight Compute CSV, nvprof CSV, "
                      "Nsight Systems stats CSV, Nsight Compute text log;"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find('\n'), std::string::npos) << json;
  const std::string binary =
      error_of([] { parse_report(std::string("NVRP\0\1\2", 7), "r.ncu-rep"); });
  EXPECT_NE(binary.find("r.ncu-rep: a binary file in no format"), std::string::npos) << binary;
  EXPECT_NE(binary.find("ncu --import FILE --csv --page raw"), std::string::npos) << binary;
  const std::string other = error_of([] { parse_report("a,b,c\n1,2,3\n", "other.csv"); });
  EXPECT_NE(other.find("other.csv: a file in no format"), std::string::npos) << other;
}

TEST(ImportErrors, RowsWithTooManyOrTooFewFields) {
  const std::string many = error_of([] {
    parse_report(ncu_long({{"0", "k", "gpu__time_duration.sum", "ns", "1", "extra"}}), "r.csv");
  });
  EXPECT_NE(many.find("r.csv:2: 6 fields where the header on line 1 has 5"), std::string::npos)
      << many;
  const std::string few = error_of([] {
    parse_report(ncu_long({{"0", "k", "gpu__time_duration.sum"}}), "r.csv");
  });
  EXPECT_NE(few.find("r.csv:2: 3 fields where the header on line 1 has 5 (no \"Metric Value\")"),
            std::string::npos)
      << few;
}

TEST(ImportErrors, AWideReportWithoutItsUnitsRow) {
  const std::string e = error_of([] {
    parse_report("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"2\"\n", "r.csv");
  });
  EXPECT_NE(e.find("r.csv:2: gpu__time_duration.sum has no unit (a time needs one)"),
            std::string::npos)
      << e;
}

TEST(ImportErrors, NvprofInvocationsMustBeAWholeNumber) {
  const std::string e = error_of([] {
    parse_report(
        "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
        "\"Max\",\"Avg\"\n\"GPU (0)\",\"k\",2.5,\"flop_count_dp\",\"x\",1,1,1\n",
        "m.csv");
  });
  EXPECT_NE(e.find("m.csv:2: Invocations \"2.5\" is not a positive whole number"),
            std::string::npos)
      << e;
}

TEST(ImportErrors, TimingFilesInTheWrongPlace) {
  const std::string as_report = error_of([] { parse_fixture("nvprof-trace.csv"); });
  EXPECT_NE(as_report.find("nvprof-trace.csv:4: an nvprof GPU trace holds times, not counts"),
            std::string::npos)
      << as_report;
  const std::string not_timing =
      error_of([] { parse_fixture("nvprof-metrics.csv", "nvprof-metrics-counts.csv"); });
  EXPECT_NE(not_timing.find("nvprof-metrics-counts.csv:6: an nvprof-metrics table, not an nvprof "
                            "GPU trace"),
            std::string::npos)
      << not_timing;
  const std::string no_units = error_of([] {
    parse_report(text_of("nvprof-metrics.csv"), "m.csv",
                 "\"Start\",\"Duration\",\"Name\"\n1.0,2.0,\"k\"\n", "t.csv");
  });
  EXPECT_NE(no_units.find("t.csv:2: no row of units under the header on line 1"), std::string::npos)
      << no_units;
}

TEST(ImportErrors, MixedFormatsInOneFile) {
  const std::string text = ncu_long({{"0", "k", "gpu__time_duration.sum", "ns", "1"}}) +
                           "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
                           "Description\",\"Min\",\"Max\",\"Avg\"\n";
  const std::string e = error_of([&] { parse_report(text, "mixed.csv"); });
  EXPECT_NE(e.find("mixed.csv:3: an nvprof-metrics table after the ncu-long one on line 1"),
            std::string::npos)
      << e;
}

// The one evaluator holds nvprof's byte recipe beside Nsight Compute's definitions.
counters::Lookup lookup_of(const std::map<std::string, double>& metrics) {
  return [metrics](const std::string& name) -> std::optional<double> {
    const auto it = metrics.find(name);
    return it == metrics.end() ? std::nullopt : std::optional<double>(it->second);
  };
}

TEST(EvaluateNvprof, L1IsEveryCollectedTransactionAt32Bytes) {
  const counters::Counts c = counters::evaluate(lookup_of(
      {{"gld_transactions", 10}, {"gst_transactions", 5}, {"atomic_transactions", 1},
       {"shared_load_transactions", 2}, {"l2_read_transactions", 7},
       {"l2_write_transactions", 3}, {"dram_read_bytes", 100}, {"dram_write_bytes", 28}}));
  ASSERT_EQ(c.bytes.size(), 3u);
  ASSERT_TRUE(c.bytes[0].bytes);
  EXPECT_DOUBLE_EQ(*c.bytes[0].bytes, 18 * 32.0);
  EXPECT_NE(c.bytes[0].from.find("atomic_transactions"), std::string::npos) << c.bytes[0].from;
  EXPECT_EQ(c.bytes[0].from.find("local_load"), std::string::npos) << c.bytes[0].from;
  ASSERT_TRUE(c.bytes[1].bytes);
  EXPECT_DOUBLE_EQ(*c.bytes[1].bytes, 10 * 32.0);
  ASSERT_TRUE(c.bytes[2].bytes);
  EXPECT_DOUBLE_EQ(*c.bytes[2].bytes, 128.0) << "dram_*_bytes when no dram_*_transactions";
}

TEST(EvaluateNvprof, NsightComputeDefinitionsComeFirst) {
  const counters::Counts c = counters::evaluate(
      lookup_of({{"lts__t_bytes.sum", 4096}, {"l2_read_transactions", 7},
                 {"l2_write_transactions", 3}, {"gld_transactions", 10}}));
  ASSERT_TRUE(c.bytes[1].bytes);
  EXPECT_DOUBLE_EQ(*c.bytes[1].bytes, 4096.0);
  EXPECT_FALSE(c.bytes[0].bytes) << "gld without gst is no L1 figure";
}

// GH100's metric names: the ops_ sums count instructions (an FMA once), so FLOPs come
// from the parts with an FMA counted twice, whether or not the sum was collected too.
TEST(EvaluateFlops, InstructionSumsAreNeverReadAsFlops) {
  const double adds = 100, muls = 30, fmas = 1000;
  const counters::Counts with_sum = counters::evaluate(lookup_of(
      {{"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", adds},
       {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", muls},
       {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", fmas},
       {"sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum", adds + muls + fmas}}));
  EXPECT_DOUBLE_EQ(with_sum.flops[0].flops, adds + muls + 2 * fmas);
  ASSERT_TRUE(with_sum.fma_fraction);
  EXPECT_DOUBLE_EQ(*with_sum.fma_fraction, 2 * fmas / (adds + muls + 2 * fmas));

  const counters::Counts sum_only = counters::evaluate(lookup_of(
      {{"sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum", adds + muls + fmas}}));
  EXPECT_EQ(sum_only.flops[0].parts, 0);
  EXPECT_DOUBLE_EQ(sum_only.flops[0].flops, 0.0);
  EXPECT_TRUE(sum_only.precision.empty());
}

TEST(EvaluateFlops, NvprofFlopCountIsFlops) {
  const counters::Counts c = counters::evaluate(lookup_of({{"flop_count_dp", 2060.0},
                                                           {"flop_count_dp_add", 40.0},
                                                           {"flop_count_dp_mul", 20.0},
                                                           {"flop_count_dp_fma", 1000.0}}));
  // The evaluator's names for nvprof's parts are the sass ones; the total is nvprof's own.
  EXPECT_DOUBLE_EQ(c.flops[0].flops, 2060.0);
  EXPECT_EQ(counters::flop_total_metric("dp"), "flop_count_dp");
  EXPECT_EQ(counters::instruction_total_metric('d'),
            "sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum");
}

TEST(ImportNcu, AnInstructionSumAloneCountsNoFlopsAndSaysWhy) {
  const std::string text =
      ncu_long({{"0", "k", "gpu__time_duration.sum", "ns", "1000"},
                {"0", "k", "sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum", "inst",
                 "4096"},
                {"0", "k", "dram__bytes.sum", "byte", "65536"}});
  const ImportResult r = parse_report(text, "ops.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp64, 0.0);
  const std::string notes = all_notes(r);
  EXPECT_NE(notes.find("counts instructions (an FMA once), not FLOPs"), std::string::npos)
      << notes;
}

}  // namespace
}  // namespace rooftop::counters
