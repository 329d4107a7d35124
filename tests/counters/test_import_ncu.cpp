// rooftop_counters: Nsight Compute CSV import, both layouts. A real `ncu --csv` report (an
// FP32 GEMM and its initialisation kernel on an A100, see fixtures/README.md) read as ncu
// printed it; the constructed DAXPY/DGEMM reports for units, thousands separators, "n/a" and
// the fallback definitions; launches of one kernel summed into one record; a note for every
// missing metric; a timing file joined by kernel name; CSV details (line endings, quotes).

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
// A real report: `ncu --metrics ... --csv --print-fp` of an FP32 GEMM on an A100 (two launches
// of randomInit<float>, one of gemm_v1<float>), values as ncu printed them ("5,323,503,232.00").

TEST(ImportNcuReal, SumsTheLaunchesOfEachKernelAsNcuPrintedThem) {
  const ImportResult r = parse_fixture("ncu-long-gemm-a100.csv");
  EXPECT_EQ(r.format, "ncu-long");
  ASSERT_EQ(r.kernels.size(), 2u);
  const KernelRecord& init = r.kernels[0];
  EXPECT_EQ(init.name, "void randomInit<float>(T1 *, int, int, unsigned int)");
  EXPECT_EQ(init.invocations, 2);
  EXPECT_EQ(init.precision, "fp32");
  EXPECT_DOUBLE_EQ(init.flops_fp32, 2 * (838860800.0 + 838860800.0));  // FFMA only
  EXPECT_DOUBLE_EQ(init.fma_fraction, 1.0);
  EXPECT_DOUBLE_EQ(bytes(init, "dram"), 5323503232.0 + 5420639360.0);
  EXPECT_DOUBLE_EQ(bytes(init, "l2"), 693482995584.0 + 693508461792.0);
  EXPECT_DOUBLE_EQ(bytes(init, "l1"), 16840298332000.0 + 16869658460160.0);
  const KernelRecord& gemm = r.kernels[1];
  EXPECT_EQ(gemm.name, "void gemm_v1<float>(float *, float *, float *, int, int, int)");
  EXPECT_EQ(gemm.invocations, 1);
  EXPECT_EQ(gemm.precision, "fp32");
  EXPECT_DOUBLE_EQ(gemm.flops_fp32, 2 * 34359738368000.0);  // M N K = 40960 x 40960 x 20480
  EXPECT_DOUBLE_EQ(gemm.flops_fp16, 2 * 2149161369600.0);
  EXPECT_DOUBLE_EQ(gemm.tensor_instructions, 67161292800.0);  // the smsp__ twin
  EXPECT_DOUBLE_EQ(bytes(gemm, "dram"), 807658682624.0);
}

TEST(ImportNcuReal, TheTimeIsTheSubPartitionCyclesOverItsClock) {
  // No gpu__time_duration.sum: smsp__cycles_elapsed.avg over its "cycle/second" rate.
  const ImportResult r = parse_fixture("ncu-long-gemm-a100.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  const KernelRecord& init = r.kernels[0];
  EXPECT_EQ(init.time_source, "ncu smsp__cycles_elapsed.avg / smsp__cycles_elapsed.avg.per_second");
  const double first = 5145083088.72 / 764999991.90, second = 5134280071.41 / 764999992.88;
  EXPECT_REL(init.time_s, first + second, 1e-12);
  EXPECT_REL(init.time_min, second, 1e-12);
  EXPECT_REL(init.time_max, first, 1e-12);
  EXPECT_REL(r.kernels[1].time_s, 25610472227.46 / 764999999.31, 1e-12);
  EXPECT_EQ(notes_with(r, {"time from smsp__cycles_elapsed.avg"}).size(), 1u) << all_notes(r);
  // The GEMM's tensor instructions, without the ops path metrics, are not FLOPs.
  EXPECT_EQ(notes_with(r, {"but no sm__ops_path_tensor_src_*.sum for k2"}).size(), 1u)
      << all_notes(r);
  EXPECT_EQ(r.notes.size(), 2u) << all_notes(r);
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

TEST(ImportNcu, TensorOpsPerMatrixUnitAreCountedAsOperations) {
  // The counters of a 4096^3 FP16 GEMM with FP32 accumulate (mma m16n8k16): 2 x 4096^3
  // ops on the tensor path, 4096 per HMMA instruction (16 x 8 x 16 multiply-adds, two
  // ops each), and a few FP32 FMAs of the epilogue.
  const double ops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const ImportResult r = parse_report(
      ncu_long({{"0", "gemm", "sm__inst_executed_pipe_tensor_op_hmma.sum", "inst", "33,554,432"},
                {"0", "gemm", "sm__ops_path_tensor_src_fp16_dst_fp32.sum", "", "137,438,953,472"},
                {"0", "gemm", "sm__ops_path_tensor_src_int8.sum", "", "0"},
                {"0", "gemm", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst",
                 "1,000"},
                {"0", "gemm", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "0"},
                {"0", "gemm", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", "0"},
                {"0", "gemm", "gpu__time_duration.sum", "msecond", "4.662"}}),
      "gemm.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_DOUBLE_EQ(k.tensor_instructions, 33554432.0);
  ASSERT_EQ(k.tensor_ops.size(), 1u) << "tc_int8's 0 is no unit the kernel ran on";
  EXPECT_EQ(k.tensor_ops[0].figure, "tc_fp16");
  EXPECT_DOUBLE_EQ(k.tensor_ops[0].ops, ops);
  EXPECT_DOUBLE_EQ(k.tensor_ops[0].ops / k.tensor_instructions, 2.0 * 16 * 8 * 16);
  EXPECT_DOUBLE_EQ(k.flops_fp32, 2000.0);
  EXPECT_EQ(k.precision, "fp32");
  EXPECT_DOUBLE_EQ(k.flops(), ops + 2000.0);
  ASSERT_NE(k.tensor_unit(), nullptr);
  EXPECT_EQ(k.tensor_unit()->figure, "tc_fp16");
  EXPECT_NEAR(k.gflop_per_s(), (ops + 2000.0) / 4.662e-3 * 1e-9, 1e-6);
  EXPECT_FALSE(has_note(r, "no sm__ops_path_tensor")) << all_notes(r);
}

TEST(ImportNcu, HoppersOneFp16MetricAndTheFirstOfAUnitsMetrics) {
  // GH100 counts FP16 sources in sm__ops_path_tensor_src_fp16; where a unit has two
  // metrics (FP8 on Blackwell and on Ada/Hopper), the first of kTensorPaths counts, once.
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "sm__ops_path_tensor_src_fp16.sum", "", "4096"},
                {"0", "k", "sm__ops_path_tensor_src_fp8_dst_fp32.sum", "", "100"},
                {"0", "k", "sm__ops_path_tensor_src_fp8.sum", "", "100"},
                {"0", "k", "gpu__time_duration.sum", "usecond", "1"}}),
      "h.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  ASSERT_EQ(k.tensor_ops.size(), 2u);
  EXPECT_EQ(k.tensor_ops[0].figure, "tc_fp16");
  EXPECT_DOUBLE_EQ(k.tensor_ops[0].ops, 4096.0);
  EXPECT_EQ(k.tensor_ops[1].figure, "tc_fp8_e4m3");
  EXPECT_DOUBLE_EQ(k.tensor_ops[1].ops, 100.0);
  EXPECT_DOUBLE_EQ(k.flops(), 4196.0);
  EXPECT_EQ(notes_with(r, {"h.csv: no FLOP metric", "FLOPs recorded as 0 (the CUDA cores'; the "
                                                    "tensor cores' ops"}).size(),
            1u)
      << all_notes(r);
}

TEST(ImportNcu, TensorInstructionsWithoutOpsAreNotConvertedAndSaidSo) {
  // The ops of one HMMA differ by shape and chip: instructions alone give no FLOPs.
  const ImportResult r = parse_report(
      ncu_long({{"0", "k", "sm__inst_executed_pipe_tensor_op_hmma.sum", "inst", "1,000"},
                {"0", "k", "gpu__time_duration.sum", "second", "1e-3"}}),
      "t.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_TRUE(r.kernels[0].tensor_ops.empty());
  EXPECT_EQ(r.kernels[0].flops(), 0.0);
  EXPECT_TRUE(has_note(r, "but no sm__ops_path_tensor_src_*.sum")) << all_notes(r);
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
  std::istringstream in(import_fixture("ncu-long.csv"));
  for (std::string line; std::getline(in, line);)
    if (line.find("gpu__time_duration") == std::string::npos &&
        line.find("sscal") == std::string::npos)
      text += line + "\n";
  const ImportResult r =
      parse_report(text, "notime.csv", import_fixture("nvprof-trace.csv"), "nvprof-trace.csv");
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
      error_of([] { parse_report(import_fixture("ncu-long.csv"), "r.csv", "x", "t.csv"); });
  EXPECT_NE(junk.find("t.csv: a file in no format rooftop reads"), std::string::npos) << junk;
}

TEST(ImportNcu, AHeaderWithoutLaunchesGivesNoKernelsAndANote) {
  const ImportResult r = parse_report(ncu_long({}), "empty.csv");
  EXPECT_EQ(r.format, "ncu-long");
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_EQ(notes_with(r, {"empty.csv: no kernels"}).size(), 1u) << all_notes(r);
}


// ---------------------------------------------------------------------------------------
// CSV details.

TEST(ImportCsv, WindowsLineEndingsAndAByteOrderMarkReadTheSame) {
  const std::string unix_text = import_fixture("ncu-long.csv");
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
