// Inside the CLI: every output path of the command checked in one place, at the end of the parse,
// before any work (a sweep must not run for an hour and then fail to write its report). A
// --dry-run checks them too, so it answers "would this run go through?".
#pragma once

#include "cli/cli.h"

namespace rkv {

// Throws UsageError, one line naming the flag and the path: "--json '/x/y.json': its folder
// '/x' is a regular file, not a folder".
void check_output_paths(const CliInvocation& inv);

}  // namespace rkv
