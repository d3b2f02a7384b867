// What a path names, asked before a file is opened: a FIFO or /dev/zero given as an input never
// ends, and a device or a link given as an output must not be replaced by a regular file.
#pragma once

#include <string>

namespace rkv {

enum class FileKind {
  none,  // nothing there (or a folder on the way is missing)
  regular,
  directory,
  symbolic_link,
  character_device,
  block_device,
  fifo,
  socket,
  inaccessible,  // stat failed for another reason (permissions on a folder on the way)
};

// "a regular file", "a directory", "a FIFO", "nothing", ...
const char* describe(FileKind kind);

// What `path` is, following symbolic links (for inputs: a link to a config is that config).
FileKind file_kind(const std::string& path);

// What `path` is as an output: a symbolic link is `symbolic_link` (renaming over it would replace
// the link), except one that leads to a character device or a FIFO, which is that device or FIFO
// (/dev/stdout, /dev/fd/63 of `>(...)`), written in place.
FileKind output_file_kind(const std::string& path);

}  // namespace rkv
