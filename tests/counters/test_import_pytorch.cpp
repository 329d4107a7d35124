// rooftop_counters: PyTorch profiler traces (export_chrome_trace, .json.gz), real traces of
// HolisticTraceAnalysis's and TraceLens's test data (see fixtures/README.md): device kernels
// summed by name, a with_flops profile's trace that holds no FLOPs (PyTorch exports none),
// operator "flops" (where a trace carries them) joined to the kernels they launched or, where
// an operator launched several kernels per call, given to a record of the operator; hostile
// variants (truncated gzip, a gzip bomb, deep nesting, huge numbers) in one line.

#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/counters/import.hpp"
#include "import_support.hpp"

namespace rooftop::counters {
namespace {

using nlohmann::json;
using rooftop::testing::error_of;
using testing::has_note;
using testing::import_fixture;

std::string gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The trace inflated (the test's own zlib, not the reader's).
std::string inflated(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  std::string out(std::size_t{8} << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

const core::KernelRecord* named(const ImportResult& r, const std::string& prefix) {
  for (const core::KernelRecord& k : r.kernels)
    if (k.name.rfind(prefix, 0) == 0) return &k;
  return nullptr;
}

TEST(ImportPytorch, KernelsOfACompressedTraceAreSummedByName) {
  const ImportResult r = parse_report(import_fixture("pytorch-simple-add.json.gz"), "t.json.gz");
  EXPECT_EQ(r.format, "pytorch-trace");
  EXPECT_EQ(r.family, "PyTorch profiler trace");
  int launches = 0;
  double total = 0.0;
  for (const core::KernelRecord& k : r.kernels) {
    launches += k.invocations;
    total += k.time_s;
    EXPECT_EQ(k.source, "pytorch-import");
  }
  EXPECT_EQ(launches, 79);
  EXPECT_NEAR(total, 10728e-6, 1e-9);  // the durations, in microseconds, of every kernel event
  const core::KernelRecord* sgemm = named(r, "ampere_sgemm_32x32_sliced1x4_tn");
  ASSERT_NE(sgemm, nullptr);
  EXPECT_EQ(sgemm->invocations, 6);
  EXPECT_NEAR(sgemm->time_s, 2673e-6, 1e-9);
  EXPECT_TRUE(has_note(r, "t.json.gz: no operator carries \"flops\"")) << r.notes.size();
}

TEST(ImportPytorch, AWithFlopsProfileExportsNoFlopsAndTheNoteSaysSo) {
  // A real trace of a profile taken with record_shapes=True and with_flops=True (torch 2.6,
  // an H100): its header says "with_flops": 1, yet none of its 26 aten::addmm events, nor
  // any other operator, carries "flops": PyTorch keeps the counts out of the trace.
  const ImportResult r =
      parse_report(import_fixture("pytorch-h100-bert-small-with-flops.json.gz"), "b.json.gz");
  EXPECT_EQ(r.format, "pytorch-trace");
  ASSERT_EQ(r.kernels.size(), 11u);
  int launches = 0;
  double total = 0.0;
  for (const core::KernelRecord& k : r.kernels) {
    launches += k.invocations;
    total += k.time_s;
    EXPECT_EQ(k.flops(), 0.0) << k.name;
  }
  EXPECT_EQ(launches, 60);
  EXPECT_NEAR(total, 307.197e-6, 1e-12);  // the kernel events' durations, in microseconds
  const core::KernelRecord* flash = named(r, "void pytorch_flash::flash_fwd_kernel<");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->invocations, 4);
  EXPECT_NEAR(flash->time_s, (10.08 + 9.12 + 9.12 + 9.088) * 1e-6, 1e-12);
  EXPECT_TRUE(has_note(r, "b.json.gz: profiled with with_flops=True, but no operator"))
      << r.notes.size();
  EXPECT_TRUE(has_note(r, "carries \"flops\" (PyTorch's trace export writes none"))
      << r.notes.size();
}

TEST(ImportPytorch, TheSameTraceUncompressedReadsTheSame) {
  const std::string gz = import_fixture("pytorch-triton.json.gz");
  const ImportResult a = parse_report(gz, "a.json.gz");
  const ImportResult b = parse_report(inflated(gz), "b.json");
  ASSERT_EQ(a.kernels.size(), 1u);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].name, b.kernels[0].name);
  EXPECT_EQ(a.kernels[0].time_s, b.kernels[0].time_s);
}

// The real trace with "flops" and "Input type" added to the operator that launched a
// kernel of one launch (what with_flops=True records on it).
std::string with_flops(const std::string& kernel_prefix, double flops, std::string& kernel) {
  json doc = json::parse(inflated(import_fixture("pytorch-simple-add.json.gz")));
  std::map<std::string, int> launches;
  for (const json& e : doc["traceEvents"])
    if (e.value("cat", "") == "kernel") ++launches[e["name"].get<std::string>()];
  long long external = -1;
  for (const json& e : doc["traceEvents"]) {
    const std::string name = e.value("name", "");
    if (e.value("cat", "") == "kernel" && name.rfind(kernel_prefix, 0) == 0 &&
        launches[name] == 1 && e["args"].contains("External id")) {
      external = e["args"]["External id"].get<long long>();
      kernel = name;
    }
  }
  EXPECT_GE(external, 0);
  for (json& e : doc["traceEvents"])
    if (e.value("cat", "") == "cpu_op" && e["args"].value("External id", -2LL) == external) {
      e["args"]["flops"] = flops;
      e["args"]["Input type"] = json::array({"float"});
    }
  return doc.dump();
}

TEST(ImportPytorch, OperatorFlopsGoToTheKernelTheyLaunched) {
  std::string kernel;
  const ImportResult r = parse_report(with_flops("void at::native::", 3.0e6, kernel), "f.json");
  const core::KernelRecord* k = named(r, kernel);
  ASSERT_NE(k, nullptr) << kernel;
  EXPECT_EQ(k->flops_fp32, 3.0e6);
  EXPECT_EQ(k->precision, "fp32");
  EXPECT_TRUE(k->bytes.empty());
  EXPECT_NE(k->note.find("compute roofs only"), std::string::npos) << k->note;
  EXPECT_TRUE(has_note(r, "FLOPs but no byte counts, so no arithmetic intensity")) << r.notes[0];
}

// The real MI250 trace with the "flops" that with_flops=True records on aten::addmm (2 M N K:
// its inputs [5, 128] and [128, 128]) added to it. The operator launched two kernels per call
// (a bias copy and the GEMM), so its FLOPs go to a record of its own.
TEST(ImportPytorch, AnOperatorWhoseFlopsSpanSeveralKernelsGetsARecord) {
  json doc = json::parse(inflated(import_fixture("pytorch-mi250-minitoy.json.gz")));
  const double flops = 2.0 * 5 * 128 * 128;
  int marked = 0;
  for (json& e : doc["traceEvents"])
    if (e.value("cat", "") == "cpu_op" && e.value("name", "") == "aten::addmm") {
      e["args"]["flops"] = flops;
      ++marked;
    }
  ASSERT_EQ(marked, 1);
  const ImportResult r = parse_report(doc.dump(), "mi250.json");
  const core::KernelRecord* op = named(r, "[operator] aten::addmm");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->invocations, 1);
  EXPECT_NEAR(op->time_s, (6.88 + 17.6) * 1e-6, 1e-12);  // its two kernels
  EXPECT_EQ(op->flops_fp32, flops);
  EXPECT_EQ(op->precision, "fp32");
  EXPECT_TRUE(op->bytes.empty());
  EXPECT_NE(op->note.find("compute roofs only"), std::string::npos) << op->note;
  // Its kernels keep their times and get no FLOPs.
  const core::KernelRecord* gemm = named(r, "Cijk_Alik_Bljk_SB_Bias");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->flops(), 0.0);
  EXPECT_TRUE(has_note(r, "\"[operator] aten::addmm\" holds them")) << r.notes.size();
  // As the timing file of a report that counts the GEMM, the trace's other 11 kernel names
  // are not in the report; the operator is no kernel and is not counted among them.
  const std::string ncu = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                          "\"0\",\"" + gemm->name + "\",\"dram__bytes.sum\",\"byte\",\"100\"\n";
  const ImportResult timed = parse_report(ncu, "r.csv", doc.dump(), "mi250.json");
  ASSERT_EQ(timed.kernels.size(), 1u);
  EXPECT_NEAR(timed.kernels[0].time_s, 17.6e-6, 1e-12);
  EXPECT_TRUE(has_note(timed, "mi250.json: 11 timed kernel name(s) not in the report"))
      << timed.notes.size();
}

TEST(HostilePytorch, ATruncatedGzipIsOneLine) {
  const std::string gz = import_fixture("pytorch-simple-add.json.gz");
  const std::string e = error_of([&] { parse_report(gz.substr(0, gz.size() / 2), "cut.gz"); });
  EXPECT_EQ(e, "cut.gz: the gzip stream stops short (truncated file)");
}

TEST(HostilePytorch, AGzipBombIsRefused) {
  const std::string bomb = gzip(std::string((std::size_t{256} << 20) + 1, ' '));
  ASSERT_LT(bomb.size(), std::size_t{1} << 20);
  const std::string e = error_of([&] { parse_report(bomb, "bomb.gz"); });
  EXPECT_NE(e.find("bomb.gz: inflates to more than 256 MiB"), std::string::npos) << e;
}

TEST(HostilePytorch, DeepNestingAndHugeNumbersAreOneLine) {
  const std::string deep = "{\"traceEvents\": " + std::string(100000, '[');
  const std::string d = error_of([&] { parse_report(deep, "deep.json"); });
  EXPECT_NE(d.find("deep.json: JSON nested deeper than"), std::string::npos) << d;
  const std::string huge =
      "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 1e400}]}";
  const std::string h = error_of([&] { parse_report(huge, "huge.json"); });
  EXPECT_EQ(h.rfind("huge.json: ", 0), 0u) << h;
  EXPECT_EQ(h.find('\n'), std::string::npos) << h;
  const std::string cut = inflated(import_fixture("pytorch-triton.json.gz"));
  const std::string c = error_of([&] { parse_report(cut.substr(0, cut.size() / 2), "c.json"); });
  EXPECT_NE(c.find("c.json: not a readable JSON trace"), std::string::npos) << c;
}

}  // namespace
}  // namespace rooftop::counters
