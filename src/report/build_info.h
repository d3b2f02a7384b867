// Where a binary came from: baked in at build time by cmake/git_revision.cmake.
#pragma once

namespace rkv {
const char* git_revision();  // `git describe --always --dirty` of the tree that was built
const char* tool_version();
}  // namespace rkv
