// Files that are either the old version or the whole new one, never half of one: what a report,
// a refreshed baseline or any other output the tool is trusted with must be after a crash, a full
// disk or a Ctrl-C.
#pragma once

#include <string>

namespace rkv {

// Writes `text` to `path`, by what `path` is now:
// - nothing, or a regular file: parent folders are created; the text goes to a new temporary file
//   in the same folder (a random name created exclusively, so neither a planted file nor a planted
//   symbolic link is ever written through), is fsynced and renamed over `path`;
// - a character device or a FIFO (`--json /dev/null`, `--json >(gzip > r.gz)`): written in place,
//   never replaced (renaming over /dev/null as root would turn the device into a file);
// - a directory, a symbolic link to a regular file, a socket or a block device: refused (renaming
//   over a link would replace the link, not the file it names).
// Every write, fsync and close is checked. Throws std::runtime_error with one line,
// "cannot write <what> '<path>': <cause>"; the temporary file is removed and `path` untouched.
void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what = "file");

}  // namespace rkv
