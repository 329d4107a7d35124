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
  std::string model_type;  // "llama", "mixtral", "gemma2", "gpt2", ...
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
  // Sliding-window attention (Mistral 7B v0.1, Gemma 2: 4096): a query of a local layer
  // sees at most this many of the latest keys; 0: every key.
  long long window = 0;
  // The layers the window caps (local); the others are global, every key seen: all of
  // them (Mistral), Gemma 2's even-indexed half, or none where there is no window.
  long long local_layers = 0;
  // Where a local layer's cache holds only the window (Gemma 2: transformers' HybridCache,
  // its config's cache_implementation "hybrid"); else every layer's holds the whole
  // context, as Hugging Face's DynamicCache does for Mistral.
  bool windowed_cache = false;
  bool sandwich_norms = false;   // Gemma 2: a norm after attention and after the MLP too,
                                 // four a layer (else two, before each)
  bool scaled_embedding = false; // Gemma: the embedding times sqrt(hidden)
  // Logit soft-capping, c x tanh(x / c): on attention's scores (Gemma 2: 50) and on the LM
  // head's logits (30); 0: none.
  double attn_softcap = 0;
  double final_softcap = 0;
  double activation_flops = 4; // FLOPs of the MLP's activation per element: SiLU 4 (exp,
                               // add, divide, multiply), GELU 8 (its tanh form)
  Mlp mlp = Mlp::gated;
  Norm norm = Norm::rms;
  Position position = Position::rotary;

  long long q_dim() const { return heads * head_dim; }
  long long kv_dim() const { return kv_heads * head_dim; }
  long long global_layers() const { return layers - local_layers; }
};

// Throws rooftop::Error, one line naming the file: not JSON, no or an unknown model_type
// (the supported ones listed), a field missing (named), absurd values (zero heads, a hidden
// size the heads do not divide, query heads the KV heads do not divide, ...).
ModelConfig parse_config(const std::string& text, const std::string& name);

// The model types parse_config reads, for messages: "llama, mistral, ...".
std::string supported_model_types();

}  // namespace rooftop::llm
