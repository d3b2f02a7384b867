#include "cli/parse_errors.h"

#include <cctype>
#include <vector>

#include "cli/flag_values.h"
#include "text/quote.h"

namespace rkv {
namespace {

bool takes_value(const CLI::Option& opt) {
  return opt.get_type_size_max() > 0 && opt.get_expected_max() > 0;
}

bool is_positional(const CLI::Option& opt) {
  return opt.get_lnames().empty() && opt.get_snames().empty();
}

bool looks_like_flag(const std::string& v) {
  if (v.size() < 2 || v[0] != '-') return false;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  return !(digit(v[1]) || (v[1] == '.' && v.size() > 2 && digit(v[2])));
}

// The argv tokens that name `opt`: "--json", "--json=x".
bool names_option(const CLI::Option& opt, const std::string& token) {
  const std::string name = token.substr(0, token.find('='));
  for (const std::string& l : opt.get_lnames())
    if (name == "--" + l) return true;
  for (const std::string& s : opt.get_snames())
    if (name == "-" + s) return true;
  return false;
}

// "history export": a nested command is named with its parents, up to (not including) the app.
std::string command_path(const CLI::App& sub) {
  std::string path = sub.get_name();
  for (const CLI::App* p = sub.get_parent(); p && p->get_parent(); p = p->get_parent())
    path = p->get_name() + " " + path;
  return path;
}

std::string help_hint(const CLI::App* sub) {
  return sub ? "see `rope-kv-bench " + command_path(*sub) + " --help`"
             : "see `rope-kv-bench --help`";
}

std::string subcommand_names(const CLI::App& sub) {
  std::string names;
  for (const CLI::App* s : sub.get_subcommands([](const CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + s->get_name();
  return names;
}

std::string what_it_takes(const CLI::Option& opt) {
  const std::string type = opt.get_type_name();
  return type.empty() ? "a value" : "a value (" + type + ")";
}

const CLI::Option* find_option(const CLI::App* sub, const std::string& name) {
  if (!sub) return nullptr;
  for (const CLI::Option* opt : sub->get_options())
    if (opt->get_name() == name) return opt;
  return nullptr;
}

void visit_apps(CLI::App& app, void (*f)(CLI::App&)) {
  f(app);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    visit_apps(*sub, f);
}

}  // namespace

void prepare_for_parse(CLI::App& app) {
  visit_apps(app, [](CLI::App& a) { a.allow_extras(); });
}

void check_parsed_arguments(const CLI::App& sub, int argc, const char* const* argv) {
  // CLI11 reads `--dry-run=yes` as true and `--dry-run=no` as false; a flag is given or not.
  for (int i = 1; i < argc && std::string(argv[i]) != "--"; ++i) {
    const std::string token = argv[i];
    if (token.rfind("--", 0) != 0 || token.find('=') == std::string::npos) continue;
    for (const CLI::Option* opt : sub.get_options())
      if (!takes_value(*opt) && names_option(*opt, token))
        usage_fail(opt->get_name() + ": is a flag and takes no value (got " + quote(token) + ")");
  }
  const std::vector<std::string> extra = sub.remaining();
  if (!extra.empty()) {
    const std::string& first = extra.front();
    if (first.size() > 1 && first[0] == '-')
      usage_fail(quote(first) + " is not an option of " + command_path(sub) + " (" +
                 help_hint(&sub) + ")");
    usage_fail(quote(first) + ": unexpected argument to " + command_path(sub) + " (" +
               help_hint(&sub) + ")");
  }
  for (const CLI::Option* opt : sub.get_options()) {
    if (!takes_value(*opt) || is_positional(*opt)) continue;
    for (const std::string& value : opt->results())
      if (looks_like_flag(value))
        usage_fail(opt->get_name() + ": needs " + what_it_takes(*opt) + ", but got the flag " +
                   quote(value) + " (a path that starts with '-' can be written ./" +
                   one_line(value) + ")");
  }
}

const CLI::App* deepest_command(const CLI::App& app) {
  const CLI::App* sub = nullptr;
  for (std::vector<CLI::App*> given = app.get_subcommands(); !given.empty();
       given = given.front()->get_subcommands())
    sub = given.front();
  return sub;
}

std::string parse_error_line(const CLI::ParseError& e, const CLI::App* sub, int argc,
                             const char* const* argv) {
  const std::string kind = e.get_name();
  if (kind == "RequiredError" && sub) {
    for (const CLI::Option* opt : sub->get_options())
      if (opt->get_required() && opt->count() == 0)
        return command_path(*sub) + ": " +
               (is_positional(*opt)
                    ? "the argument " + opt->get_name() + " (" + opt->get_type_name() +
                          ") is missing"
                    : opt->get_name() +
                          (opt->get_type_name().empty() ? "" : " " + opt->get_type_name()) +
                          " is required") +
               " (" + help_hint(sub) + ")";
    // No option missing: a command that needs one of its own subcommands got none.
    if (sub->get_require_subcommand_min() > 0 && sub->get_subcommands().empty())
      return command_path(*sub) + ": a subcommand is required (one of " + subcommand_names(*sub) +
             ")";
  }
  // CLI11 names the option first in these ("--json: ..."); only the name is kept.
  const std::string what = e.what();
  const CLI::Option* opt = find_option(sub, what.substr(0, what.find(':')));
  if (opt) {
    int uses = 0;
    for (int i = 1; i < argc; ++i)
      uses += names_option(*opt, argv[i]);
    if (!takes_value(*opt))
      return opt->get_name() + ": is a flag and takes no value (" + help_hint(sub) + ")";
    if (uses > 1 && opt->get_expected_max() <= 1)
      return opt->get_name() + ": given more than once; give it once";
    if (argc > 1 && names_option(*opt, argv[argc - 1]))
      return opt->get_name() + ": needs " + what_it_takes(*opt) + ", and none was given";
    return opt->get_name() + ": cannot take the values given (" + help_hint(sub) + ")";
  }
  return "the command line cannot be read (" + help_hint(sub) + ")";
}

}  // namespace rkv
