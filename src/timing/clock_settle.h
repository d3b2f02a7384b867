// When the GPU's clock has ramped up: `needed` readings in a row at or above `fraction` of the
// maximum SM clock. Host-only logic (the Timer feeds it SM clock probe readings taken between
// short spins), so the rule is unit-tested without a GPU.
#pragma once

namespace rkv {

class ClockSettle {
 public:
  ClockSettle(double max_mhz, double fraction, int needed)
      : threshold_(max_mhz * fraction), needed_(needed) {}
  // Adds one reading; true once `needed` readings in a row reached the threshold.
  bool add(double mhz) {
    run_ = mhz >= threshold_ ? run_ + 1 : 0;
    return settled();
  }
  bool settled() const { return run_ >= needed_; }

 private:
  double threshold_;
  int needed_;
  int run_ = 0;
};

}  // namespace rkv
