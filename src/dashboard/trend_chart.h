// One case's trend as an inline SVG chart, drawn by us (no charting library, nothing fetched):
// three panels over the same runs, oldest left: fused and pair median us with their interquartile
// ranges, the speedup with its interval, and the fused kernel's % of the measured copy bandwidth.
// Points that compare judged a regression against the previous point are ringed red, ambiguous
// ones orange, wins green; a point that did not pass validation is a red cross.
#pragma once

#include <string>

#include "history/trend.h"

namespace rkv {

// <svg class="trend-chart" data-case="..." data-mode="..." data-points="N" ...>...</svg>
std::string render_trend_chart(const Trend& trend);

// Escapes &, <, >, " and ' for HTML and SVG text and attributes.
std::string html_escape(const std::string& text);

}  // namespace rkv
