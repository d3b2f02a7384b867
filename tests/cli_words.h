// The command line as the CLI tests give it: words after "rope-kv-bench", parsed by parse_cli
// exactly as main() would, so that a test states a command the way a user types it.
#pragma once

#include <string>
#include <vector>

#include "cli/cli.h"

namespace rkv {

inline ParseOutcome parse_words(std::vector<std::string> args) {
  args.insert(args.begin(), "rope-kv-bench");
  std::vector<const char*> argv;
  for (const std::string& a : args)
    argv.push_back(a.c_str());
  return parse_cli(static_cast<int>(argv.size()), argv.data());
}

}  // namespace rkv
