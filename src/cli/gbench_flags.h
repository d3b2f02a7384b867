// Inside the CLI: rope-kv-gbench's own checks of its arguments, made before Google Benchmark sees
// them and before the GPU is looked for. Google Benchmark 1.7 reads a bad boolean as true
// (`--benchmark_list_tests=maybe`), takes any --benchmark_out_format or --benchmark_time_unit
// and prints its help with exit 0 for a bad format, and accepts a negative --benchmark_min_time
// or --benchmark_repetitions; each is refused here with one line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rkv {

// The --benchmark_* flags rope-kv-gbench passes on, and what each takes (docs/cli.md).
struct GbenchFlag {
  const char* name;   // "--benchmark_min_time"
  const char* takes;  // "a number of seconds > 0", shown in errors
};
const std::vector<GbenchFlag>& gbench_flags();

// Why `args` (argv without the program name) cannot run rope-kv-gbench, naming the argument:
// a --benchmark_* flag that is unknown or has a bad value, or a flag of `rope-kv-bench bench`
// that rope-kv-gbench would ignore (--json, --csv, --markdown, --no-validate, timing flags).
// nullopt when the --benchmark_* part is sound; the sweep flags are parse_cli's to check.
std::optional<std::string> gbench_args_problem(const std::vector<std::string>& args);

}  // namespace rkv
