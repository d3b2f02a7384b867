#include "validate/npy.h"

#include <fstream>
#include <stdexcept>

namespace rkv {

void write_npy(const std::string& path, const std::string& descr,
               const std::vector<std::int64_t>& shape, const void* data, std::int64_t bytes) {
  std::string dims;
  for (std::int64_t d : shape)
    dims += std::to_string(d) + ",";
  if (shape.size() > 1) dims.pop_back();  // a 1-d shape keeps its trailing comma: (n,)
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of 64
  // and ended by a newline, as the format asks.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot write " + path);
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  f.write(reinterpret_cast<const char*>(magic), 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  const char len_le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(len_le, 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(static_cast<const char*>(data), bytes);
  if (!f) throw std::runtime_error("failed writing " + path);
}

std::string npy_descr(DType d) {
  switch (d) {
    case DType::bf16:
      return "<u2";
    case DType::fp16:
      return "<f2";
    case DType::fp32:
      return "<f4";
  }
  return "|u1";
}

}  // namespace rkv
