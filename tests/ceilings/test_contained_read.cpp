// The child process every ceilings file is first read in (ceilings/src/contained_read):
// a crash, a read that runs on, or one over the memory limit there is one line here,
// and the process that asked goes on.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include "contained_read.hpp"
#include "rooftop/core/error.hpp"
#include "support.hpp"

namespace rooftop::ceilings::detail {
namespace {

using rooftop::testing::error_of;

const std::string kDamaged = "f.h5: damaged HDF5 file: ";

TEST(ContainedRead, ACrashWhileReadingIsOneLine) {
  EXPECT_EQ(error_of([] { rehearse_read("f.h5", [] { std::raise(SIGSEGV); }); }),
            kDamaged + "the HDF5 library crashed reading it (SIGSEGV)");
  EXPECT_EQ(error_of([] { rehearse_read("f.h5", [] { std::raise(SIGBUS); }); }),
            kDamaged + "the HDF5 library crashed reading it (SIGBUS)");
}

TEST(ContainedRead, AReadThatRunsOnIsStopped) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string msg = error_of([] {
    rehearse_read("f.h5", [] { for (;;) pause(); }, ReadLimits{.seconds = 1});
  });
  EXPECT_EQ(msg, kDamaged + "the HDF5 library was still reading it after 1 s");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(ContainedRead, AReadOverTheMemoryLimitIsStopped) {
  const std::string msg = error_of([] {
    rehearse_read(
        "f.h5",
        [] {
          std::vector<char> big(512 << 20, 1);
          EXPECT_EQ(big.back(), 1);
        },
        ReadLimits{.memory_bytes = 256 << 20});
  });
#ifdef __SANITIZE_ADDRESS__  // AddressSanitizer's allocator ends the child itself
  EXPECT_EQ(msg.rfind(kDamaged, 0), 0u) << msg;
#else
  EXPECT_EQ(msg, kDamaged + "reading it needed more than 256 MiB of memory");
#endif
}

// An ordinary end, with a result or with rooftop::Error, is left to the second read here.
TEST(ContainedRead, AnEndWithAResultOrAnErrorIsReadAgainHere) {
  int reads = 0;
  EXPECT_EQ(read_contained("f.h5", [&] { return ++reads; }), 1);  // the child's is not seen
  EXPECT_EQ(error_of([] {
              read_contained("f.h5", []() -> int { throw Error("f.h5: unknown ceiling"); });
            }),
            "f.h5: unknown ceiling");
}

TEST(ContainedRead, TheMemoryLimitIsLiftedAfterTheRead) {
  rlimit before{}, during{}, after{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &before), 0);
  {
    const ReadMemoryLimit limit;
    ASSERT_EQ(getrlimit(RLIMIT_AS, &during), 0);
  }
  ASSERT_EQ(getrlimit(RLIMIT_AS, &after), 0);
  EXPECT_LT(during.rlim_cur, before.rlim_cur);
  EXPECT_EQ(after.rlim_cur, before.rlim_cur);
  EXPECT_EQ(after.rlim_max, before.rlim_max);
}

}  // namespace
}  // namespace rooftop::ceilings::detail
