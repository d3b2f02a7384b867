#include "floor/copy_pattern.h"

#include <cctype>

#include "text/quote.h"

namespace rkv {
namespace {

constexpr long kMaxRowBytes = 1L << 20;

// A decimal byte count of 1..kMaxRowBytes, or -1.
long byte_count(const std::string& digits) {
  if (digits.empty() || digits.size() > 7) return -1;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  const long n = std::stol(digits);
  return n >= 1 && n <= kMaxRowBytes ? n : -1;
}

}  // namespace

std::string CopyPattern::text() const {
  return std::to_string(span_bytes) + "/" + std::to_string(row_bytes);
}

std::optional<CopyPattern> parse_copy_pattern(const std::string& text, std::string* problem) {
  const std::size_t slash = text.find('/');
  const long span = slash == std::string::npos ? -1 : byte_count(text.substr(0, slash));
  const long row = slash == std::string::npos ? -1 : byte_count(text.substr(slash + 1));
  if (span < 0 || row < 0) {
    *problem = quote(text) + " is not SPAN/ROW (two byte counts of 1 to 1048576, as in 128/384)";
    return std::nullopt;
  }
  // 16-byte multiples: the copy moves one 16-byte vector a thread per step, like the kernels.
  if (span % 16 != 0 || row % 16 != 0) {
    *problem = quote(text) + ": SPAN and ROW must be multiples of 16 bytes";
    return std::nullopt;
  }
  if (span > row) {
    *problem = quote(text) + ": SPAN is larger than ROW";
    return std::nullopt;
  }
  return CopyPattern{static_cast<int>(span), static_cast<int>(row)};
}

std::vector<CopyPattern> default_copy_patterns() {
  return {{128, 384}, {384, 384}};
}

}  // namespace rkv
