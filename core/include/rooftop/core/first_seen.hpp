#pragma once
// A list kept in the order its entries were first seen, with an index by name: a
// kernel's launches gathered under its label, wherever they came from.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace rooftop::core {

// The entry named `name`; appended, with `name` in its `name_member`, on first use.
template <class Entry>
Entry& first_seen_entry(std::vector<Entry>& list, std::map<std::string, std::size_t>& index,
                        const std::string& name, std::string Entry::*name_member) {
  auto it = index.find(name);
  if (it == index.end()) {
    it = index.emplace(name, list.size()).first;
    list.emplace_back();
    list.back().*name_member = name;
  }
  return list[it->second];
}

}  // namespace rooftop::core
