// Values inside messages. Every error line of the tool quotes what the user gave through quote(),
// so a value with a newline, a NUL or a terminal escape cannot break a message into several lines
// or hide part of it, and a 10 MB argument does not become a 10 MB message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rkv {

// Values longer than this many characters are cut in messages. Paths get the larger limit: a
// user needs all of one to find the file, and a path longer than that is not a real one.
inline constexpr std::size_t kQuoteMaxChars = 80;
inline constexpr std::size_t kPathQuoteMax = 1024;

// 'value' in single quotes, printable and on one line:
// - ASCII control characters and DEL are escaped: \n \r \t \0, others as \xNN;
// - bytes that are not valid UTF-8 are escaped as \xNN; C1 controls (U+0080..U+009F) as \u0085;
// - other UTF-8 characters, quotes and backslashes are kept as they are;
// - a value of more than `max_chars` characters keeps its first `max_chars` and says its size:
//   'aaaa...'... (200 bytes). Paths may pass a larger limit; they are worth showing whole.
std::string quote(std::string_view value, std::size_t max_chars = kQuoteMaxChars);

// A whole message made one printable line: trailing blanks and newlines dropped, inner newlines,
// carriage returns and tabs turned into spaces, other control characters escaped as quote() does.
// For text the tool did not write (a library's exception message) before it is printed.
std::string one_line(std::string_view message);

}  // namespace rkv
