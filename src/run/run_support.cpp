#include "run/run_support.h"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "device/cuda_check.h"
#include "io/atomic_file.h"
#include "report/build_info.h"
#include "report/exit_codes.h"
#include "report/tables.h"

namespace rkv {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_context_lost{false};
extern "C" void on_interrupt(int) {
  g_interrupted.store(true);
}

}  // namespace

InterruptGuard::InterruptGuard()
    : previous_int_(std::signal(SIGINT, on_interrupt)),
      previous_term_(std::signal(SIGTERM, on_interrupt)) {}
InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}
bool interrupted() {
  return g_interrupted.load();
}
void mark_context_lost() {
  g_context_lost.store(true);
}
bool context_lost() {
  return g_context_lost.load();
}

Progress::Progress(std::size_t total) : total_(total), tty_(isatty(STDERR_FILENO) != 0) {}

void Progress::update(std::size_t done, const std::string& what) {
  std::string line = fmt::format("[{}/{}] {}", done, total_, what);
  if (tty_)
    fmt::print(stderr, "\r\033[K{}", line);
  else
    fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
}

Progress::~Progress() {
  if (tty_) fmt::print(stderr, "\n");
}

Report report_header(const RunRequest& inv, const char* command) {
  Report r;
  r.tool_version = tool_version();
  r.git_revision = git_revision();
  r.created_utc = utc_now_iso8601();
  r.argv = inv.argv;
  r.command = command;
  r.timing = inv.timing;
  r.run = with_build_and_host(inv.run_metadata);
  return r;
}

ValidateOptions validate_options(const RunRequest& inv) {
  ValidateOptions o;
  o.golden_sample_tokens = inv.golden_sample_tokens > 0 ? inv.golden_sample_tokens : INT32_MAX;
  o.threads = inv.threads;
  o.dump_dir = inv.dump_dir;
  o.dump_all = inv.dump_all;
  o.tool_version = tool_version();
  o.plant_error_at = inv.plant_error_at;
  return o;
}

std::string repro_line(const char* command, const CaseSpec& spec) {
  return fmt::format("rope-kv-bench {} {}", command, spec.repro_args());
}

void apply_validation(CaseResult& r, const CaseValidation& v) {
  r.validation = v.disposition;
  r.mismatches = v.mismatches;
  r.first_mismatch = v.first_mismatch;
  r.detail = v.detail;
}

void write_outputs(const RunRequest& inv, const Report& report) {
  if (!inv.json_out.empty()) {
    write_report_atomically(report, inv.json_out);
    fmt::print(stderr, "wrote {}\n", inv.json_out);
  }
  // The CSV is an output users feed to spreadsheets and scripts: whole or not at all, like the
  // report.
  if (!inv.csv_out.empty()) {
    write_file_atomically(inv.csv_out, render_csv(report), "CSV");
    fmt::print(stderr, "wrote {}\n", inv.csv_out);
  }
}

bool all_passed(const Report& r) {
  for (const CaseResult& c : r.cases)
    if (c.validation != Disposition::passed && c.validation != Disposition::not_supported &&
        c.validation != Disposition::skipped)
      return false;
  return true;
}

int no_gpu_exit() {
  const std::string problem = cuda_device_problem();
  if (problem.empty()) return 0;
  fmt::print(stderr, "rope-kv-bench: error: validate, bench and profile need an NVIDIA GPU: {}\n",
             problem);
  return kExitUsage;
}

}  // namespace rkv
