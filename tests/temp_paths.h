// Scratch files for tests. CTest runs tests in parallel (one process each), and some tests assert
// on the file name inside messages, so each process gets its own folder and names stay readable.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace rkv {

inline std::string per_process_temp_dir() {
  const std::string dir = ::testing::TempDir() + "rkv_test_" + std::to_string(getpid()) + "/";
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace rkv
