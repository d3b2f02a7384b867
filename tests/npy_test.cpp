// write_npy (npy.h) against the NPY 1.0 format as numpy.load reads it: magic and version, a
// little-endian header length that makes the data start on a 64-byte boundary, a dict header
// ending in a newline, then the raw bytes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "validate/npy.h"

#include "temp_paths.h"

namespace rkv {
namespace {

std::vector<unsigned char> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

struct NpyFile {
  std::string header;  // the dict text and its padding, newline included
  std::vector<unsigned char> data;
};

// Parses the fixed part and checks it on the way.
NpyFile parse(const std::vector<unsigned char>& bytes) {
  NpyFile out;
  EXPECT_GE(bytes.size(), 10u);
  if (bytes.size() < 10) return out;
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(bytes[i], magic[i]) << "magic/version byte " << i;
  const std::size_t len = bytes[8] | (static_cast<std::size_t>(bytes[9]) << 8);
  EXPECT_EQ((10 + len) % 64, 0u) << "data must start on a 64-byte boundary";
  EXPECT_LE(10 + len, bytes.size());
  if (10 + len > bytes.size()) return out;
  out.header.assign(bytes.begin() + 10, bytes.begin() + 10 + static_cast<std::ptrdiff_t>(len));
  out.data.assign(bytes.begin() + 10 + static_cast<std::ptrdiff_t>(len), bytes.end());
  return out;
}

std::string temp_path(const std::string& name) {
  return per_process_temp_dir() + "rkv_npy_test_" + name + ".npy";
}

// The dict as written, without the space padding and the final newline.
std::string dict_of(const std::string& header) {
  EXPECT_FALSE(header.empty());
  if (header.empty()) return "";
  EXPECT_EQ(header.back(), '\n');
  const std::size_t end = header.find_last_not_of(" \n");
  return header.substr(0, end + 1);
}

TEST(Npy, TwoDimensionalFloat) {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  const std::string path = temp_path("2d");
  write_npy(path, "<f4", {2, 3}, v.data(), 24);
  const NpyFile f = parse(read_all(path));
  // numpy.load reads the dict with ast.literal_eval: "(2,3)" and "(2, 3)" are the same tuple.
  EXPECT_EQ(dict_of(f.header), "{'descr': '<f4', 'fortran_order': False, 'shape': (2,3), }");
  ASSERT_EQ(f.data.size(), 24u);
  EXPECT_EQ(std::memcmp(f.data.data(), v.data(), 24), 0);
}

TEST(Npy, OneDimensionalKeepsTrailingComma) {
  const std::vector<std::int64_t> v = {-1, 7, 1ll << 40};
  const std::string path = temp_path("1d");
  write_npy(path, "<i8", {3}, v.data(), 24);
  const NpyFile f = parse(read_all(path));
  EXPECT_EQ(dict_of(f.header), "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }");
  ASSERT_EQ(f.data.size(), 24u);
  EXPECT_EQ(std::memcmp(f.data.data(), v.data(), 24), 0);
}

TEST(Npy, HeaderIsPaddedForEveryShapeLength) {
  // Shapes whose text grows one character at a time cover every padding amount mod 64.
  std::vector<std::int64_t> shape;
  for (int dims = 1; dims <= 70; ++dims) {
    shape.push_back(dims % 10 == 0 ? 10 : 1);
    const unsigned char byte = 0xab;
    const std::string path = temp_path("pad");
    write_npy(path, "|u1", shape, &byte, 1);
    const NpyFile f = parse(read_all(path));
    EXPECT_EQ(f.header.find('\n'), f.header.size() - 1) << dims << " dims";
    EXPECT_NE(f.header.find("'shape': ("), std::string::npos);
    ASSERT_EQ(f.data.size(), 1u) << dims << " dims";
    EXPECT_EQ(f.data[0], 0xab);
  }
}

TEST(Npy, DescrOfEachDtype) {
  EXPECT_EQ(npy_descr(DType::bf16), "<u2");  // no NumPy bf16: the bits, viewed later
  EXPECT_EQ(npy_descr(DType::fp16), "<f2");
  EXPECT_EQ(npy_descr(DType::fp32), "<f4");
}

TEST(Npy, UnwritablePathThrows) {
  const std::uint8_t byte = 0;
  EXPECT_THROW(write_npy(::testing::TempDir() + "no/such/dir/x.npy", "|u1", {1}, &byte, 1),
               std::runtime_error);
}

}  // namespace
}  // namespace rkv
