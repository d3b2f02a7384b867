// What `rope-kv-bench list` prints: every axis and timing setting with its flag, config key,
// accepted values and default, the cache layouts and the case-id syntax, built from the same
// tables the parsers use so it cannot drift from what they accept.
#pragma once

#include <string>

namespace rkv {

std::string list_text();

}  // namespace rkv
