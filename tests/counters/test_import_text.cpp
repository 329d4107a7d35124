// rooftop_counters: Nsight Compute's plain-text output (`ncu --metrics ...` to the console or
// --log-file), told from CSV by its content. The fixtures are real logs: the older layout (no
// "Metric Name" row, a launch date in the header): four processes, each launching one kernel,
// with the program's own output between ncu's lines; Kbyte and Mbyte, sectors, thousands
// separators; and two of the newer layout (the details page, `ncu` with no --metrics): one
// launch on an A100 (2023), three on an L4 (2025). Hostile variants end in one line naming
// the file.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "import_support.hpp"
#include "rooftop/counters/import.hpp"
#include "support.hpp"

namespace rooftop::counters {
namespace {

using rooftop::testing::error_of;

const std::string kLog = std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-text-2022.log";

const std::string kLog2023 =
    std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-text-2023-vector-add-a100.log";
const std::string kLog2025 =
    std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-text-2025-int8-mma-3-launches.log";

std::string log_text() {
  const std::string text = rooftop::testing::read_bytes(kLog);
  EXPECT_FALSE(text.empty()) << kLog;
  return text;
}

using testing::has_note;

TEST(ImportNcuText, TheLaunchesOfOneKernelAreSummedFromTheLog) {
  const ImportResult r = parse_report(log_text(), "ncu.log");
  EXPECT_EQ(r.format, "ncu-text");
  ASSERT_EQ(r.kernels.size(), 1u);
  const core::KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name,
            "blurKernelGlobal(unsigned char *, const unsigned char *, const float *, int, int)");
  EXPECT_EQ(k.invocations, 4);
  EXPECT_EQ(k.source, "ncu-import");
  // dram__bytes.sum of the four launches: 542.98 Kbyte + 2.69 + 6.33 + 60.49 Mbyte.
  const core::LevelBytes* dram = k.find_bytes("dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ(dram->bytes, 542.98e3 + 2.69e6 + 6.33e6 + 60.49e6);
}

TEST(ImportNcuText, TheNewerLayoutIsReadFromItsSpeedOfLightTable) {
  // `ncu ./vector-add.exe` on an A100: no ==PROF== lines, one launch, the Duration in usecond.
  const ImportResult r = parse_report(rooftop::testing::read_bytes(kLog2023), "a100.log");
  EXPECT_EQ(r.format, "ncu-text");
  ASSERT_EQ(r.kernels.size(), 1u);
  const core::KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name, "addVectorsInto(float *, float *, float *, int)");
  EXPECT_EQ(k.invocations, 1);
  EXPECT_NEAR(k.time_s, 299.23e-6, 1e-15);
  EXPECT_EQ(k.time_source, "ncu gpu__time_duration.sum");
  EXPECT_EQ(k.flops(), 0.0);  // the default sections count no FLOPs
  EXPECT_TRUE(has_note(r, "a100.log: no FLOP metric")) << r.notes.size();
}

TEST(ImportNcuText, EveryLaunchOfA2025LogIsReadPastTheRulesBetweenItsNotes) {
  // `ncu --set full` of three launches of one kernel, the program's own output before them.
  // Newer versions rule off their OPT/INF notes with "----- -----"; one such rule is the
  // last before the second and the third launch's headers, which were once taken for rows
  // of a table and lost, the three launches read as one.
  const ImportResult r = parse_report(rooftop::testing::read_bytes(kLog2025), "l4.log");
  ASSERT_EQ(r.kernels.size(), 1u);
  const core::KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.invocations, 3);
  EXPECT_EQ(k.name.substr(0, k.name.find('(')), "int8_ptx_mma_k32_true_db");
  EXPECT_EQ(k.name.substr(k.name.find('(')),
            "(const signed char *, const signed char *, int *, int, int, int)");
  // The Duration rows of the three launches: 41.18, 42.18 and 726.46 us.
  EXPECT_NEAR(k.time_s, (41.18 + 42.18 + 726.46) * 1e-6, 1e-15);
  EXPECT_NEAR(k.time_min, 41.18e-6, 1e-15);
  EXPECT_NEAR(k.time_max, 726.46e-6, 1e-15);
  EXPECT_EQ(k.time_source, "ncu gpu__time_duration.sum");
  EXPECT_EQ(k.find_bytes("dram"), nullptr);  // the details page gives throughputs, no bytes
}

TEST(ImportNcuText, AnInt8MmaKernelsSetFullPageCountsNoTensorOps) {
  // `--set full`'s sections print the tensor pipes' utilization in their notes only, no
  // sm__ops_path_tensor_* nor sm__inst_executed_pipe_tensor* row: this IMMA kernel has no
  // tensor ops and no tensor instructions, and is not placed against tc_int8.
  const ImportResult r = parse_report(rooftop::testing::read_bytes(kLog2025), "l4.log");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_TRUE(r.kernels[0].tensor_ops.empty());
  EXPECT_EQ(r.kernels[0].tensor_instructions, 0.0);
  EXPECT_EQ(r.kernels[0].tensor_unit(), nullptr);
  const std::string log = rooftop::testing::read_bytes(kLog2025);
  EXPECT_EQ(log.find("sm__ops_path_tensor"), std::string::npos);
  EXPECT_EQ(log.find("pipe_tensor"), std::string::npos);
}

TEST(ImportNcuText, MissingMetricsNarrowTheChartWithNotes) {
  const ImportResult r = parse_report(log_text(), "ncu.log");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].flops(), 0.0);
  EXPECT_EQ(r.kernels[0].find_bytes("l1"), nullptr);
  EXPECT_EQ(r.kernels[0].time_source, "none");
  EXPECT_TRUE(has_note(r, "ncu.log: no FLOP metric")) << r.notes.size();
  EXPECT_TRUE(has_note(r, "ncu.log: no time")) << r.notes.size();
}

TEST(ImportNcuText, TheSectorsGiveTheBytesWhereTheByteCountIsNotAsked) {
  // The same log without its dram__bytes.sum rows: the bytes come from the sectors x 32.
  std::string text = log_text();
  std::string kept;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end == std::string::npos ? end : end - pos + 1);
    if (line.rfind("dram__bytes.sum", 0) != 0) kept += line;
    pos = end == std::string::npos ? text.size() : end + 1;
  }
  const ImportResult r = parse_report(kept, "ncu.log");
  ASSERT_EQ(r.kernels.size(), 1u);
  const core::LevelBytes* dram = r.kernels[0].find_bytes("dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ(dram->bytes,
                   32.0 * (14988 + 1980 + 67688 + 16292 + 175484 + 22464 + 1509656 + 380656));
}

TEST(ImportNcuText, ReadBytesWithoutWritesAreKeptAsReadsOnly) {
  // A real log whose hand-picked metric list has dram__bytes_read.sum and no write count
  // (EinNet's artifact, fixtures/README.md): each kernel keeps its reads as DRAM bytes,
  // marked as reads only, and a note says that the intensity they give is an upper bound.
  const std::string path =
      std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-text-2023-dram-read-only.log";
  const ImportResult r = parse_report(rooftop::testing::read_bytes(path), "r.log");
  EXPECT_EQ(r.format, "ncu-text");
  ASSERT_EQ(r.kernels.size(), 2u);
  const double reads[] = {9.45e6, 16.91e6};  // Mbyte, 10^6 bytes
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(r.kernels[i].name);
    const core::LevelBytes* dram = r.kernels[i].find_bytes("dram");
    ASSERT_NE(dram, nullptr);
    EXPECT_DOUBLE_EQ(dram->bytes, reads[i]);
    EXPECT_EQ(dram->counted, "read");
    EXPECT_NE(r.kernels[i].note.find("DRAM reads only"), std::string::npos) << r.kernels[i].note;
  }
  EXPECT_TRUE(has_note(r, "r.log: DRAM bytes are reads only (dram__bytes_read.sum; no write "
                          "count collected): its DRAM intensity is an upper bound"));
  EXPECT_FALSE(has_note(r, "no DRAM byte metric"));
}

TEST(ImportNcuText, ATimingFileTimesTheLogsKernelsByName) {
  // The log has no time; an nsys export of another program times none of its kernels, so
  // the join leaves it without time and says so; a file that is no timing file is an error.
  const std::string db = rooftop::testing::read_bytes(std::string(ROOFTOP_TEST_FIXTURES) +
                                                      "/import/nsys-saxpy-perlmutter.sqlite");
  const ImportResult r = parse_report(log_text(), "ncu.log", db, "t.sqlite");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].time_source, "none");
  EXPECT_TRUE(has_note(r, "t.sqlite has no time for k1")) << r.notes.size();
  EXPECT_TRUE(has_note(r, "t.sqlite: 1 timed kernel name(s) not in the report")) << r.notes.size();
  const std::string e = error_of([&] { parse_report(log_text(), "ncu.log", "x", "t.csv"); });
  EXPECT_NE(e.find("t.csv: a file in no format rooftop reads"), std::string::npos) << e;
}

TEST(HostileNcuText, AValueCutShortIsOneLineNamingTheFileAndLine) {
  const std::string text = log_text();
  const std::string cut = text.substr(0, text.find("14,988") + 4);  // "14,9"
  const std::string e = error_of([&] { parse_report(cut, "cut.log"); });
  EXPECT_NE(e.find("cut.log:17: \"14,9\" for dram__sectors_read.sum is not a number"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(HostileNcuText, AHugeValueIsRefused) {
  std::string text = log_text();
  text.replace(text.find("14,988"), 6, "1" + std::string(400, '0'));
  const std::string e = error_of([&] { parse_report(text, "huge.log"); });
  EXPECT_NE(e.find("huge.log:17:"), std::string::npos) << e;
  EXPECT_NE(e.find("is not a number"), std::string::npos) << e;
}

TEST(HostileNcuText, BinaryJunkIsNotAReport) {
  std::string junk(4096, '\0');
  for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 131 + 7) % 256);
  const std::string e = error_of([&] { parse_report(junk, "junk.bin"); });
  EXPECT_NE(e.find("junk.bin"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(HostileNcuText, AMillionLinesOfProgramOutputReadInLinearTime) {
  const std::string text = log_text();
  std::string big;
  big.reserve(text.size() + 20'000'000);
  for (int i = 0; i < 1'000'000; ++i) big += "step " + std::to_string(i) + ", Context 1\n";
  big += text;
  const auto t0 = std::chrono::steady_clock::now();
  const ImportResult r = parse_report(big, "big.log");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].invocations, 4);
}

}  // namespace
}  // namespace rooftop::counters
