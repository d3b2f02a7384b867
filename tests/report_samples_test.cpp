// Writes the sample reports (report_samples.h) with the real writer and reads each back. CTest
// runs it once more with RKV_REPORT_SAMPLE_DIR set (tests/CMakeLists.txt) so the schema, history
// and dashboard tests get the files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report_samples.h"
#include "temp_paths.h"

namespace rkv {
namespace {

TEST(ReportSamples, WrittenReportsReadBackUnchanged) {
  const char* dir_env = std::getenv("RKV_REPORT_SAMPLE_DIR");
  const std::string dir = dir_env && *dir_env ? std::string(dir_env) + "/" : per_process_temp_dir();
  for (const testing::NamedReport& s : testing::report_samples()) {
    write_report_atomically(s.report, dir + s.file);
    const Report back = read_report(dir + s.file);
    EXPECT_EQ(back.schema_version, kReportSchemaVersion) << s.file;
    EXPECT_EQ(nlohmann::json(back).dump(), nlohmann::json(s.report).dump()) << s.file;
  }
}

}  // namespace
}  // namespace rkv
