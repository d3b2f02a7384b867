// What the GPU commands (validate, bench, profile) need to run: the planned sweep, how to time
// it, and where the results go. The CLI fills it in; the run layer never sees the CLI.
#pragma once

#include <string>
#include <vector>

#include "plan/sweep_plan.h"
#include "plan/timing_options.h"
#include "plan/variant.h"
#include "report/run_metadata.h"

namespace rkv {

struct RunRequest {
  std::vector<std::string> argv;  // as given, for the report's argv field
  std::string config_path;        // --config, "" when none
  std::string config_name;        // the config's "name"
  RunMetadata run_metadata;  // config path, name, hash and --tag; the run adds build, host, clocks
  SweepPlan plan;            // the cases to run, in order; never empty when parse_cli succeeds

  // ---- bench
  TimingOptions timing;        // the config's "timing", then the timing flags
  bool validate_first = true;  // --no-validate clears it
  bool keep_samples = false;   // --samples: every variant's raw samples go into the report
  bool markdown = false;       // --markdown: print the tables as Markdown (also validate, compare)
  std::string csv_out;         // --csv FILE
  std::string json_out;        // --json FILE (bench, validate)

  // ---- validate (bench validates the same way before timing)
  std::string dump_dir;   // --dump DIR: one folder per mismatching case (docs/dump.md)
  bool dump_all = false;  // --dump-all: every case, not only the mismatching ones
  // Cases with more tokens than this are checked against the golden model on a sample of this
  // many tokens (fused vs pair is always compared whole); 0 = always the whole case.
  int golden_sample_tokens = 2048;
  int threads = 0;  // golden-model host threads; 0 = std::thread::hardware_concurrency()
  long long plant_error_at = -1;  // --plant-error BYTE: the validator's self-test (validator.h)

  // ---- profile
  int launches = 10;
  std::vector<Variant> variants{Variant::fused, Variant::pair};
};

}  // namespace rkv
