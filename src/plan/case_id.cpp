// The case id: the key that joins tables, JSON reports, NVTX ranges and `--case`, so
// parse_id(id()) must give the case back.
#include <limits>
#include <string>
#include <vector>

#include "plan/case_spec.h"
#include "text/lists.h"
#include "text/numbers.h"
#include "text/quote.h"

namespace rkv {
namespace {

// The rotated key head's size: the rotary dim may not exceed it (MLA rotates the 64-dim k_pe).
int full_rot_dim(const HeadConfig& h) {
  return h.mla ? 64 : h.head_size;
}

}  // namespace

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
  if (misalign != d.misalign) s += "|misalign=" + std::to_string(misalign);
  if (values != d.values) s += "|values=" + to_string(values);
  return s;
}

std::optional<CaseSpec> CaseSpec::parse_id(const std::string& id, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<CaseSpec> {
    if (error) *error = why;
    return std::nullopt;
  };
  const std::vector<std::string> f = split(id, '|');
  if (f.size() < 6)
    return fail(quote(id) + " has " + std::to_string(f.size()) +
                " fields; expected dtype|cache_dtype|heads|style|layout|N=tokens[|key=value...]");
  CaseSpec c;
  if (auto v = parse_dtype(f[0]))
    c.dtype = *v;
  else
    return fail(quote(f[0]) + " is not a dtype");
  if (auto v = parse_cache_dtype(f[1]))
    c.cache_dtype = *v;
  else
    return fail(quote(f[1]) + " is not a cache dtype");
  if (auto v = HeadConfig::parse(f[2]))
    c.heads = *v;
  else
    return fail(quote(f[2]) + " is not a head config (HqxHkvxD or mla:Hq)");
  if (auto p = c.heads.problem()) return fail(*p);
  if (auto v = parse_style(f[3]))
    c.style = *v;
  else
    return fail(quote(f[3]) + " is not a rope style");
  if (auto v = CacheLayout::parse(f[4]))
    c.layout = *v;
  else
    return fail(quote(f[4]) + " is not a cache layout");
  const std::string tok = f[5].rfind("N=", 0) == 0 ? f[5].substr(2) : "";
  const Parsed<std::int64_t> n = parse_int(tok, 1);
  if (!n) return fail(quote(f[5]) + " is not N=<tokens> with tokens >= 1");
  c.tokens = *n;

  std::vector<std::string> seen;
  for (std::size_t i = 6; i < f.size(); ++i) {
    const std::size_t eq = f[i].find('=');
    if (eq == std::string::npos) return fail(quote(f[i]) + " is not key=value");
    const std::string key = f[i].substr(0, eq), value = f[i].substr(eq + 1);
    for (const std::string& k : seen)
      if (k == key) return fail(quote(key) + " is given twice");
    seen.push_back(key);
    const std::string bad = quote(f[i]) + ": bad value for " + key;
    if (key == "rot") {
      const Parsed<std::int64_t> v = parse_int(value, 2, std::numeric_limits<int>::max());
      if (!v || *v % 2 != 0) return fail(bad + " (an even number >= 2)");
      c.rot_dim = static_cast<int>(*v);
    } else if (key == "bs") {
      const Parsed<std::int64_t> v = parse_int(value, 1, std::numeric_limits<int>::max());
      if (!v) return fail(bad + " (a positive block size)");
      c.block_size = static_cast<int>(*v);
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
      const Parsed<std::uint64_t> v = parse_uint(value);
      if (!v) return fail(bad + " (an unsigned integer)");
      c.seed = *v;
    } else if (key == "misalign") {
      const Parsed<std::int64_t> v = parse_int(value, 1, kMaxMisalign);
      if (!v) return fail(bad + " (bytes, 1 to " + std::to_string(kMaxMisalign) + ")");
      c.misalign = static_cast<int>(*v);
    } else if (key == "values") {
      if (auto v = parse_fill_values(value))
        c.values = *v;
      else
        return fail(bad + " (seeded or specials)");
    } else {
      return fail("unknown key " + quote(key) +
                  " (rot, bs, scale, slots, qout, kout, cs, seed, misalign, values)");
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
