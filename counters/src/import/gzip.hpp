#pragma once
// gzip-compressed input (PyTorch's `.json.gz` traces, any report compressed by gzip),
// told by its magic bytes and inflated with zlib before any reader sees it, with a
// limit on what it may inflate to, so that a gzip bomb ends in one line. Private to
// rooftop_counters.

#include <cstddef>
#include <string>
#include <string_view>

namespace rooftop::counters::importing {

// What a compressed report may inflate to: profiler output of large runs is tens of
// megabytes; more is not a report.
inline constexpr std::size_t kMaxInflatedBytes = std::size_t{256} << 20;

// Whether `text` starts with gzip's magic bytes (1f 8b).
bool is_gzip(std::string_view text);

// The inflated content of the gzip stream(s) in `text`; Error "NAME: reason" (one line)
// for a damaged or truncated stream, or one that inflates past `limit` bytes.
std::string gunzip(std::string_view text, const std::string& name,
                   std::size_t limit = kMaxInflatedBytes);

}  // namespace rooftop::counters::importing
