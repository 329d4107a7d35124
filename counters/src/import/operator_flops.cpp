// FLOPs of PyTorch operators from their recorded shapes, counted as PyTorch counts them:
//
//   computeFlops() in torch/csrc/profiler/util.cpp: what a profile taken with
//     with_flops=True counts (and keeps out of its trace): aten::mm and aten::addmm
//     2·M·N·K (addmm's bias add and its alpha/beta not counted), aten::bmm and
//     aten::baddbmm 2·B·M·N·K, aten::conv2d 2·N·C_out·H_out·W_out·(C_in/groups)·kh·kw,
//     aten::add and aten::mul one FLOP per element of the first input (not the in-place
//     add_/mul_, not broadcasting; PyTorch's own rule).
//   conv_flop_count() and sdpa_flop_count() in torch/utils/flop_counter.py (FlopCounterMode):
//     a convolution of any spatial rank, 2·(output elements)·(C_in/groups)·(kernel size),
//     so aten::conv1d and aten::conv3d as conv2d; scaled-dot-product attention two batched
//     GEMMs, 2·B·H·S_q·S_k·D_q + 2·B·H·S_q·S_k·D_v (no discount for causal masks).
//   aten::linear and aten::matmul are in neither list (both counters see the aten::addmm,
//     aten::mm or aten::bmm they call, which the trace records nested in them); they are
//     counted here the same way, 2·M·N·K with matmul's batch dimensions broadcast, as
//     composites: the reader drops their count where an operator nested in them has one.
//
//   Operators neither counts (relu, the in-place arithmetic, softmax, layer, RMS and batch
//     norm): a fixed count per output element, kPerElement below; sub and div as add.
//
// Shapes are the trace's "Input Dims" (one list per input, [] for a non-tensor); a
// convolution's stride, padding, dilation and groups its "Concrete Inputs" strings
// ("[1, 1]", "1"). A shape that is missing, not a list of non-negative integers, or
// inconsistent (inner dimensions that differ) gives no count, and a product past
// kMaxOperatorFlops is refused: each is a reason, never an exception out of here.

#include "operator_flops.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;
using Shape = std::vector<double>;

struct Refused {
  std::string why;
};

// The recorded shapes and concrete arguments of one call.
struct Call {
  std::vector<Shape> dims;
  const json* concrete = nullptr;
  bool floating = true;  // the first input's "Input type" is a floating type
};

// A call's FLOPs and the elements of its output, where its shape follows from the inputs
// (-1 where it does not).
struct Work {
  double flops = 0;
  double outputs = -1;
};

// A dimension for a reason (it may be as large as 2^64).
std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 1e15 ? "%.0f" : "%.3g", v);
  return buf;
}

// A product of dimensions, refused past kMaxOperatorFlops.
struct Product {
  double value = 1.0;
  Product& operator*=(double v) {
    value *= v;
    if (!(value <= kMaxOperatorFlops))
      throw Refused{"its count exceeds 1e21 FLOPs (or a product overflowed)"};
    return *this;
  }
};

const Shape& input(const Call& c, std::size_t i) {
  if (i >= c.dims.size())
    throw Refused{"\"Input Dims\" lists " + std::to_string(c.dims.size()) + " input(s), input " +
                  std::to_string(i + 1) + " needed"};
  return c.dims[i];
}

const Shape& ranked(const Call& c, std::size_t i, std::size_t rank) {
  const Shape& s = input(c, i);
  if (s.size() != rank)
    throw Refused{"input " + std::to_string(i + 1) + " has " + std::to_string(s.size()) +
                  " dimension(s), " + std::to_string(rank) + " expected"};
  return s;
}

void same(double a, double b, const char* what) {
  if (a != b) throw Refused{std::string(what) + " differ (" + text(a) + " and " + text(b) + ")"};
}

// 2·B·M·N·K FLOPs; a B·M·N output.
Work gemm(double batch, double m, double n, double k) {
  Product out;
  out *= batch;
  out *= m;
  out *= n;
  Product p = out;
  p *= 2.0;
  p *= k;
  return {p.value, out.value};
}

// mm(self[M,K], mat2[K,N]); addmm(bias, mat1, mat2) with `first` 1.
Work mm_from(const Call& c, std::size_t first) {
  const Shape &a = ranked(c, first, 2), &b = ranked(c, first + 1, 2);
  same(a[1], b[0], "inner dimensions");
  return gemm(1.0, a[0], b[1], a[1]);
}

// bmm(self[B,M,K], mat2[B,K,N]); baddbmm(self, batch1, batch2) with `first` 1.
Work bmm_from(const Call& c, std::size_t first) {
  const Shape &a = ranked(c, first, 3), &b = ranked(c, first + 1, 3);
  same(a[0], b[0], "batch sizes");
  same(a[2], b[1], "inner dimensions");
  return gemm(a[0], a[1], b[2], a[2]);
}

// A trace's string in a reason: " (s)" where short and plain ASCII, else nothing.
std::string shown(const std::string& s) {
  if (s.size() > 40) return {};
  for (char c : s)
    if (c < 0x20 || c > 0x7e) return {};
  return " (" + s + ")";
}

// An integer list of a "Concrete Inputs" string: "[1, 1]" or "1".
std::vector<long long> integers(const Call& c, std::size_t i, const char* what) {
  if (!c.concrete || !c.concrete->is_array() || i >= c.concrete->size() ||
      !(*c.concrete)[i].is_string())
    throw Refused{std::string("no \"Concrete Inputs\" value for its ") + what};
  const std::string s = (*c.concrete)[i].get<std::string>();
  std::vector<long long> out;
  const char* p = s.data();
  const char* end = p + s.size();
  const bool list = p != end && *p == '[';
  if (list) ++p;
  while (p != end && out.size() <= 8) {
    while (p != end && (*p == ' ' || *p == ',')) ++p;
    if (p == end || *p == ']') break;
    long long v = 0;
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || v < 0 || v > (1LL << 40))
      throw Refused{std::string("its ") + what + shown(s) + " is not a list of small integers"};
    out.push_back(v);
    p = next;
  }
  if (out.empty() || (!list && p != end) || (list && (p == end || *p != ']')) || out.size() > 8)
    throw Refused{std::string("its ") + what + shown(s) + " is not a list of small integers"};
  return out;
}

// conv{1,2,3}d(input[N,C,*], weight[C_out,C/groups,*k], bias, stride, padding, dilation,
// groups); an unbatched input (no N) counts as N = 1.
Work conv(const Call& c, std::size_t spatial) {
  Shape x = input(c, 0);
  if (x.size() == spatial + 1) x.insert(x.begin(), 1.0);
  if (x.size() != spatial + 2)
    throw Refused{"input 1 has " + std::to_string(input(c, 0).size()) + " dimension(s), " +
                  std::to_string(spatial + 2) + " expected"};
  const Shape& w = ranked(c, 1, spatial + 2);
  const std::vector<long long> groups = integers(c, 6, "groups");
  if (groups.size() != 1 || groups[0] < 1) throw Refused{"its groups is not a positive integer"};
  same(x[1], w[1] * static_cast<double>(groups[0]), "input channels and weight channels x groups");
  const auto per_dim = [&](std::size_t i, const char* what, long long least) {
    std::vector<long long> v = integers(c, i, what);
    if (v.size() == 1) v.assign(spatial, v[0]);
    if (v.size() != spatial)
      throw Refused{std::string("its ") + what + " has " + std::to_string(v.size()) +
                    " value(s) for " + std::to_string(spatial) + " spatial dimension(s)"};
    for (long long e : v)
      if (e < least)
        throw Refused{std::string("its ") + what + " is below " + std::to_string(least)};
    return v;
  };
  const std::vector<long long> stride = per_dim(3, "stride", 1),
                               dilation = per_dim(5, "dilation", 1);
  // padding="same" keeps the spatial size (PyTorch allows it with stride 1 only).
  const bool keep =
      c.concrete && c.concrete->is_array() && c.concrete->size() > 4 && (*c.concrete)[4] == "same";
  const bool valid =
      c.concrete && c.concrete->is_array() && c.concrete->size() > 4 && (*c.concrete)[4] == "valid";
  const std::vector<long long> padding =
      keep || valid ? std::vector<long long>(spatial, 0) : per_dim(4, "padding", 0);
  Product p, outputs;
  p *= 2.0;
  p *= x[0];
  p *= w[0];
  p *= w[1];
  outputs *= x[0];
  outputs *= w[0];
  for (std::size_t d = 0; d < spatial; ++d) {
    const double in = x[2 + d], k = w[2 + d];
    const double span = in + 2.0 * static_cast<double>(padding[d]) -
                        static_cast<double>(dilation[d]) * (k - 1.0) - 1.0;
    if (!keep && k > 0.0 && span < 0.0) throw Refused{"its kernel is larger than its padded input"};
    const double out =
        keep ? in : (k == 0.0 ? 0.0 : std::floor(span / static_cast<double>(stride[d])) + 1.0);
    p *= out;
    p *= k;
    outputs *= out;
  }
  return {p.value, outputs.value};
}

// The elements of a shape.
double elements(const Shape& s) {
  Product p;
  for (double d : s) p *= d;
  return p.value;
}

// The elements of the broadcast shape of the inputs (a non-tensor's [] broadcasts as a
// scalar).
double broadcast(const Call& c) {
  Shape out;
  for (const Shape& s : c.dims) {
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1.0);
    for (std::size_t i = 0; i < s.size(); ++i) {
      double& o = out[out.size() - s.size() + i];
      if (s[i] != o && s[i] != 1.0 && o != 1.0)
        throw Refused{"its inputs' dimensions " + text(o) + " and " + text(s[i]) +
                      " do not broadcast"};
      if (o == 1.0) o = s[i];
    }
  }
  return elements(out);
}

// aten::add, aten::mul: one FLOP per element of input 1 (PyTorch's rule); the output
// the inputs' broadcast shape.
Work elementwise(const Call& c) { return {elements(input(c, 0)), broadcast(c)}; }

// _scaled_dot_product_*_attention(query[B,H,S_q,D_q], key[B,H,S_k,D_q], value[B,H,S_k,D_v]).
Work attention(const Call& c) {
  const Shape &q = ranked(c, 0, 4), &k = ranked(c, 1, 4), &v = ranked(c, 2, 4);
  same(q[0], k[0], "batch sizes");
  same(q[0], v[0], "batch sizes");
  same(q[1], k[1], "head counts");
  same(q[1], v[1], "head counts");
  same(q[3], k[3], "query and key widths");
  same(k[2], v[2], "key and value lengths");
  const double bh = q[0] * q[1];
  const double scores = gemm(bh, q[2], k[2], q[3]).flops;
  const Work out = gemm(bh, q[2], v[3], k[2]);  // [B,H,S_q,S_k] x [B,H,S_k,D_v]
  Product p;
  p *= scores + out.flops;
  return {p.value, out.outputs};
}

// linear(input[…,K], weight[N,K] or [K], bias): 2·(rows)·N·K.
Work linear(const Call& c) {
  const Shape& x = input(c, 0);
  const Shape& w = input(c, 1);
  if (x.empty() || w.empty() || w.size() > 2)
    throw Refused{"its input or weight has no dimensions, or its weight more than 2"};
  const double n = w.size() == 2 ? w[0] : 1.0, k = w.back();
  same(x.back(), k, "inner dimensions");
  Product rows;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) rows *= x[i];
  return gemm(rows.value, 1.0, n, k);
}

// matmul(a, b): 1-D operands as a row or a column, batch dimensions broadcast.
Work matmul(const Call& c) {
  const Shape &a = input(c, 0), &b = input(c, 1);
  if (a.empty() || b.empty()) throw Refused{"an operand has no dimensions"};
  const double m = a.size() >= 2 ? a[a.size() - 2] : 1.0, k = a.back();
  const double kb = b.size() >= 2 ? b[b.size() - 2] : b[0], n = b.size() >= 2 ? b.back() : 1.0;
  same(k, kb, "inner dimensions");
  const std::size_t ba = a.size() > 2 ? a.size() - 2 : 0, bb = b.size() > 2 ? b.size() - 2 : 0;
  Product batch;
  for (std::size_t i = 0; i < std::max(ba, bb); ++i) {
    const double x = i < ba ? a[ba - 1 - i] : 1.0, y = i < bb ? b[bb - 1 - i] : 1.0;
    if (x != y && x != 1.0 && y != 1.0)
      throw Refused{"batch dimensions " + text(x) + " and " + text(y) + " do not broadcast"};
    batch *= std::max(x, y);
  }
  return gemm(batch.value, m, n, k);
}

struct Formula {
  std::string_view op;
  Work (*count)(const Call&);
  bool composite = false;  // its work is that of the operators it calls
};

// FLOPs per output element of operators that neither computeFlops() nor flop_counter.py
// counts (PyTorch itself counts none for them), the output of input 1's shape:
//   aten::relu, aten::relu_        1  a compare-and-select
//   aten::add_, sub_, mul_, div_   1  the operation (PyTorch counts only the out-of-place
//                                      add and mul)
//   aten::softmax, aten::_softmax  5  max, subtract, exp, sum, divide
//   aten::layer_norm,              8  mean (add), variance (subtract, square, add),
//     aten::native_layer_norm          normalize (subtract, times 1/sigma), scale and shift
//   aten::rms_norm,                4  square, mean (add), times 1/rms, scale
//     aten::_fused_rms_norm
//   aten::batch_norm,              2  in inference, the running statistics folded into one
//     aten::_batch_norm_impl_index,    multiply and one add; in training ("Concrete Inputs"
//     aten::native_batch_norm          argument 6 "True") 8, its statistics computed as a
//                                      layer norm's; a call without the flag as inference
// aten::softmax, aten::layer_norm, aten::rms_norm, aten::batch_norm and
// aten::_batch_norm_impl_index are composites, the work done by aten::_softmax,
// aten::native_layer_norm, aten::_fused_rms_norm and aten::native_batch_norm (or a
// backend's) nested in them; an rms_norm PyTorch decomposes keeps the counts of the
// add and mul nested in it (its pow, mean and rsqrt none). An input of no floating type
// ("Input type", as a batch norm's step counter is added to) has no FLOPs.
struct PerElement {
  std::string_view op;
  double flops;
  double training = 0;  // where argument 6 is a training flag
  bool composite = false;
};
constexpr PerElement kPerElement[] = {
    {"aten::relu", 1},
    {"aten::relu_", 1},
    {"aten::add_", 1},
    {"aten::sub_", 1},
    {"aten::mul_", 1},
    {"aten::div_", 1},
    {"aten::softmax", 5, 0, true},
    {"aten::_softmax", 5},
    {"aten::layer_norm", 8, 0, true},
    {"aten::native_layer_norm", 8},
    {"aten::rms_norm", 4, 0, true},
    {"aten::_fused_rms_norm", 4},
    {"aten::batch_norm", 2, 8, true},
    {"aten::_batch_norm_impl_index", 2, 8, true},
    {"aten::native_batch_norm", 2, 8},
};

Work per_element(const Call& c, const PerElement& p) {
  if (!c.floating) throw Refused{"its first input is no floating type"};
  const double n = elements(input(c, 0));
  const bool training = p.training > 0.0 && c.concrete && c.concrete->is_array() &&
                        c.concrete->size() > 5 && (*c.concrete)[5] == "True";
  Product f;
  f *= n;
  f *= training ? p.training : p.flops;
  return {f.value, n};
}

// The table of formulas.
constexpr Formula kFormulas[] = {
    {"aten::mm", [](const Call& c) { return mm_from(c, 0); }},
    {"aten::addmm", [](const Call& c) { return mm_from(c, 1); }},
    {"aten::bmm", [](const Call& c) { return bmm_from(c, 0); }},
    {"aten::baddbmm", [](const Call& c) { return bmm_from(c, 1); }},
    {"aten::conv1d", [](const Call& c) { return conv(c, 1); }},
    {"aten::conv2d", [](const Call& c) { return conv(c, 2); }},
    {"aten::conv3d", [](const Call& c) { return conv(c, 3); }},
    {"aten::add", elementwise},
    {"aten::mul", elementwise},
    {"aten::sub", elementwise},  // PyTorch counts none: one per element, as its add
    {"aten::div", elementwise},
    {"aten::_scaled_dot_product_flash_attention", attention},
    {"aten::_scaled_dot_product_flash_attention_for_cpu", attention},
    {"aten::_scaled_dot_product_efficient_attention", attention},
    {"aten::_scaled_dot_product_cudnn_attention", attention},
    {"aten::scaled_dot_product_attention", attention, true},
    {"aten::linear", linear, true},
    {"aten::matmul", matmul, true},
};

// "Input Dims" as shapes: a list of lists of non-negative integers.
std::vector<Shape> dims_of(const json& args) {
  const auto it = args.find("Input Dims");
  if (it == args.end()) throw Refused{"no \"Input Dims\" (record_shapes=True records them)"};
  if (!it->is_array()) throw Refused{"its \"Input Dims\" is not a list"};
  std::vector<Shape> out;
  for (const json& shape : *it) {
    if (!shape.is_array()) throw Refused{"its \"Input Dims\" holds a shape that is not a list"};
    Shape s;
    for (const json& d : shape) {
      if (d.is_number_unsigned()) {
        s.push_back(static_cast<double>(d.get<std::uint64_t>()));
      } else if (d.is_number_integer() && d.get<std::int64_t>() >= 0) {
        s.push_back(static_cast<double>(d.get<std::int64_t>()));
      } else {
        throw Refused{"its \"Input Dims\" holds " +
                      (d.is_number() ? d.dump() : std::string("a ") + d.type_name()) +
                      ", not a non-negative integer"};
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

// A listed operator's count, or why not.
template <typename Count>
ShapeFlops counted(const json& args, bool composite, Count count) {
  ShapeFlops result;
  result.listed = true;
  result.composite = composite;
  try {
    Call call{dims_of(args), nullptr};
    const auto concrete = args.find("Concrete Inputs");
    if (concrete != args.end()) call.concrete = &*concrete;
    call.floating = !args.contains("Input type") || !precision_of(args).empty();
    const Work w = count(call);
    result.flops = w.flops;
    if (w.outputs >= 0.0) result.outputs = w.outputs;
  } catch (const Refused& r) {
    result.refused = r.why;
  }
  return result;
}

}  // namespace

// The "Input type" of an operator's first input.
std::string first_type(const nlohmann::json& args) {
  const auto it = args.find("Input type");
  if (it == args.end() || !it->is_array() || it->empty() || !(*it)[0].is_string()) return {};
  return (*it)[0].get<std::string>();
}

// PyTorch's names of its floating types ("Input type"), each with its precision
// (core::kPrecisions); a name holding `type` is of it ("c10::Float8_e4m3fn" and
// "c10::Float8_e5m2" alike: one FP8 precision, as the tensor paths count them).
struct TypeName {
  std::string_view type;
  bool whole;  // the whole name ("float"), else a part of it ("BFloat16" of "c10::BFloat16")
  std::string_view precision;
};
constexpr TypeName kTypeNames[] = {
    {"float", true, "fp32"},     {"double", true, "fp64"},  {"Half", false, "fp16"},
    {"BFloat16", false, "bf16"}, {"Float8_", false, "fp8"},
};

// The precision of an operator's first input; empty where it is no floating type.
std::string precision_of(const nlohmann::json& args) {
  const std::string t = first_type(args);
  for (const TypeName& n : kTypeNames)
    if (n.whole ? t == n.type : t.find(n.type) != std::string::npos)
      return std::string(n.precision);
  return {};
}

ShapeFlops shape_flops(std::string_view op, const json& args) {
  for (const Formula& f : kFormulas)
    if (f.op == op) return counted(args, f.composite, f.count);
  for (const PerElement& p : kPerElement)
    if (p.op == op)
      return counted(args, p.composite, [&p](const Call& c) { return per_element(c, p); });
  return {};
}

std::string counted_operators() {
  std::string out;
  for (const Formula& f : kFormulas) out += (out.empty() ? "" : ", ") + std::string(f.op);
  for (const PerElement& p : kPerElement) out += ", " + std::string(p.op);
  return out;
}

}  // namespace rooftop::counters::importing
