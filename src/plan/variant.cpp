#include "plan/variant.h"

#include "plan/name_table.h"

namespace rkv {
namespace {

const NameTable<Variant>& variant_table() {
  static const NameTable<Variant> t{{Variant::fused, "fused"},
                                    {Variant::pair, "pair"},
                                    {Variant::rope, "rope"},
                                    {Variant::cache_write, "cache_write"}};
  return t;
}

}  // namespace

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> all{Variant::fused, Variant::pair, Variant::rope,
                                        Variant::cache_write};
  return all;
}

std::string to_string(Variant v) {
  return name_of(variant_table(), v);
}

std::optional<Variant> parse_variant(const std::string& name) {
  return value_of(variant_table(), name);
}

std::vector<std::string> variant_names() {
  return names_of(variant_table());
}

std::string to_string(const std::vector<Variant>& vs) {
  std::string s;
  for (std::size_t i = 0; i < vs.size(); ++i)
    s += (i ? ", " : "") + to_string(vs[i]);
  return s;
}

}  // namespace rkv
