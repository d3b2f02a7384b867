#include "dashboard/trend_chart.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <fmt/format.h>

namespace rkv {
namespace {

// A panel: its title on the first line, the legend on the second, then the plot; revision labels
// (7 characters, slanted) under it.
constexpr double kPanelWidth = 300, kPanelHeight = 240, kTop = 40, kBottom = 52, kLeft = 52,
                 kRight = 14;

struct Series {
  const char* name;
  const char* color;
  std::function<double(const HistoryCase&)> value, low, high;  // low/high may be empty
};

// A round step giving about four ticks from 0 to `top`.
double tick_step(double top) {
  const double raw = top / 4;
  const double base = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * base >= raw) return m * base;
  return 10 * base;
}

std::string tick_label(double v, double step) {
  return step >= 1     ? fmt::format("{:.0f}", v)
         : step >= 0.1 ? fmt::format("{:.1f}", v)
                       : fmt::format("{:.2f}", v);
}

std::string marker_class(const TrendPoint& p) {
  if (!p.verdict) return "";
  switch (*p.verdict) {
    case Verdict::regression:
    case Verdict::not_passed:
      return "regression";
    case Verdict::noted:
      return "noted";
    case Verdict::win:
      return "win";
    default:
      return "";
  }
}

std::string panel(const Trend& t, double x0, const std::string& title,
                  const std::vector<Series>& series) {
  const std::size_t n = t.points.size();
  double top = 0;
  for (const TrendPoint& p : t.points)
    for (const Series& s : series)
      for (const auto& f : {s.value, s.high})
        if (f && std::isfinite(f(p.result))) top = std::max(top, f(p.result));
  if (!(top > 0)) top = 1;
  const double step = tick_step(top * 1.08);
  top = step * std::ceil(top * 1.08 / step);
  const double plot_w = kPanelWidth - kLeft - kRight, plot_h = kPanelHeight - kTop - kBottom;
  auto px = [&](std::size_t i) {
    return x0 + kLeft + (n == 1 ? plot_w / 2 : plot_w * static_cast<double>(i) / (n - 1));
  };
  auto py = [&](double v) { return kTop + plot_h * (1 - v / top); };

  std::string out = fmt::format(
      "<g class=\"panel\"><text class=\"panel-title\" x=\"{:.1f}\" y=\"16\">{}</text>\n",
      x0 + kLeft, html_escape(title));
  for (double v = 0; v <= top + step / 2; v += step)
    out += fmt::format(
        "<line class=\"grid\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
        x0 + kLeft, x0 + kLeft + plot_w, py(v), py(v), x0 + kLeft - 4, py(v) + 4,
        tick_label(v, step));
  for (std::size_t i = 0; i < n; ++i)
    out += fmt::format(
        "<text class=\"tick\" transform=\"translate({:.1f},{:.1f}) rotate(-40)\" "
        "text-anchor=\"end\">{}</text>\n",
        px(i) + 3, kTop + plot_h + 14,
        html_escape(short_revision(t.points[i].run->git_revision).substr(0, 7)));
  for (const Series& s : series) {
    std::string path;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = s.value(t.points[i].result);
      if (!std::isfinite(v)) continue;
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", px(i), py(v));
    }
    if (!path.empty())
      out += fmt::format("<path class=\"line\" stroke=\"{}\" d=\"{}\"/>\n", s.color, path);
    for (std::size_t i = 0; i < n; ++i) {
      const TrendPoint& p = t.points[i];
      const double v = s.value(p.result);
      if (!std::isfinite(v)) continue;
      if (s.low && std::isfinite(s.low(p.result)) && std::isfinite(s.high(p.result)))
        out += fmt::format(
            "<line class=\"whisker\" stroke=\"{}\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" "
            "y2=\"{:.1f}\"/>",
            s.color, px(i), px(i), py(s.low(p.result)), py(s.high(p.result)));
      const std::string mark = marker_class(p);
      out += fmt::format(
          "<circle class=\"point{}\" fill=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\">"
          "<title>{} {}: {:.4g}{}</title></circle>\n",
          mark.empty() ? "" : " " + mark, s.color, px(i), py(v), mark.empty() ? 3 : 5,
          html_escape(short_revision(p.run->git_revision)), s.name, v,
          html_escape(p.note.empty() ? "" : " (" + p.note + ")"));
      if (p.result.disposition != "passed")
        out += fmt::format(
            "<path class=\"invalid\" d=\"M{0:.1f},{1:.1f} l8,8 m0,-8 l-8,8\"><title>{2}</title>"
            "</path>\n",
            px(i) - 4, py(v) - 4, html_escape(p.result.disposition));
    }
  }
  // Legend under the title, one entry per series.
  double lx = x0 + kLeft;
  for (const Series& s : series) {
    out += fmt::format(
        "<circle fill=\"{}\" cx=\"{:.1f}\" cy=\"27\" r=\"3\"/><text class=\"legend\" x=\"{:.1f}\" "
        "y=\"31\">{}</text>\n",
        s.color, lx + 4, lx + 10, s.name);
    lx += 7.0 * std::string(s.name).size() + 24;
  }
  return out + "</g>\n";
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_trend_chart(const Trend& t) {
  const auto fused = [](const HistoryCase& c) { return c.fused_median_us; };
  const auto pair = [](const HistoryCase& c) { return c.pair_median_us; };
  const std::vector<Series> times = {
      {"fused", "#1f6fd1", fused, [](const HistoryCase& c) { return c.fused_q1_us; },
       [](const HistoryCase& c) { return c.fused_q3_us; }},
      {"pair", "#8a8f98", pair, [](const HistoryCase& c) { return c.pair_q1_us; },
       [](const HistoryCase& c) { return c.pair_q3_us; }}};
  const std::vector<Series> speedup = {{"speedup", "#2b8a3e",
                                        [](const HistoryCase& c) { return c.speedup; },
                                        [](const HistoryCase& c) { return c.speedup_lo; },
                                        [](const HistoryCase& c) { return c.speedup_hi; }}};
  const std::vector<Series> bandwidth = {
      {"% of bw",
       "#9c36b5",
       [](const HistoryCase& c) { return c.fused_pct_of_bandwidth; },
       {},
       {}}};
  std::string out = fmt::format(
      "<svg class=\"trend-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" "
      "height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" data-case=\"{2}\" data-mode=\"{3}\" "
      "data-points=\"{4}\" role=\"img\" aria-label=\"trend of {2} in mode {3}\">\n",
      3 * kPanelWidth, kPanelHeight, html_escape(t.case_id), html_escape(t.mode), t.points.size());
  out += panel(t, 0, "median us per launch (IQR)", times);
  out += panel(t, kPanelWidth, "speedup pair/fused (interval)", speedup);
  out += panel(t, 2 * kPanelWidth, "fused % of copy bandwidth", bandwidth);
  return out + "</svg>\n";
}

}  // namespace rkv
