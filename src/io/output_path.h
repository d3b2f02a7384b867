// Output paths checked before any work: a sweep that runs for an hour must not end with "cannot
// write the report". The check is what the writers (io/atomic_file.h) will need: a file that can
// be created or replaced, or a device / FIFO that can be opened for writing.
#pragma once

#include <optional>
#include <string>

namespace rkv {

enum class OutputKind { file, folder };

// Why `path` cannot be written as a `kind`, one line without the path ("is a directory",
// "its folder 'out' is a regular file, not a folder", "folder 'out' is not writable"), or nullopt.
// Creates nothing. A file may be absent (its missing folders are created when it is written);
// a folder may be absent or an existing folder.
std::optional<std::string> output_path_problem(const std::string& path, OutputKind kind);

}  // namespace rkv
