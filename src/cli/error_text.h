// Inside the CLI: an exception that reached main() as the one line the user reads. Our own errors
// (std::runtime_error and its kin, already one line naming what was wrong) pass through
// one_line(); the standard library's are reworded, since their texts ("std::bad_alloc",
// "filesystem error: ...", "vector::_M_range_check") say nothing a user can act on.
#pragma once

#include <exception>
#include <string>

namespace rkv {

std::string error_text(const std::exception& e);

// Flushes stdout and says whether everything printed to it arrived: `report r.json > /dev/full`
// must fail, not exit 0 with nothing written. One line when it did not, "" when it did.
std::string stdout_problem();

}  // namespace rkv
