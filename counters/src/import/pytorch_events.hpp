#pragma once
// The events of a PyTorch profiler trace as its readers share them (pytorch_trace.cpp, the
// kernel and operator records; operator_calls.cpp, each operator call for a model's
// join): operators nested in one another with their FLOPs, device kernels with the
// operator that launched them, and the annotations that name a model's layers. Private to
// rooftop_counters' readers.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace rooftop::counters::importing {

// The "pid" of every operator of PyTorch's legacy trace layout (a JSON list of events
// without "cat", written where PyTorch has no kineto, as Debian's 1.13 build).
inline constexpr const char* kLegacyOperators = "CPU functions";

struct Op {
  std::string name, precision;
  double ts = 0, end = 0, flops = 0;  // microseconds
  long long pid = 0, tid = 0;
  int parent = -1;
  int launches = 0;  // kernels launched under it, counted on the operator that has FLOPs
  const nlohmann::json* args = nullptr;
  double outputs = 0;  // its output's elements, where the FLOP table derives its shape
};

// What counting operators' FLOPs from their shapes came to, for the notes.
struct Counted {
  std::map<std::string, int> calls;                            // operator -> calls counted
  std::map<std::pair<std::string, std::string>, int> refused;  // (operator, why) -> calls
  std::map<std::string, int> nested;  // operator -> calls left to nested ones
  bool shapes = false;                // some operator has "Input Dims" (record_shapes=True)
  int given = 0;                      // calls carrying the trace's own "flops"
};

struct Kernel {
  std::string name;
  double seconds = 0;
  std::optional<long long> external, correlation;  // as the event's args give them
  // The operator with FLOPs it belongs to, else -1.
  int op = -1;
  // The operator that launched it (its "External id"), else -1.
  int launcher = -1;
};

// An annotation that names one call of a model's layer: a record_function range
// ("layers.3"; user_annotation in kineto's layout, an operator in the legacy one) or a
// module of with_stack's Python events ("nn.Module: LlamaDecoderLayer_3").
struct Scope {
  int layer = 0;  // the index its name ends in
  double ts = 0, end = 0;
  long long pid = 0, tid = 0;
};

// The events of a trace that matter here.
struct Events {
  std::vector<Op> ops;
  std::vector<Kernel> kernels;
  std::vector<Scope> scopes;
  std::map<long long, int> op_by_external;
  std::map<long long, long long> external_by_correlation;  // the launches' ids
  Counted counted;  // how the operators' FLOPs were found
};

// The events of a parsed trace (`doc`, which the operators' args point into and which must
// outlive them), in the order each step needs the one before: the operators, kernels and
// layer scopes collected; each operator nested in the innermost operator of its thread
// enclosing it; its FLOPs the trace's own "flops" (PyTorch's count, which rooftop's
// launcher writes where PyTorch's trace layout has no shapes) or, where neither it nor an
// operator nested in it or enclosing it carries them, counted from its "Input Dims" (a
// composite, aten::linear or aten::matmul, with a counted operator nested in it keeps none
// of its own); each kernel's launcher (its "External id", or its launch's by
// "correlation") and operator with FLOPs (the launcher or the nearest enclosing one with
// them). Error (one line, naming `file`) for a kernel without a name or a duration.
Events read_events(const nlohmann::json& doc, const std::string& file);

// Each operator's holder: itself, or the outermost operator with FLOPs enclosing it.
std::vector<int> holders(const std::vector<Op>& ops);

// A CPU run's seconds of each holder: the self times (duration less the nested operators'
// durations) of the operators it holds, itself included.
std::vector<double> held_seconds(const std::vector<Op>& ops, const std::vector<int>& holder);

// The layer a scope's name names: "layers.3", "model.layers.3", "layer 3", "h.3" (GPT-2's
// modules), "block_3", or with_stack's "nn.Module: LlamaDecoderLayer_3" and
// "nn.Module: GPT2Block_3"; empty for any other name.
std::optional<int> layer_index(std::string_view name);

// Each operator's outermost enclosing scope of its thread (an index into `scopes`), -1
// where none encloses it: a decoder layer's module holds others that name layers too
// (gpt-oss's TransformerBlock_3 holds its MLPBlock_3), one step of the layer all of them.
std::vector<int> enclosing_scopes(const std::vector<Op>& ops, const std::vector<Scope>& scopes);

// The bytes of one element of PyTorch's "Input type" names; 0 where it names no tensor
// ("Scalar", "ScalarList", "").
double element_bytes(const std::string& type);

// The tensor inputs of a call: their shapes ("5x512" as text, and as numbers) and bytes.
// A scalar input is an empty shape ("scalar"); an input that is no tensor is left out.
struct Inputs {
  std::string shapes;
  std::vector<std::vector<long long>> dims;
  double bytes = 0;
};
Inputs inputs_of(const nlohmann::json& args);

}  // namespace rooftop::counters::importing
