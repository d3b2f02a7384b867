#include "gate/provenance.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace rkv {
namespace {

using nlohmann::json;

std::string text_key(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    throw ReportFormatError(where + "." + key + ": expected a string");
  return it->get<std::string>();
}

}  // namespace

CaseProvenance provenance_of(const Report& r) {
  return CaseProvenance{r.git_revision, r.created_utc, r.tool_version};
}

std::vector<CaseProvenance> read_case_provenance(const std::string& path, const Report& r) {
  std::vector<CaseProvenance> out(r.cases.size(), provenance_of(r));
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  // read_report() has parsed this file already, so it is JSON with a `cases` array.
  const json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array()) return out;
  const json& cases = j["cases"];
  for (std::size_t i = 0; i < cases.size() && i < out.size(); ++i) {
    if (!cases[i].is_object() || !cases[i].contains("measured_by")) continue;
    const std::string where = "report '" + path + "': cases[" + std::to_string(i) + "].measured_by";
    const json& m = cases[i]["measured_by"];
    if (!m.is_object()) throw ReportFormatError(where + ": expected an object");
    out[i] = CaseProvenance{text_key(m, "git_revision", where), text_key(m, "created_utc", where),
                            text_key(m, "tool_version", where)};
  }
  return out;
}

std::string report_json_with_provenance(const Report& r,
                                        const std::vector<CaseProvenance>& measured_by) {
  json j = json::parse(report_to_string(r));
  json& cases = j["cases"];
  for (std::size_t i = 0; i < cases.size() && i < measured_by.size(); ++i)
    cases[i]["measured_by"] = json{{"git_revision", measured_by[i].git_revision},
                                   {"created_utc", measured_by[i].created_utc},
                                   {"tool_version", measured_by[i].tool_version}};
  return j.dump(2) + "\n";
}

}  // namespace rkv
