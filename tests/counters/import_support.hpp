#pragma once
// What the import test files share: fixture bytes, lookups into a result, notes.

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rooftop/counters/import.hpp"
#include "support.hpp"

namespace rooftop::counters::testing {

using core::KernelRecord;
using rooftop::testing::error_of;

// The bytes of fixtures/import/NAME (a failure where it is empty).
inline std::string import_fixture(const std::string& name) {
  const std::string path = std::string(ROOFTOP_TEST_FIXTURES) + "/import/" + name;
  const std::string text = rooftop::testing::read_bytes(path);
  EXPECT_FALSE(text.empty()) << path;
  return text;
}

// fixtures/import/NAME read as the report, timed by fixtures/import/TIMING where given.
inline ImportResult parse_fixture(const std::string& name, const std::string& timing = "") {
  return parse_report(import_fixture(name), name, timing.empty() ? "" : import_fixture(timing),
                      timing);
}

// `text` gzip-compressed (the test's own zlib, not the reader's).
inline std::string gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The trace inflated (the test's own zlib, not the reader's).
inline std::string inflated(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  std::string out(std::size_t{16} << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

inline bool has_note(const ImportResult& r, const std::string& part) {
  for (const std::string& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// The notes that contain every one of `parts`.
inline std::vector<std::string> notes_with(const ImportResult& r,
                                           const std::vector<std::string>& parts) {
  std::vector<std::string> out;
  for (const std::string& n : r.notes)
    if (std::all_of(parts.begin(), parts.end(),
                    [&](const std::string& p) { return n.find(p) != std::string::npos; }))
      out.push_back(n);
  return out;
}

inline std::string all_notes(const ImportResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

// The first kernel whose name starts with `prefix` (a failure where none does).
inline const KernelRecord& find(const ImportResult& r, const std::string& prefix) {
  for (const KernelRecord& k : r.kernels)
    if (k.name.rfind(prefix, 0) == 0) return k;
  ADD_FAILURE() << "no kernel named " << prefix << "...";
  static const KernelRecord none;
  return none;
}

// The kernel's bytes at `level`, -1 where it has none.
inline double bytes(const KernelRecord& k, const std::string& level) {
  const core::LevelBytes* b = k.find_bytes(level);
  return b ? b->bytes : -1.0;
}

// `text` without the lines that contain `what`.
inline std::string without_lines_containing(const std::string& text, const std::string& what) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(pos, end - pos);
    if (line.find(what) == std::string::npos) out += line;
    pos = end;
  }
  return out;
}

// An nvprof metrics report of one metric of one kernel ("FLOPs" as its description).
inline std::string nvprof_metric(const std::string& kernel, int calls, const std::string& metric,
                                 const std::string& value) {
  return "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\","
         "\"Min\",\"Max\",\"Avg\"\n\"GPU (0)\",\"" + kernel + "\"," + std::to_string(calls) +
         ",\"" + metric + "\",\"FLOPs\"," + value + "," + value + "," + value + "\n";
}

// An Nsight Compute long-layout report with only the columns the importer reads.
inline std::string ncu_long(const std::vector<std::vector<std::string>>& rows) {
  std::string s = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? ",\"" : "\"") + r[i] + "\"";
    s += "\n";
  }
  return s;
}

}  // namespace rooftop::counters::testing

#define EXPECT_REL(actual, expected, rel) EXPECT_NEAR(actual, expected, std::abs(expected) * (rel))
