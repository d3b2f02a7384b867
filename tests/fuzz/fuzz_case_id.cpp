// libFuzzer target: case ids (`--case`, report keys). Any text is a case or one printable line;
// a case's id reads back as the same case, and the id is stable (normalized once).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "plan/case_spec.h"
#include "plan/sweep_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rkv;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  const auto c = CaseSpec::parse_id(text, &why);
  if (!c) {
    fuzz_check_one_line(why);
    return 0;
  }
  const std::string id = c->id();
  const auto again = CaseSpec::parse_id(id, &why);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->id() == id);
  if (auto problem = case_problem(*c)) fuzz_check_one_line(*problem);
  (void)c->repro_args();
  return 0;
}
