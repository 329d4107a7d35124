// rooftop_counters: a PyTorch profiler trace of a CPU run (cpu_op events, no device kernels),
// the real ResNet-18 trace of fixtures/import (see fixtures/README.md): each operator a
// record by name and input shapes, its self time, FLOPs from "Input Dims", bytes from the
// inputs' shapes and types.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "import_support.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/import.hpp"

namespace rooftop::counters {
namespace {

using nlohmann::json;
using testing::has_note;
using testing::import_fixture;
using testing::inflated;

constexpr const char* kTrace = "pytorch-cpu-resnet18-record-shapes.json.gz";

json trace() { return json::parse(inflated(import_fixture(kTrace))); }

// The cpu_op events named `name`.
std::vector<json> events_named(const json& doc, const std::string& name) {
  std::vector<json> out;
  for (const json& e : doc["traceEvents"])
    if (e.value("cat", "") == "cpu_op" && e.value("name", "") == name) out.push_back(e);
  return out;
}

const core::KernelRecord* starting(const ImportResult& r, const std::string& prefix) {
  for (const core::KernelRecord& k : r.kernels)
    if (k.name.rfind(prefix, 0) == 0) return &k;
  return nullptr;
}

TEST(ImportPytorchCpu, TheGemmOfACpuRunHasTwoMnkFlopsAndItsInputsBytes) {
  const json doc = trace();
  const std::vector<json> addmm = events_named(doc, "aten::addmm");
  ASSERT_EQ(addmm.size(), 1u);
  // addmm(bias, mat1[M,K], mat2[K,N]), as the trace records its shapes.
  const json& dims = addmm[0]["args"]["Input Dims"];
  const double m = dims[1][0], k = dims[1][1], n = dims[2][1], bias = dims[0][0];
  ASSERT_EQ(static_cast<double>(dims[2][0]), k);

  const ImportResult r = parse_report(import_fixture(kTrace), "resnet.json.gz");
  EXPECT_EQ(r.format, "pytorch-trace");
  const core::KernelRecord* gemm = starting(r, "aten::addmm (");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->name, "aten::addmm (1000, 5x512, 512x1000)");
  EXPECT_EQ(gemm->flops_fp32, 2.0 * m * n * k);  // PyTorch's count: the bias add not counted
  EXPECT_EQ(gemm->precision, "fp32");
  EXPECT_EQ(gemm->invocations, 1);
  ASSERT_EQ(gemm->bytes.size(), 1u);
  EXPECT_EQ(gemm->bytes[0].level, "dram");
  // Its inputs and its M x N output, fp32.
  EXPECT_EQ(gemm->bytes[0].bytes, 4.0 * (bias + m * k + k * n + m * n));
  EXPECT_GT(gemm->time_s, 0.0);
  EXPECT_LE(gemm->time_s, addmm[0]["dur"].get<double>() * 1e-6 + 1e-12);
  // aten::linear calls the addmm: its own record keeps no FLOPs.
  const core::KernelRecord* linear = starting(r, "aten::linear (");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->flops(), 0.0);
  EXPECT_TRUE(has_note(r, "resnet.json.gz: no device kernels: a CPU run")) << r.notes.size();
  EXPECT_TRUE(has_note(r, "a lower bound")) << r.notes.size();
}

TEST(ImportPytorchCpu, AConvolutionsBytesHoldItsOutputFromItsStrideAndPadding) {
  // The stem convolution, its output's size from the trace's own shapes and its "Concrete
  // Inputs" (stride, padding, dilation).
  const json doc = trace();
  json stem;
  for (const json& e : events_named(doc, "aten::conv2d"))
    if (e["args"]["Input Dims"][0] == json({5, 3, 224, 224})) stem = e["args"];
  ASSERT_FALSE(stem.is_null());
  const json& dims = stem["Input Dims"];
  const json& concrete = stem["Concrete Inputs"];
  const json stride = json::parse(concrete[3].get<std::string>()),
             padding = json::parse(concrete[4].get<std::string>()),
             dilation = json::parse(concrete[5].get<std::string>());
  double x = 1.0, w = 1.0, out = dims[0][0].get<double>() * dims[1][0].get<double>();
  for (const json& d : dims[0]) x *= d.get<double>();
  for (const json& d : dims[1]) w *= d.get<double>();
  for (int i = 0; i < 2; ++i) {
    const double in = dims[0][2 + i], k = dims[1][2 + i];
    out *= std::floor((in + 2.0 * padding[i].get<double>() -
                       dilation[i].get<double>() * (k - 1.0) - 1.0) /
                      stride[i].get<double>()) +
           1.0;
  }
  EXPECT_EQ(out, 5.0 * 64 * 112 * 112);
  const ImportResult r = parse_report(import_fixture(kTrace), "resnet.json.gz");
  const core::KernelRecord* conv = starting(r, "aten::conv2d (5x3x224x224, 64x3x7x7");
  ASSERT_NE(conv, nullptr);
  ASSERT_EQ(conv->bytes.size(), 1u);
  EXPECT_EQ(conv->bytes[0].bytes, 4.0 * (x + w + out));
}

// The record of the calls of `name` whose shapes are those of the first call: its
// elements of input 1, its calls and the first call's args.
struct FirstShape {
  double elements = 1.0;
  int calls = 0;
  json args;
};
FirstShape first_shape(const json& doc, const std::string& name) {
  FirstShape f;
  const std::vector<json> events = events_named(doc, name);
  if (events.empty()) return f;
  f.args = events[0]["args"];
  for (const json& d : f.args["Input Dims"][0]) f.elements *= d.get<double>();
  for (const json& e : events) f.calls += e["args"]["Input Dims"] == f.args["Input Dims"];
  return f;
}

TEST(ImportPytorchCpu, ReluAndBatchNormCountFlopsPerElement) {
  const json doc = trace();
  const ImportResult r = parse_report(import_fixture(kTrace), "resnet.json.gz");
  // relu_, one FLOP per element, its record summing its calls of one shape.
  const FirstShape relu = first_shape(doc, "aten::relu_");
  ASSERT_GT(relu.calls, 0);
  const core::KernelRecord* rec = starting(r, "aten::relu_ (5x64x112x112)");
  ASSERT_NE(rec, nullptr);
  EXPECT_EQ(rec->invocations, relu.calls);
  EXPECT_EQ(rec->flops_fp32, relu.elements * relu.calls);
  ASSERT_EQ(rec->bytes.size(), 1u);
  EXPECT_EQ(rec->bytes[0].bytes, 4.0 * 2.0 * relu.elements * relu.calls);  // in and out
  // The batch norm's work is aten::native_batch_norm's, nested in aten::batch_norm and
  // aten::_batch_norm_impl_index: 2 FLOPs per element in inference, 8 in training (this
  // trace's model was not put in eval mode: its training flag is "True").
  const FirstShape bn = first_shape(doc, "aten::native_batch_norm");
  const bool training = bn.args["Concrete Inputs"][5] == "True";
  EXPECT_TRUE(training);
  const core::KernelRecord* norm =
      starting(r, "aten::native_batch_norm (5x64x112x112, 64, 64, 64, 64)");
  ASSERT_NE(norm, nullptr);
  EXPECT_EQ(norm->flops_fp32, (training ? 8.0 : 2.0) * bn.elements * bn.calls);
  EXPECT_EQ(starting(r, "aten::batch_norm (5x64x112x112")->flops(), 0.0);
  EXPECT_TRUE(has_note(r, "call(s) of \"aten::batch_norm\" left uncounted")) << r.notes.size();
  // The step counters' integer adds have none.
  EXPECT_TRUE(has_note(r, "\"aten::add_\": its first input is no floating type"))
      << r.notes.size();
}

TEST(ImportPytorchCpu, ABf16OperatorIsPlacedAgainstTheCpusHighestBf16MatrixFigure) {
  // The trace's GEMM as bf16 (its tensor inputs' "Input type" c10::BFloat16): its FLOPs
  // bf16, its bytes at 2 per element, and on a CPU's ceilings (no tensor cores) placed
  // against amx_bf16 where the file has it, above bf16_dot, else against bf16_dot.
  json doc = trace();
  for (json& e : doc["traceEvents"])
    if (e.value("name", "") == "aten::addmm")
      for (json& t : e["args"]["Input type"])
        if (t == "float") t = "c10::BFloat16";
  const ImportResult r = parse_report(doc.dump(), "bf16.json");
  const core::KernelRecord* gemm = starting(r, "aten::addmm (");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->precision, "bf16");
  EXPECT_EQ(gemm->flops_bf16, 2.0 * 5 * 1000 * 512);
  ASSERT_EQ(gemm->bytes.size(), 1u);
  EXPECT_EQ(gemm->bytes[0].bytes, 2.0 * (1000 + 5 * 512 + 512 * 1000 + 5 * 1000));

  core::CeilingsFile cpu;
  for (const auto& [name, value] : {std::pair{"bf16_dot", 3000.0}, std::pair{"amx_bf16", 12000.0}}) {
    core::Ceiling c = core::figure_row(name);
    c.value = value;
    cpu.matrix.figures.push_back(c);
  }
  const core::Placement amx = core::place(*gemm, cpu);
  EXPECT_EQ(amx.limiter, "amx_bf16");
  EXPECT_TRUE(amx.tensor);
  EXPECT_NE(amx.note.find("placed against amx_bf16, the highest of the CPU's BF16 matrix"),
            std::string::npos)
      << amx.note;
  cpu.matrix.figures.pop_back();
  EXPECT_EQ(core::place(*gemm, cpu).limiter, "bf16_dot");
  cpu.matrix.figures.clear();
  EXPECT_FALSE(core::place(*gemm, cpu).compute.has_value());
}

TEST(ImportPytorchCpu, SelfTimesArePositiveAndNoMoreThanTheDurations) {
  const json doc = trace();
  double durations = 0.0;  // of every cpu_op, nested ones counted again
  double outermost = 0.0;  // of the operators no other operator encloses
  std::vector<std::pair<double, double>> spans;
  for (const json& e : doc["traceEvents"])
    if (e.value("cat", "") == "cpu_op") {
      const double ts = e["ts"], dur = e["dur"];
      durations += dur;
      bool enclosed = false;
      for (const json& o : doc["traceEvents"])
        if (o.value("cat", "") == "cpu_op" && &o != &e && o["tid"] == e["tid"] &&
            o["ts"].get<double>() <= ts && o["ts"].get<double>() + o["dur"].get<double>() >= ts + dur &&
            (o["ts"].get<double>() < ts || o["dur"].get<double>() > dur))
          enclosed = true;
      if (!enclosed) outermost += dur;
    }
  const ImportResult r = parse_report(import_fixture(kTrace), "resnet.json.gz");
  double total = 0.0;
  int counted = 0;
  for (const core::KernelRecord& k : r.kernels) {
    EXPECT_GE(k.time_s, 0.0) << k.name;
    total += k.time_s;
    if (k.flops() > 0.0) {
      ++counted;
      EXPECT_GT(k.time_s, 0.0) << k.name;
      EXPECT_FALSE(k.bytes.empty()) << k.name;
    }
  }
  EXPECT_GT(counted, 5);  // the convolutions' shapes and the GEMM
  EXPECT_LE(total, durations * 1e-6);
  // Self times partition the outermost operators' durations.
  EXPECT_NEAR(total, outermost * 1e-6, 1e-9);
  // Every convolution's time is that of the operators under it, within its own duration.
  double conv = 0.0;
  for (const json& e : events_named(doc, "aten::conv2d")) conv += e["dur"].get<double>();
  double conv_records = 0.0;
  for (const core::KernelRecord& k : r.kernels)
    if (k.name.rfind("aten::conv2d (", 0) == 0) conv_records += k.time_s;
  EXPECT_NEAR(conv_records, conv * 1e-6, 1e-9);
  EXPECT_EQ(starting(r, "aten::mkldnn_convolution"), nullptr);  // folded into conv2d
}

TEST(ImportPytorchCpu, AnOperatorWithoutShapesKeepsItsTimeAndHasUnknownFlops) {
  // An operator the FLOP table has no formula for: listed with its time, not placed.
  const ImportResult r = parse_report(import_fixture(kTrace), "resnet.json.gz");
  const core::KernelRecord* pool = starting(r, "aten::max_pool2d_with_indices (");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->flops(), 0.0);
  EXPECT_TRUE(pool->bytes.empty());
  EXPECT_GT(pool->time_s, 0.0);

  // The same trace without "Input Dims" (a profile taken without record_shapes): every
  // operator keeps its name and time, none has FLOPs, and a note says shapes are needed.
  json doc = trace();
  for (json& e : doc["traceEvents"])
    if (e.contains("args")) e["args"].erase("Input Dims");
  const ImportResult bare = parse_report(doc.dump(), "bare.json");
  ASSERT_FALSE(bare.kernels.empty());
  const core::KernelRecord* addmm = starting(bare, "aten::addmm");
  ASSERT_NE(addmm, nullptr);
  EXPECT_EQ(addmm->name, "aten::addmm");
  EXPECT_EQ(addmm->flops(), 0.0);
  EXPECT_GT(addmm->time_s, 0.0);
  for (const core::KernelRecord& k : bare.kernels) EXPECT_EQ(k.flops(), 0.0) << k.name;
  EXPECT_TRUE(has_note(bare, "FLOPs need shapes")) << bare.notes.size();
}

TEST(ImportPytorchCpu, ALegacyTraceListImportsWithTimesAndNamesAndSaysFlopsNeedProfileTorch) {
  // PyTorch's legacy layout (fixtures/README.md): a JSON list, "pid": "CPU functions", no
  // "cat", no shapes. Every operator is a record with its self time; none has FLOPs.
  const std::string text = inflated(import_fixture("pytorch-legacy-vgg16-cpu-train.json.gz"));
  const json doc = json::parse(text);
  ASSERT_TRUE(doc.is_array());
  double conv = 0.0;  // the summed durations of conv2d, each holding its nested calls
  int conv_calls = 0;
  for (const json& e : doc)
    if (e.value("name", "") == "conv2d") {
      conv += e["dur"].get<double>();
      ++conv_calls;
    }
  ASSERT_EQ(conv_calls, 130);

  const ImportResult r = parse_report(text, "vgg16.json");
  EXPECT_EQ(r.format, "pytorch-trace");
  const core::KernelRecord* c = starting(r, "conv2d");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->name, "conv2d");
  EXPECT_EQ(c->invocations, 130);
  // Self time: the durations less those of the operators nested in them.
  EXPECT_GT(c->time_s, 0.0);
  EXPECT_LT(c->time_s, conv * 1e-6);
  const core::KernelRecord* mkldnn = starting(r, "mkldnn_convolution");
  ASSERT_NE(mkldnn, nullptr);
  EXPECT_EQ(mkldnn->invocations, 130);
  for (const core::KernelRecord& k : r.kernels) {
    EXPECT_EQ(k.flops(), 0.0) << k.name;
    EXPECT_TRUE(k.bytes.empty()) << k.name;
  }
  EXPECT_TRUE(has_note(r, "`rooftop profile --torch`")) << r.notes.size();
}

}  // namespace
}  // namespace rooftop::counters
