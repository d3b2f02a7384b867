// The build information the report reader links against, fixed for the fuzzers: they are built as
// their own CMake project, without the main build's generated revision file.
#include "report/build_info.h"

namespace rkv {

const char* git_revision() {
  return "fuzz";
}
const char* git_commit_time_utc() {
  return "";
}
const char* git_branch() {
  return "";
}
bool git_dirty() {
  return false;
}
const char* tool_version() {
  return "fuzz";
}

}  // namespace rkv
