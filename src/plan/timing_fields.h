// The timing settings as text: one table of them, shared by the config's "timing" object, the
// bench flags and `list`, so all take the same values with the same limits and show the same
// defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/timing_options.h"

namespace rkv {

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
  producer_read_mib,
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
// A field's value as its flag takes it ("graph,cold", "10", "0.5" for max_noise in percent):
// what --help and `list` show as the default.
std::string timing_field_text(const TimingOptions& timing, TimingField field);

}  // namespace rkv
