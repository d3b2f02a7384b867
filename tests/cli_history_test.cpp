// The command line of this wave: --tag and the config hash land in the run request, --version,
// and the history/dashboard commands' flags, each bad value one line and exit 4.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli_words.h"
#include "history/history_store.h"
#include "report/build_info.h"
#include "report/run_metadata.h"

namespace rkv {
namespace {

ParseOutcome parse(const std::vector<std::string>& args) {
  return parse_words(args);
}

void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
  const ParseOutcome out = parse(args);
  EXPECT_FALSE(out.invocation);
  EXPECT_EQ(out.exit_code, kExitUsage);
  EXPECT_NE(out.message.find(needle), std::string::npos) << out.message;
  EXPECT_EQ(out.message.find('\n'), out.message.size() - 1) << out.message;
}

TEST(CliHistory, TagsAndTheConfigHashReachTheRunRequest) {
  const std::string config = std::string(RKV_SOURCE_DIR) + "/configs/ci-smoke.json";
  const ParseOutcome out =
      parse({"bench", "--config", config, "--tag", "ci=nightly", "--tag", "gpu=h200"});
  ASSERT_TRUE(out.invocation) << out.message;
  const RunMetadata& m = out.invocation->run_metadata;
  EXPECT_EQ(m.tags.at("ci"), "nightly");
  EXPECT_EQ(m.tags.at("gpu"), "h200");
  EXPECT_EQ(m.config_path, config);
  EXPECT_EQ(m.config_name, "ci-smoke");
  EXPECT_EQ(m.config_hash, file_fnv1a64(config).value());
  expect_usage_error({"validate", "--tag", "ci"}, "--tag 'ci' is not key=value");
  expect_usage_error({"bench", "--tag", "a=1", "--tag", "a=2"}, "repeats");
}

TEST(CliHistory, VersionPrintsTheOneVersionNumber) {
  const ParseOutcome out = parse({"--version"});
  EXPECT_FALSE(out.invocation);
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.message, version_line() + "\n");
  EXPECT_EQ(out.message.rfind(std::string("rope-kv-bench ") + tool_version(), 0), 0u);
}

TEST(CliHistory, HistoryAndDashboardFlags) {
  const ParseOutcome add = parse({"history", "add", "a.json", "b.json"});
  ASSERT_TRUE(add.invocation) << add.message;
  EXPECT_EQ(add.invocation->command, Command::history);
  EXPECT_EQ(add.invocation->history.db, kDefaultHistoryDb);
  EXPECT_EQ(add.invocation->history.reports, (std::vector<std::string>{"a.json", "b.json"}));
  const ParseOutcome show =
      parse({"history", "show", "--case", "x", "--mode", "cold", "--db", "h"});
  ASSERT_TRUE(show.invocation) << show.message;
  EXPECT_EQ(show.invocation->history.mode, std::optional<std::string>("cold"));
  EXPECT_EQ(show.invocation->history.db, "h");
  const ParseOutcome dash = parse({"dashboard", "--db", "h", "--out", "site"});
  ASSERT_TRUE(dash.invocation) << dash.message;
  EXPECT_EQ(dash.invocation->command, Command::dashboard);
  EXPECT_EQ(dash.invocation->history.out_dir, "site");
  expect_usage_error({"history", "show", "--case", "x", "--mode", "hot"},
                     "--mode: 'hot' is not a timing mode");
  expect_usage_error({"history", "add", "a.json", "--db", ""}, "--db: an empty path");
  expect_usage_error({"history", "export"}, "--json");
  expect_usage_error({"dashboard"}, "--out");
  expect_usage_error({"history"}, "subcommand");
}

}  // namespace
}  // namespace rkv
