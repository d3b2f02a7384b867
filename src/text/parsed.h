// Parsed<T>: a value read from text, or the one line that says why the text is not one.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace rkv {

template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;  // set when `value` is empty: quotes the text and says what is wrong

  static Parsed fail(std::string why) { return Parsed{std::nullopt, std::move(why)}; }
  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
};

}  // namespace rkv
