// Files that are either the old version or the whole new one, never half of one: what a report,
// a refreshed baseline or any other output the tool is trusted with must be after a crash, a full
// disk or a Ctrl-C.
#pragma once

#include <string>

namespace rkv {

// Writes `text` to `path`: parent folders are created, the text goes to `path`.tmp in the same
// folder, is fsynced and renamed over `path`. Throws std::runtime_error with one line,
// "cannot write <what> '<path>': <cause>"; `path`.tmp is removed then and `path` untouched.
void write_file_atomically(const std::string& path, const std::string& text,
                           const std::string& what = "file");

}  // namespace rkv
