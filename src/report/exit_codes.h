// The exit codes every command shares (docs/cli.md lists them with their meaning).
#pragma once

namespace rkv {

inline constexpr int kExitUsage = 4;  // usage or environment error

}  // namespace rkv
