#include "io/output_path.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "io/file_kind.h"
#include "text/quote.h"

namespace rkv {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> folder_writable(const fs::path& folder) {
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return "folder " + quote(folder.string(), kPathQuoteMax) + " is not writable (" +
           std::strerror(errno) + ")";
  return std::nullopt;
}

// A path that does not exist yet: its nearest existing ancestor must be a folder we can write
// in, so that the missing folders and then the file can be created.
std::optional<std::string> creatable(const fs::path& path) {
  fs::path folder = path.parent_path();
  for (;;) {
    if (folder.empty()) folder = ".";
    const FileKind kind = file_kind(folder.string());
    if (kind == FileKind::directory) return folder_writable(folder);
    if (kind != FileKind::none)
      return "its folder " + quote(folder.string(), kPathQuoteMax) + " is " + describe(kind) +
             ", not a folder";
    if (folder == folder.parent_path()) return "no folder on its way exists";
    folder = folder.parent_path();
  }
}

}  // namespace

std::optional<std::string> output_path_problem(const std::string& path, OutputKind kind) {
  if (path.empty()) return "an empty path";
  if (path == "-") return "'-' (standard output) is not supported here; give a file path";
  const fs::path p(path);
  const FileKind now = kind == OutputKind::folder ? file_kind(path) : output_file_kind(path);
  if (kind == OutputKind::folder) {
    if (now == FileKind::directory) return folder_writable(p);
    if (now == FileKind::none) return creatable(p);
    return std::string("is ") + describe(now) + ", not a folder";
  }
  switch (now) {
    case FileKind::none:
      return creatable(p);
    case FileKind::regular:  // replaced by a rename: the folder must be writable
      return folder_writable(p.has_parent_path() ? p.parent_path() : fs::path("."));
    case FileKind::character_device:
    case FileKind::fifo:  // written in place
      if (::access(path.c_str(), W_OK) != 0)
        return std::string("is not writable (") + std::strerror(errno) + ")";
      return std::nullopt;
    case FileKind::symbolic_link:
      return "is a symbolic link; give the path of the file it points to";
    case FileKind::inaccessible:
      return std::string("cannot be reached (") + std::strerror(errno) + ")";
    default:
      return std::string("is ") + describe(now) + ", not a file";
  }
}

}  // namespace rkv
