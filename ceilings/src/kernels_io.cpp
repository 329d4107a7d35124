// The /kernels group of a ceilings file: the kernel records of `analyze`, `import` and
// `profile`, one row each, with their bytes per memory level and their matrix-unit
// operations in tables of their own.
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "h5.hpp"
#include "io_internal.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings::detail {
namespace {

// On-disk rows. Field names are the schema: rename nothing, add freely.
// One row per kernel record; its bytes per level are rows of KernelBytesRow.
struct KernelRow {
  char name[256];
  char id[16];
  char group[32];
  std::int32_t order;
  char description[256];
  char source[32];
  char precision[8];
  // Columns flops_fp64, flops_fp32, ...: one per row of core::kPrecisions, in its order
  // (flops_bf16 and flops_fp8 since 1.8; 0 when read from an older file).
  double flops[std::size(core::kPrecisions)];
  double fma_fraction;  // NaN where unknown
  double tensor_instructions;
  double time_s, time_min, time_max;
  std::int32_t samples, invocations;
  char time_source[128];
  char check[8];
  double gflop_per_s;
  char limiter[32];
  double attainable_gflop_per_s, fraction_of_roof;
  char above[64];
  char note[256];
};

struct KernelBytesRow {
  std::int32_t kernel;  // row of /kernels/kernels
  char level[16];
  double bytes;
  double arithmetic_intensity;  // FLOPs / bytes
  char counted[8];  // since 1.8: "read" or "write" where only that half was counted; empty: all
};

// A kernel's operations on one matrix unit (schema 1.7, a table older files lack).
struct KernelTensorRow {
  std::int32_t kernel;  // row of /kernels/kernels
  char figure[16];      // the /matrix figure: "tc_fp16"
  double ops;           // a multiply-add two
};

h5::Handle kernel_type() {
  using R = KernelRow;
  std::vector<h5::Field> fields = {
      ROOFTOP_H5_FIELD(R, name),        ROOFTOP_H5_FIELD(R, id),
      ROOFTOP_H5_FIELD(R, group),       ROOFTOP_H5_FIELD(R, order),
      ROOFTOP_H5_FIELD(R, description), ROOFTOP_H5_FIELD(R, source),
      ROOFTOP_H5_FIELD(R, precision)};
  std::vector<std::string> flops_names;  // outlive the type's creation, which copies them
  for (const core::Precision& p : core::kPrecisions)
    flops_names.push_back("flops_" + std::string(p.name));
  for (std::size_t i = 0; i < flops_names.size(); ++i)
    fields.push_back({flops_names[i].c_str(), offsetof(R, flops) + i * sizeof(double),
                      H5T_NATIVE_DOUBLE, 0});
  for (const h5::Field& f :
       {ROOFTOP_H5_FIELD(R, fma_fraction), ROOFTOP_H5_FIELD(R, tensor_instructions),
        ROOFTOP_H5_FIELD(R, time_s), ROOFTOP_H5_FIELD(R, time_min), ROOFTOP_H5_FIELD(R, time_max),
        ROOFTOP_H5_FIELD(R, samples), ROOFTOP_H5_FIELD(R, invocations),
        ROOFTOP_H5_FIELD(R, time_source), ROOFTOP_H5_FIELD(R, check),
        ROOFTOP_H5_FIELD(R, gflop_per_s), ROOFTOP_H5_FIELD(R, limiter),
        ROOFTOP_H5_FIELD(R, attainable_gflop_per_s), ROOFTOP_H5_FIELD(R, fraction_of_roof),
        ROOFTOP_H5_FIELD(R, above), ROOFTOP_H5_FIELD(R, note)})
    fields.push_back(f);
  return h5::compound_type(sizeof(R), fields);
}

h5::Handle kernel_bytes_type() {
  using R = KernelBytesRow;
  return h5::compound_type(sizeof(R),
                           {ROOFTOP_H5_FIELD(R, kernel), ROOFTOP_H5_FIELD(R, level),
                            ROOFTOP_H5_FIELD(R, bytes),
                            ROOFTOP_H5_FIELD(R, arithmetic_intensity),
                            ROOFTOP_H5_FIELD(R, counted)});
}

h5::Handle kernel_tensor_type() {
  using R = KernelTensorRow;
  return h5::compound_type(sizeof(R),
                           {ROOFTOP_H5_FIELD(R, kernel), ROOFTOP_H5_FIELD(R, figure),
                            ROOFTOP_H5_FIELD(R, ops)});
}

// Text longer than a fixed field keeps its head; labels are never the key of anything.
std::string clip(const std::string& s, std::size_t capacity) {
  return s.size() < capacity ? s : s.substr(0, capacity - 1);
}

}  // namespace

void write_kernels(hid_t file, const std::vector<core::KernelRecord>& kernels) {
  h5::Handle g = h5::create_group(file, "kernels");
  std::vector<KernelRow> rows(kernels.size());
  std::vector<KernelBytesRow> bytes;
  std::vector<KernelTensorRow> tensor;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const core::KernelRecord& k = kernels[i];
    KernelRow& r = rows[i];
    h5::put(r.name, clip(k.name, sizeof r.name), "name");
    h5::put(r.id, k.id, "id");
    h5::put(r.group, k.group, "group");
    r.order = k.order;
    h5::put(r.description, clip(k.description, sizeof r.description), "description");
    h5::put(r.source, k.source, "source");
    h5::put(r.precision, k.precision, "precision");
    for (std::size_t p = 0; p < std::size(core::kPrecisions); ++p)
      r.flops[p] = k.*core::kPrecisions[p].flops;
    r.fma_fraction = k.fma_fraction >= 0.0 ? k.fma_fraction : std::nan("");
    r.tensor_instructions = k.tensor_instructions;
    r.time_s = k.time_s;
    r.time_min = k.time_min;
    r.time_max = k.time_max;
    r.samples = k.samples;
    r.invocations = k.invocations;
    h5::put(r.time_source, clip(k.time_source, sizeof r.time_source), "time_source");
    h5::put(r.check, k.check, "check");
    r.gflop_per_s = k.gflop_per_s();
    h5::put(r.limiter, k.limiter, "limiter");
    r.attainable_gflop_per_s = k.attainable_gflop_per_s;
    r.fraction_of_roof = k.fraction_of_roof;
    h5::put(r.above, clip(k.above, sizeof r.above), "above");
    h5::put(r.note, clip(k.note, sizeof r.note), "note");
    for (const core::LevelBytes& b : k.bytes) {
      KernelBytesRow br{};
      br.kernel = static_cast<std::int32_t>(i);
      h5::put(br.level, b.level, "level");
      br.bytes = b.bytes;
      br.arithmetic_intensity = b.bytes > 0.0 ? k.flops() / b.bytes : std::nan("");
      h5::put(br.counted, b.counted, "counted");
      bytes.push_back(br);
    }
    for (const core::TensorOps& t : k.tensor_ops) {
      KernelTensorRow tr{};
      tr.kernel = static_cast<std::int32_t>(i);
      h5::put(tr.figure, t.figure, "figure");
      tr.ops = t.ops;
      tensor.push_back(tr);
    }
  }
  h5::write_table(g.get(), "kernels", kernel_type(), rows.data(), rows.size());
  h5::write_table(g.get(), "bytes", kernel_bytes_type(), bytes.data(), bytes.size());
  if (!tensor.empty())
    h5::write_table(g.get(), "tensor_ops", kernel_tensor_type(), tensor.data(), tensor.size());
}

std::vector<core::KernelRecord> read_kernels(hid_t file) {
  std::vector<core::KernelRecord> out;
  if (!h5::exists(file, "kernels")) return out;  // a characterization without analysis
  h5::Handle g = h5::open_group(file, "kernels");
  for (const KernelRow& r : h5::read_rows<KernelRow>(g.get(), "kernels", kernel_type())) {
    core::KernelRecord k;
    k.name = h5::get(r.name);
    k.id = h5::get(r.id);
    k.group = h5::get(r.group);
    k.order = r.order;
    k.description = h5::get(r.description);
    k.source = h5::get(r.source);
    k.precision = h5::get(r.precision);
    for (std::size_t p = 0; p < std::size(core::kPrecisions); ++p)
      k.*core::kPrecisions[p].flops = r.flops[p];
    k.fma_fraction = std::isfinite(r.fma_fraction) ? r.fma_fraction : -1.0;
    k.tensor_instructions = r.tensor_instructions;
    k.time_s = r.time_s;
    k.time_min = r.time_min;
    k.time_max = r.time_max;
    k.samples = r.samples;
    k.invocations = r.invocations;
    k.time_source = h5::get(r.time_source);
    k.check = h5::get(r.check);
    k.limiter = h5::get(r.limiter);
    k.attainable_gflop_per_s = r.attainable_gflop_per_s;
    k.fraction_of_roof = r.fraction_of_roof;
    k.above = h5::get(r.above);
    k.note = h5::get(r.note);
    out.push_back(k);
  }
  for (const KernelBytesRow& r : h5::read_rows<KernelBytesRow>(g.get(), "bytes", kernel_bytes_type())) {
    if (r.kernel < 0 || static_cast<std::size_t>(r.kernel) >= out.size())
      throw Error("kernels/bytes: row for kernel " + std::to_string(r.kernel) + " of " +
                  std::to_string(out.size()));
    out[static_cast<std::size_t>(r.kernel)].bytes.push_back(
        {h5::get(r.level), r.bytes, h5::get(r.counted)});
  }
  if (!h5::exists(g.get(), "tensor_ops")) return out;  // before 1.7, or no matrix-unit ops
  for (const KernelTensorRow& r :
       h5::read_rows<KernelTensorRow>(g.get(), "tensor_ops", kernel_tensor_type())) {
    if (r.kernel < 0 || static_cast<std::size_t>(r.kernel) >= out.size())
      throw Error("kernels/tensor_ops: row for kernel " + std::to_string(r.kernel) + " of " +
                  std::to_string(out.size()));
    out[static_cast<std::size_t>(r.kernel)].tensor_ops.push_back({h5::get(r.figure), r.ops});
  }
  return out;
}


}  // namespace rooftop::ceilings::detail
