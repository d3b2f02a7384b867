// Renderers from a Report to what people read: the seed-style speedup tables (terminal or GitHub
// markdown), one CSV row per case and mode with every statistic, and the validation table. They
// read only the Report, so `rope-kv-bench report FILE` prints the same tables a run printed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/report.h"

namespace rkv {

enum class TableFormat { text, markdown };

// Any table: the first `label_cols` columns left-aligned, the rest right-aligned. Text pads by
// display width (UTF-8 aware); markdown escapes '|' inside cells.
std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows, std::size_t label_cols,
                         TableFormat format);
std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& left_aligned, TableFormat format);

// Per timing mode (in the order the report first uses them), two tables whose rows are
// dtype / cache / heads (plus any other parameter that varies among that mode's cases) and whose
// columns are token counts:
//   1. speedup = median(pair) / median(fused), e.g. "2.31x";
//   2. fused median time and its share of the measured copy bandwidth, e.g. "3.12 (41%)".
// A cell whose case did not pass validation shows the disposition instead of a number; a cell with
// no case shows "-". Cases with no mode (validate-only reports) produce no speedup tables.
std::string render_speedup_tables(const Report& r, TableFormat format);

// One row per case result (case x mode), with the statistics of fused, pair, rope and
// cache_write, the speedup and its interval, the byte floor and bandwidth. RFC 4180 quoting;
// NaN and absent values are empty fields.
std::string render_csv(const Report& r);

// One row per case id (the first result of each id): disposition, mismatch count, and the first
// mismatch (or, when the case did not run, why), then a count per disposition.
std::string render_validation_table(const Report& r, TableFormat format);

}  // namespace rkv
