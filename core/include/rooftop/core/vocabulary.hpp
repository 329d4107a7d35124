#pragma once
// The domain's lists, each defined once (BabelStream's one table per list): precisions,
// the compute ceilings measured for them, memory levels and the bandwidth sweep's access
// patterns with what they move per element. Labels, byte counts, file orders and metric
// names are read from these rows; adding one is one row.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "rooftop/core/model.hpp"

namespace rooftop::core {

// A kernel's FLOPs in one precision (an alias: nvcc's front end warns on the bare form).
using FlopsField = double KernelRecord::*;

// A floating-point format FLOPs are counted in, and the roof its operations are placed
// against: the one table of precision -> roof (core/roofline.cpp reads it).
//   - A precision with CUDA-core ceilings (`ceilings`: fp64, fp32) is placed against them;
//     fp32's `matrix` figure, TF32 tensor cores, takes over where its kernel's name says
//     so (`matrix_tag`: cuBLAS and cuDNN name such kernels "..._tf32f32_...") or where its
//     rate lies above the fp32 roofs and within tc_tf32 (cuDNN runs FP32 convolutions
//     and, where allowed, cuBLAS FP32 GEMMs in TF32).
//   - fp16, bf16 and fp8 have no CUDA-core ceiling: their `matrix` figure, the highest
//     rate the machine has for them, is their roof (FP8's tc_fp8_e4m3: kTensorPaths says
//     why one figure serves both formats).
// Instruction counts exist for three of them only: `sass` (d, f, h in
// sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}) and `nvprof` (dp, sp, hp in
// flop_count_{dp,sp,hp}) are empty for bf16 and fp8, whose FLOPs come from operators
// (a PyTorch trace) or from the tensor paths (kTensorPaths).
struct Precision {
  std::string_view name;    // rooftop's name: "fp64"
  std::string_view label;   // for people: "FP64"
  int bytes;                // of one element
  char sass;                // d, f, h; '\0' where no SASS count exists
  std::string_view nvprof;  // dp, sp, hp; empty where nvprof has no count
  bool ceilings;            // the microbenchmarks measure its compute ceilings
  FlopsField flops;         // a kernel's FLOPs in it
  std::string_view matrix;      // the /matrix figure of its operations on tensor cores
  std::string_view matrix_tag;  // a kernel name holding it ran on `matrix` (empty: none)

  constexpr bool counted_by_instructions() const { return sass != '\0'; }
};
inline constexpr Precision kPrecisions[] = {
    {"fp64", "FP64", 8, 'd', "dp", true, &KernelRecord::flops_fp64, "", ""},
    {"fp32", "FP32", 4, 'f', "sp", true, &KernelRecord::flops_fp32, "tc_tf32", "tf32"},
    {"fp16", "FP16", 2, 'h', "hp", false, &KernelRecord::flops_fp16, "tc_fp16", ""},
    {"bf16", "BF16", 2, '\0', "", false, &KernelRecord::flops_bf16, "tc_bf16", ""},
    {"fp8", "FP8", 1, '\0', "", false, &KernelRecord::flops_fp8, "tc_fp8_e4m3", ""},
};
const Precision* find_precision(std::string_view name);

// A CPU has no tensor cores: its ceilings file holds the /matrix figures of its own units,
// and where it has no `matrix` figure of a precision, the highest of these of the
// precision is its roof (AMX tiles above AVX-512 BF16 dot products on a CPU with both).
struct CpuMatrix {
  std::string_view precision;  // a row of kPrecisions
  std::string_view figure;     // a row of kFigures, group "matrix"
};
inline constexpr CpuMatrix kCpuMatrix[] = {{"bf16", "amx_bf16"}, {"bf16", "bf16_dot"}};

// The operations FLOPs are counted by (an FMA is two FLOPs).
inline constexpr std::string_view kFlopOps[] = {"add", "mul", "fma"};

// The compute ceilings of a precision: fused multiply-adds, and separate multiplies and
// adds ("nofma"). Their names are "<precision>_<mode>"; `pattern` is what a ceiling
// file's pattern column says of them.
struct ComputeMode {
  std::string_view name;
  std::string_view pattern;
};
inline constexpr ComputeMode kComputeModes[] = {{"fma", "fma"}, {"nofma", "mul+add"}};
const ComputeMode* find_compute_mode(std::string_view name);
std::string compute_ceiling_name(std::string_view precision, std::string_view mode);

// Memory levels, innermost first: the order of tables, charts and files.
struct Level {
  std::string_view name;   // "l1"
  std::string_view label;  // "L1"
};
inline constexpr Level kLevels[] = {
    {"l1", "L1"}, {"shared", "shared"}, {"l2", "L2"}, {"l3", "L3"}, {"dram", "DRAM"},
};
// Position in kLevels; a level rooftop does not name sorts after all of them.
int level_rank(std::string_view level);

// The access patterns of the bandwidth sweep and the arrays of 8-byte elements each one
// reads and writes per element (counted as the program sees them, as STREAM does;
// write-allocate is not added).
struct Pattern {
  std::string_view name;
  int loads;   // arrays read per element
  int stores;  // arrays written per element
  int arrays;  // arrays allocated
  constexpr int bytes_per_element() const { return 8 * (loads + stores); }
};
inline constexpr Pattern kPatterns[] = {
    {"read", 1, 0, 1}, {"write", 0, 1, 1}, {"copy", 1, 1, 2}, {"triad", 2, 1, 3}, {"rmw", 1, 1, 1},
};
const Pattern* find_pattern(std::string_view name);

// The groups of figures beyond the roofline's ceilings (schema 1.7), each an HDF5 group
// of its own (/costs, /matrix) and a member of the file.
using FiguresField = Figures CeilingsFile::*;  // an alias, as FlopsField
struct FigureGroup {
  std::string_view name;
  FiguresField figures;
};
inline constexpr FigureGroup kFigureGroups[] = {{"costs", &CeilingsFile::costs},
                                                {"matrix", &CeilingsFile::matrix}};

// The units a figure or a sweep's values can carry, and what they mean.
struct Unit {
  std::string_view name;
  std::string_view meaning;
};
inline constexpr Unit kUnits[] = {
    {"GB/s", "10^9 bytes per second"},
    {"GFLOP/s", "10^9 floating-point operations per second"},
    {"GOP/s", "10^9 integer operations per second (a multiply-add counts two)"},
    {"us", "microseconds"},
    {"ratio", "a quotient of two rates, without units"},
    {"warps/SM", "resident warps per streaming multiprocessor"},
    {"threads", "threads of the host"},
    {"B", "bytes"},
};
const Unit* find_unit(std::string_view name);

// The sweeps of one parameter behind the figures: a name ("<what>:<variant>"), its
// group, what its x is, and the units of its values.
struct Sweep {
  std::string_view name;
  std::string_view group;  // one of kFigureGroups
  std::string_view x;      // what the swept parameter is, with its units
  std::string_view units;  // of the values (a row of kUnits)
  std::string_view label;  // for people
};
inline constexpr Sweep kSweeps[] = {
    // Transfers: bytes per copy.
    {"h2d:pinned", "costs", "bytes per copy", "GB/s", "host to device, pinned host memory"},
    {"h2d:pageable", "costs", "bytes per copy", "GB/s", "host to device, pageable host memory"},
    {"d2h:pinned", "costs", "bytes per copy", "GB/s", "device to host, pinned host memory"},
    {"d2h:pageable", "costs", "bytes per copy", "GB/s", "device to host, pageable host memory"},
    {"d2d", "costs", "bytes per copy", "GB/s", "device to device"},
    // Coalescing: elements between the addresses of neighbouring threads.
    {"stride:l2", "costs", "stride in elements", "GB/s", "strided reads from L2"},
    {"stride:dram", "costs", "stride in elements", "GB/s", "strided reads from DRAM"},
    {"rows:dram", "costs", "matrix side in elements", "GB/s", "2-D array read along rows"},
    {"columns:dram", "costs", "matrix side in elements", "GB/s", "2-D array read along columns"},
    // Occupancy and latency hiding.
    {"occupancy:dram", "costs", "resident warps per SM", "GB/s", "DRAM reads against occupancy"},
    {"threads:dram", "costs", "threads", "GB/s", "DRAM reads against host threads"},
    // Launches: work items per kernel.
    {"launch", "costs", "work items per kernel", "us", "back-to-back launches, per launch"},
    {"launch:sync", "costs", "work items per kernel", "us", "launch to completion, fenced"},
    {"fence", "costs", "kernels outstanding", "us", "a fence with nothing to wait for, per fence"},
    // Divergence: active lanes per warp.
    {"divergence:fp32", "costs", "active lanes per warp", "GFLOP/s", "FP32 FMA rate"},
    // Matrix units: independent accumulators per warp (GPU) or per thread (CPU); each
    // sweep makes the figure of its name.
    {"tc_fp64", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, FP64"},
    {"tc_tf32", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, TF32"},
    {"tc_bf16", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, BF16"},
    {"tc_fp16", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, FP16"},
    {"tc_fp16_acc16", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, FP16, FP16 accumulate"},
    {"tc_fp8_e4m3", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, FP8 E4M3"},
    {"tc_fp8_e5m2", "matrix", "accumulators per warp", "GFLOP/s", "tensor cores, FP8 E5M2"},
    {"tc_int8", "matrix", "accumulators per warp", "GOP/s", "tensor cores, INT8"},
    // Hopper's wgmma (one warpgroup, operands in shared memory): N of the m64nNk shape;
    // each sweep also makes the figure before its colon, with the mma.sync one.
    {"tc_tf32:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, TF32, wgmma"},
    {"tc_bf16:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, BF16, wgmma"},
    {"tc_fp16:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, FP16, wgmma"},
    {"tc_fp16_acc16:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, FP16, FP16 accumulate, wgmma"},
    {"tc_fp8_e4m3:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, FP8 E4M3, wgmma"},
    {"tc_fp8_e5m2:wgmma", "matrix", "N of m64nNk", "GFLOP/s", "tensor cores, FP8 E5M2, wgmma"},
    {"tc_int8:wgmma", "matrix", "N of m64nNk", "GOP/s", "tensor cores, INT8, wgmma"},
    {"bf16_dot", "matrix", "accumulators per thread", "GFLOP/s", "BF16 dot products"},
    {"int8_dot", "matrix", "accumulators per thread", "GOP/s", "INT8 dot products"},
    {"amx_bf16", "matrix", "tiles per thread", "GFLOP/s", "AMX tiles, BF16"},
};
const Sweep* find_sweep(std::string_view name);

// The figures drawn from the sweeps, in the order they are listed. `kind` says what sort
// of number it is: "transfer" (a bandwidth with no roofline slope), "latency", "ratio",
// "occupancy", "size", "compute" (a matrix unit's rate, a roof only for the kernels that
// use it).
struct Figure {
  std::string_view name;
  std::string_view group;  // one of kFigureGroups
  std::string_view kind;
  std::string_view units;  // a row of kUnits
  std::string_view label;  // for people
};
inline constexpr Figure kFigures[] = {
    {"h2d", "costs", "transfer", "GB/s", "host to device, pinned, large copies"},
    {"d2h", "costs", "transfer", "GB/s", "device to host, pinned, large copies"},
    {"d2d", "costs", "transfer", "GB/s", "device to device, large copies"},
    {"h2d_latency", "costs", "latency", "us", "host to device: latency of t = latency + bytes / bandwidth"},
    {"d2h_latency", "costs", "latency", "us", "device to host: latency of t = latency + bytes / bandwidth"},
    {"stride32_l2", "costs", "ratio", "ratio", "L2 reads at stride 32 / stride 1"},
    {"stride32_dram", "costs", "ratio", "ratio", "DRAM reads at stride 32 / stride 1"},
    {"columns_dram", "costs", "ratio", "ratio", "2-D array along columns / along rows"},
    {"occupancy90_dram", "costs", "occupancy", "warps/SM", "fewest warps per SM reaching 90% of DRAM bandwidth"},
    {"threads90_dram", "costs", "occupancy", "threads", "fewest threads reaching 90% of DRAM bandwidth"},
    {"launch_latency", "costs", "latency", "us", "empty kernel, launch to completion"},
    {"launch_interval", "costs", "latency", "us", "empty kernels launched back to back, per launch"},
    {"fence", "costs", "latency", "us", "a fence with nothing to wait for"},
    {"launch_breakeven", "costs", "size", "B", "bytes a kernel writes when its run time equals its launch cost"},
    {"divergence1_fp32", "costs", "ratio", "ratio", "FP32 FMA rate with 1 active lane / 32"},
    // Matrix units (dense; the instruction that made each is the figure's pattern).
    {"tc_fp64", "matrix", "compute", "GFLOP/s", "tensor cores, FP64"},
    {"tc_tf32", "matrix", "compute", "GFLOP/s", "tensor cores, TF32, FP32 accumulate"},
    {"tc_bf16", "matrix", "compute", "GFLOP/s", "tensor cores, BF16, FP32 accumulate"},
    {"tc_fp16", "matrix", "compute", "GFLOP/s", "tensor cores, FP16, FP32 accumulate"},
    {"tc_fp16_acc16", "matrix", "compute", "GFLOP/s", "tensor cores, FP16, FP16 accumulate"},
    {"tc_fp8_e4m3", "matrix", "compute", "GFLOP/s", "tensor cores, FP8 E4M3, FP32 accumulate"},
    {"tc_fp8_e5m2", "matrix", "compute", "GFLOP/s", "tensor cores, FP8 E5M2, FP32 accumulate"},
    {"tc_int8", "matrix", "compute", "GOP/s", "tensor cores, INT8, INT32 accumulate"},
    {"bf16_dot", "matrix", "compute", "GFLOP/s", "BF16 dot products (AVX-512 BF16 vdpbf16ps)"},
    {"int8_dot", "matrix", "compute", "GOP/s", "INT8 dot products (VNNI vpdpbusd)"},
    {"amx_bf16", "matrix", "compute", "GFLOP/s", "AMX tiles, BF16 (tdpbf16ps)"},
};
const Figure* find_figure(std::string_view name);
// The matrix units' operations Nsight Compute and CUPTI count, each tied to the /matrix
// figure a kernel whose operations are mostly of it is placed against. The names are
// those `ncu --query-metrics | grep sm__ops_` lists ("# of math ops executed in Tensor
// path with source BF16 and destination FP32", NVIDIA's answer in the developer forums'
// "How many FLOPs does one tensor_op_hmma instruction do?"); a multiply-add is two ops:
// a 4096^3 FP16 GEMM counts sm__ops_path_tensor_src_fp16_dst_fp32 = 2 x 4096^3. Per
// figure the first row whose metric was collected counts; a chip names only some of them,
// as CUPTI 13.0's profiler host says: GH100 counts FP16 sources in one metric,
// sm__ops_path_tensor_src_fp16 (Hopper's dense FP16 rate is one for either accumulator),
// Ada and GH100 sm__ops_path_tensor_src_fp8, GB20x _src_fp8_dst_fp32 (GB100 none).
// FP8 is one count whatever the format: no metric of the 30 chips CUPTI 13.0 lists names
// E4M3 or E5M2 (tests/counters/test_cupti_tensor_paths.cpp); Ada's and GH100's is "math
// ops executed in Tensor path with source FP8", GB20x's "one source FP8 and other source
// FP4/FP6/FP8". So E4M3 and E5M2 ops cannot be told apart, and both are placed against
// tc_fp8_e4m3, the figure of that one path: Ada's and Hopper's whitepapers give one dense
// FP8 rate for both formats (ceilings/src/tensor_peaks.cpp), which tc_fp8_e5m2 measures.
struct TensorPath {
  std::string_view figure;  // a row of kFigures, group "matrix"
  std::string_view metric;  // Nsight Compute's name, with its .sum
};
inline constexpr TensorPath kTensorPaths[] = {
    {"tc_fp64", "sm__ops_path_tensor_src_fp64.sum"},
    {"tc_tf32", "sm__ops_path_tensor_src_tf32_dst_fp32.sum"},
    {"tc_bf16", "sm__ops_path_tensor_src_bf16_dst_fp32.sum"},
    {"tc_fp16", "sm__ops_path_tensor_src_fp16_dst_fp32.sum"},
    {"tc_fp16", "sm__ops_path_tensor_src_fp16.sum"},
    {"tc_fp16_acc16", "sm__ops_path_tensor_src_fp16_dst_fp16.sum"},
    {"tc_fp8_e4m3", "sm__ops_path_tensor_src_fp8_dst_fp32.sum"},
    {"tc_fp8_e4m3", "sm__ops_path_tensor_src_fp8.sum"},
    {"tc_int8", "sm__ops_path_tensor_src_int8.sum"},
};
// True where `figure` is a figure of kTensorPaths (a unit whose ops a kernel can carry).
bool tensor_figure(std::string_view figure);

// A figure with its row's name, kind and units and nothing measured yet.
Ceiling figure_row(std::string_view name);
// Position in kFigures; a name not in it sorts after all of them.
int figure_rank(std::string_view name);

// The order ceilings are listed in: compute (precision by precision, fma first), then
// the levels innermost first; a name not in it sorts last.
int ceiling_rank(std::string_view name);

// How many compute ceilings rooftop measures: its precisions with ceilings x the modes.
int compute_ceiling_count();

// "compute" for a compute ceiling rooftop measures, "bandwidth" for a memory level, empty
// for a name rooftop does not know.
std::string_view ceiling_kind(std::string_view name);

// A pattern a ceiling can carry: an access pattern of kPatterns or a compute mode's.
bool known_ceiling_pattern(std::string_view pattern);

}  // namespace rooftop::core
