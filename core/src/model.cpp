#include "rooftop/core/model.hpp"

#include <algorithm>

#include "rooftop/core/sampling.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::core {

namespace {
const Ceiling* find_named(const std::vector<Ceiling>& ceilings, const std::string& name) {
  for (const Ceiling& c : ceilings)
    if (c.name == name) return &c;
  return nullptr;
}
}  // namespace

const Ceiling* CeilingsFile::find(const std::string& name) const {
  return find_named(ceilings, name);
}

std::vector<const Ceiling*> CeilingsFile::rows() const {
  std::vector<const Ceiling*> out;
  for (const Ceiling& c : ceilings) out.push_back(&c);
  for (const FigureGroup& g : kFigureGroups)
    for (const Ceiling& c : (this->*g.figures).figures) out.push_back(&c);
  return out;
}

const Ceiling* CeilingsFile::find_row(const std::string& name) const {
  for (const Ceiling* c : rows())
    if (c->name == name) return c;
  return nullptr;
}

const Ceiling* Figures::find(const std::string& name) const { return find_named(figures, name); }

bool Ceiling::disturbed() const { return disturbance && *disturbance > kDisturbedShare; }

const LevelBytes* KernelRecord::find_bytes(const std::string& level) const {
  for (const LevelBytes& b : bytes)
    if (b.level == level) return &b;
  return nullptr;
}

double KernelRecord::precision_flops() const {
  double sum = 0.0;
  for (const Precision& p : kPrecisions) sum += this->*p.flops;
  return sum;
}

bool KernelRecord::flops_unknown_in(std::string_view precision) const {
  return std::find(flops_unknown.begin(), flops_unknown.end(), precision) != flops_unknown.end();
}

bool KernelRecord::flops_known() const {
  if (flops() > 0.0) return true;
  for (const Precision& p : kPrecisions)
    if (p.counted_by_instructions() && !flops_unknown_in(p.name)) return true;
  return false;
}

double KernelRecord::tensor_flops() const {
  double sum = 0.0;
  for (const TensorOps& t : tensor_ops) sum += t.ops;
  return sum;
}

const TensorOps* KernelRecord::tensor_unit() const {
  const TensorOps* most = nullptr;
  for (const TensorOps& t : tensor_ops)
    if (t.ops > 0.0 && (!most || t.ops > most->ops)) most = &t;
  return most && most->ops > 0.5 * flops() ? most : nullptr;
}

}  // namespace rooftop::core
