#pragma once
// What the readers of PyTorch profiler traces share (pytorch_trace.cpp, the kernel times
// and operator FLOPs; pytorch_metrics.cpp, the CUPTI counters of cuda_profiler_range
// events): the parsed document and the fields of its Chrome trace events. Private to
// rooftop_counters' readers.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reader.hpp"

namespace rooftop::counters::importing {

// A JSON object with "traceEvents" near its start.
bool looks_like_trace(std::string_view text);

// The document of `file`, and its "traceEvents" array; Error (one line) where it is no
// readable trace or nests deeper than a profiler's trace does.
nlohmann::json parse_trace(const Input& file);
const nlohmann::json& trace_events(const nlohmann::json& doc, const std::string& file);

// An event's "cat" in lower case ("kernel", "cpu_op"); empty where it has none.
std::string category(const nlohmann::json& event);
// A finite non-negative number of `obj` under `key`, else empty.
std::optional<double> number(const nlohmann::json& obj, const char* key);
// An integer of `obj` under `key`, else empty.
std::optional<long long> id_of(const nlohmann::json& obj, const char* key);
// The event's "args" object (an empty one where it has none).
const nlohmann::json& args_of(const nlohmann::json& event);
// A string of `obj` under `key`, else empty.
std::string string_of(const nlohmann::json& obj, const char* key);

}  // namespace rooftop::counters::importing
