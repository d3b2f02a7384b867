// The outcome of validating one case, in CUTLASS's verification vocabulary. The names are the
// JSON values and the table cells, so they never change once a report has been written.
//   passed         fused, pair and golden model agree byte for byte
//   incorrect      they ran and disagree (the mismatch count and first mismatch say where)
//   failed         something did not run (launch error, allocation failure)
//   not_supported  the kernel refuses these arguments (e.g. no vector width divides the shape)
//   skipped        not attempted (the run was interrupted, or a flag excluded it)
#pragma once

#include <optional>
#include <string>

namespace rkv {

enum class Disposition { passed, incorrect, failed, not_supported, skipped };

inline std::string to_string(Disposition d) {
  switch (d) {
    case Disposition::passed:
      return "passed";
    case Disposition::incorrect:
      return "incorrect";
    case Disposition::failed:
      return "failed";
    case Disposition::not_supported:
      return "not_supported";
    case Disposition::skipped:
      return "skipped";
  }
  return "unknown";
}

inline std::optional<Disposition> parse_disposition(const std::string& s) {
  for (Disposition d : {Disposition::passed, Disposition::incorrect, Disposition::failed,
                        Disposition::not_supported, Disposition::skipped})
    if (s == to_string(d)) return d;
  return std::nullopt;
}

}  // namespace rkv
