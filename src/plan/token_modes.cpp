#include "plan/token_modes.h"

#include <algorithm>

#include "plan/sweep_axes.h"

namespace rkv {

std::string token_range_text(const TokenModes& r) {
  if (r.max_tokens == TokenModes::kNoMax) return std::to_string(r.min_tokens) + "+";
  if (r.min_tokens == r.max_tokens) return std::to_string(r.min_tokens);
  return std::to_string(r.min_tokens) + "-" + std::to_string(r.max_tokens);
}

std::vector<TokenModes> read_token_modes(const JsonField& array) {
  const std::vector<JsonField> items = array.elements();
  if (items.empty()) array.fail("an empty array (give at least one token range)");
  std::vector<std::pair<TokenModes, JsonField>> read;
  for (const JsonField& e : items) {
    e.check_keys({"min_tokens", "max_tokens", "modes"});
    TokenModes r;
    if (auto v = e.find("min_tokens")) r.min_tokens = v->as_int(1, kMaxTokens);
    if (auto v = e.find("max_tokens")) r.max_tokens = v->as_int(1, kMaxTokens);
    if (r.min_tokens > r.max_tokens)
      e.fail("min_tokens " + std::to_string(r.min_tokens) + " is above max_tokens " +
             std::to_string(r.max_tokens));
    const JsonField modes = e.at("modes");
    const std::vector<JsonField> names = modes.elements();
    if (names.empty()) modes.fail("an empty array (give at least one timing mode)");
    for (const JsonField& m : names) {
      const TimingMode mode = m.as_enum(parse_timing_mode);
      if (std::find(r.modes.begin(), r.modes.end(), mode) != r.modes.end())
        m.fail("mode " + to_string(mode) + " is named twice");
      r.modes.push_back(mode);
    }
    read.emplace_back(r, e);
  }
  std::stable_sort(read.begin(), read.end(), [](const auto& a, const auto& b) {
    return a.first.min_tokens < b.first.min_tokens;
  });
  std::vector<TokenModes> rule;
  for (std::size_t i = 0; i < read.size(); ++i) {
    if (i > 0 && read[i].first.min_tokens <= read[i - 1].first.max_tokens)
      read[i].second.fail("ranges " + token_range_text(read[i - 1].first) + " and " +
                          token_range_text(read[i].first) + " overlap");
    rule.push_back(read[i].first);
  }
  return rule;
}

void set_token_modes(TimingOptions& timing, std::vector<TokenModes> rule) {
  std::vector<TimingMode> all;
  for (const TokenModes& r : rule)
    for (TimingMode m : r.modes)
      if (std::find(all.begin(), all.end(), m) == all.end()) all.push_back(m);
  timing.modes_by_tokens = std::move(rule);
  if (!all.empty()) timing.modes = all;
}

const std::vector<TimingMode>& modes_for_tokens(const TimingOptions& timing, std::int64_t tokens) {
  static const std::vector<TimingMode> none;
  if (timing.modes_by_tokens.empty()) return timing.modes;
  for (const TokenModes& r : timing.modes_by_tokens)
    if (tokens >= r.min_tokens && tokens <= r.max_tokens) return r.modes;
  return none;
}

std::optional<std::int64_t> uncovered_tokens(const TimingOptions& timing,
                                             const std::vector<CaseSpec>& cases) {
  std::optional<std::int64_t> least;
  for (const CaseSpec& c : cases)
    if (modes_for_tokens(timing, c.tokens).empty() && (!least || c.tokens < *least))
      least = c.tokens;
  return least;
}

}  // namespace rkv
