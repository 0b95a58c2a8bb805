#include "cli/cli_support.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "base/suggest.h"
#include "cli/terminal.h"

namespace htpscope::cli {
namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(opt, is_positional);
    // "--no-graph{false}" -> "--no-graph": the braces state the value the
    // flag stores, which is an implementation detail to the reader.
    std::string out;
    int depth = 0;
    for (char c : name) {
      if (c == '{') ++depth;
      if (depth == 0) out += c;
      if (c == '}' && depth > 0) --depth;
    }
    return out;
  }
};

std::string Number(double v) { return fmt::format("{}", v); }

CLI::Validator NumberCheck(std::string description, std::function<bool(double)> ok,
                           std::string problem) {
  return CLI::Validator(
      [ok = std::move(ok), problem = std::move(problem)](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value))
          return "expected a number, got \"" + text + "\"";
        if (!ok(value)) return problem + " (got " + text + ")";
        return {};
      },
      std::move(description));
}

// The deepest subcommand the parse reached.
CLI::App* DeepestParsed(CLI::App& app) {
  CLI::App* at = &app;
  for (bool descended = true; descended;) {
    descended = false;
    for (CLI::App* sub : at->get_subcommands()) {
      at = sub;
      descended = true;
      break;
    }
  }
  return at;
}

std::vector<std::string> SubcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> OptionNames(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* a = app; a; a = a->get_parent())
    for (const CLI::Option* opt : a->get_options()) {
      for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    }
  return names;
}

std::string CommandPath(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a; a = a->get_parent())
    path = a->get_parent() ? a->get_name() + (path.empty() ? "" : " " + path) : path;
  return path.empty() ? "htpscope" : "htpscope " + path;
}

}  // namespace

std::shared_ptr<CLI::Formatter> MakeHelpFormatter() { return std::make_shared<HelpFormatter>(); }

CLI::Validator AtLeast(double minimum) {
  return NumberCheck(
      fmt::format("NUMBER >= {}", Number(minimum)), [minimum](double v) { return v >= minimum; },
      fmt::format("must be at least {}", Number(minimum)));
}

CLI::Validator GreaterThan(double bound) {
  return NumberCheck(
      fmt::format("NUMBER > {}", Number(bound)), [bound](double v) { return v > bound; },
      fmt::format("must be greater than {}", Number(bound)));
}

CLI::Validator Between(double low, double high) {
  return NumberCheck(
      fmt::format("NUMBER in [{} - {}]", Number(low), Number(high)),
      [low, high](double v) { return v >= low && v <= high; },
      fmt::format("must be between {} and {}", Number(low), Number(high)));
}

int ReportParseError(CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
  CLI::App* at = DeepestParsed(app);
  std::string message = error.what();
  std::vector<std::string> rest = app.remaining(true);
  if (at == &app) {
    // No subcommand recognised: the first word is most likely a misspelt one.
    for (const auto& word : rest) {
      if (word.empty() || word[0] == '-') continue;
      message =
          fmt::format("unknown command \"{}\"{}", word, DidYouMean(word, SubcommandNames(app)));
      break;
    }
    if (rest.empty() && dynamic_cast<const CLI::RequiredError*>(&error))
      message = fmt::format("a command is required: {}", fmt::join(SubcommandNames(app), ", "));
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    for (const auto& word : rest) {
      if (word.size() < 2 || word[0] != '-') continue;
      std::string name = word.substr(0, word.find('='));
      message = fmt::format("unknown option {} for {}{}", name, CommandPath(at),
                            DidYouMean(name, OptionNames(at)));
      break;
    }
  }
  fmt::print(stderr, "{}: {}\nRun '{} --help' for usage.\n",
             StyleError("htpscope: error", StderrStyled()), message, CommandPath(at));
  return 2;
}

void AddJsonFlag(CLI::App* cmd, bool& json, const std::string& schema_doc) {
  cmd->add_flag("--json", json, "Print JSON (schema: " + schema_doc + ")");
}

void AddFormatOptions(CLI::App* cmd, std::string& format, bool& json, const std::string& help,
                      const std::vector<std::string>& choices) {
  auto* format_option = cmd->add_option("--format", format, help)->check(CLI::IsMember(choices));
  cmd->add_flag("--json", json, "Same as --format json")->excludes(format_option);
}

}  // namespace htpscope::cli
