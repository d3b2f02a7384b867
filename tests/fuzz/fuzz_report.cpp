// libFuzzer target: the report reader (`report`, `compare`). Any text is a report or one
// printable line naming the key; a report that reads is rendered, and written and read back
// unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.h"
#include "json/json_text.h"
#include "report/report.h"
#include "report/tables.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rkv;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Report r;
  try {
    const nlohmann::json j = parse_json(text);
    from_json(j, r);
  } catch (const JsonError& e) {
    fuzz_check_one_line(e.what());
    return 0;
  } catch (const ReportFormatError& e) {
    fuzz_check_one_line(e.what());
    return 0;
  }
  const std::string written = report_to_string(r);
  Report back;
  from_json(parse_json(written), back);  // must not throw: what we write, we read
  FUZZ_CHECK(report_to_string(back) == written);
  (void)render_validation_table(r, TableFormat::text);
  (void)render_speedup_tables(r, TableFormat::markdown);
  (void)render_csv(r);
  return 0;
}
