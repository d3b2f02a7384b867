#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "io/file_kind.h"
#include "text/quote.h"

namespace rkv {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

void write_all(int fd, const std::string& data) {
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;  // a Ctrl-C handler must not cost us the file
      throw std::runtime_error(errno_text());
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// The mode a new file gets from open(..., 0644): mkstemp creates 0600, too strict for a report
// others read. umask can only be read by setting it; nothing else in the tool touches it.
mode_t new_file_mode() {
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return 0644 & ~mask;
}

void write_in_place(const std::string& path, const std::string& text,
                    const std::function<std::runtime_error(const std::string&)>& error) {
  // No O_CREAT, no O_TRUNC: the device or FIFO is there and stays what it is.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw error(errno_text());
  try {
    write_all(fd, text);
  } catch (const std::runtime_error& e) {
    ::close(fd);
    throw error(e.what());
  }
  if (::close(fd) != 0) throw error("closing: " + errno_text());
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what) {
  namespace fs = std::filesystem;
  auto error = [&](const std::string& why) {
    return std::runtime_error("cannot write " + what + " " + quote(path, kPathQuoteMax) + ": " +
                              why);
  };
  const FileKind kind = output_file_kind(path);
  switch (kind) {
    case FileKind::none:
    case FileKind::regular:
      break;
    case FileKind::character_device:
    case FileKind::fifo:
      return write_in_place(path, text, error);
    default:
      throw error(std::string("it is ") + describe(kind) + "; give a regular file's path");
  }

  const fs::path target(path);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw error("cannot create folder " + quote(parent.string(), kPathQuoteMax) + ": " +
                ec.message());

  // mkostemp opens with O_CREAT | O_EXCL, which also refuses a symbolic link at the name.
  std::string tmp_name = (parent / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> tmp(tmp_name.begin(), tmp_name.end());
  tmp.push_back('\0');
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) throw error("cannot create a temporary file in its folder: " + errno_text());
  const std::string tmp_path(tmp.data());
  auto discard = [&](const std::string& why) {
    ::unlink(tmp_path.c_str());
    return error(why);
  };
  try {
    if (::fchmod(fd, new_file_mode()) != 0) throw std::runtime_error("chmod: " + errno_text());
    write_all(fd, text);
    // The data must be on disk before the rename makes it the file, or a crash could leave a
    // renamed but empty file.
    if (::fsync(fd) != 0) throw std::runtime_error("fsync: " + errno_text());
  } catch (const std::runtime_error& e) {
    ::close(fd);
    throw discard(e.what());
  }
  if (::close(fd) != 0) throw discard("closing the temporary file: " + errno_text());
  // Checked again just before the rename: what was a regular file or nothing must still be.
  const FileKind now = output_file_kind(path);
  if (now != FileKind::none && now != FileKind::regular)
    throw discard(std::string("it became ") + describe(now) + " while writing");
  if (::rename(tmp_path.c_str(), path.c_str()) != 0)
    throw discard("renaming the temporary file over it: " + errno_text());
  // Persist the rename itself; best effort (some filesystems refuse fsync on a folder).
  const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace rkv
