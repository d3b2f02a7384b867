#include "gate/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rkv {
namespace {

namespace fs = std::filesystem;

std::string errno_text() {
  return std::strerror(errno);
}

fs::path parent_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

}  // namespace

void check_output_path(const std::string& flag, const std::string& path) {
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(flag + " '" + path + "': " + why);
  };
  if (path.empty()) fail("empty path");
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail("is a folder");
  const fs::path parent = parent_of(path);
  fs::create_directories(parent, ec);
  if (ec) fail("cannot create folder '" + parent.string() + "': " + ec.message());
  // Probe with a scratch file beside it, so an existing output is not touched yet.
  const std::string probe = path + ".probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot write there: " + errno_text());
  ::close(fd);
  ::unlink(probe.c_str());
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  auto fail = [&](const std::string& why) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + why);
  };
  std::error_code ec;
  fs::create_directories(parent_of(path), ec);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(errno_text());
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = errno_text();
      ::close(fd);
      fail(why);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  // On disk before the rename makes it the file: a crash leaves the old file or the whole new one.
  if (::fsync(fd) != 0 || ::close(fd) != 0) fail(errno_text());
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail(errno_text());
}

void append_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot append to '" + path + "'");
}

}  // namespace rkv
