// Inside the CLI: what CLI11 found wrong with argv, in our words. CLI11 splits argv; its own
// messages ("The following argument was not expected: b", "--dtype: 1 required LIST missing")
// never reach the user. Every rule here holds for every option of every command, so a command
// that adds options gets them without code of its own.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace rkv {

// Before parsing: unknown arguments are kept (allow_extras) so that check_parsed_arguments words
// them.
void prepare_for_parse(CLI::App& app);

// After a successful parse of `sub` (the command given, from `argv`). Throws UsageError for
// - a flag given a value (`--dry-run=no`, which CLI11 would quietly read as "not given");
// - an argument CLI11 did not take: "'--nosuch' is not an option of bench (see ...)";
// - a value that looks like a flag given to an option that needs a value: `validate --json
//   --dry-run` would otherwise write a report named --dry-run and drop the dry run. A value
//   starting with '-' is a flag unless it is a negative number ("-5", "-.5": the option's own
//   range check then speaks).
void check_parsed_arguments(const CLI::App& sub, int argc, const char* const* argv);

// The innermost command given ("export" in `history export`), nullptr when none.
const CLI::App* deepest_command(const CLI::App& app);

// One line for a CLI11 parse error other than --help and a missing command; `sub` is the command
// given, innermost (nullptr when none).
std::string parse_error_line(const CLI::ParseError& e, const CLI::App* sub, int argc,
                             const char* const* argv);

}  // namespace rkv
