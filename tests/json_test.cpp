// The JSON layer: parse errors with line and column, value errors with key paths, and never a
// word of nlohmann's own messages.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "json/json_field.h"
#include "json/json_text.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using nlohmann::json;

std::string parse_error(const std::string& text) {
  try {
    (void)parse_json(text);
  } catch (const JsonError& e) {
    return e.what();
  }
  return "(parsed)";
}

// Asserts what every message of the layer must be: one printable line, none of nlohmann's text.
void expect_own_line(const std::string& message) {
  EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
  EXPECT_EQ(message.find("[json"), std::string::npos) << message;
  EXPECT_EQ(message.find("parse_error"), std::string::npos) << message;
  EXPECT_EQ(message.find("syntax error while parsing"), std::string::npos) << message;
  for (char c : message)
    EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) << message;
}

TEST(ParseJson, BuildsTheSameValueAsNlohmann) {
  const std::string text =
      R"({"a": [1, -2, 3.5, "x", true, null, {"b": []}], "c": {"d": {"e": 18446744073709551615}},
          "f": -9223372036854775808, "g": "\u00e9\n"})";
  EXPECT_EQ(parse_json(text), json::parse(text));
  EXPECT_EQ(parse_json("  7 "), json(7));
  EXPECT_EQ(parse_json("[[[]],[[1]]]"), json::parse("[[[]],[[1]]]"));
}

TEST(ParseJson, SyntaxErrorsGiveLineAndColumn) {
  const std::string trailing_comma = "{\n  \"axes\": {\n    \"dtype\": [\"bf16\",]\n  }\n}\n";
  EXPECT_EQ(parse_error(trailing_comma),
            "not valid JSON at line 3, column 22: syntax error at ']' (in axes.dtype)");
  EXPECT_EQ(parse_error("{\"schema_version\": 1,"),
            "not valid JSON: the text ends before the value does");
  EXPECT_EQ(parse_error(""), "not valid JSON: the text ends before the value does");
  EXPECT_EQ(parse_error("[1] x"), "not valid JSON at line 1, column 5: syntax error at 'x'");
  EXPECT_EQ(parse_error("{\"a\": [{\"b\": tru}]}"),
            "not valid JSON at line 1, column 17: syntax error at '}' (in a[0])");
  for (const std::string& bad :
       {trailing_comma, std::string("{\"a\": \"x\x01y\"}"), std::string("\xff"),
        std::string("{\"a\": \"\\ud800\"}"), std::string("{'a': 1}"), std::string("[1,]"),
        std::string("{\"a\" 1}"), std::string("[\"\n\"]"), std::string("nan"),
        std::string("[0x10]"), std::string("[+1]"), std::string("[01]")}) {
    const std::string e = parse_error(bad);
    EXPECT_EQ(e.rfind("not valid JSON", 0), 0u) << e;
    expect_own_line(e);
  }
  EXPECT_EQ(parse_error("{\"a\": \"x\x01y\"}"),
            "not valid JSON at line 1, column 9: syntax error at '\\x01'");
}

TEST(ParseJson, NumbersPastTheirTypesAreErrorsWithThePath) {
  EXPECT_EQ(parse_error(R"({"a": {"b": [1, 1e400]}})"), "a.b[1]: number '1e400' is out of range");
  EXPECT_EQ(parse_error("-1e400"), "number '-1e400' is out of range");
  EXPECT_EQ(parse_error(R"({"seed": 99999999999999999999})"),
            "seed: number '99999999999999999999' does not fit in 64 bits");
  EXPECT_EQ(parse_error(R"([-9223372036854775809])"),
            "[0]: number '-9223372036854775809' does not fit in 64 bits");
  EXPECT_EQ(parse_json("[1e-400]")[0].get<double>(), 0.0);  // underflow rounds, as JSON allows
}

TEST(ParseJson, DuplicateKeysAreErrors) {
  EXPECT_EQ(parse_error(R"({"axes": {"tokens": [1], "tokens": [2]}})"),
            "axes: duplicate key 'tokens'");
  EXPECT_EQ(parse_error(R"({"a": 1, "a": 1})"), "duplicate key 'a'");
  EXPECT_EQ(parse_json(R"([{"a": 1}, {"a": 2}])").size(), 2u);  // the same key in two objects
}

TEST(ReadJsonFile, FileProblemsAreOneLine) {
  auto error = [](const std::string& path) -> std::string {
    try {
      (void)read_json_file(path);
    } catch (const JsonError& e) {
      return e.what();
    }
    return "(read)";
  };
  EXPECT_EQ(error("/nonexistent/x.json"), "no such file");
  const std::string dir = per_process_temp_dir() + "json_dir";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(error(dir), "is a directory, not a JSON file");
  const std::string file = dir + "/x.json";
  std::ofstream(file) << "{\"k\": [1, 2]}";
  EXPECT_EQ(read_json_file(file), json::parse("{\"k\": [1, 2]}"));
  std::filesystem::remove_all(dir);
}

std::string field_error(const std::function<void()>& read) {
  try {
    read();
  } catch (const JsonError& e) {
    expect_own_line(e.what());
    return e.what();
  }
  return "(read)";
}

TEST(JsonField, PathsFollowKeysAndIndices) {
  const json j = json::parse(R"({"cases": [{}, {}, {"spec": {"dtype": "bf17", "n": "x"}}]})");
  const JsonField root(j);
  const JsonField spec = root.at("cases").elements()[2].at("spec");
  EXPECT_EQ(spec.path(), "cases[2].spec");
  EXPECT_EQ(spec.at("dtype").path(), "cases[2].spec.dtype");
  EXPECT_EQ(field_error([&] {
              (void)spec.at("dtype").as_enum([](const std::string& s) {
                return s == "bf16" ? std::optional<int>(1) : std::nullopt;
              });
            }),
            "cases[2].spec.dtype: unknown value 'bf17'");
  EXPECT_EQ(field_error([&] { (void)spec.at("missing"); }), "cases[2].spec: missing key 'missing'");
  EXPECT_EQ(field_error([&] { (void)spec.at("n").as_int(); }),
            "cases[2].spec.n: expected an integer, got a string");
  EXPECT_EQ(field_error([&] { (void)root.at("cases").at("x"); }),
            "cases: expected an object, got an array");
  EXPECT_EQ(field_error([&] { (void)root.elements(); }), "expected an array, got an object");
  const json odd = json::parse(R"({"launch floor": {"a.b": "x"}})");
  const JsonField odd_key = JsonField(odd).at("launch floor").at("a.b");
  EXPECT_EQ(odd_key.path(), "['launch floor']['a.b']");
  const json control = json::parse("{\"a\\nb\": 1}");
  EXPECT_EQ(field_error([&] { JsonField(control).check_keys({"a"}); }),
            "unknown key 'a\\nb' at the top level (expected one of a)");
  EXPECT_EQ(JsonField(control).members()[0].path(), "['a\\nb']");
}

TEST(JsonField, TypedReadsCheckTypeAndRange) {
  const json j = json::parse(R"({"i": 5, "neg": -3, "big": 18446744073709551615, "f": 7.5,
      "s": "x", "b": true, "z": null, "arr": [1], "obj": {}})");
  const JsonField r(j);
  EXPECT_EQ(r.at("i").as_int(0, 10), 5);
  EXPECT_EQ(r.at("i").as_int32(), 5);
  EXPECT_EQ(r.at("neg").as_int(), -3);
  EXPECT_EQ(r.at("big").as_uint(), UINT64_MAX);
  EXPECT_DOUBLE_EQ(r.at("f").as_number(), 7.5);
  EXPECT_DOUBLE_EQ(r.at("i").as_number(), 5.0);
  EXPECT_TRUE(std::isnan(r.at("z").as_number_or_nan()));
  EXPECT_EQ(r.at("f").number_text(), "7.5");
  EXPECT_TRUE(r.at("b").as_bool());
  EXPECT_EQ(r.at("s").as_string(), "x");
  EXPECT_EQ(field_error([&] { (void)r.at("i").as_int(6, 10); }), "i: 5 is out of range [6, 10]");
  EXPECT_EQ(field_error([&] { (void)r.at("big").as_int(); }),
            "big: 18446744073709551615 is out of range [-9223372036854775808, "
            "9223372036854775807]");
  EXPECT_EQ(field_error([&] { (void)r.at("neg").as_uint(); }),
            "neg: expected a non-negative integer, got -3");
  EXPECT_EQ(field_error([&] { (void)r.at("f").as_int(); }),
            "f: expected an integer, got a fractional number 7.5");
  EXPECT_EQ(field_error([&] { (void)r.at("s").as_number(); }),
            "s: expected a number, got a string");
  EXPECT_EQ(field_error([&] { (void)r.at("z").as_string(); }), "z: expected a string, got null");
  EXPECT_EQ(field_error([&] { (void)r.at("arr").as_bool(); }),
            "arr: expected true or false, got an array");
  EXPECT_EQ(field_error([&] { (void)r.at("obj").as_int32(); }),
            "obj: expected an integer, got an object");
  EXPECT_EQ(field_error([&] { (void)r.at("b").as_string(); }),
            "b: expected a string, got a boolean");
  EXPECT_FALSE(r.find("nope").has_value());
  EXPECT_TRUE(r.has("arr"));
  EXPECT_EQ(r.members().size(), 9u);
}

}  // namespace
}  // namespace rkv
