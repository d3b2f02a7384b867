#include "cli/gbench_flags.h"

#include <regex>

#include "io/output_path.h"
#include "plan/timing_fields.h"
#include "text/lists.h"
#include "text/numbers.h"
#include "text/quote.h"

namespace rkv {
namespace {

enum class Kind {
  boolean,
  positive_real,
  real,
  positive_int,
  count,
  choice,
  regex,
  path,
  context,
  text
};

struct Rule {
  GbenchFlag flag;
  Kind kind;
  std::vector<std::string> choices;  // Kind::choice
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> r{
      {{"--benchmark_list_tests", "true or false"}, Kind::boolean, {}},
      {{"--benchmark_filter", "a regular expression (extended syntax)"}, Kind::regex, {}},
      {{"--benchmark_min_time", "a number of seconds > 0"}, Kind::positive_real, {}},
      {{"--benchmark_min_warmup_time", "a number of seconds >= 0"}, Kind::real, {}},
      {{"--benchmark_repetitions", "an integer >= 1"}, Kind::positive_int, {}},
      {{"--benchmark_enable_random_interleaving", "true or false"}, Kind::boolean, {}},
      {{"--benchmark_report_aggregates_only", "true or false"}, Kind::boolean, {}},
      {{"--benchmark_display_aggregates_only", "true or false"}, Kind::boolean, {}},
      {{"--benchmark_format", "console, json or csv"}, Kind::choice, {"console", "json", "csv"}},
      {{"--benchmark_out_format", "console, json or csv"},
       Kind::choice,
       {"console", "json", "csv"}},
      {{"--benchmark_out", "a file path"}, Kind::path, {}},
      {{"--benchmark_color", "auto, true or false"},
       Kind::choice,
       {"auto", "true", "false", "yes", "no", "1", "0"}},
      {{"--benchmark_counters_tabular", "true or false"}, Kind::boolean, {}},
      {{"--benchmark_time_unit", "ns, us, ms or s"}, Kind::choice, {"ns", "us", "ms", "s"}},
      {{"--benchmark_context", "key=value[,key=value...]"}, Kind::context, {}},
      {{"--benchmark_perf_counters", "a comma list of counter names"}, Kind::text, {}},
      {{"--v", "an integer >= 0 (verbosity)"}, Kind::count, {}},
  };
  return r;
}

std::optional<std::string> value_problem(const Rule& rule, const std::string& v) {
  switch (rule.kind) {
    case Kind::boolean:
      for (const char* ok : {"true", "false", "1", "0", "yes", "no"})
        if (v == ok) return std::nullopt;
      return quote(v) + " is not true or false";
    case Kind::positive_real:
      if (auto r = parse_real(v, 0, 1e6, LowBound::open); !r) return r.error;
      return std::nullopt;
    case Kind::real:
      if (auto r = parse_real(v, 0, 1e6); !r) return r.error;
      return std::nullopt;
    case Kind::positive_int:
      if (auto r = parse_int(v, 1, 1000000); !r) return r.error;
      return std::nullopt;
    case Kind::count:
      if (auto r = parse_int(v, 0, 100); !r) return r.error;
      return std::nullopt;
    case Kind::choice:
      for (const std::string& c : rule.choices)
        if (v == c) return std::nullopt;
      return quote(v) + " is not one of " + join(rule.choices);
    case Kind::regex:
      try {
        std::regex(v, std::regex::extended);  // what Google Benchmark compiles it with
      } catch (const std::regex_error&) {
        return quote(v) + " is not a regular expression";
      }
      return std::nullopt;
    case Kind::path:
      if (auto why = output_path_problem(v, OutputKind::file))
        return quote(v, kPathQuoteMax) + ": " + *why;
      return std::nullopt;
    case Kind::context:
      for (const std::string& item : split(v, ','))
        if (item.find('=') == std::string::npos || item.front() == '=')
          return quote(item) + " is not key=value";
      return std::nullopt;
    case Kind::text:
      if (v.empty()) return "an empty value";
      return std::nullopt;
  }
  return std::nullopt;
}

// Flags of `rope-kv-bench bench` that mean nothing to rope-kv-gbench.
std::vector<std::string> bench_only_flags() {
  std::vector<std::string> flags{"--json", "--csv", "--markdown", "--no-validate"};
  for (const TimingFieldInfo& t : timing_fields())
    flags.emplace_back(t.flag);
  return flags;
}

}  // namespace

const std::vector<GbenchFlag>& gbench_flags() {
  static const std::vector<GbenchFlag> flags = [] {
    std::vector<GbenchFlag> f;
    for (const Rule& r : rules())
      f.push_back(r.flag);
    return f;
  }();
  return flags;
}

std::optional<std::string> gbench_args_problem(const std::vector<std::string>& args) {
  const std::vector<std::string> bench_only = bench_only_flags();
  for (const std::string& arg : args) {
    if (arg == "--") break;
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    for (const std::string& b : bench_only)
      if (name == b)
        return quote(name) +
               " is a flag of `rope-kv-bench bench`; rope-kv-gbench times through "
               "Google Benchmark (--benchmark_out, --benchmark_min_time, ...)";
    if (name.rfind("--benchmark_", 0) != 0 && name != "--v") continue;
    const Rule* rule = nullptr;
    for (const Rule& r : rules())
      if (name == r.flag.name) rule = &r;
    if (!rule) {
      std::vector<std::string> names;
      for (const GbenchFlag& f : gbench_flags())
        names.emplace_back(f.name);
      return quote(name) + " is not a Google Benchmark flag (one of " + join(names) + ")";
    }
    if (eq == std::string::npos) {
      if (rule->kind == Kind::boolean) continue;  // a bare boolean flag is true
      return name + ": needs =VALUE, " + rule->flag.takes + " (e.g. " + name + "=...)";
    }
    if (auto why = value_problem(*rule, arg.substr(eq + 1))) {
      // The number parsers say what is wrong but not what the flag means.
      const bool numeric = rule->kind == Kind::positive_real || rule->kind == Kind::real ||
                           rule->kind == Kind::positive_int || rule->kind == Kind::count;
      return name + ": " + *why +
             (numeric ? " (expected " + std::string(rule->flag.takes) + ")" : "");
    }
  }
  return std::nullopt;
}

}  // namespace rkv
