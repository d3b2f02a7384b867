// InterruptGuard (run/run_support.h): while it lives, SIGINT and SIGTERM only set the flag that
// ends a sweep after the case in flight (the report is then written, marked incomplete); once it
// is gone, the signals act as before. Each check runs in a forked child (a death test), so the
// process-wide flag never leaks into other tests.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "run/run_support.h"

namespace rkv {
namespace {

// Exits 7 when the signal only set the flag, 1 when it did not; a signal that still kills ends
// the child by that signal instead.
[[noreturn]] void raise_under_guard(int sig) {
  {
    InterruptGuard guard;
    if (interrupted()) std::_Exit(2);  // the flag starts clear
    std::raise(sig);
    std::_Exit(interrupted() ? 7 : 1);
  }
}

TEST(InterruptGuardDeathTest, SigintSetsTheFlagInsteadOfKilling) {
  EXPECT_EXIT(raise_under_guard(SIGINT), ::testing::ExitedWithCode(7), "");
}

TEST(InterruptGuardDeathTest, SigtermSetsTheFlagInsteadOfKilling) {
  EXPECT_EXIT(raise_under_guard(SIGTERM), ::testing::ExitedWithCode(7), "");
}

TEST(InterruptGuardDeathTest, TheDefaultActionsReturnWithTheGuard) {
  EXPECT_EXIT(
      {
        { InterruptGuard guard; }
        std::raise(SIGTERM);
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_EXIT(
      {
        { InterruptGuard guard; }
        std::raise(SIGINT);
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGINT), "");
}

}  // namespace
}  // namespace rkv
