// Reading configs/*.json. Every value goes through the same parsers as the flags (set_axis,
// set_timing_field), and every JSON value through JsonField, so a config and a command line
// accept the same things and a bad key reads like a bad report key.
#include "plan/sweep_config.h"

#include "json/json_field.h"
#include "json/json_text.h"
#include "plan/token_modes.h"
#include "text/lists.h"
#include "text/quote.h"

namespace rkv {
namespace {

// An axis value in JSON: a string, an integer, or a non-empty array of those. Integers become
// their text so that set_axis applies the flags' rules to them.
std::vector<std::string> axis_items(const JsonField& value) {
  auto one = [](const JsonField& e) {
    if (e.is_string()) return e.as_string();
    if (!e.is_integer()) e.fail("expected a string or an integer, got " + e.describe());
    return e.number_text();
  };
  if (!value.is_array()) return {one(value)};
  std::vector<std::string> items;
  for (const JsonField& e : value.elements())
    items.push_back(one(e));
  if (items.empty()) value.fail("an empty array");
  return items;
}

std::vector<std::string> axis_keys() {
  std::vector<std::string> keys;
  for (const AxisInfo& a : axis_infos())
    keys.emplace_back(a.key);
  return keys;
}

SweepAxes read_axes(const JsonField& obj, SweepAxes axes) {
  obj.check_keys(axis_keys());
  for (const JsonField& value : obj.members())
    if (auto err = set_axis(axes, find_axis_by_key(value.key())->axis, axis_items(value)))
      value.fail(*err);
  return axes;
}

TimingOptions read_timing(const JsonField& obj, TimingOptions timing) {
  std::vector<std::string> keys;
  for (const TimingFieldInfo& f : timing_fields())
    keys.emplace_back(f.key);
  keys.emplace_back("modes_by_tokens");
  obj.check_keys(keys);
  if (auto rule = obj.find("modes_by_tokens")) {
    if (obj.has("modes"))
      obj.fail(
          "modes and modes_by_tokens exclude each other (give one: modes for every case, "
          "modes_by_tokens per token range)");
    set_token_modes(timing, read_token_modes(*rule));
  }
  for (const TimingFieldInfo& info : timing_fields()) {
    const std::optional<JsonField> value = obj.find(info.key);
    if (!value) continue;
    std::string text;
    if (info.field == TimingField::modes) {
      std::vector<std::string> items;
      if (value->is_string()) {
        items.push_back(value->as_string());
      } else if (value->is_array() && !value->elements().empty()) {
        for (const JsonField& e : value->elements())
          items.push_back(e.as_string());
      } else {
        value->fail("expected a mode name or a non-empty array of them, got " + value->describe());
      }
      text = join(items, ",");
    } else {
      text = value->number_text();
    }
    if (auto err = set_timing_field(timing, info.field, text)) value->fail(*err);
  }
  if (auto err = timing_problem(timing)) obj.fail(*err);
  return timing;
}

SweepConfig read_config(const JsonField& root) {
  if (!root.is_object()) root.fail("expected a JSON object at the top, got " + root.describe());
  root.check_keys({"name", "description", "axes", "timing", "extra_cases"});
  SweepConfig cfg;
  if (auto v = root.find("name")) cfg.name = v->as_string();
  if (auto v = root.find("description")) cfg.description = v->as_string();
  if (auto v = root.find("axes")) cfg.axes = read_axes(*v, cfg.axes);
  if (auto v = root.find("timing")) cfg.timing = read_timing(*v, cfg.timing);
  if (auto v = root.find("extra_cases"))
    for (const JsonField& e : v->elements())  // from the defaults, not the file's axes
      cfg.extra_cases.push_back(read_axes(e, SweepAxes{}));
  return cfg;
}

// Reads the value `parse` gives into `out`; any JsonError becomes one line naming `path`.
template <class Parse>
std::optional<std::string> read_into(SweepConfig* out, const std::string& path, Parse parse) {
  try {
    const nlohmann::json root = parse();
    SweepConfig cfg = read_config(JsonField(root));
    cfg.path = path;
    *out = cfg;
    return std::nullopt;
  } catch (const JsonError& e) {
    return path + ": " + e.what();
  }
}

}  // namespace

std::optional<std::string> parse_sweep_config(const std::string& text, const std::string& path,
                                              SweepConfig* out) {
  return read_into(out, path, [&] { return parse_json(text); });
}

std::optional<std::string> load_sweep_config(const std::string& path, SweepConfig* out) {
  return read_into(out, path, [&] { return read_json_file(path); });
}

}  // namespace rkv
