// rooftop_counters: Nsight Systems' kernel times: the SQLite export (two real exports, see
// fixtures/README.md) and `nsys stats --format csv` (two real cuda_gpu_kern_sum files, with
// and without GridXYZ/BlockXYZ, and a real cuda_gpu_trace), on
// their own (kernels with times and no counts) and as the timing file of a report of
// counts; match_timing's name matching on real names and apply_timing on records built in
// the test; hostile variants in one line.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "rooftop/counters/import.hpp"
#include "import_support.hpp"
#include "reader.hpp"
#include "timing.hpp"

namespace rooftop::counters {
namespace {

using rooftop::testing::error_of;
using testing::find;
using testing::has_note;
using testing::import_fixture;
using testing::parse_fixture;

std::string notes_of(const ImportResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

TEST(ImportNsysSqlite, EveryLaunchOfTheExportIsTimed) {
  const ImportResult r =
      parse_report(import_fixture("nsys-saxpy-perlmutter.sqlite"), "saxpy.sqlite");
  EXPECT_EQ(r.format, "nsys-sqlite");
  EXPECT_EQ(r.family, "Nsight Systems SQLite export");
  ASSERT_EQ(r.kernels.size(), 1u);
  const core::KernelRecord& k = r.kernels[0];
  EXPECT_EQ(k.name, "saxpy(double *, double *, double *, double, int)");
  EXPECT_EQ(k.invocations, 5);
  EXPECT_EQ(k.samples, 5);
  EXPECT_NEAR(k.time_s, (17704808 + 17733416 + 17700808 + 17720488 + 17713960) * 1e-9, 1e-15);
  EXPECT_NEAR(k.time_min, 17700808e-9, 1e-15);
  EXPECT_NEAR(k.time_max, 17733416e-9, 1e-15);
  EXPECT_EQ(k.source, "nsys-import");
  EXPECT_EQ(k.flops(), 0.0);
  EXPECT_TRUE(k.bytes.empty());
  EXPECT_TRUE(has_note(r, "counts neither FLOPs nor bytes")) << notes_of(r);
}

TEST(ImportNsysSqlite, TheNewerSchemaGroupsLaunchesByDemangledName) {
  const ImportResult r =
      parse_report(import_fixture("nsys-cloverleaf-2024.5.sqlite"), "clover.sqlite");
  ASSERT_EQ(r.kernels.size(), 91u);
  int launches = 0;
  for (const core::KernelRecord& k : r.kernels) launches += k.invocations;
  EXPECT_EQ(launches, 150);
  bool found = false;
  for (const core::KernelRecord& k : r.kernels)
    if (k.name.rfind("void clover::par_ranged2d_kernel<ideal_gas_kernel(", 0) == 0) {
      found = true;
      EXPECT_EQ(k.invocations, 4);
      EXPECT_NEAR(k.time_s, 2274043e-9, 1e-15);
    }
  EXPECT_TRUE(found);
}

TEST(ImportNsysSqlite, AsTimingItTimesAReportOfCountsAndChecksLaunches) {
  // The same kernel in an nvprof metrics report of 4 launches (the export has 5): the time
  // is scaled to the launches counted, with a note.
  const std::string metrics =
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
      "\"Max\",\"Avg\"\n"
      "\"Tesla V100\",\"saxpy(double*, double*, double*, double, int)\",4,\"flop_count_dp\","
      "\"FLOPs\",2000000,2000000,2000000\n";
  const ImportResult r = parse_report(metrics, "m.csv",
                                      import_fixture("nsys-saxpy-perlmutter.sqlite"), "s.sqlite");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].time_source,
            "nsys CUPTI_ACTIVITY_KIND_KERNEL, scaled to the metric invocations");
  EXPECT_NEAR(r.kernels[0].time_s, 88573480e-9 / 5 * 4, 1e-12);
  EXPECT_TRUE(has_note(r, "matched to \"saxpy(double *, double *, double *, double, int)\" by "
                          "its name up to '('"))
      << notes_of(r);
}

TEST(ImportNsysStats, TheKernelSummaryOfARealRun) {
  // cuda_gpu_kern_sum of a Llama 2 70B training run on H100s: 175 kernels, names quoted
  // where they hold commas.
  const ImportResult r = parse_fixture("nsys-kern-sum-llama2-70b.csv");
  EXPECT_EQ(r.format, "nsys cuda_gpu_kern_sum");
  ASSERT_EQ(r.kernels.size(), 175u);
  const core::KernelRecord& gemm = r.kernels[0];
  EXPECT_EQ(gemm.name,
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_"
            "execute_segment_k_off_kernel__5x_cublas");
  EXPECT_EQ(gemm.invocations, 2800);
  EXPECT_NEAR(gemm.time_s, 17081723060e-9, 1e-12);
  EXPECT_NEAR(gemm.time_min, 1538875e-9, 1e-15);
  EXPECT_NEAR(gemm.time_max, 11242549e-9, 1e-15);
  const core::KernelRecord& gather = r.kernels[1];
  EXPECT_EQ(gather.name, "ncclDevKernel_AllGather_RING_LL(ncclDevComm *, unsigned long, ncclWork *)");
  EXPECT_EQ(gather.invocations, 805);
  int launches = 0;
  double total = 0.0;
  for (const core::KernelRecord& k : r.kernels) {
    launches += k.invocations;
    total += k.time_s;
  }
  EXPECT_EQ(launches, 40605);
  EXPECT_NEAR(total, 56114154732e-9, 1e-6);
}

TEST(ImportNsysStats, NsysOwnLinesBeforeTheTableAreSkipped) {
  // `nsys stats` to stdout prints its own lines before the table.
  const std::string text =
      "Generating SQLite file run.sqlite from run.nsys-rep\n"
      "Processing [run.sqlite] with [/opt/nvidia/nsight-systems/reports/cuda_gpu_kern_sum.py]... \n" +
      import_fixture("nsys-kern-sum-llama2-70b.csv");
  const ImportResult r = parse_report(text, "stdout.txt");
  ASSERT_EQ(r.kernels.size(), 175u);
  EXPECT_EQ(r.kernels[0].invocations, 2800);
}

TEST(ImportNsysStats, GridAndBlockColumnsSplitAKernelIntoShapesThatAddUp) {
  // cuda_gpu_kern_sum with GridXYZ and BlockXYZ (unquoted, "  896    1    1") before Name:
  // int4gemv_rowtile4_bf16_kernel has a row per launch grid (896, 256, 1536, 4 and 512).
  const ImportResult r = parse_fixture("nsys-kern-sum-grid-qwen35.csv");
  EXPECT_EQ(r.format, "nsys cuda_gpu_kern_sum");
  ASSERT_EQ(r.kernels.size(), 6u);
  const core::KernelRecord& gemv = find(r, "cudalm::<unnamed>::int4gemv_rowtile4_bf16_kernel(");
  EXPECT_EQ(gemv.invocations, 5472 + 5472 + 2052 + 4104 + 2052);
  EXPECT_NEAR(gemv.time_s, (55605536.0 + 42051054 + 28870194 + 19942826 + 13372862) * 1e-9,
              1e-12);
  EXPECT_NEAR(gemv.time_min, 4416e-9, 1e-15);
  EXPECT_NEAR(gemv.time_max, 24576e-9, 1e-15);
  const core::KernelRecord& rms = find(r, "void cudalm::kernels::<unnamed>::qwen35_rmsnorm");
  EXPECT_EQ(rms.invocations, 5586);
}

TEST(ImportNsysStats, TheGpuTraceOfARealRunTimesEachKernelAndSkipsCopies) {
  // cuda_gpu_trace of a VGG-11 inference on an A100: 57 rows, one host-to-device copy and
  // two memsets among them; names quoted where they hold commas.
  const ImportResult r = parse_fixture("nsys-gpu-trace-vgg11-a100.csv");
  EXPECT_EQ(r.format, "nsys cuda_gpu_trace");
  ASSERT_EQ(r.kernels.size(), 15u);  // 17 names less the copy and the memset
  for (const core::KernelRecord& k : r.kernels) EXPECT_NE(k.name.rfind("[CUDA", 0), 0u) << k.name;
  const core::KernelRecord& nchw = find(r, "void cudnn::ops::nchwToNhwcKernel<float, float, float");
  EXPECT_EQ(nchw.invocations, 14);
  EXPECT_NEAR(nchw.time_s, 128354e-9, 1e-15);
  EXPECT_NEAR(nchw.time_min, 3393e-9, 1e-15);
  EXPECT_NEAR(nchw.time_max, 21760e-9, 1e-15);
  const core::KernelRecord& gemv = find(r, "void gemmSN_TN_kernel<float, (int)128, (int)16,");
  EXPECT_EQ(gemv.name,
            "void gemmSN_TN_kernel<float, (int)128, (int)16, (int)2, (int)4, (int)2, (int)2, "
            "(bool)1, cublasGemvTensorStridedBatched<const float>, "
            "cublasGemvTensorStridedBatched<const float>, "
            "cublasGemvTensorStridedBatched<float>>(cublasGemmSmallNParams<T9, T10, T11, T1>)");
  EXPECT_EQ(gemv.invocations, 2);
  EXPECT_NEAR(gemv.time_s, (377793 + 62689) * 1e-9, 1e-15);
  EXPECT_EQ(find(r, "ampere_sgemm_128x32_sliced1x4_tn").invocations, 1);
}

TEST(MatchTiming, AMangledNameMatchesTheDemangledOneByItsBase) {
  importing::Timing t;
  t.file = "t";
  t.add_launch("saxpy(double *, double *, double *, double, int)", 1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing({"_Z5saxpyPdS_S_di"}, t, notes);
  ASSERT_NE(m[0], nullptr);
  EXPECT_EQ(m[0]->name, "saxpy(double *, double *, double *, double, int)");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("by its name up to '('"), std::string::npos) << notes[0];
}

TEST(MatchTiming, AMangledNameDemangledExactlyNeedsNoNote) {
  importing::Timing t;
  t.file = "t";
  t.add_launch("saxpy(double*, double*, double*, double, int)", 1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing({"_Z5saxpyPdS_S_di"}, t, notes);
  ASSERT_NE(m[0], nullptr);
  EXPECT_TRUE(notes.empty());
}

TEST(MatchTiming, ANameCutShortMatchesTheOneEntryItStarts) {
  importing::Timing t;
  t.file = "t";
  t.add_launch("ampere_sgemm_32x32_sliced1x4_tn", 1.0);
  t.add_launch("ampere_gcgemm_64x64_nt", 1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing({"ampere_sgemm_32x32_sliced..."}, t, notes);
  ASSERT_NE(m[0], nullptr);
  EXPECT_EQ(m[0]->name, "ampere_sgemm_32x32_sliced1x4_tn");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("cut short"), std::string::npos) << notes[0];
}

TEST(MatchTiming, TwoLambdasOfOneTemplateAreToldApartByTheirNumbers) {
  // Two lambdas of one template (CloverLeaf's names as nsys printed them) share the name
  // up to '(': the mangled name of the first ("{lambda(int, int)#1}" demangled) joins the
  // entry of "(instance 1)" by its words.
  importing::Timing t;
  t.file = "t";
  t.add_launch("void clover::par_ranged2d_kernel<build_field(global_variables &)::"
               "[lambda(int, int) (instance 1)]>(clover::Range2d, T1)", 1.0);
  t.add_launch("void clover::par_ranged2d_kernel<build_field(global_variables &)::"
               "[lambda(int, int) (instance 2)]>(clover::Range2d, T1)", 1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing(
      {"_ZN6clover19par_ranged2d_kernelIZ11build_fieldR16global_variablesEUliiE_EEvNS_7Range2dET_"},
      t, notes);
  ASSERT_NE(m[0], nullptr);
  EXPECT_NE(m[0]->name.find("(instance 1)"), std::string::npos) << m[0]->name;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("by its words"), std::string::npos) << notes[0];
}

TEST(MatchTiming, AnAmbiguousNameTakesNothing) {
  // Two entries whose names differ only in their arguments: a third spelling takes neither.
  importing::Timing t;
  t.file = "t";
  t.add_launch("void scale<float>(float *, int)", 1.0);
  t.add_launch("void scale<float>(float *, long)", 1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing({"void scale<float>(float*, unsigned)"}, t, notes);
  EXPECT_EQ(m[0], nullptr);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("matches several kernels"), std::string::npos) << notes[0];
}

// Nsight Compute's and CUPTI's spellings of PyTorch's kernels (the H200 ncu log and trace
// of torch_model.py) join by their words; a number still tells kernels apart.
TEST(MatchTiming, NsightComputesSpellingJoinsCuptisByItsWords) {
  importing::Timing t;
  t.file = "t";
  t.add_launch("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
               "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
               1.0);
  t.add_launch("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<float>, "
               "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
               1.0);
  std::vector<std::string> notes;
  const auto m = importing::match_timing(
      {"void at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>, std::array<char *, "
       "3>>(int, T2, T3)",
       "void at::vectorized_elementwise_kernel<2, at::CUDAFunctor_add<float>, std::array<char *, "
       "3>>(int, T2, T3)"},
      t, notes);
  ASSERT_NE(m[0], nullptr);
  EXPECT_EQ(m[0]->name.rfind("void at::native::vectorized_elementwise_kernel<4,", 0), 0u);
  EXPECT_EQ(m[1], nullptr) << "<2, ...> is neither <4, ...> nor <8, ...>";
}

// apply_timing: a timing file's entries joined to a report's records.

TEST(Timing, ATimingFileTimesTheRecordsByKernelName) {
  // Three kernels of a report; the trace times the first's three launches and the
  // second, spelled as nvprof spells template arguments; it has no time for the third,
  // which keeps its own.
  std::vector<core::KernelRecord> kernels(3);
  const char* names[] = {"daxpy(int, double, const double *, double *)",
                         "void dgemm_tiled<64>(int, const double *, const double *, double *)",
                         "sscal(int, float, float *)"};
  const int launches[] = {3, 1, 1};
  for (std::size_t i = 0; i < 3; ++i) {
    kernels[i].name = names[i];
    kernels[i].id = "k" + std::to_string(i + 1);
    kernels[i].invocations = launches[i];
    kernels[i].time_s = 1.0;
    kernels[i].time_source = "ncu gpu__time_duration.sum";
  }
  importing::Timing t;
  t.file = "trace.csv";
  t.kind = "nvprof GPU trace";
  for (double us : {17.248, 16.832, 16.920})
    t.add_launch("daxpy(int, double, const double *, double *)", us * 1e-6);
  t.add_launch("void dgemm_tiled<int=64>(int, double const *, double const *, double*)", 1600e-6);
  t.add_launch("[CUDA memcpy HtoD]", 1e-6);
  std::vector<std::string> notes;
  importing::apply_timing(kernels, t, notes);
  EXPECT_EQ(kernels[0].time_source, "nvprof GPU trace");
  EXPECT_NEAR(kernels[0].time_s, (17.248 + 16.832 + 16.920) * 1e-6, 1e-12);
  EXPECT_NEAR(kernels[0].time_min, 16.832e-6, 1e-12);
  EXPECT_EQ(kernels[0].samples, 3);
  EXPECT_EQ(kernels[1].time_source, "nvprof GPU trace");
  EXPECT_NEAR(kernels[1].time_s, 1600e-6, 1e-12);
  EXPECT_EQ(kernels[2].time_source, "ncu gpu__time_duration.sum");
  EXPECT_EQ(kernels[2].time_s, 1.0);
  ImportResult r;
  r.notes = notes;
  EXPECT_EQ(testing::notes_with(r, {"k2", "matched to \"void dgemm_tiled<int=64>("}).size(), 1u)
      << notes_of(r);
  EXPECT_EQ(testing::notes_with(r, {"trace.csv has no time for k3", "own time kept"}).size(), 1u)
      << notes_of(r);
  EXPECT_FALSE(has_note(r, "not in the report")) << notes_of(r);  // the copy is no kernel
}

TEST(Timing, ARecordWithoutTimeLosesItsNoTimeRemark) {
  std::vector<core::KernelRecord> kernels(1);
  kernels[0].name = "k(int)";
  kernels[0].id = "k1";
  kernels[0].invocations = 2;
  kernels[0].note = "no L1 bytes; no time";
  importing::Timing t;
  t.file = "t.csv";
  t.kind = "nvprof GPU trace";
  t.add_launch("k(int)", 2e-6);
  t.add_launch("k(int)", 4e-6);
  std::vector<std::string> notes;
  importing::apply_timing(kernels, t, notes);
  EXPECT_EQ(kernels[0].time_source, "nvprof GPU trace");
  EXPECT_DOUBLE_EQ(kernels[0].time_s, 6e-6);
  EXPECT_EQ(kernels[0].note, "no L1 bytes");
  EXPECT_TRUE(notes.empty());
}

TEST(HostileNsys, ATruncatedExportIsOneLine) {
  const std::string db = import_fixture("nsys-saxpy-perlmutter.sqlite");
  for (std::size_t keep : {std::size_t{100}, std::size_t{4096}, db.size() / 2}) {
    const std::string e = error_of([&] { parse_report(db.substr(0, keep), "cut.sqlite"); });
    EXPECT_EQ(e.rfind("cut.sqlite: ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(HostileNsys, JunkAfterTheMagicIsOneLine) {
  std::string db = import_fixture("nsys-saxpy-perlmutter.sqlite");
  for (std::size_t i = 100; i < db.size(); i += 7) db[i] = static_cast<char>(i * 131);
  const std::string e = error_of([&] { parse_report(db, "junk.sqlite"); });
  EXPECT_EQ(e.rfind("junk.sqlite: ", 0), 0u) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(HostileNsys, HugeNumbersAndMillionLineFiles) {
  const std::string kern_sum = import_fixture("nsys-kern-sum-llama2-70b.csv");
  const std::string huge = kern_sum + "1.0,1" + std::string(400, '0') + ",1,1,1,1,1,0,big\n";
  const std::string e = error_of([&] { parse_report(huge, "huge.csv"); });
  EXPECT_NE(e.find("huge.csv:177:"), std::string::npos) << e;  // after the 176 lines
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  // A million launches of one kernel: read, and quickly.
  std::string many = "Start (ns),Duration (ns),CorrId,GrdX,Name\n";
  for (int i = 0; i < 1000000; ++i) many += "1,2,3,4,k\n";
  const auto start = std::chrono::steady_clock::now();
  const ImportResult r = parse_report(many, "many.csv");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].invocations, 1000000);
  // A million lines of junk under the header: one line naming the first.
  std::string junk = "Start (ns),Duration (ns),CorrId,GrdX,Name\n";
  for (int i = 0; i < 1000000; ++i) junk += "1,x\"y,3\n";
  const std::string j = error_of([&] { parse_report(junk, "junk.csv"); });
  EXPECT_NE(j.find("junk.csv:2:"), std::string::npos) << j;
}

}  // namespace
}  // namespace rooftop::counters
