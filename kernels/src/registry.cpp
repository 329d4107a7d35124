#include <algorithm>

#include "reference_kernels.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/kernels/gpp.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace rooftop::kernels {

std::vector<std::string> kernel_names() {
  std::vector<std::string> names = {"gpp"};
  for (const ReferenceKernel& k : reference_kernels()) names.push_back(k.name);
  return names;
}

std::vector<std::string> size_names() { return gpp::size_names(); }

KernelList make_kernels(const std::vector<std::string>& names, const std::string& size) {
  const gpp::Size gpp_size = gpp::size(size);  // validates the size name for every kernel
  KernelList out;
  int order = 0;
  for (const std::string& name : names) {
    if (name == "gpp" || name.rfind("gpp:", 0) == 0) {  // the ladder, or one version
      const std::string only = name == "gpp" ? "" : name.substr(4);
      for (auto& k : gpp::make_ladder(gpp_size, only)) out.push_back(std::move(k));
    } else if (const auto k =
                   std::find_if(reference_kernels().begin(), reference_kernels().end(),
                                [&](const ReferenceKernel& r) { return r.name == name; });
               k != reference_kernels().end()) {
      out.push_back(k->make(size, order++));
    } else {
      std::string known;
      for (const std::string& n : kernel_names()) known += (known.empty() ? "" : ", ") + n;
      throw Error("unknown kernel '" + name + "' (" + known + ")");
    }
  }
  if (out.empty()) throw Error("no kernel named (" + std::string("--kernels gpp,triad,...") + ")");
  return out;
}

}  // namespace rooftop::kernels
