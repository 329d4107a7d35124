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
// No loads or stores inside the loop: the operands and the chains stay in registers.

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

}  // namespace rooftop::microbench::detail
