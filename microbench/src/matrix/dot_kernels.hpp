#pragma once
// The CPU's dot-product instructions on chains of accumulators held in vector registers:
// one function per instruction and chain count, compiled for that instruction alone
// (dot_kernels.cpp), so that the rest of the program runs on a CPU without it. No Kokkos
// here: the caller spreads the calls over the host's threads.
//
// Cost model, per instruction on one vector of accumulators:
//   vdpbf16ps zmm   16 fp32 lanes x 2 BF16 products, each a multiply and an add: 64 FLOPs
//   vpdpbusd zmm    16 int32 lanes x 4 u8 x s8 products, multiply + add:        128 ops
//   vpdpbusd ymm    (AVX-VNNI) 8 lanes:                                          64 ops
//   tdpbf16ps       (AMX) a 16 x 16 FP32 tile += 16 x 32 BF16 times 32 x 16:  16384 FLOPs
// No loads or stores inside the loop: the operands and the chains stay in registers.

#include <array>
#include <cstdint>
#include <string_view>

namespace rooftop::microbench::detail {

// One thread's work: `pairs` times, every chain takes the dot product of `a` with `b` and
// then of `a` with `c` (one vector each, the instruction's element types). The chains are
// read from and written back to `acc` (chains x one vector). With c = -b (BF16) every pair
// adds nothing, so FP32 stays exact however long it runs; INT32 lanes wrap modulo 2^32,
// so the integer chains can take c = b and still have a known answer.
using DotChains = void (*)(std::int64_t pairs, const void* a, const void* b, const void* c,
                           void* acc);

enum class DotInstruction { bf16_zmm, int8_zmm, int8_ymm };

struct DotKernelInfo {
  DotInstruction instruction;
  std::string_view name;     // the figure's pattern: "vdpbf16ps zmm"
  int vector_bytes;          // of one accumulator and of each operand
  int ops_per_instruction;   // FLOPs or integer ops (a multiply-add counts two)
  int registers;             // vector registers of the ISA (chains + the 3 operands fit)
};

inline constexpr DotKernelInfo kDotKernels[] = {
    {DotInstruction::bf16_zmm, "vdpbf16ps zmm", 64, 64, 32},
    {DotInstruction::int8_zmm, "vpdpbusd zmm", 64, 128, 32},
    {DotInstruction::int8_ymm, "vpdpbusd ymm (AVX-VNNI)", 32, 64, 16},
};

// Accumulators per thread each kernel is compiled for: 1 shows the latency, the others
// cover latency x pipes of the cores we know (Zen 4: 1 zmm per cycle, 4-6 cycles; Intel
// with ports 0 and 5: 2 per cycle, 5-6 cycles), up to what fits beside the operands.
inline constexpr int kDotChains[] = {1, 4, 8, 12, 16, 24};

// The kernel for an instruction and chain count; nullptr where the chain count does not
// fit the ISA's registers or was not compiled.
DotChains dot_chains(DotInstruction instruction, int chains);

// AMX: `pairs` times, every C tile (tmm0 up to tmm3, FP32, 16 rows x 64 bytes, read from
// and written back to `acc`, 1024 bytes each) takes tdpbf16ps of A (tmm4, 16 x 32 BF16)
// with B (tmm5) and then with C (tmm6: -B), B and C in Intel's VNNI layout (a row holds
// 16 pairs of BF16); then, once more, of A with B: the one product that stays, so the
// tiles show that they were loaded, multiplied and stored. `config` is the 64-byte tile
// configuration of amx_tile_config. Only a thread of a process Linux gave the tile data
// (arch_prctl, dot.cpp) on a CPU with amx_bf16 may call it.
using AmxTiles = void (*)(std::int64_t pairs, const void* config, const void* a, const void* b,
                          const void* c, void* acc);
inline constexpr int kAmxMaxTiles = 4;  // C tiles beside the 3 operand tiles, of 8
inline constexpr int kAmxOperandTile = 4;  // A; B and C follow
inline constexpr int kAmxTileBytes = 1024;  // 16 rows x 64 bytes
inline constexpr int kAmxOpsPerInstruction = 2 * 16 * 16 * 32;
inline constexpr std::string_view kAmxName = "tdpbf16ps";

// The configuration ldtilecfg loads for `tiles` C tiles (Intel SDM vol. 1, "Tile
// Configuration"; palette 1): byte 0 the palette, byte 1 the start row (0), bytes 16-47
// the bytes per row of tiles 0-15 (16-bit little-endian), bytes 48-63 their rows; the
// tiles not used stay 0 (unconfigured). Every used tile is 16 rows of 64 bytes.
std::array<std::uint8_t, 64> amx_tile_config(int tiles);

// The kernel for 1 to kAmxMaxTiles C tiles; nullptr otherwise, or off x86-64.
AmxTiles amx_tiles(int tiles);

// The operands and the answer: A is all 1.0 (a power of two), B holds the pairs (1, 1/2)
// in every row, C = -B. A pair of tdpbf16ps adds 16 x 1.5 = 24 to every element and takes
// it away; the product after the loop adds 24 per call, which stays. C elements start at
// small integers: FP32 holds every value exactly for 699,000 calls, of any length.
struct AmxOperands {
  alignas(64) std::array<std::uint16_t, 512> a{}, b{}, c{};  // 16 rows x 32 BF16
  alignas(64) std::array<std::uint8_t, 64> config{};
};
AmxOperands amx_operands(int tiles);
// Where C element i (of every thread's tiles, one after another) starts, and what it
// holds after `calls` calls.
float amx_initial(std::int64_t i);
float amx_expected(std::int64_t i, std::int64_t calls);

}  // namespace rooftop::microbench::detail
