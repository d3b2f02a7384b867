#include "report/axes_list.h"

#include <algorithm>
#include <vector>

#include "plan/cache_layout.h"
#include "plan/sweep_axes.h"
#include "plan/timing_fields.h"

namespace rkv {
namespace {

// "  hnd         K, V: [num_blocks, Hkv, block_size, D]", from the layout itself.
std::string layout_line(const std::string& name) {
  const CacheLayout l = *CacheLayout::parse(name);
  std::vector<std::string> dims;
  for (PagedDim d : l.order)
    dims.push_back(d == PagedDim::block  ? "num_blocks"
                   : d == PagedDim::slot ? "block_size"
                                         : "Hkv");
  dims.push_back(l.packed ? "2*D" : "D");
  std::string s = "  " + name;
  s.resize(std::max<std::size_t>(s.size() + 1, 14), ' ');
  return s + (l.packed ? "KV:   [" : "K, V: [") + join(dims) + "]\n";
}

// "  --flag             key             values  [default d]", columns padded to line up.
std::string row(const std::string& flag, const std::string& key, const std::string& values,
                const std::string& def) {
  std::string s = "  " + flag;
  s.resize(std::max<std::size_t>(s.size() + 1, 21), ' ');
  s += key;
  s.resize(std::max<std::size_t>(s.size() + 1, 37), ' ');
  return s + values + "  [default " + def + "]\n";
}

}  // namespace

std::string list_text() {
  std::string out =
      "Sweep axes (bench, validate): flag, config key under \"axes\", values, default\n";
  for (const AxisInfo& a : axis_infos())
    out += row(a.flag, a.key, allowed_values(a.axis), axis_default_text(a.axis));
  out += "\nTiming (bench): flag, config key under \"timing\", meaning, default\n";
  const TimingOptions defaults;
  for (const TimingFieldInfo& t : timing_fields())
    out += row(t.flag, t.key, t.help, timing_field_text(defaults, t.field));
  out +=
      "\nCache layouts, outer -> inner (any order of b(lock), s(lot), h(ead), e.g. hbs, "
      "packed_sbh):\n";
  for (const std::string& name : CacheLayout::preset_names())
    out += layout_line(name);
  out +=
      "\nCase id: dtype|cache_dtype|heads|style|layout|N=tokens, then |key=value for options "
      "that differ from the default (rot, bs, scale, slots, qout, kout, cs, seed).\n";
  return out;
}

}  // namespace rkv
