#include "text/quote.h"

#include <cstdint>

namespace rkv {
namespace {

const char kHex[] = "0123456789ABCDEF";

void append_hex_byte(std::string& out, unsigned char b) {
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xF];
}

// The length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, past U+10FFFF).
std::size_t utf8_length(std::string_view s, std::size_t i, std::uint32_t* code_point) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
    cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    cp = b & 0x0F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  *code_point = cp;
  return n;
}

// Appends the character at s[i] in printable form; returns how many bytes of `s` it took.
std::size_t append_printable(std::string& out, std::string_view s, std::size_t i,
                             bool blanks_as_space) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b >= 0x20 && b < 0x7F) {
    out += static_cast<char>(b);
    return 1;
  }
  if (b < 0x80) {  // an ASCII control character or DEL
    if (blanks_as_space && (b == '\n' || b == '\r' || b == '\t')) {
      out += ' ';
      return 1;
    }
    switch (b) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\0':
        out += "\\0";
        break;
      default:
        append_hex_byte(out, b);
    }
    return 1;
  }
  std::uint32_t cp = 0;
  const std::size_t n = utf8_length(s, i, &cp);
  if (n == 0) {
    append_hex_byte(out, b);
    return 1;
  }
  if (cp <= 0x9F) {  // C1 controls: terminals act on them like on ESC sequences
    out += "\\u00";
    out += kHex[cp >> 4];
    out += kHex[cp & 0xF];
  } else {
    out.append(s.substr(i, n));
  }
  return n;
}

}  // namespace

std::string quote(std::string_view value, std::size_t max_chars) {
  std::string out = "'";
  std::size_t i = 0, chars = 0;
  while (i < value.size() && chars < max_chars) {
    i += append_printable(out, value, i, false);
    ++chars;
  }
  out += '\'';
  if (i < value.size()) out += "... (" + std::to_string(value.size()) + " bytes)";
  return out;
}

std::string one_line(std::string_view message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' ||
                              message.back() == ' ' || message.back() == '\t'))
    message.remove_suffix(1);
  std::string out;
  for (std::size_t i = 0; i < message.size();)
    i += append_printable(out, message, i, true);
  return out;
}

}  // namespace rkv
