// rooftop_counters: malformed profiler reports end in one line naming the file and the line;
// the one evaluator holds nvprof's byte and FLOP recipes beside Nsight Compute's definitions.

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
                      "SQLite export, PyTorch profiler metric trace, PyTorch profiler trace, "
                      "Nsight Compute CSV, nvprof CSV, "
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

TEST(ImportErrors, AReportWithANulByteIsABinaryFile) {
  // No profiler writes a NUL into a text report; detection stops there instead of reading a
  // binary file line by line as CSV or as a log.
  for (const std::string name : {"ncu-long-gemm-a100.csv", "nvprof-metrics-matrixmul.csv",
                                 "nsys-kern-sum-llama2-70b.csv", "ncu-text-2022.log"}) {
    std::string text = import_fixture(name);
    ASSERT_NO_THROW(parse_report(text, name)) << name;
    text.insert(text.size() / 2, 1, '\0');
    const std::string e = error_of([&] { parse_report(text, name); });
    EXPECT_NE(e.find(name + ": a binary file in no format"), std::string::npos) << e;
  }
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
  const std::string as_report = error_of([] { parse_fixture("nvprof-trace-interval-dp.csv"); });
  EXPECT_NE(
      as_report.find("nvprof-trace-interval-dp.csv:4: an nvprof GPU trace holds times, not counts"),
      std::string::npos)
      << as_report;
  const std::string not_timing = error_of(
      [] { parse_fixture("nvprof-metrics-interval-dp.csv", "nvprof-metrics-matrixmul.csv"); });
  EXPECT_NE(not_timing.find("nvprof-metrics-matrixmul.csv:6: an nvprof-metrics table, not an "
                            "nvprof GPU trace"),
            std::string::npos)
      << not_timing;
  const std::string no_units = error_of([] {
    parse_report(import_fixture("nvprof-metrics-interval-dp.csv"), "m.csv",
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

// A lookup over fixed metric values, for the one evaluator.
counters::Lookup lookup_of(const std::map<std::string, double>& metrics) {
  return [metrics](const std::string& name) -> std::optional<double> {
    const auto it = metrics.find(name);
    return it == metrics.end() ? std::nullopt : std::optional<double>(it->second);
  };
}

// Nsight Compute's own errors, from the first H200 run (fixtures/README.md): the GPP
// ladder at the classic size under `ncu --csv --page raw`, where ncu profiled the first
// kernel and then failed on the second.
TEST(ImportNcuErrors, ErrorLinesAndNoKernelAreOneLineQuotingNcu) {
  // The file's first 7 lines: ==WARNING==, ==PROF== and the two ==ERROR== lines, no table.
  const std::string e = error_of([] { parse_fixture("ncu-errors-only-h200.log"); });
  EXPECT_EQ(e,
            "ncu-errors-only-h200.log: Nsight Compute profiled no kernel: ==ERROR== Failed to "
            "profile \"cuda_parallel_launch_local_me...\" in process 1183; ==ERROR== An error "
            "occurred while trying to profile.");
  // An error before any ==PROF== line (counters not permitted) is still Nsight Compute's.
  const std::string denied = error_of([] {
    parse_report("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                 "NVIDIA GPU Performance Counters on the target device 0.\n",
                 "denied.log");
  });
  EXPECT_EQ(denied,
            "denied.log: Nsight Compute profiled no kernel: ==ERROR== ERR_NVGPUCTRPERM - The user "
            "does not have permission to access NVIDIA GPU Performance Counters on the target "
            "device 0.");
}

TEST(ImportNcuErrors, ErrorLinesBesideAProfiledKernelAreANote) {
  // The whole file: the same lines, then the raw page with the one launch ncu profiled
  // (GPP v1, CollapseAll, at the classic size).
  const ImportResult r = parse_fixture("ncu-raw-h200-gpp-classic-failed.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_NE(k.name.find("rooftop::kernels::gpp::CollapseAll<Kokkos::Cuda>"), std::string::npos);
  EXPECT_EQ(k.invocations, 1);
  EXPECT_DOUBLE_EQ(k.time_s, 1.253165152);  // gpu__time_duration.sum 1,253,165,152 ns
  // dadd 274,819,987,632 + dmul 1,676,345,868,288 + 2 x dfma 4,671,783,567,360.
  EXPECT_DOUBLE_EQ(k.flops_fp64, 274819987632.0 + 1676345868288.0 + 2 * 4671783567360.0);
  EXPECT_DOUBLE_EQ(k.flops_fp32, 2 * 412216197120.0);  // ffma only; fadd and fmul 0
  EXPECT_DOUBLE_EQ(k.flops_fp16, 2 * 304128.0);
  ASSERT_NE(k.find_bytes("dram"), nullptr);
  EXPECT_DOUBLE_EQ(k.find_bytes("dram")->bytes, 3144589576960.0);
  const std::vector<std::string> said = notes_with(r, {"Nsight Compute reported errors"});
  ASSERT_EQ(said.size(), 1u) << all_notes(r);
  EXPECT_EQ(said[0],
            "ncu-raw-h200-gpp-classic-failed.csv: Nsight Compute reported errors (==ERROR== "
            "Failed to profile \"cuda_parallel_launch_local_me...\" in process 1183; ==ERROR== "
            "An error occurred while trying to profile.): a launch it could not profile is "
            "missing from the report");
}

// A real `ncu --csv --page raw` of a GTX 1080 (CC 6.1): 400 columns, cells that hold lists
// ("32.00; 32.00; ..."), three launches of one kernel, and metric names of Nsight Compute's
// Pascal set (no .sum). Its duration and DRAM bytes are read under those names; it has no FLOP
// metric and no L1 or L2 byte metric, which the notes say rather than guess.
TEST(ImportNcuWideReal, APascalRawPageGivesTimeAndDramBytesFromItsOwnNames) {
  // The file's rows of IDs 0, 1 and 2 (its lines 3 to 5): gpu__time_duration 2,720.00 nsecond
  // each; dram__read_bytes 7,552.00, 3,264.00 and 2,176.00; dram__write_bytes 384.00, 256.00
  // and 256.00 byte.
  const double launch_s = 2720e-9;
  const double dram = (7552.0 + 384.0) + (3264.0 + 256.0) + (2176.0 + 256.0);
  for (const char* f : {"ncu-raw-pascal-vectoradd.csv", "ncu-raw-pascal-vectoradd-stdout.log"}) {
    const ImportResult r = parse_fixture(f);
    EXPECT_EQ(r.format, "ncu-wide") << f;
    ASSERT_EQ(r.kernels.size(), 1u) << f;
    const KernelRecord& k = r.kernels[0];
    EXPECT_EQ(k.name, "vecAdd");
    EXPECT_EQ(k.invocations, 3);
    EXPECT_EQ(k.time_source, "ncu gpu__time_duration");
    EXPECT_REL(k.time_s, 3 * launch_s, 1e-12);
    EXPECT_REL(k.time_min, launch_s, 1e-12);
    EXPECT_REL(k.time_max, launch_s, 1e-12);
    EXPECT_EQ(k.samples, 3);
    EXPECT_EQ(bytes(k, "dram"), dram) << f;
    EXPECT_EQ(bytes(k, "l1"), -1.0);
    EXPECT_EQ(bytes(k, "l2"), -1.0);
    EXPECT_EQ(k.flops_fp32, 0.0);
    EXPECT_EQ(k.flops_fp64, 0.0);
    for (const char* what : {"no FLOP metric", "no L1 byte metric", "no L2 byte metric"})
      EXPECT_EQ(notes_with(r, {std::string(f) + ": " + what}).size(), 1u) << what << "\n"
                                                                          << all_notes(r);
    for (const char* what : {"no DRAM byte metric", "no time ("})
      EXPECT_TRUE(notes_with(r, {what}).empty()) << what << "\n" << all_notes(r);
  }
}

// The Pascal names in the evaluator itself: the newer names come first where both are there.
TEST(EvaluatePascal, DurationAndDramBytesUnderTheirPascalNames) {
  const counters::Counts pascal = counters::evaluate(lookup_of(
      {{"gpu__time_duration", 2720}, {"dram__read_bytes", 7552}, {"dram__write_bytes", 384}}));
  ASSERT_TRUE(pascal.duration_s);
  EXPECT_DOUBLE_EQ(*pascal.duration_s, 2720e-9);
  ASSERT_TRUE(pascal.bytes[2].bytes);
  EXPECT_DOUBLE_EQ(*pascal.bytes[2].bytes, 7936.0);
  EXPECT_EQ(pascal.bytes[2].from, "dram__read_bytes + dram__write_bytes");
  const counters::Counts both = counters::evaluate(
      lookup_of({{"gpu__time_duration.sum", 1000}, {"gpu__time_duration", 2720},
                 {"dram__bytes.sum", 64}, {"dram__read_bytes", 7552}, {"dram__write_bytes", 384}}));
  EXPECT_DOUBLE_EQ(*both.duration_s, 1000e-9);
  EXPECT_DOUBLE_EQ(*both.bytes[2].bytes, 64.0);
  // Reads without writes are kept as what they are: reads only, an intensity's upper bound.
  const counters::LevelBytes reads =
      counters::evaluate(lookup_of({{"dram__read_bytes", 7552}})).bytes[2];
  ASSERT_TRUE(reads.bytes);
  EXPECT_DOUBLE_EQ(*reads.bytes, 7552.0);
  EXPECT_EQ(reads.counted, "read");
  EXPECT_EQ(reads.from, "dram__read_bytes");
  // A whole pair of a later definition comes before a half of an earlier one.
  const std::map<std::string, double> halves = {
      {"dram__bytes_read.sum", 10}, {"dram__read_bytes", 7552}, {"dram__write_bytes", 384}};
  const counters::LevelBytes whole = counters::evaluate(lookup_of(halves)).bytes[2];
  EXPECT_DOUBLE_EQ(*whole.bytes, 7936.0);
  EXPECT_TRUE(whole.counted.empty());
}

// The one evaluator holds nvprof's byte recipe beside Nsight Compute's definitions.
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


}  // namespace
}  // namespace rooftop::counters
