#include "report/report_constraints.h"

#include <string>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "text/quote.h"

namespace rkv {
namespace {

[[noreturn]] void fail(const std::string& line) {
  throw ReportFormatError(line);
}

void at_least(const std::string& where, long long value, long long minimum) {
  if (value < minimum)
    fail(where + ": " + std::to_string(value) + " is below the minimum " + std::to_string(minimum));
}

void one_of(const std::string& where, const std::string& value,
            std::initializer_list<const char*> allowed) {
  std::string names;
  for (const char* a : allowed) {
    if (value == a) return;
    names += std::string(names.empty() ? "" : ", ") + (*a ? a : "\"\"");
  }
  fail(where + ": unknown value " + quote(value) + " (one of " + names + ")");
}

// The case-level minimums and the mode enum are check_case's and check_summary's
// (report_checks.h), which run as each case is read; only what they leave is here.
void check_case(const std::string& where, const CaseResult& c) {
  for (std::size_t k = 0; k < c.variants.size(); ++k)
    one_of(where + ".variants[" + std::to_string(k) + "].variant", c.variants[k].variant,
           {"fused", "pair", "rope", "cache_write"});
}

}  // namespace

void check_report_constraints(const nlohmann::json& j, const Report& r) {
  // quote(), not dump(): dump() leaves DEL and invalid UTF-8 as they are (found by fuzz_report).
  if (j.contains("tool") && j["tool"] != "rope-kv-bench") {
    const nlohmann::json& tool = j["tool"];
    fail("tool: " + quote(tool.is_string() ? tool.get<std::string>() : tool.dump()) +
         " is not 'rope-kv-bench'");
  }
  one_of("command", r.command, {"bench", "validate"});
  const nlohmann::json& device = j.at("device");
  if (device.contains("fingerprint") && !device["fingerprint"].is_string())
    fail(std::string("device.fingerprint: expected a string, got ") +
         device["fingerprint"].type_name());
  at_least("device.sm_count", r.device.sm_count, 0);
  at_least("device.l2_bytes", r.device.l2_bytes, 0);
  at_least("timing.passes", r.timing.passes, 1);
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const std::string where = "cases[" + std::to_string(i) + "]";
    check_case(where, r.cases[i]);
    // rel_noise is derived and not read back, but the schema still types it.
    const nlohmann::json& variants = j.at("cases")[i].at("variants");
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const auto it = variants[k].find("rel_noise");
      if (it != variants[k].end() && !it->is_number() && !it->is_null())
        fail(where + ".variants[" + std::to_string(k) +
             "].rel_noise: expected a number or null, got " + it->type_name());
    }
  }
}

}  // namespace rkv
