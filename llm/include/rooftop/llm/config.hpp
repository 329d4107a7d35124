#pragma once
// A decoder-only language model's shape, read from its Hugging Face `config.json`: what
// the operators' FLOPs and bytes follow from. One table of the families read
// (config.cpp): their field names, defaults and layer layout.

#include <string>

namespace rooftop::llm {

enum class Mlp { gated, plain };     // SwiGLU/GeGLU (gate, up, down) or up, activation, down
enum class Norm { rms, layer };
enum class Position { rotary, learned };

struct ModelConfig {
  std::string model_type;  // "llama", "mixtral", "gpt2", ...
  long long hidden = 0;        // h
  long long layers = 0;
  long long heads = 0;         // query heads
  long long kv_heads = 0;      // key and value heads (grouped-query attention: fewer)
  long long head_dim = 0;      // d; h / heads unless the config says otherwise (Gemma)
  long long intermediate = 0;  // the MLP's width (an expert's, in a mixture of experts)
  long long vocab = 0;
  long long positions = 0;     // learned position embeddings (GPT-2); 0 with rotary
  long long experts = 0;       // mixture of experts: experts per layer (0: a dense MLP)
  long long experts_per_token = 0;
  bool tied = false;           // the LM head is the embedding matrix
  // Sliding-window attention (Mistral 7B v0.1: 4096): a query sees at most this many of
  // the latest keys; 0: every key. The cache still holds the whole context, as Hugging
  // Face's does.
  long long window = 0;
  double activation_flops = 4; // FLOPs of the MLP's activation per element: SiLU 4 (exp,
                               // add, divide, multiply), GELU 8 (its tanh form)
  Mlp mlp = Mlp::gated;
  Norm norm = Norm::rms;
  Position position = Position::rotary;

  long long q_dim() const { return heads * head_dim; }
  long long kv_dim() const { return kv_heads * head_dim; }
};

// Throws rooftop::Error, one line naming the file: not JSON, no or an unknown model_type
// (the supported ones listed), a field missing (named), absurd values (zero heads, a hidden
// size the heads do not divide, query heads the KV heads do not divide, ...).
ModelConfig parse_config(const std::string& text, const std::string& name);

// The model types parse_config reads, for messages: "llama, mistral, ...".
std::string supported_model_types();

}  // namespace rooftop::llm
