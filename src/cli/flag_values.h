// Inside the CLI: the usage error that ends a parse, and flag values read through the text module
// with the flag's name in front of every message ("--threads: 'many' is not an integer").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "text/numbers.h"

namespace rkv {

// Thrown while parsing, caught once in parse_cli: one line, exit 4.
struct UsageError {
  std::string line;
};

[[noreturn]] void usage_fail(const std::string& line);

std::int64_t int_flag(const std::string& flag, const std::string& text, std::int64_t lo,
                      std::int64_t hi);
double real_flag(const std::string& flag, const std::string& text, double lo, double hi);
std::string path_flag(const std::string& flag, const std::string& text);  // not empty
std::vector<std::string> list_flag(const std::string& flag, const std::string& text);

}  // namespace rkv
