// docs/errors.md is a table of every kind of bad input the tools handle. Each row with a command
// is a test here: the command is run (from the repository root, $T being a scratch folder of
// fixtures built below) and must exit with the row's code, print nothing to stdout, and print
// exactly the row's message to stderr as one line (a message ending in "..." is a prefix; one
// starting "stdout: " is compare's verdict, the first line on stdout, with stderr empty). Rows
// backed by a unit test instead name it, and that test must exist. So the table cannot drift
// from what the tools say.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "history/history_schema.h"
#include "temp_paths.h"

#ifndef RKV_CLI_PATH
#error "RKV_CLI_PATH must name the rope-kv-bench executable (CMake defines it)"
#endif
#ifndef RKV_GBENCH_PATH
#error "RKV_GBENCH_PATH must name the rope-kv-gbench executable (CMake defines it)"
#endif

namespace rkv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Row {
  std::string id, command, message, test;
  int exit_code = -1;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// `x` or ``x`` as Markdown writes code; `\|` is a '|' inside a table cell.
std::string code(std::string cell) {
  cell = trim(cell);
  for (const std::string fence : {"`` ", "`"}) {
    const std::string close = fence == "`` " ? " ``" : "`";
    if (cell.size() >= fence.size() + close.size() && cell.rfind(fence, 0) == 0 &&
        cell.compare(cell.size() - close.size(), close.size(), close) == 0)
      return cell.substr(fence.size(), cell.size() - fence.size() - close.size());
  }
  return cell;
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 1; i < line.size(); ++i) {  // line[0] is the leading '|'
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cur += '|';
      ++i;
    } else if (line[i] == '|') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return out;
}

std::vector<Row> table_rows() {
  std::vector<Row> rows;
  std::ifstream doc(std::string(RKV_SOURCE_DIR) + "/docs/errors.md");
  std::string line;
  while (std::getline(doc, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    const std::vector<std::string> c = cells(line);
    if (c.size() != 6) continue;
    Row r;
    r.id = trim(c[0]);
    if (r.id.empty() ||
        r.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      continue;  // the header
    r.command = code(c[2]);
    const std::string exit_text = trim(c[3]);
    r.exit_code = exit_text.empty() ? -1 : std::atoi(exit_text.c_str());
    r.message = code(c[4]);
    r.test = code(c[5]);
    rows.push_back(r);
  }
  return rows;
}

std::vector<Row> command_rows() {
  std::vector<Row> out;
  for (const Row& r : table_rows())
    if (r.command != "-") out.push_back(r);
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// ---- the fixtures the rows name as $T/<name>

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

void build_fixtures(const std::string& t) {
  fs::remove_all(t);
  fs::create_directories(t);
  ::mkfifo((t + "/fifo").c_str(), 0600);
  write(t + "/file", "not a folder");
  fs::create_symlink(t + "/file", t + "/link.json");
  write(t + "/notjson.json", "{ axes: }");
  write(t + "/config-unknown-key.json", R"({"axes": {"dtyp": ["bf16"]}})");
  write(t + "/config-duplicate-key.json", R"({"axes": {"tokens": [1], "tokens": [2]}})");
  write(t + "/config-overflow.json", R"({"axes": {"tokens": [1e400]}})");
  write(t + "/config-bad-value.json", R"({"axes": {"dtype": ["bf16", "bf17"]}})");
  write(t + "/config-wrong-type.json", R"({"timing": {"min_samples": "ten"}})");
  write(t + "/config-huge.json", R"({"axes": {"tokens": "1:4096", "seed": "0:4095"}})");
  write(t + "/config-top-array.json", "[1, 2]");
  write(t + "/config-timing.json", R"({"timing": {"min_time_s": 5, "timeout_s": 1}})");
  write(t + "/config-modes-uncovered.json",
        R"({"axes": {"tokens": [1, 4096]}, "timing": {"modes_by_tokens": [)"
        R"({"max_tokens": 1024, "modes": ["graph"]}, {"min_tokens": 8192, "modes": ["cold"]}]}})");
  write(t + "/config-modes-overlap.json",
        R"({"timing": {"modes_by_tokens": [{"max_tokens": 1024, "modes": ["graph"]}, )"
        R"({"min_tokens": 512, "modes": ["cold"]}]}})");
  write(t + "/config-modes-both.json",
        R"({"timing": {"modes": ["graph"], "modes_by_tokens": [{"modes": ["cold"]}]}})");

  std::ifstream seed(std::string(RKV_SOURCE_DIR) + "/results/h200/seed-table.json");
  const json good = json::parse(seed);
  auto report = [&](const std::string& name, const std::function<void(json&)>& spoil) {
    json j = good;
    spoil(j);
    write(t + "/" + name + ".json", j.dump(1));
  };
  report("report-id-vs-spec", [](json& j) { j["cases"][0]["spec"]["tokens"] = 2; });
  report("report-negative-n", [](json& j) { j["cases"][0]["variants"][0]["n"] = -5; });
  report("report-quartiles", [](json& j) { j["cases"][0]["variants"][0]["q1_us"] = 99.0; });
  report("report-lo-hi", [](json& j) { j["cases"][0]["speedup"]["lo"] = 5.0; });
  report("report-negative-speedup", [](json& j) { j["cases"][0]["speedup"]["median"] = -1.9; });
  report("report-unknown-mode", [](json& j) { j["cases"][0]["mode"] = "turbo"; });
  report("report-duplicate", [](json& j) { j["cases"][1] = j["cases"][0]; });
  report("report-impossible-heads", [](json& j) { j["cases"][0]["spec"]["heads"] = "32x5x128"; });
  report("report-negative-tokens", [](json& j) { j["cases"][0]["spec"]["tokens"] = -1; });
  report("report-negative-throttled",
         [](json& j) { j["cases"][0]["variants"][1]["throttled_samples"] = -1; });
  report("report-negative-mismatches",
         [](json& j) { j["cases"][0]["validation"]["mismatches"] = -7; });
  report("report-missing-key", [](json& j) { j["cases"][0]["variants"][0].erase("median_us"); });
  report("report-wrong-type", [](json& j) { j["device"]["sm_count"] = "many"; });
  report("report-schema-v3", [](json& j) { j["schema_version"] = 3; });
  report("report-unknown-command", [](json& j) { j["command"] = "profile"; });
  report("report-other-device", [](json& j) { j["device"]["name"] = "NVIDIA A100-SXM4-80GB"; });
  report("report-bad-disposition",
         [](json& j) { j["cases"][0]["validation"]["disposition"] = "ok"; });
  write(t + "/report-not-ours.json", R"({"benchmarks": []})");
  // Shard reports for merge: the seed table as shard 1 of 2, and shards 2 that do not fit it.
  std::ifstream run1(std::string(RKV_SOURCE_DIR) + "/results/h200/wave2/seed-table-run1.json");
  const json v2 = json::parse(run1);  // schema version 2: it has `run`
  auto shard = [&](const std::string& name, int k, const std::function<void(json&)>& spoil) {
    json j = v2;
    j["run"]["shard"] = {{"indices", {k}}, {"count", 2}, {"planned_cases", 64}};
    spoil(j);
    write(t + "/" + name + ".json", j.dump(1));
  };
  shard("shard-1-of-2", 1, [](json&) {});
  shard("shard-2-same-cases", 2, [](json&) {});
  shard("shard-2-other-revision", 2, [](json& j) {
    j["git_revision"] = "0000000";
    j["cases"] = json::array();
  });
  write(t + "/report-overflow.json",
        replace_all(good.dump(1), "\"min_bytes\": 57616,", "\"min_bytes\": 1e400,"));
  // Histories by their header alone: ours (application_id), of a format that is not 1 to current.
  for (const auto& [name, version] :
       {std::pair<std::string, int>{"history-format-0", 0}, {"history-format-99", 99}}) {
    SqliteConnection db(t + "/" + name + ".sqlite", true);
    db.exec("PRAGMA application_id=" + std::to_string(kHistoryApplicationId));
    db.exec("PRAGMA user_version=" + std::to_string(version));
  }
}

std::string fixture_dir() {
  return per_process_temp_dir() + "errors";
}

class ErrorRow : public ::testing::TestWithParam<Row> {
 protected:
  static void SetUpTestSuite() { build_fixtures(fixture_dir()); }
};

TEST_P(ErrorRow, ExitAndMessage) {
  const Row& row = GetParam();
  ASSERT_EQ(row.test, "ErrorRow/" + row.id) << "the Test cell of a command row names its test";
  const std::string t = fixture_dir();
  std::string program, args = row.command;
  for (const auto& [name, path] :
       {std::pair<std::string, std::string>{"rope-kv-bench", RKV_CLI_PATH},
        {"rope-kv-gbench", RKV_GBENCH_PATH}})
    if (args.rfind(name + " ", 0) == 0 || args == name) {
      program = path;
      args = args.substr(name.size());
    }
  ASSERT_FALSE(program.empty()) << "a command starts with rope-kv-bench or rope-kv-gbench";
  args = replace_all(args, "$T", t);
  const std::string out = t + "/" + row.id + ".out", err = t + "/" + row.id + ".err";
  const bool own_stdout = args.find(" > ") != std::string::npos;
  const std::string cmd = std::string("cd '") + RKV_SOURCE_DIR + "' && '" + program + "'" + args +
                          (own_stdout ? "" : " >'" + out + "'") + " 2>'" + err + "'";
  const int status = std::system(cmd.c_str());
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::string got = slurp(err);
  std::string want = replace_all(row.message, "$T", t);
  EXPECT_EQ(exit_code, row.exit_code) << row.command << "\n" << got;
  // compare's refusals are verdicts: the first line of its report on stdout (the JSON and
  // Markdown outputs carry them too), stderr stays empty.
  const std::string on_stdout = "stdout: ";
  const bool verdict = want.rfind(on_stdout, 0) == 0 && !own_stdout;
  if (verdict) {
    EXPECT_EQ(got, "") << "a verdict is not an error line";
    const std::string printed = slurp(out);
    got = printed.substr(0, printed.find('\n') + 1);
    want = want.substr(on_stdout.size());
  }
  if (want.size() > 3 && want.compare(want.size() - 3, 3, "...") == 0) {
    EXPECT_EQ(got.substr(0, want.size() - 3), want.substr(0, want.size() - 3));
  } else {
    EXPECT_EQ(got, want + "\n");
  }
  if (!own_stdout && !verdict) {
    EXPECT_EQ(slurp(out), "") << "errors go to stderr only";
  }
  if (const char* actual = std::getenv("RKV_ERRORS_ACTUAL")) {  // for refreshing the table
    std::ofstream(actual, std::ios::app)
        << row.id << "\t" << exit_code << "\t" << replace_all(got, t, "$T");
  }
}

INSTANTIATE_TEST_SUITE_P(DocsErrorTable, ErrorRow, ::testing::ValuesIn(command_rows()),
                         [](const ::testing::TestParamInfo<Row>& info) { return info.param.id; });

TEST(DocsErrorTable, HasSixtyRowsEachBackedByATestThatExists) {
  const std::vector<Row> rows = table_rows();
  EXPECT_GE(rows.size(), 60u);
  const ::testing::UnitTest& all = *::testing::UnitTest::GetInstance();
  for (const Row& r : rows) {
    if (r.command != "-") continue;
    bool found = false;
    for (int s = 0; s < all.total_test_suite_count(); ++s) {
      const ::testing::TestSuite& suite = *all.GetTestSuite(s);
      for (int k = 0; k < suite.total_test_count(); ++k)
        found = found || r.test == std::string(suite.name()) + "." + suite.GetTestInfo(k)->name();
    }
    EXPECT_TRUE(found) << r.id << " names " << r.test << ", which is not a test";
  }
}

}  // namespace
}  // namespace rkv
