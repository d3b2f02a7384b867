#include "cli/output_paths.h"

#include <string>
#include <utility>
#include <vector>

#include "cli/flag_values.h"
#include "io/file_kind.h"
#include "io/output_path.h"
#include "text/quote.h"

namespace rkv {

void check_output_paths(const CliInvocation& inv) {
  struct Output {
    const char* flag;
    const std::string& path;
    OutputKind kind;
  };
  const std::vector<Output> outputs{
      {"--json", inv.json_out, OutputKind::file},
      {"--csv", inv.csv_out, OutputKind::file},
      {"--dump", inv.dump_dir, OutputKind::folder},
      // compare's outputs (only one command's fields are ever set)
      {"--json", inv.compare.json_out, OutputKind::file},
      {"--markdown", inv.compare.markdown_out, OutputKind::file},
      {"--refreshed-baseline", inv.compare.refreshed_baseline_out, OutputKind::file},
  };
  std::vector<const Output*> given;
  for (const Output& o : outputs) {
    if (o.path.empty()) continue;
    const std::string named = std::string(o.flag) + " " + quote(o.path, kPathQuoteMax);
    if (auto why = output_path_problem(o.path, o.kind)) usage_fail(named + ": " + *why);
    // The second write would replace the first (a device such as /dev/null takes both).
    const FileKind kind = output_file_kind(o.path);
    const bool replaced = kind == FileKind::none || kind == FileKind::regular;
    for (const Output* earlier : given)
      if (replaced && earlier->path == o.path)
        usage_fail(named + ": is also the path of " + earlier->flag);
    given.push_back(&o);
  }
}

}  // namespace rkv
