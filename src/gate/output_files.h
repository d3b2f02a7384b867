// Files `compare` writes (verdict JSON, Markdown, the refreshed baseline, the step summary):
// checked before any work, so a typo in a path fails at once rather than after the comparison,
// and written whole or not at all.
#pragma once

#include <string>

namespace rkv {

// Throws std::runtime_error "FLAG 'PATH': why" unless a file can be created at `path`: its folder
// exists or can be made, and `path` is not a folder. Leaves nothing behind.
void check_output_path(const std::string& flag, const std::string& path);

// Writes `text` to `path`.tmp, fsyncs and renames it over `path`; throws std::runtime_error.
void write_text_atomically(const std::string& path, const std::string& text);

// Appends `text` to `path` (GitHub's step summary is appended to by every step).
void append_text(const std::string& path, const std::string& text);

}  // namespace rkv
