#include "io/file_kind.h"

#include <sys/stat.h>

#include <cerrno>

namespace rkv {
namespace {

FileKind kind_of(int stat_result, const struct stat& st) {
  if (stat_result != 0)
    return errno == ENOENT || errno == ENOTDIR ? FileKind::none : FileKind::inaccessible;
  if (S_ISREG(st.st_mode)) return FileKind::regular;
  if (S_ISDIR(st.st_mode)) return FileKind::directory;
  if (S_ISLNK(st.st_mode)) return FileKind::symbolic_link;
  if (S_ISCHR(st.st_mode)) return FileKind::character_device;
  if (S_ISBLK(st.st_mode)) return FileKind::block_device;
  if (S_ISFIFO(st.st_mode)) return FileKind::fifo;
  return FileKind::socket;
}

}  // namespace

const char* describe(FileKind kind) {
  switch (kind) {
    case FileKind::none:
      return "nothing";
    case FileKind::regular:
      return "a regular file";
    case FileKind::directory:
      return "a directory";
    case FileKind::symbolic_link:
      return "a symbolic link";
    case FileKind::character_device:
      return "a character device";
    case FileKind::block_device:
      return "a block device";
    case FileKind::fifo:
      return "a FIFO";
    case FileKind::socket:
      return "a socket";
    case FileKind::inaccessible:
      return "not accessible";
  }
  return "unknown";
}

FileKind file_kind(const std::string& path) {
  struct stat st {};
  const int r = ::stat(path.c_str(), &st);
  return kind_of(r, st);
}

FileKind output_file_kind(const std::string& path) {
  struct stat st {};
  const int r = ::lstat(path.c_str(), &st);
  const FileKind own = kind_of(r, st);
  if (own != FileKind::symbolic_link) return own;
  const FileKind target = file_kind(path);
  return target == FileKind::character_device || target == FileKind::fifo ? target : own;
}

}  // namespace rkv
