// A refusal of rope_kv._ext, and the text it carries.
//
// No C++ exception ever leaves or crosses the extension's functions: a refusal travels back as
// data (an Error), run() hands it to the Python wrapper as (kind, message), and the wrapper raises.
// C++ unwinding through the extension crashed a pytest run on one machine (docs/python.md), and a
// plain return has nothing to unwind.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace rkv_ext {

// Messages are built without iostreams: on the H200 an ostream inside this module crashed in its
// locale facets once torch had set up the process (results/h200/wave2/python-gdb.txt), so text
// is appended piece by piece with std::to_string and snprintf.
inline void append(std::string& out, const std::string& s) {
  out += s;
}
inline void append(std::string& out, const char* s) {
  out += s;
}
template <typename T>  // numbers only: a char or bool would print as a number here
std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>>
append(std::string& out, T v) {
  out += std::to_string(v);
}
template <typename T>
std::enable_if_t<std::is_floating_point_v<T>> append(std::string& out, T v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  out += buf;
}

template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (append(out, parts), ...);
  return out;
}

// A shape or a stride list as "[a, b, c]".
inline std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// A refusal: which Python exception the wrapper raises (the numbers are rope_kv/__init__.py's) and
// its message. Kind none is success.
enum class ErrorKind : int { none = 0, value = 1, type = 2, runtime = 3 };

struct [[nodiscard]] Error {
  ErrorKind kind = ErrorKind::none;
  std::string message;
  explicit operator bool() const { return kind != ErrorKind::none; }
};

// Returns the error of `expr`, if any, from the calling function.
#define RKV_TRY(expr)                                 \
  do {                                                \
    if (Error rkv_error_ = (expr)) return rkv_error_; \
  } while (0)

template <typename... Parts>
Error value_error(Parts&&... parts) {
  return {ErrorKind::value, cat(parts...)};
}

template <typename... Parts>
Error type_error(Parts&&... parts) {
  return {ErrorKind::type, cat(parts...)};
}

}  // namespace rkv_ext
