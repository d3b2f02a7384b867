#include "timing/clock_settle.h"

#include <gtest/gtest.h>

namespace rkv {
namespace {

TEST(ClockSettle, NeedsConsecutiveReadingsAtTheThreshold) {
  ClockSettle s(2000, 0.9, 3);  // threshold 1800 MHz
  EXPECT_FALSE(s.add(345));
  EXPECT_FALSE(s.add(1800));
  EXPECT_FALSE(s.add(1980));
  EXPECT_FALSE(s.add(1700));  // a dip starts the count again
  EXPECT_FALSE(s.add(1900));
  EXPECT_FALSE(s.add(1950));
  EXPECT_TRUE(s.add(1800));
  EXPECT_TRUE(s.settled());
}

TEST(ClockSettle, AClockHeldBelowTheThresholdNeverSettles) {
  ClockSettle s(1980, 0.9, 3);
  for (int i = 0; i < 100; ++i)
    EXPECT_FALSE(s.add(1755));  // application clocks pinned at 1755 < 1782
}

}  // namespace
}  // namespace rkv
