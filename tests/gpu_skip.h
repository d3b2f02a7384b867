// GPU tests skip, naming the reason, where there is no usable device (CI has none): one helper
// for every GPU test file.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "device/cuda_check.h"

namespace rkv {

// Why no GPU test can run in this process ("" when one can), asked once.
inline const std::string& gpu_absence_reason() {
  static const std::string reason = cuda_device_problem();
  return reason;
}

// In a fixture's SetUp(): skips the test with the reason when there is no usable GPU. A macro
// because GTEST_SKIP() returns from the function it stands in.
#define RKV_SKIP_WITHOUT_GPU()                                                             \
  do {                                                                                     \
    if (!::rkv::gpu_absence_reason().empty()) GTEST_SKIP() << ::rkv::gpu_absence_reason(); \
  } while (false)

// The fixture of a test that needs a GPU.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { RKV_SKIP_WITHOUT_GPU(); }
};

}  // namespace rkv
