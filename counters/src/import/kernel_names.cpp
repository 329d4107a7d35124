#include "rooftop/counters/kernel_names.hpp"

#include <cctype>
#include <map>
#include <string_view>

#include "rooftop/core/demangle.hpp"

namespace rooftop::counters {

std::string spelling_key(const std::string& name) {
  std::string s = core::demangled(name);
  for (const char* drop : {"(anonymous namespace)::", "<unnamed>::"})
    for (std::size_t at = s.find(drop); at != std::string::npos; at = s.find(drop))
      s.erase(at, std::string_view(drop).size());
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    depth += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
    if (s[i] == '(' && depth <= 0 && i > 0) {
      s.resize(i);
      break;
    }
  }
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string key;
  for (std::size_t i = 0; i < s.size();) {
    if (!word(s[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && word(s[end])) ++end;
    std::string token = s.substr(i, end - i);
    i = end;
    if (s.compare(end, 2, "::") == 0 || token == "void" || token == "instance") continue;
    if (std::isdigit(static_cast<unsigned char>(token[0])))
      token.erase(token.find_last_not_of("uUlL") + 1);  // 2ul -> 2
    if (token == "true" || token == "false") token = token == "true" ? "1" : "0";
    key += (key.empty() ? "" : " ") + token;
  }
  return key;
}

std::vector<std::pair<std::size_t, std::size_t>> pairs_by_spelling(
    const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::map<std::string, std::vector<std::size_t>> in_a, in_b;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].empty()) in_a[spelling_key(a[i])].push_back(i);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!b[i].empty()) in_b[spelling_key(b[i])].push_back(i);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const auto& [key, ia] : in_a) {
    const auto ib = in_b.find(key);
    if (!key.empty() && ia.size() == 1 && ib != in_b.end() && ib->second.size() == 1)
      out.emplace_back(ia[0], ib->second[0]);
  }
  return out;
}

}  // namespace rooftop::counters
