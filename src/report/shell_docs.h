// Shell completion scripts (bash, zsh, fish) and a man page, written from a
// description of the command line that the CLI derives from its own help
// texts, so the three and `--help` cannot disagree.
#pragma once

#include <string>
#include <vector>

namespace htpscope {

struct CliOptionDoc {
  std::vector<std::string> names;    // "--top", "-o", ...
  std::string value_name;            // "" for a flag, else e.g. "INT", "TEXT"
  std::vector<std::string> choices;  // the values it accepts, when a fixed set
  std::string help;
};

struct CliCommandDoc {
  std::string name, help, footer;
  std::vector<std::string> positionals;  // e.g. "RUN..."
  std::vector<CliOptionDoc> options;
};

struct CliDoc {
  std::string program, version, description;
  std::vector<CliOptionDoc> global_options;
  std::vector<CliCommandDoc> commands;
};

// A bash completion script defining _<program> and registering it with
// `complete`: subcommands, each one's options, fixed choices, files else.
std::string RenderBashCompletion(const CliDoc& doc);
// A zsh completion function (#compdef <program>) using _arguments.
std::string RenderZshCompletion(const CliDoc& doc);
// fish `complete` commands.
std::string RenderFishCompletion(const CliDoc& doc);
// A man page (section 1, roff -man): synopsis, commands with their options,
// exit status, environment.
std::string RenderManPage(const CliDoc& doc);

}  // namespace htpscope
