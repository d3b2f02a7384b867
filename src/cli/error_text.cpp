#include "cli/error_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "text/quote.h"

namespace rkv {

std::string error_text(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of host memory (the sweep or the input is too large for this machine)";
  if (const auto* fs_error = dynamic_cast<const std::filesystem::filesystem_error*>(&e)) {
    const std::string path = fs_error->path1().string();
    return (path.empty() ? std::string("a file operation failed")
                         : "cannot use " + quote(path, kPathQuoteMax)) +
           ": " + fs_error->code().message();
  }
  if (const auto* sys = dynamic_cast<const std::system_error*>(&e))
    return "a system call failed: " + sys->code().message();
  if (dynamic_cast<const nlohmann::json::exception*>(&e))
    return "internal error while reading or writing JSON (a bug in rope-kv-bench; please report "
           "the command line)";
  // Ours throw runtime errors; a logic error that gets here is a bug, and its text is the
  // library's (an index past the end): say so rather than pass it on.
  if (dynamic_cast<const std::logic_error*>(&e))
    return "internal error (a bug in rope-kv-bench; please report the command line)";
  return one_line(e.what());
}

std::string stdout_problem() {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return "";
  const int err = errno;
  return std::string("cannot write to standard output") +
         (err != 0 ? std::string(": ") + std::strerror(err) : std::string());
}

}  // namespace rkv
