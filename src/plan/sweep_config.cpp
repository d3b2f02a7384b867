// Reading configs/*.json. Every value goes through the same parsers as the flags (set_axis,
// set_timing_field), so a config and a command line accept the same things.
#include "plan/sweep_config.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace rkv {
namespace {

using nlohmann::json;

std::string squote(const std::string& s) {
  return "'" + s + "'";
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

std::optional<long long> parse_integer(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  const std::size_t first = s[0] == '-' ? 1 : 0;
  if (first == s.size()) return std::nullopt;
  for (std::size_t i = first; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return v;
}

std::optional<double> parse_real(const std::string& s) {
  if (s.empty() || s.find_first_of(" \t\n") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno == ERANGE || end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

const char* json_type(const json& v) {
  if (v.is_number_float()) return "a fractional number";
  return v.type_name();
}

// An axis value in JSON: a string, an integer, or an array of those. Integers become their text
// so that set_axis applies the flags' rules to them.
std::optional<std::string> axis_items(const json& v, std::vector<std::string>* items) {
  auto one = [&](const json& e) -> std::optional<std::string> {
    if (e.is_string())
      items->push_back(e.get<std::string>());
    else if (e.is_number_integer())
      items->push_back(e.dump());
    else
      return std::string("expected a string or an integer, got ") + json_type(e) +
             (e.is_number_float() ? " " + e.dump() : "");
    return std::nullopt;
  };
  if (!v.is_array()) return one(v);
  if (v.empty()) return std::string("an empty array");
  for (const json& e : v)
    if (auto err = one(e)) return err;
  return std::nullopt;
}

std::string key_list(const std::vector<std::string>& keys) {
  return join(keys);
}

std::vector<std::string> axis_keys() {
  std::vector<std::string> keys;
  for (const AxisInfo& a : axis_infos())
    keys.emplace_back(a.key);
  return keys;
}

// `where` is the JSON path of `obj` for messages ("axes", "extra_cases[2]").
std::optional<std::string> read_axes(const json& obj, const std::string& where, SweepAxes* axes) {
  if (!obj.is_object()) return where + ": expected an object, got " + json_type(obj);
  for (const auto& [key, value] : obj.items()) {
    const AxisInfo* axis = find_axis_by_key(key);
    if (!axis)
      return where + ": unknown key " + squote(key) + " (expected one of " + key_list(axis_keys()) +
             ")";
    std::vector<std::string> items;
    if (auto err = axis_items(value, &items)) return where + "." + key + ": " + *err;
    if (auto err = set_axis(*axes, axis->axis, items)) return where + "." + key + ": " + *err;
  }
  return std::nullopt;
}

std::optional<std::string> read_timing(const json& obj, TimingOptions* timing) {
  if (!obj.is_object()) return "timing: expected an object, got " + std::string(json_type(obj));
  for (const auto& [key, value] : obj.items()) {
    const TimingFieldInfo* info = nullptr;
    for (const TimingFieldInfo& f : timing_fields())
      if (key == f.key) info = &f;
    if (!info) {
      std::vector<std::string> keys;
      for (const TimingFieldInfo& f : timing_fields())
        keys.emplace_back(f.key);
      return "timing: unknown key " + squote(key) + " (expected one of " + key_list(keys) + ")";
    }
    std::string text;
    const std::string where = "timing." + key + ": ";
    if (info->field == TimingField::modes) {
      std::vector<std::string> items;
      if (value.is_string()) {
        items.push_back(value.get<std::string>());
      } else if (value.is_array() && !value.empty()) {
        for (const json& e : value) {
          if (!e.is_string()) return where + "expected strings, got " + json_type(e);
          items.push_back(e.get<std::string>());
        }
      } else {
        return where + "expected a mode name or a non-empty array of them, got " + json_type(value);
      }
      text = join(items, ",");
    } else {
      if (!value.is_number()) return where + "expected a number, got " + json_type(value);
      text = value.dump();
    }
    if (auto err = set_timing_field(*timing, info->field, text)) return where + *err;
  }
  return timing_problem(*timing);
}

// nlohmann keeps the last of two equal keys without a word; a config that says "tokens" twice
// is a mistake worth stopping for, so the parser callback watches for it.
class DuplicateKeyWatch {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open_.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open_.empty()) open_.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open_.empty() && !open_.back().insert(parsed.get<std::string>()).second &&
            duplicate_.empty())
          duplicate_ = parsed.get<std::string>();
        break;
      default:
        break;
    }
    return true;
  }
  const std::string& duplicate() const { return duplicate_; }

 private:
  std::vector<std::set<std::string>> open_;
  std::string duplicate_;
};

std::optional<std::string> read_config(const json& root, SweepConfig* out) {
  if (!root.is_object())
    return "expected a JSON object at the top, got " + std::string(json_type(root));
  const std::vector<std::string> top = {"name", "description", "axes", "timing", "extra_cases"};
  for (const auto& [key, value] : root.items()) {
    if (key == "name" || key == "description") {
      if (!value.is_string()) return key + ": expected a string, got " + json_type(value);
      (key == "name" ? out->name : out->description) = value.get<std::string>();
    } else if (key == "axes") {
      if (auto err = read_axes(value, "axes", &out->axes)) return err;
    } else if (key == "timing") {
      if (auto err = read_timing(value, &out->timing)) return err;
    } else if (key == "extra_cases") {
      if (!value.is_array())
        return "extra_cases: expected an array, got " + std::string(json_type(value));
      for (std::size_t i = 0; i < value.size(); ++i) {
        SweepAxes extra;  // from the defaults, not from the file's axes (see sweep_config.h)
        if (auto err = read_axes(value[i], "extra_cases[" + std::to_string(i) + "]", &extra))
          return err;
        out->extra_cases.push_back(extra);
      }
    } else {
      return "unknown key " + squote(key) + " at the top level (expected one of " + key_list(top) +
             ")";
    }
  }
  return std::nullopt;
}

}  // namespace

const std::vector<TimingFieldInfo>& timing_fields() {
  static const std::vector<TimingFieldInfo> fields{
      {TimingField::modes, "modes", "--mode", "LIST", "timing modes: cold, warm, graph, wall"},
      {TimingField::min_samples, "min_samples", "--min-samples", "INT",
       "samples per variant before the noise target may stop sampling"},
      {TimingField::max_noise, "max_noise", "--max-noise", "PERCENT",
       "stop once the relative noise (IQR / median) is under this, in percent"},
      {TimingField::min_time_s, "min_time_s", "--min-time", "SECONDS",
       "measured time per variant before the noise target may stop sampling"},
      {TimingField::timeout_s, "timeout_s", "--timeout", "SECONDS",
       "stop sampling a variant after this long, converged or not"},
      {TimingField::warmup_s, "warmup_s", "--warmup", "SECONDS", "warm-up time per case"},
      {TimingField::warmup_min, "warmup_min", "--warmup-min", "INT", "warm-up launches at least"},
      {TimingField::graph_launches, "graph_launches", "--graph-launches", "INT",
       "launches captured per CUDA graph (graph mode)"},
      {TimingField::wall_launches, "wall_launches", "--wall-launches", "INT",
       "launches per host-clock sample (wall mode)"},
      {TimingField::batch_launches, "batch_launches", "--batch-launches", "INT",
       "launches per event pair (warm mode)"},
      {TimingField::passes, "passes", "--passes", "INT",
       "passes over the sweep, pooled; the speedup interval spans every pass"},
  };
  return fields;
}

std::optional<std::string> set_timing_field(TimingOptions& timing, TimingField field,
                                            const std::string& text) {
  auto integer = [&](int* dst, long long lo, long long hi) -> std::optional<std::string> {
    const auto v = parse_integer(text);
    if (!v) return squote(text) + " is not an integer";
    if (*v < lo || *v > hi)
      return squote(text) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "]";
    *dst = static_cast<int>(*v);
    return std::nullopt;
  };
  // `open_low`: the low end itself is not allowed (a zero timeout or noise target never stops).
  auto real = [&](double* dst, double lo, bool open_low, double hi,
                  double unit) -> std::optional<std::string> {
    const auto v = parse_real(text);
    if (!v) return squote(text) + " is not a number";
    if ((open_low ? *v <= lo : *v < lo) || *v > hi) {
      std::ostringstream range;
      range << (open_low ? "(" : "[") << lo << ", " << hi << "]";
      return squote(text) + " is out of range " + range.str();
    }
    *dst = *v * unit;
    return std::nullopt;
  };
  switch (field) {
    case TimingField::modes: {
      std::vector<TimingMode> modes;
      for (const std::string& item : split(text, ',')) {
        const auto m = parse_timing_mode(item);
        if (!m)
          return squote(item) + " is not a timing mode (one of " + join(timing_mode_names()) + ")";
        bool dup = false;
        for (TimingMode seen : modes)
          dup = dup || seen == *m;
        if (!dup) modes.push_back(*m);
      }
      timing.modes = modes;
      return std::nullopt;
    }
    case TimingField::min_samples:
      return integer(&timing.min_samples, 1, 1000000);
    case TimingField::max_noise:
      return real(&timing.max_noise, 0, true, 100, 0.01);
    case TimingField::min_time_s:
      return real(&timing.min_time_s, 0, false, 3600, 1);
    case TimingField::timeout_s:
      return real(&timing.timeout_s, 0, true, 3600, 1);
    case TimingField::warmup_s:
      return real(&timing.warmup_s, 0, false, 60, 1);
    case TimingField::warmup_min:
      return integer(&timing.warmup_min, 0, 1000000);
    case TimingField::graph_launches:
      return integer(&timing.graph_launches, 1, 10000);
    case TimingField::wall_launches:
      return integer(&timing.wall_launches, 1, 1000000);
    case TimingField::batch_launches:
      return integer(&timing.batch_launches, 1, 1000000);
    case TimingField::passes:
      return integer(&timing.passes, 1, 100);
  }
  return std::string("unknown timing setting");
}

std::optional<std::string> timing_problem(const TimingOptions& timing) {
  if (timing.timeout_s < timing.min_time_s) {
    std::ostringstream s;
    s << "timeout " << timing.timeout_s << " s is shorter than min time " << timing.min_time_s
      << " s";
    return s.str();
  }
  return std::nullopt;
}

std::optional<std::string> parse_sweep_config(const std::string& text, const std::string& path,
                                              SweepConfig* out) {
  SweepConfig cfg;
  cfg.path = path;
  DuplicateKeyWatch watch;
  json root;
  try {
    root = json::parse(text, std::ref(watch));
  } catch (const json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 3, column 5: ..."; the
    // bracketed id means nothing to a user.
    std::string what = e.what();
    const std::size_t close = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    return path + ": " + what;
  }
  if (!watch.duplicate().empty()) return path + ": duplicate key " + squote(watch.duplicate());
  try {
    if (auto err = read_config(root, &cfg)) return path + ": " + *err;
  } catch (const std::exception& e) {  // a json type surprise not caught above: still one line
    return path + ": " + e.what();
  }
  *out = cfg;
  return std::nullopt;
}

std::optional<std::string> load_sweep_config(const std::string& path, SweepConfig* out) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return path + ": no such file";
  if (std::filesystem::is_directory(path, ec)) return path + ": is a directory, not a JSON file";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return path + ": cannot be read";
  return parse_sweep_config(text.str(), path, out);
}

}  // namespace rkv
