// The dot-product chains (dot_kernels.hpp). Each function carries the target of its own
// instruction, and only the dispatch in dot.cpp calls it, after asking the CPU: nothing
// else in the program is compiled for these extensions. Built with
// -fno-tree-loop-distribute-patterns (microbench/CMakeLists.txt) so that GCC loads the
// chains straight into registers instead of through a memcpy to a stack copy;
// scripts/check-dot-asm.sh checks that the loops are dot products on registers alone.
#include "dot_kernels.hpp"

#include <immintrin.h>

#include <iterator>
#include <utility>

#if defined(__NVCC__)
// nvcc's front end knows no `#pragma GCC unroll`, and hands it on to GCC all the same.
#pragma nv_diag_suppress unrecognized_gcc_pragma
#endif

namespace rooftop::microbench::detail {
namespace {

#if defined(__x86_64__)
// The loads and stores of the register types on untyped pointers (inlined into the
// kernels, whose targets include these).
__attribute__((target("avx2"), always_inline)) inline __m256i load_ymm(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
__attribute__((target("avx2"), always_inline)) inline void store_ymm(void* p, __m256i v) {
  _mm256_storeu_si256(static_cast<__m256i*>(p), v);
}
template <class Vec>
__attribute__((target("avx512f"), always_inline)) inline void store_zmm(void* p, Vec v) {
  _mm512_storeu_si512(p, (__m512i)v);
}
// One kernel per instruction, the same loop each time: a macro, as the target attribute
// (the instruction the intrinsics may use) belongs to the function that calls them.
// `load`, `store` and `dot` are the intrinsics, `Vec` the register type, `lanes` the
// 32-bit words of one.
#define ROOFTOP_DOT_CHAINS(kernel, isa, Vec, Operand, lanes, load, store, dot)                   \
  template <int kChains>                                                                     \
  __attribute__((target(isa), noinline)) void kernel(std::int64_t pairs, const void* a,      \
                                                     const void* b, const void* c, void* acc) { \
    const Operand va = (Operand)load(a), vb = (Operand)load(b), vc = (Operand)load(c);       \
    auto* out = static_cast<std::uint32_t*>(acc);                                           \
    Vec x[kChains];                                                                          \
    _Pragma("GCC unroll 32") for (int i = 0; i < kChains; ++i) x[i] = (Vec)load(out + lanes * i); \
    for (std::int64_t p = 0; p < pairs; ++p) {                                               \
      _Pragma("GCC unroll 32") for (int i = 0; i < kChains; ++i) x[i] = dot(x[i], va, vb);   \
      _Pragma("GCC unroll 32") for (int i = 0; i < kChains; ++i) x[i] = dot(x[i], va, vc);   \
    }                                                                                        \
    _Pragma("GCC unroll 32") for (int i = 0; i < kChains; ++i) store(out + lanes * i, x[i]); \
  }

ROOFTOP_DOT_CHAINS(bf16_zmm, "avx512f,avx512bw,avx512bf16", __m512, __m512bh, 16,
                   _mm512_loadu_si512, store_zmm, _mm512_dpbf16_ps)
ROOFTOP_DOT_CHAINS(int8_zmm, "avx512f,avx512vnni", __m512i, __m512i, 16, _mm512_loadu_si512,
                   store_zmm, _mm512_dpbusd_epi32)
// AVX-VNNI: the VEX-encoded 256-bit form of cores with VNNI but no AVX-512 (Alder Lake).
ROOFTOP_DOT_CHAINS(int8_ymm, "avx2,avxvnni", __m256i, __m256i, 8, load_ymm, store_ymm,
                   _mm256_dpbusd_avx_epi32)

template <int... kChains>
DotChains pick(DotInstruction instruction, int chains, std::integer_sequence<int, kChains...>) {
  DotChains out = nullptr;
  const auto one = [&]<int kOne>(std::integral_constant<int, kOne>) {
    if (chains != kOne) return false;
    switch (instruction) {
      case DotInstruction::bf16_zmm: out = &bf16_zmm<kOne>; break;
      case DotInstruction::int8_zmm: out = &int8_zmm<kOne>; break;
      case DotInstruction::int8_ymm:
        if constexpr (kOne + 3 <= 16) out = &int8_ymm<kOne>;
        break;
    }
    return true;
  };
  (one(std::integral_constant<int, kChains>{}) || ...);
  return out;
}
#endif

}  // namespace

DotChains dot_chains(DotInstruction instruction, int chains) {
#if defined(__x86_64__)
  return [&]<std::size_t... kIndex>(std::index_sequence<kIndex...>) {
    return pick(instruction, chains, std::integer_sequence<int, kDotChains[kIndex]...>{});
  }(std::make_index_sequence<std::size(kDotChains)>{});
#else
  (void)instruction;
  (void)chains;
  return nullptr;
#endif
}

}  // namespace rooftop::microbench::detail
