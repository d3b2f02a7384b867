#include "report/build_info.h"

namespace rkv {

std::string version_line() {
  std::string line = std::string("rope-kv-bench ") + tool_version() + " (" + git_revision();
  if (*git_commit_time_utc() != '\0') line += std::string(", committed ") + git_commit_time_utc();
  if (*git_branch() != '\0') line += std::string(", branch ") + git_branch();
  return line + ")";
}

}  // namespace rkv
