#include "stats/rank_test.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rkv {

double normal_upper_tail(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

RankTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y) {
  RankTest t;
  const double n = static_cast<double>(x.size()), m = static_cast<double>(y.size());
  if (x.empty() || y.empty()) return t;

  // Rank the pooled samples (average ranks for ties) and sum the ranks of x.
  std::vector<std::pair<double, bool>> all;  // value, from x
  all.reserve(x.size() + y.size());
  for (double v : x)
    all.emplace_back(v, true);
  for (double v : y)
    all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0, tie_term = 0;  // tie_term: sum of t^3 - t over groups of ties
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first)
      ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second) rank_sum_x += mid_rank;
    const double t_count = static_cast<double>(j - i);
    tie_term += t_count * t_count * t_count - t_count;
    i = j;
  }
  t.u = rank_sum_x - n * (n + 1) / 2;
  const double total = n + m;
  const double var = n * m / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (var <= 0) return t;  // every value tied: no evidence either way
  const double centred = t.u - n * m / 2;
  const double sd = std::sqrt(var);
  t.z = centred / sd;
  // The continuity correction moves U half a step towards the null before the tail is taken.
  t.p_greater = normal_upper_tail((centred - 0.5) / sd);
  t.p_less = normal_upper_tail((-centred - 0.5) / sd);
  return t;
}

}  // namespace rkv
