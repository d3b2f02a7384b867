// The report keys the timing layer added after schema 1 was fixed: timing.order,
// speedup.interval_method, variants[].output_slots and raw_us, cases[].buffer_addresses,
// device.launch_floor_runs_us. All optional: they round-trip, and reports without them read with
// the old meaning.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report_fixture.h"

namespace rkv {
namespace {

using nlohmann::json;

Report with_sampling_keys() {
  Report r = testing::base_report();
  r.timing.order = SampleOrder::rotating;
  r.device.launch_floor_runs_us = {{"graph", {0.81, 0.74}}};
  CaseResult c = testing::timed_case(DType::bf16, CacheDType::auto_, 8, 128, "graph", 4.0, 2.4);
  c.variants[0].output_slots = {"a", "b", "a"};
  c.variants[0].raw_us = {{2.41, 2.39}, {2.40}, {2.44, 2.38, 2.40}};
  c.speedup->interval_method = "pass_spread";
  // Addresses past 2^53 and with high bits set: a JSON number would round them.
  c.buffer_addresses = {{{"k_cache_a", 0x7f3a00200000ull}, {"qkv_a", 0xfedcba9876543210ull}},
                        {{"k_cache_a", 0x7f3a00400000ull}, {"qkv_a", 0x1ull}}};
  r.cases = {c};
  return r;
}

TEST(ReportSamplingKeys, RoundTrip) {
  const Report r = with_sampling_keys();
  const json j = r;
  const Report back = json::parse(j.dump()).get<Report>();
  EXPECT_EQ(json(back).dump(), j.dump());
  EXPECT_EQ(back.timing.order, SampleOrder::rotating);
  EXPECT_EQ(j.at("timing").at("order"), "rotating");
  EXPECT_EQ(back.device.launch_floor_runs_us.at("graph"), (std::vector<double>{0.81, 0.74}));
  const CaseResult& c = back.cases.at(0);
  EXPECT_EQ(c.speedup->interval_method, "pass_spread");
  EXPECT_EQ(c.variants[0].output_slots, (std::vector<std::string>{"a", "b", "a"}));
  const auto* raw = c.raw_samples_us(Variant::fused);
  ASSERT_NE(raw, nullptr);
  ASSERT_EQ(raw->size(), 3u);
  EXPECT_EQ((*raw)[2], (std::vector<double>{2.44, 2.38, 2.40}));
  EXPECT_EQ(c.raw_samples_us(Variant::pair), nullptr);  // not kept for that variant
  EXPECT_EQ(c.raw_samples_us(Variant::rope), nullptr);  // not timed at all
  ASSERT_EQ(c.buffer_addresses.size(), 2u);
  EXPECT_EQ(c.buffer_addresses[0][1],
            (std::pair<std::string, std::uint64_t>{"qkv_a", 0xfedcba9876543210ull}));
  EXPECT_EQ(j.at("cases")[0].at("buffer_addresses")[1].at("k_cache_a"), "0x7f3a00400000");
}

TEST(ReportSamplingKeys, AbsentKeysReadWithTheirOldMeaning) {
  json j = with_sampling_keys();
  j["timing"].erase("order");
  j["device"].erase("launch_floor_runs_us");
  j["cases"][0]["speedup"].erase("interval_method");
  j["cases"][0]["variants"][0].erase("output_slots");
  j["cases"][0]["variants"][0].erase("raw_us");
  j["cases"][0].erase("buffer_addresses");
  const Report back = j.get<Report>();
  EXPECT_EQ(back.timing.order, SampleOrder::fixed);
  EXPECT_TRUE(back.device.launch_floor_runs_us.empty());
  EXPECT_EQ(back.cases[0].speedup->interval_method, "quartile_hull");
  EXPECT_TRUE(back.cases[0].variants[0].output_slots.empty());
  EXPECT_EQ(back.cases[0].raw_samples_us(Variant::fused), nullptr);
  // Nothing written for them either when empty.
  EXPECT_FALSE(json(back).at("cases")[0].at("variants")[0].contains("raw_us"));
  EXPECT_TRUE(back.cases[0].buffer_addresses.empty());
  EXPECT_FALSE(json(back).at("cases")[0].contains("buffer_addresses"));
}

TEST(ReportSamplingKeys, BadValuesNameTheirKeyPath) {
  const auto message = [](const std::function<void(json&)>& spoil) {
    json j = with_sampling_keys();
    spoil(j);
    try {
      (void)j.get<Report>();
    } catch (const ReportFormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([](json& j) {
              j["cases"][0]["variants"][0]["raw_us"][1][0] = "x";
            }).find("raw_us[1][0]"),
            std::string::npos);
  EXPECT_NE(message([](json& j) {
              j["cases"][0]["variants"][0]["output_slots"][2] = "c";
            }).find("output_slots[2]"),
            std::string::npos);
  EXPECT_NE(message([](json& j) { j["timing"]["order"] = "shuffled"; }).find("order"),
            std::string::npos);
  for (const char* bad : {"7f3a00200000", "0x", "0X7F", "0x7F3A", "0x-1", "0x10000000000000000"})
    EXPECT_NE(message([bad](json& j) {
                j["cases"][0]["buffer_addresses"][1]["qkv_a"] = bad;
              }).find("buffer_addresses[1].qkv_a"),
              std::string::npos)
        << bad;
  EXPECT_NE(message([](json& j) {
              j["cases"][0]["buffer_addresses"][0] = json::array();
            }).find("buffer_addresses[0]"),
            std::string::npos);
}

}  // namespace
}  // namespace rkv
