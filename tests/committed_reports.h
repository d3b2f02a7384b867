// Where a committed H200 report is for the tests: in the tree, or, where the tree keeps it
// gzipped for size, the copy the build unpacked (tests/CMakeLists.txt, RKV_PACKED_REPORTS).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rkv::testing {

// results/h200/RELATIVE as committed, or its unpacked copy where the tree holds RELATIVE.gz.
inline std::string committed(const std::string& relative) {
  const std::string in_tree = std::string(RKV_SOURCE_DIR) + "/results/h200/" + relative;
  if (std::filesystem::exists(in_tree)) return in_tree;
  return std::string(RKV_UNPACKED_DIR) + "/results/h200/" + relative;
}

// The two folders that hold committed reports under SUBDIR (e.g. "results/h200"): the tree's, and
// the build's copy of what the tree keeps gzipped. A walk over both sees every committed report.
inline std::vector<std::string> committed_roots(const std::string& subdir) {
  return {std::string(RKV_SOURCE_DIR) + "/" + subdir, std::string(RKV_UNPACKED_DIR) + "/" + subdir};
}

}  // namespace rkv::testing
