// rooftop_counters: Nsight Compute CSV import, both layouts. A real `ncu --csv` report (an
// FP32 GEMM and its initialisation kernel on an A100, see fixtures/README.md) read as ncu
// printed it; Nsight Compute's unit names and "n/a" tested on the unit parser; launches of
// one kernel summed into one record; a note for every missing metric; a timing file joined
// by kernel name; CSV details (line endings, quotes).

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "import_support.hpp"
#include "reader.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "rooftop/counters/import.hpp"
#include "units.hpp"

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
// Nsight Compute, one row per metric: the record each kernel of the real A100 report gets.

TEST(ImportNcuLong, EachKernelIsOneRecordInFirstAppearanceOrder) {
  const ImportResult r = parse_fixture("ncu-long-gemm-a100.csv");
  ASSERT_EQ(r.kernels.size(), 2u);
  const char* names[] = {"void randomInit<float>(", "void gemm_v1<float>("};
  const int launches[] = {2, 1};  // IDs 0 and 1, then 2 (its column "ID")
  for (std::size_t i = 0; i < 2; ++i) {
    const KernelRecord& k = r.kernels[i];
    EXPECT_EQ(k.name.rfind(names[i], 0), 0u) << k.name;
    EXPECT_EQ(k.id, "k" + std::to_string(i + 1));
    EXPECT_EQ(k.group, "");  // a report's kernels are no ladder
    EXPECT_EQ(k.order, static_cast<int>(i));
    EXPECT_EQ(k.source, "ncu-import");
    EXPECT_EQ(k.invocations, launches[i]);
    EXPECT_EQ(k.samples, launches[i]);
    EXPECT_TRUE(k.check.empty());
    EXPECT_TRUE(k.limiter.empty());
  }
  // Levels in hierarchy order, whatever the order of the rows (dram__bytes.sum comes first).
  const KernelRecord& gemm = r.kernels[1];
  ASSERT_EQ(gemm.bytes.size(), 3u);
  EXPECT_EQ(gemm.bytes[0].level, "l1");
  EXPECT_EQ(gemm.bytes[1].level, "l2");
  EXPECT_EQ(gemm.bytes[2].level, "dram");
  // Line 33: l1tex__t_bytes.sum "38,708,392,755,200.00"; line 34: lts__t_bytes.sum
  // "40,927,345,510,272.00" (thousands separators as ncu printed them).
  EXPECT_DOUBLE_EQ(bytes(gemm, "l1"), 38708392755200.0);
  EXPECT_DOUBLE_EQ(bytes(gemm, "l2"), 40927345510272.0);
}

TEST(ImportNcuLong, AnFmaOnlyKernelHasAnFmaShareOfOne) {
  // gemm_v1's rows 38 to 46: FFMA and HFMA counts, every add and mul 0.0.
  const ImportResult r = parse_fixture("ncu-long-gemm-a100.csv");
  const KernelRecord& gemm = find(r, "void gemm_v1");
  EXPECT_DOUBLE_EQ(gemm.fma_fraction, 1.0);
  EXPECT_DOUBLE_EQ(gemm.flops_fp64, 0.0);
}

// ---------------------------------------------------------------------------------------
// Units as Nsight Compute names them. Its CLI documentation ("Metrics and Units",
// --print-units base|auto) scales values to "an appropriate order of magnitude" under auto;
// its metric units are byte, Kbyte, Mbyte, Gbyte (decimal), nsecond, usecond, msecond,
// second, cycle/nsecond and the like. No public report prints them all, so the parser of
// those names is tested on the names themselves.

TEST(Units, NsightComputeBytePrefixesAreDecimal) {
  using importing::Quantity;
  using importing::unit_factor;
  EXPECT_EQ(unit_factor(Quantity::bytes, "byte", false), 1.0);
  EXPECT_EQ(unit_factor(Quantity::bytes, "Kbyte", false), 1e3);
  EXPECT_EQ(unit_factor(Quantity::bytes, "Mbyte", false), 1e6);
  EXPECT_EQ(unit_factor(Quantity::bytes, "Gbyte", false), 1e9);
  EXPECT_EQ(unit_factor(Quantity::bytes, "Tbyte", false), 1e12);
  EXPECT_EQ(unit_factor(Quantity::bytes, "Kibyte", false), 1024.0);
  EXPECT_FALSE(unit_factor(Quantity::bytes, "usecond", false));
  // nvprof's KB is 1024 bytes.
  EXPECT_EQ(unit_factor(Quantity::bytes, "KB", true), 1024.0);
}

TEST(Units, NsightComputeTimesAndClocks) {
  using importing::Quantity;
  using importing::unit_factor;
  EXPECT_EQ(unit_factor(Quantity::time, "nsecond", false), 1e-9);
  EXPECT_EQ(unit_factor(Quantity::time, "usecond", false), 1e-6);
  EXPECT_EQ(unit_factor(Quantity::time, "msecond", false), 1e-3);
  EXPECT_EQ(unit_factor(Quantity::time, "second", false), 1.0);
  EXPECT_DOUBLE_EQ(*unit_factor(Quantity::frequency, "cycle/nsecond", false), 1e9);
  EXPECT_DOUBLE_EQ(*unit_factor(Quantity::frequency, "cycle/usecond", false), 1e6);
  EXPECT_EQ(unit_factor(Quantity::frequency, "cycle/second", false), 1.0);
  EXPECT_EQ(unit_factor(Quantity::frequency, "Ghz", false), 1e9);
  EXPECT_FALSE(unit_factor(Quantity::time, "Kbyte", false));
}

TEST(Units, ValuesWithThousandsSeparatorsAndNa) {
  using importing::Quantity;
  using importing::read_value;
  // "16,830" nsecond, "1.5" Mbyte, "0.0016" msecond; "n/a" is no value, not 0.
  EXPECT_DOUBLE_EQ(*read_value("16,830", "nsecond", Quantity::time, false, "f:1: ", "m"),
                   16830e-9);
  EXPECT_DOUBLE_EQ(*read_value("1.5", "Mbyte", Quantity::bytes, false, "f:1: ", "m"), 1.5e6);
  EXPECT_DOUBLE_EQ(*read_value("0.0016", "msecond", Quantity::time, false, "f:1: ", "m"), 1.6e-6);
  EXPECT_DOUBLE_EQ(*read_value("5,323,503,232.00", "byte", Quantity::bytes, false, "f:1: ", "m"),
                   5323503232.0);
  EXPECT_FALSE(read_value("n/a", "byte", Quantity::bytes, false, "f:1: ", "m"));
  EXPECT_FALSE(importing::parse_number("16,83"));  // not grouped by three
  const std::string e =
      error_of([] { read_value("2", "Kbyte", Quantity::time, false, "f:3: ", "Duration"); });
  EXPECT_NE(e.find("f:3: unit \"Kbyte\" of Duration is not"), std::string::npos) << e;
}

TEST(ImportNcuLong, AnNaValueNarrowsThatKernelWithANote) {
  // The real report with gemm_v1's L1 bytes (its line 33) printed as "n/a".
  std::string text;
  std::istringstream in(import_fixture("ncu-long-gemm-a100.csv"));
  for (std::string line; std::getline(in, line);) {
    if (line.find("gemm_v1") != std::string::npos &&
        line.find("l1tex__t_bytes") != std::string::npos)
      line = line.substr(0, line.rfind(",\"")) + ",\"n/a\"";
    text += line + "\n";
  }
  const ImportResult r = parse_report(text, "na.csv");
  const KernelRecord& gemm = find(r, "void gemm_v1");
  EXPECT_EQ(gemm.find_bytes("l1"), nullptr);
  EXPECT_DOUBLE_EQ(bytes(gemm, "dram"), 807658682624.0);
  EXPECT_NE(gemm.note.find("no L1 bytes"), std::string::npos) << gemm.note;
  EXPECT_NE(find(r, "void randomInit").find_bytes("l1"), nullptr);
  EXPECT_EQ(notes_with(r, {"na.csv: ", "no L1 byte metric", "for k2", "L1 not plotted"}).size(), 1u)
      << all_notes(r);
}

// ---------------------------------------------------------------------------------------
// Nsight Compute, one column per metric.

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

// A real raw page with FLOP and byte metrics: the GPP ladder and the reference kernels at
// the small size on an H200, one launch of each distinct kernel (fixtures/README.md). Its
// only FLOP metric is the DFMA count: FP64 FLOPs are 2 x DFMA, and the result says what the
// page lacks by precision, for the comparisons that read it (compare-counts).
TEST(ImportNcuWideReal, AnH200RawPageWithTheDfmaCountAlone) {
  const ImportResult r = parse_fixture("ncu-raw-h200-gpp-small.csv");
  ASSERT_EQ(r.kernels.size(), 12u);
  const KernelRecord& v1 = r.kernels[0];
  EXPECT_NE(v1.name.find("rooftop::kernels::gpp::CollapseAll<Kokkos::Cuda>"), std::string::npos);
  EXPECT_EQ(v1.invocations, 1);
  EXPECT_DOUBLE_EQ(v1.flops_fp64, 2 * 72907489280.0);
  EXPECT_EQ(v1.flops_fp32, 0.0);
  EXPECT_LT(v1.fma_fraction, 0.0) << "unknown without dadd and dmul";
  EXPECT_DOUBLE_EQ(bytes(v1, "l1"), 36883254592.0);
  EXPECT_DOUBLE_EQ(bytes(v1, "l2"), 46731197312.0);
  EXPECT_DOUBLE_EQ(bytes(v1, "dram"), 21780688640.0);
  EXPECT_DOUBLE_EQ(v1.time_s, 13063648e-9);
  EXPECT_EQ(r.flops_short, (std::map<std::string, std::string>{{"fp64", "without dadd, dmul"},
                                                               {"fp32", "not counted"},
                                                               {"fp16", "not counted"}}));
  // A page with every FLOP metric falls short of nothing.
  EXPECT_TRUE(parse_fixture("ncu-raw-h200-gpp-classic-failed.csv").flops_short.empty());
}

// The roofline sections (`--set detailed`/`full`, `--section SpeedOfLight_*RooflineChart`)
// collect a FLOP metric as its rate per elapsed cycle. No public raw page of them was found
// (fixtures/README.md), so the page is written here with the metric names and units those
// sections print: two launches of one FP64 and FP32 kernel, one of another kernel, no h*
// rate. The expected FLOPs are worked out from the page's own columns, as Nsight Compute's
// roofline does: (add + mul + 2 fma) per cycle x cycles per second x duration.
const char* const kRooflinePage =
    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"smsp__cycles_elapsed.avg.per_second\","
    "\"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed\","
    "\"dram__bytes.sum\"\n"
    "\"\",\"\",\"usecond\",\"cycle/nsecond\",\"inst/cycle\",\"inst/cycle\",\"inst/cycle\","
    "\"inst/cycle\",\"inst/cycle\",\"inst/cycle\",\"Mbyte\"\n"
    "\"0\",\"k\",\"12.51\",\"1.41\",\"0.50\",\"256.75\",\"3.25\",\"0\",\"8.50\",\"1.25\",\"4.20\"\n"
    "\"1\",\"k\",\"10.02\",\"1.50\",\"0.25\",\"300.00\",\"0\",\"2.00\",\"7.75\",\"0\",\"4.10\"\n"
    "\"2\",\"other\",\"3.10\",\"1.41\",\"0\",\"0\",\"0\",\"64.00\",\"0\",\"32.00\",\"1.00\"\n";

// The page's cells by column name, per row (its cells hold no commas).
std::vector<std::map<std::string, double>> page_rows(const std::string& page) {
  std::vector<std::vector<std::string>> cells;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string>& row = cells.emplace_back();
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) row.push_back(f.substr(1, f.size() - 2));
  }
  std::vector<std::map<std::string, double>> rows;
  for (std::size_t r = 2; r < cells.size(); ++r) {
    std::map<std::string, double>& row = rows.emplace_back();
    for (std::size_t c = 2; c < cells[0].size(); ++c) row[cells[0][c]] = std::stod(cells[r][c]);
  }
  return rows;
}

// A precision's FLOPs of the page's launches of `kernel` (IDs `ids`), FMA counted twice,
// and the FLOPs issued as FMAs.
std::pair<double, double> roofline_flops(const std::vector<std::map<std::string, double>>& rows,
                                         const std::vector<std::size_t>& ids, char p) {
  const auto rate = [&](const std::map<std::string, double>& row, const char* op) {
    return row.at(std::string("smsp__sass_thread_inst_executed_op_") + p + op +
                  "_pred_on.sum.per_cycle_elapsed");
  };
  double all = 0.0, fma = 0.0;
  for (std::size_t id : ids) {
    const auto& row = rows[id];
    const double cycles = row.at("smsp__cycles_elapsed.avg.per_second") * 1e9 *  // cycle/nsecond
                          row.at("gpu__time_duration.sum") * 1e-6;                  // usecond
    all += (rate(row, "add") + rate(row, "mul") + 2 * rate(row, "fma")) * cycles;
    fma += 2 * rate(row, "fma") * cycles;
  }
  return {all, fma};
}

TEST(ImportNcuWide, RooflineRatesGiveFlopsAsNcusRooflineDerivesThem) {
  const ImportResult r = parse_report(kRooflinePage, "roofline.csv");
  const auto rows = page_rows(kRooflinePage);
  ASSERT_EQ(r.kernels.size(), 2u);
  const KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.invocations, 2);
  const auto [fp64, fma64] = roofline_flops(rows, {0, 1}, 'd');
  const auto [fp32, fma32] = roofline_flops(rows, {0, 1}, 'f');
  EXPECT_REL(k.flops_fp64, fp64, 1e-12);
  EXPECT_REL(k.flops_fp32, fp32, 1e-12);
  EXPECT_REL(k.fma_fraction, (fma64 + fma32) / (fp64 + fp32), 1e-12);
  EXPECT_EQ(k.precision, "fp64");
  EXPECT_REL(k.time_s, 22.53e-6, 1e-12);
  EXPECT_REL(r.kernels[1].flops_fp32, roofline_flops(rows, {2}, 'f').first, 1e-12);
  EXPECT_EQ(r.kernels[1].fma_fraction, 0.0);
  // No h* rate: FP16 stays unknown, not a measured zero.
  EXPECT_EQ(r.flops_short, (std::map<std::string, std::string>{{"fp16", "not counted"}}));
  EXPECT_EQ(notes_with(r, {"no FP16 FLOP metric", "FP16 FLOPs not counted"}).size(), 1u)
      << all_notes(r);
  // The notes name the metrics the FLOPs came from.
  for (const char* p : {"FP64 FLOPs from smsp__sass_thread_inst_executed_op_d{add,mul,fma}",
                        "FP32 FLOPs from smsp__sass_thread_inst_executed_op_f{add,mul,fma}"})
    EXPECT_EQ(notes_with(r, {p, "_pred_on.sum.per_cycle_elapsed x smsp__cycles_elapsed.avg"
                                ".per_second x gpu__time_duration.sum", "an FMA two"})
                  .size(),
              1u)
        << all_notes(r);
  EXPECT_NE(k.note.find("FP64 FLOPs from per-cycle rates"), std::string::npos) << k.note;
}

TEST(ImportNcuWide, CountsComeBeforeRatesAndRatesNeedTheirClockAndDuration) {
  // A precision with its .sum counts is counted by them, its rates unread.
  const std::string head =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"smsp__cycles_elapsed.avg.per_second\","
      "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed\","
      "\"sm__sass_thread_inst_executed_op_dfma_pred_on.sum\"\n"
      "\"\",\"\",\"nsecond\",\"Ghz\",\"inst/cycle\",\"inst\"\n";
  ImportResult r = parse_report(head + "\"0\",\"k\",\"1000\",\"1\",\"5\",\"7\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp64, 2 * 7.0);
  EXPECT_TRUE(notes_with(r, {"per_cycle_elapsed x"}).empty()) << all_notes(r);
  // n/a counts: the rates stand in.
  r = parse_report(head + "\"0\",\"k\",\"1000\",\"1\",\"5\",\"n/a\"\n", "r.csv");
  EXPECT_DOUBLE_EQ(r.kernels[0].flops_fp64, 2 * 5.0 * 1e9 * 1000e-9);
  // Rates without a duration are no FLOP metric: FP64 is not counted.
  r = parse_report(
      "\"ID\",\"Kernel Name\",\"smsp__cycles_elapsed.avg.per_second\","
      "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed\"\n"
      "\"\",\"\",\"Ghz\",\"inst/cycle\"\n\"0\",\"k\",\"1\",\"5\"\n",
      "r.csv");
  EXPECT_EQ(r.flops_short.at("fp64"), "not counted");
  EXPECT_EQ(r.kernels[0].flops_fp64, 0.0);
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
  EXPECT_EQ(notes_with(r, {"h.csv: no FLOP metric", "FLOPs unknown, not 0 (the CUDA cores'; the "
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
  // No gpu__time_duration.sum: the SM cycles over their clock, said once; no FP64 or
  // FP16 metric, each said once.
  EXPECT_EQ(k.time_source, "ncu sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second");
  EXPECT_EQ(notes_with(r, {"time from sm__cycles_elapsed.avg"}).size(), 1u) << all_notes(r);
  EXPECT_EQ(notes_with(r, {"no FP16 FLOP metric", "FP16 FLOPs not counted"}).size(), 1u)
      << all_notes(r);
  EXPECT_EQ(notes_with(r, {"no FP64 FLOP metric"}).size(), 1u) << all_notes(r);
}

// Before Hopper the newer L1 definition is the _mem_lg and _mem_ds pair (Ampere, Ada),
// or _mem_lg alone where _mem_ds was not collected: at 128 B a cycle, marked newer.
TEST(EvaluateL1, TheNewerDefinitionFromTheLgAndDsPair) {
  const auto lookup = [](std::map<std::string, double> m) {
    return [m](const std::string& name) -> std::optional<double> {
      const auto it = m.find(name);
      return it == m.end() ? std::nullopt : std::optional<double>(it->second);
    };
  };
  const Counts pair = evaluate(lookup({{"l1tex__lsu_writeback_active_mem_lg.sum", 10},
                                       {"l1tex__lsu_writeback_active_mem_ds.sum", 6}}));
  ASSERT_TRUE(pair.bytes[0].bytes);
  EXPECT_DOUBLE_EQ(*pair.bytes[0].bytes, 16 * 128.0);
  EXPECT_TRUE(pair.bytes[0].newer);
  const Counts lg = evaluate(lookup({{"l1tex__lsu_writeback_active_mem_lg.sum", 10}}));
  ASSERT_TRUE(lg.bytes[0].bytes);
  EXPECT_DOUBLE_EQ(*lg.bytes[0].bytes, 10 * 128.0);
  EXPECT_NE(lg.bytes[0].from.find("l1tex__lsu_writeback_active_mem_lg.sum"), std::string::npos)
      << lg.bytes[0].from;
  const Counts older = evaluate(lookup({{"l1tex__t_bytes.sum", 64},
                                        {"l1tex__lsu_writeback_active_mem_lg.sum", 10}}));
  EXPECT_DOUBLE_EQ(*older.bytes[0].bytes, 64.0);
  EXPECT_FALSE(older.bytes[0].newer);
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

TEST(ImportNcu, AReportWithoutTimeIsTimedByTheTimingFileAlone) {
  // The real Pascal raw page without its gpu__time_duration column, timed by the nvprof
  // trace of the same repository (vecAdd<float>, joined without its template arguments):
  // no note or remark says "no time".
  const std::string text = import_fixture("ncu-raw-pascal-vectoradd.csv");
  const std::string cut = "\"gpu__time_duration\"";
  std::string notime;
  std::istringstream in(text);
  int column = -1;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    if (column < 0)
      for (std::size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == cut) column = static_cast<int>(i);
    if (column >= 0 && static_cast<std::size_t>(column) < cells.size())
      cells.erase(cells.begin() + column);
    for (std::size_t i = 0; i < cells.size(); ++i) notime += (i ? "," : "") + cells[i];
    notime += "\n";
  }
  ASSERT_GE(column, 0);
  const ImportResult r = parse_report(notime, "notime.csv",
                                      import_fixture("nvprof-trace-vectoradd-gtx1080.csv"),
                                      "nvprof-trace-vectoradd-gtx1080.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].time_source, "nvprof GPU trace, scaled to the report's launches");
  EXPECT_EQ(r.kernels[0].note.find("no time"), std::string::npos) << r.kernels[0].note;
  EXPECT_TRUE(notes_with(r, {"no time ("}).empty()) << all_notes(r);
}

TEST(ImportNcu, ATimingFileThatIsNoneIsOneLine) {
  const std::string e = error_of(
      [] { parse_fixture("ncu-long-gemm-a100.csv", "ncu-raw-pascal-vectoradd.csv"); });
  EXPECT_NE(e.find("ncu-raw-pascal-vectoradd.csv:"), std::string::npos) << e;
  EXPECT_NE(e.find(": an ncu-wide table, not an nvprof GPU trace"), std::string::npos) << e;
  const std::string junk = error_of(
      [] { parse_report(import_fixture("ncu-long-gemm-a100.csv"), "r.csv", "x", "t.csv"); });
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
  // The real report starts with its header (no ==PROF== line): the mark is on that line.
  const std::string unix_text = import_fixture("ncu-long-gemm-a100.csv");
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
