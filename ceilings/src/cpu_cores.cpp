// The x86 cores rooftop knows, one row each: their vector pipes and L1 ports, from the
// vendors' optimization manuals (AMD's Software Optimization Guides for families 17h,
// 19h and 1Ah; Intel's 64 and IA-32 Architectures Optimization Reference Manual) and
// Agner Fog's microarchitecture tables. A core not listed gets no theoretical peak.
#include <cstdio>
#include <regex>
#include <string>

#include "rooftop/ceilings/cpu_cores.hpp"

namespace rooftop::ceilings {
namespace {

// Pipes per core in operations per cycle at each vector width: a 512-bit operation on a
// core with 256-bit pipes takes two of them (Zen 4), so it counts one. add: pipes that
// add but cannot multiply (multiplies need an FMA pipe).
struct Width {
  int fma = 0, add = 0, loads = 0;
  double store_bytes = 0;
};

// The models of one core: ranges of CPUID model numbers, lo to hi; unused ones match none.
struct ModelRange {
  int lo = 1, hi = 0;
};

struct CoreRow {
  const char* vendor;
  int family;
  ModelRange models[4];
  const char* name;
  Width w256, w512;  // w512.fma == 0: no AVX-512; -1: per part (Skylake-SP)
  const char* source;
};

constexpr int kIntelCore = 6;
constexpr CoreRow kCores[] = {
    {"AuthenticAMD", 0x17, {{0x00, 0x2f}}, "Zen/Zen+", {1, 1, 1, 16}, {}, "4 x 128-bit pipes (2 FMA, 2 add), 2 loads"},
    {"AuthenticAMD", 0x17, {{0x30, 0xff}}, "Zen 2", {2, 2, 2, 32}, {}, "2 FMA + 2 add pipes, 256 bits"},
    {"AuthenticAMD", 0x19, {{0x00, 0x0f}, {0x20, 0x5f}}, "Zen 3", {2, 2, 2, 32}, {}, "2 FMA + 2 add pipes, 256 bits"},
    {"AuthenticAMD", 0x19, {{0x10, 0x1f}, {0x60, 0xaf}}, "Zen 4", {2, 2, 2, 32}, {1, 1, 1, 32}, "2 FMA + 2 add pipes of 256 bits; a 512-bit operation takes two"},
    {"AuthenticAMD", 0x1a, {{0x00, 0x1f}, {0x40, 0x4f}}, "Zen 5", {2, 2, 2, 64}, {2, 2, 2, 64}, "2 FMA + 2 add pipes, 512 bits"},
    {"AuthenticAMD", 0x1a, {{0x20, 0x2f}}, "Zen 5 (mobile)", {2, 2, 2, 32}, {1, 1, 1, 32}, "2 FMA + 2 add pipes of 256 bits; a 512-bit operation takes two"},
    // Intel: multiplies and adds issue to the FMA ports (p0, p1) before Golden Cove.
    {"GenuineIntel", kIntelCore, {{0x3c, 0x3c}, {0x3f, 0x3f}, {0x45, 0x46}}, "Haswell", {2, 0, 2, 32}, {}, "2 FMA ports (p0, p1)"},
    {"GenuineIntel", kIntelCore, {{0x3d, 0x3d}, {0x47, 0x47}, {0x4f, 0x4f}, {0x56, 0x56}}, "Broadwell", {2, 0, 2, 32}, {}, "2 FMA ports (p0, p1)"},
    {"GenuineIntel", kIntelCore, {{0x4e, 0x4e}, {0x5e, 0x5e}}, "Skylake", {2, 0, 2, 32}, {}, "2 FMA ports (p0, p1)"},
    {"GenuineIntel", kIntelCore, {{0x8e, 0x8e}, {0x9e, 0x9e}}, "Kaby/Coffee Lake", {2, 0, 2, 32}, {}, "2 FMA ports (p0, p1)"},
    {"GenuineIntel", kIntelCore, {{0xa5, 0xa6}}, "Comet Lake", {2, 0, 2, 32}, {}, "2 FMA ports (p0, p1)"},
    {"GenuineIntel", kIntelCore, {{0x55, 0x55}}, "Skylake-SP/Cascade Lake", {2, 0, 2, 64}, {-1, 0, 2, 64},
     "2 FMA ports of 256 bits; 512 bits on p0+p1 and, on most Gold 6xxx and Platinum parts, p5"},
    {"GenuineIntel", kIntelCore, {{0x6a, 0x6a}, {0x6c, 0x6c}}, "Ice Lake-SP", {2, 0, 2, 64}, {2, 0, 2, 64}, "2 FMA ports; 512 bits on p0+p1 and p5"},
    {"GenuineIntel", kIntelCore, {{0x7d, 0x7e}}, "Ice Lake", {2, 0, 2, 64}, {1, 0, 2, 64}, "2 FMA ports of 256 bits; 512 bits on p0+p1 only"},
    {"GenuineIntel", kIntelCore, {{0x8c, 0x8d}}, "Tiger Lake", {2, 0, 2, 64}, {1, 0, 2, 64}, "2 FMA ports of 256 bits; 512 bits on p0+p1 only"},
    // Golden Cove and later: two more adders on p1 and p5 (256 bits), so an unfused
    // 1:1 mix issues three operations a cycle at 256 bits.
    {"GenuineIntel", kIntelCore, {{0x8f, 0x8f}}, "Sapphire Rapids", {2, 1, 2, 64}, {2, 0, 2, 64}, "2 FMA ports and the p5 adder at 256 bits; 512 bits on p0+p1 and p5"},
    {"GenuineIntel", kIntelCore, {{0xcf, 0xcf}}, "Emerald Rapids", {2, 1, 2, 64}, {2, 0, 2, 64}, "2 FMA ports and the p5 adder at 256 bits; 512 bits on p0+p1 and p5"},
    {"GenuineIntel", kIntelCore, {{0xad, 0xae}}, "Granite Rapids", {2, 1, 2, 64}, {2, 0, 2, 64}, "2 FMA ports and the p5 adder at 256 bits; 512 bits on p0+p1 and p5"},
};

// Skylake-SP and Cascade Lake parts with one 512-bit FMA unit: Bronze, Silver, Gold 5xxx
// (but the Gold 5122) and Xeon D; two: Gold 6xxx, Platinum, W. From Intel's ark pages.
int skylake_sp_fma512(const std::string& model_name) {
  std::smatch m;
  if (std::regex_search(model_name, m, std::regex(R"((Bronze|Silver|Gold|Platinum|W)[- ](\d)(\d{3}))"))) {
    const std::string line = m[1];
    const int series = std::stoi(m[2].str());
    if (line == "Platinum" || line == "W") return 2;
    if (line == "Gold") return series >= 6 || m[2].str() + m[3].str() == "5122" ? 2 : 1;
    return 1;
  }
  if (model_name.find("Xeon D") != std::string::npos) return 1;
  return 0;  // unknown part
}

std::string core_id(const std::string& vendor, int family, int model) {
  char id[96];
  std::snprintf(id, sizeof id, "%s family 0x%x model 0x%x", vendor.c_str(), family, model);
  return id;
}

const CoreRow* find_core(const std::string& vendor, int family, int model) {
  const CoreRow* row = nullptr;
  for (const CoreRow& r : kCores)
    for (const ModelRange& m : r.models)
      if (vendor == r.vendor && family == r.family && model >= m.lo && model <= m.hi) row = &r;
  return row;
}

// The dot-product instructions of the cores above that have them, in 512-bit
// instructions per cycle (dot.hpp). Zen 4 runs them on its two 256-bit FP multiply pipes
// (FP0, FP1), a zmm taking both (AMD's Software Optimization Guide for family 19h, and
// uops.info's Zen 4 measurements: vdpbf16ps and vpdpbusd zmm, 1 per cycle). Intel runs
// 512-bit VNNI and BF16 on its FMA ports: p0 (fused p0+p1) and, with a second FMA unit,
// p5 (Intel's Optimization Reference Manual).
// AMX: Intel gives the 4th-generation Xeon (Sapphire Rapids) core's TMUL as 1024 BF16
// operations per cycle, beside 64 FP32 ones of AVX-512 ("Llama 2 Inference on 4th Gen
// Intel Xeon Scalable Processor with DeepSpeed", co-published by Intel and Microsoft on
// intel.com, 2023): one 16 x 16 x 32 tdpbf16ps (16384 FLOPs) every 16 cycles. Emerald
// Rapids has the same core; no source found gives Granite Rapids' rate.
struct DotRow {
  const char* core;
  double bf16, int8, amx;
  const char* source;
  const char* bf16_unknown = nullptr;  // why bf16 is 0 on a core that has the instruction
};
// Intel gives vdpbf16ps's ports (p0 and p5) but no rate. Two guests of this class measured
// about one every two cycles per core (0.43 and 0.44 at the integer-chain clock, flat from
// 8 to 24 accumulators; BENCHMARKS.md) while vpdpbusd on the same ports reached 1.9, so two
// a cycle, the ports' count, is not the peak; without a published rate there is none.
constexpr const char* kIntelBf16Unknown =
    "Intel publishes no vdpbf16ps rate (two guests measured about one every two cycles)";
constexpr double kTmulBf16 = 1024.0 / 16384.0;
constexpr const char* kTmulSource =
    "1024 BF16 FLOPs per cycle per core, Intel's figure for the 4th Gen Xeon's TMUL";
constexpr DotRow kDotCores[] = {
    {"Zen 4", 1, 1, 0, "FP0+FP1 of 256 bits, a zmm takes both"},
    {"Ice Lake", 0, 1, 0, "p0+p1 fused, one 512-bit unit"},
    {"Tiger Lake", 0, 1, 0, "p0+p1 fused, one 512-bit unit"},
    {"Ice Lake-SP", 0, 2, 0, "p0+p1 fused and p5"},
    {"Sapphire Rapids", 0, 2, kTmulBf16, "p0+p1 fused and p5", kIntelBf16Unknown},
    {"Emerald Rapids", 0, 2, kTmulBf16, "p0+p1 fused and p5", kIntelBf16Unknown},
    {"Granite Rapids", 0, 2, 0, "p0+p1 fused and p5", kIntelBf16Unknown},
};

}  // namespace

DotRates core_dot_rates(const std::string& vendor, int family, int model) {
  DotRates out;
  const std::string id = core_id(vendor, family, model);
  const CoreRow* row = find_core(vendor, family, model);
  if (!row) {
    out.source = std::string("unknown core (") + id + ")";
    out.bf16_source = out.amx_source = out.source;
    return out;
  }
  for (const DotRow& d : kDotCores)
    if (std::string(d.core) == row->name) {
      out.bf16_zmm = d.bf16;
      out.int8_zmm = d.int8;
      out.source = std::string(row->name) + ": " + d.source;
      out.bf16_source = d.bf16_unknown ? std::string(row->name) + ": " + d.bf16_unknown : out.source;
      out.amx_bf16 = d.amx;
      out.amx_source = d.amx > 0 ? std::string(row->name) + ": " + kTmulSource
                                 : std::string(row->name) + ": no source for its TMUL rate";
      return out;
    }
  out.source = std::string(row->name) + " (" + id + "): its dot-product pipes are not in the table";
  out.bf16_source = out.amx_source = out.source;
  return out;
}

CoreModel core_model(const std::string& vendor, int family, int model,
                     const std::string& model_name, int simd_bits) {
  CoreModel out;
  const CoreRow* row = find_core(vendor, family, model);
  const std::string id = core_id(vendor, family, model);
  if (!row) {
    out.assumption = std::string("unknown core (") + id + "): no theoretical peak";
    return out;
  }
  out.name = row->name;
  Width w;
  if (simd_bits >= 512) {
    w = row->w512;
    if (w.fma < 0) w.fma = skylake_sp_fma512(model_name);
    if (w.fma == 0) {
      out.assumption = std::string(row->name) + " (" + id + "): 512-bit FMA units of '" +
                       model_name + "' unknown: no theoretical peak";
      return out;
    }
  } else if (simd_bits == 256) {
    w = row->w256;
  } else {
    out.assumption = std::string(row->name) + ": no theoretical peak for a " +
                     std::to_string(simd_bits) + "-bit build";
    return out;
  }
  out.fma = w.fma;
  out.add = w.add;
  out.loads = w.loads;
  out.store_bytes = w.store_bytes;
  out.assumption = std::string(row->name) + " (" + id + "): " + row->source + "; at " +
                   std::to_string(simd_bits) + " bits " + std::to_string(w.fma) + " FMA + " +
                   std::to_string(w.add) + " add pipes, " + std::to_string(w.loads) +
                   " loads and " + std::to_string(static_cast<int>(w.store_bytes)) +
                   " B of stores per cycle";
  return out;
}

}  // namespace rooftop::ceilings
