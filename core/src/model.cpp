#include "rooftop/core/model.hpp"

#include "rooftop/core/sampling.hpp"

namespace rooftop::core {

const Ceiling* CeilingsFile::find(const std::string& name) const {
  for (const Ceiling& c : ceilings)
    if (c.name == name) return &c;
  return nullptr;
}

bool Ceiling::disturbed() const { return disturbance && *disturbance > kDisturbedShare; }

const LevelBytes* KernelRecord::find_bytes(const std::string& level) const {
  for (const LevelBytes& b : bytes)
    if (b.level == level) return &b;
  return nullptr;
}

}  // namespace rooftop::core
