#include <gtest/gtest.h>

#include "rooftop/core/demangle.hpp"

namespace {

using rooftop::core::demangled;

TEST(Demangled, MangledNamesAsTheProfilersPrintThem) {
  EXPECT_EQ(demangled("_Z5daxpyidPKdPd"), "daxpy(int, double, double const*, double*)");
  EXPECT_EQ(demangled("  _Z5daxpyidPKdPd\n"), "daxpy(int, double, double const*, double*)");
}

TEST(Demangled, OtherNamesAsTheyAreTrimmed) {
  // C linkage: cuBLAS's kernels, and short names the demangler would read as types.
  EXPECT_EQ(demangled("nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT"),
            "nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT");
  for (const char* name : {"f", "d", "i", "Pf", "sum"}) EXPECT_EQ(demangled(name), name);
  EXPECT_EQ(demangled(" \t"), "");
  // A name that only starts like a mangled one stays as it was.
  EXPECT_EQ(demangled("_Z not mangled"), "_Z not mangled");
}

}  // namespace
