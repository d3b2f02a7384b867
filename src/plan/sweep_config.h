// Sweep config files (configs/*.json): a named set of axes, timing settings and extra cases.
//
//   {"name": "seed-table", "description": "...",
//    "axes": {"dtype": ["bf16", "fp16"], "tokens": [1, 8, "pow2:16:1024"], ...},
//    "timing": {"modes": ["graph"], "min_samples": 10, "max_noise": 0.5, ...},
//    "extra_cases": [{"slots": "padded", "tokens": 7}, ...]}
//
// Axis values are what the flags accept (one value per string or integer, or an array of them).
// An extra case starts from the default axes (not the file's) and sets the axes it names; each is
// planned as its own small product after the main one. Unknown keys, duplicate keys, wrong types
// and bad values are errors that name the file and the key; nothing is ignored.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/sweep_axes.h"
#include "plan/timing_options.h"

namespace rkv {

struct SweepConfig {
  std::string path;
  std::string name;
  std::string description;
  SweepAxes axes;  // defaults for the axes the file leaves out
  std::vector<SweepAxes> extra_cases;
  TimingOptions timing;  // defaults for the settings the file leaves out
};

// Reads and checks `path`. Returns one line on failure, starting with the path:
// "configs/x.json: axes.tokens: 'x' is not an integer (...)".
std::optional<std::string> load_sweep_config(const std::string& path, SweepConfig* out);
// The same for text in memory; `path` only names it in messages.
std::optional<std::string> parse_sweep_config(const std::string& text, const std::string& path,
                                              SweepConfig* out);

// The timing settings, shared by the config's "timing" object and the bench flags so both take
// the same values with the same limits.
enum class TimingField {
  modes,
  min_samples,
  max_noise,  // percent in text (flag and JSON), a fraction in TimingOptions
  min_time_s,
  timeout_s,
  warmup_s,
  warmup_min,
  graph_launches,
  wall_launches,
  batch_launches,
  passes,
};
struct TimingFieldInfo {
  TimingField field;
  const char* key;   // JSON key under "timing"
  const char* flag;  // bench flag
  const char* type_name;
  const char* help;
};
const std::vector<TimingFieldInfo>& timing_fields();

// Sets one field from its text ("graph,cold", "10", "0.5"); returns why the text is bad, naming
// it: "'0' is out of range [1, 1000000]".
std::optional<std::string> set_timing_field(TimingOptions& timing, TimingField field,
                                            const std::string& text);
// Checks that hold between fields (timeout_s >= min_time_s); one line naming both.
std::optional<std::string> timing_problem(const TimingOptions& timing);

}  // namespace rkv
