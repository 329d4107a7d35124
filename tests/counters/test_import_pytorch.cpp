// rooftop_counters: PyTorch profiler traces (export_chrome_trace, .json.gz), real traces of
// HolisticTraceAnalysis's and TraceLens's test data (see fixtures/README.md): device kernels
// summed by name, a with_flops profile's trace that holds no FLOPs (PyTorch exports none),
// operator "flops" (where a trace carries them) joined to the kernels they launched or, where
// an operator launched several kernels per call, given to a record of the operator; hostile
// variants (truncated gzip, a gzip bomb, deep nesting, huge numbers) in one line.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "operator_flops.hpp"
#include "rooftop/counters/import.hpp"
#include "import_support.hpp"

namespace rooftop::counters {
namespace {

using nlohmann::json;
using rooftop::testing::error_of;
using testing::has_note;
using testing::gzip;
using testing::import_fixture;
using testing::inflated;

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

TEST(ImportPytorch, AWithFlopsProfileGetsItsFlopsFromInputDims) {
  // A real trace of a profile taken with record_shapes=True and with_flops=True (torch 2.6,
  // an H100, bfloat16): its header says "with_flops": 1, yet none of its 26 aten::addmm
  // events, nor any other operator, carries "flops". Their "Input Dims" give them: addmm's
  // [bias, mat1 [M, K], mat2 [K, N]] is 2 M N K, the bias add not counted.
  const ImportResult r =
      parse_report(import_fixture("pytorch-h100-bert-small-with-flops.json.gz"), "b.json.gz");
  EXPECT_EQ(r.format, "pytorch-trace");
  ASSERT_EQ(r.kernels.size(), 11u);
  int launches = 0;
  double total = 0.0;
  for (const core::KernelRecord& k : r.kernels) {
    launches += k.invocations;
    total += k.time_s;
    EXPECT_EQ(k.flops_fp32 + k.flops_fp64, 0.0) << k.name;
  }
  EXPECT_EQ(launches, 60);
  EXPECT_NEAR(total, 307.197e-6, 1e-12);  // the kernel events' durations, in microseconds
  // The attention projections: Input Dims [512], [141, 512], [512, 512]; 17 calls, each
  // launching one cutlass_80_wmma kernel: 2 * 141 * 512 * 512 = 73,924,608 FLOPs a call.
  const core::KernelRecord* qkv = named(r, "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_");
  ASSERT_NE(qkv, nullptr);
  EXPECT_EQ(qkv->invocations, 17);
  EXPECT_EQ(qkv->flops_bf16, 17 * 73924608.0);
  EXPECT_EQ(qkv->flops_fp16, 0.0);
  EXPECT_EQ(qkv->precision, "bf16");  // the precision of its inputs, c10::BFloat16
  // The feed-forward GEMMs: [2048], [141, 512], [512, 2048] and [512], [141, 2048],
  // [2048, 512], 4 calls each: 2 * 141 * 512 * 2048 = 295,698,432 a call.
  const core::KernelRecord* up =
      named(r, "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu");
  const core::KernelRecord* down = named(r, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n");
  ASSERT_NE(up, nullptr);
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(up->invocations, 4);
  EXPECT_EQ(up->flops_bf16, 4 * 295698432.0);
  EXPECT_EQ(down->invocations, 4);
  EXPECT_EQ(down->flops_bf16, 4 * 295698432.0);
  // The decoder onto the vocabulary: [30522], [141, 512], [512, 30522]: 2 * 141 * 512 *
  // 30522 = 4,406,888,448, one call of 41.28 us.
  const core::KernelRecord* vocab =
      named(r, "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128");
  ASSERT_NE(vocab, nullptr);
  EXPECT_EQ(vocab->invocations, 1);
  EXPECT_EQ(vocab->flops_bf16, 4406888448.0);
  EXPECT_NEAR(vocab->time_s, 41.28e-6, 1e-12);
  EXPECT_TRUE(vocab->bytes.empty());
  EXPECT_NE(vocab->note.find("compute roofs only"), std::string::npos) << vocab->note;
  // Flash attention, launched by aten::_flash_attention_forward inside
  // aten::_scaled_dot_product_flash_attention (q, k, v [1, 8, 141, 64]): two GEMMs,
  // 2 * 8 * 141 * 141 * 64 each, 40,716,288 a call.
  const core::KernelRecord* flash = named(r, "void pytorch_flash::flash_fwd_kernel<");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->invocations, 4);
  EXPECT_NEAR(flash->time_s, (10.08 + 9.12 + 9.12 + 9.088) * 1e-6, 1e-12);
  EXPECT_EQ(flash->flops_bf16, 4 * 40716288.0);
  // The residual adds: 9 aten::add [1, 141, 512] (72,192 FLOPs each, as PyTorch counts
  // aten::add) share their kernel with one aten::add_, which PyTorch does not count and
  // the table counts as one FLOP per element: the kernel has FLOPs for every launch.
  const core::KernelRecord* add =
      named(r, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->invocations, 10);
  EXPECT_EQ(add->flops(), 10 * 72192.0);
  // The notes say where the FLOPs come from; the 26 aten::linear around the addmm calls are
  // not counted again.
  EXPECT_TRUE(has_note(r, "b.json.gz: profiled with with_flops=True, but no operator"))
      << r.notes.size();
  EXPECT_TRUE(has_note(r, "FLOPs from Input Dims (as torch.utils.flop_counter")) << r.notes.size();
  EXPECT_TRUE(
      has_note(r, "of 4 aten::_scaled_dot_product_flash_attention, 9 aten::add, 1 aten::add_, "
                  "26 aten::addmm"))
      << r.notes.size();
  EXPECT_TRUE(has_note(r, "26 call(s) of \"aten::linear\" left uncounted")) << r.notes.size();
  EXPECT_FALSE(has_note(r, "counted as fp16")) << r.notes.size();
  // Placed against the BF16 tensor-core figure (989.4 TFLOP/s, the H100 SXM's dense
  // figure) by its achieved rate: 4,406,888,448 FLOPs in 41.28 us, 106,756 GFLOP/s, 10.8 %
  // of it.
  core::CeilingsFile ceilings;
  core::Ceiling bf16 = core::figure_row("tc_bf16");
  bf16.value = 989400.0;
  ceilings.matrix.figures.push_back(bf16);
  const core::Placement p = core::place(*vocab, ceilings);
  EXPECT_EQ(p.limiter, "tc_bf16");
  EXPECT_TRUE(p.tensor);
  EXPECT_NEAR(p.gflop_per_s, 4406888448.0 / 41.28e-6 / 1e9, 1e-6);
  EXPECT_NEAR(p.fraction_of_roof, 4406888448.0 / 41.28e-6 / 1e9 / 989400.0, 1e-9);
  EXPECT_TRUE(p.above.empty());
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

// The same MI250 trace as it is: no "flops", but record_shapes' "Input Dims" on aten::addmm
// ([128], [5, 128], [128, 128]) give the same 2 M N K, and on the backward aten::mm
// ([128, 5], [5, 128]) 2 * 128 * 128 * 5: both 163,840.
TEST(ImportPytorch, InputDimsGiveTheFlopsTheOperatorWouldHaveCarried) {
  const ImportResult r =
      parse_report(import_fixture("pytorch-mi250-minitoy.json.gz"), "mi250.json.gz");
  const core::KernelRecord* op = named(r, "[operator] aten::addmm");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->flops_fp32, 2.0 * 5 * 128 * 128);
  EXPECT_NEAR(op->time_s, (6.88 + 17.6) * 1e-6, 1e-12);
  double all = 0.0;
  for (const core::KernelRecord& k : r.kernels) all += k.flops_fp32;
  // addmm's record, the kernel aten::mm launched, aten::relu [5, 128] and the optimizer's
  // in-place aten::add_ of [128, 128] and [128], one FLOP per element.
  EXPECT_EQ(all, 2 * 163840.0 + 5 * 128 + 128 * 128 + 128);
  EXPECT_TRUE(has_note(r, "FLOPs from Input Dims")) << r.notes.size();
  EXPECT_TRUE(has_note(r, "1 call(s) of \"aten::linear\" left uncounted")) << r.notes.size();
}

// A trace of operator calls, each launching one kernel "k<id>" (1 us) of its own: name,
// External id, ts and dur, "Input Dims", and "Concrete Inputs" where given.
const json E = json::array();  // the Input Dims of a non-tensor input

struct Call {
  std::string op;
  long long id;
  double ts, dur;
  json dims, concrete = nullptr;
  bool kernel = true;
};
std::string trace_of(const std::vector<Call>& calls) {
  json events = json::array();
  for (const Call& c : calls) {
    json args = {{"External id", c.id}, {"Input Dims", c.dims}, {"Input type", {"float"}}};
    if (!c.concrete.is_null()) args["Concrete Inputs"] = c.concrete;
    events.push_back({{"ph", "X"},
                      {"cat", "cpu_op"},
                      {"name", c.op},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", c.ts},
                      {"dur", c.dur},
                      {"args", args}});
    if (c.kernel)
      events.push_back({{"ph", "X"},
                        {"cat", "kernel"},
                        {"name", "k" + std::to_string(c.id)},
                        {"ts", c.ts + 1},
                        {"dur", 1.0},
                        {"args", {{"External id", c.id}}}});
  }
  return json{{"traceEvents", events}}.dump();
}

// The FLOPs of one call of `op` with these "Input Dims" (and "Concrete Inputs" where
// given), as the table counts them; -1 where it counts none.
double formula(const std::string& op, const json& dims, const json& concrete = nullptr,
               bool* composite = nullptr) {
  json args = {{"Input Dims", dims}, {"Input type", {"float"}}};
  if (!concrete.is_null()) args["Concrete Inputs"] = concrete;
  const importing::ShapeFlops f = importing::shape_flops(op, args);
  EXPECT_TRUE(f.listed) << op;
  EXPECT_TRUE(f.refused.empty()) << op << ": " << f.refused;
  if (composite) *composite = f.composite;
  return f.flops ? *f.flops : -1.0;
}

// Each formula of the table, called as the reader calls it on an operator's arguments.
TEST(OperatorFlops, EachFormulaOfTheTable) {
  EXPECT_EQ(formula("aten::mm", {{64, 32}, {32, 16}}), 2.0 * 64 * 16 * 32);
  EXPECT_EQ(formula("aten::bmm", {{4, 64, 32}, {4, 32, 16}}), 2.0 * 4 * 64 * 16 * 32);
  EXPECT_EQ(formula("aten::baddbmm", {{4, 64, 16}, {4, 64, 32}, {4, 32, 16}, E, E}),
            2.0 * 4 * 64 * 16 * 32);
  EXPECT_EQ(formula("aten::addmm", {{16}, {6, 32}, {32, 16}, E, E}), 2.0 * 6 * 16 * 32);
  // A 7x7 stride-2 convolution of 8 images 3x224x224 to 64 channels, padding 3: a 112x112
  // output.
  EXPECT_EQ(formula("aten::conv2d", {{8, 3, 224, 224}, {64, 3, 7, 7}, {64}, E, E, E, E},
                    {"", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "1"}),
            2.0 * 8 * 64 * 112 * 112 * 3 * 7 * 7);
  // Grouped: 32 channels in 4 groups, a 3x3 kernel, padding 1: 56x56 kept.
  EXPECT_EQ(formula("aten::conv2d", {{1, 32, 56, 56}, {32, 8, 3, 3}, E, E, E, E, E},
                    {"", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "4"}),
            2.0 * 1 * 32 * 56 * 56 * 8 * 3 * 3);
  // padding="same" keeps 100; an unbatched conv3d with padding="valid": 6x6x6.
  EXPECT_EQ(formula("aten::conv1d", {{2, 4, 100}, {8, 4, 5}, E, E, E, E, E},
                    {"", "", "", "[1]", "same", "[1]", "1"}),
            2.0 * 2 * 8 * 100 * 4 * 5);
  EXPECT_EQ(formula("aten::conv3d", {{3, 8, 8, 8}, {6, 3, 3, 3, 3}, E, E, E, E, E},
                    {"", "", "", "[1, 1, 1]", "valid", "[1, 1, 1]", "1"}),
            2.0 * 1 * 6 * (6 * 6 * 6) * 3 * (3 * 3 * 3));
  EXPECT_EQ(formula("aten::mul", {{2, 3, 5}, {2, 3, 5}}), 30.0);
  EXPECT_EQ(formula("aten::add", {{7, 11}, {7, 11}, E}), 77.0);
  // matmul with broadcast batch dimensions: [2, 1, 8, 4] x [3, 4, 5] is 6 products 8x4x5.
  EXPECT_EQ(formula("aten::matmul", {{2, 1, 8, 4}, {3, 4, 5}}), 2.0 * 6 * 8 * 5 * 4);
  EXPECT_EQ(formula("aten::_scaled_dot_product_efficient_attention",
                    {{2, 4, 10, 16}, {2, 4, 12, 16}, {2, 4, 12, 8}, E, E}),
            2.0 * 2 * 4 * 10 * 12 * 16 + 2.0 * 2 * 4 * 10 * 12 * 8);
  // linear: 2 M N K over its batch dimensions, counted only where no addmm or matmul is
  // nested in it (the real MI250 trace's linear over its addmm is left uncounted).
  bool composite = false;
  EXPECT_EQ(formula("aten::linear", {{3, 5, 32}, {16, 32}, E}, nullptr, &composite),
            2.0 * 15 * 16 * 32);
  EXPECT_TRUE(composite);
  // Per output element, operators PyTorch counts none for: the in-place add_ 1, relu 1,
  // softmax 5, layer norm 8, batch norm 2 in inference and 8 in training.
  EXPECT_EQ(formula("aten::add_", {{2, 3}, {2, 3}, E}), 6.0);
  EXPECT_EQ(formula("aten::relu_", {{4, 5}}), 20.0);
  EXPECT_EQ(formula("aten::_softmax", {{4, 5}, E, E}), 5.0 * 20);
  EXPECT_EQ(formula("aten::native_layer_norm", {{4, 5}, E, {5}, {5}, E}), 8.0 * 20);
  const json bn = {{8, 3, 4, 4}, {3}, {3}, {3}, {3}, E, E, E};
  EXPECT_EQ(formula("aten::native_batch_norm", bn, {"", "", "", "", "", "False", "0.1", "1e-05"}),
            2.0 * 8 * 3 * 16);
  EXPECT_EQ(formula("aten::native_batch_norm", bn, {"", "", "", "", "", "True", "0.1", "1e-05"}),
            8.0 * 8 * 3 * 16);
  EXPECT_TRUE(importing::shape_flops("aten::batch_norm", {{"Input Dims", bn}}).composite);
  // An integer input (a batch norm's step counter) has none.
  const importing::ShapeFlops step = importing::shape_flops(
      "aten::add_", {{"Input Dims", {E, E, E}}, {"Input type", {"long int", "long int", "Scalar"}}});
  EXPECT_FALSE(step.flops);
  EXPECT_EQ(step.refused, "its first input is no floating type");
}

// The output's elements where its shape follows from the inputs.
TEST(OperatorFlops, OutputsOfGemmsConvolutionsAndElementwiseOperators) {
  const auto outputs = [](const std::string& op, const json& dims, const json& concrete) {
    json args = {{"Input Dims", dims}, {"Input type", {"float"}}};
    if (!concrete.is_null()) args["Concrete Inputs"] = concrete;
    return importing::shape_flops(op, args).outputs.value_or(-1.0);
  };
  EXPECT_EQ(outputs("aten::addmm", {{16}, {6, 32}, {32, 16}, E, E}, nullptr), 6.0 * 16);
  EXPECT_EQ(outputs("aten::baddbmm", {{4, 64, 16}, {4, 64, 32}, {4, 32, 16}, E, E}, nullptr),
            4.0 * 64 * 16);
  EXPECT_EQ(outputs("aten::conv2d", {{8, 3, 224, 224}, {64, 3, 7, 7}, {64}, E, E, E, E},
                    {"", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "1"}),
            8.0 * 64 * 112 * 112);
  EXPECT_EQ(outputs("aten::add", {{7, 1}, {3, 1, 11}, E}, nullptr), 3.0 * 7 * 11);
  EXPECT_EQ(outputs("aten::matmul", {{2, 1, 8, 4}, {3, 4, 5}}, nullptr), 6.0 * 8 * 5);
}

TEST(HostilePytorch, MalformedShapesGiveNoFlopsAndANote) {
  const json big = json::parse("9223372036854775807");  // int64's largest
  const json huge = {big, big, big};
  const json conv = {{1, 3, 8, 8}, {4, 3, 3, 3}, E, E, E, E, E};
  const json one = {"", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "1"};  // stride 1, no padding
  const ImportResult r = parse_report(
      trace_of({
          {"aten::mm", 1, 0, 10, {{-64, 32}, {32, 16}}},
          {"aten::mm", 2, 20, 10, {{3000000000LL, 3000000000LL}, {3000000000LL, 3000}}},
          {"aten::mm", 3, 40, 10, {{"64", 32}, {32, 16}}},
          {"aten::mm", 4, 60, 10, {{64.5, 32}, {32, 16}}},
          {"aten::mm", 5, 80, 10, {{64, 32}, {31, 16}}},
          {"aten::mm", 6, 100, 10, {{64, 32}}},
          {"aten::addmm", 7, 120, 10, "[[1, 2]]"},
          {"aten::bmm", 8, 140, 10, {huge, huge}},
          {"aten::mul", 9, 160, 10, {{std::vector<int>(100, 100)}}},
          {"aten::conv2d", 10, 180, 10, conv, {"", "", "", "[0, 1]", "[1, 1]", "[1, 1]", "1"}},
          {"aten::conv2d", 11, 200, 10, conv, {"", "", "", "[1, x]", "[1, 1]", "[1, 1]", "1"}},
          {"aten::conv2d", 12, 220, 10, conv},
          {"aten::conv2d", 13, 240, 10, {{1, 3, 2, 2}, {4, 3, 9, 9}, E, E, E, E, E}, one},
          {"aten::matmul", 14, 260, 10, {{2, 8, 4}, {3, 4, 5}}},
          {"aten::mm", 15, 280, 10, {{json::parse("1e300"), 32}, {32, 16}}},
      }),
      "h.json");
  EXPECT_EQ(r.kernels.size(), 15u);
  for (const core::KernelRecord& k : r.kernels) {
    EXPECT_EQ(k.flops(), 0.0) << k.name;
    EXPECT_TRUE(std::isfinite(k.time_s)) << k.name;
  }
  for (const std::string& n : r.notes) EXPECT_EQ(n.find('\n'), std::string::npos) << n;
  // Five notes give reasons; the rest are summed in one.
  EXPECT_TRUE(has_note(r,
                       "h.json: no FLOPs for 1 call(s) of \"aten::addmm\": its \"Input Dims\" "
                       "is not a list"))
      << r.notes.size();
  EXPECT_TRUE(has_note(r, "more call(s) whose shapes gave no count")) << r.notes.size();
  EXPECT_TRUE(has_note(r, "no operator's \"Input Dims\" give FLOPs either")) << r.notes.size();
}

// Every reason one by one, a call at a time.
TEST(HostilePytorch, EachMalformedShapeSaysWhy) {
  const json conv = {{1, 3, 8, 8}, {4, 3, 3, 3}, E, E, E, E, E};
  const std::pair<Call, std::string> cases[] = {
      {{"aten::mm", 1, 0, 10, {{-64, 32}, {32, 16}}},
       "its \"Input Dims\" holds -64, not a non-negative integer"},
      {{"aten::mm", 1, 0, 10, {{3000000000LL, 3000000000LL}, {3000000000LL, 3000}}},
       "its count exceeds 1e21 FLOPs (or a product overflowed)"},
      {{"aten::mm", 1, 0, 10, {{"64", 32}, {32, 16}}},
       "its \"Input Dims\" holds a string, not a non-negative integer"},
      {{"aten::mm", 1, 0, 10, {{64, 32}, {31, 16}}}, "inner dimensions differ (32 and 31)"},
      {{"aten::mm", 1, 0, 10, {{64, 32}}}, "\"Input Dims\" lists 1 input(s), input 2 needed"},
      {{"aten::conv2d", 1, 0, 10, conv}, "no \"Concrete Inputs\" value for its groups"},
      {{"aten::conv2d", 1, 0, 10, conv, {"", "", "", "[0, 1]", "[1, 1]", "[1, 1]", "1"}},
       "its stride is below 1"},
      {{"aten::matmul", 1, 0, 10, {{2, 8, 4}, {3, 4, 5}}},
       "batch dimensions 2 and 3 do not broadcast"},
  };
  for (const auto& [call, why] : cases) {
    const ImportResult r = parse_report(trace_of({call}), "w.json");
    EXPECT_EQ(r.kernels.at(0).flops(), 0.0) << call.op;
    EXPECT_TRUE(has_note(r, "w.json: no FLOPs for 1 call(s) of \"" + call.op + "\": " + why))
        << why;
  }
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

// Each kernel of the H200 trace of torch_model.py (fixtures/README.md) names the chain of
// operators it was launched under, outermost first, as the trace nests them.
TEST(PytorchOperators, EachKernelNamesTheOperatorsThatLaunchedIt) {
  const ImportResult r =
      parse_report(import_fixture("pytorch-h200-torch-model.json.gz"), "h200.json.gz");
  const core::KernelRecord* sgemm = named(r, "void cutlass::Kernel2<cutlass_80_simt_sgemm");
  ASSERT_NE(sgemm, nullptr);
  EXPECT_EQ(sgemm->description, "launched by aten::linear > aten::addmm");
  const core::KernelRecord* flash = named(r, "cudnn_generated_fort_native_sdpa_sm90_flash");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->description,
            "launched by aten::scaled_dot_product_attention > "
            "aten::_scaled_dot_product_cudnn_attention > aten::_cudnn_attention_forward");
  // The copies of several operators: each distinct chain once.
  const core::KernelRecord* gelu = named(r, "void at::native::vectorized_elementwise_kernel<4, "
                                            "at::native::GeluCUDAKernelImpl");
  ASSERT_NE(gelu, nullptr);
  EXPECT_EQ(gelu->description, "launched by aten::gelu");
}

// Another tool's kernels (the Nsight Compute log of the same program) named by the trace,
// joined by kernel name as a timing file's are; their counts and times untouched. ncu
// spells template names its own way ("at::vectorized_elementwise_kernel<4, ...>(int, T2,
// T3)" for CUPTI's "at::native::..."): they join by their words. Not joined: k1 and k2
// (the inputs' set-up, before the trace's steps), k8 (ncu writes its nested function
// type with T1) and k11 (cuDNN's enum cast). The profile of the injection library names
// kernels as the trace does (both demangle CUPTI's names).
TEST(PytorchOperators, AnotherReportsKernelsAreNamedByTheTrace) {
  ImportResult ncu = parse_report(import_fixture("ncu-text-h200-torch.txt"), "ncu.txt");
  const std::vector<core::KernelRecord> before = ncu.kernels;
  std::vector<std::string> notes;
  name_operators(ncu.kernels,
                 {import_fixture("pytorch-h200-torch-model.json.gz"), "h200.json.gz"}, notes);
  std::vector<std::string> named_ids;
  for (std::size_t i = 0; i < ncu.kernels.size(); ++i) {
    const core::KernelRecord& k = ncu.kernels[i];
    EXPECT_EQ(k.time_s, before[i].time_s);
    EXPECT_EQ(k.flops(), before[i].flops());
    if (!k.description.empty()) named_ids.push_back(k.id);
  }
  EXPECT_EQ(named_ids, (std::vector<std::string>{"k3", "k4", "k5", "k6", "k7", "k9", "k10", "k12",
                                                 "k13", "k14", "k15", "k16", "k17", "k18"}));
  const core::KernelRecord* conv = named(ncu, "sm80_xmma_fprop_implicit_gemm_tf32f32");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->description,
            "launched by aten::conv2d > aten::convolution > aten::_convolution > "
            "aten::cudnn_convolution");
  EXPECT_EQ(named(ncu, "nvjet_sm90_hsh")->description,
            "launched by aten::bmm");
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.back().find("h200.json.gz: the operators that launched 14 of 18 kernel(s) "
                              "named (none for k1, k2, k8, k11:"),
            std::string::npos)
      << notes.back();
}

TEST(PytorchOperators, AFileThatIsNoTraceOfOperatorsIsOneLine) {
  std::vector<core::KernelRecord> kernels(1);
  std::vector<std::string> notes;
  const std::string e = error_of([&] {
    name_operators(kernels, {import_fixture("ncu-text-h200-torch.txt"), "ncu.txt"}, notes);
  });
  EXPECT_NE(e.find("ncu.txt: read as Nsight Compute text log, not a PyTorch profiler trace"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

}  // namespace
}  // namespace rooftop::counters
