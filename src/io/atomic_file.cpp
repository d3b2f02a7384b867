#include "io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

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

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string tmp = path + ".tmp";
  auto error = [&](const std::string& why) {
    return std::runtime_error("cannot write " + what + " " + quote(path, kPathQuoteMax) + ": " +
                              why);
  };

  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw error("cannot create folder " + quote(parent.string(), kPathQuoteMax) + ": " +
                ec.message());

  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw error("cannot create " + quote(tmp, kPathQuoteMax) + ": " + errno_text());
  try {
    write_all(fd, text);
    // The data must be on disk before the rename makes it the file, or a crash could leave a
    // renamed but empty file.
    if (::fsync(fd) != 0) throw std::runtime_error("fsync: " + errno_text());
  } catch (const std::runtime_error& e) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw error("writing " + quote(tmp, kPathQuoteMax) + ": " + e.what());
  }
  if (::close(fd) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw error("closing " + quote(tmp, kPathQuoteMax) + ": " + why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw error("renaming " + quote(tmp, kPathQuoteMax) + ": " + why);
  }
  // Persist the rename itself; best effort (some filesystems refuse fsync on a folder).
  const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace rkv
