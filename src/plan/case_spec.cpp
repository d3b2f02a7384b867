// CaseSpec's head configs and cache sizes (enum names: enum_names.cpp, the id: case_id.cpp).
#include "plan/case_spec.h"

#include <algorithm>
#include <limits>

#include "text/lists.h"
#include "text/numbers.h"

namespace rkv {
namespace {

// A head count or size as written in a head config: a decimal integer that fits an int. Signs
// are accepted so that problem() can say "negative" rather than "not a head config".
std::optional<int> parse_head_number(const std::string& s) {
  const Parsed<std::int64_t> v =
      parse_int(s, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

}  // namespace

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
    const auto hq = parse_head_number(text.substr(mla_prefix.size()));
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
  const auto hq = parse_head_number(parts[0]);
  const auto hkv = parse_head_number(parts[1]);
  const auto d = parse_head_number(parts[2]);
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

}  // namespace rkv
