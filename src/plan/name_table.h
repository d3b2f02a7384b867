// One table per enum is the single source of its names: to_string, the parsers, `list` and the
// error messages all read it, so no name is written twice. Used inside plan/ only.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rkv {

template <class E>
using NameTable = std::vector<std::pair<E, const char*>>;

template <class E>
std::string name_of(const NameTable<E>& table, E v) {
  for (const auto& [value, name] : table)
    if (value == v) return name;
  return "unknown";
}

template <class E>
std::optional<E> value_of(const NameTable<E>& table, const std::string& s) {
  for (const auto& [value, name] : table)
    if (s == name) return value;
  return std::nullopt;
}

template <class E>
std::vector<std::string> names_of(const NameTable<E>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table)
    out.emplace_back(entry.second);
  return out;
}

}  // namespace rkv
