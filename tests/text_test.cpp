// The text module: the integer, real, list and range grammars at their edges, and quote().
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "text/lists.h"
#include "text/numbers.h"
#include "text/quote.h"

namespace rkv {
namespace {

using Ints = std::vector<std::int64_t>;

template <class T>
std::string error_of(const Parsed<T>& p) {
  return p ? "(accepted)" : p.error;
}

TEST(ParseInt, DecimalOnlyWithExtremes) {
  EXPECT_EQ(*parse_int("0"), 0);
  EXPECT_EQ(*parse_int("-0"), 0);
  EXPECT_EQ(*parse_int("010"), 10);  // leading zeros are decimal, not octal
  EXPECT_EQ(*parse_int("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(*parse_int("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(*parse_int("-000000000000000000000000009223372036854775808"), INT64_MIN);
  for (const char* bad : {"", "-", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "--1", "1-", "١", "1\n"})
    EXPECT_EQ(error_of(parse_int(bad)), quote(bad) + " is not an integer") << bad;
}

TEST(ParseInt, OverflowAndBounds) {
  EXPECT_EQ(error_of(parse_int("9223372036854775808")),
            "'9223372036854775808' does not fit in 64 bits");
  EXPECT_EQ(error_of(parse_int("-9223372036854775809")),
            "'-9223372036854775809' does not fit in 64 bits");
  EXPECT_EQ(error_of(parse_int("18446744073709551616")),  // wraps to 0 if unchecked
            "'18446744073709551616' does not fit in 64 bits");
  EXPECT_EQ(error_of(parse_int("99999999999999999999999", 0, 10)),
            "'99999999999999999999999' is out of range [0, 10]");
  EXPECT_EQ(error_of(parse_int("11", 0, 10)), "'11' is out of range [0, 10]");
  EXPECT_EQ(error_of(parse_int("-1", 0, 10)), "'-1' is out of range [0, 10]");
  EXPECT_EQ(*parse_int("10", 0, 10), 10);
  EXPECT_EQ(*parse_int("0", 0, 10), 0);
}

TEST(ParseUint, DigitsOnly) {
  EXPECT_EQ(*parse_uint("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(error_of(parse_uint("18446744073709551616")),
            "'18446744073709551616' is out of range [0, 18446744073709551615]");
  EXPECT_EQ(error_of(parse_uint("-1")), "'-1' is not an unsigned integer");
  EXPECT_EQ(error_of(parse_uint("+1")), "'+1' is not an unsigned integer");
  EXPECT_EQ(error_of(parse_uint("")), "'' is not an unsigned integer");
  EXPECT_EQ(error_of(parse_uint("8", 7)), "'8' is out of range [0, 7]");
}

TEST(ParseReal, PlainFormsOnly) {
  EXPECT_DOUBLE_EQ(*parse_real("0.5", 0, 1), 0.5);
  EXPECT_DOUBLE_EQ(*parse_real(".5", 0, 1), 0.5);
  EXPECT_DOUBLE_EQ(*parse_real("5.", 0, 10), 5.0);
  EXPECT_DOUBLE_EQ(*parse_real("-2.5e-1", -1, 1), -0.25);
  EXPECT_DOUBLE_EQ(*parse_real("1E+2", 0, 1000), 100.0);
  EXPECT_DOUBLE_EQ(*parse_real("7", 0, 10), 7.0);
  for (const char* bad :
       {"",      ".",   "-",    "e5",  "1e",  "1e+",      "+1",  " 1",   "1 ",    "0x10",
        "0x1p3", "inf", "-inf", "nan", "NaN", "infinity", "1,5", "1..2", "1e5.5", "--1"})
    EXPECT_EQ(error_of(parse_real(bad, -1e300, 1e300)), quote(bad) + " is not a number") << bad;
}

TEST(ParseReal, RangeAndRepresentability) {
  EXPECT_EQ(error_of(parse_real("1e400", 0, 100)),
            "'1e400' is out of range [0, 100] (too large or too small for a double)");
  EXPECT_EQ(error_of(parse_real("1e-400", 0, 100)),
            "'1e-400' is out of range [0, 100] (too large or too small for a double)");
  EXPECT_EQ(error_of(parse_real("0", 0, 3600, LowBound::open)), "'0' is out of range (0, 3600]");
  EXPECT_DOUBLE_EQ(*parse_real("0", 0, 3600), 0.0);
  EXPECT_EQ(error_of(parse_real("100.5", 0, 100)), "'100.5' is out of range [0, 100]");
  EXPECT_EQ(error_of(parse_real("-1", 0, 1e6)), "'-1' is out of range [0, 1e+06]");
}

TEST(Lists, SplitKeepsEmptyItemsAndParseListRefusesThem) {
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(split("", ','), (std::vector<std::string>{""}));
  EXPECT_EQ(split("a:", ':'), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(*parse_list("bf16,fp16"), (std::vector<std::string>{"bf16", "fp16"}));
  EXPECT_EQ(*parse_list(" a , b"), (std::vector<std::string>{" a ", " b"}));  // no trimming
  for (const char* bad : {"", ",", "a,", ",a", "a,,b"})
    EXPECT_EQ(error_of(parse_list(bad)), quote(bad) + " has an empty value") << bad;
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({}, "|"), "");
}

Ints range(const std::string& text) {
  const auto r = parse_int_range(text);
  EXPECT_TRUE(r) << text << ": " << r.error;
  return r ? *r : Ints{};
}

std::string range_error(const std::string& text) {
  return error_of(parse_int_range(text));
}

TEST(IntRange, SingleValuesAndSteppedRanges) {
  EXPECT_EQ(range("7"), (Ints{7}));
  EXPECT_EQ(range("-3"), (Ints{-3}));  // the axis, not the range syntax, rejects negatives
  EXPECT_EQ(range("1:9:2"), (Ints{1, 3, 5, 7, 9}));
  EXPECT_EQ(range("1:10:4"), (Ints{1, 5, 9}));  // the end is included only when hit
  EXPECT_EQ(range("3:5"), (Ints{3, 4, 5}));
  EXPECT_EQ(range("4:4:8"), (Ints{4}));
  EXPECT_EQ(range("-9223372036854775808:9223372036854775807:9223372036854775807"),
            (Ints{INT64_MIN, -1, INT64_MAX - 1}));
}

TEST(IntRange, PowersOfTwo) {
  EXPECT_EQ(range("pow2:1:16"), (Ints{1, 2, 4, 8, 16}));
  EXPECT_EQ(range("pow2:3:20"), (Ints{4, 8, 16}));
  EXPECT_EQ(range("pow2:16:1024"), (Ints{16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(range("pow2:512:16384"), (Ints{512, 1024, 2048, 4096, 8192, 16384}));
  EXPECT_EQ(range("pow2:4611686018427387904:9223372036854775807"), (Ints{4611686018427387904}));
  EXPECT_EQ(range("pow2:-5:1").size(), 1u);
  EXPECT_EQ(range("pow2:0:9223372036854775807").size(), 63u);  // every power of two there is
}

TEST(IntRange, BadRangesSayWhy) {
  EXPECT_EQ(range_error("5:1"), "'5:1' is not a range: start 5 is after end 1");
  EXPECT_EQ(range_error("pow2:3:1"), "'pow2:3:1' is not a range: start 3 is after end 1");
  EXPECT_EQ(range_error("a:b"), "'a:b' is not a range (expected N, a:b, a:b:step or pow2:a:b)");
  EXPECT_EQ(range_error("x"), "'x' is not an integer (expected N, a:b, a:b:step or pow2:a:b)");
  EXPECT_EQ(range_error("1:9:0"), "'1:9:0': the step must be positive");
  EXPECT_EQ(range_error("1:9:-2"), "'1:9:-2': the step must be positive");
  EXPECT_EQ(range_error("pow2:5:7"), "'pow2:5:7' contains no power of two");
  EXPECT_EQ(range_error("99999999999999999999"), "'99999999999999999999' does not fit in 64 bits");
  for (const char* bad : {"", "1.5", "1:2:3:4", "pow2:1", "pow2:1:2:3", "1:", ":5", "1e3", " 1",
                          "+1", "0x10", "1:99999999999999999999", "pow2::4", "1::2"})
    EXPECT_NE(range_error(bad).find("is not"), std::string::npos) << bad;
}

TEST(IntRange, ValueCountIsBounded) {
  EXPECT_EQ(range_error("1:100000"), "'1:100000' has 100000 values, more than 4096");
  EXPECT_EQ(range_error("-9223372036854775808:9223372036854775807"),
            "'-9223372036854775808:9223372036854775807' has 18446744073709551616 values, more "
            "than 4096");
  EXPECT_EQ(range_error("0:9223372036854775807"),
            "'0:9223372036854775807' has 9223372036854775808 values, more than 4096");
  EXPECT_EQ(range("1:" + std::to_string(kMaxRangeValues)).size(), kMaxRangeValues);  // allowed
  EXPECT_EQ(range("0:8190:2").size(), kMaxRangeValues);
  EXPECT_FALSE(parse_int_range("0:8192:2"));
}

TEST(Quote, EscapesControlCharactersAndNul) {
  EXPECT_EQ(quote("bf16"), "'bf16'");
  EXPECT_EQ(quote(""), "''");
  EXPECT_EQ(quote("a\nb\rc\td"), "'a\\nb\\rc\\td'");
  EXPECT_EQ(quote(std::string("a\0b", 3)), "'a\\0b'");
  EXPECT_EQ(quote("\x1b[31mred"), "'\\x1B[31mred'");  // a terminal escape stays visible
  EXPECT_EQ(quote("\x7f"), "'\\x7F'");
  EXPECT_EQ(quote("it's \\"), "'it's \\'");  // quotes and backslashes are kept
}

TEST(Quote, Utf8KeptInvalidBytesAndC1Escaped) {
  EXPECT_EQ(quote("h\xc3\xa9llo \xe2\x9c\x93"), "'h\xc3\xa9llo \xe2\x9c\x93'");
  EXPECT_EQ(quote("\xff"), "'\\xFF'");
  EXPECT_EQ(quote("\xc3"), "'\\xC3'");                    // truncated sequence
  EXPECT_EQ(quote("\xc0\xaf"), "'\\xC0\\xAF'");           // overlong '/'
  EXPECT_EQ(quote("\xed\xa0\x80"), "'\\xED\\xA0\\x80'");  // a UTF-16 surrogate
  EXPECT_EQ(quote("\xc2\x85"), "'\\u0085'");              // NEL, a C1 control
}

TEST(Quote, LongValuesAreCut) {
  const std::string long_value(200, 'x');
  const std::string q = quote(long_value);
  EXPECT_EQ(q, "'" + std::string(kQuoteMaxChars, 'x') + "'... (200 bytes)");
  EXPECT_EQ(quote(std::string(kQuoteMaxChars, 'y')), "'" + std::string(kQuoteMaxChars, 'y') + "'");
  EXPECT_EQ(quote("abcdef", 3), "'abc'... (6 bytes)");
  // Cut between characters, never inside one.
  EXPECT_EQ(quote("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "'\xc3\xa9\xc3\xa9'... (6 bytes)");
  // Escapes count as one character each.
  EXPECT_EQ(quote(std::string(10, '\n'), 2), "'\\n\\n'... (10 bytes)");
}

TEST(Quote, EveryByteGivesOnePrintableLine) {
  std::string all;
  for (int b = 0; b < 256; ++b)
    all += static_cast<char>(b);
  for (const std::string& s : {quote(all, all.size()), one_line(all)}) {
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u != 0x7f) << static_cast<int>(u);
    }
  }
}

TEST(OneLine, JoinsLinesAndTrims) {
  EXPECT_EQ(one_line("first\nsecond\r\nthird\n\n  "), "first second  third");
  EXPECT_EQ(one_line("tab\there"), "tab here");
  EXPECT_EQ(one_line(std::string("nul\0x", 5)), "nul\\0x");
  EXPECT_EQ(one_line(""), "");
}

}  // namespace
}  // namespace rkv
