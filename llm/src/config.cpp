#include "rooftop/llm/config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::llm {
namespace {

using nlohmann::json;

// Which layers a config's sliding window caps.
enum class Window {
  every_layer,  // all of them (Mistral; Qwen2 and Phi-3 where used)
  layer_types,  // those its layer_types names "sliding_attention", else the even-indexed
                // ones (Gemma 2)
};

// A family of configs: its field names, and what its layers are. The Llama family's names
// are the defaults; each family states where it differs.
struct Family {
  std::string_view model_type;
  const char* hidden = "hidden_size";
  const char* layers = "num_hidden_layers";
  const char* heads = "num_attention_heads";
  const char* kv_heads = "num_key_value_heads";  // nullptr: as many as the query heads
  const char* intermediate = "intermediate_size";
  bool intermediate_optional = false;  // absent or null: 4 x hidden (GPT-2's n_inner)
  Mlp mlp = Mlp::gated;
  Norm norm = Norm::rms;
  Position position = Position::rotary;
  bool tied = false;              // where the config has no tie_word_embeddings
  bool experts = false;           // num_local_experts, num_experts_per_tok
  bool scaled_embedding = false;  // the embedding times sqrt(hidden)
  Window window = Window::every_layer;
  bool windowed_cache = false;  // a local layer's cache holds only the window
  bool sandwich_norms = false;  // four norms a layer
  // attn_logit_softcapping and final_logit_softcapping where the config has none (null:
  // none): transformers' Gemma2Config defaults.
  double attn_softcap = 0, final_softcap = 0;
};

// Mistral, Qwen2, Mixtral, Gemma and Phi-3 use the Llama family's names; GPT-2 has its own,
// a plain GELU MLP, layer norms and learned positions. Gemma 2 (transformers' Gemma2):
// local and global layers alternating, the local ones' cache the window (HybridCache),
// four norms a layer, soft-capped scores and logits.
constexpr Family kFamilies[] = {
    {.model_type = "llama"},
    {.model_type = "mistral"},
    {.model_type = "qwen2"},
    {.model_type = "mixtral", .experts = true},
    {.model_type = "gemma", .tied = true, .scaled_embedding = true},
    {.model_type = "gemma2",
     .tied = true,
     .scaled_embedding = true,
     .window = Window::layer_types,
     .windowed_cache = true,
     .sandwich_norms = true,
     .attn_softcap = 50,
     .final_softcap = 30},
    {.model_type = "phi3"},
    {.model_type = "gpt2",
     .hidden = "n_embd",
     .layers = "n_layer",
     .heads = "n_head",
     .kv_heads = nullptr,
     .intermediate = "n_inner",
     .intermediate_optional = true,
     .mlp = Mlp::plain,
     .norm = Norm::layer,
     .position = Position::learned,
     .tied = true},
};

// Configs run to a few kilobytes; more is not a config.
constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
// Beyond any model: a dimension past it is an error in the file, not a model.
constexpr long long kLargest = 1LL << 24;

class Reader {
 public:
  Reader(const json& doc, std::string name) : doc_(doc), name_(std::move(name)) {}

  // An integer field; `fallback` where the config has none (or null), else an error.
  long long integer(const char* field, std::optional<long long> fallback = std::nullopt,
                    long long least = 1) const {
    const auto it = doc_.find(field);
    if (it == doc_.end() || it->is_null()) {
      if (fallback) return *fallback;
      fail("no \"" + std::string(field) + "\"");
    }
    if (!it->is_number_integer())
      fail("\"" + std::string(field) + "\" is not an integer");
    const long long v = it->get<long long>();
    if (v < least || v > kLargest)
      fail("\"" + std::string(field) + "\" is " + std::to_string(v) + ", not from " +
           std::to_string(least) + " to " + std::to_string(kLargest));
    return v;
  }
  bool boolean(const char* field, bool fallback) const {
    const auto it = doc_.find(field);
    if (it == doc_.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) fail("\"" + std::string(field) + "\" is not true or false");
    return it->get<bool>();
  }
  // A soft-capping constant: `fallback` where the config has none, 0 (none) where null.
  double softcap(const char* field, double fallback) const {
    const auto it = doc_.find(field);
    if (it == doc_.end()) return fallback;
    if (it->is_null()) return 0;
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
      fail("\"" + std::string(field) + "\" is not a positive number or null");
    return it->get<double>();
  }
  // The layers a Gemma 2 config's layer_types names sliding: one entry a layer, each
  // "sliding_attention" or "full_attention"; nullopt where it has none.
  std::optional<long long> sliding_layer_types(long long layers) const {
    const auto it = doc_.find("layer_types");
    if (it == doc_.end() || it->is_null()) return std::nullopt;
    if (!it->is_array() || static_cast<long long>(it->size()) != layers)
      fail("\"layer_types\" is not a list of its " + std::to_string(layers) + " layers");
    long long sliding = 0;
    for (const json& t : *it) {
      if (t == "sliding_attention") {
        ++sliding;
      } else if (t != "full_attention") {
        fail("\"layer_types\" holds " + t.dump() +
             ", not \"sliding_attention\" or \"full_attention\"");
      }
    }
    return sliding;
  }
  [[noreturn]] void fail(const std::string& why) const { throw Error(name_ + ": " + why); }

 private:
  const json& doc_;
  std::string name_;
};

}  // namespace

std::string supported_model_types() {
  std::string out;
  for (const Family& f : kFamilies) out += (out.empty() ? "" : ", ") + std::string(f.model_type);
  return out;
}

ModelConfig parse_config(const std::string& text, const std::string& name) {
  if (text.size() > kMaxConfigBytes)
    throw Error(name + ": more than 1 MiB: not a model's config.json");
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    throw Error(name + ": not a JSON object: not a model's config.json");
  const Reader r(doc, name);
  const auto type = doc.find("model_type");
  if (type == doc.end() || !type->is_string())
    r.fail("no \"model_type\" (supported: " + supported_model_types() + ")");
  const Family* family = nullptr;
  for (const Family& f : kFamilies)
    if (f.model_type == type->get<std::string>()) family = &f;
  if (!family)
    r.fail("model_type " + core::quoted(type->get<std::string>()) + " is not supported (" +
           supported_model_types() + ")");

  ModelConfig c;
  c.model_type = std::string(family->model_type);
  c.mlp = family->mlp;
  c.norm = family->norm;
  c.position = family->position;
  c.hidden = r.integer(family->hidden);
  c.layers = r.integer(family->layers);
  c.heads = r.integer(family->heads);
  c.kv_heads = family->kv_heads ? r.integer(family->kv_heads, c.heads) : c.heads;
  c.intermediate = family->intermediate_optional
                       ? r.integer(family->intermediate, 4 * c.hidden)
                       : r.integer(family->intermediate);
  c.vocab = r.integer("vocab_size");
  const auto head_dim = doc.find("head_dim");
  if (head_dim == doc.end() || head_dim->is_null()) {
    if (c.hidden % c.heads != 0)
      r.fail("hidden size " + std::to_string(c.hidden) + " is not divisible by its " +
             std::to_string(c.heads) + " attention heads");
    c.head_dim = c.hidden / c.heads;
  } else {
    c.head_dim = r.integer("head_dim");
  }
  if (c.heads % c.kv_heads != 0)
    r.fail(std::to_string(c.heads) + " attention heads are not divisible by its " +
           std::to_string(c.kv_heads) + " key-value heads");
  if (c.position == Position::learned) c.positions = r.integer("n_positions", 1024);
  c.tied = r.boolean("tie_word_embeddings", family->tied);
  // sliding_window where the config uses it (Qwen2 gives one and use_sliding_window false).
  if (r.boolean("use_sliding_window", true)) c.window = r.integer("sliding_window", 0, 1);
  if (c.window > 0 && family->window == Window::every_layer) c.local_layers = c.layers;
  // transformers' Gemma2: a layer is sliding where `not bool(layer_idx % 2)` (modeling_gemma2.py,
  // Gemma2Attention and Gemma2DecoderLayer), in later versions Gemma2Config's default
  // layer_types, "sliding_attention" if bool((i + 1) % 2): the even-indexed layers 0, 2, 4,
  // ..., half of them (rounded up); a config's own layer_types where it has one.
  if (c.window > 0 && family->window == Window::layer_types)
    c.local_layers = r.sliding_layer_types(c.layers).value_or((c.layers + 1) / 2);
  c.windowed_cache = family->windowed_cache;
  c.sandwich_norms = family->sandwich_norms;
  c.scaled_embedding = family->scaled_embedding;
  // Read only by the families whose model applies them (a default of their own).
  if (family->attn_softcap > 0)
    c.attn_softcap = r.softcap("attn_logit_softcapping", family->attn_softcap);
  if (family->final_softcap > 0)
    c.final_softcap = r.softcap("final_logit_softcapping", family->final_softcap);
  // hidden_act (the Llama family's, Gemma's hidden_activation) or GPT-2's
  // activation_function: a GELU of any form counts as GELU, else SiLU.
  for (const char* field : {"hidden_act", "hidden_activation", "activation_function"}) {
    const auto act = doc.find(field);
    if (act != doc.end() && act->is_string())
      c.activation_flops = act->get<std::string>().find("gelu") != std::string::npos ? 8 : 4;
  }
  if (c.mlp == Mlp::plain && doc.find("activation_function") == doc.end())
    c.activation_flops = 8;
  if (family->experts) {
    c.experts = r.integer("num_local_experts");
    c.experts_per_token = r.integer("num_experts_per_tok");
    if (c.experts_per_token > c.experts)
      r.fail("num_experts_per_tok " + std::to_string(c.experts_per_token) + " is more than its " +
             std::to_string(c.experts) + " experts");
  }
  return c;
}

}  // namespace rooftop::llm
