#include "rooftop/llm/config.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::llm {
namespace {

using nlohmann::json;

// A family of configs: its field names, and what its layers are.
struct Family {
  std::string_view model_type;
  const char* hidden;
  const char* layers;
  const char* heads;
  const char* kv_heads;      // nullptr: as many as the query heads
  const char* intermediate;
  bool intermediate_optional;  // absent or null: 4 x hidden (GPT-2's n_inner)
  Mlp mlp;
  Norm norm;
  Position position;
  bool tied;                 // where the config has no tie_word_embeddings
  bool experts;              // num_local_experts, num_experts_per_tok
};

// The Llama family's names serve Mistral, Qwen2, Mixtral, Gemma and Phi-3 alike; GPT-2
// has its own, a plain GELU MLP, layer norms and learned positions.
constexpr Family kFamilies[] = {
    {"llama", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, false, false},
    {"mistral", "hidden_size", "num_hidden_layers", "num_attention_heads",
     "num_key_value_heads", "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, false,
     false},
    {"qwen2", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, false, false},
    {"mixtral", "hidden_size", "num_hidden_layers", "num_attention_heads",
     "num_key_value_heads", "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, false,
     true},
    {"gemma", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, true, false},
    {"phi3", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", false, Mlp::gated, Norm::rms, Position::rotary, false, false},
    {"gpt2", "n_embd", "n_layer", "n_head", nullptr, "n_inner", true, Mlp::plain, Norm::layer,
     Position::learned, true, false},
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
