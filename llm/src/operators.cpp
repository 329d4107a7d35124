#include "rooftop/llm/operators.hpp"

#include <algorithm>
#include <cmath>

namespace rooftop::llm {
namespace {

// FLOPs per element of a norm: RMS norm 4 (square, mean, times 1/rms, scale), layer norm
// 8 (mean, variance, normalize, scale and shift), as the PyTorch trace reader counts them.
double norm_flops(const ModelConfig& m) { return m.norm == Norm::rms ? 4 : 8; }

// The step's shape: B sequences of T new tokens after a context of C, under a sliding
// window of W keys (0: none).
struct Step {
  double batch, tokens, context, window = 0;
  double rows() const { return batch * tokens; }  // N: the tokens the GEMMs see
  // Keys visited over the step's queries with a causal mask: each new token i (1..T) sees
  // C + i keys, at most W: the first k = W - C of them (0 to T) C + i, the rest W.
  double keys() const {
    if (window <= 0 || context + tokens <= window)
      return batch * (tokens * context + tokens * (tokens + 1) / 2);
    const double k = std::clamp(window - context, 0.0, tokens);
    return batch * (k * context + k * (k + 1) / 2 + (tokens - k) * window);
  }
  // The keys the last query sees, the cache the attention reads: C + T, at most W.
  double visible() const {
    return window > 0 ? std::min(context + tokens, window) : context + tokens;
  }
};

// A GEMM over every layer: N rows through a `in` x `out` weight.
Operator gemm(const std::string& name, const std::string& kind, const ModelConfig& m,
              const Workload& w, double rows, double in, double out, double weights = -1) {
  const double L = static_cast<double>(m.layers);
  Operator op{name, kind, std::string(w.dtype->precision)};
  op.flops = 2 * rows * in * out * L;
  op.weight_bytes = (weights < 0 ? in * out : weights) * w.dtype->weight_bytes * L;
  op.activation_bytes = rows * (in + out) * w.dtype->activation_bytes * L;
  op.launches = L;
  return op;
}

// An elementwise operator over every layer (`per_layer` of them a layer): `flops` per
// element, `streams` arrays of `elements` read or written.
Operator elementwise(const std::string& name, const std::string& kind, const ModelConfig& m,
                     const Workload& w, double elements, double flops, double streams,
                     double per_layer = 1, double weights = 0) {
  const double n = static_cast<double>(m.layers) * per_layer;
  Operator op{name, kind, "fp32"};
  op.flops = elements * flops * n;
  op.activation_bytes = elements * streams * w.dtype->activation_bytes * n;
  op.weight_bytes = weights * w.dtype->weight_bytes * n;
  op.launches = n;
  return op;
}

// FLOPs of soft-capping an element, c x tanh(x / c): a divide, the tanh and a multiply, the
// tanh counted as one FLOP as SiLU's exp is (activation_flops).
constexpr double kSoftcapFlops = 3;

// Attention of `layers` layers of one kind (`s` their step, its window theirs; names ending
// in `suffix`): fused (one flash kernel: Q, the KV cache and the output move once, the new
// keys and values are written to the cache), or its operators with the score matrix written
// and read between them. Grouped-query attention reads the KV heads' cache: its bytes are
// the KV heads', its FLOPs the query heads'. Soft-capped scores (Gemma 2) cost
// kSoftcapFlops a score more.
void attention(const ModelConfig& m, const Workload& w, const Step& s, double layers,
               const std::string& suffix, std::vector<Operator>& ops) {
  const double L = layers, H = static_cast<double>(m.heads);
  const double d = static_cast<double>(m.head_dim);
  const double ab = w.dtype->activation_bytes;
  const double q = s.rows() * static_cast<double>(m.q_dim()) * ab;  // Q, or the output
  const double cache = s.batch * s.visible() * static_cast<double>(m.kv_dim()) *
                       w.kv_bytes;  // K or V of one layer
  const double written = s.rows() * static_cast<double>(m.kv_dim()) * w.kv_bytes * 2;
  const double keys = s.keys() * H;
  const double cap = m.attn_softcap > 0 ? kSoftcapFlops : 0;
  const std::string p(w.dtype->precision == "fp8" ? "bf16" : w.dtype->precision);
  if (!w.unfused) {
    Operator op{"attention" + suffix, "attention", p};
    op.flops = (4 * d + 5 + cap) * keys * L;  // QK^T, PV (2d each), softmax 5, the cap
    op.kv_bytes = (2 * cache + written) * L;
    op.activation_bytes = 2 * q * L;
    op.launches = L;
    ops.push_back(op);
    return;
  }
  // Unfused, the batched GEMMs compute the full rectangle of scores (each query row
  // against all the keys it may see, C + T or the window) and a mask hides the future:
  // their FLOPs are the rectangle's.
  const double rectangle = s.rows() * H * s.visible();
  const double scores = rectangle * ab;
  Operator qk{"qk_scores" + suffix, "attention", p};
  qk.flops = 2 * d * rectangle * L;
  qk.kv_bytes = cache * L;
  qk.activation_bytes = (q + scores) * L;
  qk.launches = L;
  ops.push_back(qk);
  if (cap > 0) {
    Operator softcap{"softcap" + suffix, "attention", "fp32"};
    softcap.flops = cap * rectangle * L;
    softcap.activation_bytes = 2 * scores * L;
    softcap.launches = L;
    ops.push_back(softcap);
  }
  Operator softmax{"softmax" + suffix, "attention", "fp32"};
  softmax.flops = 5 * rectangle * L;
  softmax.activation_bytes = 2 * scores * L;
  softmax.launches = L;
  Operator pv{"pv" + suffix, "attention", p};
  pv.flops = 2 * d * rectangle * L;
  pv.kv_bytes = cache * L;
  pv.activation_bytes = (scores + q) * L;
  pv.launches = L;
  ops.insert(ops.end(), {softmax, pv});
}

// Attention of every layer: one kind where the layers are alike (every one global, or every
// one local as Mistral's), else (Gemma 2) the local layers' operators ("_local": keys capped
// at the window) and the global ones' ("_global": every key). Unfused, the new keys and
// values are written to the cache first, alike in every layer.
void attention(const ModelConfig& m, const Workload& w, const Step& s,
               std::vector<Operator>& ops) {
  if (w.unfused) {
    const double L = static_cast<double>(m.layers);
    Operator write{"kv_write", "attention", "fp32"};
    write.kv_bytes = s.rows() * static_cast<double>(m.kv_dim()) * w.kv_bytes * 2 * L;
    write.launches = 2 * L;
    ops.push_back(write);
  }
  Step global = s;
  global.window = 0;
  const auto local = static_cast<double>(m.local_layers);
  const auto all = static_cast<double>(m.layers);
  if (m.local_layers == 0 || m.local_layers == m.layers) {
    attention(m, w, m.local_layers == 0 ? global : s, all, "", ops);
    return;
  }
  attention(m, w, s, local, "_local", ops);
  attention(m, w, global, all - local, "_global", ops);
}

// The MLP of every layer: gated (gate and up, the activation times the gate, down) or
// plain (up, activation, down); a mixture of experts routes each token to
// experts_per_token of them and reads the weights of the distinct experts its tokens chose.
void mlp(const ModelConfig& m, const Workload& w, const Step& s, std::vector<Operator>& ops) {
  const double h = static_cast<double>(m.hidden), I = static_cast<double>(m.intermediate);
  const double act = m.activation_flops + (m.mlp == Mlp::gated ? 1 : 0);
  if (m.experts == 0) {
    if (m.mlp == Mlp::gated) ops.push_back(gemm("gate_proj", "mlp", m, w, s.rows(), h, I));
    ops.push_back(gemm("up_proj", "mlp", m, w, s.rows(), h, I));
    ops.push_back(elementwise("act", "mlp", m, w, s.rows() * I, act,
                              m.mlp == Mlp::gated ? 3 : 2));
    ops.push_back(gemm("down_proj", "mlp", m, w, s.rows(), I, h));
    return;
  }
  const double E = static_cast<double>(m.experts), k = static_cast<double>(m.experts_per_token);
  const double pairs = s.rows() * k;  // token-expert pairs
  const double read = distinct_experts(m.experts, m.experts_per_token, s.rows());
  ops.push_back(gemm("router", "moe router", m, w, s.rows(), h, E));
  for (const char* name : {"expert_gate_proj", "expert_up_proj"}) {
    Operator op = gemm(name, "moe experts", m, w, pairs, h, I, read * h * I);
    op.launches *= std::ceil(read);
    ops.push_back(op);
  }
  Operator a = elementwise("expert_act", "moe experts", m, w, pairs * I, act, 3);
  a.launches *= std::ceil(read);
  ops.push_back(a);
  Operator down = gemm("expert_down_proj", "moe experts", m, w, pairs, I, h, read * I * h);
  down.launches *= std::ceil(read);
  ops.push_back(down);
}

}  // namespace

const DType* find_dtype(std::string_view name) {
  for (const DType& d : kDTypes)
    if (d.name == name) return &d;
  return nullptr;
}

double distinct_experts(long long experts, long long per_token, double tokens) {
  if (experts <= 0) return 0;
  const double E = static_cast<double>(experts);
  return E * (1 - std::pow(1 - static_cast<double>(per_token) / E, tokens));
}

std::vector<Operator> step_operators(const ModelConfig& m, const Workload& w, long long tokens,
                                     long long context) {
  const Step s{static_cast<double>(w.batch), static_cast<double>(tokens),
               static_cast<double>(context), static_cast<double>(m.window)};
  const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
  const double N = s.rows(), ab = w.dtype->activation_bytes;
  std::vector<Operator> ops;
  // The embedding gathers a row a token, then (a kernel of its own, N·h FLOPs) adds a
  // learned position's (GPT-2) or scales it by sqrt(hidden) (Gemma).
  const bool learned = m.position == Position::learned;
  const bool pass = learned || m.scaled_embedding;
  Operator embed{"embedding", "embedding", "fp32"};
  embed.in_layers = false;
  embed.weight_bytes = N * h * w.dtype->weight_bytes * (learned ? 2 : 1);
  embed.flops = pass ? N * h : 0;
  embed.activation_bytes = N * h * ab;
  embed.launches = pass ? 2 : 1;
  ops.push_back(embed);
  ops.push_back(elementwise("attn_norm", "norm", m, w, N * h, norm_flops(m), 2, 1, h));
  ops.push_back(gemm("q_proj", "projection", m, w, N, h, static_cast<double>(m.q_dim())));
  ops.push_back(gemm("k_proj", "projection", m, w, N, h, static_cast<double>(m.kv_dim())));
  ops.push_back(gemm("v_proj", "projection", m, w, N, h, static_cast<double>(m.kv_dim())));
  if (m.position == Position::rotary)  // x cos + rotate(x) sin on queries and keys
    ops.push_back(elementwise("rotary", "rotary", m, w,
                              N * static_cast<double>(m.q_dim() + m.kv_dim()), 3, 2));
  attention(m, w, s, ops);
  ops.push_back(gemm("o_proj", "projection", m, w, N, static_cast<double>(m.q_dim()), h));
  // Gemma 2 normalizes attention's and the MLP's outputs too (post_attention_layernorm,
  // post_feedforward_layernorm), before each residual add.
  if (m.sandwich_norms)
    ops.push_back(elementwise("post_attn_norm", "norm", m, w, N * h, norm_flops(m), 2, 1, h));
  ops.push_back(elementwise("residual", "elementwise", m, w, N * h, 1, 3, 2));
  ops.push_back(elementwise("mlp_norm", "norm", m, w, N * h, norm_flops(m), 2, 1, h));
  mlp(m, w, s, ops);
  if (m.sandwich_norms)
    ops.push_back(elementwise("post_mlp_norm", "norm", m, w, N * h, norm_flops(m), 2, 1, h));
  // The final norm over every token, the LM head on the last token of each sequence (the
  // one generation needs), its weights the embedding's where tied.
  Operator final_norm{"final_norm", "norm", "fp32"};
  final_norm.in_layers = false;
  final_norm.flops = N * h * norm_flops(m);
  final_norm.activation_bytes = 2 * N * h * ab;
  final_norm.weight_bytes = h * w.dtype->weight_bytes;
  final_norm.launches = 1;
  ops.push_back(final_norm);
  Operator head{"lm_head", "lm head", std::string(w.dtype->precision)};
  head.in_layers = false;
  head.flops = 2 * s.batch * h * V;
  head.weight_bytes = h * V * w.dtype->weight_bytes;
  head.activation_bytes = s.batch * (h + V) * ab;
  head.launches = 1;
  ops.push_back(head);
  if (m.final_softcap > 0) {  // Gemma 2 caps the logits: read and written once more
    Operator cap{"final_softcap", "lm head", "fp32"};
    cap.in_layers = false;
    cap.flops = kSoftcapFlops * s.batch * V;
    cap.activation_bytes = 2 * s.batch * V * ab;
    cap.launches = 1;
    ops.push_back(cap);
  }
  return ops;
}

double weight_bytes(const ModelConfig& m, const Workload& w) {
  const double h = static_cast<double>(m.hidden), I = static_cast<double>(m.intermediate);
  const double mlp = m.experts > 0 ? static_cast<double>(m.experts) * 3 * h * I +
                                         h * static_cast<double>(m.experts)
                     : m.mlp == Mlp::gated ? 3 * h * I
                                           : 2 * h * I;
  const double norms = (m.sandwich_norms ? 4 : 2) * h;
  const double layer = h * static_cast<double>(m.q_dim() + 2 * m.kv_dim()) +
                       static_cast<double>(m.q_dim()) * h + mlp + norms;
  const double embeddings = static_cast<double>(m.vocab) * h * (m.tied ? 1 : 2) +
                            static_cast<double>(m.positions) * h;
  return (static_cast<double>(m.layers) * layer + embeddings + h) * w.dtype->weight_bytes;
}

// K and V of every layer: the whole context, but in the local layers of a windowed cache
// (Gemma 2's HybridCache) at most the window.
double kv_cache_bytes(const ModelConfig& m, const Workload& w, long long length) {
  const long long local =
      m.windowed_cache && m.window > 0 ? std::min(length, m.window) : length;
  const double positions = static_cast<double>(m.global_layers()) * static_cast<double>(length) +
                           static_cast<double>(m.local_layers) * static_cast<double>(local);
  return static_cast<double>(w.batch) * positions * 2 * static_cast<double>(m.kv_dim()) *
         w.kv_bytes;
}

}  // namespace rooftop::llm
