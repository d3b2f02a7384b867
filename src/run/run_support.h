// What the GPU commands share: Ctrl-C handling, the progress line, the report header and the
// report's outputs (JSON, CSV), the validation options from a request.
#pragma once

#include <csignal>
#include <cstddef>
#include <string>

#include "plan/case_spec.h"
#include "report/report.h"
#include "run/run_request.h"
#include "validate/validator.h"

namespace rkv {

// Ctrl-C (SIGINT) or SIGTERM (`timeout`, a CI job's time limit or cancellation) ends a sweep
// after the case in flight; what was measured is written, marked incomplete. While a guard
// lives, either signal sets the flag that interrupted() reads.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};
bool interrupted();
// Set when a sticky CUDA error (device/cuda_failure.h) poisoned the context: the sweep stops and
// the report is written incomplete.
void mark_context_lost();
bool context_lost();

// One line per case on stderr; rewritten in place on a terminal.
class Progress {
 public:
  explicit Progress(std::size_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(std::size_t done, const std::string& what);

 private:
  std::size_t total_;
  bool tty_;
};

// A report with what wrote it, when, the command line and the timing options filled in.
Report report_header(const RunRequest& request, const char* command);
ValidateOptions validate_options(const RunRequest& request);
std::string repro_line(const char* command, const CaseSpec& spec);
void apply_validation(CaseResult& r, const CaseValidation& v);
// Writes --json and --csv where asked.
void write_outputs(const RunRequest& request, const Report& report);
// Every case passed, was not supported or was skipped.
bool all_passed(const Report& r);
// 0 when a GPU is there, else prints why not and returns the usage exit code.
int no_gpu_exit();

}  // namespace rkv
