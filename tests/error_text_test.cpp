// main()'s last line of defence: exceptions of the standard library reworded, never printed as
// their own text, and stdout's health read at exit.
#include "cli/error_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace rkv {
namespace {

TEST(ErrorText, TheStandardLibrarysErrorsAreReworded) {
  EXPECT_EQ(error_text(std::bad_alloc()),
            "out of host memory (the sweep or the input is too large for this machine)");
  const std::filesystem::filesystem_error fs_error(
      "create_directories", "/no/such", std::make_error_code(std::errc::permission_denied));
  EXPECT_EQ(error_text(fs_error), "cannot use '/no/such': Permission denied");
  std::string range_text;
  try {
    (void)std::vector<int>(3).at(7);
  } catch (const std::out_of_range& e) {
    range_text = error_text(e);
  }
  EXPECT_EQ(range_text, "internal error (a bug in rope-kv-bench; please report the command line)");
  EXPECT_EQ(error_text(std::system_error(std::make_error_code(std::errc::no_space_on_device))),
            "a system call failed: No space left on device");
  // Ours pass through, made one printable line.
  EXPECT_EQ(error_text(std::runtime_error("cannot write 'x':\ndisk\x01 full\n")),
            "cannot write 'x': disk\\x01 full");
}

TEST(ErrorText, StdoutThatWorksHasNoProblem) {
  EXPECT_EQ(stdout_problem(), "");
}

}  // namespace
}  // namespace rkv
