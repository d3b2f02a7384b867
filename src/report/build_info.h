// Where a binary came from: baked in at build time by cmake/git_revision.cmake. The version is
// CMake's project version, the one number shown by --version, the reports and rope-kv-gbench.
#pragma once

#include <string>

namespace rkv {
const char* git_revision();         // `git describe --always --dirty` of the tree that was built
const char* git_commit_time_utc();  // that commit's committer time, ISO 8601 UTC; "" outside git
const char* git_branch();           // the checked-out branch; "" when detached or outside git
bool git_dirty();                   // the tree had uncommitted changes when it was built
const char* tool_version();         // CMake's PROJECT_VERSION

// "rope-kv-bench 0.2.0 (d774aede1019, committed 2026-11-29T20:00:00Z, branch main)": what
// `--version` prints and rope-kv-gbench puts in its context.
std::string version_line();
}  // namespace rkv
