#include "dashboard/dashboard.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "dashboard/trend_chart.h"
#include "history/history_text.h"
#include "history/trend.h"
#include "report/build_info.h"

namespace rkv {
namespace {

constexpr const char* kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2127; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; }
h3 { font-size: 14px; margin: 18px 0 4px; font-family: ui-monospace, monospace; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid #d5d9de; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #f1f3f5; } td.label { text-align: left; font-family: ui-monospace, monospace; }
.verdict-regression, .verdict-not-passed, .bad { color: #c92a2a; font-weight: 600; }
.verdict-noted { color: #d9480f; } .verdict-win, .ok { color: #2b8a3e; }
.summary { color: #495057; } pre.repro { background: #f8f9fa; padding: 6px; margin: 4px 0; }
svg.trend-chart { display: block; } .grid { stroke: #e9ecef; } .tick, .legend { font-size: 11px; fill: #495057; }
.panel-title { font-size: 12px; font-weight: 600; fill: #1d2127; } .line { fill: none; stroke-width: 1.5; }
.whisker { stroke-width: 1; opacity: 0.6; } .invalid { stroke: #c92a2a; stroke-width: 2; }
circle.regression { stroke: #c92a2a; stroke-width: 3; } circle.noted { stroke: #f08c00; stroke-width: 2.5; }
circle.win { stroke: #2b8a3e; stroke-width: 2.5; } section.case { border-top: 1px solid #e9ecef; }
)css";

// A number cell: the text shown, and the full value for checks.
std::string num_cell(double value, const std::string& shown, const char* cls) {
  if (!std::isfinite(value)) return fmt::format("<td class=\"{}\">-</td>", cls);
  return fmt::format("<td class=\"{}\" data-value=\"{:.17g}\">{}</td>", cls, value, shown);
}

std::string text_cell(const std::string& text, const std::string& cls = "label") {
  return "<td class=\"" + cls + "\">" + html_escape(text) + "</td>";
}

std::string verdict_cell(const TrendPoint& p) {
  const std::string v = verdict_text(p);
  std::string cls = "verdict";
  if (!v.empty()) {
    std::string slug = v;  // "not passed" -> verdict-not-passed
    for (char& c : slug)
      if (c == ' ') c = '-';
    cls += " verdict-" + slug;
  }
  return "<td class=\"" + cls + "\" title=\"" + html_escape(p.note) + "\">" + html_escape(v) +
         "</td>";
}

std::string runs_table(const std::vector<HistoryRun>& runs) {
  std::string out =
      "<table id=\"runs\"><tr><th>run</th><th>when</th><th>revision</th><th>branch</th>"
      "<th>command</th><th>config</th><th>tags</th><th>validation</th><th>device</th>"
      "<th>SM clock MHz</th><th>source</th></tr>\n";
  for (const HistoryRun& r : runs) {
    const bool ok = r.failed == 0 && r.complete;
    const std::string clocks =
        std::isfinite(r.sm_clock_mhz_min)
            ? fmt::format("{:.0f}-{:.0f}", r.sm_clock_mhz_min, r.sm_clock_mhz_max)
            : "-";
    out += "<tr data-run=\"" + std::to_string(r.run_id) + "\">" +
           text_cell(std::to_string(r.run_id)) + text_cell(r.order_time()) +
           text_cell(short_revision(r.git_revision) + (r.git_dirty ? "-dirty" : "")) +
           text_cell(r.git_branch) + text_cell(r.command + (r.complete ? "" : " (interrupted)")) +
           text_cell(r.config_name.empty() ? r.config_path : r.config_name) +
           text_cell(r.tags_json == "{}" ? "" : r.tags_json) +
           fmt::format(
               "<td class=\"validation {}\" data-passed=\"{}\" data-cases=\"{}\">{} of {} "
               "passed{}</td>",
               ok ? "ok" : "bad", r.passed, r.cases, r.passed, r.cases,
               r.failed ? fmt::format(", {} failed", r.failed) : "") +
           text_cell(r.device_name) + text_cell(clocks, "") + text_cell(r.source) + "</tr>\n";
  }
  return out + "</table>\n";
}

std::string anchor(std::size_t index) {
  return "case-" + std::to_string(index);
}

std::string latest_tables(const std::vector<Trend>& trends) {
  std::map<std::string, std::vector<std::size_t>> by_mode;
  for (std::size_t i = 0; i < trends.size(); ++i)
    by_mode[trends[i].mode].push_back(i);
  std::string out;
  for (const auto& [mode, indices] : by_mode) {
    out += fmt::format(
        "<h3>mode {}</h3>\n<table class=\"latest\" id=\"latest-{}\" data-mode=\"{}\"><tr>"
        "<th>case</th><th>revision</th><th>speedup</th><th>interval</th><th>fused us</th>"
        "<th>pair us</th><th>% of bandwidth</th><th>validation</th><th>vs previous</th></tr>\n",
        html_escape(mode), html_escape(mode), html_escape(mode));
    for (std::size_t i : indices) {
      const TrendPoint& p = trends[i].latest();
      const HistoryCase& c = p.result;
      out +=
          fmt::format("<tr data-case=\"{}\" data-run=\"{}\">", html_escape(c.case_id),
                      p.run->run_id) +
          "<td class=\"label\"><a href=\"#" + anchor(i) + "\">" + html_escape(c.case_id) +
          "</a></td>" + text_cell(short_revision(p.run->git_revision)) +
          num_cell(c.speedup, format_speedup(c.speedup), "speedup") +
          (std::isfinite(c.speedup_lo)
               ? fmt::format("<td>[{:.2f}, {:.2f}]</td>", c.speedup_lo, c.speedup_hi)
               : std::string("<td>-</td>")) +
          num_cell(c.fused_median_us, format_us(c.fused_median_us), "fused-us") +
          num_cell(c.pair_median_us, format_us(c.pair_median_us), "pair-us") +
          num_cell(c.fused_pct_of_bandwidth, format_percent(c.fused_pct_of_bandwidth), "pct-bw") +
          text_cell(c.disposition, c.disposition == "passed" ? "ok" : "bad") + verdict_cell(p) +
          "</tr>\n";
    }
    out += "</table>\n";
  }
  return out;
}

std::string regressions_list(const std::vector<Trend>& trends) {
  std::string items;
  for (std::size_t i = 0; i < trends.size(); ++i)
    for (const TrendPoint& p : trends[i].points)
      if (p.verdict == Verdict::regression || p.verdict == Verdict::not_passed)
        items += "<li class=\"regression-item\"><a href=\"#" + anchor(i) + "\">" +
                 html_escape(trends[i].case_id) + "</a> (" + html_escape(trends[i].mode) + ") at " +
                 html_escape(short_revision(p.run->git_revision)) + ": " + html_escape(p.note) +
                 "</li>\n";
  if (items.empty()) return "<p id=\"regressions\" class=\"ok\">No regressions between runs.</p>\n";
  return "<ul id=\"regressions\">\n" + items + "</ul>\n";
}

std::string case_section(const Trend& t, std::size_t index) {
  std::set<std::string> dispositions;
  for (const TrendPoint& p : t.points)
    dispositions.insert(p.result.disposition);
  const TrendPoint& last = t.latest();
  std::string validation = "latest " + last.result.disposition;
  if (!last.result.detail.empty()) validation += " (" + last.result.detail + ")";
  validation += dispositions.size() == 1 && *dispositions.begin() == "passed"
                    ? "; passed in every run"
                    : "; seen: " + [&] {
                        std::string s;
                        for (const std::string& d : dispositions)
                          s += (s.empty() ? "" : ", ") + d;
                        return s;
                      }();
  return fmt::format("<section class=\"case\" id=\"{}\" data-case=\"{}\" data-mode=\"{}\">\n",
                     anchor(index), html_escape(t.case_id), html_escape(t.mode)) +
         "<h3>" + html_escape(t.case_id) + " (" + html_escape(t.mode) + ")</h3>\n" +
         render_trend_chart(t) + "<p class=\"validation " +
         (last.result.disposition == "passed" ? "ok" : "bad") +
         "\">validation: " + html_escape(validation) + "</p>\n<pre class=\"repro\">" +
         html_escape(last.result.repro) + "</pre>\n</section>\n";
}

}  // namespace

std::string render_dashboard_html(const std::vector<HistoryRun>& runs,
                                  const std::vector<HistoryCase>& cases) {
  const std::vector<Trend> trends = build_trends(runs, cases);
  std::set<std::string> devices;
  for (const HistoryRun& r : runs)
    devices.insert(r.device_name);
  std::string device_text;
  for (const std::string& d : devices)
    device_text += (device_text.empty() ? "" : ", ") + d;

  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>rope-kv-bench dashboard</title>\n<style>" +
      std::string(kStyle) +
      "</style>\n<script>\n"
      "window.onerror = function (message) {\n"
      "  var e = document.createElement('pre'); e.id = 'js-error'; e.textContent = message;\n"
      "  document.body.insertBefore(e, document.body.firstChild);\n};\n"
      "function filterCases(text) {\n"
      "  document.querySelectorAll('section.case').forEach(function (s) {\n"
      "    s.hidden = s.dataset.case.indexOf(text) < 0;\n  });\n}\n"
      "</script>\n</head>\n<body>\n<h1>rope-kv-bench: fused RoPE + paged KV-cache write against "
      "the unfused pair</h1>\n";
  out += fmt::format(
      "<p class=\"summary\">{} runs, {} cases x modes, on {}. Made by rope-kv-bench {} from its "
      "run history. Speedup = median(pair) / median(fused); verdicts against the previous run "
      "use <code>rope-kv-bench compare</code>'s rule.</p>\n",
      runs.size(), trends.size(), html_escape(device_text.empty() ? "no device" : device_text),
      tool_version());
  out += "<h2>Runs</h2>\n" + runs_table(runs);
  out += "<h2>Latest results</h2>\n" + latest_tables(trends);
  out += "<h2>Regressions</h2>\n" + regressions_list(trends);
  out +=
      "<h2>Trends per case</h2>\n<p><label>filter cases: <input id=\"filter\" "
      "oninput=\"filterCases(this.value)\"></label></p>\n";
  for (std::size_t i = 0; i < trends.size(); ++i)
    out += case_section(trends[i], i);
  return out + "</body>\n</html>\n";
}

std::string write_dashboard(const std::vector<HistoryRun>& runs,
                            const std::vector<HistoryCase>& cases, const std::string& out_dir) {
  namespace fs = std::filesystem;
  const std::string html = render_dashboard_html(runs, cases);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw std::runtime_error("--out '" + out_dir + "': cannot create the folder" +
                             (ec ? ": " + ec.message() : std::string(" (a file is in the way)")));
  const std::string path = (fs::path(out_dir) / "index.html").string();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << html;
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write '" + tmp + "'");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
  }
  return path;
}

}  // namespace rkv
