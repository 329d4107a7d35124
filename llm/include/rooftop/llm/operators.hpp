#pragma once
// The operators of one step of a decoder-only model, summed over its layers (attention over
// each kind of layer where they differ: Gemma 2's local and global ones): their FLOPs and
// bytes in closed form from the model's config and the workload (operators.cpp, one
// function per operator). A prefill is one step of the whole prompt; decode one step per
// token, after a context that grows by one each step.

#include <string>
#include <string_view>
#include <vector>

#include "rooftop/llm/config.hpp"

namespace rooftop::llm {

// The numbers a dtype stands for: the bytes of a weight, the precision GEMMs run in
// (core::kPrecisions), the bytes of an activation between operators. int8 and int4 are
// weight-only: their GEMMs run in bf16.
struct DType {
  std::string_view name;
  double weight_bytes;
  std::string_view precision;
  double activation_bytes;
};
inline constexpr DType kDTypes[] = {
    {"fp32", 4, "fp32", 4}, {"bf16", 2, "bf16", 2}, {"fp16", 2, "fp16", 2},
    {"fp8", 1, "fp8", 2},   {"int8", 1, "bf16", 2}, {"int4", 0.5, "bf16", 2},
};
// The dtype named `name`; nullptr where there is none.
const DType* find_dtype(std::string_view name);

struct Workload {
  long long batch = 1;      // sequences at once
  long long prompt = 128;   // tokens of each prompt
  long long generate = 128; // tokens generated after it
  const DType* dtype = &kDTypes[1];
  double kv_bytes = 2;      // bytes of one key or value element in the cache
  bool unfused = false;     // attention as its separate operators (scores, softmax, PV)
};

// One operator over every layer of one step.
struct Operator {
  std::string name;       // "q_proj", "attention", ...
  std::string kind;       // what the shares are summed by: "projection", "attention", "mlp", ...
  std::string precision;  // of its FLOPs: the dtype's for GEMMs and attention, fp32 for the
                          // elementwise operators (they compute in fp32)
  double flops = 0;
  double weight_bytes = 0;      // weights read
  double kv_bytes = 0;          // the KV cache read and written
  double activation_bytes = 0;  // activations read and written
  double launches = 0;          // kernels it takes
  bool in_layers = true;  // false for the model's own: embedding, final norm, LM head, its cap
};

// The operators of a step of `tokens` new tokens per sequence after `context` tokens.
std::vector<Operator> step_operators(const ModelConfig& model, const Workload& w,
                                     long long tokens, long long context);

// The bytes of the model's weights, and of the KV cache of the batch at `length` tokens.
double weight_bytes(const ModelConfig& model, const Workload& w);
double kv_cache_bytes(const ModelConfig& model, const Workload& w, long long length);

// The expected number of distinct experts `tokens` token-expert choices of `per_token`
// among `experts` reach: experts x (1 - (1 - per_token/experts)^tokens).
double distinct_experts(long long experts, long long per_token, double tokens);

}  // namespace rooftop::llm
