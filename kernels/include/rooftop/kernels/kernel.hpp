#pragma once
// A kernel the analyzer runs: it owns its data, runs blocking, checks its own answer,
// and declares its algorithmic cost (BabelStream's contract, nvbench's ownership).
// Building one touches no Kokkos or device state; prepare() does.

#include <memory>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::kernels {

class Kernel {
 public:
  virtual ~Kernel() = default;

  // Name, id, group, order, description, precision, declared FLOPs by precision, FMA
  // fraction and bytes per level for ONE run; source "declared". Cheap, no device.
  virtual core::KernelRecord declared() const = 0;
  virtual void prepare() = 0;       // allocate and fill the inputs (not timed)
  virtual void run() = 0;           // one execution; blocking: fenced before it returns
  virtual std::string check() = 0;  // after the timed runs: empty if the answer is right
  virtual void release() = 0;       // free what prepare() allocated
};

using KernelList = std::vector<std::unique_ptr<Kernel>>;

// Names a user can ask for (`--kernels gpp,triad`): the GPP ladder ("gpp", or one
// version: "gpp:v8") and the reference kernels with known costs. Sizes: tiny (tests), small, classic, si214 (GPP); the
// reference kernels scale their arrays with the same names.
std::vector<std::string> kernel_names();
std::vector<std::string> size_names();

// Builds the kernels named, in order, for the default execution space. Throws
// rooftop::Error for an unknown kernel or size.
KernelList make_kernels(const std::vector<std::string>& names, const std::string& size);

}  // namespace rooftop::kernels
