// `htpscope completions bash|zsh|fish` and the man page (`htpscope manpage`,
// hidden; the build writes htpscope.1 with it): both from the help texts.
#include <fmt/format.h>

#include <algorithm>

#include "base/text_util.h"
#include "cli/commands.h"
#include "cli/version.h"
#include "report/shell_docs.h"

namespace htpscope::cli {
namespace {

CliOptionDoc OptionDoc(const CLI::Option* opt) {
  CliOptionDoc d;
  for (const auto& l : opt->get_lnames()) d.names.push_back("--" + l);
  for (const auto& s : opt->get_snames()) d.names.push_back("-" + s);
  d.help = opt->get_description();
  // CLI11's type name: "INT", "TEXT:{qnn,htp}", "TEXT:FILE"; "" for a flag.
  const std::string type = opt->get_type_name();
  if (opt->get_type_size() != 0 && !type.empty()) {
    d.value_name = type.substr(0, type.find(':'));
    size_t open = type.find('{'), close = type.find('}');
    if (open != std::string::npos && close != std::string::npos && close > open) {
      const std::string list = type.substr(open + 1, close - open - 1);
      for (std::string_view choice : SplitAt(list, ',')) {
        choice.remove_prefix(std::min(choice.size(), choice.find_first_not_of(' ')));
        if (!choice.empty()) d.choices.emplace_back(choice);
      }
    }
  }
  return d;
}

CliDoc DocOf(const CLI::App& app) {
  CliDoc doc;
  doc.program = "htpscope";
  doc.version = VersionText();
  doc.description = app.get_description();
  const std::string prefix = doc.program + ": ";
  if (doc.description.rfind(prefix, 0) == 0) doc.description.erase(0, prefix.size());
  for (const CLI::Option* opt : app.get_options())
    if (!opt->get_positional()) doc.global_options.push_back(OptionDoc(opt));
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden
    CliCommandDoc c;
    c.name = sub->get_name();
    c.help = sub->get_description();
    c.footer = sub->get_footer();
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_positional())
        c.positionals.push_back(opt->get_name() + (opt->get_items_expected_max() > 1 ? "..." : ""));
      else
        c.options.push_back(OptionDoc(opt));
    }
    doc.commands.push_back(std::move(c));
  }
  return doc;
}

}  // namespace

void RegisterShellDocCommands(CLI::App& app, CommandRegistry& registry) {
  static std::string shell;
  auto* completions =
      app.add_subcommand("completions",
                         "Print a shell completion script for bash, zsh or fish, e.g. "
                         "source <(htpscope completions bash)");
  completions->add_option("shell", shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  registry.Add(completions, [&app] {
    CliDoc doc = DocOf(app);
    fmt::print("{}", shell == "bash"  ? RenderBashCompletion(doc)
                     : shell == "zsh" ? RenderZshCompletion(doc)
                                      : RenderFishCompletion(doc));
    return 0;
  });
  auto* manpage = app.add_subcommand("manpage", "Print the man page (roff)");
  manpage->group("");  // hidden: the build installs its output as htpscope.1
  registry.Add(manpage, [&app] {
    fmt::print("{}", RenderManPage(DocOf(app)));
    return 0;
  });
}

}  // namespace htpscope::cli
