// CaseSpec's text forms: enum names, head configs and the case id. The id is the key that joins
// tables, JSON reports, NVTX ranges and `--case`, so parse_id(id()) must give the case back.
#include "plan/case_spec.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <utility>

#include "plan/sweep_axes.h"
#include "plan/timing_options.h"

namespace rkv {
namespace {

// One table per enum: the single source of the names that to_string, parse_* and `list` use.
template <class E>
using NameTable = std::vector<std::pair<E, const char*>>;

const NameTable<DType>& dtype_table() {
  static const NameTable<DType> t{
      {DType::bf16, "bf16"}, {DType::fp16, "fp16"}, {DType::fp32, "fp32"}};
  return t;
}
const NameTable<CacheDType>& cache_dtype_table() {
  static const NameTable<CacheDType> t{{CacheDType::auto_, "auto"},
                                       {CacheDType::fp8_e4m3, "fp8_e4m3"},
                                       {CacheDType::fp8_e5m2, "fp8_e5m2"}};
  return t;
}
const NameTable<RopeStyle>& style_table() {
  static const NameTable<RopeStyle> t{{RopeStyle::neox, "neox"}, {RopeStyle::gptj, "gptj"}};
  return t;
}
const NameTable<SlotMode>& slot_table() {
  static const NameTable<SlotMode> t{{SlotMode::mixed, "mixed"},
                                     {SlotMode::padded, "padded"},
                                     {SlotMode::all_invalid, "all_invalid"},
                                     {SlotMode::rope_only, "rope_only"}};
  return t;
}
const NameTable<ScaleKind>& scale_table() {
  static const NameTable<ScaleKind> t{{ScaleKind::per_tensor, "tensor"},
                                      {ScaleKind::per_head, "head"}};
  return t;
}
const NameTable<QueryOut>& query_out_table() {
  static const NameTable<QueryOut> t{{QueryOut::inplace, "inplace"},
                                     {QueryOut::separate, "separate"}};
  return t;
}
const NameTable<KeyOut>& key_out_table() {
  static const NameTable<KeyOut> t{{KeyOut::writeback, "writeback"},
                                   {KeyOut::cache_only, "cache_only"}};
  return t;
}
const NameTable<TimingMode>& timing_table() {
  static const NameTable<TimingMode> t{{TimingMode::cold, "cold"},
                                       {TimingMode::warm, "warm"},
                                       {TimingMode::graph, "graph"},
                                       {TimingMode::wall, "wall"}};
  return t;
}

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
std::vector<std::string> names(const NameTable<E>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table)
    out.emplace_back(entry.second);
  return out;
}

// A decimal integer with an optional leading '-', nothing else (no spaces, no '+', no "0x").
// Signs are accepted so that problem() can say "negative" instead of "not a number".
std::optional<long long> parse_signed(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  for (std::size_t j = i; j < s.size(); ++j)
    if (s[j] < '0' || s[j] > '9') return std::nullopt;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return v;
}

std::optional<int> parse_int32(const std::string& s) {
  const auto v = parse_signed(s);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
    return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<std::uint64_t> parse_unsigned64(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// The rotated key head's size: the rotary dim may not exceed it (MLA rotates the 64-dim k_pe).
int full_rot_dim(const HeadConfig& h) {
  return h.mla ? 64 : h.head_size;
}

}  // namespace

// ---- enum names

std::string to_string(DType v) {
  return name_of(dtype_table(), v);
}
std::string to_string(CacheDType v) {
  return name_of(cache_dtype_table(), v);
}
std::string to_string(RopeStyle v) {
  return name_of(style_table(), v);
}
std::string to_string(SlotMode v) {
  return name_of(slot_table(), v);
}
std::string to_string(ScaleKind v) {
  return name_of(scale_table(), v);
}
std::string to_string(QueryOut v) {
  return name_of(query_out_table(), v);
}
std::string to_string(KeyOut v) {
  return name_of(key_out_table(), v);
}
std::string to_string(TimingMode m) {
  return name_of(timing_table(), m);
}

std::optional<DType> parse_dtype(const std::string& s) {
  return value_of(dtype_table(), s);
}
std::optional<CacheDType> parse_cache_dtype(const std::string& s) {
  if (s == "fp8") return CacheDType::fp8_e4m3;  // vLLM's kv_cache_dtype="fp8" means e4m3
  return value_of(cache_dtype_table(), s);
}
std::optional<RopeStyle> parse_style(const std::string& s) {
  return value_of(style_table(), s);
}
std::optional<SlotMode> parse_slot_mode(const std::string& s) {
  return value_of(slot_table(), s);
}
std::optional<ScaleKind> parse_scale_kind(const std::string& s) {
  return value_of(scale_table(), s);
}
std::optional<QueryOut> parse_query_out(const std::string& s) {
  return value_of(query_out_table(), s);
}
std::optional<KeyOut> parse_key_out(const std::string& s) {
  return value_of(key_out_table(), s);
}
std::optional<TimingMode> parse_timing_mode(const std::string& s) {
  return value_of(timing_table(), s);
}

// Declared in sweep_axes.h for `list` and the error messages; they read the tables above so no
// name is written twice.
std::vector<std::string> dtype_names() {
  return names(dtype_table());
}
std::vector<std::string> cache_dtype_names() {
  return names(cache_dtype_table());
}
std::vector<std::string> style_names() {
  return names(style_table());
}
std::vector<std::string> slot_mode_names() {
  return names(slot_table());
}
std::vector<std::string> scale_kind_names() {
  return names(scale_table());
}
std::vector<std::string> query_out_names() {
  return names(query_out_table());
}
std::vector<std::string> key_out_names() {
  return names(key_out_table());
}
std::vector<std::string> timing_mode_names() {
  return names(timing_table());
}

// ---- HeadConfig

std::string HeadConfig::name() const {
  if (mla) return "mla:" + std::to_string(num_q_heads);
  return std::to_string(num_q_heads) + "x" + std::to_string(num_kv_heads) + "x" +
         std::to_string(head_size);
}

std::optional<HeadConfig> HeadConfig::parse(const std::string& text) {
  HeadConfig h;
  const std::string mla_prefix = "mla:";
  if (text.rfind(mla_prefix, 0) == 0) {
    const auto hq = parse_int32(text.substr(mla_prefix.size()));
    if (!hq) return std::nullopt;
    // MLA has one latent "kv head"; head_size holds the rotated k_pe size so that generic
    // checks (rot_dim <= head size) read the right number.
    h.mla = true;
    h.num_q_heads = *hq;
    h.num_kv_heads = 1;
    h.head_size = 64;
    return h;
  }
  const std::vector<std::string> parts = split(text, 'x');
  if (parts.size() != 3) return std::nullopt;
  const auto hq = parse_int32(parts[0]);
  const auto hkv = parse_int32(parts[1]);
  const auto d = parse_int32(parts[2]);
  if (!hq || !hkv || !d) return std::nullopt;
  h.num_q_heads = *hq;
  h.num_kv_heads = *hkv;
  h.head_size = *d;
  return h;
}

std::optional<std::string> HeadConfig::problem() const {
  // 1024 heads is far past any real model (DeepSeek V3: 128) and keeps sizes in int32 range.
  constexpr int kMaxHeads = 1024;
  constexpr int kMaxHeadSize = 512;
  const std::string n = name();
  if (num_q_heads <= 0) return n + ": query heads must be positive";
  if (num_q_heads > kMaxHeads)
    return n + ": " + std::to_string(num_q_heads) + " query heads is more than " +
           std::to_string(kMaxHeads);
  if (mla) return std::nullopt;
  if (num_kv_heads <= 0) return n + ": kv heads must be positive";
  if (head_size <= 0) return n + ": head size must be positive";
  if (num_q_heads % num_kv_heads != 0)
    return n + ": " + std::to_string(num_q_heads) + " query heads are not a multiple of " +
           std::to_string(num_kv_heads) + " kv heads";
  if (head_size % 2 != 0)
    return n + ": head size " + std::to_string(head_size) + " is not a multiple of 2";
  if (head_size > kMaxHeadSize)
    return n + ": head size " + std::to_string(head_size) + " is larger than " +
           std::to_string(kMaxHeadSize);
  return std::nullopt;
}

// ---- CaseSpec

std::int64_t CaseSpec::cache_tokens() const {
  switch (slots) {
    case SlotMode::mixed:
      return tokens;
    case SlotMode::padded: {
      if (tokens <= 1) return tokens;
      const std::int64_t pad = std::max<std::int64_t>(1, tokens / 4);
      return tokens - pad;
    }
    case SlotMode::all_invalid:
      return tokens;
    case SlotMode::rope_only:
      return 0;  // no slot mapping, so no value rows either
  }
  return tokens;
}

std::string CaseSpec::id() const {
  std::string s = to_string(dtype) + "|" + to_string(cache_dtype) + "|" + heads.name() + "|" +
                  to_string(style) + "|" + layout.name() + "|N=" + std::to_string(tokens);
  const CaseSpec d;  // the defaults, which the id leaves out
  // rot is printed only when it differs from full rotary, so rot_dim == head size and
  // rot_dim == 0 name the same case.
  if (rot_dim != 0 && rot_dim != full_rot_dim(heads)) s += "|rot=" + std::to_string(rot_dim);
  if (block_size != d.block_size) s += "|bs=" + std::to_string(block_size);
  if (scale != d.scale) s += "|scale=" + to_string(scale);
  if (slots != d.slots) s += "|slots=" + to_string(slots);
  if (query_out != d.query_out) s += "|qout=" + to_string(query_out);
  if (key_out != d.key_out) s += "|kout=" + to_string(key_out);
  if (cos_sin_fp32) s += "|cs=fp32";
  if (seed != d.seed) s += "|seed=" + std::to_string(seed);
  return s;
}

std::optional<CaseSpec> CaseSpec::parse_id(const std::string& id, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<CaseSpec> {
    if (error) *error = why;
    return std::nullopt;
  };
  const std::vector<std::string> f = split(id, '|');
  if (f.size() < 6)
    return fail("'" + id + "' has " + std::to_string(f.size()) +
                " fields; expected dtype|cache_dtype|heads|style|layout|N=tokens[|key=value...]");
  CaseSpec c;
  if (auto v = parse_dtype(f[0]))
    c.dtype = *v;
  else
    return fail("'" + f[0] + "' is not a dtype");
  if (auto v = parse_cache_dtype(f[1]))
    c.cache_dtype = *v;
  else
    return fail("'" + f[1] + "' is not a cache dtype");
  if (auto v = HeadConfig::parse(f[2]))
    c.heads = *v;
  else
    return fail("'" + f[2] + "' is not a head config (HqxHkvxD or mla:Hq)");
  if (auto p = c.heads.problem()) return fail(*p);
  if (auto v = parse_style(f[3]))
    c.style = *v;
  else
    return fail("'" + f[3] + "' is not a rope style");
  if (auto v = CacheLayout::parse(f[4]))
    c.layout = *v;
  else
    return fail("'" + f[4] + "' is not a cache layout");
  const std::string tok = f[5].rfind("N=", 0) == 0 ? f[5].substr(2) : "";
  const auto n = parse_signed(tok);
  if (!n || *n < 1) return fail("'" + f[5] + "' is not N=<tokens> with tokens >= 1");
  c.tokens = *n;

  std::vector<std::string> seen;
  for (std::size_t i = 6; i < f.size(); ++i) {
    const std::size_t eq = f[i].find('=');
    if (eq == std::string::npos) return fail("'" + f[i] + "' is not key=value");
    const std::string key = f[i].substr(0, eq), value = f[i].substr(eq + 1);
    for (const std::string& k : seen)
      if (k == key) return fail("'" + key + "' is given twice");
    seen.push_back(key);
    const std::string bad = "'" + f[i] + "': bad value for " + key;
    if (key == "rot") {
      const auto v = parse_int32(value);
      if (!v || *v < 2 || *v % 2 != 0) return fail(bad + " (an even number >= 2)");
      c.rot_dim = *v;
    } else if (key == "bs") {
      const auto v = parse_int32(value);
      if (!v || *v < 1) return fail(bad + " (a positive block size)");
      c.block_size = *v;
    } else if (key == "scale") {
      if (auto v = parse_scale_kind(value))
        c.scale = *v;
      else
        return fail(bad);
    } else if (key == "slots") {
      if (auto v = parse_slot_mode(value))
        c.slots = *v;
      else
        return fail(bad);
    } else if (key == "qout") {
      if (auto v = parse_query_out(value))
        c.query_out = *v;
      else
        return fail(bad);
    } else if (key == "kout") {
      if (auto v = parse_key_out(value))
        c.key_out = *v;
      else
        return fail(bad);
    } else if (key == "cs") {
      if (value != "fp32" && value != "scalar") return fail(bad + " (fp32 or scalar)");
      c.cos_sin_fp32 = value == "fp32";
    } else if (key == "seed") {
      const auto v = parse_unsigned64(value);
      if (!v) return fail(bad + " (an unsigned integer)");
      c.seed = *v;
    } else {
      return fail("unknown key '" + key + "' (rot, bs, scale, slots, qout, kout, cs, seed)");
    }
  }
  // Full rotary is stored as 0, so parse_id(id()) equals the planner's normalized case.
  if (c.rot_dim == full_rot_dim(c.heads)) c.rot_dim = 0;
  return c;
}

std::string CaseSpec::repro_args() const {
  // Single quotes keep '|' from the shell; a quote inside (never produced by id()) would be
  // closed, escaped and reopened.
  std::string quoted = "'";
  for (char ch : id()) {
    if (ch == '\'')
      quoted += "'\\''";
    else
      quoted += ch;
  }
  return "--case " + quoted + "'";
}

}  // namespace rkv
