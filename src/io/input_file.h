// Reading a whole input file (a config, a report) without ever blocking: only a regular file is
// read. A FIFO, /dev/zero, a terminal or a directory is refused before it is read from, so a
// mistaken path ends with one line instead of a hang or memory running out.
#pragma once

#include <cstddef>
#include <string>

#include "text/parsed.h"

namespace rkv {

// No input of the tool is near this; a file past it is not one of ours.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

// The bytes of `path`. Errors, without the path (the caller names it): "no such file",
// "is a directory, not <noun>", "is a FIFO, not <noun>", "cannot be read: Permission denied",
// "is larger than 1 GiB, more than <noun> can be". `noun` is e.g. "a JSON file".
Parsed<std::string> read_input_file(const std::string& path, const std::string& noun,
                                    std::size_t max_bytes = kMaxInputBytes);

}  // namespace rkv
