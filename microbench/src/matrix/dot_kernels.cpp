// The dot-product chains (dot_kernels.hpp). Each function carries the target of its own
// instruction, and only the dispatch in dot.cpp calls it, after asking the CPU: nothing
// else in the program is compiled for these extensions. Built with
// -fno-tree-loop-distribute-patterns (microbench/CMakeLists.txt) so that GCC loads the
// chains straight into registers instead of through a memcpy to a stack copy;
// scripts/check-dot-asm.sh checks that the loops are dot products on registers alone.
#include "matrix/dot_kernels.hpp"

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

// AMX: the tile numbers are part of the instruction (the intrinsics are macros that paste
// them into the assembly), so each C tile is spelled out, up to kTiles of them.
#define ROOFTOP_AMX_EACH(kTiles, what) \
  do {                                 \
    what(0);                           \
    if constexpr (kTiles > 1) what(1); \
    if constexpr (kTiles > 2) what(2); \
    if constexpr (kTiles > 3) what(3); \
  } while (0)

template <int kTiles>
__attribute__((target("amx-tile,amx-bf16"), noinline)) void amx_bf16(
    std::int64_t pairs, const void* config, const void* a, const void* b, const void* c,
    void* acc) {
  static_assert(kTiles >= 1 && kTiles <= kAmxMaxTiles && kAmxOperandTile == 4);
  auto* out = static_cast<char*>(acc);
  // The configuration and the accumulators come from the caller, in another translation
  // unit: their stores are done before this call, whatever the asm's operands say.
  _tile_loadconfig(config);
#define ROOFTOP_AMX_LOAD(t) _tile_loadd(t, out + t * kAmxTileBytes, 64)
#define ROOFTOP_AMX_WITH_B(t) _tile_dpbf16ps(t, 4, 5)
#define ROOFTOP_AMX_WITH_C(t) _tile_dpbf16ps(t, 4, 6)
#define ROOFTOP_AMX_STORE(t) _tile_stored(t, out + t * kAmxTileBytes, 64)
  ROOFTOP_AMX_EACH(kTiles, ROOFTOP_AMX_LOAD);
  _tile_loadd(4, a, 64);
  _tile_loadd(5, b, 64);
  _tile_loadd(6, c, 64);
  for (std::int64_t p = 0; p < pairs; ++p) {
    ROOFTOP_AMX_EACH(kTiles, ROOFTOP_AMX_WITH_B);
    ROOFTOP_AMX_EACH(kTiles, ROOFTOP_AMX_WITH_C);
  }
  ROOFTOP_AMX_EACH(kTiles, ROOFTOP_AMX_WITH_B);  // the product that stays
  ROOFTOP_AMX_EACH(kTiles, ROOFTOP_AMX_STORE);
  _tile_release();
#undef ROOFTOP_AMX_LOAD
#undef ROOFTOP_AMX_WITH_B
#undef ROOFTOP_AMX_WITH_C
#undef ROOFTOP_AMX_STORE
}
#undef ROOFTOP_AMX_EACH

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

std::array<std::uint8_t, 64> amx_tile_config(int tiles) {
  std::array<std::uint8_t, 64> cfg{};
  if (tiles < 1 || tiles > kAmxMaxTiles) return cfg;
  cfg[0] = 1;  // palette 1: 8 tiles of up to 16 rows x 64 bytes
  const auto use = [&](int tile) {
    cfg[16 + 2 * tile] = 64;  // bytes per row, low byte (the high byte stays 0)
    cfg[48 + tile] = 16;      // rows
  };
  for (int t = 0; t < tiles; ++t) use(t);
  for (int t = kAmxOperandTile; t < kAmxOperandTile + 3; ++t) use(t);
  return cfg;
}

AmxOperands amx_operands(int tiles) {
  AmxOperands o;
  for (std::size_t i = 0; i < o.a.size(); ++i) {
    o.a[i] = 0x3f80;                                            // 1.0
    o.b[i] = i % 2 == 0 ? 0x3f80 : 0x3f00;                      // 1.0, 0.5
    o.c[i] = static_cast<std::uint16_t>(o.b[i] | 0x8000);       // negated
  }
  o.config = amx_tile_config(tiles);
  return o;
}

float amx_initial(std::int64_t i) { return static_cast<float>(i % 61); }

float amx_expected(std::int64_t i, std::int64_t calls) {
  return amx_initial(i) + 16 * (1.0f + 0.5f) * static_cast<float>(calls);
}

AmxTiles amx_tiles(int tiles) {
#if defined(__x86_64__)
  switch (tiles) {
    case 1: return &amx_bf16<1>;
    case 2: return &amx_bf16<2>;
    case 3: return &amx_bf16<3>;
    case 4: return &amx_bf16<4>;
    default: return nullptr;
  }
#else
  (void)tiles;
  return nullptr;
#endif
}

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
