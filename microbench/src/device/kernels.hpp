#pragma once
// The device ceilings' kernels: Kokkos templates on the execution space, written for a
// GPU (one full wave of threads, or a stream of short work items) and run unchanged
// under the host space at tiny sizes by the tests. Device-only instructions (the SM
// clock, L1-bypassing loads, round-to-nearest intrinsics) sit behind
// KOKKOS_IF_ON_DEVICE with a host fallback that computes the same answer.
//
// Cost model (what each kernel asks for; counted as STREAM does):
//   DeviceComputeKernel  FLOPs per item = kChains x kSteps x 2 x inner; no memory in the loop
//   DeviceL1Kernel       bytes per item = inner x kL1Loads x 16 (a buffer every SM re-reads)
//   DeviceSharedKernel   bytes per thread = inner x kSharedLoads x 16 (team scratch)
//   DeviceStreamKernel   bytes per item = kPacksPerItem x 16 x streams (read 1, write 1,
//                        copy 2, triad 3), over a buffer each launch sweeps `passes` times

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "rooftop/core/unroll.hpp"
#include "rooftop/microbench/pattern.hpp"


namespace rooftop::microbench::device {

// 16 bytes moved by one load or store instruction on the device (ld.global.v4.u32).
struct alignas(16) Pack16 {
  std::uint32_t x, y, z, w;
};
// The triad's element: two doubles in one 16-byte access (ld.global.v2.f64).
struct alignas(16) Double2 {
  double x, y;
};

// Word j of pack p holds 4p + j (mod 2^32): never all zero, and any sum of packs has a
// closed form the host computes without copying the buffer back.
KOKKOS_INLINE_FUNCTION Pack16 pack_value(std::uint64_t p) {
  const auto b = static_cast<std::uint32_t>(4 * p);
  return {b, b + 1, b + 2, b + 3};
}
// The sum of the words of pack p (mod 2^32).
KOKKOS_INLINE_FUNCTION std::uint32_t pack_sum(std::uint64_t p) {
  return static_cast<std::uint32_t>(16 * p + 6);
}

// Loads with the device's cache hints; plain loads on the host.
KOKKOS_INLINE_FUNCTION Pack16 load_readonly(const Pack16* p) {
  KOKKOS_IF_ON_DEVICE((const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
                       return Pack16{v.x, v.y, v.z, v.w};))
  KOKKOS_IF_ON_HOST((return *p;))
}
// Cached in L2 only (ld.global.cg): the l2 kernel must not be helped by L1.
KOKKOS_INLINE_FUNCTION Pack16 load_l2(const Pack16* p) {
  KOKKOS_IF_ON_DEVICE((const uint4 v = __ldcg(reinterpret_cast<const uint4*>(p));
                       return Pack16{v.x, v.y, v.z, v.w};))
  KOKKOS_IF_ON_HOST((return *p;))
}

// Read-only, not allocated in L1, and an L2 miss fetches the whole 256-byte block around
// the address (PTX's prefetch-size hint): the HBM read measured beside the plain one.
KOKKOS_INLINE_FUNCTION Pack16 load_prefetch_256(const Pack16* p) {
  KOKKOS_IF_ON_DEVICE((Pack16 v;
                       asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
                           : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                           : "l"(__cvta_generic_to_global(p)));
                       return v;))
  KOKKOS_IF_ON_HOST((return *p;))
}

// Round-to-nearest multiply and add that no compiler flag can fuse into an FMA (PTX
// mul.rn / add.rn are never contracted); the host translation unit is compiled with
// -ffp-contract=off for the same effect.
KOKKOS_INLINE_FUNCTION double mul_rn(double a, double b) {
  KOKKOS_IF_ON_DEVICE((return __dmul_rn(a, b);))
  KOKKOS_IF_ON_HOST((return a * b;))
}
KOKKOS_INLINE_FUNCTION float mul_rn(float a, float b) {
  KOKKOS_IF_ON_DEVICE((return __fmul_rn(a, b);))
  KOKKOS_IF_ON_HOST((return a * b;))
}
KOKKOS_INLINE_FUNCTION double add_rn(double a, double b) {
  KOKKOS_IF_ON_DEVICE((return __dadd_rn(a, b);))
  KOKKOS_IF_ON_HOST((return a + b;))
}
KOKKOS_INLINE_FUNCTION float add_rn(float a, float b) {
  KOKKOS_IF_ON_DEVICE((return __fadd_rn(a, b);))
  KOKKOS_IF_ON_HOST((return a + b;))
}
KOKKOS_INLINE_FUNCTION double fma_rn(double a, double b, double c) {
  KOKKOS_IF_ON_DEVICE((return __fma_rn(a, b, c);))
  KOKKOS_IF_ON_HOST((return std::fma(a, b, c);))
}
KOKKOS_INLINE_FUNCTION float fma_rn(float a, float b, float c) {
  KOKKOS_IF_ON_DEVICE((return __fmaf_rn(a, b, c);))
  KOKKOS_IF_ON_HOST((return std::fma(a, b, c);))
}

// ---------------------------------------------------------------------------------------
// Compute: one full wave of threads, kChains independent chains per thread, a body of
// kSteps x kChains operations fully unrolled so that loop instructions are < 1 % of the
// issue slots, repeated `inner` times. Fused: x <- fma(x, 1/2, 1/4) (converges to 1/2,
// never denormal). Unfused: half the chains multiply by alpha then by 1/alpha, half add
// beta then subtract it, so every value returns to x0 exactly after each step and no
// multiply ever feeds an add. Each step is 2 FLOPs per chain either way.
inline constexpr int kComputeChains = 8;  // 16 fp64 registers: no spills at 32 per thread
inline constexpr int kComputeSteps = 64;  // 512 operations between two loop branches

template <class Space, class T, bool kFma>
struct DeviceComputeKernel {
  // kComputeChains consecutive values per item: touched once at each end of a launch, and
  // one base address keeps the kernel within its 32 registers (chain-major would keep
  // eight addresses alive and spill).
  Kokkos::View<T*, typename Space::memory_space> x;
  std::int64_t inner = 1;
  T alpha = T(0.5), beta = T(0.25), gamma = T(2.0);  // runtime, so nothing folds

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    T acc[kComputeChains];
    ROOFTOP_UNROLL
    for (int c = 0; c < kComputeChains; ++c) acc[c] = x(item * kComputeChains + c);
    for (std::int64_t r = 0; r < inner; ++r) {
      ROOFTOP_UNROLL
      for (int s = 0; s < kComputeSteps; ++s) {
        if constexpr (kFma) {
          ROOFTOP_UNROLL
          for (int c = 0; c < kComputeChains; ++c) acc[c] = fma_rn(acc[c], alpha, beta);
        } else {
          constexpr int kHalf = kComputeChains / 2;
          ROOFTOP_UNROLL
          for (int c = 0; c < kHalf; ++c) acc[c] = mul_rn(acc[c], alpha);
          ROOFTOP_UNROLL
          for (int c = kHalf; c < kComputeChains; ++c) acc[c] = add_rn(acc[c], beta);
          ROOFTOP_UNROLL
          for (int c = 0; c < kHalf; ++c) acc[c] = mul_rn(acc[c], gamma);
          ROOFTOP_UNROLL
          for (int c = kHalf; c < kComputeChains; ++c) acc[c] = add_rn(acc[c], -beta);
        }
      }
    }
    ROOFTOP_UNROLL
    for (int c = 0; c < kComputeChains; ++c) x(item * kComputeChains + c) = acc[c];
  }
};

// The fusion probe: a * a + c written with plain operators, evaluated where it is
// compiled. With a = 1 + 2^-30 and c = -(1 + 2^-29) (fp64), the unfused result is exactly
// 0 and the fused one 2^-60; in fp32 (a = 1 + 2^-13) 0 and 2^-26. kFusedUnit names the
// translation unit it is instantiated in (its contraction flags), so the two
// instantiations are distinct kernels.
template <class Space, class T, bool kFusedUnit>
struct FusionProbe {
  Kokkos::View<T*, typename Space::memory_space> v;  // a, c, result
  KOKKOS_INLINE_FUNCTION void operator()(const int) const { v(2) = v(0) * v(0) + v(1); }
};

// The closed form of what the l1 and shared kernels sum in one thread: `inner` steps of
// `loads` packs, `lanes` packs apart from pack `base` (32-bit, wrapping as the kernels do).
inline std::uint32_t fixed_offset_sum(std::int64_t base, int loads, int lanes,
                                      std::int64_t inner) {
  std::uint32_t s = 0;
  for (int k = 0; k < loads; ++k) s += pack_sum(static_cast<std::uint64_t>(base + k * lanes));
  return static_cast<std::uint32_t>(s * static_cast<std::uint64_t>(inner));
}

// ---------------------------------------------------------------------------------------
// l1: one wave of kL1ThreadsPerSm threads per SM (the stream policy's launch bounds keep
// them all resident); every SM re-reads one small buffer (kL1Packs x 16 B = 32 KiB), so
// after the first touch every load hits that SM's L1. A thread reads kL1Loads packs per
// step at fixed offsets from its own base pack (item mod kL1Lanes): each address is one
// register plus a constant, with no index arithmetic per load, and a warp reads 512
// contiguous bytes per load. Two three-input adds per 16-byte load keep the integer pipe
// well below the L1's pace (a masked index per load kept it near its limit: inference from
// the instruction counts). Adding the opaque `zero` to the base each step keeps the
// compiler from hoisting the loads out of the loop.
inline constexpr int kL1Loads = 8;
inline constexpr int kL1Lanes = 256;
inline constexpr int kL1Packs = kL1Loads * kL1Lanes;  // 32 KiB
inline constexpr int kL1ThreadsPerSm = 1024;          // 4 blocks of 256 at 64 registers

template <class Space>
struct DeviceL1Kernel {
  Kokkos::View<const Pack16*, typename Space::memory_space> buffer;  // kL1Packs
  Kokkos::View<std::uint32_t*, typename Space::memory_space> sums;   // one per item
  std::int64_t inner = 1;
  std::uint32_t zero = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const Pack16* q = buffer.data() + static_cast<std::uint32_t>(item) % kL1Lanes;
    std::uint32_t s0 = 0, s1 = 0;
    for (std::int64_t r = 0; r < inner; ++r, q += zero) {
      Pack16 v[kL1Loads];
      ROOFTOP_UNROLL
      for (int k = 0; k < kL1Loads; ++k) v[k] = load_readonly(q + k * kL1Lanes);
      ROOFTOP_UNROLL
      for (int k = 0; k < kL1Loads; ++k) {
        s0 += v[k].x + v[k].y;
        s1 += v[k].z + v[k].w;
      }
    }
    sums(item) = s0 + s1;
  }

  // The closed form of sums(item).
  static std::uint32_t expected(std::int64_t item, std::int64_t inner) {
    return fixed_offset_sum(item % kL1Lanes, kL1Loads, kL1Lanes, inner);
  }
};

// ---------------------------------------------------------------------------------------
// shared: teams sized from the GPU (shared_team_shape: kSharedTeamsPerSm teams per SM,
// 512 threads on 2048-thread SMs, 384 on 1536-thread ones); each team fills kSharedPacks
// x 16 B of scratch with the closed-form pattern, then every thread runs `inner` steps of
// kSharedLoads 16-byte scratch loads at fixed offsets from its own base pack (rank mod
// kSharedLanes), as the l1 kernel does: consecutive addresses across the warp (each
// quarter-warp covers the 32 banks once: conflict-free) and no index arithmetic per load.
// The launch bounds (1024 threads, 2 blocks per SM) cap the kernel at 32 registers as
// 4 x 512 would (four loads in flight fit them), while Kokkos's check of a team size
// against them (minimum blocks x team size within the SM's threads and shared memory)
// passes for every team shape the plan chooses, on every supported GPU.
inline constexpr int kSharedLoads = 4;
inline constexpr int kSharedLanes = 256;
inline constexpr int kSharedPacks = kSharedLoads * kSharedLanes;  // 16 KiB per team
inline constexpr int kSharedTeamsPerSm = 4;
inline constexpr int kSharedMaxTeam = 512;
inline constexpr int kSharedBoundThreads = 1024;
inline constexpr int kSharedBoundBlocks = 2;

template <class Space>
struct DeviceSharedKernel {
  using Policy =
      Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<kSharedBoundThreads, kSharedBoundBlocks>>;
  using Member = typename Policy::member_type;
  Kokkos::View<std::uint32_t*, typename Space::memory_space> sums;  // one per thread
  std::int64_t inner = 1;
  std::uint32_t zero = 0;

  static std::size_t scratch_bytes() { return kSharedPacks * sizeof(Pack16) + 16; }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    auto* const q = static_cast<Pack16*>(
        team.team_scratch(0).get_shmem_aligned(kSharedPacks * sizeof(Pack16), 16));
    const int rank = team.team_rank(), size = team.team_size();
    for (int p = rank; p < kSharedPacks; p += size)
      q[p] = pack_value(static_cast<std::uint64_t>(p));
    team.team_barrier();
    std::uint32_t s0 = 0, s1 = 0;
    const Pack16* b = q + rank % kSharedLanes;
    for (std::int64_t r = 0; r < inner; ++r, b += zero) {
      ROOFTOP_UNROLL
      for (int k = 0; k < kSharedLoads; ++k) {
        const Pack16 v = b[k * kSharedLanes];
        s0 += v.x + v.y;
        s1 += v.z + v.w;
      }
    }
    sums(static_cast<std::int64_t>(team.league_rank()) * size + rank) = s0 + s1;
  }

  static std::uint32_t expected(int rank, std::int64_t inner) {
    return fixed_offset_sum(rank % kSharedLanes, kSharedLoads, kSharedLanes, inner);
  }
};

// ---------------------------------------------------------------------------------------
// l2 and dram: a stream of short work items (the block scheduler balances the SMs; the
// tail is one item). An item moves kPacksPerItem packs (1 KiB per stream) as kGroups
// groups of kUnroll independent 16-byte accesses; 256 consecutive items cover one
// contiguous 256 KiB chunk, a warp's accesses are consecutive 16-byte packs. Items
// i >= packs / kPacksPerItem start the next pass over the same buffer.
inline constexpr int kUnroll = 8;
inline constexpr int kGroups = 8;
inline constexpr int kPacksPerItem = kUnroll * kGroups;  // 64 packs = 1 KiB
inline constexpr int kItemsPerChunk = 256;
inline constexpr std::int64_t kChunkPacks = kItemsPerChunk * kPacksPerItem;  // 256 KiB

KOKKOS_INLINE_FUNCTION std::int64_t stream_pack(std::int64_t j, int g, int u) {
  return (j / kItemsPerChunk) * kChunkPacks + (g * kUnroll + u) * kItemsPerChunk +
         j % kItemsPerChunk;
}

// How the read pattern loads: l2_only skips L1 (ld.global.cg: the l2 kernel, whose rate
// must be L2 traffic, not L1 hits); readonly is the read-only path (ld.global.nc: dram);
// prefetch_256 adds L1::no_allocate and the L2's 256-byte prefetch hint (dram-256b).
enum class Access { l2_only, readonly, prefetch_256 };

template <class Space, Pattern kPattern, Access kAccess>
struct DeviceStreamKernel {
  using Memory = typename Space::memory_space;
  Kokkos::View<Pack16*, Memory> a, b;         // read: a; write: a; copy: a -> b
  Kokkos::View<Double2*, Memory> ta, tb, tc;  // triad: ta = tb + s * tc
  Kokkos::View<std::uint32_t*, Memory> sums;  // read: one per item of a pass
  std::int64_t items_per_pass = 0;            // packs / kPacksPerItem
  std::uint32_t stamp = 0;                    // write: added to every word of this launch
  double s = 0.5;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t j = item % items_per_pass;
    if constexpr (kPattern == Pattern::read) {
      const Pack16* const q = a.data();
      std::uint32_t s0 = 0, s1 = 0;
      for (int g = 0; g < kGroups; ++g) {
        Pack16 v[kUnroll];
        ROOFTOP_UNROLL
        for (int u = 0; u < kUnroll; ++u)
          if constexpr (kAccess == Access::l2_only)
            v[u] = load_l2(q + stream_pack(j, g, u));
          else if constexpr (kAccess == Access::prefetch_256)
            v[u] = load_prefetch_256(q + stream_pack(j, g, u));
          else
            v[u] = load_readonly(q + stream_pack(j, g, u));
        ROOFTOP_UNROLL
        for (int u = 0; u < kUnroll; ++u) {
          s0 += v[u].x + v[u].y;
          s1 += v[u].z + v[u].w;
        }
      }
      // Every pass writes the same value to the same slot, so the passes may race.
      sums(j) = s0 + s1;
    } else if constexpr (kPattern == Pattern::write) {
      Pack16* const q = a.data();
      ROOFTOP_UNROLL
      for (int k = 0; k < kPacksPerItem; ++k) {
        const std::int64_t p = stream_pack(j, k / kUnroll, k % kUnroll);
        const Pack16 v = pack_value(static_cast<std::uint64_t>(p));
        q[p] = Pack16{v.x + stamp, v.y + stamp, v.z + stamp, v.w + stamp};
      }
    } else if constexpr (kPattern == Pattern::copy) {
      const Pack16* const from = a.data();
      Pack16* const to = b.data();
      for (int g = 0; g < kGroups; ++g) {
        Pack16 v[kUnroll];
        ROOFTOP_UNROLL
        for (int u = 0; u < kUnroll; ++u) v[u] = load_readonly(from + stream_pack(j, g, u));
        ROOFTOP_UNROLL
        for (int u = 0; u < kUnroll; ++u) to[stream_pack(j, g, u)] = v[u];
      }
    } else if constexpr (kPattern == Pattern::triad) {
      // Half a group at a time: two inputs of kUnroll packs would need 64 registers.
      Double2* const out = ta.data();
      const Double2* const x = tb.data();
      const Double2* const y = tc.data();
      constexpr int kHalf = kUnroll / 2;
      for (int h = 0; h < 2 * kGroups; ++h) {
        const int g = h / 2, first = h % 2 * kHalf;
        Double2 v[kHalf], w[kHalf];
        ROOFTOP_UNROLL
        for (int u = 0; u < kHalf; ++u) {
          v[u] = x[stream_pack(j, g, first + u)];
          w[u] = y[stream_pack(j, g, first + u)];
        }
        ROOFTOP_UNROLL
        for (int u = 0; u < kHalf; ++u)
          out[stream_pack(j, g, first + u)] = Double2{v[u].x + s * w[u].x, v[u].y + s * w[u].y};
      }
    }
  }

  // The closed form of sums(j) of the read pattern.
  static std::uint32_t expected_sum(std::int64_t j) {
    std::uint32_t sum = 0;
    for (int g = 0; g < kGroups; ++g)
      for (int u = 0; u < kUnroll; ++u)
        sum += pack_sum(static_cast<std::uint64_t>(stream_pack(j, g, u)));
    return sum;
  }
};

// ---------------------------------------------------------------------------------------
// The SM clock, as nvbench measures it: launched right before the first and right after
// the last timed launch of a sample, in the same stream, this kernel has the threads on
// SM 0 record the SM's cycle counter (clock64) and the global nanosecond timer;
// f_SM = delta cycles / delta ns. On the host both are the steady clock's nanoseconds
// (a clock of 1 GHz by construction, which the tests know).
template <class Space>
struct ClockProbe {
  Kokkos::View<std::int64_t[4], typename Space::memory_space> stamps;  // cycles, ns (x2)
  int slot = 0;                                                        // 0: before, 1: after

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    KOKKOS_IF_ON_DEVICE((unsigned sm; asm volatile("mov.u32 %0, %%smid;"
                                                   : "=r"(sm));
                         if (sm == 0) {
                           unsigned long long ns;
                           asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
                           stamps(2 * slot) = static_cast<std::int64_t>(clock64());
                           stamps(2 * slot + 1) = static_cast<std::int64_t>(ns);
                         }))
    KOKKOS_IF_ON_HOST((if (item == 0) {
      const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count();
      stamps(2 * slot) = ns;
      stamps(2 * slot + 1) = ns;
    }))
  }
};

}  // namespace rooftop::microbench::device
