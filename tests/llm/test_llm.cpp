// rooftop_llm: real Hugging Face configs (tests/fixtures/llm, sources in fixtures/README.md)
// read, their operators' counts against closed forms (Llama 3.1 8B's decode token,
// grouped-query attention's KV cache, Mixtral's two experts of eight, GPT-2's full
// attention and tied embeddings, Gemma's one KV head, Phi-3's full attention, Mistral's
// sliding window, Gemma 2's local and global layers, four norms and soft-caps), bad configs
// refused in one line, and the estimate on the H200's and a Zen 4's measured ceilings
// (data/).

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/llm/config.hpp"
#include "rooftop/llm/estimate.hpp"
#include "rooftop/llm/operators.hpp"
#include "support.hpp"

namespace rooftop::llm {
namespace {

using rooftop::testing::kFixtures;
using rooftop::testing::read_bytes;

ModelConfig config(const std::string& name) {
  return parse_config(read_bytes(kFixtures + "/llm/" + name), name);
}

// What parse_config says of `text`, read as c.json: its error, or "accepted".
std::string refused(const std::string& text) {
  try {
    parse_config(text, "c.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

// hidden, layers, query heads, KV heads, head_dim, intermediate, vocabulary.
std::vector<long long> dimensions(const ModelConfig& m) {
  return {m.hidden, m.layers, m.heads, m.kv_heads, m.head_dim, m.intermediate, m.vocab};
}

const Operator& named(const std::vector<Operator>& ops, const std::string& name) {
  for (const Operator& op : ops)
    if (op.name == name) return op;
  throw std::runtime_error("no operator " + name);
}

TEST(LlmConfig, Llama31_8BIsReadWithItsGroupedQueryHeads) {
  const ModelConfig m = config("llama-3-8b.json");
  EXPECT_EQ(m.model_type, "llama");
  EXPECT_EQ(dimensions(m), (std::vector<long long>{4096, 32, 32, 8, 128, 14336, 128256}));
  EXPECT_FALSE(m.tied);
  EXPECT_EQ(m.mlp, Mlp::gated);
}

TEST(LlmOperators, ADecodeTokenOfLlama31_8BIsTwiceItsWeightsInFlopsPlusAttention) {
  const ModelConfig m = config("llama-3-8b.json");
  Workload w;
  const std::vector<Operator> ops = step_operators(m, w, 1, 127);
  // The weights a token multiplies: per layer Q, K, V, O and the gated MLP; then the LM head.
  const double h = 4096, qd = 4096, kvd = 1024, I = 14336, V = 128256;
  const double matrices = 32 * (h * qd + 2 * h * kvd + qd * h + 3 * h * I) + h * V;
  EXPECT_NEAR(matrices, 7.50e9, 0.01e9);
  double gemms = 0;
  for (const char* name : {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                           "down_proj", "lm_head"})
    gemms += named(ops, name).flops;
  EXPECT_DOUBLE_EQ(gemms, 2 * matrices);
  // Attention over the 128 keys of position 128: QK^T and PV, 2 x 128 each a key and a
  // query head, and softmax's 5, in 32 layers.
  EXPECT_DOUBLE_EQ(named(ops, "attention").flops, 32.0 * 32 * 128 * (4 * 128 + 5));
  // The weights stream once: 2 bytes each (bf16), the embedding a row.
  EXPECT_DOUBLE_EQ(named(ops, "down_proj").weight_bytes, 32 * I * h * 2);
  EXPECT_DOUBLE_EQ(named(ops, "embedding").weight_bytes, h * 2);
}

TEST(LlmOperators, GroupedQueryAttentionReadsAndWritesTheKvHeadsCache) {
  const ModelConfig m = config("llama-3-8b.json");
  Workload w;
  // K and V of 8 KV heads of 128, 2 bytes: 4096 bytes a layer and token.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, w, 1) / 32, 2.0 * 8 * 128 * 2);
  // A decode step after 127 tokens reads the 128 tokens' K and V and writes the new one's.
  const std::vector<Operator> fused = step_operators(m, w, 1, 127);
  const Operator& a = named(fused, "attention");
  EXPECT_DOUBLE_EQ(a.kv_bytes, 32 * (128 + 1) * 4096.0);
  // Unfused, the same bytes of cache are read by the two GEMMs, and the scores move.
  w.unfused = true;
  const std::vector<Operator> ops = step_operators(m, w, 1, 127);
  EXPECT_DOUBLE_EQ(named(ops, "qk_scores").kv_bytes + named(ops, "pv").kv_bytes +
                       named(ops, "kv_write").kv_bytes,
                   a.kv_bytes);
  EXPECT_GT(named(ops, "softmax").activation_bytes, 0.0);
}

TEST(LlmOperators, MixtralReadsTwoExpertsOfEightAtBatchOneAndNearlyAllAtSixtyFour) {
  const ModelConfig m = config("mixtral-8x7b.json");
  EXPECT_EQ(m.experts, 8);
  EXPECT_EQ(m.experts_per_token, 2);
  Workload w;
  const double expert = 4096.0 * 14336 * 2 * 32;  // one expert's matrix in every layer
  std::vector<Operator> ops = step_operators(m, w, 1, 127);
  EXPECT_DOUBLE_EQ(named(ops, "expert_down_proj").weight_bytes, 2 * expert);
  EXPECT_DOUBLE_EQ(named(ops, "expert_down_proj").flops, 2.0 * 2 * 14336 * 4096 * 32);
  w.batch = 64;
  ops = step_operators(m, w, 1, 127);
  const double distinct = 8 * (1 - std::pow(0.75, 64));
  EXPECT_NEAR(named(ops, "expert_down_proj").weight_bytes, distinct * expert, 1.0);
  EXPECT_GT(distinct, 7.99);
}

TEST(LlmOperators, Gpt2HasFullAttentionTiedEmbeddingsAndAPlainMlp) {
  const ModelConfig m = config("gpt2.json");
  EXPECT_EQ(m.model_type, "gpt2");
  EXPECT_EQ(m.kv_heads, m.heads);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_EQ(m.intermediate, 4 * 768);
  EXPECT_TRUE(m.tied);
  EXPECT_EQ(m.position, Position::learned);
  Workload w;
  w.dtype = find_dtype("fp32");
  w.kv_bytes = 4;
  // 124M parameters: the embedding once (tied), the positions, 12 layers.
  const double h = 768;
  const double params = 50257 * h + 1024 * h + 12 * (4 * h * h + 2 * h * 4 * h + 2 * h) + h;
  EXPECT_DOUBLE_EQ(weight_bytes(m, w), 4 * params);
  EXPECT_NEAR(params, 124e6, 1e6);
  const std::vector<Operator> ops = step_operators(m, w, 1, 10);
  for (const Operator& op : ops) EXPECT_NE(op.name, "gate_proj");
  EXPECT_DOUBLE_EQ(named(ops, "k_proj").flops, 2.0 * h * h * 12);  // all 12 heads
  EXPECT_DOUBLE_EQ(named(ops, "lm_head").flops, 2.0 * h * 50257);
}

TEST(LlmOperators, Gemma2BHasOneKvHeadOf256TiedEmbeddingsAndAGeluGate) {
  const ModelConfig m = config("gemma-2b-it.json");
  EXPECT_EQ(m.model_type, "gemma");
  EXPECT_EQ(m.heads, 8);
  EXPECT_EQ(m.kv_heads, 1);    // multi-query attention
  EXPECT_EQ(m.head_dim, 256);  // from the config: 2048 / 8 would be 256 too, q_dim 2048
  EXPECT_TRUE(m.tied);         // no tie_word_embeddings: Gemma ties
  EXPECT_EQ(m.activation_flops, 8);  // hidden_act gelu
  EXPECT_EQ(m.window, 0);
  Workload w;
  // 2.51 billion parameters: the embedding once, 18 layers of Q (2048 x 2048), K and V
  // (2048 x 256 each), O and the gated MLP (3 x 2048 x 16384), and the norms.
  const double h = 2048, I = 16384;
  const double matrices = 256000 * h + 18 * (h * 2048 + 2 * h * 256 + 2048 * h + 3 * h * I);
  EXPECT_NEAR(weight_bytes(m, w) / 2, matrices, 0.001 * matrices);
  EXPECT_NEAR(matrices, 2.506e9, 0.001e9);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, w, 1) / 18, 2.0 * 1 * 256 * 2);
  // Each of the 8 query heads reads the one KV head: a decode step's attention FLOPs are
  // the query heads', its cache bytes the one head's.
  const Operator a = named(step_operators(m, w, 1, 99), "attention");
  EXPECT_DOUBLE_EQ(a.flops, 18.0 * 8 * 100 * (4 * 256 + 5));
  EXPECT_DOUBLE_EQ(a.kv_bytes, 18 * (2 * 100 + 2) * 256 * 2.0);  // K and V read, the new pair written
}

TEST(LlmOperators, Phi3MiniHasFullMultiHeadAttentionAndItsOwnLmHead) {
  const ModelConfig m = config("phi-3-mini-128k-instruct.json");
  EXPECT_EQ(m.model_type, "phi3");
  EXPECT_EQ(m.kv_heads, m.heads);  // 32 of each
  EXPECT_EQ(m.head_dim, 96);
  EXPECT_FALSE(m.tied);
  EXPECT_EQ(m.window, 262144);  // longer than its 131072 positions: never binds
  Workload w;
  const double h = 3072, I = 8192, V = 32064;
  const double matrices = 2 * V * h + 32 * (4 * h * h + 3 * h * I);
  EXPECT_NEAR(matrices, 3.821e9, 0.001e9);  // "3.8B"
  EXPECT_NEAR(weight_bytes(m, w) / 2, matrices, 0.001 * matrices);
  EXPECT_DOUBLE_EQ(named(step_operators(m, w, 1, 10), "k_proj").flops, 2.0 * h * h * 32);
}

TEST(LlmOperators, MistralsSlidingWindowCapsTheKeysAQueryReads) {
  const ModelConfig m = config("mistral-7b-v0.1.json");
  EXPECT_EQ(m.window, 4096);
  Workload w;
  const double per_key = 32.0 * 32 * (4 * 128 + 5);  // layers x query heads x (QK, PV, softmax)
  // Inside the window a decode step reads every key; past it, the latest 4096.
  EXPECT_DOUBLE_EQ(named(step_operators(m, w, 1, 999), "attention").flops, per_key * 1000);
  const Operator far = named(step_operators(m, w, 1, 9999), "attention");
  EXPECT_DOUBLE_EQ(far.flops, per_key * 4096);
  EXPECT_DOUBLE_EQ(far.flops, named(step_operators(m, w, 1, 5000), "attention").flops);
  EXPECT_DOUBLE_EQ(far.kv_bytes, 32 * (2 * 4096 + 2) * 1024 * 2.0);
  // A prefill of 6,000 tokens: token i sees i keys up to 4,096, then 4,096.
  const double keys = 4096.0 * 4097 / 2 + (6000 - 4096) * 4096.0;
  EXPECT_DOUBLE_EQ(named(step_operators(m, w, 6000, 0), "attention").flops, per_key * keys);
  // Unfused, the score rectangle is as wide as the window.
  w.unfused = true;
  EXPECT_DOUBLE_EQ(named(step_operators(m, w, 1, 9999), "qk_scores").flops,
                   2.0 * 128 * 32 * 4096 * 32);
  // The cache still holds the whole context (as Hugging Face's does).
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, w, 10000), 10000 * 32 * 1024 * 2.0 * 2);
  // Qwen2.5 gives a window and does not use it.
  const ModelConfig qwen = config("qwen2-7b.json");
  EXPECT_EQ(qwen.window, 0);
}

TEST(LlmConfig, Gemma2_9BIsReadWithItsLocalLayersNormsAndSoftCaps) {
  const ModelConfig m = config("gemma-2-9b-it.json");
  EXPECT_EQ(m.model_type, "gemma2");
  // head_dim 256 from the config: 3584 / 16 would be 224
  EXPECT_EQ(dimensions(m), (std::vector<long long>{3584, 42, 16, 8, 256, 14336, 256000}));
  EXPECT_TRUE(m.tied);  // no tie_word_embeddings: Gemma 2 ties
  EXPECT_EQ(m.activation_flops, 8);  // gelu_pytorch_tanh
  EXPECT_EQ(m.window, 4096);
  EXPECT_EQ(m.local_layers, 21);  // layers 0, 2, ..., 40
  EXPECT_EQ(m.global_layers(), 21);
  EXPECT_TRUE(m.windowed_cache);
  EXPECT_TRUE(m.sandwich_norms);
  EXPECT_TRUE(m.scaled_embedding);
  EXPECT_EQ(m.attn_softcap, 50);
  EXPECT_EQ(m.final_softcap, 30);
  // 9.24 billion parameters: the embedding once (tied), 42 layers of Q (3584 x 4096), K and
  // V (3584 x 2048 each), O, the gated MLP (3 x 3584 x 14336) and four norms, the final
  // norm. In bf16 exactly the total_size of the safetensors index published beside this
  // config (18,483,411,968 bytes).
  const double h = 3584, I = 14336, V = 256000;
  const double params =
      V * h + 42 * (h * 4096 + 2 * h * 2048 + 4096 * h + 3 * h * I + 4 * h) + h;
  EXPECT_DOUBLE_EQ(params, 9241705984.0);
  EXPECT_DOUBLE_EQ(weight_bytes(m, Workload{}), 18483411968.0);
}

// Gemma 2 9B at a context past its window: the 21 local layers' attention sees the latest
// 4,096 keys, the 21 global layers' all of them.
TEST(LlmOperators, Gemma2_9BsLocalLayersCapTheKeysItsGlobalLayersSeeThemAll) {
  const ModelConfig m = config("gemma-2-9b-it.json");
  Workload w;
  const std::vector<Operator> ops = step_operators(m, w, 1, 9999);  // 10,000 keys
  // A decode token's GEMMs: twice the 9.24e9 weights that multiply (the LM head, the
  // embedding tied to it, included; the norms not).
  const double h = 3584, I = 14336, V = 256000;
  const double matrices = 42 * (h * 4096 + 2 * h * 2048 + 4096 * h + 3 * h * I) + h * V;
  EXPECT_DOUBLE_EQ(matrices, 9241100288.0);
  double gemms = 0;
  for (const char* name : {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                           "down_proj", "lm_head"})
    gemms += named(ops, name).flops;
  EXPECT_DOUBLE_EQ(gemms, 2 * matrices);
  // QK^T and PV (2 x 256 each), softmax's 5 and the scores' soft-capping 3, a key and one
  // of 16 query heads.
  const double per_key = 16.0 * (4 * 256 + 5 + 3);
  const Operator local = named(ops, "attention_local"), global = named(ops, "attention_global");
  EXPECT_DOUBLE_EQ(local.flops, 21 * per_key * 4096);
  EXPECT_DOUBLE_EQ(global.flops, 21 * per_key * 10000);
  EXPECT_EQ(local.launches, 21);
  EXPECT_EQ(global.launches, 21);
  for (const Operator& op : ops) EXPECT_NE(op.name, "attention");
  // The KV cache a layer reads: K and V of 8 KV heads of 256 (8,192 bytes a position in
  // bf16) over 4,096 positions (local) or 10,000 (global), and the new token's written.
  EXPECT_DOUBLE_EQ(local.kv_bytes / 21, 4096 * 8192.0 + 8192);
  EXPECT_DOUBLE_EQ(global.kv_bytes / 21, 10000 * 8192.0 + 8192);
  // Inside the window the two kinds are alike.
  const std::vector<Operator> near = step_operators(m, w, 1, 99);
  EXPECT_DOUBLE_EQ(named(near, "attention_local").flops, 21 * per_key * 100);
  EXPECT_DOUBLE_EQ(named(near, "attention_global").flops, 21 * per_key * 100);
  // A prefill of 6,000 tokens: token i sees i keys, in the local layers at most 4,096.
  const std::vector<Operator> prefill = step_operators(m, w, 6000, 0);
  EXPECT_DOUBLE_EQ(named(prefill, "attention_local").flops,
                   21 * per_key * (4096.0 * 4097 / 2 + (6000 - 4096) * 4096.0));
  EXPECT_DOUBLE_EQ(named(prefill, "attention_global").flops, 21 * per_key * 6000.0 * 6001 / 2);
  // Unfused: each kind's score rectangle, its soft-capping 3 a score; the cache written once
  // for all 42 layers.
  w.unfused = true;
  const std::vector<Operator> unfused = step_operators(m, w, 1, 9999);
  EXPECT_DOUBLE_EQ(named(unfused, "qk_scores_local").flops, 21 * 2.0 * 256 * 16 * 4096);
  EXPECT_DOUBLE_EQ(named(unfused, "softcap_global").flops, 21 * 3.0 * 16 * 10000);
  EXPECT_DOUBLE_EQ(named(unfused, "kv_write").kv_bytes, 42 * 8192.0);
}

TEST(LlmOperators, Gemma2HoldsTheWindowInItsLocalLayersCacheAsTransformersHybridCache) {
  const ModelConfig m = config("gemma-2-9b-it.json");
  Workload w;
  // 8,192 bytes a layer and position: every layer's at 100 tokens; past the window the
  // local layers hold 4,096 positions, the global ones all 10,000.
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, w, 100), 42 * 100 * 8192.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, w, 10000), (21 * 10000 + 21 * 4096) * 8192.0);
  // Mistral's cache still holds the whole context in every layer.
  const ModelConfig mistral = config("mistral-7b-v0.1.json");
  EXPECT_EQ(mistral.local_layers, 32);
  EXPECT_FALSE(mistral.windowed_cache);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(mistral, w, 10000), 10000 * 32 * 1024 * 2.0 * 2);
}

TEST(LlmOperators, Gemma2HasFourNormsALayerAScaledEmbeddingAndSoftCappedLogits) {
  const ModelConfig m = config("gemma-2-9b-it.json");
  Workload w;
  const std::vector<Operator> ops = step_operators(m, w, 1, 99);
  const double h = 3584;
  // input_layernorm, post_attention_layernorm, pre_feedforward_layernorm and
  // post_feedforward_layernorm: RMS norms of 4 FLOPs an element, a scale of h each.
  for (const char* name : {"attn_norm", "post_attn_norm", "mlp_norm", "post_mlp_norm"}) {
    EXPECT_DOUBLE_EQ(named(ops, name).flops, 42 * h * 4) << name;
    EXPECT_DOUBLE_EQ(named(ops, name).weight_bytes, 42 * h * 2) << name;
  }
  // The embedding times sqrt(3584): an element's multiply, as Gemma's.
  EXPECT_DOUBLE_EQ(named(ops, "embedding").flops, h);
  const std::vector<Operator> gemma = step_operators(config("gemma-2b-it.json"), w, 1, 99);
  EXPECT_DOUBLE_EQ(named(gemma, "embedding").flops, 2048);
  for (const Operator& op : gemma) EXPECT_NE(op.name, "post_attn_norm");
  // c x tanh(x / c) on each of the 256,000 logits: a divide, the tanh and a multiply.
  const Operator cap = named(ops, "final_softcap");
  EXPECT_DOUBLE_EQ(cap.flops, 3.0 * 256000);
  EXPECT_DOUBLE_EQ(cap.activation_bytes, 2 * 256000 * 2.0);
  // Null turns a cap off (and a config without them takes transformers' 50 and 30).
  nlohmann::json doc = nlohmann::json::parse(read_bytes(kFixtures + "/llm/gemma-2-9b-it.json"));
  doc["attn_logit_softcapping"] = nullptr;
  doc["final_logit_softcapping"] = nullptr;
  const ModelConfig uncapped = parse_config(doc.dump(), "c.json");
  const std::vector<Operator> plain = step_operators(uncapped, w, 1, 99);
  EXPECT_DOUBLE_EQ(named(plain, "attention_local").flops, 21 * 16.0 * (4 * 256 + 5) * 100);
  for (const Operator& op : plain) EXPECT_NE(op.name, "final_softcap");
  doc.erase("attn_logit_softcapping");
  doc.erase("final_logit_softcapping");
  EXPECT_EQ(parse_config(doc.dump(), "c.json").attn_softcap, 50);
  EXPECT_EQ(parse_config(doc.dump(), "c.json").final_softcap, 30);
}

TEST(LlmConfig, Gemma2sLayerTypesWhereGivenNameItsLocalLayers) {
  nlohmann::json doc = nlohmann::json::parse(read_bytes(kFixtures + "/llm/gemma-2-9b-it.json"));
  doc["layer_types"] = std::vector<std::string>(42, "full_attention");
  const ModelConfig global = parse_config(doc.dump(), "c.json");
  EXPECT_EQ(global.local_layers, 0);
  const std::vector<Operator> ops = step_operators(global, Workload{}, 1, 9999);
  EXPECT_DOUBLE_EQ(named(ops, "attention").flops, 42 * 16.0 * (4 * 256 + 5 + 3) * 10000);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(global, Workload{}, 10000), 42 * 10000 * 8192.0);
  doc["layer_types"] = std::vector<std::string>(41, "full_attention");
  EXPECT_EQ(refused(doc.dump()), "c.json: \"layer_types\" is not a list of its 42 layers");
  doc["layer_types"] = std::vector<std::string>(42, "linear_attention");
  EXPECT_EQ(refused(doc.dump()),
            "c.json: \"layer_types\" holds \"linear_attention\", not \"sliding_attention\" or "
            "\"full_attention\"");
  doc.erase("layer_types");
  doc["final_logit_softcapping"] = -1;
  EXPECT_EQ(refused(doc.dump()),
            "c.json: \"final_logit_softcapping\" is not a positive number or null");
}

TEST(LlmEstimate, Gemma2_9BOnTheH200HoldsItsHybridCacheAndPlacesBothKindsOfAttention) {
  const core::CeilingsFile f =
      ceilings::read_file(std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-1.h5");
  const ModelConfig m = config("gemma-2-9b-it.json");
  Workload w;
  w.prompt = 8192;
  const MachineEstimate e = estimate(m, w, f, "h200.h5", Options{});
  EXPECT_DOUBLE_EQ(e.memory_bytes_needed, 18483411968.0 + kv_cache_bytes(m, w, 8192 + 128));
  int attention = 0;
  for (const PlacedOperator& p : e.decode.operators)
    if (p.op.kind == "attention") {
      ++attention;
      EXPECT_GT(p.bound_s, 0.0) << p.op.name;
    }
  EXPECT_EQ(attention, 2);
  double flops = 0;
  for (const PlacedOperator& p : e.decode.operators) flops += p.op.flops;
  EXPECT_DOUBLE_EQ(e.decode_flops_per_token, flops / 128);
}

TEST(LlmConfig, BadConfigsAreOneLineNamingWhatIsWrong) {
  const std::string llama = read_bytes(kFixtures + "/llm/llama-3-8b.json");
  EXPECT_EQ(refused("[1, 2]"), "c.json: not a JSON object: not a model's config.json");
  EXPECT_NE(refused("{\"model_type\": \"bert\"}").find("\"bert\" is not supported (llama, mistral"),
            std::string::npos);
  nlohmann::json doc = nlohmann::json::parse(llama);
  doc.erase("intermediate_size");
  EXPECT_EQ(refused(doc.dump()), "c.json: no \"intermediate_size\"");
  doc = nlohmann::json::parse(llama);
  doc["num_attention_heads"] = 0;
  EXPECT_NE(refused(doc.dump()).find("\"num_attention_heads\" is 0"), std::string::npos);
  doc["num_attention_heads"] = 30;
  EXPECT_EQ(refused(doc.dump()),
            "c.json: hidden size 4096 is not divisible by its 30 attention heads");
  doc["num_attention_heads"] = 32;
  doc["num_key_value_heads"] = 5;
  EXPECT_EQ(refused(doc.dump()),
            "c.json: 32 attention heads are not divisible by its 5 key-value heads");
  doc["num_key_value_heads"] = "eight";
  EXPECT_EQ(refused(doc.dump()), "c.json: \"num_key_value_heads\" is not an integer");
}

TEST(LlmEstimate, OnTheH200DecodeStreamsTheWeightsFromHbmAndTurnsComputeBoundAtTheRidge) {
  const core::CeilingsFile f =
      ceilings::read_file(std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-1.h5");
  const ModelConfig m = config("llama-3-8b.json");
  Workload w;
  const MachineEstimate e = estimate(m, w, f, "h200.h5", Options{});
  // Every weight GEMM of decode on HBM (the ceiling named dram), no faster than the
  // weights' bytes over its bandwidth.
  for (const PlacedOperator& p : e.decode.operators)
    if (p.op.kind == "mlp" && p.op.flops > 1e9) {
      EXPECT_EQ(p.limiter, "dram") << p.op.name;
    }
  const double hbm = f.find("dram")->value * 1e9;
  EXPECT_GE(e.decode.bound_s / 128, weight_bytes(m, w) * 0.9 / hbm);
  EXPECT_GT(e.decode.launch_s, 0.0);  // the file's launch interval, a kernel each
  ASSERT_TRUE(e.fits.has_value());
  EXPECT_TRUE(*e.fits);
  // The ridge of tc_bf16 over HBM: a bf16 weight (2 bytes) does 2 FLOPs a row, so a batch
  // of B rows has B FLOPs a byte, compute-bound from peak FLOP/s over bandwidth.
  const double ridge = f.matrix.find("tc_bf16")->value * 1e9 / hbm;
  EXPECT_GT(e.compute_bound_batch, 0.8 * ridge);
  EXPECT_LT(e.compute_bound_batch, 1.5 * ridge);
  // Without launch costs, decode is its bound alone.
  const MachineEstimate graphs = estimate(m, w, f, "h200.h5", Options{false, false});
  EXPECT_EQ(graphs.decode.launch_s, 0.0);
  EXPECT_LT(graphs.decode_s_per_token, e.decode_s_per_token);
}

TEST(LlmEstimate, AFileWithoutTheRoofADtypeNeedsSaysWhichUnlessTheFallbackIsAsked) {
  const core::CeilingsFile f =
      ceilings::read_file(std::string(ROOFTOP_DATA_DIR) + "/epyc-zen4-2026-11-29-ceilings.h5");
  const ModelConfig m = config("gpt2.json");
  Workload w;
  w.dtype = find_dtype("fp8");
  w.kv_bytes = 1;
  try {
    estimate(m, w, f, "zen4.h5", Options{});
    FAIL() << "fp8 placed without an fp8 roof";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("zen4.h5: no roof for the fp8 FLOPs"), std::string::npos) << what;
    EXPECT_NE(what.find("--fallback-roof"), std::string::npos) << what;
  }
  const MachineEstimate e = estimate(m, w, f, "zen4.h5", Options{true, true});
  EXPECT_GT(e.tokens_per_s, 0.0);
}

}  // namespace
}  // namespace rooftop::llm
