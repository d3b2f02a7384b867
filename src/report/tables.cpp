#include "report/tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace rkv {
namespace {

// ---- a plain table and its two renderings
// ----------------------------------------------------------

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t label_cols = 0;  // left-aligned; the rest are numbers, right-aligned
  std::vector<bool> left;      // per column, overrides label_cols when not empty

  bool left_aligned(std::size_t c) const { return left.empty() ? c < label_cols : left[c]; }
};

// Display width of UTF-8 text: one column per code point ("µ" is two bytes, one column).
std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t width, bool left) {
  const std::string fill(width - std::min(width, display_width(s)), ' ');
  return left ? s + fill : fill + s;
}

std::string to_text(const Table& t) {
  std::vector<std::size_t> w(t.header.size(), 0);
  for (std::size_t c = 0; c < w.size(); ++c) {
    w[c] = display_width(t.header[c]);
    for (const auto& row : t.rows)
      w[c] = std::max(w[c], display_width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += "  ";
      out += pad(cells[c], w[c], t.left_aligned(c));
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out + "\n";
  };
  std::string out = line(t.header);
  std::vector<std::string> rule;
  for (std::size_t width : w)
    rule.emplace_back(width, '-');
  out += line(rule);
  for (const auto& row : t.rows)
    out += line(row);
  return out;
}

// GitHub ends a cell at any unescaped '|', even inside a code span, and case ids are full of them.
std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string to_markdown(const Table& t) {
  auto line = [](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells)
      out += " " + markdown_cell(c) + " |";
    return out + "\n";
  };
  std::string out = line(t.header) + "|";
  for (std::size_t c = 0; c < t.header.size(); ++c)
    out += t.left_aligned(c) ? " --- |" : " ---: |";
  out += "\n";
  for (const auto& row : t.rows)
    out += line(row);
  return out;
}

std::string render(const Table& t, TableFormat f) {
  return f == TableFormat::text ? to_text(t) : to_markdown(t);
}

// ---- numbers
// ---------------------------------------------------------------------------------------

// Three significant figures or so, never scientific notation: 3.12, 41.5, 1234.
std::string format_us(double us) {
  if (!std::isfinite(us)) return "-";
  if (us < 100) return fmt::format("{:.2f}", us);
  if (us < 1000) return fmt::format("{:.1f}", us);
  return fmt::format("{:.0f}", us);
}

std::string csv_number(double v) {
  return std::isfinite(v) ? fmt::format("{}", v) : "";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// ---- the speedup grid --------------------------------------------------------------------------

// A case parameter that can label a row. dtype / cache / heads always do; the others only when
// they vary among the cases of one table, so the seed table stays three label columns wide.
struct Param {
  const char* header;
  std::function<std::string(const CaseSpec&)> text;
};

const std::vector<Param>& always_params() {
  static const std::vector<Param> p = {
      {"dtype", [](const CaseSpec& s) { return to_string(s.dtype); }},
      {"cache", [](const CaseSpec& s) { return to_string(s.cache_dtype); }},
      {"heads", [](const CaseSpec& s) { return s.heads.name(); }},
  };
  return p;
}

// Every CaseSpec field except tokens (the columns) and seed (inputs, not a configuration).
const std::vector<Param>& optional_params() {
  static const std::vector<Param> p = {
      {"style", [](const CaseSpec& s) { return to_string(s.style); }},
      {"rot", [](const CaseSpec& s) { return std::to_string(s.effective_rot_dim()); }},
      {"layout", [](const CaseSpec& s) { return s.layout.name(); }},
      {"block", [](const CaseSpec& s) { return std::to_string(s.block_size); }},
      {"scale", [](const CaseSpec& s) { return to_string(s.scale); }},
      {"slots", [](const CaseSpec& s) { return to_string(s.slots); }},
      {"q out", [](const CaseSpec& s) { return to_string(s.query_out); }},
      {"k out", [](const CaseSpec& s) { return to_string(s.key_out); }},
      {"cos/sin",
       [](const CaseSpec& s) {
         return s.cos_sin_fp32 ? std::string("fp32") : std::string("native");
       }},
  };
  return p;
}

struct Grid {
  std::vector<std::string> label_headers;
  std::vector<std::vector<std::string>> row_labels;   // rows in the order the report lists cases
  std::vector<std::int64_t> tokens;                   // columns, ascending
  std::vector<std::vector<const CaseResult*>> cells;  // [row][column], nullptr when absent
};

Grid make_grid(const std::vector<const CaseResult*>& cases) {
  std::vector<const Param*> params;
  for (const Param& p : always_params())
    params.push_back(&p);
  for (const Param& p : optional_params()) {
    std::set<std::string> values;
    for (const CaseResult* c : cases)
      values.insert(p.text(c->spec));
    if (values.size() > 1) params.push_back(&p);
  }
  Grid g;
  for (const Param* p : params)
    g.label_headers.emplace_back(p->header);
  std::set<std::int64_t> tokens;
  for (const CaseResult* c : cases)
    tokens.insert(c->spec.tokens);
  g.tokens.assign(tokens.begin(), tokens.end());

  std::map<std::vector<std::string>, std::size_t> row_of;
  for (const CaseResult* c : cases) {
    std::vector<std::string> label;
    for (const Param* p : params)
      label.push_back(p->text(c->spec));
    auto [it, added] = row_of.emplace(label, g.row_labels.size());
    if (added) {
      g.row_labels.push_back(label);
      g.cells.emplace_back(g.tokens.size(), nullptr);
    }
    const auto col = static_cast<std::size_t>(
        std::lower_bound(g.tokens.begin(), g.tokens.end(), c->spec.tokens) - g.tokens.begin());
    const CaseResult*& cell = g.cells[it->second][col];
    if (cell == nullptr) cell = c;  // the same configuration twice (another seed): first one wins
  }
  return g;
}

std::string disposition_cell(const CaseResult& c) {
  return c.validation == Disposition::not_supported ? "n/s" : to_string(c.validation);
}

std::string speedup_cell(const CaseResult* c) {
  if (c == nullptr) return "-";
  if (c->validation != Disposition::passed) return disposition_cell(*c);
  if (!c->speedup || !std::isfinite(c->speedup->median)) return "-";
  return fmt::format("{:.2f}x", c->speedup->median);
}

std::string fused_cell(const CaseResult* c) {
  if (c == nullptr) return "-";
  if (c->validation != Disposition::passed) return disposition_cell(*c);
  const VariantResult* f = c->find_variant(Variant::fused);
  if (f == nullptr || f->us.n == 0) return "-";
  std::string cell = format_us(f->us.median);
  if (c->fused_pct_of_bandwidth > 0) cell += fmt::format(" ({:.0f}%)", c->fused_pct_of_bandwidth);
  return cell;
}

Table grid_table(const Grid& g, const std::function<std::string(const CaseResult*)>& cell) {
  Table t;
  t.header = g.label_headers;
  t.label_cols = g.label_headers.size();
  for (std::int64_t n : g.tokens)
    t.header.push_back("N=" + std::to_string(n));
  for (std::size_t r = 0; r < g.row_labels.size(); ++r) {
    std::vector<std::string> row = g.row_labels[r];
    for (const CaseResult* c : g.cells[r])
      row.push_back(cell(c));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// `producer_read_mib`: what the producer modes' producer streamed before it wrote q/k/v.
std::string mode_description(const std::string& mode, int producer_read_mib) {
  if (mode == "cold") return "cold L2, one event pair per launch";
  if (mode == "warm") return "warm L2, back-to-back launches";
  if (mode == "graph") return "CUDA graph replay, time per launch";
  if (mode == "wall") return "host clock over many launches, as a Python caller sees it";
  const std::string producer =
      producer_read_mib == 0
          ? "a producer of q/k/v"
          : fmt::format("a producer that streams {} MiB of stand-in weights, then writes q/k/v",
                        producer_read_mib);
  if (mode == "producer")
    return "time added after " + producer + " in a CUDA graph (speedup = added pair / added fused)";
  if (mode == "producer_pdl")
    return "time added after " + producer +
           " in a CUDA graph, launched with PDL (speedup = added pair / added fused)";
  return "";
}

std::string title(const std::string& text, TableFormat f) {
  return f == TableFormat::markdown ? "### " + text + "\n\n" : text + "\n";
}

std::vector<std::string> modes_in_order(const Report& r) {
  std::vector<std::string> modes;
  for (const CaseResult& c : r.cases)
    if (!c.mode.empty() && std::find(modes.begin(), modes.end(), c.mode) == modes.end())
      modes.push_back(c.mode);
  return modes;
}

}  // namespace

std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows, std::size_t label_cols,
                         TableFormat format) {
  return render(Table{header, rows, label_cols, {}}, format);
}

std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& left_aligned, TableFormat format) {
  return render(Table{header, rows, 0, left_aligned}, format);
}

std::string render_speedup_tables(const Report& r, TableFormat format) {
  std::string out;
  const std::string device = r.device.name.empty() ? "" : ", " + r.device.name;
  const std::string code = format == TableFormat::markdown ? "`" : "";
  for (const std::string& mode : modes_in_order(r)) {
    std::vector<const CaseResult*> cases;
    for (const CaseResult& c : r.cases)
      if (c.mode == mode) cases.push_back(&c);
    const Grid g = make_grid(cases);
    const std::string how = mode_description(mode, r.timing.producer_read_mib);
    const std::string mode_text = code + mode + code + (how.empty() ? "" : " (" + how + ")");
    if (!out.empty()) out += "\n";
    out += title("Speedup, fused vs rope + cache_write (median pair / median fused), mode " +
                     mode_text + device,
                 format);
    out += render(grid_table(g, speedup_cell), format);
    out += "\n";
    out +=
        title("Fused kernel median µs (% of measured copy bandwidth), mode " + mode_text + device,
              format);
    out += render(grid_table(g, fused_cell), format);
    // Warm and graph modes reuse the same buffers: a working set that fits in L2 is served from
    // there, and "% of copy bandwidth" (an HBM figure) can pass 100. Say so instead of hiding it.
    const bool over = std::any_of(cases.begin(), cases.end(), [](const CaseResult* c) {
      return c->fused_pct_of_bandwidth > 100;
    });
    if (over)
      out += fmt::format(
          "(cells over 100% ran with their working set in the {:.0f} MB L2; cold mode measures "
          "HBM)\n",
          static_cast<double>(r.device.l2_bytes) / 1e6);
  }
  if (!r.complete && !out.empty())
    out += "\n(incomplete: the run was interrupted; cells it did not reach are missing)\n";
  return out;
}

std::string render_csv(const Report& r) {
  static const char* const kStats[] = {
      "n",       "median_us", "q1_us",     "q3_us",       "min_us",           "max_us",
      "mean_us", "stdev_us",  "rel_noise", "stop_reason", "throttled_samples"};
  std::vector<std::string> header = {"id",    "mode",   "dtype",       "cache_dtype",
                                     "heads", "tokens", "disposition", "mismatches"};
  for (Variant v : all_variants())
    for (const char* s : kStats)
      header.push_back(to_string(v) + "_" + s);
  for (const char* h : {"speedup", "speedup_lo", "speedup_hi", "min_bytes", "floor_us",
                        "fused_gbps", "fused_pct_of_bandwidth", "repro"})
    header.emplace_back(h);

  auto join = [](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i)
      line += (i ? "," : "") + csv_field(fields[i]);
    return line + "\n";
  };
  std::string out = join(header);
  for (const CaseResult& c : r.cases) {
    std::vector<std::string> f = {c.id,
                                  c.mode,
                                  to_string(c.spec.dtype),
                                  to_string(c.spec.cache_dtype),
                                  c.spec.heads.name(),
                                  std::to_string(c.spec.tokens),
                                  to_string(c.validation),
                                  std::to_string(c.mismatches)};
    for (Variant variant : all_variants()) {
      const VariantResult* v = c.find_variant(variant);
      if (v == nullptr) {
        f.insert(f.end(), std::size(kStats), "");
        continue;
      }
      const Summary& s = v->us;
      f.insert(f.end(),
               {std::to_string(s.n), csv_number(s.median), csv_number(s.q1), csv_number(s.q3),
                csv_number(s.min), csv_number(s.max), csv_number(s.mean), csv_number(s.stdev),
                csv_number(s.rel_noise()), v->stop_reason, std::to_string(v->throttled_samples)});
    }
    if (c.speedup)
      f.insert(f.end(), {csv_number(c.speedup->median), csv_number(c.speedup->lo),
                         csv_number(c.speedup->hi)});
    else
      f.insert(f.end(), 3, "");
    f.insert(f.end(), {std::to_string(c.min_bytes), csv_number(c.floor_us),
                       csv_number(c.fused_gbps), csv_number(c.fused_pct_of_bandwidth), c.repro});
    out += join(f);
  }
  return out;
}

std::string render_validation_table(const Report& r, TableFormat format) {
  Table t;
  t.header = {"case", "disposition", "mismatches", "first mismatch / detail"};
  t.label_cols = 2;
  std::set<std::string> seen;
  std::map<Disposition, int> counts;
  for (const CaseResult& c : r.cases) {
    if (!seen.insert(c.id).second) continue;  // one row per case, not per timing mode
    ++counts[c.validation];
    const std::string where = c.validation == Disposition::passed ? ""
                              : !c.first_mismatch.empty()         ? c.first_mismatch
                                                                  : c.detail;
    const std::string id = format == TableFormat::markdown ? "`" + c.id + "`" : c.id;
    t.rows.push_back({id, to_string(c.validation), std::to_string(c.mismatches), where});
  }
  std::string summary = fmt::format("{} case{}:", seen.size(), seen.size() == 1 ? "" : "s");
  for (const auto& [d, n] : counts)
    summary += fmt::format(" {} {}", n, to_string(d));
  return render(t, format) + (format == TableFormat::markdown ? "\n" : "") + summary + "\n";
}

}  // namespace rkv
