#include "rooftop/ceilings/tensor_peaks.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "rooftop/core/vocabulary.hpp"
#include "sweep_points.hpp"

namespace rooftop::ceilings {
namespace {

struct PeakRow {
  const char* cc;
  const char* figure;
  double per_sm_per_clock;  // dense operations (2 per multiply-add)
};

// The whitepapers give totals for one part at one clock; per SM per clock is the total
// / (SMs x that clock), which is what every part of the compute capability shares.
constexpr PeakRow kPeaks[] = {
    // NVIDIA A100 Tensor Core GPU Architecture whitepaper (A100 SXM4: 108 SMs, 1.41 GHz):
    // FP64 19.5, TF32 156, BF16/FP16 312 TFLOPS, INT8 624 TOPS dense.
    {"8.0", "tc_fp64", 128.0},
    {"8.0", "tc_tf32", 1024.0},
    {"8.0", "tc_bf16", 2048.0},
    {"8.0", "tc_fp16", 2048.0},
    {"8.0", "tc_fp16_acc16", 2048.0},
    {"8.0", "tc_int8", 4096.0},
    // NVIDIA Ada GPU Architecture whitepaper (RTX 4090: 128 SMs, 2.52 GHz): TF32 82.6,
    // FP16 with FP16 accumulate 330.3, FP8 660.6 TFLOPS, INT8 660.6 TOPS dense. GeForce
    // parts run FP16/BF16 with FP32 accumulate at half (165.2; FP8 at 330.3); the table
    // holds the full rate, the limit no 8.9 part exceeds. No FP64 tensor rate is given.
    {"8.9", "tc_tf32", 256.0},
    {"8.9", "tc_bf16", 1024.0},
    {"8.9", "tc_fp16", 1024.0},
    {"8.9", "tc_fp16_acc16", 1024.0},
    {"8.9", "tc_fp8_e4m3", 2048.0},
    {"8.9", "tc_fp8_e5m2", 2048.0},
    {"8.9", "tc_int8", 2048.0},
    // NVIDIA H100 Tensor Core GPU Architecture whitepaper (H100 SXM5: 132 SMs; 1.98 GHz
    // for FP64, 1.83 GHz for the others): FP64 66.9, TF32 494.7, BF16/FP16 989.4,
    // FP8 1978.9 TFLOPS, INT8 1978.9 TOPS dense. The FP64 rate is that of sm_90's FP64
    // mma shapes (m16n8k4, m16n8k8, m16n8k16; the sweep issues m16n8k16); Ampere's
    // m8n8k4 issues at half of it on 9.0.
    {"9.0", "tc_fp64", 256.0},
    {"9.0", "tc_tf32", 2048.0},
    {"9.0", "tc_bf16", 4096.0},
    {"9.0", "tc_fp16", 4096.0},
    {"9.0", "tc_fp16_acc16", 4096.0},
    {"9.0", "tc_fp8_e4m3", 8192.0},
    {"9.0", "tc_fp8_e5m2", 8192.0},
    {"9.0", "tc_int8", 8192.0},
};

// The lowest N of the sm_N a build lists ("sm_90" -> 90, "sm_80,sm_90" -> 80); 0 for none.
long lowest_sm(const std::string& device_arch) {
  long lowest = 0;
  for (std::size_t at = device_arch.find("sm_"); at != std::string::npos;
       at = device_arch.find("sm_", at + 3)) {
    const long n = std::strtol(device_arch.c_str() + at + 3, nullptr, 10);
    if (n > 0 && (lowest == 0 || n < lowest)) lowest = n;
  }
  return lowest;
}

bool is_tensor_figure(std::string_view name) {
  const core::Figure* f = core::find_figure(name);
  return f && f->group == "matrix" && name.substr(0, 3) == "tc_";
}

}  // namespace

std::optional<double> tensor_peak_per_sm_per_clock(const std::string& cc,
                                                   const std::string& figure) {
  for (const PeakRow& r : kPeaks)
    if (cc == r.cc && figure == r.figure) return r.per_sm_per_clock;
  return std::nullopt;
}

std::string tensor_instruction(const std::string& figure, const std::string& device_arch) {
  // PTX ISA: mma.sync's .f64 m16n8k4/k8/k16 need sm_90; m8n8k4 is sm_80's.
  if (figure == "tc_fp64")
    return lowest_sm(device_arch) >= 90 ? "mma.sync.m16n8k16" : "mma.sync.m8n8k4";
  if (figure == "tc_tf32") return "mma.sync.m16n8k8";
  if (figure == "tc_bf16" || figure == "tc_fp16" || figure == "tc_fp16_acc16")
    return "mma.sync.m16n8k16";
  if (figure == "tc_fp8_e4m3" || figure == "tc_fp8_e5m2" || figure == "tc_int8")
    return "mma.sync.m16n8k32";
  return "";
}

std::string wgmma_instruction(const std::string& figure, int n) {
  int k = 0;
  if (figure == "tc_tf32") k = 8;
  if (figure == "tc_bf16" || figure == "tc_fp16" || figure == "tc_fp16_acc16") k = 16;
  if (figure == "tc_fp8_e4m3" || figure == "tc_fp8_e5m2" || figure == "tc_int8") k = 32;
  if (k == 0 || n <= 0) return "";
  return "wgmma.mma_async.m64n" + std::to_string(n) + "k" + std::to_string(k);
}

std::vector<core::Ceiling> tensor_figures(const std::vector<core::SweepPoint>& points,
                                          const core::Machine& machine) {
  std::vector<core::Ceiling> out;
  for (const core::Figure& figure : core::kFigures) {
    const std::string name(figure.name);
    if (!is_tensor_figure(name)) continue;
    // Either instruction's sweep: mma.sync's (the figure's name) or wgmma's.
    std::vector<const core::SweepPoint*> candidates = detail::points_of(points, name);
    for (const core::SweepPoint* p : detail::points_of(points, name + ":wgmma"))
      candidates.push_back(p);
    const core::SweepPoint* best = detail::best_point(candidates);
    if (!best) continue;
    core::Ceiling c = detail::figure_from(name, *best);
    // The instruction that made the figure: the best point's, of either sweep.
    const bool wgmma = best->sweep != name;
    c.pattern = wgmma ? wgmma_instruction(name, static_cast<int>(best->x))
                      : tensor_instruction(name, machine.device_arch);
    char buf[256];
    if (wgmma)
      std::snprintf(buf, sizeof buf, "best of the sweeps: %s (N = %g)", c.pattern.c_str(), best->x);
    else
      std::snprintf(buf, sizeof buf, "best of the sweeps: %s at %g accumulators per warp",
                    c.pattern.c_str(), best->x);
    c.note = buf;
    // Hopper's full dense rate needs wgmma (warpgroup operands in shared memory); the
    // warp-wide mma.sync issues well below it there. FP64 has no wgmma: its mma.sync
    // m16n8k16 is the unit's instruction on 9.0, and Ampere's m8n8k4 issues at half rate.
    if (!wgmma && machine.compute_capability == "9.0") {
      if (name != "tc_fp64")
        c.note += "; mma.sync, not wgmma: below the dense peak on compute capability 9.0";
      else if (c.pattern == "mma.sync.m8n8k4")
        c.note +=
            "; Ampere's m8n8k4 (a build before sm_90): below the dense peak on compute "
            "capability 9.0";
    }
    // The highest clock of the point's samples keeps the peak an upper bound.
    const double clock = best->clock_ghz.empty()
                             ? 0.0
                             : *std::max_element(best->clock_ghz.begin(), best->clock_ghz.end());
    const auto per_clock = tensor_peak_per_sm_per_clock(machine.compute_capability, name);
    if (per_clock && clock > 0.0 && machine.cores > 0) {
      // GFLOP/s (GOP/s): operations per clock x GHz.
      c.theoretical = *per_clock * machine.cores * clock;
      std::snprintf(buf, sizeof buf,
                    "%d SMs x %.0f dense %s/clock per SM (compute capability %s) x %.3f GHz "
                    "(the highest SM clock of the point's samples)",
                    machine.cores, *per_clock, c.units == "GOP/s" ? "OP" : "FLOP",
                    machine.compute_capability.c_str(), clock);
      c.theoretical_basis = buf;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace rooftop::ceilings
