// compare-counts: the kernels of two files paired by name (else by order), summed where
// several join one, and compared quantity by quantity (count_comparison.hpp).

#include "rooftop/analyze/count_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "rooftop/core/demangle.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/kernel_names.hpp"

namespace rooftop::analyze {
namespace {

using core::CountedQuantity;
using core::CountPair;
using core::KernelRecord;
using core::QuantityKind;
using Group = std::vector<const KernelRecord*>;

// FLOP counts agree to the last bit when the same instructions are counted; this allows
// only for the division of a per-launch comparison.
constexpr double kEqual = 1e-12;

// For each of `owners`, the `members` whose demangled name contains its name (the longest
// such owner name where several would), in the order of `members`.
std::vector<std::vector<std::size_t>> join(const std::vector<KernelRecord>& owners,
                                           const std::vector<KernelRecord>& members,
                                           std::size_t& joined) {
  std::vector<std::vector<std::size_t>> out(owners.size());
  joined = 0;
  for (std::size_t m = 0; m < members.size(); ++m) {
    const std::string name = core::demangled(members[m].name);
    std::size_t best = owners.size();
    for (std::size_t o = 0; o < owners.size(); ++o) {
      const std::string& owner = owners[o].name;
      if (owner.empty() || name.find(owner) == std::string::npos) continue;
      if (best == owners.size() || owner.size() > owners[best].name.size()) best = o;
    }
    if (best == owners.size()) continue;
    out[best].push_back(m);
    ++joined;
  }
  return out;
}

// What no name contains: one kernel of each file with the same words
// (counters::spelling_key: Nsight Compute's and CUPTI's spellings of one PyTorch kernel),
// where no other unpaired kernel of either file has them.
void pair_by_words(const std::vector<KernelRecord>& a, const std::vector<KernelRecord>& b,
                   std::vector<bool>& paired_a, std::vector<bool>& paired_b,
                   std::vector<std::pair<Group, Group>>& groups) {
  const auto unpaired = [](const std::vector<KernelRecord>& ks, const std::vector<bool>& paired) {
    std::vector<std::string> names(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i)
      if (!paired[i]) names[i] = ks[i].name;
    return names;
  };
  const auto pairs = counters::pairs_by_spelling(unpaired(a, paired_a), unpaired(b, paired_b));
  for (const auto& [i, j] : pairs) {
    groups.push_back({{&a[i]}, {&b[j]}});
    paired_a[i] = paired_b[j] = true;
  }
}

core::CountedKernel counted(const KernelRecord& k) { return {k.id, k.name, launches_covered(k)}; }

int launches(const Group& group) {
  int n = 0;
  for (const KernelRecord* k : group) n += launches_covered(*k);
  return n;
}

bool timed(const KernelRecord& k) { return k.time_s > 0.0 && k.time_source != "none"; }

// One side's value of a quantity for a group of kernels (summed), empty where a kernel of
// the group does not count it.
struct Row {
  std::string name;
  QuantityKind kind;
  std::string key;  // the precision, the tensor figure or the level
};

std::optional<double> value(const Row& row, const Group& group, const KernelCounts& file) {
  double sum = 0.0;
  for (const KernelRecord* k : group) {
    switch (row.kind) {
      case QuantityKind::flops: {
        const auto it = file.flops_short.find(row.key);
        if (it != file.flops_short.end() && it->second == "not counted") return std::nullopt;
        for (const core::Precision& p : core::kPrecisions)
          if (p.name == row.key) sum += k->*p.flops;
        break;
      }
      case QuantityKind::tensor_ops:
        for (const core::TensorOps& t : k->tensor_ops)
          if (t.figure == row.key) sum += t.ops;
        break;
      case QuantityKind::bytes: {
        const core::LevelBytes* b = k->find_bytes(row.key);
        if (!b) return std::nullopt;
        sum += b->bytes;
        break;
      }
      case QuantityKind::time:
        if (!timed(*k)) return std::nullopt;
        sum += k->time_s;
        break;
    }
  }
  return sum;
}

std::string short_of(const Row& row, const KernelCounts& file) {
  if (row.kind != QuantityKind::flops) return {};
  const auto it = file.flops_short.find(row.key);
  return it == file.flops_short.end() ? std::string() : it->second;
}

// The quantities either side counts for any paired kernel, in the order of the vocabulary.
std::vector<Row> rows_of(const std::vector<std::pair<Group, Group>>& groups) {
  std::set<std::string> figures, levels;
  std::set<std::string> precisions;
  bool time = false;
  for (const auto& [a, b] : groups)
    for (const Group* g : {&a, &b})
      for (const KernelRecord* k : *g) {
        for (const core::Precision& p : core::kPrecisions)
          if (k->*p.flops > 0.0) precisions.insert(std::string(p.name));
        for (const core::TensorOps& t : k->tensor_ops) figures.insert(t.figure);
        for (const core::LevelBytes& b : k->bytes) levels.insert(b.level);
        time = time || timed(*k);
      }
  std::vector<Row> rows;
  for (const core::Precision& p : core::kPrecisions)
    if (precisions.count(std::string(p.name)))
      rows.push_back({std::string(p.name) + " FLOPs", QuantityKind::flops, std::string(p.name)});
  for (const core::TensorPath& t : core::kTensorPaths)
    if (figures.erase(std::string(t.figure)))
      rows.push_back({std::string(t.figure) + " ops", QuantityKind::tensor_ops, std::string(t.figure)});
  for (const std::string& f : figures) rows.push_back({f + " ops", QuantityKind::tensor_ops, f});
  std::vector<std::string> ordered(levels.begin(), levels.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const std::string& x, const std::string& y) {
    return core::level_rank(x) < core::level_rank(y);
  });
  for (const std::string& l : ordered) rows.push_back({l + " bytes", QuantityKind::bytes, l});
  if (time) rows.push_back({"time s", QuantityKind::time, ""});
  return rows;
}

std::optional<double> relative(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  if (*a != 0.0) return (*b - *a) / *a;
  if (*b == 0.0) return 0.0;
  return std::nullopt;
}

CountPair make_pair(const Group& a, const Group& b, bool by_name, const std::vector<Row>& rows,
                    const KernelCounts& fa, const KernelCounts& fb) {
  CountPair p;
  for (const KernelRecord* k : a) {
    p.a.push_back(counted(*k));
    p.label += (p.label.empty() ? "" : "+") + k->id;
  }
  for (const KernelRecord* k : b) p.b.push_back(counted(*k));
  p.by_name = by_name;
  p.launches_a = launches(a);
  p.launches_b = launches(b);
  p.per_launch = p.launches_a != p.launches_b;
  for (const Row& row : rows) {
    CountedQuantity q;
    q.name = row.name;
    q.kind = row.kind;
    q.a = value(row, a, fa);
    q.b = value(row, b, fb);
    if (p.per_launch) {
      if (q.a) *q.a /= p.launches_a;
      if (q.b) *q.b /= p.launches_b;
    }
    q.relative_difference = relative(q.a, q.b);
    q.a_short = short_of(row, fa);
    q.b_short = short_of(row, fb);
    p.quantities.push_back(std::move(q));
  }
  return p;
}

core::QuantityVerdict verdict_of(const std::vector<CountPair>& pairs, std::size_t row) {
  core::QuantityVerdict v;
  const CountedQuantity& first = pairs.front().quantities[row];
  v.quantity = first.name;
  v.kind = first.kind;
  if (v.kind == QuantityKind::bytes) v.tolerance = core::kCountBytesTolerance;
  if (v.kind == QuantityKind::flops || v.kind == QuantityKind::tensor_ops) v.tolerance = 0.0;
  v.a_short = first.a_short;
  v.b_short = first.b_short;
  for (const CountPair& p : pairs) {
    const CountedQuantity& q = p.quantities[row];
    if (!q.a || !q.b) {
      ++v.absent;
      continue;
    }
    ++v.compared;
    const std::optional<double>& d = q.relative_difference;
    if (d) {
      v.lowest = std::min(v.lowest.value_or(*d), *d);
      v.highest = std::max(v.highest.value_or(*d), *d);
    }
    if (!v.tolerance) continue;
    if (d && std::fabs(*d) <= std::max(*v.tolerance, kEqual))
      ++v.met;
    else
      v.missed.emplace_back(p.label, d.value_or(std::numeric_limits<double>::quiet_NaN()));
  }
  return v;
}

}  // namespace

core::CountComparison compare_counts(const KernelCounts& a, const KernelCounts& b) {
  core::CountComparison out;
  out.a = a.source;
  out.b = b.source;
  // A's kernels own B's, or B's own A's: whichever joins more.
  std::size_t joined_ab = 0, joined_ba = 0;
  const auto ab = join(a.kernels, b.kernels, joined_ab);
  const auto ba = join(b.kernels, a.kernels, joined_ba);
  const bool a_owns = joined_ab >= joined_ba;
  const std::vector<KernelRecord>& owners = a_owns ? a.kernels : b.kernels;
  const std::vector<KernelRecord>& members = a_owns ? b.kernels : a.kernels;
  const auto& joined = a_owns ? ab : ba;

  std::vector<std::pair<Group, Group>> groups;  // (A's, B's) per pair
  std::vector<bool> paired_a(a.kernels.size()), paired_b(b.kernels.size());
  for (std::size_t o = 0; o < owners.size(); ++o) {
    if (joined[o].empty()) continue;
    Group owner{&owners[o]}, member;
    for (std::size_t m : joined[o]) {
      member.push_back(&members[m]);
      (a_owns ? paired_b : paired_a)[m] = true;
    }
    (a_owns ? paired_a : paired_b)[o] = true;
    groups.emplace_back(a_owns ? owner : member, a_owns ? member : owner);
  }
  pair_by_words(a.kernels, b.kernels, paired_a, paired_b, groups);
  if (groups.empty()) {
    out.by_order = true;
    const std::size_t n = std::min(a.kernels.size(), b.kernels.size());
    for (std::size_t i = 0; i < n; ++i) {
      groups.push_back({{&a.kernels[i]}, {&b.kernels[i]}});
      paired_a[i] = paired_b[i] = true;
    }
  }
  const std::vector<Row> rows = rows_of(groups);
  for (const auto& [ga, gb] : groups) out.pairs.push_back(make_pair(ga, gb, !out.by_order, rows, a, b));
  for (std::size_t i = 0; i < a.kernels.size(); ++i)
    if (!paired_a[i]) out.unpaired_a.push_back(counted(a.kernels[i]));
  for (std::size_t i = 0; i < b.kernels.size(); ++i)
    if (!paired_b[i]) out.unpaired_b.push_back(counted(b.kernels[i]));
  if (!out.pairs.empty())
    for (std::size_t r = 0; r < rows.size(); ++r) out.verdicts.push_back(verdict_of(out.pairs, r));
  return out;
}

}  // namespace rooftop::analyze
