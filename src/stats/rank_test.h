// The Mann-Whitney U (Wilcoxon rank-sum) test: does one sample tend to lie above another? The
// perf gate uses it on raw per-launch samples, where it needs no assumption about their shape
// (GPU timings are skewed and often bimodal, so a t-test's normality would be a fiction).
#pragma once

#include <vector>

namespace rkv {

struct RankTest {
  double u = 0;          // U of `x`: the number of (x, y) pairs with x > y, ties counting 1/2
  double z = 0;          // (U - n m / 2) / sd(U), tie-corrected, with a continuity correction
  double p_greater = 1;  // one-sided p of "x tends to lie above y"
  double p_less = 1;     // one-sided p of "x tends to lie below y"
};

// Normal approximation with the tie correction, good once both samples have ~10 values (the
// gate's samples have hundreds). Either sample empty: z = 0, both p = 1 (no evidence).
RankTest mann_whitney(const std::vector<double>& x, const std::vector<double>& y);

// P(Z > z) for a standard normal Z.
double normal_upper_tail(double z);

}  // namespace rkv
