// Parsing of sweep-axis values (flags and config items) and the axis table that the CLI, the
// config reader and `list` all walk. Lists and integer ranges are text/lists.h's.
#include "plan/sweep_axes.h"

#include <functional>
#include <limits>

#include "text/quote.h"

namespace rkv {
namespace {

// Integer axis items: a range, every value checked against [lo, hi].
std::optional<std::string> parse_bounded(const std::string& item, std::int64_t lo, std::int64_t hi,
                                         std::vector<std::int64_t>* out) {
  const Parsed<std::vector<std::int64_t>> values = parse_int_range(item);
  if (!values) return values.error;
  for (std::int64_t v : *values) {
    if (v >= lo && v <= hi) continue;
    const std::string range =
        " is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
    if (item == std::to_string(v)) return quote(item) + range;
    return quote(item) + ": " + std::to_string(v) + range;
  }
  out->insert(out->end(), values->begin(), values->end());
  return std::nullopt;
}

// Enum axes: every item must be one of the names.
template <class E>
std::optional<std::string> parse_enum_items(const std::vector<std::string>& items,
                                            std::optional<E> (*parse)(const std::string&),
                                            const char* what, Axis axis, std::vector<E>* out) {
  std::vector<E> values;
  for (const std::string& item : items) {
    const auto v = parse(item);
    if (!v) return quote(item) + " is not " + what + " (one of " + allowed_values(axis) + ")";
    values.push_back(*v);
  }
  *out = values;
  return std::nullopt;
}

// The cos/sin table is a bool in CaseSpec, so its two names live here.
const char* const kCosSinNames[2] = {"scalar", "fp32"};  // indexed by cos_sin_fp32

std::optional<bool> parse_cos_sin(const std::string& s) {
  for (int fp32 = 0; fp32 < 2; ++fp32)
    if (s == kCosSinNames[fp32]) return fp32 == 1;
  return std::nullopt;
}

std::optional<std::string> parse_rot_dim(const std::string& item, std::vector<RotDim>* out) {
  if (item == "full" || item == "half") {
    out->push_back(RotDim{item == "full" ? RotDim::Kind::full : RotDim::Kind::half, 0});
    return std::nullopt;
  }
  const Parsed<std::vector<std::int64_t>> values = parse_int_range(item);
  if (!values) return values.error + "; a rotary dim is full, half or an even number";
  for (std::int64_t v : *values) {
    const std::string what =
        item == std::to_string(v) ? quote(item) : quote(item) + ": " + std::to_string(v);
    if (v < 2 || v > kMaxRotDim)
      return what + " is out of range (2 to " + std::to_string(kMaxRotDim) + ")";
    if (v % 2 != 0) return what + " is odd; a rotary dim must be even";
    out->push_back(RotDim{RotDim::Kind::value, static_cast<int>(v)});
  }
  return std::nullopt;
}

}  // namespace

std::string RotDim::name() const {
  switch (kind) {
    case Kind::full:
      return "full";
    case Kind::half:
      return "half";
    case Kind::value:
      return std::to_string(value);
  }
  return "full";
}

const std::vector<AxisInfo>& axis_infos() {
  static const std::vector<AxisInfo> infos{
      {Axis::dtype, "dtype", "--dtype", "q/k/v dtype"},
      {Axis::cache_dtype, "cache_dtype", "--cache-dtype", "KV-cache dtype (auto: the q/k/v dtype)"},
      {Axis::heads, "heads", "--heads", "query heads x kv heads x head size"},
      {Axis::style, "style", "--style", "rotation pairs, neox (i, i+R/2) or gptj (2i, 2i+1)"},
      {Axis::rot_dim, "rot_dim", "--rot-dim", "rotary dim R (dims >= R pass through)"},
      {Axis::layout, "layout", "--layout", "paged KV-cache layout"},
      {Axis::tokens, "tokens", "--tokens", "tokens T per call"},
      {Axis::block_size, "block_size", "--block-size", "cache block size (tokens per page)"},
      {Axis::scale, "scale", "--scale", "fp8 scales, one per tensor or one per kv head"},
      {Axis::slots, "slots", "--slots", "slot mapping (padded: T > Tc; rope_only: no cache)"},
      {Axis::query_out, "query_out", "--query-out", "where rotated queries go"},
      {Axis::key_out, "key_out", "--key-out", "rotated keys written back, or to the cache only"},
      {Axis::cos_sin, "cos_sin", "--cos-sin", "cos/sin table dtype (scalar: the q/k/v dtype)"},
      {Axis::seed, "seed", "--seed", "input seed"},
      {Axis::misalign, "misalign", "--misalign",
       "bytes added to the qkv, query_out and cache base pointers (narrower accesses)"},
      {Axis::values, "values", "--values", "q/k/v inputs (specials: NaN, Inf, subnormals, +-0)"},
  };
  return infos;
}

const AxisInfo& axis_info(Axis axis) {
  for (const AxisInfo& info : axis_infos())
    if (info.axis == axis) return info;
  return axis_infos().front();  // unreachable: the table covers every Axis
}

const AxisInfo* find_axis_by_key(const std::string& key) {
  for (const AxisInfo& info : axis_infos())
    if (key == info.key) return &info;
  return nullptr;
}

std::optional<std::string> set_axis(SweepAxes& axes, Axis axis,
                                    const std::vector<std::string>& items) {
  if (items.empty()) return std::string("no values given");
  for (const std::string& item : items)
    if (item.empty()) return std::string("an empty value");

  switch (axis) {
    case Axis::dtype:
      return parse_enum_items(items, parse_dtype, "a dtype", axis, &axes.dtype);
    case Axis::cache_dtype:
      return parse_enum_items(items, parse_cache_dtype, "a cache dtype", axis, &axes.cache_dtype);
    case Axis::style:
      return parse_enum_items(items, parse_style, "a rope style", axis, &axes.style);
    case Axis::scale:
      return parse_enum_items(items, parse_scale_kind, "a scale kind", axis, &axes.scale);
    case Axis::slots:
      return parse_enum_items(items, parse_slot_mode, "a slot mode", axis, &axes.slots);
    case Axis::query_out:
      return parse_enum_items(items, parse_query_out, "a query output", axis, &axes.query_out);
    case Axis::key_out:
      return parse_enum_items(items, parse_key_out, "a key output", axis, &axes.key_out);
    case Axis::cos_sin: {
      std::vector<bool> values;
      for (const std::string& item : items) {
        const auto v = parse_cos_sin(item);
        if (!v)
          return quote(item) + " is not a cos/sin dtype (one of " + allowed_values(axis) + ")";
        values.push_back(*v);
      }
      axes.cos_sin_fp32 = values;
      return std::nullopt;
    }
    case Axis::heads: {
      std::vector<HeadConfig> values;
      for (const std::string& item : items) {
        const auto h = HeadConfig::parse(item);
        if (!h) return quote(item) + " is not a head config (" + allowed_values(axis) + ")";
        if (auto problem = h->problem()) return *problem;  // already names the config
        values.push_back(*h);
      }
      axes.heads = values;
      return std::nullopt;
    }
    case Axis::layout: {
      std::vector<CacheLayout> values;
      for (const std::string& item : items) {
        const auto l = CacheLayout::parse(item);
        if (!l) return quote(item) + " is not a cache layout (" + allowed_values(axis) + ")";
        values.push_back(*l);
      }
      axes.layout = values;
      return std::nullopt;
    }
    case Axis::rot_dim: {
      std::vector<RotDim> values;
      for (const std::string& item : items)
        if (auto err = parse_rot_dim(item, &values)) return err;
      axes.rot_dim = values;
      return std::nullopt;
    }
    case Axis::tokens: {
      std::vector<std::int64_t> values;
      for (const std::string& item : items)
        if (auto err = parse_bounded(item, 1, kMaxTokens, &values)) return err;
      axes.tokens = values;
      return std::nullopt;
    }
    case Axis::block_size: {
      std::vector<std::int64_t> values;
      for (const std::string& item : items)
        if (auto err = parse_bounded(item, 1, kMaxBlockSize, &values)) return err;
      axes.block_size.assign(values.begin(), values.end());
      return std::nullopt;
    }
    case Axis::values:
      return parse_enum_items(items, parse_fill_values, "a fill", axis, &axes.values);
    case Axis::misalign: {
      std::vector<std::int64_t> values;
      for (const std::string& item : items)
        if (auto err = parse_bounded(item, 0, kMaxMisalign, &values)) return err;
      axes.misalign.assign(values.begin(), values.end());
      return std::nullopt;
    }
    case Axis::seed: {
      // Seeds are written as signed 64-bit text here; 2^63 - 1 seeds are plenty.
      std::vector<std::int64_t> values;
      for (const std::string& item : items)
        if (auto err = parse_bounded(item, 0, std::numeric_limits<std::int64_t>::max(), &values))
          return err;
      axes.seed.assign(values.begin(), values.end());
      return std::nullopt;
    }
  }
  return std::string("unknown axis");
}

std::optional<std::string> set_axis_from_list(SweepAxes& axes, Axis axis, const std::string& list) {
  const Parsed<std::vector<std::string>> items = parse_list(list);
  if (!items) return items.error;
  return set_axis(axes, axis, *items);
}

std::vector<std::string> axis_value_names(const SweepAxes& axes, Axis axis) {
  std::vector<std::string> out;
  auto add_all = [&out](const auto& values, auto&& name) {
    for (const auto& v : values)
      out.push_back(name(v));
  };
  auto str = [](const auto& v) { return to_string(v); };
  auto num = [](const auto& v) { return std::to_string(v); };
  switch (axis) {
    case Axis::dtype:
      add_all(axes.dtype, str);
      break;
    case Axis::cache_dtype:
      add_all(axes.cache_dtype, str);
      break;
    case Axis::heads:
      add_all(axes.heads, [](const HeadConfig& h) { return h.name(); });
      break;
    case Axis::style:
      add_all(axes.style, str);
      break;
    case Axis::rot_dim:
      add_all(axes.rot_dim, [](const RotDim& r) { return r.name(); });
      break;
    case Axis::layout:
      add_all(axes.layout, [](const CacheLayout& l) { return l.name(); });
      break;
    case Axis::tokens:
      add_all(axes.tokens, num);
      break;
    case Axis::block_size:
      add_all(axes.block_size, num);
      break;
    case Axis::scale:
      add_all(axes.scale, str);
      break;
    case Axis::slots:
      add_all(axes.slots, str);
      break;
    case Axis::query_out:
      add_all(axes.query_out, str);
      break;
    case Axis::key_out:
      add_all(axes.key_out, str);
      break;
    case Axis::cos_sin:
      for (bool fp32 : axes.cos_sin_fp32)
        out.push_back(kCosSinNames[fp32 ? 1 : 0]);
      break;
    case Axis::seed:
      add_all(axes.seed, num);
      break;
    case Axis::misalign:
      add_all(axes.misalign, num);
      break;
    case Axis::values:
      add_all(axes.values, str);
      break;
  }
  return out;
}

std::string axis_default_text(Axis axis) {
  return join(axis_value_names(SweepAxes{}, axis), ",");
}

std::string allowed_values(Axis axis) {
  const std::string ints = "integers or ranges a:b:step, pow2:a:b";
  switch (axis) {
    case Axis::dtype:
      return join(dtype_names());
    case Axis::cache_dtype:
      return join(cache_dtype_names()) + " (fp8 = fp8_e4m3)";
    case Axis::heads:
      return "HqxHkvxD with Hq a multiple of Hkv, e.g. 32x8x128, or mla:Hq";
    case Axis::style:
      return join(style_names());
    case Axis::rot_dim:
      return "full, half, or even integers/ranges 2.." + std::to_string(kMaxRotDim);
    case Axis::layout:
      return join(CacheLayout::preset_names()) +
             ", or an order of b, s, h such as hbs or packed_sbh";
    case Axis::tokens:
      return ints + " in 1.." + std::to_string(kMaxTokens);
    case Axis::block_size:
      return ints + " in 1.." + std::to_string(kMaxBlockSize);
    case Axis::scale:
      return join(scale_kind_names());
    case Axis::slots:
      return join(slot_mode_names());
    case Axis::query_out:
      return join(query_out_names());
    case Axis::key_out:
      return join(key_out_names());
    case Axis::cos_sin:
      return join({kCosSinNames[0], kCosSinNames[1]});
    case Axis::seed:
      return ints + ", >= 0";
    case Axis::misalign:
      return ints + " in 0.." + std::to_string(kMaxMisalign) + " (bytes)";
    case Axis::values:
      return join(fill_values_names());
  }
  return "";
}

}  // namespace rkv
