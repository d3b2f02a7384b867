#include "gate/github_output.h"

namespace rkv {
namespace {

// Workflow-command message data escapes %, CR and LF (GitHub's toolkit does the same).
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string command(const char* kind, const std::string& title, const std::string& message) {
  // Property values additionally escape ':' and ','; the titles here hold neither.
  return std::string("::") + kind + " title=" + title + "::" + escape(message) + "\n";
}

std::string case_text(const CaseComparison& c) {
  std::string s = c.id + " (" + c.mode + "): " + to_string(c.verdict);
  for (const std::string& n : c.notes)
    s += "; " + n;
  return s;
}

}  // namespace

std::string github_annotations(const CompareOutcome& o) {
  std::string out;
  if (o.exit == CompareExit::usage || o.exit == CompareExit::environment)
    out += command("error", "perf gate refused", o.message);
  for (const std::string& w : o.warnings)
    out += command("warning", "perf gate", w);
  for (const CaseComparison& c : o.cases) {
    if (fails_gate(c.verdict, o.allow_missing))
      out += command("error", "perf gate " + to_string(c.verdict), case_text(c));
    else if (c.verdict == Verdict::noted || c.verdict == Verdict::unconfirmed ||
             c.verdict == Verdict::accepted || c.verdict == Verdict::missing)
      out += command("warning", "perf gate " + to_string(c.verdict), case_text(c));
  }
  return out;
}

}  // namespace rkv
