#include "trace_json.hpp"

#include <cmath>
#include <cstdlib>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

using nlohmann::json;

// Chrome traces nest a few levels (the event, its args, a list of shapes); more is hostile.
constexpr int kMaxDepth = 64;

// Refuses nesting deeper than kMaxDepth before the parser sees it.
void check_depth(std::string_view text, const std::string& name) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxDepth)
        throw Error(name + ": JSON nested deeper than " + std::to_string(kMaxDepth) +
                    " levels: not a profiler trace");
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
}

// nlohmann's document of a trace takes about 5 times its text (1 MB of PyTorch trace, 5 MB).
// Where memory runs out while it parses, freeing the part already built allocates too,
// inside a destructor that may not throw, and the process aborts: so the room is asked for
// first, with margin, and its absence said in one line.
void check_room(const Input& file) {
  const std::size_t need = file.text.size() * 8 + (std::size_t{16} << 20);
  void* room = std::malloc(need);
  if (!room)
    throw Error(file.name + ": reading this trace (" + std::to_string(file.text.size()) +
                " bytes) needs about " + std::to_string(need >> 20) +
                " MiB of memory, more than this process may have");
  std::free(room);
}

}  // namespace

bool looks_like_trace(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return false;
  return text.substr(0, std::size_t{1} << 20).find("\"traceEvents\"") != std::string_view::npos;
}

json parse_trace(const Input& file) {
  check_depth(file.text, file.name);
  check_room(file);
  try {
    return json::parse(file.text.begin(), file.text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    throw Error(file.name + ": not a readable JSON trace (" + core::quoted(what) + ")");
  }
}

const json& trace_events(const json& doc, const std::string& file) {
  if (doc.is_array()) return doc;  // PyTorch's legacy layout: the events alone
  if (!doc.is_object())
    throw Error(file + ": JSON that is neither an object nor a list: not a PyTorch profiler trace");
  const auto events = doc.find("traceEvents");
  if (events == doc.end() || !events->is_array())
    throw Error(file + ": no \"traceEvents\" array: not a PyTorch profiler trace");
  return *events;
}

std::string category(const json& e) {
  const auto it = e.find("cat");
  return it != e.end() && it->is_string() ? lower(it->get<std::string>()) : std::string();
}

std::optional<double> number(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0.0) return std::nullopt;
  return v;
}

std::optional<long long> id_of(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<long long>();
}

const json& args_of(const json& e) {
  static const json none = json::object();
  const auto it = e.find("args");
  return it != e.end() && it->is_object() ? *it : none;
}

std::string string_of(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace rooftop::counters::importing
