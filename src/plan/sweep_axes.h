// SweepAxes: the values each CaseSpec field takes in a sweep, and the one parser that turns the
// text of a flag (`--tokens 1,8,pow2:16:1024`) or of a JSON config item into them. Flags and
// config files share it, so both accept and reject exactly the same values with the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/cache_layout.h"
#include "plan/case_spec.h"
#include "text/lists.h"  // join, and the integer ranges axis items may be

namespace rkv {

// A rotary dim as a user writes it: "full" (the rotated head's size), "half" of it, or a number.
// It is resolved per head config by the planner, so one sweep can cover several head sizes.
struct RotDim {
  enum class Kind : std::uint8_t { full, half, value };
  Kind kind = Kind::full;
  int value = 0;  // Kind::value only

  std::string name() const;  // "full", "half", "64"
  bool operator==(const RotDim& o) const { return kind == o.kind && value == o.value; }
};

// Defaults are the one case `rope-kv-bench validate` runs with no flags:
// bf16|auto|32x8x128|neox|nhd|N=1.
struct SweepAxes {
  std::vector<DType> dtype{DType::bf16};
  std::vector<CacheDType> cache_dtype{CacheDType::auto_};
  std::vector<HeadConfig> heads{HeadConfig{}};
  std::vector<RopeStyle> style{RopeStyle::neox};
  std::vector<RotDim> rot_dim{RotDim{}};
  std::vector<CacheLayout> layout{CacheLayout{}};
  std::vector<std::int64_t> tokens{1};
  std::vector<int> block_size{16};
  std::vector<ScaleKind> scale{ScaleKind::per_tensor};
  std::vector<SlotMode> slots{SlotMode::mixed};
  std::vector<QueryOut> query_out{QueryOut::inplace};
  std::vector<KeyOut> key_out{KeyOut::writeback};
  std::vector<bool> cos_sin_fp32{false};  // axis "cos_sin": "scalar" (q/k/v dtype) or "fp32"
  std::vector<std::uint64_t> seed{0};
  std::vector<int> misalign{0};
  std::vector<FillValues> values{FillValues::seeded};
};

enum class Axis : std::uint8_t {
  dtype,
  cache_dtype,
  heads,
  style,
  rot_dim,
  layout,
  tokens,
  block_size,
  scale,
  slots,
  query_out,
  key_out,
  cos_sin,
  seed,
  misalign,
  values,
};

struct AxisInfo {
  Axis axis;
  const char* key;   // JSON key under "axes" and in "extra_cases", e.g. "cache_dtype"
  const char* flag;  // command-line flag, e.g. "--cache-dtype"
  const char* help;  // one line for --help and `list`
};

// Every axis, in the order `list` and --help show them.
const std::vector<AxisInfo>& axis_infos();
const AxisInfo& axis_info(Axis axis);
const AxisInfo* find_axis_by_key(const std::string& key);

// Replaces `axis` in `axes` with `items`, each one value (or, for tokens, block_size, rot_dim and
// seed, an integer range of text/lists.h). On a bad item returns why, naming it: "'bf61' is not a
// dtype (one of bf16, fp16, fp32)"; the caller prefixes the flag or the JSON key. `axes` is
// unchanged then.
std::optional<std::string> set_axis(SweepAxes& axes, Axis axis,
                                    const std::vector<std::string>& items);
// The same for a flag's comma-separated text ("bf16,fp16").
std::optional<std::string> set_axis_from_list(SweepAxes& axes, Axis axis, const std::string& list);

// The axis's current values as text.
std::vector<std::string> axis_value_names(const SweepAxes& axes, Axis axis);
// The axis's default values as its flag takes them ("bf16", "1"): what --help and `list` show.
std::string axis_default_text(Axis axis);
// What the axis accepts, for `list` and error messages: "bf16, fp16, fp32" or a syntax line.
std::string allowed_values(Axis axis);

// Value limits (inclusive); a value outside is an error, not a silent clamp.
inline constexpr std::int64_t kMaxTokens = std::int64_t{1} << 20;
inline constexpr int kMaxBlockSize = 1024;
inline constexpr int kMaxRotDim = 512;

// Every name of each enum, in declaration order. Defined in case_spec.cpp from the same tables as
// to_string/parse_*, so no name is written twice.
std::vector<std::string> dtype_names();
std::vector<std::string> cache_dtype_names();
std::vector<std::string> style_names();
std::vector<std::string> slot_mode_names();
std::vector<std::string> scale_kind_names();
std::vector<std::string> query_out_names();
std::vector<std::string> key_out_names();
std::vector<std::string> fill_values_names();
std::vector<std::string> timing_mode_names();

}  // namespace rkv
