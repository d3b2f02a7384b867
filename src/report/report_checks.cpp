#include "report/report_checks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "plan/sweep_plan.h"
#include "plan/timing_fields.h"
#include "plan/token_modes.h"
#include "text/lists.h"

namespace rkv {
namespace {

std::string number(double v) {
  return fmt::format("{}", v);
}

void not_negative(const JsonField& j, const char* key, double v) {
  if (v < 0) j.at(key).fail(number(v) + " is negative");
}

void positive(const JsonField& j, const char* key, double v) {
  if (!(v > 0) && !std::isnan(v)) j.at(key).fail(number(v) + " is not positive");
}

// `lower` <= `upper` unless either is NaN (an absent statistic).
void ordered(const JsonField& j, const char* lower_key, double lower, const char* upper_key,
             double upper) {
  if (lower > upper)
    j.at(lower_key).fail(number(lower) + " is above " + upper_key + " " + number(upper));
}

}  // namespace

void check_summary(const JsonField& j, const Summary& s, bool added) {
  not_negative(j, "n", s.n);
  not_negative(j, "stdev_us", s.stdev);
  const std::pair<const char*, double> times[] = {{"min_us", s.min},       {"q1_us", s.q1},
                                                  {"median_us", s.median}, {"q3_us", s.q3},
                                                  {"max_us", s.max},       {"mean_us", s.mean}};
  for (const auto& [key, v] : times)
    if (!added) not_negative(j, key, v);
  ordered(j, "min_us", s.min, "q1_us", s.q1);
  ordered(j, "q1_us", s.q1, "median_us", s.median);
  ordered(j, "median_us", s.median, "q3_us", s.q3);
  ordered(j, "q3_us", s.q3, "max_us", s.max);
}

void check_speedup(const JsonField& j, const SpeedupEstimate& s) {
  positive(j, "median", s.median);
  positive(j, "lo", s.lo);
  positive(j, "hi", s.hi);
  // The interval holds its centre; the pooled median may lie outside it when it is not the
  // centre (a bimodal case: docs/methodology.md).
  const char* centre = std::isfinite(s.center) ? "center" : "median";
  if (std::isfinite(s.center)) positive(j, "center", s.center);
  ordered(j, "lo", s.lo, centre, s.interval_center());
  ordered(j, centre, s.interval_center(), "hi", s.hi);
  if (auto passes = j.find("pass_medians")) {
    const std::vector<JsonField> items = passes->elements();
    for (std::size_t i = 0; i < s.pass_medians.size() && i < items.size(); ++i)
      if (!(s.pass_medians[i] > 0) && !std::isnan(s.pass_medians[i]))
        items[i].fail(number(s.pass_medians[i]) + " is not positive");
  }
}

void check_case(const JsonField& j, const CaseResult& c) {
  if (auto problem = case_problem(c.spec))
    j.at("spec").fail("not a case that can run: " + *problem);
  const std::string spec_id = c.spec.id();
  if (c.id != spec_id)
    j.at("id").fail(quote(c.id) + " disagrees with its spec, whose id is " + quote(spec_id));
  if (!c.mode.empty() && !parse_timing_mode(c.mode))
    j.at("mode").fail("unknown mode " + quote(c.mode) + " (\"\" when not timed, or one of " +
                      join(timing_mode_names()) + ")");
  const JsonField v = j.at("validation");
  not_negative(v, "mismatches", static_cast<double>(c.mismatches));
  not_negative(j, "min_bytes", static_cast<double>(c.min_bytes));
  not_negative(j, "floor_us", c.floor_us);
  not_negative(j, "fused_gbps", c.fused_gbps);
  not_negative(j, "fused_pct_of_bandwidth", c.fused_pct_of_bandwidth);
  const std::vector<JsonField> variants = j.at("variants").elements();
  for (std::size_t i = 0; i < c.variants.size() && i < variants.size(); ++i) {
    const VariantResult& r = c.variants[i];
    not_negative(variants[i], "throttled_samples", r.throttled_samples);
    not_negative(variants[i], "sm_clock_mhz_median", r.sm_clock_mhz_median);
    for (std::size_t k = i + 1; k < c.variants.size(); ++k)
      if (c.variants[k].variant == r.variant)
        variants[k].at("variant").fail(quote(r.variant) + " is timed twice in this case");
  }
}

void check_unique_cases(const JsonField& cases, const std::vector<CaseResult>& read) {
  std::map<std::pair<std::string, std::string>, std::size_t> first;
  const std::vector<JsonField> items = cases.elements();
  for (std::size_t i = 0; i < read.size() && i < items.size(); ++i) {
    const auto [it, fresh] = first.emplace(std::make_pair(read[i].id, read[i].mode), i);
    if (!fresh)
      items[i].fail("repeats " + element_path(cases.path(), it->second) + " (id " +
                    quote(read[i].id) + ", mode " + quote(read[i].mode) + ")");
  }
}

void check_case_modes(const JsonField& cases, const std::vector<CaseResult>& read,
                      const TimingOptions& timing) {
  if (timing.modes_by_tokens.empty()) return;
  const std::vector<JsonField> items = cases.elements();
  for (std::size_t i = 0; i < read.size() && i < items.size(); ++i) {
    if (read[i].mode.empty()) continue;
    const std::vector<TimingMode>& modes = modes_for_tokens(timing, read[i].spec.tokens);
    const auto mode = parse_timing_mode(read[i].mode);
    if (std::find(modes.begin(), modes.end(), *mode) != modes.end()) continue;
    std::string range = "no token range";
    for (const TokenModes& r : timing.modes_by_tokens)
      if (read[i].spec.tokens >= r.min_tokens && read[i].spec.tokens <= r.max_tokens)
        range = "the token range " + token_range_text(r);
    std::vector<std::string> names;
    for (TimingMode m : modes)
      names.push_back(to_string(m));
    items[i].at("mode").fail(quote(read[i].mode) + " is not a mode of " + range + " (" +
                             (names.empty() ? "none" : join(names)) + ")");
  }
}

void check_report_fields(const JsonField& j, const Report& r) {
  // command's enum and the device's sm_count/l2_bytes minimums are check_report_constraints'.
  const JsonField d = j.at("device");
  not_negative(d, "copy_bandwidth_gbps", r.device.copy_bandwidth_gbps);
  for (const JsonField& floor : d.at("launch_floor_us").members())
    if (floor.as_number_or_nan() < 0) floor.fail(number(floor.as_number_or_nan()) + " is negative");
  // The timing settings within the limits the flags and configs have, by the same parser.
  const JsonField timing = j.at("timing");
  for (const TimingFieldInfo& f : timing_fields()) {
    if (!timing.has(f.key)) continue;  // `passes` is absent from older reports
    TimingOptions scratch;
    if (auto err = set_timing_field(scratch, f.field, timing_field_text(r.timing, f.field)))
      timing.at(f.key).fail(*err);
  }
  if (auto problem = timing_problem(r.timing)) timing.fail(*problem);
}

}  // namespace rkv
