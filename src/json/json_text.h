// JSON text to a value, for the readers of config files and reports.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "json/json_error.h"

namespace rkv {

// Parses one JSON value (nothing but white space after it). Throws JsonError, one line:
//   "not valid JSON at line 3, column 22 (in axes.dtype): syntax error at ']'"
//   "not valid JSON: the text ends before the value does (in cases[2])"
//   "axes.tokens[0]: number '1e400' is out of range"  (past a double, or an integer past 64 bits)
//   "axes: duplicate key 'tokens'"  (nlohmann would keep the last one silently)
nlohmann::json parse_json(std::string_view text);

// Reads and parses the file at `path`, a regular file only (io/input_file.h). Throws JsonError
// whose message leaves the path to the caller: "no such file", "is a directory, not a JSON file",
// "is a FIFO, not a JSON file", "cannot be read: <why>", or one of parse_json's.
nlohmann::json read_json_file(const std::string& path);

}  // namespace rkv
