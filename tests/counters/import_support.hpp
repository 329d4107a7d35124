#pragma once
// What the import test files share: fixture bytes and notes.

#include <gtest/gtest.h>

#include <string>

#include "rooftop/counters/import.hpp"
#include "support.hpp"

namespace rooftop::counters::testing {

// The bytes of fixtures/import/NAME (a failure where it is empty).
inline std::string import_fixture(const std::string& name) {
  const std::string path = std::string(ROOFTOP_TEST_FIXTURES) + "/import/" + name;
  const std::string text = rooftop::testing::read_bytes(path);
  EXPECT_FALSE(text.empty()) << path;
  return text;
}

inline bool has_note(const ImportResult& r, const std::string& part) {
  for (const std::string& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace rooftop::counters::testing
