// What `rope-kv-bench floor` copies: the first SPAN bytes of every ROW bytes, written "SPAN/ROW".
// The fused kernel's reads and writes are not always contiguous: with MLA it rotates 128 B of
// every 384 B query head row and leaves the rest, so the contiguous copy that reports measure
// their floor against may be out of reach for that layout. A pattern names such a layout's
// access shape so that a plain copy of exactly those bytes can be timed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rkv {

struct CopyPattern {
  int span_bytes = 0;        // copied at the start of each row: a multiple of 16, at most row_bytes
  int row_bytes = 0;         // distance between row starts: a multiple of 16, at most 1 MiB
  std::string text() const;  // "128/384"
  bool contiguous() const { return span_bytes == row_bytes; }
  bool operator==(const CopyPattern& o) const {
    return span_bytes == o.span_bytes && row_bytes == o.row_bytes;
  }
};

// "SPAN/ROW" (decimal byte counts) into a pattern; nullopt and `*problem` set to why not.
std::optional<CopyPattern> parse_copy_pattern(const std::string& text, std::string* problem);

// The patterns `floor` times when none are given: MLA's query rows (128 of 384 B) and the same
// rows whole, so one run shows what the sparse shape costs against the dense one.
std::vector<CopyPattern> default_copy_patterns();

}  // namespace rkv
