#pragma once
// A GPU's ceilings file as Nsight Compute section files (protobuf text format): one
// hierarchical roofline chart (L1, L2, DRAM) per precision the file has a roof for, whose
// roofs are the ceilings rooftop measured rather than Nsight Compute's peak_sustained
// figures, and whose achieved points are the kernel's own counters, counted as the stock
// roofline sections count them. Each section stands alone (no Extends) under its own
// identifier, and all of them form the set "rooftop".

#include <string>
#include <string_view>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/output_file.hpp"

namespace rooftop::ceilings {

// A section file: its name ("Rooftop_HierarchicalRoofline_FP64.section") and text, as
// core::write_text_folder writes it.
using SectionFile = core::FolderFile;

// Every section name begins with it, so that `--section regex:Rooftop_` selects them all.
inline constexpr std::string_view kSectionPrefix = "Rooftop_HierarchicalRoofline_";
// The section set they all belong to (`ncu --set rooftop`).
inline constexpr std::string_view kSectionSet = "rooftop";

// The sections of `file`: FP64 and FP32 on CUDA cores, then one per tensor-core figure a
// metric counts the operations of. `source_name` is the ceilings file's name as the
// descriptions give it. What gets no section (FP16 on CUDA cores, a figure no metric
// counts alone, a ceiling not measured) goes to `skipped` with the reason. Throws
// rooftop::Error for a host's file, or one without a bandwidth or a compute roof.
std::vector<SectionFile> ncu_sections(const core::CeilingsFile& file, std::string_view source_name,
                                      std::vector<std::string>* skipped = nullptr);

// `text` as a quoted string of protobuf's text format: quotes and backslashes escaped,
// bytes outside printable ASCII as octal escapes, so that no name breaks the file.
std::string text_format_string(std::string_view text);

}  // namespace rooftop::ceilings
