#include "rooftop/report/count_table.hpp"

#include <cmath>
#include <sstream>
#include <tuple>
#include <utility>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::report {
namespace {

using core::CountedKernel;
using core::CountPair;
using core::QuantityKind;
using core::QuantityVerdict;

const char* kind_name(QuantityKind k) {
  switch (k) {
    case QuantityKind::flops: return "flops";
    case QuantityKind::tensor_ops: return "tensor_ops";
    case QuantityKind::bytes: return "bytes";
    case QuantityKind::time: return "time";
  }
  return "";
}

std::string target_of(const QuantityVerdict& v) {
  if (!v.tolerance) return "none";
  if (*v.tolerance == 0.0) return "equal";
  return "within " + core::format_number("%.0f%%", 100.0 * *v.tolerance);
}

// A relative difference as a signed percentage; NaN is A's 0 against B's count.
std::string percent(double d) {
  if (std::isnan(d)) return "A 0";
  if (d == 0.0) return "0%";
  return (d > 0.0 ? "+" : "") + core::significant(100.0 * d, core::kRatioDigits) + "%";
}

std::string range(const QuantityVerdict& v) {
  if (!v.lowest) return "";
  if (*v.lowest == *v.highest) return percent(*v.lowest);
  return "from " + percent(*v.lowest) + " to " + percent(*v.highest);
}

std::string shortfall(const char* side, const std::string& how) {
  if (how.empty()) return "";
  return std::string(side) + (how == "not counted" ? " does not count them" : " counts them " + how);
}

std::string pairs(int n) { return std::to_string(n) + (n == 1 ? " pair" : " pairs"); }

// The verdict on one quantity against its target, one sentence.
std::string verdict_text(const QuantityVerdict& v) {
  std::string why = shortfall("A", v.a_short);
  const std::string b = shortfall("B", v.b_short);
  if (!b.empty()) why += (why.empty() ? "" : "; ") + b;
  if (!why.empty())
    return "not compared: " + why + (v.lowest ? " (B - A " + range(v) + ")" : "");
  if (v.compared == 0) return "not compared: no pair has a value on both sides";
  std::string s;
  if (!v.tolerance) {
    s = "no target; B - A " + range(v) + " over " + pairs(v.compared);
  } else {
    const bool equal = *v.tolerance == 0.0;
    const std::string word = equal ? "equal" : target_of(v);
    if (v.met == v.compared) {
      s = word + " in all " + pairs(v.compared) + (equal ? "" : " (B - A " + range(v) + ")");
    } else {
      s = word + " in " + std::to_string(v.met) + " of " + pairs(v.compared) + "; " +
          (equal ? "differ" : "off target") + ":";
      constexpr std::size_t kNamed = 12;
      for (std::size_t i = 0; i < v.missed.size() && i < kNamed; ++i)
        s += (i ? ", " : " ") + v.missed[i].first + " " + percent(v.missed[i].second);
      if (v.missed.size() > kNamed) s += " and " + std::to_string(v.missed.size() - kNamed) + " more";
    }
  }
  if (v.absent > 0) s += " (" + pairs(v.absent) + " without a value on one side)";
  return s;
}

std::string value_text(const std::optional<double>& v, QuantityKind kind) {
  if (!v) return "-";
  // Counts to six digits, so that a difference of a fraction of a percent shows.
  return core::significant(*v, kind == QuantityKind::time ? 4 : 6);
}

nlohmann::json kernels_json(const std::vector<CountedKernel>& kernels) {
  nlohmann::json j = nlohmann::json::array();
  for (const CountedKernel& k : kernels)
    j.push_back({{"id", k.id}, {"name", k.name}, {"launches", k.launches}});
  return j;
}

nlohmann::json source_json(const core::CountSource& s) {
  return {{"file", s.file}, {"kind", s.kind}, {"kernels", s.kernels}, {"notes", s.notes}};
}

std::string ids(const std::vector<CountedKernel>& kernels) {
  std::string s;
  for (const CountedKernel& k : kernels) s += (s.empty() ? "" : "+") + k.id;
  return s;
}

std::string pad(std::string s, std::size_t width, bool right = false) {
  if (s.size() < width) s = right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
  return s;
}

}  // namespace

nlohmann::json count_comparison_json(const core::CountComparison& c) {
  nlohmann::json pairs_j = nlohmann::json::array();
  for (const CountPair& p : c.pairs) {
    nlohmann::json quantities = nlohmann::json::array();
    for (const core::CountedQuantity& q : p.quantities)
      quantities.push_back({{"name", q.name},
                            {"kind", kind_name(q.kind)},
                            {"a", ceilings::number_or_null(q.a)},
                            {"b", ceilings::number_or_null(q.b)},
                            {"relative_difference", ceilings::number_or_null(q.relative_difference)},
                            {"a_short", q.a_short},
                            {"b_short", q.b_short}});
    pairs_j.push_back({{"label", p.label},
                       {"a", kernels_json(p.a)},
                       {"b", kernels_json(p.b)},
                       {"by_name", p.by_name},
                       {"launches", {{"a", p.launches_a}, {"b", p.launches_b}}},
                       {"per_launch", p.per_launch},
                       {"quantities", quantities}});
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const QuantityVerdict& v : c.verdicts) {
    nlohmann::json missed = nlohmann::json::array();
    for (const auto& [label, d] : v.missed)
      missed.push_back({{"pair", label},
                        {"relative_difference",
                         ceilings::number_or_null(std::isnan(d) ? std::nullopt : std::optional(d))}});
    verdicts.push_back({{"quantity", v.quantity},
                        {"kind", kind_name(v.kind)},
                        {"target", target_of(v)},
                        {"compared", v.compared},
                        {"met", v.met},
                        {"absent", v.absent},
                        {"missed", missed},
                        {"lowest", ceilings::number_or_null(v.lowest)},
                        {"highest", ceilings::number_or_null(v.highest)},
                        {"verdict", verdict_text(v)}});
  }
  return {{"a", source_json(c.a)},
          {"b", source_json(c.b)},
          {"targets",
           {{"flops", "equal"},
            {"bytes", "within " + core::format_number("%.0f%%", 100.0 * core::kCountBytesTolerance)}}},
          {"paired_by", c.by_order ? "order" : "name"},
          {"pairs", pairs_j},
          {"unpaired", {{"a", kernels_json(c.unpaired_a)}, {"b", kernels_json(c.unpaired_b)}}},
          {"verdicts", verdicts}};
}

std::string count_comparison_table(const core::CountComparison& c) {
  std::ostringstream out;
  out << "counts side by side; targets: FLOPs equal, bytes within "
      << core::format_number("%.0f%%", 100.0 * core::kCountBytesTolerance)
      << "; B - A relative to A\n";
  for (const auto& [tag, s] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}})
    out << "  " << tag << ": " << s->file << ": " << s->kind << ", " << s->kernels
        << (s->kernels == 1 ? " kernel\n" : " kernels\n");
  if (c.by_order)
    out << "paired by order: no kernel name of either file contains one of the other's (builds "
           "whose functors were named otherwise); check the names in the legend\n";
  else
    out << "paired by name: a kernel joins the one whose name its demangled name contains\n";
  if (!c.unpaired_a.empty() || !c.unpaired_b.empty()) {
    out << "unpaired:";
    for (const auto& [tag, list] : {std::pair{"A", &c.unpaired_a}, std::pair{"B", &c.unpaired_b}})
      if (!list->empty()) {
        out << " " << tag;
        for (std::size_t i = 0; i < list->size(); ++i) out << (i ? ", " : " ") << (*list)[i].id;
      }
    out << "\n";
  }
  out << "\n";

  const auto emit = [&out](std::string line) {
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  emit(pad("pair", 14) + pad("quantity", 13) + pad("A", 20, true) + pad("B", 20, true) +
       pad("B - A", 10, true));
  bool any_per_launch = false;
  for (const CountPair& p : c.pairs) {
    std::string head = pad(p.label + " / " + ids(p.b), 14);
    if (p.per_launch) {
      any_per_launch = true;
      emit(head + "per launch: A's counts cover " + std::to_string(p.launches_a) + ", B's " +
           std::to_string(p.launches_b) + " (each divided by its own)");
      head = pad("", 14);
    }
    for (const core::CountedQuantity& q : p.quantities) {
      std::string remark;
      for (const auto& [tag, how] : {std::pair{"A", &q.a_short}, std::pair{"B", &q.b_short}})
        if (!how->empty()) remark += std::string(remark.empty() ? "" : "; ") + tag + " " + *how;
      const std::string d =
          q.relative_difference ? percent(*q.relative_difference) : (q.a && q.b ? "A 0" : "-");
      emit(head + pad(q.name, 13) + pad(value_text(q.a, q.kind), 20, true) +
           pad(value_text(q.b, q.kind), 20, true) + pad(d, 10, true) + "  " + remark);
      head = pad("", 14);
    }
  }
  if (any_per_launch)
    out << "\nper launch: the two files cover different numbers of launches (a profiler that "
           "took one launch of the several one run of a kernel has): both are compared per "
           "launch, the launches of one run taken as alike\n";

  if (!c.verdicts.empty()) {
    out << "\nverdicts:\n";
    for (const QuantityVerdict& v : c.verdicts) emit("  " + pad(v.quantity, 13) + verdict_text(v));
  }

  out << "\n";
  for (const auto& [tag, paired, unpaired] :
       {std::tuple{"A", true, &c.unpaired_a}, std::tuple{"B", false, &c.unpaired_b}}) {
    for (const CountPair& p : c.pairs)
      for (const CountedKernel& k : paired ? p.a : p.b)
        out << tag << " " << pad(k.id, 8) << k.name << "\n";
    for (const CountedKernel& k : *unpaired)
      out << tag << " " << pad(k.id, 8) << k.name << " (unpaired)\n";
  }
  if (!c.a.notes.empty() || !c.b.notes.empty()) {
    out << "\nnotes:\n";
    for (const core::CountSource* s : {&c.a, &c.b})
      for (const std::string& n : s->notes) out << "  " << n << "\n";
  }
  return out.str();
}

}  // namespace rooftop::report
