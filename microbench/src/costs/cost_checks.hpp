#pragma once
// What the transfer and launch sweeps share: their 8-byte words, the points they make,
// and the check after timing, which reads a spread of a buffer's words wherever the
// buffer lives (a small gather on the space that can touch it, then one copy home).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench::costs {

using Word = std::uint64_t;
using Index = Kokkos::IndexType<std::int64_t>;

// The execution space that writes and reads a buffer in `Memory`: the host's for
// host-accessible memory (pageable, pinned), `Space` otherwise (device memory).
template <class Space, class Memory>
using Toucher = std::conditional_t<
    Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, Memory>::accessible,
    Kokkos::DefaultHostExecutionSpace, Space>;

// Words compared after timing: an even spread over the buffer, both ends included.
inline constexpr std::int64_t kCheckedWords = 1024;
KOKKOS_INLINE_FUNCTION std::int64_t checked_index(std::int64_t k, std::int64_t count,
                                                  std::int64_t n) {
  return count <= 1 ? 0 : k * (n - 1) / (count - 1);
}

// Words checked_index(k, count, n) of `v` for k < count = min(n, kCheckedWords), as the
// host sees them. Apart from check_words: nvcc refuses a device lambda in a function
// whose template arguments include a local type (the caller's `expected`).
template <class Space, class Memory>
Kokkos::View<Word*, Kokkos::HostSpace> checked_words(const Kokkos::View<Word*, Memory>& v,
                                                     std::int64_t n) {
  using Exec = Toucher<Space, Memory>;
  const std::int64_t count = std::min(n, kCheckedWords);
  Kokkos::View<Word*, Memory> got(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::costs_check")),
      static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  Kokkos::parallel_for(
      "rooftop::costs_check", Kokkos::RangePolicy<Exec, Index>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k) { got(k) = v(checked_index(k, count, n)); });
  Exec().fence();
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got);
}

// Compares words [0, n) of `v` with expected(i) on kCheckedWords of them; throws
// rooftop::Error naming `label` and the first wrong word.
template <class Space, class Memory, class Expected>
void check_words(const Kokkos::View<Word*, Memory>& v, std::int64_t n, const std::string& label,
                 Expected&& expected) {
  const auto host = checked_words<Space>(v, n);
  const auto count = static_cast<std::int64_t>(host.extent(0));
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t i = checked_index(k, count, n);
    const Word want = expected(i);
    if (host(k) != want)
      throw Error(label + ": wrong word " + std::to_string(i) + " of " + std::to_string(n) + ": " +
                  std::to_string(host(k)) + " (expected " + std::to_string(want) + ")");
  }
}

}  // namespace rooftop::microbench::costs
