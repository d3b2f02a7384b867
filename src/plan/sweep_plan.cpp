// The planner. Decisions (docs/cli.md repeats them for users):
// - rot_dim "full" is stored as 0 and "half" as half the rotated head size, so the same rotary
//   dim written two ways is one case.
// - Combinations that cannot run, or that would only repeat another case under a misleading
//   name, are dropped with a reason rather than silently rewritten: per-head scale with an auto
//   cache (no scale is used), MLA with a per-head scale or a layout other than nhd (MLA has one
//   cache, [num_blocks, block_size, 576], planned as nhd), padded slots with one token (T > Tc is
//   impossible), cache-only keys with no cache write.
// - Exact duplicates (the same id twice, e.g. `--tokens 8,8` or an extra case that the main
//   product already holds) are removed quietly: the first keeps its place.
#include "plan/sweep_plan.h"

#include <unordered_set>

#include "plan/token_modes.h"

namespace rkv {
namespace {

int full_rot_dim(const HeadConfig& h) {
  return h.mla ? 64 : h.head_size;
}

struct Planner {
  SweepPlan plan;
  std::unordered_set<std::string> seen_cases;
  std::unordered_set<std::string> seen_drops;

  void drop(const std::string& what, const std::string& why) {
    if (seen_drops.insert(what).second) plan.dropped.emplace_back(what, why);
  }

  void add(const CaseSpec& c, const std::optional<std::string>& early_problem) {
    const std::string id = c.id();
    if (early_problem) return drop(id, *early_problem);
    if (auto problem = case_problem(c)) return drop(id, *problem);
    if (seen_cases.insert(id).second) plan.cases.push_back(c);
  }

  void expand(const SweepAxes& a) {
    CaseSpec c;
    for (DType dtype : a.dtype)
      for (CacheDType cache : a.cache_dtype)
        for (const HeadConfig& heads : a.heads)
          for (RopeStyle style : a.style)
            for (const RotDim& rot : a.rot_dim)
              for (const CacheLayout& layout : a.layout)
                for (ScaleKind scale : a.scale)
                  for (SlotMode slots : a.slots)
                    for (QueryOut qout : a.query_out)
                      for (KeyOut kout : a.key_out)
                        for (bool cs : a.cos_sin_fp32)
                          for (int bs : a.block_size)
                            for (std::uint64_t seed : a.seed)
                              for (int misalign : a.misalign)
                                for (FillValues values : a.values)
                                  for (std::int64_t tokens : a.tokens) {
                                    c.dtype = dtype;
                                    c.cache_dtype = cache;
                                    c.heads = heads;
                                    c.style = style;
                                    c.layout = layout;
                                    c.scale = scale;
                                    c.slots = slots;
                                    c.query_out = qout;
                                    c.key_out = kout;
                                    c.cos_sin_fp32 = cs;
                                    c.block_size = bs;
                                    c.seed = seed;
                                    c.misalign = misalign;
                                    c.values = values;
                                    c.tokens = tokens;
                                    std::optional<std::string> early;
                                    c.rot_dim = resolve(rot, heads, &early);
                                    add(c, early);
                                  }
  }

  // "full" -> 0 (the CaseSpec's spelling of full rotary); "half" -> half the rotated head size,
  // which must itself be even (head size 90 has no even half).
  static int resolve(const RotDim& rot, const HeadConfig& heads, std::optional<std::string>* why) {
    const int full = full_rot_dim(heads);
    switch (rot.kind) {
      case RotDim::Kind::full:
        return 0;
      case RotDim::Kind::half:
        if ((full / 2) % 2 != 0 && !heads.problem())
          *why = "rot_dim half of head size " + std::to_string(full) + " is " +
                 std::to_string(full / 2) + ", which is odd";
        return full / 2;
      case RotDim::Kind::value:
        return rot.value == full ? 0 : rot.value;
    }
    return 0;
  }
};

}  // namespace

std::optional<std::string> case_problem(const CaseSpec& c) {
  if (auto p = c.heads.problem()) return p;
  if (c.tokens < 1) return "tokens must be at least 1";
  if (c.tokens > kMaxTokens) return "tokens is more than " + std::to_string(kMaxTokens);
  if (c.block_size < 1 || c.block_size > kMaxBlockSize)
    return "block size " + std::to_string(c.block_size) + " is out of range (1 to " +
           std::to_string(kMaxBlockSize) + ")";
  const int full = full_rot_dim(c.heads);
  const int rot = c.effective_rot_dim();
  if (rot < 2) return "rot_dim " + std::to_string(rot) + " is less than 2";
  if (rot % 2 != 0) return "rot_dim " + std::to_string(rot) + " is odd";
  if (rot > full)
    return "rot_dim " + std::to_string(rot) + " is larger than " +
           (c.heads.mla ? "MLA's 64 rope dims" : "the head size " + std::to_string(full));
  if (c.scale == ScaleKind::per_head && c.cache_dtype == CacheDType::auto_)
    return "per-head scale needs an fp8 cache (an auto cache copies bits and uses no scale)";
  if (c.heads.mla && c.scale == ScaleKind::per_head) return "MLA has one per-tensor scale";
  if (c.heads.mla && c.layout != CacheLayout{})
    return "MLA has one cache layout, [num_blocks, block_size, 576], planned as nhd";
  if (c.slots == SlotMode::padded && c.tokens < 2)
    return "slots=padded needs at least 2 tokens (T > Tc)";
  if (c.slots == SlotMode::rope_only && c.key_out == KeyOut::cache_only)
    return "kout=cache_only with slots=rope_only would discard the rotated keys";
  // A tensor's base is aligned to its element (every framework allocates so); a base that is not
  // is no input at all, and the tool's own fill of it faults (seen on the H200: fp32, misalign=2).
  if (c.misalign % static_cast<int>(dtype_bytes(c.dtype)) != 0)
    return "misalign " + std::to_string(c.misalign) + " is not a multiple of the " +
           std::to_string(dtype_bytes(c.dtype)) + "-byte element of " + to_string(c.dtype);
  return std::nullopt;
}

SweepPlan plan_sweep(const SweepAxes& axes, const std::vector<SweepAxes>& extra_cases) {
  Planner p;
  p.expand(axes);
  for (const SweepAxes& extra : extra_cases)
    p.expand(extra);
  return p.plan;
}

void filter_plan(SweepPlan& plan, const std::string& substring) {
  std::vector<CaseSpec> kept;
  for (const CaseSpec& c : plan.cases)
    if (c.id().find(substring) != std::string::npos) kept.push_back(c);
  plan.cases = kept;
}

void shard_plan(SweepPlan& plan, int index, int count) {
  std::vector<CaseSpec> kept;
  for (std::size_t p = static_cast<std::size_t>(index - 1); p < plan.cases.size();
       p += static_cast<std::size_t>(count))
    kept.push_back(plan.cases[p]);
  plan.cases = kept;
}

std::string format_plan(const SweepPlan& plan, const TimingOptions* timing) {
  const bool by_tokens = timing != nullptr && !timing->modes_by_tokens.empty();
  auto mode_names = [](const std::vector<TimingMode>& modes) {
    std::string names;
    for (TimingMode m : modes)
      names += (names.empty() ? "" : ",") + to_string(m);
    return names;
  };
  std::string out;
  for (const CaseSpec& c : plan.cases)
    out +=
        c.id() + (by_tokens ? "\t" + mode_names(modes_for_tokens(*timing, c.tokens)) : "") + "\n";
  for (const auto& [what, why] : plan.dropped)
    out += "dropped " + what + ": " + why + "\n";
  if (by_tokens)
    for (const TokenModes& r : timing->modes_by_tokens) {
      std::size_t in_range = 0;
      for (const CaseSpec& c : plan.cases)
        in_range += c.tokens >= r.min_tokens && c.tokens <= r.max_tokens;
      out += "tokens " + token_range_text(r) + ": " + mode_names(r.modes) + ", " +
             std::to_string(in_range) + (in_range == 1 ? " case\n" : " cases\n");
    }
  const std::size_t n = plan.cases.size();
  out += std::to_string(n) + (n == 1 ? " case (" : " cases (") +
         std::to_string(plan.dropped.size()) + " dropped)\n";
  return out;
}

}  // namespace rkv
