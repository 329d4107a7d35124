#pragma once
// The ceilings file (HDF5, schema v1; documented in data/SCHEMA.md).

#include <string>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

inline constexpr int kSchemaMajor = 1;
inline constexpr int kSchemaMinor = 8;  // 1.1: /kernels; 1.2: fleet files; 1.3: ILP in sweeps;
                                        // 1.4: the compiled device arch; 1.5: device
                                        // ceilings (memory, clocks per sample); 1.6: time
                                        // lost to others per sample and per ceiling; 1.7:
                                        // /costs and /matrix (figures and their sweeps);
                                        // 1.8: BF16 and FP8 FLOPs of kernels, and bytes
                                        // that count only reads (or writes)
inline constexpr const char* kSchemaName = "rooftop-ceilings";

// Writes atomically: a temporary file beside `path`, then rename. On any failure the
// temporary is removed and an existing `path` is left untouched.
void write_file(const std::string& path, const core::CeilingsFile& file);

// Throws rooftop::Error with one clear line for a missing, corrupt or foreign file
// and for an unknown schema major version.
core::CeilingsFile read_file(const std::string& path);

// Provenance for a file written now by this build.
core::Provenance current_provenance(const std::string& command_line);

}  // namespace rooftop::ceilings
