// Sweep config files (configs/*.json): a named set of axes, timing settings and extra cases.
//
//   {"name": "seed-table", "description": "...",
//    "axes": {"dtype": ["bf16", "fp16"], "tokens": [1, 8, "pow2:16:1024"], ...},
//    "timing": {"modes": ["graph"], "min_samples": 10, "max_noise": 0.5, ...},
//    (or "timing": {"modes_by_tokens": [{"max_tokens": 1024, "modes": ["graph"]}, ...]},
//     plan/token_modes.h)
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
#include "plan/timing_fields.h"
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

}  // namespace rkv
