// What every fuzz target asserts beside "no crash": a failed check aborts, so libFuzzer keeps the
// input as a crash. Error lines must be what a user may be shown: one printable line.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace rkv {

// Printable ASCII or UTF-8 text (bytes >= 0x80 are left to quote()'s own tests), no control
// characters, not empty.
inline void fuzz_check_one_line(const std::string& line) {
  FUZZ_CHECK(!line.empty());
  for (char ch : line) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x20 || b == 0x7F) {
      std::fprintf(stderr, "not one printable line: %s\n", line.c_str());
      std::abort();
    }
  }
}

}  // namespace rkv
