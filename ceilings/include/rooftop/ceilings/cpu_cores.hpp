#pragma once
// The x86 cores rooftop knows (cpu_cores.cpp holds the table, with its sources): what one
// core issues per cycle, for the theoretical peaks of a host's ceilings and of its
// dot-product figures. The GPU's facts are beside it (device_peaks.hpp, tensor_peaks.hpp,
// transfer_figures.hpp): every hardware fact rooftop holds lives in this library.

#include <string>

namespace rooftop::ceilings {

// What one core issues per cycle at the vector width the kernels were built for, for
// the theoretical peaks. Zero pipes: an unknown core,
// or a width the table has no figures for; `assumption` says which, or where the
// figures come from.
struct CoreModel {
  std::string name;  // "Zen 4"; empty when unknown
  int fma = 0, add = 0, loads = 0;
  double store_bytes = 0;
  std::string assumption;
};
// From /proc/cpuinfo's vendor_id, cpu family, model and model name.
CoreModel core_model(const std::string& vendor, int family, int model,
                     const std::string& model_name, int simd_bits);

// 512-bit dot-product instructions one core issues per cycle; 0: not
// known. `source` names the core and pipes, or says why not; each rate that can
// differ from the pipes' count has a source of its own.
struct DotRates {
  double bf16_zmm = 0.0;  // vdpbf16ps zmm
  double int8_zmm = 0.0;  // vpdpbusd zmm
  std::string source;
  double amx_bf16 = 0.0;   // tdpbf16ps (a whole tile product)
  std::string amx_source;  // where that comes from, or why it is not known
  std::string bf16_source;  // where bf16_zmm comes from, or why it is not known
};
DotRates core_dot_rates(const std::string& vendor, int family, int model);
}  // namespace rooftop::ceilings
