#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file_kind.h"

namespace rkv {
namespace {

Parsed<std::string> refuse_kind(FileKind kind, const std::string& noun) {
  if (kind == FileKind::none) return Parsed<std::string>::fail("no such file");
  if (kind == FileKind::inaccessible)
    return Parsed<std::string>::fail(std::string("cannot be read: ") + std::strerror(errno));
  return Parsed<std::string>::fail(std::string("is ") + describe(kind) + ", not " + noun);
}

std::string size_text(std::size_t bytes) {
  if (bytes % (std::size_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Parsed<std::string> read_input_file(const std::string& path, const std::string& noun,
                                    std::size_t max_bytes) {
  // Asked first so that nothing but a regular file is ever opened (opening some devices acts).
  const FileKind kind = file_kind(path);
  if (kind != FileKind::regular) return refuse_kind(kind, noun);
  // O_NONBLOCK: should the path have become a FIFO since, open() still returns at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return Parsed<std::string>::fail(std::string("cannot be read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Parsed<std::string>::fail("is not a regular file, not " + noun);
  }
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return Parsed<std::string>::fail("is larger than " + size_text(max_bytes) + ", more than " +
                                     noun + " can be");
  }
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      return Parsed<std::string>::fail("cannot be read: " + why);
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {  // it grew while we read
      ::close(fd);
      return Parsed<std::string>::fail("is larger than " + size_text(max_bytes) + ", more than " +
                                       noun + " can be");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return Parsed<std::string>{std::move(text), {}};
}

}  // namespace rkv
